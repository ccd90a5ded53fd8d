//! Memory vs context length (or sequence length, image size, frames: the estimate's
//! `curve_axis`): the per-GPU memory the core computed at each value, against the card's capacity
//! and headroom lines, with the largest value that fits marked. Plain SVG; the points come from
//! `Estimate::curve`, the UI only scales them to pixels.

use crate::numbers::gib;
use crate::text::{f, t};
use leptos::prelude::*;
use vramfit_core::bytes::to_gib;
use vramfit_core::{CurveAxis, CurvePoint};
use vramfit_i18n::{fixed, Key, Locale, PluralKey};

const W: f64 = 640.0;
const H: f64 = 220.0;
const PAD_L: f64 = 48.0;
const PAD_B: f64 = 34.0;
const PAD_T: f64 = 10.0;
const PAD_R: f64 = 10.0;

/// The chart.
#[component]
pub fn CurveChart(
    /// Curve points (log-spaced on the axis).
    points: Vec<CurvePoint>,
    /// Card capacity, bytes.
    capacity: u64,
    /// Capacity minus headroom, bytes.
    usable: u64,
    /// Largest context (or size, frames) that fits, if any.
    max_context: Option<u64>,
    /// What the x axis counts.
    axis: CurveAxis,
    /// Language.
    l: Locale,
) -> impl IntoView {
    let (Some(first), Some(last)) = (points.first().copied(), points.last().copied()) else {
        return ().into_any();
    };
    // The y range stops at four times the card or the curve's start, whichever is larger: a
    // curve that climbs to terabytes (training at 128k tokens) would otherwise press the card's
    // line and the start onto the zero line. What climbs past the top is clipped at the frame.
    let highest = points.iter().map(|p| p.per_gpu_bytes).max().unwrap_or(0);
    let ceiling = capacity.max(first.per_gpu_bytes).saturating_mul(4);
    let top = highest.min(ceiling).max(capacity) as f64 * 1.08;
    let (lx0, lx1) = ((first.x as f64).ln(), (last.x as f64).ln());
    let x = move |c: f64| PAD_L + (c.ln() - lx0) / (lx1 - lx0).max(1e-9) * (W - PAD_L - PAD_R);
    let y = move |b: f64| H - PAD_B - b / top.max(1.0) * (H - PAD_B - PAD_T);
    // Coordinates as text with one decimal (not through `f64`'s `Display`: see `vramfit_i18n::fixed`).
    let n = |v: f64| fixed(v, 1);
    let path: String = points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{}{},{}",
                if i == 0 { "M" } else { "L" },
                n(x(p.x as f64)),
                n(y(p.per_gpu_bytes as f64))
            )
        })
        .collect();
    let tick_values: &[u64] = match axis {
        CurveAxis::ContextTokens | CurveAxis::SequenceLength => {
            &[512, 2048, 8192, 32768, 131072, 524288, 2_097_152]
        }
        // One tick per octave over a wide range: 3072 sits 0.42 octave from 4096 and their labels
        // ran into each other (seen on a phone, 256–4096 px); the half steps only when narrow.
        CurveAxis::ImageSide if last.x >= first.x.saturating_mul(6) => {
            &[256, 512, 1024, 2048, 4096]
        }
        CurveAxis::ImageSide => &[256, 512, 768, 1024, 1536, 2048, 3072, 4096],
        CurveAxis::Frames => &[9, 17, 33, 49, 81, 129, 257],
    };
    let ticks: Vec<u64> = tick_values
        .iter()
        .copied()
        .filter(|t| *t >= first.x && *t <= last.x)
        .collect();
    let label = move |t: u64| match axis {
        CurveAxis::ContextTokens | CurveAxis::SequenceLength if t >= 1024 => {
            format!("{}k", t / 1024)
        }
        _ => t.to_string(),
    };
    let caption = match axis {
        CurveAxis::ContextTokens => Key::ChartCaption,
        CurveAxis::SequenceLength => Key::ChartCaptionSequence,
        CurveAxis::ImageSide => Key::ResolutionChart,
        CurveAxis::Frames => Key::FramesChart,
    };
    let cap_y = y(capacity as f64);
    let use_y = y(usable as f64);
    // Value labels on the y axis: the card's capacity always; zero and the top of the frame only
    // where they do not run into it (a label is ≈ 12 units tall).
    let zero_y = H - PAD_B;
    let clear = |a: f64, b: f64| (a - b).abs() >= 16.0;
    let zero_label = clear(zero_y, cap_y).then(|| {
        view! {
            <text class="tick ylabel" x=n(PAD_L - 4.0) y=n(zero_y) text-anchor="end">"0"</text>
        }
    });
    let top_label = clear(PAD_T, cap_y).then(|| view! {
        <text class="tick ylabel" x=n(PAD_L - 4.0) y=n(PAD_T + 8.0) text-anchor="end">{fixed(to_gib(top as u64), 0)}</text>
    });
    view! {
        <figure class="chart" data-testid="context-chart">
            <figcaption>{t(l, caption)}</figcaption>
            <svg viewBox="0 0 640 220" role="img"
                aria-label=f(l, Key::ChartAria, &[
                    ("from", &gib(l, first.per_gpu_bytes)), ("ctx_from", &l.count(PluralKey::Tokens, first.x)),
                    ("to", &gib(l, last.per_gpu_bytes)), ("ctx_to", &l.count(PluralKey::Tokens, last.x)),
                    ("cap", &gib(l, capacity))])>
                <line class="axis" x1=n(PAD_L) y1=n(H - PAD_B) x2=n(W - PAD_R) y2=n(H - PAD_B) />
                <line class="axis" x1=n(PAD_L) y1=n(PAD_T) x2=n(PAD_L) y2=n(H - PAD_B) />
                {ticks.into_iter().map(|t| view! {
                    <g>
                        <line class="grid" x1=n(x(t as f64)) y1=n(PAD_T) x2=n(x(t as f64)) y2=n(H - PAD_B) />
                        <text class="tick" x=n(x(t as f64)) y=n(H - 6.0)
                            // A label at either end is anchored inside the chart, not cut.
                            text-anchor={if x(t as f64) > W - PAD_R - 24.0 { "end" } else { "middle" }}>{label(t)}</text>
                    </g>
                }).collect_view()}
                <text class="tick ylabel" x=n(PAD_L - 4.0) y=n(cap_y + 4.0) text-anchor="end">{fixed(to_gib(capacity), 0)}</text>
                {zero_label}
                {top_label}
                <clipPath id="chart-frame">
                    <rect x=n(PAD_L) y=n(PAD_T) width=n(W - PAD_L - PAD_R) height=n(H - PAD_B - PAD_T) />
                </clipPath>
                <line class="cap" x1=n(PAD_L) y1=n(cap_y) x2=n(W - PAD_R) y2=n(cap_y) />
                <line class="usable" x1=n(PAD_L) y1=n(use_y) x2=n(W - PAD_R) y2=n(use_y) />
                <path class="curve" d=path clip-path="url(#chart-frame)" />
                {max_context.filter(|c| *c >= first.x && *c <= last.x).map(|c| view! {
                    <line class="maxctx" x1=n(x(c as f64)) y1=n(PAD_T) x2=n(x(c as f64)) y2=n(H - PAD_B) />
                })}
            </svg>
            <p class="legend-line">{t(l, match axis {
                CurveAxis::ContextTokens => Key::ChartLegend,
                CurveAxis::SequenceLength => Key::ChartLegendSequence,
                CurveAxis::ImageSide => Key::ChartLegendImage,
                CurveAxis::Frames => Key::ChartLegendVideo,
            })}</p>
        </figure>
    }
    .into_any()
}
