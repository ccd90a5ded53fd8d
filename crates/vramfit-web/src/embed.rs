//! Embed mode (`?embed=1` plus the usual scenario parameters): a compact widget with the answer
//! first (verdict, bar, components, recommendation), then only the inputs named in `show=`
//! (`model`, `weights`, `kv`, `ctx`, `seqs`, `gpu`, `n`, `headroom`; none = a read-only card),
//! `theme=light|dark|auto`, `lang=`, and a link to the full calculator carrying the scenario.
//!
//! Talking to the page that embeds it: it posts `{type: "vramfit:height", height}` to its parent
//! whenever its height changes (ResizeObserver), and answers `{type: "vramfit:get"}` with
//! `{type: "vramfit:state", scenario, estimate}` (the objects of the JS API). `www/embed.js` is
//! the loader that turns `<div data-vramfit="…">` into such an iframe; [`EmbedPanel`] shows the
//! snippet for the current scenario in the full app.

use crate::app::browser_locale;
use crate::form::{Form, Input, Problem, GPU_CUSTOM, GPU_RECOMMEND};
use crate::inputs::{field_error, NumberField};
use crate::result::{PlanView, Recommendation};
use crate::text::{self, f, t};
use crate::{js_api, panic_panel, url};
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use vramfit_core::catalog::{self, GPUS};
use vramfit_core::format::WeightFormat;
use vramfit_core::precision::Precision;
use vramfit_core::query;
use vramfit_core::{estimate, Estimate, Scenario};
use vramfit_i18n::{Key, Locale};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The inputs `show=` may name, in the order they are accepted.
pub const SHOWABLE: [&str; 8] = [
    "model", "weights", "kv", "ctx", "seqs", "gpu", "n", "headroom",
];

/// Whether the query asks for embed mode (`embed=1` or `embed=true`).
pub fn requested(pairs: &[(String, String)]) -> bool {
    pairs
        .iter()
        .any(|(k, v)| k == "embed" && (v == "1" || v == "true"))
}

/// The inputs named in `show=` (unknown names ignored, duplicates dropped; `count` = `n`).
pub fn shown_inputs(pairs: &[(String, String)]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (_, v) in pairs.iter().filter(|(k, _)| k == "show") {
        for name in v.split(',').map(str::trim) {
            let name = if name == "count" { "n" } else { name };
            if let Some(known) = SHOWABLE.iter().find(|s| **s == name) {
                if !out.contains(known) {
                    out.push(known);
                }
            }
        }
    }
    out
}

/// Applies `theme=light|dark` as `<html data-theme>` (anything else follows the system).
fn apply_theme(pairs: &[(String, String)]) {
    let theme = pairs
        .iter()
        .rev()
        .find(|(k, _)| k == "theme")
        .map(|(_, v)| v.as_str());
    if let (Some(theme @ ("light" | "dark")), Some(el)) = (
        theme,
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element()),
    ) {
        let _ = el.set_attribute("data-theme", theme);
    }
}

/// The widget.
#[component]
pub fn EmbedApp() -> impl IntoView {
    let pairs = url::read_pairs();
    let l = pairs
        .iter()
        .find(|(k, _)| k == "lang")
        .and_then(|(_, v)| Locale::from_tag(v))
        .unwrap_or_else(browser_locale);
    panic_panel::set_locale(l);
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", l.tag());
        let _ = el.class_list().add_1("embedded");
    }
    apply_theme(&pairs);
    let show = shown_inputs(&pairs);
    let (initial, _) = query::from_pairs(&pairs);
    let form = Form::new(&initial);
    let draft = Memo::new(move |_| form.scenario());
    let last_good: RwSignal<Option<(Scenario, Estimate)>> =
        RwSignal::new(estimate(&initial).ok().map(|e| (initial.clone(), e)));
    Effect::new(move |_| {
        if let Ok(s) = draft.get() {
            if let Ok(e) = estimate(&s) {
                last_good.set(Some((s, e)));
            }
        }
    });
    let problems: Memo<Vec<(Input, Problem)>> =
        Memo::new(move |_| draft.get().err().unwrap_or_default());
    let stale = move || !problems.get().is_empty();
    answer_messages(last_good);
    post_height_on_resize();
    let full_href = move || {
        last_good.with(|g| match g {
            Some((s, _)) => format!("./{}", url::query_string(s, l)),
            None => "./".to_string(),
        })
    };
    view! {
        <div class="embed" data-testid="embed">
            <section class="answer" aria-label=t(l, Key::AnswerAria) aria-live="polite">
                <Show when=stale>
                    <p class="note" data-testid="stale">{t(l, Key::StaleNote)}</p>
                </Show>
                {move || last_good.get().map(|(_, e)| view! { <Card e=e l=l /> })}
            </section>
            {(!show.is_empty()).then(|| view! { <EmbedInputs form=form show=show problems=problems l=l /> })}
            <p class="embed-foot">
                <a data-testid="open-full" href=full_href target="_blank" rel="noopener">{t(l, Key::OpenFull)}" ↗"</a>
                <span class="brand">"vramfit"</span>
            </p>
        </div>
    }
}

/// The answer card: model, verdict, bar and components, recommendation.
#[component]
fn Card(e: Estimate, l: Locale) -> impl IntoView {
    let summary = e.model.as_ref().map(|m| {
        f(
            l,
            Key::ModelSummary,
            &[
                ("name", m.name.unwrap_or(t(l, Key::PastedConfig))),
                ("params", &crate::format::params(l, m.params)),
                ("kib", &l.integer(e.kv_bytes_per_token / 1024)),
                ("fmt", e.kv_cache_format.id()),
            ],
        )
    });
    view! {
        {summary.map(|s| view! { <p class="model-summary" data-testid="model-summary">{s}</p> })}
        {match e.plan.clone() {
            Some(plan) => view! { <PlanView plan=plan total=e.total_bytes l=l /> }.into_any(),
            None => view! {
                <p class="verdict does_not_fit" data-testid="verdict">"✖ "{t(l, Key::VerdictNoCard)}</p>
            }.into_any(),
        }}
        <Recommendation e=e l=l />
    }
}

/// The inputs named in `show=`, in that order.
#[component]
fn EmbedInputs(
    form: Form,
    show: Vec<&'static str>,
    problems: Memo<Vec<(Input, Problem)>>,
    l: Locale,
) -> impl IntoView {
    let error = move |input: Input| field_error(problems, input, l);
    let serving = move || form.workload.get() == "serve";
    let fields = show.into_iter().map(move |name| match name {
        "model" => view! {
            <div class="field" prop:hidden=move || !matches!(form.workload.get().as_str(), "serve" | "train")>
                <label for="model">{t(l, Key::ModelLegend)}</label>
                <select id="model" data-testid="model" on:change=move |ev| {
                    form.config.set(String::new());
                    form.model.set(event_target_value(&ev));
                }>
                    {catalog::models().map(|m| {
                        let id = m.id;
                        view! { <option value=id selected=move || form.model.get() == id>{m.name}</option> }
                    }).collect_view()}
                </select>
            </div>
        }.into_any(),
        "weights" => view! {
            <div class="field" prop:hidden=move || !serving()>
                <label for="weights">{t(l, Key::WeightsLabel)}</label>
                <select id="weights" data-testid="weights" on:change=move |ev| form.weights.set(event_target_value(&ev))>
                    {WeightFormat::all().into_iter().map(|fm| {
                        let id = fm.id();
                        let id2 = id.clone();
                        view! { <option value=id selected=move || form.weights.get() == id2>{text::format_label(l, fm)}</option> }
                    }).collect_view()}
                </select>
            </div>
        }.into_any(),
        "kv" => view! {
            <div class="field" prop:hidden=move || !serving()>
                <label for="kv">{t(l, Key::KvCacheLabel)}</label>
                <select id="kv" data-testid="kv" on:change=move |ev| form.kv.set(event_target_value(&ev))>
                    <option value="" selected=move || form.kv.get().is_empty()>{t(l, Key::KvAsCompute)}</option>
                    {Precision::ALL.into_iter().map(|p| view! {
                        <option value=p.id() selected=move || form.kv.get() == p.id()>{p.id()}</option>
                    }).collect_view()}
                </select>
            </div>
        }.into_any(),
        "ctx" => view! {
            <Show when=serving>
                <NumberField id="ctx" label=t(l, Key::ContextLabel) value=form.context error=error(Input::Context) />
            </Show>
        }.into_any(),
        "seqs" => view! {
            <Show when=serving>
                <NumberField id="seqs" label=t(l, Key::SequencesLabel) value=form.sequences error=error(Input::Sequences) />
            </Show>
        }.into_any(),
        "gpu" => view! {
            <div class="field">
                <label for="gpu">{t(l, Key::CardLabel)}</label>
                <select id="gpu" data-testid="gpu" on:change=move |ev| form.gpu.set(event_target_value(&ev))>
                    <option value=GPU_RECOMMEND selected=move || form.gpu.get() == GPU_RECOMMEND>{t(l, Key::RecommendCard)}</option>
                    {GPUS.iter().map(|g| {
                        let id = g.id;
                        view! { <option value=id selected=move || form.gpu.get() == id>{format!("{} — {} GB", g.name, g.marketed_gb)}</option> }
                    }).collect_view()}
                    {(form.gpu.get_untracked() == GPU_CUSTOM).then(|| view! {
                        <option value=GPU_CUSTOM selected=move || form.gpu.get() == GPU_CUSTOM>{t(l, Key::OtherCard)}</option>
                    })}
                </select>
            </div>
        }.into_any(),
        "n" => view! {
            <NumberField id="count" label=t(l, Key::CountLabel) value=form.count error=error(Input::Count) />
        }.into_any(),
        _ => view! {
            <NumberField id="headroom" label=t(l, Key::HeadroomLabel) value=form.headroom error=error(Input::Headroom) />
        }.into_any(),
    });
    view! {
        <div class="embed-inputs" role="group" aria-label=t(l, Key::InputsAria) data-testid="embed-inputs">
            {fields.collect_view()}
        </div>
    }
}

/// Answers `{type: "vramfit:get"}` from any window with the current scenario and estimate.
fn answer_messages(last_good: RwSignal<Option<(Scenario, Estimate)>>) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            let kind = js_sys::Reflect::get(&ev.data(), &"type".into())
                .ok()
                .and_then(|v| v.as_string());
            if kind.as_deref() != Some("vramfit:get") {
                return;
            }
            let Some(source) = ev.source() else {
                return;
            };
            let msg = last_good
                .try_with_untracked(|g| js_api::state_message(g.as_ref()))
                .unwrap_or_else(|| js_api::state_message(None));
            // A cross-origin WindowProxy fails `instanceof Window`; postMessage works on it.
            let target: web_sys::Window = source.unchecked_into();
            let _ = target.post_message(&msg, "*");
        });
    let _ = w.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    on_message.forget();
}

/// Posts `{type: "vramfit:height", height}` to the parent whenever the body's height changes.
fn post_height_on_resize() {
    let Some(w) = web_sys::window() else {
        return;
    };
    let Some(body) = w.document().and_then(|d| d.body()) else {
        return;
    };
    let parent = match w.parent() {
        Ok(Some(p)) if p != w => p,
        _ => return,
    };
    let last = Rc::new(Cell::new(-1.0_f64));
    let measured = body.clone();
    let on_resize = Closure::<dyn FnMut()>::new(move || {
        let height = measured.get_bounding_client_rect().height().ceil();
        if height == last.get() {
            return;
        }
        last.set(height);
        let msg = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&msg, &"type".into(), &"vramfit:height".into());
        let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
        let _ = parent.post_message(&msg, "*");
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(&body);
    }
    on_resize.forget();
}

/// The snippet that embeds the scenario `s` (with `show=` for the serving inputs), for a page
/// whose loader is at `loader` (`…/embed.js`).
pub fn snippet(s: &Scenario, l: Locale, loader: &str) -> String {
    let mut params = url::query_string(s, l).trim_start_matches('?').to_string();
    if s.workload.inference().is_some() {
        params.push_str("&show=model,ctx,seqs,gpu");
    }
    format!(
        "<div data-vramfit=\"{}\"></div>\n<script src=\"{}\" async></script>",
        params.replace('&', "&amp;").replace('"', "&quot;"),
        loader.replace('"', "&quot;")
    )
}

/// The full app's "Embed" panel: the snippet for the current scenario, with a copy button.
#[component]
pub fn EmbedPanel(
    /// Whether the panel is open.
    open: RwSignal<bool>,
    /// The scenario shown.
    current: RwSignal<Option<(Scenario, Estimate)>>,
    /// Language.
    l: Locale,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    let loader = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .and_then(|href| web_sys::Url::new_with_base("embed.js", &href).ok())
        .map(|u| u.href())
        .unwrap_or_else(|| "embed.js".to_string());
    let code = Memo::new(move |_| {
        current.with(|g| {
            g.as_ref()
                .map(|(s, _)| snippet(s, l, &loader))
                .unwrap_or_default()
        })
    });
    Effect::new(move |_| {
        code.track();
        copied.set(false);
    });
    let copy = move |_| {
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().clipboard().write_text(&code.get_untracked());
            copied.set(true);
        }
    };
    view! {
        <Show when=move || open.get()>
            <div class="embed-panel" data-testid="embed-panel">
                <label for="embed-snippet">{t(l, Key::EmbedIntro)}</label>
                <textarea id="embed-snippet" data-testid="embed-snippet" readonly rows="4" spellcheck="false"
                    prop:value=move || code.get()></textarea>
                <button type="button" data-testid="copy-snippet" on:click=copy>
                    {move || t(l, if copied.get() { Key::Copied } else { Key::CopyScript })}
                </button>
            </div>
        </Show>
    }
}
