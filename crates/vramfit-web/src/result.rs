//! The answer half of the page: verdict, stacked bar against the card, component table,
//! recommendation, rules of thumb and warnings. Every figure is read from the core's `Estimate`.

use crate::chart::ContextChart;
use crate::format::{gb, gib, params, share};
use crate::text;
use leptos::prelude::*;
use vramfit_core::bytes::to_gib;
use vramfit_core::plan::{Plan, Verdict};
use vramfit_core::Estimate;

/// The answer.
#[component]
pub fn ResultView(
    /// Last valid estimate.
    estimate: Signal<Option<Estimate>>,
    /// Whether an input is currently invalid (the shown result is then the last valid one).
    stale: Signal<bool>,
) -> impl IntoView {
    view! {
        <section class="answer" aria-label="Answer" aria-live="polite">
            <Show when=move || stale.get()>
                <p class="note" data-testid="stale">"Showing the last valid result: fix the highlighted field to update it."</p>
            </Show>
            {move || estimate.get().map(|e| view! { <Answer e=e /> })}
        </section>
    }
}

#[component]
fn Answer(e: Estimate) -> impl IntoView {
    let summary = format!(
        "{} · {} parameters · KV cache {} KiB per token ({})",
        e.model.name.unwrap_or("Pasted config.json"),
        params(e.model.params),
        e.kv_bytes_per_token / 1024,
        e.kv_cache_format.id()
    );
    view! {
        <p class="model-summary" data-testid="model-summary">{summary}</p>
        {match e.plan.clone() {
            Some(plan) => view! { <PlanView plan=plan total=e.total_bytes /> }.into_any(),
            None => view! {
                <p class="verdict does_not_fit" data-testid="verdict">"✖ No card in the catalog holds this budget."</p>
            }.into_any(),
        }}
        <EngineReport e=e.clone() />
        <Warnings e=e.clone() />
        <LimitsView e=e.clone() />
        <Recommendation e=e.clone() />
        <RulesOfThumb e=e />
    }
}

#[component]
fn PlanView(plan: Plan, total: u64) -> impl IntoView {
    let class = match plan.verdict {
        Verdict::Fits => "verdict fits",
        Verdict::Tight => "verdict tight",
        Verdict::DoesNotFit => "verdict does_not_fit",
    };
    let scale = plan.card.capacity_bytes.max(plan.per_gpu_bytes);
    let count = plan.count;
    view! {
        <p class=class data-testid="verdict">
            <span aria-hidden="true">{text::verdict_icon(plan.verdict)}" "</span>
            {text::verdict(&plan)}
        </p>
        <div class="bar" role="img" aria-label=format!("{} GiB used of {} GiB", gib(plan.per_gpu_bytes), gib(plan.card.capacity_bytes))>
            {plan.per_gpu_components.iter().map(|c| view! {
                <span class=format!("seg seg-{:?}", c.id).to_lowercase() style:width=format!("{:.3}%", share(c.bytes, scale))
                    title=format!("{}: {} GiB", text::component(c.id), gib(c.bytes))></span>
            }).collect_view()}
            <span class="line usable" style:left=format!("{:.3}%", share(plan.usable_bytes, scale)) title="headroom line"></span>
            <span class="line capacity" style:left=format!("{:.3}%", share(plan.card.capacity_bytes, scale)) title="capacity"></span>
        </div>
        <ul class="legend">
            {plan.per_gpu_components.iter().map(|c| view! {
                <li><span class=format!("dot seg-{:?}", c.id).to_lowercase()></span>{text::component(c.id)}</li>
            }).collect_view()}
            <li><span class="dot dot-line"></span>"headroom line"</li>
        </ul>
        <table class="components" data-testid="components">
            <caption>{if count > 1 { format!("Per GPU (× {count})") } else { "Per GPU".to_string() }}</caption>
            <thead><tr><th scope="col">"Component"</th><th scope="col">"GiB"</th><th scope="col">"GB"</th></tr></thead>
            <tbody>
                {plan.per_gpu_components.iter().map(|c| view! {
                    <tr data-testid=format!("row-{:?}", c.id).to_lowercase()>
                        <th scope="row">
                            <details><summary>{text::component(c.id)}</summary><p class="why">{text::component_why(c.id)}</p></details>
                        </th>
                        <td>{gib(c.bytes)}</td><td>{gb(c.bytes)}</td>
                    </tr>
                }).collect_view()}
            </tbody>
            <tfoot>
                <tr data-testid="row-total"><th scope="row">"Total per GPU"</th><td data-testid="per-gpu-gib">{gib(plan.per_gpu_bytes)}</td><td>{gb(plan.per_gpu_bytes)}</td></tr>
                {(count > 1).then(|| view! {
                    <tr><th scope="row">{format!("All {count} GPUs")}</th><td>{gib(total)}</td><td>{gb(total)}</td></tr>
                })}
                <tr><th scope="row">"Card capacity (reported)"</th><td>{gib(plan.card.capacity_bytes)}</td><td>{gb(plan.card.capacity_bytes)}</td></tr>
            </tfoot>
        </table>
    }
}

/// What the engine itself will report at start-up (KV cache, tokens, concurrency), and host RAM.
#[component]
fn EngineReport(e: Estimate) -> impl IntoView {
    let kv = e.plan.as_ref().and_then(|p| p.kv);
    let host = e.host_bytes;
    kv.map(|k| {
        let budget = k.budget_bytes.map(|b| view! {
            <li>{format!("Memory claimed at start-up: {} GiB per GPU", gib(b))}</li>
        });
        view! {
            <div class="engine-report" data-testid="engine-report">
                <h2>"What the engine will report"</h2>
                <ul>
                    {budget}
                    <li data-testid="kv-gib">{format!("KV cache: {} GiB per GPU", gib(k.kv_cache_bytes))}</li>
                    <li data-testid="kv-tokens">{format!("KV cache capacity: {} tokens", k.kv_cache_tokens)}</li>
                    <li data-testid="max-concurrency">{format!("Maximum concurrency for {} tokens per request: {:.2}×", e.context_tokens, k.max_concurrency)}</li>
                    {(host > 0).then(|| view! { <li data-testid="host-ram">{format!("Host RAM: {} GiB", gib(host))}</li> })}
                </ul>
            </div>
        }
    })
}

/// The inverse answers for the plan's cards.
#[component]
fn LimitsView(e: Estimate) -> impl IntoView {
    let (Some(l), Some(plan)) = (e.limits.clone(), e.plan.clone()) else {
        return ().into_any();
    };
    let ctx = l
        .max_context_tokens
        .map_or_else(|| "none fits".to_string(), |c| format!("{c} tokens"));
    let seqs = l
        .max_sequences
        .map_or_else(|| "none fits".to_string(), |s| s.to_string());
    view! {
        <div class="limits" data-testid="limits">
            <h2>{format!("Limits on {}", text::plan_title(&plan))}</h2>
            <ul>
                <li data-testid="max-context">{format!("Largest context per sequence that fits: {ctx}")}</li>
                <li data-testid="max-sequences">{format!("Most concurrent sequences at this context: {seqs}")}</li>
                {l.utilization.map(|u| view! {
                    <li data-testid="util-range">{match u.min {
                        Some(min) => format!("Memory fraction (gpu_memory_utilization / mem_fraction_static) that serves all sequences: {min:.2} – {:.2}", u.max),
                        None => format!("No memory fraction serves all sequences at this context on this card; at most {:.2} leaves room for what the engine allocates outside its budget.", u.max),
                    }}</li>
                })}
            </ul>
            <ContextChart points=e.context_curve.clone() capacity=plan.card.capacity_bytes usable=plan.usable_bytes max_context=l.max_context_tokens />
        </div>
    }
    .into_any()
}

#[component]
fn Warnings(e: Estimate) -> impl IntoView {
    (!e.warnings.is_empty()).then(|| {
        view! {
            <ul class="warnings" data-testid="warnings">
                {e.warnings.iter().map(|w| view! { <li>{text::warning(w)}</li> }).collect_view()}
            </ul>
        }
    })
}

#[component]
fn Recommendation(e: Estimate) -> impl IntoView {
    let rec = e.recommendation;
    let best = rec.best.map(|p| {
        format!(
            "{}: {} GiB per GPU of {} GiB usable.",
            text::plan_title(&p),
            gib(p.per_gpu_bytes),
            gib(p.usable_bytes)
        )
    });
    let replicas = rec.replicas.map(|p| {
        format!(
            "For independent requests: {} each serving {} sequences, {} GiB per GPU.",
            text::plan_title(&p),
            p.sequences_per_replica,
            gib(p.per_gpu_bytes)
        )
    });
    // A few single cards around the fit boundary: the two largest that don't fit, the three smallest that do.
    let first_fit = rec
        .single_cards
        .iter()
        .position(|p| p.verdict == Verdict::Fits)
        .unwrap_or(rec.single_cards.len());
    let lo = first_fit.saturating_sub(2);
    let hi = (first_fit + 3).min(rec.single_cards.len());
    let nearby: Vec<Plan> = rec.single_cards[lo..hi].to_vec();
    view! {
        <div class="recommendation" data-testid="recommendation">
            <h2>"Recommendation"</h2>
            <p data-testid="best">{best.unwrap_or_else(|| "No catalog plan (up to 8 cards) holds this budget.".to_string())}</p>
            {replicas.map(|r| view! { <p data-testid="replicas">{r}</p> })}
            <p class="alternatives">"Single cards: "
                {nearby.iter().map(|p| view! {
                    <span class=format!("chip {:?}", p.verdict).to_lowercase()>
                        {format!("{} {} {}", text::card_name(p), text::verdict_icon(p.verdict), text::verdict_word(p.verdict))}
                    </span>
                }).collect_view()}
            </p>
        </div>
    }
}

#[component]
fn RulesOfThumb(e: Estimate) -> impl IntoView {
    let r = e.rules_of_thumb;
    view! {
        <div class="rules" data-testid="rules">
            <h2>"Rules of thumb vs. this estimate"</h2>
            <table>
                <tbody>
                    <tr><th scope="row">"Weights only (parameters × bytes)"</th><td>{format!("{} GB", gb(r.weights_only_bytes))}</td></tr>
                    <tr><th scope="row">"“2 GB per billion at FP16, + 20 %”"</th><td>{format!("{} GB", gb(r.inference_bytes))}</td></tr>
                    <tr><th scope="row">"This estimate (all GPUs)"</th><td data-testid="total-gb">{format!("{} GB ({:.2} GiB)", gb(e.total_bytes), to_gib(e.total_bytes))}</td></tr>
                </tbody>
            </table>
        </div>
    }
}
