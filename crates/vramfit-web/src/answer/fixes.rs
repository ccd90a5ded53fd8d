//! "What would make it fit": the core's fixes as one-click links. Each link is the fix's whole
//! scenario in the URL (the core evaluated it: its per-GPU bytes and verdict are shown beside it),
//! so a click loads it and the browser's back button returns to what was typed.

use crate::answer::sections::{erased, part, Shown};
use crate::platform::url;
use crate::ui::locale::locale;
use crate::ui::numbers::gib;
use crate::ui::text::{self, t, verdict_icon, verdict_word};
use leptos::prelude::*;
use vramfit_core::{
    Change, Checkpointing, Engine, Fix, Method, Optimizer, PipelinePartFormat, Sharding, Verdict,
    VerdictReason,
};
use vramfit_i18n::{fixed, Key, Locale};

/// The label of one fix: its change, and the engine fraction it also sets, if any.
fn label(l: Locale, fix: &Fix) -> String {
    let change = change_label(l, &fix.change, fix);
    match fix.engine_fraction {
        Some(f) => format!("{change} + {} = {}", fraction_flag(fix), fixed(f, 2)),
        None => change,
    }
}

/// The engine flag of the claimed fraction.
fn fraction_flag(fix: &Fix) -> &'static str {
    Engine::fraction_setting(fix.scenario.engine.as_ref())
}

/// The label of one change of `fix`, from the same words as the fields it changes.
fn change_label(l: Locale, change: &Change, fix: &Fix) -> String {
    let field = |k: Key, v: &str| format!("{}: {v}", t(l, k));
    match change {
        Change::EngineFraction { fraction } => {
            format!("{} = {}", fraction_flag(fix), fixed(*fraction, 2))
        }
        Change::Context { tokens } => field(Key::ContextLabel, &l.integer(u64::from(*tokens))),
        Change::Sequences { sequences } => {
            field(Key::SequencesLabel, &l.integer(u64::from(*sequences)))
        }
        Change::KvCache { format } => field(Key::KvCacheLabel, format),
        Change::Weights { format } => field(Key::WeightsLabel, format),
        Change::CpuMoeLayers { layers } => format!("--n-cpu-moe {layers}"),
        Change::NoSpeculative => t(l, Key::FixNoSpec).to_string(),
        Change::KvCacheMemory { bytes } => {
            format!("--kv-cache-memory {} GiB", gib(l, *bytes))
        }
        Change::GpuLayers { layers } => field(Key::LlamaNgl, &layers.to_string()),
        Change::Gpus { count } => field(Key::CountLabel, &count.to_string()),
        Change::Card { gpu, count } => {
            let name = text::gpu_name(gpu);
            field(Key::CardLabel, &format!("{count} × {name}"))
        }
        Change::Checkpointing => field(
            Key::CheckpointingLabel,
            text::checkpointing(l, Checkpointing::Full),
        ),
        Change::Optimizer8bit => field(
            Key::OptimizerLabel,
            text::optimizer(l, Optimizer::Adamw8bit),
        ),
        Change::ChunkedLoss => format!("{} + {}", t(l, Key::ChunkedLoss), t(l, Key::Compiled)),
        Change::Lora => field(Key::TrainMethod, text::method(l, Method::Lora)),
        Change::Qlora => field(Key::TrainMethod, text::method(l, Method::Qlora)),
        Change::Zero3 { count } => field(
            Key::ShardingLabel,
            &format!("{} × {count}", text::sharding(l, Sharding::Zero3)),
        ),
        Change::MicroBatch { micro_batch } => field(Key::MicroBatch, &micro_batch.to_string()),
        Change::VaeTiling => t(l, Key::VaeTiling).to_string(),
        Change::DenoiserFp8 => field(Key::DenoiserFormat, PipelinePartFormat::Fp8.id()),
        Change::DenoiserBf16 => field(Key::DenoiserFormat, PipelinePartFormat::Bf16.id()),
        Change::DropT5 => t(l, Key::DropT5).to_string(),
        Change::Offload { mode } => field(Key::OffloadLabel, text::offload(l, *mode)),
        Change::ImageSize { side } => format!(
            "{} × {}: {side} × {side} px",
            t(l, Key::WidthLabel),
            t(l, Key::HeightLabel)
        ),
        Change::Frames { frames } => field(Key::FramesLabel, &frames.to_string()),
        Change::Together { changes } => changes
            .iter()
            .map(|c| change_label(l, c, fix))
            .collect::<Vec<_>>()
            .join(" + "),
    }
}

/// The fixes of `e`, if any, as links that load each changed scenario. A first answer comes
/// without them (`Live` in `workload/form.rs`): until the rest of the code is in, a plan that
/// does not fit says one line where they will be, so they arrive without pushing the warnings
/// far down.
#[component]
pub fn Fixes(
    /// The estimate shown.
    e: Shown,
) -> impl IntoView {
    let l = locale();
    let settled = crate::platform::later::settled();
    let pending = part(e, move |e| {
        // Only where it does not fit: the line says "what would make it fit" (a tight plan's
        // fixes, which widen its headroom, arrive without it).
        let over = e.verdict == Verdict::DoesNotFit;
        (over && e.fixes.is_empty() && !settled.get()).then_some(())
    });
    // Where the software does not run on the card, the fixes make it run rather than shrink it.
    let fixes = part(e, |e| {
        let run = matches!(e.reason, VerdictReason::SoftwareDoesNotRun { .. });
        (!e.fixes.is_empty()).then(|| (e.fixes.clone(), run))
    });
    let waiting = move || {
        pending.get().map(|()| {
            view! { <p class="busy fixes-pending" data-testid="fixes-pending">{t(l, Key::BusyFixes)}</p> }
        })
    };
    let shown = move || {
        erased(fixes.get().map(|(fixes, run)| {
            let title = if run {
                Key::GuideMakeItRun
            } else {
                Key::GuideShrink
            };
            view! {
                <div class="fixes" data-testid="fixes">
                    <h3>{t(l, title)}</h3>
                    <ul>
                        {fixes.iter().map(|fix| {
                            let href = url::query_string(&fix.scenario, l);
                            let figures = format!(
                                "{} GiB/GPU · {} {}",
                                gib(l, fix.per_gpu_bytes),
                                verdict_icon(fix.verdict),
                                verdict_word(l, fix.verdict),
                            );
                            view! {
                                <li>
                                    <a href=href data-testid="fix">{label(l, fix)}</a>
                                    " → "<span class="fix-figures">{figures}</span>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </div>
            }
        }))
    };
    view! { {waiting} {shown} }
}
