//! The input half of the page: model (catalog search or pasted config.json), formats, workload,
//! cards and headroom. Each field shows its own problem; typed text is never replaced.

use crate::engine_inputs::EngineInputs;
use crate::form::{Form, Input, Problem, GPU_CUSTOM, GPU_RECOMMEND};
use crate::format::params;
use crate::text;
use leptos::prelude::*;
use vramfit_core::catalog::{self, GPUS};
use vramfit_core::format::WeightFormat;
use vramfit_core::precision::Precision;
use vramfit_core::Estimate;

/// The inputs.
#[component]
pub fn Inputs(
    /// Field signals.
    form: Form,
    /// Current problems per field.
    problems: Memo<Vec<(Input, Problem)>>,
    /// Last valid estimate (for the pasted model's summary).
    estimate: Signal<Option<Estimate>>,
) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    let error = move |input: Input| {
        move || {
            problems
                .get()
                .into_iter()
                .find(|(i, _)| *i == input)
                .map(|(_, p)| text::problem(&p))
        }
    };
    let using_config = move || !form.config.get().trim().is_empty();
    view! {
        <section class="inputs" aria-label="Inputs">
            <fieldset>
                <legend>"Model"</legend>
                <label for="model-filter">"Search the catalog"</label>
                <input id="model-filter" type="search" placeholder="llama, qwen 7b, gemma…"
                    prop:value=move || filter.get()
                    on:input=move |ev| filter.set(event_target_value(&ev)) />
                <label for="model" class="sr-only">"Model"</label>
                <select id="model" data-testid="model" prop:disabled=using_config
                    on:change=move |ev| form.model.set(event_target_value(&ev))>
                    {move || {
                        let f = filter.get().to_lowercase();
                        let current = form.model.get();
                        catalog::models()
                            .filter(|m| {
                                m.id == current
                                    || f.split_whitespace().all(|w| {
                                        m.name.to_lowercase().contains(w) || m.id.contains(w)
                                    })
                            })
                            .map(|m| {
                                let id = m.id;
                                view! {
                                    <option value=id selected=id == current>
                                        {format!("{} ({})", m.name, params(m.published_params))}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
                <details open=using_config()>
                    <summary>"or paste a config.json"</summary>
                    <label for="config">"Hugging Face config.json (read here, never uploaded)"</label>
                    <textarea id="config" data-testid="config" rows="6" spellcheck="false"
                        placeholder="{ \"model_type\": \"llama\", \"hidden_size\": 4096, … }"
                        prop:value=move || form.config.get()
                        on:input=move |ev| form.config.set(event_target_value(&ev))></textarea>
                    <p class="err" role="alert" data-testid="err-config">{error(Input::Config)}</p>
                    {move || (using_config() && error(Input::Config)().is_none()).then(|| {
                        estimate.get().map(|e| view! {
                            <p class="ok" data-testid="config-summary">
                                {format!("Read: {} layers, {} parameters, {} KV heads × {}.",
                                    e.model.arch.layers, params(e.model.params),
                                    e.model.arch.kv_heads, e.model.arch.head_dim)}
                            </p>
                        })
                    })}
                    <button type="button" on:click=move |_| form.config.set(String::new())
                        prop:hidden=move || !using_config()>"Use the catalog model"</button>
                </details>
            </fieldset>
            <fieldset>
                <legend>"Formats"</legend>
                <div class="row">
                    <div>
                        <label for="weights">"Weights"</label>
                        <select id="weights" data-testid="weights"
                            on:change=move |ev| form.weights.set(event_target_value(&ev))>
                            {WeightFormat::all().into_iter().map(|f| {
                                let id = f.id();
                                let label = text::format_label(f);
                                let id2 = id.clone();
                                view! {
                                    <option value=id selected=move || form.weights.get() == id2>{label}</option>
                                }
                            }).collect_view()}
                        </select>
                    </div>
                    <div>
                        <label for="kv">"KV cache"</label>
                        <select id="kv" data-testid="kv"
                            on:change=move |ev| form.kv.set(event_target_value(&ev))>
                            <option value="" selected=move || form.kv.get().is_empty()>"as compute"</option>
                            {Precision::ALL.into_iter().map(|p| view! {
                                <option value=p.id() selected=move || form.kv.get() == p.id()>{p.id()}</option>
                            }).collect_view()}
                        </select>
                    </div>
                </div>
            </fieldset>
            <fieldset>
                <legend>"Workload: serving"</legend>
                <NumberField id="ctx" label="Context per sequence (tokens, max_model_len)" value=form.context error=Signal::derive(error(Input::Context)) />
                <NumberField id="seqs" label="Concurrent sequences (requests served at once)" value=form.sequences error=Signal::derive(error(Input::Sequences)) />
                <Show when=move || form.engine.engine.get().is_empty()>
                    <NumberField id="chunk" label="Prefill chunk (tokens per step)" value=form.chunk error=Signal::derive(error(Input::Chunk)) />
                </Show>
            </fieldset>
            <EngineInputs form=form.engine problems=problems />
            <fieldset>
                <legend>"GPUs"</legend>
                <label for="gpu">"Card"</label>
                <select id="gpu" data-testid="gpu" on:change=move |ev| form.gpu.set(event_target_value(&ev))>
                    <option value=GPU_RECOMMEND selected=move || form.gpu.get() == GPU_RECOMMEND>"Recommend a card"</option>
                    {GPUS.iter().map(|g| {
                        let id = g.id;
                        view! {
                            <option value=id selected=move || form.gpu.get() == id>
                                {format!("{} — {} GB", g.name, g.marketed_gb)}
                            </option>
                        }
                    }).collect_view()}
                    <option value=GPU_CUSTOM selected=move || form.gpu.get() == GPU_CUSTOM>"Other card: type its memory…"</option>
                </select>
                <Show when=move || form.gpu.get() == GPU_CUSTOM>
                    <NumberField id="mem" label="Memory per card (GiB, as nvidia-smi / torch reports it)" value=form.memory error=Signal::derive(error(Input::GpuMemory)) decimal=true />
                </Show>
                <div class="row">
                    <NumberField id="count" label="Number of cards" value=form.count error=Signal::derive(error(Input::Count)) />
                    <NumberField id="headroom" label="Headroom (%)" value=form.headroom error=Signal::derive(error(Input::Headroom)) />
                </div>
            </fieldset>
        </section>
    }
}

/// A labelled text field for a number, with its problem shown below it.
#[component]
pub fn NumberField(
    /// Element id (also the test id).
    id: &'static str,
    /// Visible label.
    label: &'static str,
    /// The text.
    value: RwSignal<String>,
    /// The field's problem, if any.
    error: Signal<Option<String>>,
    /// Whether decimals are expected.
    #[prop(optional)]
    decimal: bool,
) -> impl IntoView {
    let err_id = format!("err-{id}");
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input id=id data-testid=id type="text" inputmode=if decimal { "decimal" } else { "numeric" }
                autocomplete="off"
                aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                aria-describedby=err_id.clone()
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev)) />
            <p class="err" id=err_id.clone() data-testid=err_id role="alert">{move || error.get()}</p>
        </div>
    }
}
