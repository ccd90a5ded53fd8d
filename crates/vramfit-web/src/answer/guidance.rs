//! Guidance below the answer: the acceptance-test checklist adapted to the scenario, and the FAQ.

use crate::ui::locale::locale;
use crate::ui::numbers::gib;
use crate::ui::text::{f, t};
use leptos::prelude::*;
use vramfit_core::{Engine, Estimate, Scenario};
use vramfit_i18n::{Key, PluralKey};

/// The checklist for the scenario on screen.
#[component]
pub fn Checklist(
    /// The scenario.
    s: Scenario,
    /// Its estimate.
    e: Estimate,
) -> impl IntoView {
    let l = locale();
    let (context, sequences) = s.workload.shape();
    let usable = e.plan.as_ref().map_or(0, |p| p.usable_bytes);
    let pool = e
        .plan
        .as_ref()
        .and_then(|p| p.kv)
        .is_some_and(|k| k.budget_bytes.is_some());
    let mut items = vec![
        f(
            l,
            Key::CheckInput,
            &[("tokens", &l.count(PluralKey::Tokens, u64::from(context)))],
        ),
        f(
            l,
            Key::CheckConcurrency,
            &[("seqs", &l.count(PluralKey::Sequences, u64::from(sequences)))],
        ),
        f(l, Key::CheckFormat, &[("format", &s.loaded_format().id())]),
        t(l, Key::CheckPeaks).to_string(),
        t(l, Key::CheckDevice).to_string(),
        // An engine that sizes its own pool fills its claimed fraction by design: the headroom is
        // kept on what it allocates beside it (`pool_usable_bytes` in the core), and the line is
        // not "the card less the headroom".
        f(
            l,
            if pool {
                Key::CheckHeadroomPool
            } else {
                Key::CheckHeadroom
            },
            &[
                ("pct", &s.headroom_percent.to_string()),
                ("gib", &gib(l, usable)),
                ("flag", Engine::fraction_setting(s.engine.as_ref())),
            ],
        ),
        t(l, Key::CheckRepeat).to_string(),
    ];
    if s.weights.is_quantized() {
        items.push(t(l, Key::CheckQuality).to_string());
    }
    items.push(f(
        l,
        Key::CheckHostDisk,
        &[("ram", &gib(l, e.host_ram_bytes))],
    ));
    view! {
        <section class="guide" data-testid="checklist">
            <h2>{t(l, Key::ChecklistTitle)}</h2>
            <ol>{items.into_iter().map(|i| view! { <li>{i}</li> }).collect_view()}</ol>
        </section>
    }
}

/// Answers to the questions the source articles raise.
#[component]
pub fn Faq(
    /// Whether a language model is on screen: the other answers speak of its KV cache and of
    /// independent requests, which image, video and custom jobs do not have.
    llm: Signal<bool>,
) -> impl IntoView {
    let l = locale();
    let all = [
        (Key::FaqFileQ, Key::FaqFileA),
        (Key::FaqSecondGpuQ, Key::FaqSecondGpuA),
        (Key::FaqPrecisionQ, Key::FaqPrecisionA),
        (Key::FaqBigCardQ, Key::FaqBigCardA),
    ];
    let qa = move || {
        all.into_iter()
            .filter(|(q, _)| llm.get() || *q == Key::FaqSecondGpuQ)
            .collect::<Vec<_>>()
    };
    view! {
        <section class="guide" data-testid="faq">
            <h2>{t(l, Key::FaqTitle)}</h2>
            {move || qa().into_iter().map(|(q, a)| view! {
                <details><summary>{t(l, q)}</summary><p>{t(l, a)}</p></details>
            }).collect_view()}
        </section>
    }
}
