//! The engine fieldset: which serving engine, and its own knobs under their flag names.

use crate::ui::field::{Input, Problem};
use crate::ui::locale::locale;
use crate::ui::text::{self, t};
use crate::ui::widgets::{field_error, CheckField, NumberField, SelectField};
use crate::workload::engine::form::EngineForm;
use leptos::prelude::*;
use vramfit_core::{AttnImplementation, CacheImplementation, CacheType, EngineKind, VllmVersion};
use vramfit_i18n::Key;

/// The engine picker and the chosen engine's knobs.
#[component]
pub fn EngineInputs(
    /// Engine fields.
    form: EngineForm,
    /// Current problems per field.
    problems: Memo<Vec<(Input, Problem)>>,
    /// Whether the model has routed experts (llama.cpp's experts-in-host-RAM fields show then).
    moe: Signal<bool>,
) -> impl IntoView {
    let l = locale();
    let err = move |name: &'static str| field_error(problems, Input::Engine(name), l);
    let is = move |kind: EngineKind| move || form.engine.get() == Some(kind);
    view! {
        <fieldset>
            <legend>{t(l, Key::EngineLegend)}</legend>
            <label for="engine">{t(l, Key::EngineLabel)}</label>
            <select id="engine" data-testid="engine" on:change=move |ev| form.engine.set(EngineKind::from_id(&event_target_value(&ev)))>
                <option value="" selected=move || form.engine.get().is_none()>{text::engine_name(l, None)}</option>
                {EngineKind::ALL.into_iter().map(|e| view! {
                    <option value=e.id() selected=move || form.engine.get() == Some(e)>{text::engine_name(l, Some(e))}</option>
                }).collect_view()}
            </select>
            <p class="hint">{move || text::engine_hint(l, form.engine.get())}</p>
            <Show when=is(EngineKind::Vllm)>
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
            <Show when=is(EngineKind::Sglang)>
                <div class="row">
                    <NumberField id="mem_fraction_static" label=t(l, Key::SglangMemFraction) value=form.mem_fraction error=err("mem_fraction_static") decimal=true />
                    <NumberField id="chunked_prefill_size" label=t(l, Key::SglangChunk) value=form.chunked error=err("chunked_prefill_size") />
                </div>
            </Show>
            <Show when=is(EngineKind::LlamaCpp)>
                <div class="row">
                    <NumberField id="n_gpu_layers" label=t(l, Key::LlamaNgl) value=form.ngl error=err("n_gpu_layers") />
                    <NumberField id="n_ubatch" label="n_ubatch / -ub" value=form.ubatch error=err("n_ubatch") />
                </div>
                <div class="row">
                    <NumberField id="n_batch" label="n_batch / -b" value=form.batch error=err("n_batch") />
                    <CheckField id="flash_attn" label=t(l, Key::LlamaFlash) value=form.flash_attn />
                </div>
                <div class="row">
                    <SelectField id="cache_type_k" label=t(l, Key::LlamaCtk) value=form.ctk options=CacheType::ALL.into_iter().map(|c| (c.id(), c.id())).collect() />
                    <SelectField id="cache_type_v" label=t(l, Key::LlamaCtv) value=form.ctv options=CacheType::ALL.into_iter().map(|c| (c.id(), c.id())).collect() />
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
            <Show when=is(EngineKind::Transformers)>
                <div class="row">
                    <NumberField id="max_new_tokens" label="max_new_tokens" value=form.new_tokens error=err("max_new_tokens") />
                    <SelectField id="attn_implementation" label="attn_implementation" value=form.attn options=AttnImplementation::ALL.into_iter().map(|a| (a.id(), a.id())).collect() />
                </div>
                <SelectField id="cache_implementation" label="cache_implementation" value=form.cache options=CacheImplementation::ALL.into_iter().map(|c| (c.id(), c.id())).collect() />
            </Show>
        </fieldset>
    }
}
