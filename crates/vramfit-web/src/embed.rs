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

use crate::answer::sections::{Headline, Recommendation, Shown, Warnings};
use crate::platform::{js_api, lang, panic_panel, url};
use crate::ui::field::{Input, Problem};
use crate::ui::locale::{locale, provide_locale};
use crate::ui::text::{self, t};
use crate::ui::widgets::{field_error, NumberField};
use crate::workload::form::{Form, Live, GPU_CUSTOM, GPU_RECOMMEND};
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use vramfit_core::{catalog, query, Estimate, KvCacheFormat, Scenario, WeightFormat, WorkloadKind};
use vramfit_i18n::{Key, Locale};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The inputs `show=` may name, in the order they are accepted.
pub const SHOWABLE: [&str; 8] = [
    "model", // the fields' names: not a core value
    "weights", "kv", "ctx", "seqs", "gpu", "n", "headroom",
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
    let l = lang::requested(&pairs);
    provide_locale(l);
    panic_panel::set_locale(l);
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", l.tag());
    }
    apply_theme(&pairs);
    let show = shown_inputs(&pairs);
    let (initial, _) = query::from_pairs(&pairs);
    let live = Live::new(&initial);
    let shown = live.shown();
    let Live {
        form,
        draft,
        last_good,
        ..
    } = live;
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
                <Card e=shown />
            </section>
            {(!show.is_empty()).then(|| view! { <EmbedInputs form=form show=show problems=problems /> })}
            <p class="embed-foot">
                <a data-testid="open-full" href=full_href target="_blank" rel="noopener">{t(l, Key::OpenFull)}" ↗"</a>
                <span class="brand">"vramfit"</span>
            </p>
        </div>
    }
}

/// The answer card: model, verdict, bar and components, then the recommendation once the rest
/// of the code is in (as on the page: `answer::sections::Answer`).
#[component]
fn Card(e: Shown) -> impl IntoView {
    let settled = crate::platform::later::settled();
    view! {
        <Show when=move || e.with(Option::is_some)>
            <Headline e=e />
            <Warnings e=e essential=true />
            <Show when=move || settled.get()>
                <Recommendation e=e />
            </Show>
        </Show>
    }
}

/// The inputs named in `show=`, in that order. One select and one number field component serve
/// them all (fewer monomorphised views in the wasm).
#[component]
fn EmbedInputs(
    form: Form,
    show: Vec<&'static str>,
    problems: Memo<Vec<(Input, Problem)>>,
) -> impl IntoView {
    let l = locale();
    let serving = Signal::derive(move || form.workload.get() == WorkloadKind::Inference);
    let with_model = Signal::derive(move || form.workload.get().needs_model());
    let always = Signal::derive(|| true);
    let fields = show.into_iter().map(move |name| match name {
        "model" => { // the field: not a core value
            let options = catalog::models().map(|m| (m.id.to_string(), m.name.to_string())).collect();
            view! { <SelectField id="model" label=t(l, Key::ModelLegend) options value=form.model shown=with_model clears=form.config /> }
                .into_any()
        }
        "weights" => {
            let options = WeightFormat::all().into_iter().map(|fm| (fm.id(), text::format_label(l, fm))).collect();
            view! { <SelectField id="weights" label=t(l, Key::WeightsLabel) options value=form.weights shown=serving /> }
                .into_any()
        }
        "kv" => {
            let options = std::iter::once((String::new(), t(l, Key::KvAsCompute).to_string()))
                .chain(KvCacheFormat::ALL.into_iter().map(|p| (p.id().to_string(), p.id().to_string())))
                .collect();
            view! { <SelectField id="kv" label=t(l, Key::KvCacheLabel) options value=form.kv shown=serving /> }
                .into_any()
        }
        "gpu" => {
            let mut options: Vec<(String, String)> = std::iter::once((GPU_RECOMMEND.to_string(), t(l, Key::RecommendCard).to_string()))
                .chain(catalog::all_gpus().map(|g| (g.id.to_string(), text::card_option(g))))
                .collect();
            if form.gpu.get_untracked() == GPU_CUSTOM {
                options.push((GPU_CUSTOM.to_string(), t(l, Key::OtherCard).to_string()));
            }
            view! { <SelectField id="gpu" label=t(l, Key::CardLabel) options value=form.gpu shown=always /> }
                .into_any()
        }
        _ => {
            let (id, key, value, input, shown) = match name {
                "ctx" => ("ctx", Key::ContextLabel, form.context, Input::Context, serving),
                "seqs" => ("seqs", Key::SequencesLabel, form.sequences, Input::Sequences, serving),
                "n" => ("count", Key::CountLabel, form.count, Input::Count, always),
                _ => ("headroom", Key::HeadroomLabel, form.headroom, Input::Headroom, always),
            };
            view! {
                <div class="slot" prop:hidden=move || !shown.get()>
                    <NumberField id=id label=t(l, key) value=value error=field_error(problems, input, l) />
                </div>
            }
            .into_any()
        }
    });
    view! {
        <div class="embed-inputs" role="group" aria-label=t(l, Key::InputsAria) data-testid="embed-inputs">
            {fields.collect_view()}
        </div>
    }
}

/// A labelled select bound to a field's text; picking clears `clears` (the pasted config when a
/// catalog model is picked).
#[component]
fn SelectField(
    id: &'static str,
    label: &'static str,
    options: Vec<(String, String)>,
    value: RwSignal<String>,
    shown: Signal<bool>,
    #[prop(optional)] clears: Option<RwSignal<String>>,
) -> impl IntoView {
    view! {
        <div class="field" prop:hidden=move || !shown.get()>
            <label for=id>{label}</label>
            <select id=id data-testid=id on:change=move |ev| {
                if let Some(c) = clears {
                    c.set(String::new());
                }
                value.set(event_target_value(&ev));
            }>
                {options.into_iter().map(|(v, text)| {
                    let selected = v.clone();
                    view! { <option value=v selected=move || value.get() == selected>{text}</option> }
                }).collect_view()}
            </select>
        </div>
    }
}

/// Answers `{type: "vramfit:get"}` from any window with the current scenario and estimate.
fn answer_messages(last_good: RwSignal<Option<(Scenario, Estimate)>>) {
    let settled = crate::platform::later::settled();
    // For the page's life: the handle is never removed.
    let _ = window_event_listener(leptos::ev::message, move |ev: web_sys::MessageEvent| {
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
            .try_with_untracked(|g| match g {
                // Before the rest of the code is in, the answer on screen has no fixes yet
                // (`Live`): the reply carries the whole estimate, as the JS API's does.
                Some((s, _)) if !settled.get_untracked() => {
                    let whole = vramfit_core::estimate(s).ok().map(|e| (s.clone(), e));
                    js_api::state_message(whole.as_ref())
                }
                _ => js_api::state_message(g.as_ref()),
            })
            .unwrap_or_else(|| js_api::state_message(None));
        // A cross-origin WindowProxy fails `instanceof Window`; postMessage works on it.
        let target: web_sys::Window = source.unchecked_into();
        let _ = target.post_message(&msg, "*");
    });
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
) -> impl IntoView {
    let l = locale();
    let copied = RwSignal::new(false);
    let loader = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .and_then(|href| web_sys::Url::new_with_base("embed.js", &href).ok())
        .map(|u| u.href())
        .unwrap_or_else(|| "embed.js".to_string());
    let loader = StoredValue::new(loader);
    // Made when read (the open panel, a copy), not on every estimate while the panel is closed.
    let code = move || {
        current.with(|g| {
            g.as_ref()
                .map(|(s, _)| loader.with_value(|loader| snippet(s, l, loader)))
                .unwrap_or_default()
        })
    };
    Effect::new(move |_| {
        current.track();
        copied.set(false);
    });
    let copy = move |_| {
        if let Some(w) = web_sys::window() {
            let text = untrack(code);
            let _ = w.navigator().clipboard().write_text(&text);
            copied.set(true);
        }
    };
    view! {
        <Show when=move || open.get()>
            <div class="embed-panel" data-testid="embed-panel">
                <label for="embed-snippet">{t(l, Key::EmbedIntro)}</label>
                <textarea id="embed-snippet" data-testid="embed-snippet" readonly rows="4" spellcheck="false"
                    prop:value=code></textarea>
                <button type="button" data-testid="copy-snippet" on:click=copy>
                    {move || t(l, if copied.get() { Key::Copied } else { Key::CopyScript })}
                </button>
            </div>
        </Show>
    }
}
