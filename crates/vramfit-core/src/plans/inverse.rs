//! Inverse questions for a chosen card and count: the largest context, the most concurrent
//! sequences at the scenario's context, and the range of `gpu_memory_utilization`-style budgets that
//! work — solved in the core by bisection over the same plan evaluation the estimate uses (every
//! component grows monotonically with context and sequences, a property test checks it) — and the
//! memory-vs-context curve the UI draws.

use crate::budget::{kv_cache, Card};
use crate::inputs::catalog;
use crate::plans::plan::{mixed_plan, sharded_workload, Plan, Split, VerdictReason};
use crate::scenario::dispatch::Job;
use crate::workloads::engine::Engine;
use serde::Serialize;

/// Answers for one plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Limits {
    /// Largest context per sequence that still fits (with the scenario's sequences), up to the
    /// model's trained context (or the scenario's own, where it asks for more).
    pub max_context_tokens: Option<u64>,
    /// Most concurrent sequences at the scenario's context that still fit.
    pub max_sequences: Option<u64>,
    /// For engines that claim a fraction of the card: the smallest fraction that starts and serves
    /// the sequences, and the largest that leaves room for what the engine allocates outside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utilization: Option<UtilizationRange>,
}

/// A range of budget fractions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct UtilizationRange {
    /// Smallest fraction that serves the sequences at this context (`None`: no fraction does,
    /// because the card is too small for them).
    pub min: Option<f64>,
    /// Largest fraction that leaves the memory outside the budget room.
    pub max: f64,
}

/// What the x axis of an estimate's memory curve counts (`Estimate::curve_axis`).
///
/// The JSON names predate the distinction between context and sequence length and are kept so
/// that the estimate's JSON (the CLI's output, the JavaScript API, the golden files) does not
/// change: both token axes serialise as `context`, the image axis as `resolution`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum CurveAxis {
    /// Inference: tokens per sequence (the context).
    #[serde(rename = "context")]
    ContextTokens,
    /// Training: tokens per training sequence (the sequence length).
    #[serde(rename = "context")]
    SequenceLength,
    /// Image generation: width = height of a square image, pixels.
    #[serde(rename = "resolution")]
    ImageSide,
    /// Video generation: frames.
    #[serde(rename = "frames")]
    Frames,
}

/// One point of an estimate's memory curve: per-GPU memory at one value of the curve's axis.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CurvePoint {
    /// The value on the curve's [`CurveAxis`]: tokens, pixels or frames. Serialised as
    /// `context_tokens`, its name from when every curve ran over context, so the estimate's JSON
    /// stays as it was.
    #[serde(rename = "context_tokens")]
    pub x: u64,
    /// Memory one GPU needs for the scenario's work at this value.
    pub per_gpu_bytes: u64,
}

/// Most context tried by the solvers.
pub const CONTEXT_CEILING: u64 = crate::units::limits::MAX_CONTEXT_TOKENS as u64;
/// Most sequences tried by the solvers.
pub const SEQUENCES_CEILING: u64 = crate::units::limits::MAX_SEQUENCES as u64;

struct Setup<'a> {
    base: Job<'a>,
    shape: Shape,
    headroom: u32,
}

/// What a plan is evaluated again on, with another context or sequence count: its card, count and
/// split, or, for a mixed machine, its cards (`plans/plan/mixed.rs`: llama.cpp shares the layers by
/// each card's free memory, which the same count of one card would not reproduce).
#[derive(Clone)]
enum Shape {
    Uniform {
        card: Card,
        count: u32,
        split: Split,
    },
    Mixed(Vec<Card>),
}

impl Shape {
    fn of(plan: &Plan) -> Shape {
        let cards: Option<Vec<Card>> = plan
            .per_card
            .iter()
            .map(|c| catalog::gpu(c.gpu).map(Card::from_catalog))
            .collect();
        match cards {
            Some(cards) if !cards.is_empty() => Shape::Mixed(cards),
            _ => Shape::Uniform {
                card: plan.card,
                count: plan.count,
                split: plan.split,
            },
        }
    }

    fn evaluate(&self, job: &Job, headroom: u32) -> Option<Plan> {
        match self {
            Shape::Uniform { card, count, split } => {
                // A sharded plan runs the workload the recommendation sharded (ZeRO-3).
                let sharded = (*split == Split::Sharded)
                    .then(|| sharded_workload(job.workload))
                    .flatten();
                let job = Job {
                    workload: sharded.as_ref().unwrap_or(job.workload),
                    ..*job
                };
                Some(Plan::evaluate(&job, *card, *count, *split, headroom))
            }
            Shape::Mixed(cards) => mixed_plan(job, cards, headroom),
        }
    }
}

impl Setup<'_> {
    fn fits(&self, context: u64, sequences: u64) -> bool {
        let mut inp = self.base;
        inp.inputs.context_tokens = context;
        inp.inputs.sequences = sequences;
        let engine_owned;
        if let Some(e) = self.base.engine {
            engine_owned = with_shape(e, context, sequences);
            inp.engine = Some(&engine_owned);
        }
        self.shape
            .evaluate(&inp, self.headroom)
            .is_some_and(|p| serves(&p))
    }
}

/// Whether a plan serves the work: it fits, or — for an engine that claims a fraction of the card
/// — it only eats into the headroom, which its claimed fraction sets whatever the context (the
/// fixes offer the fraction that leaves the headroom).
fn serves(p: &Plan) -> bool {
    match p.reason {
        VerdictReason::FitsWithHeadroom => true,
        VerdictReason::IntoHeadroom => p.kv.is_some_and(|k| k.budget_bytes.is_some()),
        _ => false,
    }
}

/// The engine set for `sequences` requests of `context` tokens: its maximum length as
/// [`with_context`] sets it, and llama.cpp's slots (`-np`, when the scenario sets them) to the
/// sequences — with fixed slots and cells its memory would not move, and a bisection over
/// sequences would report the ceiling. The fixes build their scenarios with the same function,
/// so a limit and the fix that applies it agree.
pub fn with_shape(e: &Engine, context: u64, sequences: u64) -> Engine {
    match with_context(e, context) {
        Engine::LlamaCpp(l) => Engine::LlamaCpp(crate::workloads::engine::llama_cpp::LlamaCpp {
            n_parallel: l
                .n_parallel
                .map(|_| u32::try_from(sequences).unwrap_or(u32::MAX)),
            ..l
        }),
        other => other,
    }
}

/// The engine with its maximum length set to `context` (`max_model_len`, `context_length`,
/// llama.cpp's per-sequence context).
fn with_context(e: &Engine, context: u64) -> Engine {
    let c = u32::try_from(context).unwrap_or(u32::MAX);
    match e {
        Engine::Vllm(v) => Engine::Vllm(crate::workloads::engine::vllm::Vllm {
            max_model_len: Some(c),
            ..v.clone()
        }),
        Engine::Sglang(s) => Engine::Sglang(crate::workloads::engine::sglang::Sglang {
            context_length: Some(c),
            ..s.clone()
        }),
        Engine::LlamaCpp(l) => Engine::LlamaCpp(crate::workloads::engine::llama_cpp::LlamaCpp {
            n_ctx: None,
            ..l.clone()
        }),
        Engine::Transformers(t) => Engine::Transformers(t.clone()),
    }
}

/// Largest `x` in `1..=ceiling` with `ok(x)`, given `ok` is monotone (true then false).
fn bisect(ceiling: u64, ok: impl Fn(u64) -> bool) -> Option<u64> {
    if !ok(1) {
        return None;
    }
    let (mut lo, mut hi) = (1u64, ceiling);
    if ok(hi) {
        return Some(hi);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo)
}

/// The limits of `plan` for the scenario in `base`.
pub fn limits(base: &Job, plan: &Plan, headroom: u32) -> Limits {
    let setup = Setup {
        base: *base,
        shape: Shape::of(plan),
        headroom,
    };
    let per_replica = |s: u64| match plan.split {
        Split::Replicas => crate::units::bytes::mul(s, u64::from(plan.count)),
        _ => s,
    };
    let seqs = base.sequences;
    // No longer than the model was trained for (`max_position_embeddings`): memory for more is
    // no context it can use. A scenario that already asks for more keeps its own (it is warned).
    let ceiling = CONTEXT_CEILING.min(u64::from(base.arch.max_position).max(base.context_tokens));
    let max_context_tokens = bisect(ceiling.max(1), |c| setup.fits(c, seqs));
    let max_sequences = bisect(SEQUENCES_CEILING, |s| {
        setup.fits(base.context_tokens, per_replica(s))
    })
    .map(per_replica);
    // A fraction vLLM ignores (`--kv-cache-memory` set) has no range worth showing.
    let explicit_pool = base.engine.is_some_and(Engine::kv_pool_is_set);
    let utilization = (!explicit_pool)
        .then(|| utilization_range(base, plan, headroom))
        .flatten();
    Limits {
        max_context_tokens,
        max_sequences,
        utilization,
    }
}

/// For a pre-allocating engine's plan: the fraction needed (everything inside the budget except
/// the unused KV) and the largest fraction that still leaves the outside memory room with its
/// headroom ([`crate::plans::plan::pool_usable_bytes`], the same line the verdict uses).
fn utilization_range(base: &Job, plan: &Plan, headroom: u32) -> Option<UtilizationRange> {
    let kv = plan.kv?;
    let budget = kv.budget_bytes?;
    let cap = plan.card.capacity_bytes as f64;
    if cap <= 0.0 {
        return None;
    }
    // The headroom is kept on what lies outside the budget and what the engine only estimates
    // inside it; the budget itself may reach the line less what really lies outside.
    let headroom_base = kv.outside_pool(plan.per_gpu_bytes);
    let outside = plan.per_gpu_bytes.saturating_sub(budget);
    // The KV the sequences need: scaled from the pool the plan holds (which counts a draft's
    // cache and recurrent state as the engine does), or, where the fraction leaves no pool at all
    // (the engine would not start), each sequence's cache at the full context, the target's and
    // a draft model's.
    let kv_needed = if kv.kv_cache_bytes > 0 && kv.max_concurrency > 0.0 {
        kv.kv_cache_bytes as f64
            * (f64::from(plan.sequences_per_replica) / kv.max_concurrency).min(1e9)
    } else {
        let tp = plan.tensor_parallel();
        let bits = base.kv_cache.bits();
        let target = kv_cache::per_sequence(base.arch, base.context_tokens, tp, bits);
        let draft = base
            .draft
            .map_or(0, |d| d.kv_bytes(base.context_tokens, tp, bits));
        crate::units::bytes::add(target, draft) as f64 * f64::from(plan.sequences_per_replica)
    };
    let fixed = budget.saturating_sub(kv.kv_cache_bytes) as f64;
    let room =
        crate::plans::plan::pool_usable_bytes(plan.card.capacity_bytes, headroom_base, headroom)
            .saturating_sub(outside);
    let max = (room as f64 / cap).clamp(0.0, 1.0);
    let min = (fixed + kv_needed) / cap;
    Some(UtilizationRange {
        min: (min <= max).then_some(min),
        max,
    })
}

/// Per-GPU memory of `plan` at `points` contexts from 256 tokens to `top` (log-spaced). For
/// pre-allocating engines, the memory needed by the sequences (fixed part + their KV), not the
/// claimed budget.
pub fn context_curve(
    base: &Job,
    plan: &Plan,
    headroom: u32,
    top: u64,
    points: usize,
) -> Vec<CurvePoint> {
    let top = top.max(512);
    let (lo, hi) = (256f64.ln(), (top as f64).ln());
    let n = points.max(2);
    let shape = Shape::of(plan);
    (0..n)
        .filter_map(|k| {
            let c = (lo + (hi - lo) * k as f64 / (n - 1) as f64).exp().round() as u64;
            let mut inp = *base;
            inp.inputs.context_tokens = c;
            let engine_owned;
            if let Some(e) = base.engine {
                engine_owned = with_context(e, c);
                inp.engine = Some(&engine_owned);
            }
            let p = shape.evaluate(&inp, headroom)?;
            let per_gpu_bytes = match p.kv.filter(|k| k.budget_bytes.is_some()) {
                Some(k) => {
                    let need = crate::units::bytes::mul(
                        kv_cache::per_sequence(
                            base.arch,
                            c,
                            p.tensor_parallel(),
                            base.kv_cache.bits(),
                        ),
                        u64::from(p.sequences_per_replica),
                    );
                    crate::units::bytes::add(
                        crate::units::bytes::sub(p.per_gpu_bytes, k.kv_cache_bytes),
                        need,
                    )
                }
                None => p.per_gpu_bytes,
            };
            Some(CurvePoint {
                x: c,
                per_gpu_bytes,
            })
        })
        .collect()
}
