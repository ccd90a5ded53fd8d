//! Memory vs context length (or sequence length, image size, frames: the estimate's
//! `curve_axis`): the per-GPU memory the core computed at each value, against the card's capacity
//! and headroom lines, with the largest value that fits marked. Plain SVG; the points come from
//! `Estimate::curve`, the UI only scales them to pixels.

use crate::ui::locale::locale;
use crate::ui::markup::push_element;
use crate::ui::numbers::gib;
use crate::ui::text::{f, t};
use leptos::prelude::*;
use vramfit_core::bytes::to_gib;
use vramfit_core::{CurveAxis, CurvePoint};
use vramfit_i18n::{fixed, Key, PluralKey};

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
) -> impl IntoView {
    let l = locale();
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
    // The drawing is one SVG string set as the `<svg>`'s markup: the browser parses it in one call
    // where building its ≈ 100 attributes node by node cost a wasm→JS call each, and Leptos's
    // type-erased attribute lists re-set every one of them on each update. Numbers and fixed class
    // names, escaped by `markup` all the same.
    let mut svg = String::with_capacity(2048);
    push_line(&mut svg, "axis", [PAD_L, H - PAD_B, W - PAD_R, H - PAD_B]);
    push_line(&mut svg, "axis", [PAD_L, PAD_T, PAD_L, H - PAD_B]);
    for t in &ticks {
        push_line(
            &mut svg,
            "grid",
            [x(*t as f64), PAD_T, x(*t as f64), H - PAD_B],
        );
    }
    for t in &ticks {
        let tx = x(*t as f64);
        // A label at either end is anchored inside the chart, not cut.
        let anchor = if tx > W - PAD_R - 24.0 {
            "end"
        } else {
            "middle"
        };
        push_text(&mut svg, "tick", [tx, H - 6.0], anchor, &label(*t));
    }
    let ylabel = [PAD_L - 4.0, cap_y + 4.0];
    push_text(
        &mut svg,
        "tick ylabel",
        ylabel,
        "end",
        &fixed(to_gib(capacity), 0),
    );
    if clear(zero_y, cap_y) {
        push_text(&mut svg, "tick ylabel", [PAD_L - 4.0, zero_y], "end", "0");
    }
    if clear(PAD_T, cap_y) {
        let value = fixed(to_gib(top as u64), 0);
        push_text(
            &mut svg,
            "tick ylabel",
            [PAD_L - 4.0, PAD_T + 8.0],
            "end",
            &value,
        );
    }
    let frame = [PAD_L, PAD_T, W - PAD_L - PAD_R, H - PAD_B - PAD_T].map(n);
    svg.push_str(&format!(
        r#"<clipPath id="chart-frame"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
        frame[0], frame[1], frame[2], frame[3]
    ));
    push_line(&mut svg, "cap", [PAD_L, cap_y, W - PAD_R, cap_y]);
    push_line(&mut svg, "usable", [PAD_L, use_y, W - PAD_R, use_y]);
    svg.push_str(&format!(
        r#"<path class="curve" d="{path}" clip-path="url(#chart-frame)"/>"#
    ));
    if let Some(c) = max_context.filter(|c| *c >= first.x && *c <= last.x) {
        push_line(
            &mut svg,
            "maxctx",
            [x(c as f64), PAD_T, x(c as f64), H - PAD_B],
        );
    }
    view! {
        <figure class="chart" data-testid="context-chart">
            <figcaption>{t(l, caption)}</figcaption>
            <svg viewBox="0 0 640 220" role="img"
                aria-label=f(l, Key::ChartAria, &[
                    ("from", &gib(l, first.per_gpu_bytes)), ("ctx_from", &l.count(PluralKey::Tokens, first.x)),
                    ("to", &gib(l, last.per_gpu_bytes)), ("ctx_to", &l.count(PluralKey::Tokens, last.x)),
                    ("cap", &gib(l, capacity))])
                inner_html=svg>
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

/// Appends `<line class x1 y1 x2 y2>` (coordinates to one decimal).
fn push_line(svg: &mut String, class: &str, at: [f64; 4]) {
    let [x1, y1, x2, y2] = at.map(|v| fixed(v, 1));
    let attrs = [("x1", &*x1), ("y1", &*y1), ("x2", &*x2), ("y2", &*y2)];
    push_element(svg, "line", class, &attrs, "");
}

/// Appends `<text class x y text-anchor>value</text>`; `value` is a number or a tick label.
fn push_text(svg: &mut String, class: &str, at: [f64; 2], anchor: &str, value: &str) {
    let [x, y] = at.map(|v| fixed(v, 1));
    let attrs = [("x", &*x), ("y", &*y), ("text-anchor", anchor)];
    push_element(svg, "text", class, &attrs, value);
}
