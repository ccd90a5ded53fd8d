//! The input half of the page: model (catalog search or pasted config.json), formats, workload,
//! engine, cards and headroom. Each field shows its own problem; typed text is never replaced.

use crate::files::drop::FileDrop;
use crate::files::reader::HeaderSummary;
use crate::ui::field::{Input, Problem};
use crate::ui::locale::locale;
use crate::ui::markup::escape;
use crate::ui::numbers::params;
use crate::ui::text::{self, f, t};
use crate::ui::widgets::{field_error, NumberField, SelectField};
use crate::workload::custom::inputs::CustomInputs;
use crate::workload::engine::inputs::EngineInputs;
use crate::workload::form::{ExactWeights, Form, GPU_CUSTOM, GPU_RECOMMEND};
use crate::workload::gen::inputs::GenInputs;
use crate::workload::spec::inputs::SpecInputs;
use crate::workload::train::inputs::TrainInputs;
use leptos::prelude::*;
use vramfit_core::catalog::Availability;
use vramfit_core::{
    catalog, EngineKind, Estimate, KvCacheFormat, RecommendBy, WeightFormat, WorkloadKind,
};
use vramfit_i18n::{Key, Locale, PluralKey};

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
    let l = locale();
    let filter = RwSignal::new(String::new());
    let error = move |input: Input| field_error(problems, input, l);
    // The other workloads' fields are code the first answer does not run: before the rest of the
    // app is in, a busy sign stands in for them (the rest is loading; `Live` waits for it too).
    let settled = crate::platform::later::settled();
    let busy =
        move || view! { <p class="busy" data-testid="busy-inputs">{t(l, Key::BusyRest)}</p> };
    // The model the fields name, read once per change of the model or the pasted config (the
    // proposer list and the MTP choice both read it).
    let model_arch = Memo::new(move |_| form.model_arch());
    let using_config = move || !form.config.get().trim().is_empty();
    view! {
        <section class="inputs" aria-label=t(l, Key::InputsAria)>
            <div class="workload-switch" role="radiogroup" aria-label=t(l, Key::WorkloadLabel) data-testid="workload">
                {WorkloadKind::ALL.into_iter().map(|kind| {
                    let v = kind.short_id();
                    view! {
                        <label class="pill">
                            <input type="radio" name="workload" value=v data-testid=format!("workload-{v}")
                                prop:checked=move || form.workload.get() == kind
                                on:change=move |_| form.workload.set(kind) />
                            {t(l, workload_key(kind))}
                        </label>
                    }
                }).collect_view()}
            </div>
            <fieldset prop:hidden=move || !form.workload.get().needs_model()>
                <legend>{t(l, Key::ModelLegend)}</legend>
                <label for="model-filter">{t(l, Key::SearchCatalog)}</label>
                <input id="model-filter" type="search" placeholder=t(l, Key::SearchPlaceholder)
                    prop:value=move || filter.get()
                    on:input=move |ev| {
                        let q = event_target_value(&ev);
                        // A Hub name pasted whole (`org/repo`, `…-AWQ`, `…-GGUF:Q4_K_M`) picks
                        // its model and the format the name implies, as a link would.
                        if q.contains('/') || q.contains(':') {
                            if let Some(hit) = catalog::lookup(&q) {
                                form.model.set(hit.model.id.to_string());
                                if let Some(format) = hit.format {
                                    form.weights.set(format.id());
                                }
                            }
                        }
                        filter.set(q);
                    }
                    // Enter takes the first model the words match (the list keeps the current one
                    // at its place, so without this "llama 3.3" + Enter kept Llama 3.1 8B).
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" {
                            ev.prevent_default();
                            let words = words_of(&filter.get_untracked());
                            if let Some(m) = catalog::models().find(|m| matches_words(m, &words)) {
                                form.model.set(m.id.to_string());
                            }
                        }
                    } />
                <label for="model" class="sr-only">{t(l, Key::ModelLegend)}</label>
                <select id="model" data-testid="model" prop:disabled=using_config
                    on:change=move |ev| form.model.set(event_target_value(&ev))
                    // The select shows exactly what is computed: the whole list is one HTML string
                    // re-rendered when the model, the filter or the pasted config changes (an
                    // element and an effect per option was the first render's largest cost), the
                    // computed model carries `selected`, and a pasted config.json is shown as such.
                    inner_html=move || {
                        let words = words_of(&filter.get());
                        let current = form.model.get();
                        let pasted = using_config();
                        let pasted_option = pasted
                            .then(|| (String::new(), t(l, Key::PastedConfig).to_string()));
                        options_html(
                            pasted_option.into_iter().chain(
                                catalog::models()
                                    .filter(|m| m.id == current || matches_words(m, &words))
                                    .map(|m| (m.id.to_string(), option_label(l, m.name, m.published_params))),
                            ),
                            if pasted { "" } else { &current },
                        )
                    }>
                </select>
                <details open=using_config()>
                    <summary>{t(l, Key::PasteConfig)}</summary>
                    <label for="config">{t(l, Key::ConfigLabel)}</label>
                    <textarea id="config" data-testid="config" rows="6" spellcheck="false"
                        placeholder="{ \"model_type\": \"llama\", \"hidden_size\": 4096, … }"
                        prop:value=move || form.config.get()
                        on:input=move |ev| form.config.set(event_target_value(&ev))></textarea>
                    <p class="err" role="alert" data-testid="err-config">{move || error(Input::Config).get()}</p>
                    {move || (using_config() && error(Input::Config).get().is_none()).then(|| {
                        estimate.get().and_then(|e| e.model).map(|m| view! {
                            <p class="ok" data-testid="config-summary">
                                {f(l, Key::ConfigRead, &[
                                    ("layers", &l.count(PluralKey::Layers, u64::from(m.arch.layers))),
                                    ("params", &params(l, m.params)),
                                    ("kv", &m.arch.kv_heads.to_string()),
                                    ("hd", &m.arch.head_dim.to_string()),
                                ])}
                            </p>
                        })
                    })}
                    <button type="button" on:click=move |_| form.config.set(String::new())
                        prop:hidden=move || !using_config()>{t(l, Key::UseCatalogModel)}</button>
                </details>
                <FileDrop on_read=Callback::new(move |r: HeaderSummary| use_header(form, &r))
                    on_config=Callback::new(move |text: String| form.config.set(text)) />
            </fieldset>
            <fieldset prop:hidden=move || form.workload.get() != WorkloadKind::Inference>
                <legend>{t(l, Key::FormatsLegend)}</legend>
                <div class="row">
                    <div>
                        <label for="weights">{t(l, Key::WeightsLabel)}</label>
                        <select id="weights" data-testid="weights"
                            on:change=move |ev| form.weights.set(event_target_value(&ev))
                            inner_html=move || options_html(
                                WeightFormat::all().into_iter().map(|fm| (fm.id(), text::format_label(l, fm))),
                                &form.weights.get(),
                            )>
                        </select>
                    </div>
                    <div>
                        <label for="kv">{t(l, Key::KvCacheLabel)}</label>
                        <select id="kv" data-testid="kv"
                            on:change=move |ev| form.kv.set(event_target_value(&ev))>
                            <option value="" selected=move || form.kv.get().is_empty()>{t(l, Key::KvAsCompute)}</option>
                            {KvCacheFormat::ALL.into_iter().map(|p| view! {
                                <option value=p.id() selected=move || form.kv.get() == p.id()>{p.id()}</option>
                            }).collect_view()}
                        </select>
                    </div>
                </div>
            </fieldset>
            <Show when=move || form.workload.get() == WorkloadKind::Inference>
                <fieldset>
                    <legend>{t(l, Key::WorkloadLegend)}</legend>
                    <NumberField id="ctx" label=t(l, Key::ContextLabel) value=form.context error=error(Input::Context) />
                    <NumberField id="seqs" label=t(l, Key::SequencesLabel) value=form.sequences error=error(Input::Sequences) />
                    <Show when=move || form.engine.engine.get().is_none()>
                        <NumberField id="chunk" label=t(l, Key::ChunkLabel) value=form.chunk error=error(Input::Chunk) />
                    </Show>
                    <SpecInputs form=form.spec arch=model_arch.into()
                        runs_mtp=Signal::derive(move || matches!(form.engine.engine.get(), None | Some(EngineKind::Vllm | EngineKind::Sglang)))
                        problems=problems />
                </fieldset>
                <EngineInputs form=form.engine problems=problems moe=Signal::derive(move || estimate.with(|e| e.as_ref().and_then(|e| e.model.as_ref()).is_some_and(|m| m.arch.moe.is_some()))) />
            </Show>
            <Show when=move || form.workload.get() == WorkloadKind::Train>
                <Show when=move || settled.get() fallback=busy>
                    <TrainInputs form=form.train problems=problems />
                </Show>
            </Show>
            <Show when=move || form.workload.get() == WorkloadKind::GenerateImage>
                <Show when=move || settled.get() fallback=busy>
                    <GenInputs form=form.image video=false problems=problems />
                </Show>
            </Show>
            <Show when=move || form.workload.get() == WorkloadKind::GenerateVideo>
                <Show when=move || settled.get() fallback=busy>
                    <GenInputs form=form.video video=true problems=problems />
                </Show>
            </Show>
            <Show when=move || form.workload.get() == WorkloadKind::Custom>
                <Show when=move || settled.get() fallback=busy>
                    <CustomInputs form=form.custom problems=problems />
                </Show>
            </Show>
            <fieldset>
                <legend>{t(l, Key::GpusLegend)}</legend>
                <label for="gpu">{t(l, Key::CardLabel)}</label>
                <select id="gpu" data-testid="gpu" on:change=move |ev| form.gpu.set(event_target_value(&ev))
                    inner_html=move || options_html(
                        std::iter::once((GPU_RECOMMEND.to_string(), t(l, Key::RecommendCard).to_string()))
                            .chain(catalog::all_gpus().map(|g| (g.id.to_string(), text::card_option(g))))
                            .chain(std::iter::once((GPU_CUSTOM.to_string(), t(l, Key::OtherCard).to_string()))),
                        &form.gpu.get(),
                    )>
                </select>
                <Show when=move || form.gpu.get() == GPU_CUSTOM>
                    <NumberField id="mem" label=t(l, Key::CardMemoryLabel) value=form.memory error=error(Input::GpuMemory) decimal=true />
                </Show>
                <div class="row">
                    <NumberField id="count" label=t(l, Key::CountLabel) value=form.count error=error(Input::Count) />
                    <NumberField id="headroom" label=t(l, Key::HeadroomLabel) value=form.headroom error=error(Input::Headroom) />
                </div>
                // A second kind of card beside a catalog card, for a server (a machine with a 5090
                // and a 4080).
                <Show when=move || form.workload.get() == WorkloadKind::Inference
                    && form.gpu.with(|g| g != GPU_RECOMMEND && g != GPU_CUSTOM)>
                    <div class="row">
                        <div class="field">
                            <label for="gpu2">{t(l, Key::SecondCardLabel)}</label>
                            <select id="gpu2" data-testid="gpu2" on:change=move |ev| form.gpu2.set(event_target_value(&ev))
                                inner_html=move || options_html(
                                    std::iter::once((String::new(), t(l, Key::SecondCardNone).to_string()))
                                        .chain(catalog::all_gpus().map(|g| (g.id.to_string(), text::card_option(g)))),
                                    &form.gpu2.get(),
                                )>
                            </select>
                        </div>
                        <Show when=move || !form.gpu2.get().is_empty()>
                            <NumberField id="count2" label=t(l, Key::SecondCountLabel) value=form.count2 error=error(Input::SecondCount) />
                        </Show>
                    </div>
                </Show>
                <Show when=move || form.gpu.get() == GPU_RECOMMEND>
                    <div class="row">
                        <SelectField id="rank" label=t(l, Key::RankLabel) value=form.rank
                            options=RecommendBy::ALL.into_iter().map(|r| (r.id(), text::rank_name(l, r))).collect() />
                        <SelectField id="reach" label=t(l, Key::ReachLabel) value=form.reach
                            options=Availability::ALL.into_iter().map(|a| (a.id(), reach_name(l, a))).collect() />
                    </div>
                </Show>
                <PriceField form=form estimate=estimate error=error(Input::Price) />
            </fieldset>
        </section>
    }
}

/// The search box's words, lower case.
fn words_of(q: &str) -> Vec<String> {
    q.to_ascii_lowercase()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Whether every word is in the model's name, id or one of its repo ids.
fn matches_words(m: &catalog::CatalogModel, words: &[String]) -> bool {
    words.iter().all(|w| {
        m.name.to_ascii_lowercase().contains(w.as_str())
            || m.id.contains(w.as_str())
            || m.repo_ids()
                .any(|r| r.to_ascii_lowercase().contains(w.as_str()))
    })
}

/// How far the recommendation reaches, in words.
fn reach_name(l: Locale, a: Availability) -> &'static str {
    t(
        l,
        match a {
            Availability::Cloud => Key::ReachCloud,
            Availability::Marketplace => Key::ReachMarketplace,
            Availability::Buy => Key::ReachBuy,
        },
    )
}

/// The user's own price for the card of the plan shown, over the reference price (kept in the
/// scenario's `prices_usd_per_hour`, so the link carries it).
#[component]
fn PriceField(
    form: Form,
    estimate: Signal<Option<Estimate>>,
    error: Signal<Option<String>>,
) -> impl IntoView {
    let l = locale();
    let card = Memo::new(move |_| {
        estimate.with(|e| {
            e.as_ref()
                .and_then(|e| e.plan.as_ref())
                .and_then(|p| p.card.gpu)
        })
    });
    move || {
        card.get().map(|id| {
            let name = text::gpu_name(id);
            let reference = catalog::market(id).and_then(|m| m.usd_per_hour);
            let hint = match reference {
                Some(p) => f(l, Key::PriceHint, &[("usd", &l.decimal(p, 2))]),
                None => t(l, Key::PriceHintNone).to_string(),
            };
            view! {
                <div class="field">
                    <label for="price">{f(l, Key::PriceLabel, &[("card", name)])}</label>
                    <input id="price" data-testid="price" type="text" inputmode="decimal" autocomplete="off"
                        aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                        aria-describedby="err-price hint-price"
                        prop:value=move || form.price_text(id)
                        on:input=move |ev| {
                            form.price_card.set(id.to_string());
                            form.price.set(event_target_value(&ev));
                        } />
                    <p class="hint" id="hint-price">{hint}</p>
                    <p class="err" id="err-price" data-testid="err-price" role="alert">
                        {move || error.get().map(|_| t(l, Key::ProblemPrice))}
                    </p>
                </div>
            }
        })
    }
}

/// Puts what the user's file headers hold into the form: the architecture as a pasted
/// `config.json` (so the URL carries it and a shared link works without the file) and the weight
/// format the file's tensors are stored in. Nothing changes when the core could not map the
/// architecture (the summary says so).
fn use_header(form: Form, r: &HeaderSummary) {
    let Some(config) = &r.hf_config else {
        return;
    };
    form.config.set(config.clone());
    if let Some(weights) = &r.weights {
        form.weights.set(weights.clone());
        form.exact_weights.set(Some(ExactWeights {
            config: config.clone(),
            weights: weights.clone(),
            bytes: r.tensor_bytes,
        }));
    }
}

/// `<option>` elements as HTML, `selected` marking the one whose value is `selected`: one DOM write
/// for a list instead of an element and an effect per entry (the model and card lists have well
/// over a hundred each, and building them dominated the first render). Values and labels are
/// escaped.
fn options_html(options: impl Iterator<Item = (String, String)>, selected: &str) -> String {
    let mut html = String::new();
    for (value, label) in options {
        html.push_str("<option value=\"");
        html.push_str(&escape(&value));
        html.push('"');
        if value == selected {
            html.push_str(" selected");
        }
        html.push('>');
        html.push_str(&escape(&label));
        html.push_str("</option>");
    }
    html
}

/// The label of a workload kind on the switch.
fn workload_key(kind: WorkloadKind) -> Key {
    match kind {
        WorkloadKind::Inference => Key::WorkloadServe,
        WorkloadKind::Train => Key::WorkloadTrain,
        WorkloadKind::GenerateImage => Key::WorkloadImage,
        WorkloadKind::GenerateVideo => Key::WorkloadVideo,
        WorkloadKind::Custom => Key::WorkloadCustom,
    }
}

/// A model's line in the picker: its name, and the parameter count only where the name does not
/// state a size (`GLM-4.5-Air (110.00 B)` but `Llama 3.1 8B Instruct`): the count is on the
/// summary line above the verdict, and with it long names were cut in the closed select.
fn option_label(l: Locale, name: &str, published_params: u64) -> String {
    if names_its_size(name) {
        name.to_string()
    } else {
        format!("{name} ({})", params(l, published_params))
    }
}

/// Whether a model name carries a size token: digits (with a decimal point) and `B` or `M`,
/// at the end of a word (`8B`, `1.5B`, `30B-A3B`, `E2B`, `gpt-oss-20b`, `135M`).
fn names_its_size(name: &str) -> bool {
    let b = name.as_bytes();
    (1..b.len()).any(|i| {
        matches!(b[i], b'B' | b'b' | b'M' | b'm')
            && b[i - 1].is_ascii_digit()
            && b.get(i + 1).is_none_or(|c| !c.is_ascii_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::names_its_size;

    #[test]
    fn sizes_in_names() {
        for n in [
            "Llama 3.1 8B Instruct",
            "Qwen3 30B-A3B Instruct 2507",
            "Gemma 3n E2B",
            "gpt-oss-20b",
            "SmolLM2 135M",
        ] {
            assert!(names_its_size(n), "{n}");
        }
        for n in [
            "GLM-4.5-Air",
            "Kimi K2 Instruct",
            "DeepSeek V3",
            "Phi-4",
            "Qwen2.5 7B-ish",
        ] {
            assert_eq!(names_its_size(n), n.contains("7B"), "{n}");
        }
    }
}
