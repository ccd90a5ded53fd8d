//! What would make it fit: when the plan shown is tight or does not fit, the cheap changes to the
//! scenario, each evaluated by the core and returned with the whole changed scenario (so the CLI,
//! a link and the UI reproduce it), its per-GPU bytes and its verdict.
//!
//! Candidates, per workload, in the order of how little they change what the user runs:
//! - serving: the engine's claimed fraction that leaves the headroom (vLLM, SGLang), the longest
//!   context and the most sequences that fit (from the inverse solvers), a KV cache in fp8 (q8_0
//!   for llama.cpp), a smaller weight format, llama.cpp's `-ngl` that fits, more cards of the same
//!   kind, another card;
//! - training: activation checkpointing, an 8-bit optimizer, LoRA, QLoRA, ZeRO-3 over more cards,
//!   a smaller micro-batch;
//! - generation: VAE tiling, an fp8 denoiser, the T5 encoder left off, model then sequential CPU
//!   offload, the largest size or frame count that fits;
//! - every workload: another card;
//! - when no single change to how the workload runs fits on the same cards: those changes
//!   together ([`Change::Together`]), each step taking, of the candidates that lower the per-GPU
//!   bytes, the one that costs least in speed or quality ([`cost_rank`]), until the plan fits
//!   ([`MAX_TOGETHER`] steps at most). The user's own request (context, sequences, size, frames)
//!   and the hardware are left as they are.
//!
//! Each candidate is evaluated on the scenario's own cards (or, when none is named, by the card
//! search); those that fit come first, then those that are tight, by the order above. At most
//! [`MAX_FIXES`] are returned. Work is bounded: a fixed number of candidates, each one estimate
//! without its own fixes.

mod workloads;

use crate::estimate::{prepare, user_plan, Estimate};
use crate::inputs::format::WeightFormat;
use crate::inputs::gguf::GgufPreset;
use crate::inputs::kv_format::KvCacheFormat;
use crate::plans::change::{Change, Fix};
use crate::plans::plan::{
    claimed_fraction, engine_leaving_headroom, with_claimed_fraction, Plan, Split, Verdict,
    VerdictReason,
};
use crate::plans::recommend::recommend;
use crate::scenario::{Scenario, Workload};
use crate::workloads::diffusion::Offload;
use crate::workloads::engine::llama_cpp::CacheType;
use crate::workloads::engine::Engine;

/// Most fixes returned.
pub const MAX_FIXES: usize = 5;
/// Most changes combined into one [`Change::Together`].
pub const MAX_TOGETHER: usize = 4;

/// The fraction of the card an engine is set to claim, when the scenario says.
fn set_fraction(engine: Option<&Engine>) -> Option<f64> {
    match engine? {
        Engine::Vllm(v) => Some(v.gpu_memory_utilization),
        Engine::Sglang(s) => s.mem_fraction_static,
        Engine::LlamaCpp(_) | Engine::Transformers(_) => None,
    }
}

/// The plan a scenario gets: its own cards, or the card search's best.
fn plan_of(s: &Scenario) -> Option<Plan> {
    let prepared = prepare(s).ok()?;
    match user_plan(s, &prepared).ok()? {
        (Some(plan), _) => Some(plan),
        (None, _) => {
            recommend(
                &prepared.inputs(s),
                s.headroom_percent,
                &crate::estimate::market(s),
            )
            .best
        }
    }
}

/// The plan of `s`; when an engine that claims a fraction of the card only eats into the
/// headroom, `s` with the fraction that leaves it (and that plan) instead.
fn plan_leaving_headroom(s: Scenario) -> Option<(Scenario, Plan)> {
    let plan = plan_of(&s)?;
    if plan.reason != VerdictReason::IntoHeadroom {
        return Some((s, plan));
    }
    let tp = u64::from(if plan.split == Split::TensorParallel {
        plan.count
    } else {
        1
    });
    let tuned = s
        .engine
        .as_ref()
        .and_then(|e| engine_leaving_headroom(e, &plan, tp))
        .map(|(_, engine)| with(&s, |t| t.engine = Some(engine)))
        .and_then(|t| plan_of(&t).map(|p| (t, p)))
        .filter(|(_, p)| p.verdict == Verdict::Fits);
    Some(tuned.unwrap_or((s, plan)))
}

/// The fixes for `s`, whose estimate is `e` (empty when it fits).
pub fn search(s: &Scenario, e: &Estimate) -> Vec<Fix> {
    if e.verdict == Verdict::Fits {
        return Vec::new();
    }
    let mut fixes: Vec<Fix> = candidates(s, e)
        .into_iter()
        .filter_map(|(change, scenario)| {
            let (scenario, plan, engine_fraction) = match change {
                Change::EngineFraction { .. } => {
                    let plan = plan_of(&scenario)?;
                    (scenario, plan, None)
                }
                _ => {
                    let (tuned, plan) = plan_leaving_headroom(scenario.clone())?;
                    let fraction = (tuned.engine != scenario.engine)
                        .then(|| set_fraction(tuned.engine.as_ref()))
                        .flatten();
                    (tuned, plan, fraction)
                }
            };
            let better =
                plan.verdict != Verdict::DoesNotFit && (plan.verdict as u8) <= (e.verdict as u8);
            better.then_some(Fix {
                change,
                per_gpu_bytes: plan.per_gpu_bytes,
                verdict: plan.verdict,
                gpu: plan.card.gpu,
                count: plan.count,
                engine_fraction,
                scenario,
            })
        })
        .filter(|f| f.verdict == Verdict::Fits || e.verdict == Verdict::DoesNotFit)
        .collect();
    // A change that fits only through the same claimed fraction as the fraction change alone, at
    // no fewer bytes, adds nothing to it: vLLM claims that fraction of the card whatever else
    // changes, so "fp8 weights + gpu_memory_utilization = 0.88" would list the fraction fix again
    // at the same per-GPU figure.
    if let Some((fraction, bytes)) = fixes.iter().find_map(|f| match f.change {
        Change::EngineFraction { fraction } if f.verdict == Verdict::Fits => {
            Some((fraction, f.per_gpu_bytes))
        }
        _ => None,
    }) {
        fixes.retain(|f| {
            !(f.engine_fraction.is_some_and(|x| x == fraction) && f.per_gpu_bytes >= bytes)
        });
    }
    let method_fits = fixes
        .iter()
        .any(|f| f.verdict == Verdict::Fits && changes_method(&f.change));
    if !method_fits {
        if let Some(fix) = together(s) {
            fixes.push(fix);
        }
    }
    // Stable: fitting fixes first; within each group, changes of settings before changes of
    // hardware (what costs the user nothing before what costs money), each in the order the
    // candidates were tried.
    fixes.sort_by_key(|f| (f.verdict != Verdict::Fits, changes_hardware(&f.change)));
    fixes.truncate(MAX_FIXES);
    fixes
}

/// Whether a change buys or rents other hardware.
fn changes_hardware(c: &Change) -> bool {
    matches!(
        c,
        Change::Gpus { .. } | Change::Card { .. } | Change::Zero3 { .. }
    )
}

/// Whether a change alters how the workload runs (formats, offload, checkpointing, …) rather
/// than what the user asked for (context, sequences, size, frames) or the hardware.
fn changes_method(c: &Change) -> bool {
    !matches!(
        c,
        Change::EngineFraction { .. }
            | Change::KvCacheMemory { .. }
            | Change::Context { .. }
            | Change::Sequences { .. }
            | Change::Gpus { .. }
            | Change::Card { .. }
            | Change::Zero3 { .. }
            | Change::ImageSize { .. }
            | Change::Frames { .. }
            | Change::Together { .. }
    )
}

/// How much a change costs the user, lowest first: free or nearly (VAE tiling, an fp8 KV cache,
/// checkpointing), then slower steps (offloading whole models, an 8-bit optimizer, a smaller
/// micro-batch), then lower precision (weights, denoiser, QLoRA), then much slower (layers in host
/// RAM, sequential offload).
fn cost_rank(c: &Change) -> u8 {
    match c {
        Change::VaeTiling
        | Change::KvCache { .. }
        | Change::Checkpointing
        | Change::DropT5
        | Change::EngineFraction { .. }
        | Change::KvCacheMemory { .. } => 0,
        Change::Offload {
            mode: Offload::Model,
        }
        | Change::Optimizer8bit
        | Change::ChunkedLoss
        | Change::MicroBatch { .. }
        | Change::NoSpeculative
        | Change::Lora => 1,
        Change::Weights { .. } | Change::DenoiserFp8 | Change::DenoiserBf16 | Change::Qlora => 2,
        _ => 3,
    }
}

/// How far a plan is from fitting, comparable across changes of how it runs: first the stage
/// (does not fit, eats into the headroom, holds fewer requests than asked, fits), then the amount
/// within it (per-GPU bytes; bytes past the usable line; requests short, in hundredths). An
/// engine that sizes its own pool claims the same bytes whatever changes, so its progress is the
/// requests its pool holds, not its per-GPU total.
fn shortfall(p: &Plan) -> (u8, u64) {
    match p.reason {
        VerdictReason::FitsWithHeadroom => (0, 0),
        VerdictReason::ConcurrencyBelowSequences {
            max_concurrency_centi,
            sequences,
        } => (
            1,
            (u64::from(sequences) * 100).saturating_sub(max_concurrency_centi),
        ),
        VerdictReason::IntoHeadroom => (2, p.per_gpu_bytes.saturating_sub(p.usable_bytes)),
        _ => (3, p.per_gpu_bytes),
    }
}

/// Changes to how the workload runs, applied one after the other (each step the candidate with
/// the fewest per-GPU bytes), until the plan on the same cards fits; `None` when it never does
/// within [`MAX_TOGETHER`] steps or one change already suffices.
fn together(s: &Scenario) -> Option<Fix> {
    let mut current = s.clone();
    let mut changes = Vec::new();
    for _ in 0..MAX_TOGETHER {
        let e = crate::estimate::estimate_without_fixes(&current).ok()?;
        let now = e.plan.as_ref().map_or((u8::MAX, u64::MAX), shortfall);
        let (change, next, plan) = candidates(&current, &e)
            .into_iter()
            .filter(|(c, _)| changes_method(c) || matches!(c, Change::EngineFraction { .. }))
            .filter_map(|(c, next)| plan_of(&next).map(|p| (c, next, p)))
            .filter(|(_, _, p)| shortfall(p) < now)
            .min_by_key(|(c, _, p)| (cost_rank(c), shortfall(p)))?;
        changes.push(change);
        let (tuned, plan) = plan_leaving_headroom(next.clone()).unwrap_or((next, plan));
        current = tuned;
        if plan.verdict == Verdict::Fits {
            // The engine's fraction is said once, as the fix's `engine_fraction` (the last one
            // set), not once for each step that moved it.
            changes.retain(|c| !matches!(c, Change::EngineFraction { .. }));
            if changes.len() < 2 {
                return None;
            }
            return Some(Fix {
                change: Change::Together { changes },
                per_gpu_bytes: plan.per_gpu_bytes,
                verdict: plan.verdict,
                gpu: plan.card.gpu,
                count: plan.count,
                engine_fraction: (current.engine != s.engine)
                    .then(|| set_fraction(current.engine.as_ref()))
                    .flatten(),
                scenario: current,
            });
        }
    }
    None
}

/// `s` with `f` applied.
fn with(s: &Scenario, f: impl FnOnce(&mut Scenario)) -> Scenario {
    let mut t = s.clone();
    f(&mut t);
    t
}

fn candidates(s: &Scenario, e: &Estimate) -> Vec<(Change, Scenario)> {
    let mut out = Vec::new();
    match &s.workload {
        Workload::Inference(_) => serving(s, e, &mut out),
        Workload::Train(_) => workloads::training(s, &mut out),
        Workload::GenerateImage(_) | Workload::GenerateVideo(_) => {
            workloads::generation(s, e, &mut out)
        }
        Workload::Custom(_) => {}
    }
    hardware(s, e, &mut out);
    out
}

fn serving(s: &Scenario, e: &Estimate, out: &mut Vec<(Change, Scenario)>) {
    // The proposer goes before anything the user asked for (context, requests): it buys speed,
    // not capacity.
    if s.speculative.is_some() {
        out.push((Change::NoSpeculative, with(s, |t| t.speculative = None)));
    }
    let plan = e.plan.as_ref();
    if let (Some(p), Some(engine)) = (plan, &s.engine) {
        let tp = u64::from(if p.split == Split::TensorParallel {
            p.count
        } else {
            1
        });
        if p.reason == VerdictReason::IntoHeadroom {
            if let Some((fraction, tuned)) = engine_leaving_headroom(engine, p, tp) {
                out.push((
                    Change::EngineFraction { fraction },
                    with(s, |t| t.engine = Some(tuned)),
                ));
            }
        } else if let Some((fraction, tuned)) = largest_fraction(engine, p, e, tp) {
            // The pool is short (or the claim is more than the card leaves): the largest fraction
            // the limits allow, rounded down as users set it — the same figure the limits show.
            out.push((
                Change::EngineFraction { fraction },
                with(s, |t| t.engine = Some(tuned)),
            ));
        }
        if let Some((bytes, tuned)) = kv_memory_for_sequences(engine, p) {
            out.push((
                Change::KvCacheMemory { bytes },
                with(s, |t| t.engine = Some(tuned)),
            ));
        }
    }
    if let Some(l) = &e.limits {
        if let Some(c) = l.max_context_tokens.and_then(|c| u32::try_from(c).ok()) {
            if u64::from(c) < e.context_tokens {
                out.push((
                    Change::Context { tokens: c },
                    with(s, |t| {
                        let mut seqs = 1;
                        if let Workload::Inference(i) = &mut t.workload {
                            i.context_tokens = c;
                            seqs = i.sequences;
                        }
                        reshape_engine(t, u64::from(c), u64::from(seqs));
                    }),
                ));
            }
        }
        if let Some(n) = l.max_sequences.and_then(|n| u32::try_from(n).ok()) {
            let asked = s.workload.inference().map_or(0, |i| i.sequences);
            if n >= 1 && n < asked {
                out.push((
                    Change::Sequences { sequences: n },
                    with(s, |t| {
                        let mut context = 1;
                        if let Workload::Inference(i) = &mut t.workload {
                            i.sequences = n;
                            context = i.context_tokens;
                        }
                        reshape_engine(t, u64::from(context), u64::from(n));
                    }),
                ));
            }
        }
    }
    let llama_cpp = matches!(s.engine, Some(Engine::LlamaCpp(_)));
    if llama_cpp {
        if let Some(Engine::LlamaCpp(l)) = &s.engine {
            if l.cache_type_k == CacheType::F16 && l.flash_attn {
                let mut l2 = l.clone();
                l2.cache_type_k = CacheType::Q8_0;
                l2.cache_type_v = CacheType::Q8_0;
                out.push((
                    Change::KvCache {
                        format: CacheType::Q8_0.id().into(),
                    },
                    with(s, |t| t.engine = Some(Engine::LlamaCpp(l2))),
                ));
            }
        }
    } else if e.kv_cache_format.bits() > 8 {
        out.push((
            Change::KvCache {
                format: KvCacheFormat::Fp8.id().into(),
            },
            with(s, |t| t.kv_cache = Some(KvCacheFormat::Fp8)),
        ));
    }
    for format in smaller_formats(s.weights, llama_cpp) {
        out.push((
            Change::Weights {
                format: format.id(),
            },
            with(s, |t| {
                t.weights = format;
                t.unquantized_modules.clear();
            }),
        ));
    }
    if let (Some(Engine::LlamaCpp(l)), Some(m)) = (&s.engine, &e.model) {
        // Experts to host RAM before whole layers: attention and the KV cache stay on the GPU,
        // and a decode step reads only the experts its tokens pick.
        if let Some(layers) = cpu_moe_layers_that_fit(s, &m.arch) {
            let mut l2 = l.clone();
            l2.cpu_moe = false;
            l2.n_cpu_moe = Some(layers);
            out.push((
                Change::CpuMoeLayers { layers },
                with(s, |t| t.engine = Some(Engine::LlamaCpp(l2))),
            ));
        }
        if let Some(layers) = gpu_layers_that_fit(s, m.arch.layers) {
            let mut l2 = l.clone();
            l2.n_gpu_layers = Some(layers);
            out.push((
                Change::GpuLayers { layers },
                with(s, |t| t.engine = Some(Engine::LlamaCpp(l2))),
            ));
        }
    }
}

/// For an engine that sizes its own pool and is short of it (fewer requests than asked, or an
/// engine that would not start for want of pool or free memory): the largest claimed fraction the
/// limits allow, to a hundredth rounded down, when it differs from the one set.
fn largest_fraction(engine: &Engine, p: &Plan, e: &Estimate, tp: u64) -> Option<(f64, Engine)> {
    use crate::budget::StartFailure;
    let short = matches!(
        p.reason,
        VerdictReason::ConcurrencyBelowSequences { .. }
            | VerdictReason::EngineWillNotStart {
                failure: StartFailure::BudgetExceedsFreeMemory
                    | StartFailure::MaxModelLenTooLong { .. }
                    | StartFailure::NoRoomForKvCache
            }
    );
    if !short {
        return None;
    }
    let max = e.limits.as_ref()?.utilization?.max;
    let fraction = (max * 100.0 + 1e-9).floor() / 100.0;
    let now = claimed_fraction(engine, p.card.capacity_bytes, tp)?;
    ((fraction - now).abs() >= 0.005 && fraction >= 0.05)
        .then(|| with_claimed_fraction(engine, fraction).map(|t| (fraction, t)))
        .flatten()
}

/// vLLM's `--kv-cache-memory` (0.10.2+, PR #21489) set to what the asked sequences need, to a
/// quarter GiB up: the pool is then exactly that, whatever the profile run measures, and the rest
/// of the card stays free — where a fraction claims more than the card leaves, or its pool holds
/// fewer requests than asked. Only for a plan short of fitting, a pool the fraction sized, and
/// V1 (V0 has no such flag).
fn kv_memory_for_sequences(engine: &Engine, p: &Plan) -> Option<(u64, Engine)> {
    let Engine::Vllm(v) = engine else {
        return None;
    };
    let v1 = matches!(
        v.version,
        crate::workloads::engine::vllm::VllmVersion::V1
            | crate::workloads::engine::vllm::VllmVersion::V1Graphs
    );
    if !v1 || v.kv_cache_memory_bytes.is_some() || p.verdict == Verdict::Fits {
        return None;
    }
    let kv = p.kv?;
    if kv.max_concurrency <= 0.0 || !kv.max_concurrency.is_finite() {
        return None;
    }
    let needed =
        kv.kv_cache_bytes as f64 * f64::from(p.sequences_per_replica.max(1)) / kv.max_concurrency;
    let quarter = (crate::units::bytes::GIB / 4) as f64;
    let bytes = ((needed / quarter).ceil() * quarter).max(quarter);
    if !bytes.is_finite() || bytes > (1u64 << 44) as f64 {
        return None;
    }
    let bytes = bytes as u64;
    Some((
        bytes,
        Engine::Vllm(crate::workloads::engine::vllm::Vllm {
            kv_cache_memory_bytes: Some(bytes),
            ..v.clone()
        }),
    ))
}

/// Sets the scenario's engine for its new context and sequences the way the limits evaluated
/// them ([`crate::plans::inverse::with_shape`]).
fn reshape_engine(t: &mut Scenario, context: u64, sequences: u64) {
    if let Some(e) = &t.engine {
        t.engine = Some(crate::plans::inverse::with_shape(e, context, sequences));
    }
}

/// The next smaller formats worth trying from `w` (at most two).
fn smaller_formats(w: WeightFormat, gguf: bool) -> Vec<WeightFormat> {
    let bits = w.nominal_bits();
    let ladder: Vec<WeightFormat> = if gguf {
        [
            GgufPreset::Q8_0,
            GgufPreset::Q6K,
            GgufPreset::Q4KM,
            GgufPreset::Q3KM,
            GgufPreset::Q2K,
        ]
        .into_iter()
        .map(WeightFormat::Gguf)
        .collect()
    } else {
        ["fp8", "awq-int4-g128"]
            .into_iter()
            .filter_map(WeightFormat::from_id)
            .collect()
    };
    ladder
        .into_iter()
        .filter(|f| f.nominal_bits() < bits)
        .take(2)
        .collect()
}

/// The fewest layers whose routed experts llama.cpp keeps in host RAM (`--n-cpu-moe`) for the
/// plan to fit, more than the scenario keeps there now; `None` for a dense model or when all of
/// them there still does not fit. Host RAM only grows with the count, so a bisection finds it.
fn cpu_moe_layers_that_fit(s: &Scenario, arch: &crate::inputs::model::ModelArch) -> Option<u32> {
    let Some(Engine::LlamaCpp(l)) = &s.engine else {
        return None;
    };
    arch.moe?;
    let now = l.cpu_moe_layers(arch.layers);
    let fits = |n: u32| {
        let mut l2 = l.clone();
        l2.cpu_moe = false;
        l2.n_cpu_moe = Some(n);
        let t = with(s, |t| t.engine = Some(Engine::LlamaCpp(l2)));
        plan_of(&t).is_some_and(|p| p.verdict == Verdict::Fits)
    };
    if now >= arch.layers || !fits(arch.layers) {
        return None;
    }
    // Smallest n in (now, layers] that fits.
    let (mut lo, mut hi) = (now, arch.layers);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// The most llama.cpp `-ngl` layers (below all of them) whose plan is not over the card.
fn gpu_layers_that_fit(s: &Scenario, layers: u32) -> Option<u32> {
    let Some(Engine::LlamaCpp(l)) = &s.engine else {
        return None;
    };
    let fits = |n: u32| {
        let mut l2 = l.clone();
        l2.n_gpu_layers = Some(n);
        let t = with(s, |t| t.engine = Some(Engine::LlamaCpp(l2)));
        plan_of(&t).is_some_and(|p| p.verdict == Verdict::Fits)
    };
    if !fits(0) {
        return None;
    }
    let (mut lo, mut hi) = (0u32, layers.saturating_add(1));
    // Largest n in [0, hi) that fits: at most ~11 evaluations for 1024 layers.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo < layers.saturating_add(1)).then_some(lo)
}

/// More cards of the same kind, then the smallest catalog card that holds it alone.
fn hardware(s: &Scenario, e: &Estimate, out: &mut Vec<(Change, Scenario)>) {
    if s.hardware.gpu.is_none() && s.hardware.gpu_memory_gib.is_none() {
        return; // the card search already chose
    }
    let training = matches!(s.workload, Workload::Train(_));
    if !training
        && s.engine
            .as_ref()
            .and_then(Engine::tensor_parallel)
            .is_none()
    {
        let n = s.hardware.count;
        // The fewest more cards of this kind that hold it (not merely the next count: 70B in
        // bf16 on one 24 GB card needs eight, and "two" would lead nowhere).
        let more = [2u32, 4, 8]
            .into_iter()
            .filter(|c| *c > n)
            .filter(|c| {
                e.model
                    .as_ref()
                    .is_none_or(|m| m.arch.tensor_parallel_ok(*c))
            })
            .map(|count| (count, with(s, |t| t.hardware.count = count)))
            .find(|(_, t)| plan_of(t).is_some_and(|p| p.verdict == Verdict::Fits));
        if let Some((count, t)) = more {
            out.push((Change::Gpus { count }, t));
        }
    }
    // The plan the search ranks first for this very job (each catalog card evaluated, the
    // engine's rules and the software stack included, by the scenario's ranking), alone or as
    // its plan of several.
    let current = e.plan.as_ref().and_then(|p| p.card.gpu);
    let rec = &e.recommendation;
    let found = rec
        .best
        .as_ref()
        .filter(|p| p.card.gpu.is_some() && p.card.gpu != current);
    if let Some((gpu, count)) = found.and_then(|p| p.card.gpu.map(|g| (g, p.count))) {
        out.push((
            Change::Card {
                gpu: gpu.to_string(),
                count,
            },
            with(s, |t| {
                t.hardware.gpu = Some(gpu.to_string());
                t.hardware.gpu_memory_gib = None;
                t.hardware.count = count;
            }),
        ));
    }
}
