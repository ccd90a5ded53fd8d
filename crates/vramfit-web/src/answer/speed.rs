//! Speed and price in the answer: the line under the verdict ("≈ 48 tok/s per request, ≈ 310
//! tok/s in all · $0.86/h"), and the plans that fit as the core ranked them, side by side with
//! one bigger card against several smaller ones, the cards left out and how the figures are made.
//! Every figure is the core's (`Estimate::speed`, `cost`, `recommendation.alternatives`).

use crate::answer::sections::{erased, part, serves_llm, Shown};
use crate::ui::locale::locale;
use crate::ui::numbers::gib;
use crate::ui::text::{self, availability_name, f, rank_name, t};
use leptos::prelude::*;
use vramfit_core::{Cost, Estimate, Offer, PriceSource, Speed};
use vramfit_i18n::{Key, Locale};

/// The plan shown's speed and cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// How fast it runs.
    pub speed: Option<Speed>,
    /// What it costs.
    pub cost: Option<Cost>,
}

impl Pace {
    /// The estimate's own.
    pub fn of(e: &Estimate) -> Pace {
        Pace {
            speed: e.speed,
            cost: e.cost,
        }
    }
}

/// A rate with sensible digits: 1,234 / 48 / 7.4.
fn rate(l: Locale, x: f64) -> String {
    l.decimal(x, if x < 10.0 { 1 } else { 0 })
}

/// A duration from milliseconds: "850 ms", "4.2 s", "95 s".
fn duration_ms(l: Locale, ms: f64) -> String {
    if ms < 1000.0 {
        f(l, Key::Milliseconds, &[("n", &l.decimal(ms, 0))])
    } else {
        seconds(l, ms / 1000.0)
    }
}

fn seconds(l: Locale, s: f64) -> String {
    f(l, Key::Seconds, &[("n", &rate(l, s))])
}

/// Dollars with cents (or three digits under a cent).
fn usd(l: Locale, x: f64) -> String {
    l.decimal(x, if x < 0.1 { 3 } else { 2 })
}

/// "$0.86/h".
pub fn per_hour(l: Locale, c: &Cost) -> String {
    f(l, Key::UsdPerHour, &[("usd", &usd(l, c.usd_per_hour))])
}

/// The speed sentence for the plan shown.
pub fn speed_sentence(l: Locale, s: &Speed) -> String {
    match s {
        Speed::Serving(v) => {
            let ttft = duration_ms(l, v.time_to_first_token_ms);
            let band = v.error_band_percent.to_string();
            if v.decode_tokens_per_s_total > v.decode_tokens_per_s * 1.0001 {
                f(
                    l,
                    Key::SpeedServing,
                    &[
                        ("tok", &rate(l, v.decode_tokens_per_s)),
                        ("total", &rate(l, v.decode_tokens_per_s_total)),
                        ("band", &band),
                        ("ttft", &ttft),
                    ],
                )
            } else {
                f(
                    l,
                    Key::SpeedServingOne,
                    &[
                        ("tok", &rate(l, v.decode_tokens_per_s)),
                        ("band", &band),
                        ("ttft", &ttft),
                    ],
                )
            }
        }
        Speed::Training(v) => f(
            l,
            Key::SpeedTraining,
            &[
                ("tok", &rate(l, v.tokens_per_s)),
                ("step", &seconds(l, v.step_seconds)),
                ("mfu", &l.decimal(v.utilisation * 100.0, 0)),
            ],
        ),
        Speed::Generation(v) => f(
            l,
            Key::SpeedGeneration,
            &[
                ("secs", &seconds(l, v.seconds_per_item)),
                ("steps", &v.steps.to_string()),
                ("mfu", &l.decimal(v.utilisation * 100.0, 0)),
            ],
        ),
    }
}

/// The cost words: "$0.86/h · $1.20 per million output tokens · reference price, 2026-09".
fn cost_sentence(l: Locale, c: &Cost) -> String {
    let mut parts = vec![per_hour(l, c)];
    if let Some(m) = c.usd_per_million_output_tokens {
        parts.push(f(l, Key::UsdPerMillion, &[("usd", &usd(l, m))]));
    }
    parts.push(match c.price_source {
        PriceSource::Reference => f(l, Key::PriceReference, &[("month", c.price_as_of)]),
        PriceSource::User => t(l, Key::PriceUser).to_string(),
    });
    parts.join(" · ")
}

/// The line under the verdict: speed, then price.
#[component]
pub fn SpeedLine(
    /// Speed and cost of the plan shown.
    pace: Pace,
) -> impl IntoView {
    let l = locale();
    let speed = pace.speed.map(|s| speed_sentence(l, &s));
    let cost = pace.cost.map(|c| cost_sentence(l, &c));
    let both = speed.is_some() && cost.is_some();
    (speed.is_some() || cost.is_some()).then(|| {
        view! {
            <p class="pace" data-testid="speed-line">
                {speed.map(|s| view! { <span data-testid="speed">{s}</span> })}
                // The separator only between the two: a plan that does not fit has no speed.
                {both.then_some(" · ")}
                {cost.map(|c| view! { <span data-testid="cost">{c}</span> })}
            </p>
        }
    })
}

/// The one-line summary that stays in view: verdict icon and word, the plan, the per-GPU
/// memory against the card, the speed per request and the price per hour.
pub fn summary(l: Locale, e: &Estimate) -> String {
    let Some(plan) = &e.plan else {
        return format!("✖ {}", t(l, Key::VerdictNoCard));
    };
    let mut parts = vec![
        format!(
            "{} {}",
            text::verdict_icon(plan.verdict),
            text::plan_word(l, plan)
        ),
        text::plan_title(l, plan),
        format!(
            "{} / {} GiB",
            gib(l, plan.per_gpu_bytes),
            gib(l, plan.card.capacity_bytes)
        ),
    ];
    match e.speed {
        Some(Speed::Serving(s)) => {
            parts.push(format!("≈ {} tok/s", rate(l, s.decode_tokens_per_s)))
        }
        Some(Speed::Training(s)) => parts.push(format!("≈ {} tok/s", rate(l, s.tokens_per_s))),
        Some(Speed::Generation(s)) => parts.push(format!("≈ {}", seconds(l, s.seconds_per_item))),
        None => {}
    }
    if let Some(c) = &e.cost {
        parts.push(per_hour(l, c));
    }
    parts.join(" · ")
}

/// One row of the offers table.
fn offer_row(l: Locale, o: &Offer, serving: bool, testid: String) -> impl IntoView {
    let speed_cells = match o.speed {
        Some(Speed::Serving(s)) if serving => vec![
            rate(l, s.decode_tokens_per_s),
            rate(l, s.decode_tokens_per_s_total),
            duration_ms(l, s.time_to_first_token_ms),
        ],
        Some(Speed::Training(s)) if !serving => {
            vec![format!("≈ {} tok/s", rate(l, s.tokens_per_s))]
        }
        Some(Speed::Generation(s)) if !serving => {
            vec![format!("≈ {}", seconds(l, s.seconds_per_item))]
        }
        _ => vec!["–".to_string(); if serving { 3 } else { 1 }],
    };
    let hour = o.cost.map_or_else(
        || t(l, Key::NoPrice).to_string(),
        |c| usd(l, c.usd_per_hour),
    );
    // Dollars per million output tokens: a column for servers only (training reads its tokens,
    // generation makes images).
    let million = serving.then(|| {
        o.cost
            .and_then(|c| c.usd_per_million_output_tokens)
            .map_or_else(|| "–".to_string(), |m| usd(l, m))
    });
    view! {
        <tr data-testid=testid>
            <th scope="row">{text::plan_title(l, &o.plan)}</th>
            <td>{availability_name(l, o.availability)}</td>
            <td>{gib(l, o.plan.per_gpu_bytes)}</td>
            {speed_cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view()}
            <td>{hour}</td>
            {million.map(|m| view! { <td>{m}</td> })}
        </tr>
    }
}

/// The plans that fit, ranked as the scenario asks, and the seeds' question side by side.
#[component]
pub fn Offers(
    /// The estimate shown.
    e: Shown,
) -> impl IntoView {
    let l = locale();
    // The serving columns (tokens per request, in all, first token, $ per million tokens) only
    // for a served language model: by the workload, not by which offers happen to carry a speed
    // (an image pipeline without a fitted speed is no server).
    let shown = part(e, |e| {
        (!e.recommendation.alternatives.is_empty())
            .then(|| (e.recommendation.clone(), serves_llm(e)))
    });
    move || erased(shown.get().map(|(rec, serving)| offers(l, &rec, serving)))
}

/// The ranked offers of one recommendation, then the side-by-side rows they do not show.
fn offers(l: Locale, rec: &vramfit_core::Recommendation, serving: bool) -> impl IntoView {
    let top: Vec<Offer> = rec.alternatives.clone();
    // Side by side: what the top rows do not already show.
    let more: Vec<Offer> = rec
        .side_by_side
        .iter()
        .filter(|o| !top.iter().any(|t| t.plan == o.plan))
        .cloned()
        .collect();
    let heads: Vec<&'static str> = if serving {
        vec![
            t(l, Key::ColTokPerRequest),
            t(l, Key::ColTokAll),
            t(l, Key::ColFirstToken),
        ]
    } else {
        vec![t(l, Key::ColSpeed)]
    };
    let columns = if serving { 5 } else { 4 } + heads.len();
    view! {
        <div class="offers" data-testid="offers">
            <h3>{f(l, Key::OffersTitle, &[("by", rank_name(l, rec.by))])}</h3>
            <div class="table-scroll">
                <table>
                    <thead><tr>
                        <th scope="col">{t(l, Key::ColPlan)}</th>
                        <th scope="col">{t(l, Key::ColWhere)}</th>
                        <th scope="col">{t(l, Key::ColGibPerGpu)}</th>
                        {heads.into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view()}
                        <th scope="col">{t(l, Key::ColPerHour)}</th>
                        {serving.then(|| view! { <th scope="col">{t(l, Key::ColPerMillion)}</th> })}
                    </tr></thead>
                    // Two bodies, each row named by its place in its own: an input that changes
                    // which plans are listed rewrites cells, never a row's class or test id.
                    <tbody data-testid="offers-ranked">
                        {top.iter().enumerate().map(|(i, o)| offer_row(l, o, serving, format!("offer-{i}"))).collect_view()}
                    </tbody>
                    {(!more.is_empty()).then(|| view! {
                        <tbody data-testid="offers-side">
                            <tr class="group"><th scope="rowgroup" colspan=columns>{t(l, Key::SideBySideTitle)}</th></tr>
                            {more.iter().enumerate().map(|(i, o)| offer_row(l, o, serving, format!("side-{i}"))).collect_view()}
                        </tbody>
                    })}
                </table>
            </div>
        </div>
    }
}

/// Below the answer, once the rest of the code is in: the cards left out and how the figures are
/// made.
#[component]
pub fn OffersNotes(
    /// The estimate shown.
    e: Estimate,
) -> impl IntoView {
    let l = locale();
    // Decode steps, llama-bench and `vllm bench serve` are a server's; a training run, a pipeline
    // or a custom job is timed by its own steps.
    let serving = serves_llm(&e);
    let left = e.recommendation.left_out.clone();
    let month = e
        .cost
        .map(|c| c.price_as_of)
        .or_else(|| {
            e.recommendation
                .alternatives
                .iter()
                .find_map(|o| o.cost.map(|c| c.price_as_of))
        })
        .unwrap_or("–");
    view! {
        {(!left.is_empty()).then(|| view! {
            <details class="left-out" data-testid="left-out">
                <summary>{f(l, Key::LeftOutTitle, &[("n", &left.len().to_string())])}</summary>
                <ul>
                    {left.iter().map(|o| {
                        let name = crate::ui::text::gpu_name(o.gpu);
                        view! { <li>{format!("{name}: {}", text::stack_gap(l, o.gap))}</li> }
                    }).collect_view()}
                </ul>
            </details>
        })}
        <details class="speed-how" data-testid="speed-how">
            <summary>{t(l, Key::SpeedHowTitle)}</summary>
            {if serving {
                view! {
                    <p>{f(l, Key::SpeedHow, &[("n", &vramfit_core::speed_calibration_rows().to_string()), ("month", month)])}</p>
                    <p>{t(l, Key::SpeedMeasure)}</p>
                }.into_any()
            } else {
                view! {
                    <p>{f(l, Key::SpeedHowSteps, &[("month", month)])}</p>
                    <p>{t(l, Key::SpeedMeasureSteps)}</p>
                }.into_any()
            }}
        </details>
    }
}
