//! "Measure it": the measurement script and engine command lines for the scenario on screen (made
//! by the core), and a box to paste what they print, shown beside the estimate.
//!
//! Built once while a model is on screen: an input changes the script's text and the comparison,
//! not the section (rebuilding it re-set every attribute and listener of its tabs, box and
//! buttons on each keystroke).

use crate::ui::locale::locale;
use crate::ui::text::t;
use leptos::prelude::*;
use vramfit_core::measure::{
    comparable, diffusers_script, llama_server_command, parse_measured, pytorch_script,
    training_script, vllm_command,
};
use vramfit_core::{Engine, EngineKind, Estimate, Scenario, Workload};
use vramfit_i18n::Key;

/// A measurement the core writes for the workload on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tab {
    /// One `generate()` in PyTorch (serving).
    Pytorch,
    /// `vllm serve` (serving).
    Vllm,
    /// `llama-server` (serving).
    LlamaServer,
    /// Real training steps in PyTorch (training and fine-tuning).
    Training,
    /// A diffusers pipeline run (image and video generation).
    Diffusers,
}

impl Tab {
    /// Label and what to look for in the output.
    fn label(self) -> (&'static str, Key) {
        match self {
            Tab::Pytorch => ("PyTorch", Key::MeasureLookPytorch),
            Tab::Vllm => ("vllm serve", Key::MeasureLookVllm),
            Tab::LlamaServer => ("llama-server", Key::MeasureLookLlama),
            Tab::Training => ("PyTorch", Key::MeasureLookPytorch),
            Tab::Diffusers => ("diffusers", Key::MeasureLookPytorch),
        }
    }

    /// The core's text for `s`.
    fn text(self, s: &Scenario) -> String {
        match self {
            Tab::Pytorch => pytorch_script(s),
            Tab::Vllm => vllm_command(s),
            Tab::LlamaServer => llama_server_command(s),
            Tab::Training => training_script(s).unwrap_or_default(),
            Tab::Diffusers => diffusers_script(s).unwrap_or_default(),
        }
    }
}

/// The tabs of a scenario's workload, and the one that opens first (the chosen engine's).
fn tabs(s: &Scenario) -> (&'static [Tab], usize) {
    match &s.workload {
        Workload::Inference(_) => (
            &[Tab::Pytorch, Tab::Vllm, Tab::LlamaServer],
            match s.engine.as_ref().map(Engine::kind) {
                Some(EngineKind::Vllm) => 1,
                Some(EngineKind::LlamaCpp) => 2,
                _ => 0,
            },
        ),
        Workload::Train(_) => (&[Tab::Training], 0),
        Workload::GenerateImage(_) | Workload::GenerateVideo(_) => (&[Tab::Diffusers], 0),
        Workload::Custom(_) => (&[], 0),
    }
}

/// The measurement section.
#[component]
pub fn MeasureIt(
    /// The scenario on screen and its estimate.
    current: Signal<Option<(Scenario, Estimate)>>,
    /// Pasted measurement text (kept across re-renders).
    pasted: RwSignal<String>,
    /// Which tab the user opened (`None`: the workload's first, the chosen engine's).
    tab: RwSignal<Option<u8>>,
) -> impl IntoView {
    let l = locale();
    // The workload's tabs (a memo: rebuilt when the workload or engine changes, not per input).
    let shown = Memo::new(move |_| current.with(|c| c.as_ref().map(|(s, _)| tabs(s))));
    let list = move || shown.get().map_or(&[][..], |(t, _)| t);
    let open = move || {
        let (list, first) = shown.get().unwrap_or((&[], 0));
        let i = tab.get().map_or(first, usize::from);
        list.get(i.min(list.len().saturating_sub(1))).copied()
    };
    // The open tab's text, made by the core from the scenario on screen.
    let script = move |tab: Option<Tab>| {
        current.with(|c| match (c, tab) {
            (Some((s, _)), Some(t)) => t.text(s),
            _ => String::new(),
        })
    };
    let copy = move |_| {
        let text = untrack(|| script(open()));
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().clipboard().write_text(&text);
        }
    };
    let rows = move || {
        let m = parse_measured(&pasted.get());
        let est = current.with(|c| c.as_ref().map(|(_, e)| comparable(e)).unwrap_or_default());
        let d = |x: f64| l.decimal(x, 2);
        let mut out: Vec<(&'static str, String, String)> = Vec::new();
        let mut push = |label: &'static str, estv: String, meas: Option<String>| {
            if let Some(meas) = meas {
                out.push((label, estv, meas));
            }
        };
        push(
            t(l, Key::CompWeights),
            d(est.weights_gib),
            m.weights_gib.map(d),
        );
        push(
            t(l, Key::CompKvCache),
            d(est.kv_cache_gib),
            m.kv_cache_gib.map(d),
        );
        push(
            t(l, Key::CompActivations),
            d(est.activations_gib),
            m.activations_gib.map(d),
        );
        push(
            t(l, Key::CompEngineOverhead),
            d(est.non_torch_gib),
            m.non_torch_gib.map(d),
        );
        push(
            t(l, Key::MeasuredAllocated),
            d(est.allocated_gib),
            m.allocated_gib.map(d),
        );
        push(
            t(l, Key::MeasuredReserved),
            d(est.reserved_gib),
            m.reserved_gib.map(d),
        );
        push(
            t(l, Key::MeasuredDevice),
            d(est.device_used_gib),
            m.device_used_gib.map(d),
        );
        push(
            "KV tokens",
            est.kv_tokens.map_or("–".into(), |x| l.integer(x)),
            m.kv_tokens.map(|x| l.integer(x)),
        );
        push(
            "max concurrency",
            est.max_concurrency.map_or("–".into(), d),
            m.max_concurrency.map(d),
        );
        out
    };
    view! {
        <section class="guide" data-testid="measure">
            <h2>{t(l, Key::MeasureTitle)}</h2>
            <p>{t(l, Key::MeasureIntro)}</p>
            <div class="tabs" role="tablist">
                {move || list().iter().enumerate().map(|(i, which)| {
                    let which = *which;
                    view! {
                        <button type="button" role="tab" data-testid=format!("tab-{i}")
                            aria-selected=move || if open() == Some(which) { "true" } else { "false" }
                            on:click=move |_| tab.set(u8::try_from(i).ok())>{which.label().0}</button>
                    }
                }).collect_view()}
                <button type="button" class="copy" on:click=copy>{t(l, Key::CopyScript)}</button>
            </div>
            <pre data-testid="script"><code>{move || script(open())}</code></pre>
            <p class="hint">{move || open().map(|o| t(l, o.label().1))}</p>
            <label for="pasted">{t(l, Key::PasteLabel)}</label>
            <textarea id="pasted" data-testid="pasted" rows="4" spellcheck="false"
                placeholder=t(l, Key::PastePlaceholder)
                prop:value=move || pasted.get()
                on:input=move |ev| pasted.set(event_target_value(&ev))></textarea>
            {move || {
                // Nothing pasted: nothing to compare, and no estimate read (so no rerun per input).
                if pasted.with(|p| p.trim().is_empty()) {
                    return ().into_any();
                }
                let r = rows();
                if r.is_empty() {
                    view! { <p class="note" data-testid="paste-nothing">{t(l, Key::PasteNothing)}</p> }.into_any()
                } else {
                    view! {
                        <table class="compare" data-testid="compare">
                            <caption>{t(l, Key::PasteTitle)}</caption>
                            <thead><tr><th scope="col"></th><th scope="col">{t(l, Key::ColEstimated)}</th><th scope="col">{t(l, Key::ColMeasured)}</th></tr></thead>
                            <tbody>
                                {r.into_iter().map(|(label, a, b)| view! {
                                    <tr><th scope="row">{label}</th><td>{a}</td><td>{b}</td></tr>
                                }).collect_view()}
                            </tbody>
                        </table>
                    }.into_any()
                }
            }}
        </section>
    }
}
