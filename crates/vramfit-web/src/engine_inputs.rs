//! The engine fieldset: which serving engine, and its own knobs under their flag names.

use crate::engine_form::{EngineForm, ENGINES};
use crate::field::{Input, Problem};
use crate::text::{self, t};
use crate::widgets::{field_error, CheckField, NumberField, SelectField};
use leptos::prelude::*;
use vramfit_core::VllmVersion;
use vramfit_i18n::{Key, Locale};

/// The engine picker and the chosen engine's knobs.
#[component]
pub fn EngineInputs(
    /// Engine fields.
    form: EngineForm,
    /// Current problems per field.
    problems: Memo<Vec<(Input, Problem)>>,
    /// Whether the model has routed experts (llama.cpp's experts-in-host-RAM fields show then).
    moe: Signal<bool>,
    /// Language.
    l: Locale,
) -> impl IntoView {
    let err = move |name: &'static str| field_error(problems, Input::Engine(name), l);
    let is = move |name: &'static str| move || form.engine.get() == name;
    view! {
        <fieldset>
            <legend>{t(l, Key::EngineLegend)}</legend>
            <label for="engine">{t(l, Key::EngineLabel)}</label>
            <select id="engine" data-testid="engine" on:change=move |ev| form.engine.set(event_target_value(&ev))>
                {ENGINES.into_iter().map(|e| view! {
                    <option value=e selected=move || form.engine.get() == e>{text::engine_name(l, e)}</option>
                }).collect_view()}
            </select>
            <p class="hint">{move || text::engine_hint(l, &form.engine.get())}</p>
            <Show when=is("vllm")>
                <div class="row">
                    <NumberField id="gpu_memory_utilization" label="gpu_memory_utilization" value=form.util error=err("gpu_memory_utilization") decimal=true />
                    <NumberField id="max_num_seqs" label=t(l, Key::VllmMaxNumSeqs) value=form.max_num_seqs error=err("max_num_seqs") />
                </div>
                <div class="row">
                    <NumberField id="max_num_batched_tokens" label=t(l, Key::VllmBatched) value=form.batched error=err("max_num_batched_tokens") />
                    <SelectField id="vllm_version" label=t(l, Key::VllmGeneration) value=form.version options=VllmVersion::ALL.into_iter().map(|v| (v.id(), v.releases())).collect() />
                </div>
                <div class="row">
                    // vLLM's own flag name: it replaces the fraction when set.
                    <NumberField id="kv_cache_memory" label="--kv-cache-memory (GiB)" value=form.kv_memory error=err("kv_cache_memory_bytes") decimal=true />
                    <CheckField id="enforce_eager" label=t(l, Key::VllmEager) value=form.eager />
                </div>
            </Show>
            <Show when=is("sglang")>
                <div class="row">
                    <NumberField id="mem_fraction_static" label=t(l, Key::SglangMemFraction) value=form.mem_fraction error=err("mem_fraction_static") decimal=true />
                    <NumberField id="chunked_prefill_size" label=t(l, Key::SglangChunk) value=form.chunked error=err("chunked_prefill_size") />
                </div>
            </Show>
            <Show when=is("llama_cpp")>
                <div class="row">
                    <NumberField id="n_gpu_layers" label=t(l, Key::LlamaNgl) value=form.ngl error=err("n_gpu_layers") />
                    <NumberField id="n_ubatch" label="n_ubatch / -ub" value=form.ubatch error=err("n_ubatch") />
                </div>
                <div class="row">
                    <NumberField id="n_batch" label="n_batch / -b" value=form.batch error=err("n_batch") />
                    <CheckField id="flash_attn" label=t(l, Key::LlamaFlash) value=form.flash_attn />
                </div>
                <div class="row">
                    <SelectField id="cache_type_k" label=t(l, Key::LlamaCtk) value=form.ctk options=CACHE_TYPES.to_vec() />
                    <SelectField id="cache_type_v" label=t(l, Key::LlamaCtv) value=form.ctv options=CACHE_TYPES.to_vec() />
                </div>
                <p class="err" role="alert">{move || err("cache_type_v").get()}</p>
                <CheckField id="kv_unified" label=t(l, Key::LlamaUnified) value=form.unified />
                <Show when=move || moe.get()>
                    <div class="row">
                        <NumberField id="n_cpu_moe" label=t(l, Key::LlamaNCpuMoe) value=form.n_cpu_moe error=err("n_cpu_moe") />
                        <CheckField id="cpu_moe" label=t(l, Key::LlamaCpuMoe) value=form.cpu_moe />
                    </div>
                </Show>
                <NumberField id="host_bandwidth_gb_s" label=t(l, Key::LlamaHostBandwidth) value=form.host_bandwidth error=err("host_bandwidth_gb_s") decimal=true />
            </Show>
            <Show when=is("transformers")>
                <div class="row">
                    <NumberField id="max_new_tokens" label="max_new_tokens" value=form.new_tokens error=err("max_new_tokens") />
                    <SelectField id="attn_implementation" label="attn_implementation" value=form.attn options=vec![("sdpa", "sdpa"), ("eager", "eager")] />
                </div>
                <SelectField id="cache_implementation" label="cache_implementation" value=form.cache options=vec![("dynamic", "dynamic"), ("static", "static")] />
            </Show>
        </fieldset>
    }
}

const CACHE_TYPES: &[(&str, &str)] = &[
    ("f16", "f16"),
    ("bf16", "bf16"),
    ("q8_0", "q8_0"),
    ("q5_1", "q5_1"),
    ("q5_0", "q5_0"),
    ("q4_1", "q4_1"),
    ("q4_0", "q4_0"),
    ("iq4_nl", "iq4_nl"),
    ("f32", "f32"),
];
