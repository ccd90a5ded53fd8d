//! "Measure it": the measurement script and engine command lines for the scenario on screen (made
//! by the core), and a box to paste what they print, shown beside the estimate.
//!
//! Built once while a model is on screen: an input changes the script's text and the comparison,
//! not the section (rebuilding it re-set every attribute and listener of its tabs, box and
//! buttons on each keystroke).

use crate::text::t;
use leptos::prelude::*;
use vramfit_core::measure::{
    comparable, llama_server_command, parse_measured, pytorch_script, vllm_command,
};
use vramfit_core::{Estimate, Scenario};
use vramfit_i18n::{Key, Locale};

/// The tabs: label, and what to look for in the output.
const TABS: [(&str, Key); 3] = [
    ("PyTorch", Key::MeasureLookPytorch),
    ("vllm serve", Key::MeasureLookVllm),
    ("llama-server", Key::MeasureLookLlama),
];

/// The measurement section.
#[component]
pub fn MeasureIt(
    /// The scenario on screen and its estimate.
    current: Signal<Option<(Scenario, Estimate)>>,
    /// Pasted measurement text (kept across re-renders).
    pasted: RwSignal<String>,
    /// Which tab is open.
    tab: RwSignal<u8>,
    /// Language.
    l: Locale,
) -> impl IntoView {
    // The open tab's text, made by the core from the scenario on screen.
    let script = move |tab: usize| {
        current.with(|c| {
            c.as_ref().map_or_else(String::new, |(s, _)| match tab {
                0 => pytorch_script(s),
                1 => vllm_command(s),
                _ => llama_server_command(s),
            })
        })
    };
    let open = move || usize::from(tab.get()).min(TABS.len() - 1);
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
                {TABS.iter().enumerate().map(|(i, (name, _))| {
                    let i = i as u8;
                    view! {
                        <button type="button" role="tab" data-testid=format!("tab-{i}")
                            aria-selected=move || if tab.get() == i { "true" } else { "false" }
                            on:click=move |_| tab.set(i)>{*name}</button>
                    }
                }).collect_view()}
                <button type="button" class="copy" on:click=copy>{t(l, Key::CopyScript)}</button>
            </div>
            <pre data-testid="script"><code>{move || script(open())}</code></pre>
            <p class="hint">{move || t(l, TABS[open()].1)}</p>
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
