//! The answer half of the page: verdict, stacked bar against the card, component table with the
//! guidance of each component, what the engine will report, warnings, limits and chart,
//! recommendation and rules of thumb. Every figure is read from the core's `Estimate`.
//!
//! The answer is built once. Each section takes the estimate shown as a memo and makes a memo of
//! the part it shows ([`part`]): an input rebuilds only the sections whose part changed, and those
//! in place (Leptos compares the new view with the one on screen and writes what differs).

use crate::answer::chart::CurveChart;
use crate::answer::fixes::Fixes;
use crate::answer::speed::{Offers, Pace, SpeedLine};
use crate::ui::locale::locale;
use crate::ui::numbers::{gb, gib, params, share};
use crate::ui::text::{self, f, t};
use leptos::prelude::*;
use vramfit_core::{CardUse, ComponentId, CurveAxis, Estimate, Plan, Split, Verdict, Warning};
use vramfit_i18n::{fixed, Key, Locale, PluralKey};

/// The estimate shown, `None` before the first valid one.
pub type Shown = Memo<Option<Estimate>>;

/// The part of the estimate shown that `pick` reads, as a memo: a section built over it is
/// rebuilt only when that part changes (`None` while there is no estimate, or `pick` finds
/// nothing to show).
pub fn part<T>(
    e: Shown,
    pick: impl Fn(&Estimate) -> Option<T> + Send + Sync + 'static,
) -> Memo<Option<T>>
where
    T: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| e.with(|e| e.as_ref().and_then(&pick)))
}

/// The answer. The verdict with its bar and table, what the engine reports and the warnings come
/// first; the fixes (`answer/fixes.rs`), the limits with the chart, the recommendation with the
/// offers and the rules of thumb follow once the rest of the code is in (`platform/later.rs`),
/// so their code is not part of what a first answer downloads. A user's first input normally
/// finds the rest loaded already. On a phone they arrive above the inputs (which come first in
/// the document): the inputs may not anchor the scroll (`overflow-anchor` in style.css), so what
/// is being read stays in place.
#[component]
pub fn Answer(
    /// The estimate shown.
    e: Shown,
) -> impl IntoView {
    let settled = crate::platform::later::settled();
    view! {
        <Headline e=e />
        <EngineReport e=e />
        <Warnings e=e />
        <Show when=move || settled.get()>
            <LimitsView e=e />
            <GenerationLimits e=e />
            <Recommendation e=e />
            <RulesOfThumb e=e />
        </Show>
    }
}

/// Verdict, stacked bar against the card, legend and component table of a plan.
#[component]
pub fn PlanView(
    /// The plan.
    plan: Plan,
    /// Bytes over all GPUs.
    total: u64,
    /// Tokens per request.
    context: u64,
    /// How fast the plan runs and what it costs, as the core estimated them.
    pace: Pace,
) -> impl IntoView {
    let l = locale();
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
            {text::verdict(l, &plan, context)}
        </p>
        <SpeedLine pace=pace />
        {plan.peak_phase.map(|p| view! {
            <p class="phase" data-testid="peak-phase">{f(l, Key::PeakPhase, &[("phase", text::phase(l, p))])}</p>
        })}
        <div class="bar" role="img" aria-label=f(l, Key::BarAria, &[("used", &gib(l, plan.per_gpu_bytes)), ("cap", &gib(l, plan.card.capacity_bytes))])>
            // Widths through the CSSOM (`style:`), not a `style` attribute: the offline file's CSP
            // allows no inline style attributes.
            {plan.per_gpu_components.iter().map(|c| view! {
                <span class=format!("seg seg-{}", seg(c.id)) style:width=format!("{}%", fixed(share(c.bytes, scale), 3))
                    title=format!("{}: {} GiB", text::component(l, c.id), gib(l, c.bytes))></span>
            }).collect_view()}
            <span class="line usable" style:left=format!("{}%", fixed(share(plan.usable_bytes, scale), 3))></span>
            <span class="line capacity" style:left=format!("{}%", fixed(share(plan.card.capacity_bytes, scale), 3))></span>
        </div>
        <ul class="legend">
            {plan.per_gpu_components.iter().map(|c| view! {
                <li><span class=format!("dot seg-{}", seg(c.id))></span>{text::component(l, c.id)}</li>
            }).collect_view()}
            <li><span class="dot dot-line"></span>{t(l, Key::HeadroomLine)}</li>
        </ul>
        <table class="components" data-testid="components">
            <caption>{match plan.per_card.iter().find(|c| c.sets_limit) {
                // A mixed machine's table is the card that sets the limit.
                Some(c) => format!("{} {}", text::gpu_name(c.gpu), t(l, Key::PerCardLimit)),
                None if count > 1 => f(l, Key::PerGpuTimes, &[("count", &count.to_string())]),
                None => t(l, Key::PerGpu).to_string(),
            }}</caption>
            <thead><tr><th scope="col">{t(l, Key::ColComponent)}</th><th scope="col">"GiB"</th><th scope="col">"GB"</th></tr></thead>
            <tbody>
                {plan.per_gpu_components.iter().map(|c| {
                    let [name, what, grow, shrink, measure] = text::guide(c.id);
                    view! {
                        <tr data-testid=format!("row-{}", seg(c.id))>
                            <th scope="row">
                                <details>
                                    <summary>{t(l, name)}</summary>
                                    <dl class="why">
                                        <dt>{t(l, Key::GuideWhat)}</dt><dd>{t(l, what)}</dd>
                                        <dt>{t(l, Key::GuideGrow)}</dt><dd>{t(l, grow)}</dd>
                                        <dt>{t(l, Key::GuideShrink)}</dt><dd>{t(l, shrink)}</dd>
                                        <dt>{t(l, Key::GuideMeasure)}</dt><dd>{t(l, measure)}</dd>
                                    </dl>
                                </details>
                            </th>
                            <td>{gib(l, c.bytes)}</td><td>{gb(l, c.bytes)}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
            <tfoot>
                <tr data-testid="row-total"><th scope="row">{t(l, Key::TotalPerGpu)}</th><td data-testid="per-gpu-gib">{gib(l, plan.per_gpu_bytes)}</td><td>{gb(l, plan.per_gpu_bytes)}</td></tr>
                {(count > 1).then(|| view! {
                    <tr><th scope="row">{f(l, Key::AllGpus, &[("count", &l.count(PluralKey::Gpus, u64::from(count)))])}</th><td>{gib(l, total)}</td><td>{gb(l, total)}</td></tr>
                })}
                <tr><th scope="row">{t(l, Key::CardCapacity)}</th><td>{gib(l, plan.card.capacity_bytes)}</td><td>{gb(l, plan.card.capacity_bytes)}</td></tr>
            </tfoot>
        </table>
        {(!plan.per_card.is_empty()).then(|| view! { <PerCard cards=plan.per_card.clone() /> })}
    }
}

/// A mixed machine's cards, in device order: what each holds of its memory, and the one whose
/// verdict the plan is.
#[component]
fn PerCard(cards: Vec<CardUse>) -> impl IntoView {
    let l = locale();
    view! {
        <table class="components per-card" data-testid="per-card">
            <caption>{t(l, Key::PerCardCaption)}</caption>
            <thead><tr>
                <th scope="col">{t(l, Key::CardLabel)}</th>
                <th scope="col">{t(l, Key::PerCardUsed)}" (GiB)"</th>
                <th scope="col">{t(l, Key::CardCapacity)}" (GiB)"</th>
            </tr></thead>
            <tbody>
                {cards.into_iter().map(|c| {
                    let name = text::gpu_name(c.gpu);
                    view! {
                        <tr data-testid=format!("card-{}", c.gpu)>
                            <th scope="row">{name}{c.sets_limit.then(|| format!(" — {}", t(l, Key::PerCardLimit)))}</th>
                            <td>{gib(l, c.bytes)}</td>
                            <td>{gib(l, c.capacity_bytes)}</td>
                        </tr>
                    }
                }).collect_view()}
            </tbody>
        </table>
    }
}

/// What the engine itself will report at start-up (KV cache, a hybrid model's recurrent state,
/// tokens, concurrency), and host RAM.
#[component]
fn EngineReport(e: Shown) -> impl IntoView {
    let l = locale();
    let report = part(e, |e| {
        let plan = e.plan.as_ref()?;
        let split_over_cards = plan.split == Split::Layers && plan.count > 1;
        Some((plan.kv?, split_over_cards, e.host_bytes, e.context_tokens))
    });
    move || {
        erased(report.get().map(|(k, split_over_cards, host, context_tokens)| {
        view! {
            <div class="engine-report" data-testid="engine-report">
                <h2>{t(l, Key::EngineReportTitle)}</h2>
                <ul>
                    {k.budget_bytes.map(|b| view! { <li>{f(l, Key::ClaimedAtStart, &[("gib", &gib(l, b))])}</li> })}
                    // A layer split's engines report the cache of all cards (llama.cpp's total,
                    // Transformers' whole cache); the others one GPU's.
                    <li data-testid="kv-gib">{f(l, if split_over_cards { Key::KvGibAllCards } else { Key::KvGib }, &[("gib", &gib(l, k.kv_cache_bytes))])}</li>
                    {(k.state_bytes > 0).then(|| view! { <li data-testid="state-gib">{f(l, Key::StateGib, &[("gib", &gib(l, k.state_bytes))])}</li> })}
                    <li data-testid="kv-tokens">{f(l, Key::KvTokens, &[("tokens", &l.count(PluralKey::Tokens, k.kv_cache_tokens))])}</li>
                    <li data-testid="max-concurrency">{f(l, Key::MaxConcurrency, &[("tokens", &l.count(PluralKey::Tokens, context_tokens)), ("x", &l.decimal(k.max_concurrency_centi() as f64 / 100.0, 2))])}</li>
                    // vLLM's two figures for a hybrid model look contradictory side by side (its
                    // token count is per layer group, its concurrency counts the attention group).
                    {(k.state_bytes > 0 && k.max_concurrency * context_tokens as f64 > k.kv_cache_tokens as f64 * 1.05).then(|| view! {
                        <li class="why" data-testid="kv-per-group">{t(l, Key::KvTokensPerGroup)}</li>
                    })}
                    {(host > 0).then(|| view! { <li data-testid="host-ram">{f(l, Key::HostRam, &[("gib", &gib(l, host))])}</li> })}
                </ul>
            </div>
        }
    }))
    }
}

/// The inverse answers for the plan's cards, with the chart.
#[component]
fn LimitsView(e: Shown) -> impl IntoView {
    let l = locale();
    let shown = part(e, |e| {
        Some((
            e.limits.clone()?,
            e.plan.clone()?,
            e.curve.clone(),
            e.curve_axis,
            e.model.as_ref().map(|m| u64::from(m.arch.max_position)),
        ))
    });
    move || {
        erased(shown.get().map(|(lim, plan, curve, axis, trained)| {
        // The core stops at the model's trained context: say so where that is the limit.
        let ctx = lim.max_context_tokens.map_or_else(
            || t(l, Key::NoneFits).to_string(),
            |c| {
                let n = l.count(PluralKey::Tokens, c);
                if Some(c) == trained {
                    f(l, Key::TrainedMaximum, &[("value", &n)])
                } else {
                    n
                }
            },
        );
        let seqs = lim.max_sequences.map_or_else(
            || t(l, Key::NoneFits).to_string(),
            |s| l.count(PluralKey::Sequences, s),
        );
        let (ctx_key, seq_key) = if plan.peak_phase.is_some() {
            (Key::MaxSeqLen, Key::MaxMicroBatch)
        } else {
            (Key::MaxContext, Key::MaxSequences)
        };
        view! {
            <div class="limits" data-testid="limits">
                <h2>{f(l, Key::LimitsTitle, &[("plan", &text::plan_title(l, &plan))])}</h2>
                <ul>
                    <li data-testid="max-context" data-value=lim.max_context_tokens.unwrap_or(0)>{f(l, ctx_key, &[("value", &ctx)])}</li>
                    <li data-testid="max-sequences">{f(l, seq_key, &[("value", &seqs)])}</li>
                    {lim.utilization.map(|u| view! {
                        <li data-testid="util-range">{match u.min {
                            Some(min) => f(l, Key::UtilRange, &[("min", &l.decimal(min, 2)), ("max", &l.decimal(u.max, 2))]),
                            None => f(l, Key::UtilNone, &[("max", &l.decimal(u.max, 2))]),
                        }}</li>
                    })}
                </ul>
                <CurveChart points=curve capacity=plan.card.capacity_bytes usable=plan.usable_bytes max_context=lim.max_context_tokens axis=axis />
            </div>
        }
        }))
    }
}

/// For image and video generation: the largest size or frame count that fits, and the chart.
#[component]
fn GenerationLimits(e: Shown) -> impl IntoView {
    let l = locale();
    let shown = part(e, |e| {
        let plan = e
            .plan
            .clone()
            .filter(|_| matches!(e.curve_axis, CurveAxis::ImageSide | CurveAxis::Frames))?;
        Some((plan, e.curve.clone(), e.curve_axis, e.generation_max))
    });
    move || {
        erased(shown.get().map(|(plan, curve, axis, generation_max)| {
            generation_limits(l, plan, curve, axis, generation_max)
        }))
    }
}

/// The largest size or frame count of one estimate's plan, and the chart.
fn generation_limits(
    l: Locale,
    plan: Plan,
    curve: Vec<vramfit_core::CurvePoint>,
    axis: CurveAxis,
    generation_max: Option<u64>,
) -> impl IntoView {
    let frames = axis == CurveAxis::Frames;
    let line = match (generation_max, frames) {
        (Some(v), false) => f(l, Key::MaxResolution, &[("value", &l.integer(v))]),
        (Some(v), true) => f(l, Key::MaxFrames, &[("value", &l.integer(v))]),
        (None, false) => t(l, Key::NoImageFits).to_string(),
        (None, true) => t(l, Key::NoFramesFit).to_string(),
    };
    view! {
        <div class="limits" data-testid="generation-limits">
            <h2>{f(l, Key::LimitsTitle, &[("plan", &text::plan_title(l, &plan))])}</h2>
            <ul><li data-testid="generation-max">{line}</li></ul>
            <CurveChart points=curve capacity=plan.card.capacity_bytes usable=plan.usable_bytes
                max_context=generation_max axis=axis />
        </div>
    }
}

/// The estimate's warnings; with `essential`, only those that change what the verdict means
/// (the embed widget shows these: a green fit past the model's trained length must say so).
#[component]
pub fn Warnings(
    /// The estimate shown.
    e: Shown,
    /// Only the warnings that qualify the verdict.
    #[prop(optional)]
    essential: bool,
) -> impl IntoView {
    let l = locale();
    let shown = part(e, move |e| {
        let shown = shown_warnings(e, essential);
        (!shown.0.is_empty()).then_some(shown)
    });
    move || {
        erased(shown.get().map(|(shown, training, serving)| view! {
        <ul class="warnings" data-testid="warnings">
            {shown.iter().map(|w| view! { <li>{text::warning(l, w, training, serving)}</li> }).collect_view()}
        </ul>
    }))
    }
}

/// Whether `e` serves a language model (not training it, nor a pipeline or custom job): engine
/// buffers outside PyTorch, token columns, a price per million tokens and decode-step notes are
/// a server's.
pub fn serves_llm(e: &Estimate) -> bool {
    e.model.is_some() && e.curve_axis != CurveAxis::SequenceLength
}

/// The warnings of `e` the page shows (with `essential`, only those that qualify the verdict),
/// and whether the run is training and whether it serves an LLM, which change their wording.
fn shown_warnings(e: &Estimate, essential: bool) -> (Vec<Warning>, bool, bool) {
    // Without a language model the verdict line and the fixes say what the generic "lower the
    // context or the sequences" advice of these two would get wrong.
    let llm = e.model.is_some();
    // Training says what to shorten in its own words (sequences and micro-batch, not context).
    let training = e.curve_axis == CurveAxis::SequenceLength;
    // Only a served LLM has engine buffers outside PyTorch's allocator (not training, diffusers
    // pipelines or a custom job).
    let serving = serves_llm(e);
    let shown: Vec<Warning> = e
        .warnings
        .iter()
        .filter(|w| llm || !matches!(w, Warning::DoesNotFit | Warning::WithinHeadroom))
        .filter(|w| {
            !essential
                || matches!(
                    w,
                    Warning::ContextBeyondModel { .. }
                        | Warning::PcieOnly
                        | Warning::TensorParallelIndivisible { .. }
                        | Warning::Saturated
                )
        })
        .copied()
        .collect();
    (shown, training, serving)
}

/// The model line, the plan with its verdict (or that nothing fits) and the fixes (once the rest
/// of the code is in): the first
/// things the answer shows, in the full app and in the widget.
#[component]
pub fn Headline(
    /// The estimate shown.
    e: Shown,
) -> impl IntoView {
    let l = locale();
    let summary = part(e, move |e| model_summary(l, e));
    let plan = part(e, |e| {
        Some(
            e.plan
                .clone()
                .map(|plan| (plan, e.total_bytes, e.context_tokens, Pace::of(e))),
        )
    });
    view! {
        {move || erased(summary.get().map(|s| view! { <p class="model-summary" data-testid="model-summary">{s}</p> }))}
        {move || plan.get().map(|plan| match plan {
            Some((plan, total, context, pace)) => view! {
                <PlanView plan=plan total=total context=context pace=pace />
            }.into_any(),
            None => view! {
                <p class="verdict does_not_fit" data-testid="verdict">"✖ "{t(l, Key::VerdictNoCard)}</p>
            }.into_any(),
        })}
        <Fixes e=e />
    }
}

/// The line naming the model: its size, and its KV cache per token (none for training).
fn model_summary(l: Locale, e: &Estimate) -> Option<String> {
    // A sliding-window model's per-token figure holds up to the window only: past it just the
    // global layers grow, so the summary gives both (Gemma 4 31B: 880 KiB, then 80 KiB).
    let summary = e.model.as_ref().map(|m| {
        let name = m.name.unwrap_or(t(l, Key::PastedConfig));
        let kib = l.integer(e.kv_bytes_per_token / 1024);
        let count = params(l, m.params);
        let base = [
            ("name", name),
            ("params", count.as_str()),
            ("kib", kib.as_str()),
            ("fmt", e.kv_cache_format.id()),
        ];
        // A training run keeps no KV cache: its line names the model only.
        if e.curve_axis == CurveAxis::SequenceLength {
            return f(l, Key::ModelSummaryTrain, &base[..2]);
        }
        match (e.kv_bytes_per_token_past_window, m.arch.sliding_window) {
            (Some(past), Some(sw)) => {
                let kib_past = l.integer(past / 1024);
                let window = l.integer(u64::from(sw.window));
                let mut args = base.to_vec();
                args.extend([("kib_past", kib_past.as_str()), ("window", window.as_str())]);
                f(l, Key::ModelSummaryWindow, &args)
            }
            _ => f(l, Key::ModelSummary, &base),
        }
    });
    summary
}

/// The recommended plan, replicas, and single cards around the fit boundary.
#[component]
pub fn Recommendation(
    /// The estimate shown.
    e: Shown,
) -> impl IntoView {
    let l = locale();
    let shown = part(e, |e| Some((e.recommendation.clone(), e.curve_axis)));
    view! {
        <div class="recommendation" data-testid="recommendation">
            <h2>{t(l, Key::RecTitle)}</h2>
            {move || erased(shown.get().map(|(rec, axis)| recommendation(l, rec, axis)))}
            <Offers e=e />
        </div>
    }
}

/// The best plan, the replicas and the single cards of one recommendation.
fn recommendation(l: Locale, rec: vramfit_core::Recommendation, axis: CurveAxis) -> impl IntoView {
    let best = rec.best.map(|p| {
        f(
            l,
            Key::RecBest,
            &[
                ("plan", &text::plan_title(l, &p)),
                ("used", &gib(l, p.per_gpu_bytes)),
                ("usable", &gib(l, p.usable_bytes)),
            ],
        )
    });
    // For training the replicas are data-parallel copies, each with a smaller micro-batch.
    let training = axis == CurveAxis::SequenceLength;
    let replicas = rec.replicas.map(|p| {
        f(
            l,
            if training {
                Key::RecReplicasTrain
            } else {
                Key::RecReplicas
            },
            &[
                ("plan", &text::plan_title(l, &p)),
                (
                    "seqs",
                    &l.count(PluralKey::Sequences, u64::from(p.sequences_per_replica)),
                ),
                ("gib", &gib(l, p.per_gpu_bytes)),
            ],
        )
    });
    // A few single cards the software runs on, around the fit boundary: the two largest that
    // don't fit, the three smallest that do.
    let runnable: Vec<&Plan> = rec
        .single_cards
        .iter()
        .filter(|p| !rec.left_out.iter().any(|o| Some(o.gpu) == p.card.gpu))
        .collect();
    let first_fit = runnable
        .iter()
        .position(|p| p.verdict == Verdict::Fits)
        .unwrap_or(runnable.len());
    let lo = first_fit.saturating_sub(2);
    let hi = (first_fit + 3).min(runnable.len());
    let nearby: Vec<Plan> = runnable[lo..hi].iter().map(|p| (*p).clone()).collect();
    view! {
        <p data-testid="best">{best.unwrap_or_else(|| t(l, Key::RecNone).to_string())}</p>
        {replicas.map(|r| view! { <p data-testid="replicas">{r}</p> })}
        <p class="alternatives">{t(l, Key::SingleCards)}" "<span>
            {nearby.iter().map(|p| view! {
                <span class=format!("chip {:?}", p.verdict).to_ascii_lowercase()>
                    {format!("{} {} {}", text::card_name(l, p), text::verdict_icon(p.verdict), text::verdict_word(l, p.verdict))}
                </span>
            }).collect_view()}
        </span></p>
    }
}

#[component]
fn RulesOfThumb(e: Shown) -> impl IntoView {
    let l = locale();
    let shown = part(e, |e| {
        e.model
            .is_some()
            .then_some((e.rules_of_thumb, e.total_bytes))
    });
    move || {
        erased(shown.get().map(|(r, total)| view! {
        <div class="rules" data-testid="rules">
            <h2>{t(l, Key::RulesTitle)}</h2>
            <table>
                <tbody>
                    <tr><th scope="row">{t(l, Key::RuleWeightsOnly)}</th><td>{format!("{} GB", gb(l, r.weights_only_bytes))}</td></tr>
                    <tr><th scope="row">{t(l, Key::RuleTwoGb)}</th><td>{format!("{} GB", gb(l, r.inference_bytes))}</td></tr>
                    <tr><th scope="row">{t(l, Key::RuleThisEstimate)}</th><td data-testid="total-gb" data-value=total>{format!("{} GB ({} GiB)", gb(l, total), gib(l, total))}</td></tr>
                </tbody>
            </table>
        </div>
    }))
    }
}

/// A section's view with its type erased: every section then shares one path to build and
/// rebuild it (a path per section's type was most of what the sections cost the wasm).
pub fn erased<V: IntoView + 'static>(v: Option<V>) -> Option<AnyView> {
    v.map(IntoAny::into_any)
}

/// A component's id as the class and test id suffix (`seg-kvcache`, `row-kvcache`).
fn seg(id: ComponentId) -> String {
    format!("{id:?}").to_ascii_lowercase()
}
