//! A deployment plan — which card, how many, how they split the work — and its per-GPU budget and
//! verdict against the card's reported memory with the user's headroom.
//!
//! One verdict, decided here with its reason ([`VerdictReason`]); the UI renders exactly that.
//! - **Does not fit**: the engine would refuse to start (the reason names why), the weights alone
//!   exceed the card, or the per-GPU budget exceeds the card.
//! - **Tight**: the budget fits the card but eats into the headroom — `per_gpu > capacity ×
//!   (1 − headroom)` (the seeds' warning: 78 GB estimated on an 80 GB card will not work in
//!   practice). Engines that claim their memory up front (vLLM, SGLang) fill what they claim by
//!   design, so for them the headroom is kept on what sits outside their pool
//!   ([`pool_usable_bytes`]): the fraction they leave unclaimed is their own headroom. They are
//!   also tight when their KV cache holds fewer requests of the full context than the sequences
//!   asked.
//! - **Fits** otherwise.

use crate::budget::{BudgetInputs, Component, ComponentId, KvReport, StartFailure};
use crate::inputs::model::ModelArch;
use crate::scenario::dispatch::Job;
use crate::workloads::engine::Engine;

pub use crate::budget::{Card, PeakPhase};
use crate::scenario::Workload;
use serde::Serialize;

mod mixed;
pub use mixed::{free_at_load, mixed_plan};

/// How the GPUs of a plan share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// One card holds everything.
    Single,
    /// Tensor parallel: every layer split over all cards (one model, weights and KV divided).
    TensorParallel,
    /// Layer split (llama.cpp, `device_map="auto"`): each card holds a run of whole layers.
    Layers,
    /// Data parallel training (DDP, ZeRO, FSDP; with the workload's own tensor/pipeline degrees).
    DataParallel,
    /// Training recommended fully sharded (FSDP full shard / ZeRO-3) over the cards.
    Sharded,
    /// Independent replicas, each a full model serving a share of the sequences.
    Replicas,
}

/// Fit of a per-GPU budget on a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Fits with the headroom kept free.
    Fits,
    /// Fits in the card, but eats into the headroom (or, for pre-allocating engines, serves fewer
    /// concurrent requests than asked).
    Tight,
    /// Larger than the card, or the engine would not start.
    DoesNotFit,
}

/// Why a plan got its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum VerdictReason {
    /// Fits with the headroom kept free.
    FitsWithHeadroom,
    /// The budget fits the card but eats into the headroom.
    IntoHeadroom,
    /// The engine's KV cache holds fewer full-context requests than the sequences asked for: the
    /// rest wait in the queue.
    ConcurrencyBelowSequences {
        /// Requests of the full context the cache holds at once, × 100.
        max_concurrency_centi: u64,
        /// Sequences asked for (per replica).
        sequences: u32,
    },
    /// The engine would refuse to start.
    EngineWillNotStart {
        /// Why.
        failure: StartFailure,
    },
    /// The weights alone are larger than the card.
    WeightsAlone,
    /// The per-GPU budget is larger than the card.
    OverCapacity,
    /// No card was named and no plan of the catalog (up to 8 cards of one kind) holds it.
    NothingFits,
    /// The scenario's engine, formats or kernels do not run on the card
    /// (`scenario/stack.rs`), whatever its memory says.
    SoftwareDoesNotRun {
        /// The first gap found.
        gap: crate::scenario::stack::StackGap,
    },
}

impl VerdictReason {
    /// The verdict this reason gives.
    pub fn verdict(self) -> Verdict {
        match self {
            VerdictReason::FitsWithHeadroom => Verdict::Fits,
            VerdictReason::IntoHeadroom | VerdictReason::ConcurrencyBelowSequences { .. } => {
                Verdict::Tight
            }
            VerdictReason::EngineWillNotStart { .. }
            | VerdictReason::WeightsAlone
            | VerdictReason::OverCapacity
            | VerdictReason::NothingFits
            | VerdictReason::SoftwareDoesNotRun { .. } => Verdict::DoesNotFit,
        }
    }
}

/// Card memory minus the headroom, bytes (exact: `capacity × (100 − headroom) / 100`).
pub fn usable_bytes(capacity: u64, headroom_percent: u32) -> u64 {
    let keep = u128::from(100 - headroom_percent.min(100));
    u64::try_from(u128::from(capacity) * keep / 100).unwrap_or(u64::MAX)
}

/// The most an engine that sizes its own pool may hold on a card, bytes: the card less the
/// headroom kept on what the engine does **not** size itself (`outside`: the CUDA context, CUDA
/// graphs, NCCL and kernel images that sit beside its claimed fraction), i.e.
/// `capacity − ⌈outside × headroom / 100⌉`.
///
/// Why not the card's headroom, as for every other engine: vLLM and SGLang fill the fraction they
/// claim with KV cache by design (`gpu_memory_utilization`, `mem_fraction_static`); what they leave
/// unclaimed *is* their headroom, and their default is chosen so that it is. Had an estimate of
/// weights or activations inside the fraction been low, the engine measures the real figure in its
/// profile run and shrinks the pool — the request count falls, the start does not. What can still
/// make a card run out is memory outside the pool, so the user's headroom applies to that: at
/// vLLM's default 0.9 on a card that holds the model the answer is "fits", at 1.00 it is not.
pub fn pool_usable_bytes(capacity: u64, outside: u64, headroom_percent: u32) -> u64 {
    let keep = u128::from(outside) * u128::from(headroom_percent.min(100)) + 99;
    capacity.saturating_sub(u64::try_from(keep / 100).unwrap_or(u64::MAX))
}

/// The reason for a per-GPU budget on a card: the one place a verdict is decided.
pub fn judge(
    components: &[Component],
    failure: Option<StartFailure>,
    kv: Option<KvReport>,
    sequences: u64,
    capacity: u64,
    usable: u64,
) -> VerdictReason {
    let sum = |only_weights: bool| {
        components
            .iter()
            .filter(|c| !only_weights || c.id == ComponentId::Weights)
            .fold(0u64, |a, c| a.saturating_add(c.bytes))
    };
    let per_gpu = sum(false);
    if let Some(failure) = failure {
        return VerdictReason::EngineWillNotStart { failure };
    }
    if sum(true) > capacity {
        return VerdictReason::WeightsAlone;
    }
    if per_gpu > capacity {
        return VerdictReason::OverCapacity;
    }
    if let Some(k) = kv.filter(|k| k.budget_bytes.is_some()) {
        if k.max_concurrency + 1e-9 < sequences as f64 {
            return VerdictReason::ConcurrencyBelowSequences {
                max_concurrency_centi: k.max_concurrency_centi(),
                sequences: u32::try_from(sequences).unwrap_or(u32::MAX),
            };
        }
    }
    if per_gpu > usable {
        VerdictReason::IntoHeadroom
    } else {
        VerdictReason::FitsWithHeadroom
    }
}

/// The engine with its claimed fraction lowered by the bytes `plan` eats into the headroom
/// (rounded down to a hundredth, as users set it), and that fraction; `None` for engines that do
/// not claim a fraction, or when no positive fraction is left.
pub fn engine_leaving_headroom(engine: &Engine, plan: &Plan, tp: u64) -> Option<(f64, Engine)> {
    let capacity = plan.card.capacity_bytes;
    if capacity == 0 {
        return None;
    }
    let excess = plan.per_gpu_bytes.saturating_sub(plan.usable_bytes) as f64 / capacity as f64;
    let lower = |f: f64| {
        let g = ((f - excess) * 100.0).floor() / 100.0;
        (g >= 0.05).then_some(g)
    };
    let claimed = claimed_fraction(engine, capacity, tp)?;
    let f = lower(claimed)?;
    Some((f, with_claimed_fraction(engine, f)?))
}

/// The fraction of the card an engine claims for its pool (vLLM `gpu_memory_utilization`,
/// SGLang `mem_fraction_static` or its default for the card); `None` for engines without one.
pub fn claimed_fraction(engine: &Engine, capacity: u64, tp: u64) -> Option<f64> {
    match engine {
        // With `--kv-cache-memory` the fraction is ignored: nothing to set.
        e if e.kv_pool_is_set() => None,
        Engine::Vllm(v) => Some(v.gpu_memory_utilization),
        Engine::Sglang(s) => Some(s.mem_fraction_static.unwrap_or_else(|| {
            crate::workloads::engine::sglang::default_mem_fraction(capacity, tp)
        })),
        Engine::LlamaCpp(_) | Engine::Transformers(_) => None,
    }
}

/// `engine` set to claim `fraction` of the card; `None` for engines that claim no fraction.
pub fn with_claimed_fraction(engine: &Engine, fraction: f64) -> Option<Engine> {
    match engine {
        Engine::Vllm(v) => Some(Engine::Vllm(crate::workloads::engine::vllm::Vllm {
            gpu_memory_utilization: fraction,
            ..v.clone()
        })),
        Engine::Sglang(s) => Some(Engine::Sglang(crate::workloads::engine::sglang::Sglang {
            mem_fraction_static: Some(fraction),
            ..s.clone()
        })),
        Engine::LlamaCpp(_) | Engine::Transformers(_) => None,
    }
}

/// The workload a [`Split::Sharded`] plan runs: a data-parallel (DDP) training run sharded as
/// ZeRO-3 / FSDP full shard, the recommendation's way of spreading one over more cards; `None`
/// where the workload is not such a run. Whatever evaluates a sharded plan again (the inverse
/// questions, the curve) evaluates it on this workload, as the recommendation did.
pub fn sharded_workload(workload: &Workload) -> Option<Workload> {
    use crate::workloads::training::{Sharding, Train};
    match workload {
        Workload::Train(t) if t.sharding == Sharding::Ddp => Some(Workload::Train(Train {
            sharding: Sharding::Zero3,
            ..t.clone()
        })),
        _ => None,
    }
}

/// How `n` cards can share one model under `engine`: tensor parallel where the heads divide (vLLM,
/// SGLang, engine-neutral), layer split for llama.cpp and Transformers.
pub fn multi_gpu_split(
    arch: &ModelArch,
    engine: Option<&Engine>,
    workload: &Workload,
    n: u32,
) -> Option<Split> {
    match workload {
        Workload::Train(_) => return Some(Split::DataParallel),
        // Each card runs its own copy of the job.
        Workload::Custom(_) | Workload::GenerateImage(_) | Workload::GenerateVideo(_) => {
            return Some(Split::Replicas)
        }
        Workload::Inference(_) => {}
    }
    match engine {
        Some(Engine::LlamaCpp(_) | Engine::Transformers(_)) => Some(Split::Layers),
        _ if arch.tensor_parallel_ok(n) => Some(Split::TensorParallel),
        _ => None,
    }
}

/// A plan with its figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// The card.
    pub card: Card,
    /// Number of cards.
    pub count: u32,
    /// How they share the work.
    pub split: Split,
    /// Sequences each model replica serves.
    pub sequences_per_replica: u32,
    /// Components of the fullest GPU.
    pub per_gpu_components: Vec<Component>,
    /// Sum of `per_gpu_components`.
    pub per_gpu_bytes: u64,
    /// Card memory minus the headroom, bytes.
    pub usable_bytes: u64,
    /// Verdict.
    pub verdict: Verdict,
    /// Why: the verdict's reason, which the UI states.
    pub reason: VerdictReason,
    /// The engine's KV report, when an engine is chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv: Option<KvReport>,
    /// Host RAM the engine needs for offloaded parts, bytes.
    pub host_bytes: u64,
    /// Why the engine would refuse to start, if so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_failure: Option<StartFailure>,
    /// The phase that sets the peak (training, generation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_phase: Option<PeakPhase>,
    /// The fraction of the card the engine was set to claim for this plan, when the search lowered
    /// the scenario's (vLLM `gpu_memory_utilization`, SGLang `mem_fraction_static`) so that the
    /// engine leaves the headroom unclaimed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine_fraction: Option<f64>,
    /// A mixed machine's cards, in device order, each with what it holds (empty for cards of one
    /// kind: every card holds `per_gpu_bytes`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub per_card: Vec<CardUse>,
}

/// One card of a mixed machine and what it holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardUse {
    /// Catalog id.
    pub gpu: &'static str,
    /// Bytes on it.
    pub bytes: u64,
    /// Its reported memory.
    pub capacity_bytes: u64,
    /// Whether this card sets the plan's limit (the verdict is this card's).
    pub sets_limit: bool,
    /// What it holds, by component.
    pub components: Vec<Component>,
}

impl Plan {
    /// The cards one copy of the model spans with tensor parallelism: the count when split that
    /// way, 1 otherwise (each card of a layer split or of replicas holds whole heads).
    pub fn tensor_parallel(&self) -> u64 {
        match self.split {
            Split::TensorParallel => u64::from(self.count.max(1)),
            _ => 1,
        }
    }

    /// Evaluates `count` cards split as `split`. `base` carries the model, workload and engine.
    pub fn evaluate(
        base: &Job,
        card: Card,
        count: u32,
        split: Split,
        headroom_percent: u32,
    ) -> Plan {
        let count = count.max(1);
        let (tensor_parallel, replicas) = match split {
            Split::Single => (1, 1),
            Split::TensorParallel | Split::Layers | Split::DataParallel | Split::Sharded => {
                (count, 1)
            }
            Split::Replicas => (1, count),
        };
        let sequences = base.sequences.div_ceil(u64::from(replicas));
        let job = Job {
            inputs: BudgetInputs {
                sequences,
                tensor_parallel,
                gpu_arch: card.arch,
                ..base.inputs
            },
            ..*base
        };
        let eb = job.gpu_budget(&card);
        let per_gpu_bytes = crate::budget::total(&eb.components);
        // An engine told its KV bytes (`--kv-cache-memory`) does not size its own pool: the
        // card's headroom applies to it as to any engine.
        let sizes_own_pool = !base.engine.is_some_and(Engine::kv_pool_is_set);
        let usable_bytes = match eb
            .report
            .filter(|k| k.budget_bytes.is_some() && sizes_own_pool)
        {
            Some(k) => pool_usable_bytes(
                card.capacity_bytes,
                k.outside_pool(per_gpu_bytes),
                headroom_percent,
            ),
            None => usable_bytes(card.capacity_bytes, headroom_percent),
        };
        let reason = judge(
            &eb.components,
            eb.failure,
            eb.report,
            sequences,
            card.capacity_bytes,
            usable_bytes,
        );
        let verdict = reason.verdict();
        Plan {
            card,
            count,
            split,
            sequences_per_replica: u32::try_from(sequences).unwrap_or(u32::MAX),
            per_gpu_components: eb.components,
            per_gpu_bytes,
            usable_bytes,
            verdict,
            reason,
            kv: eb.report,
            host_bytes: eb.host_bytes,
            start_failure: eb.failure,
            peak_phase: eb.phase,
            engine_fraction: None,
            per_card: Vec::new(),
        }
    }

    /// Like [`Plan::evaluate`], for the card search: an engine that claims a fraction of the card
    /// (vLLM, SGLang) and only eats into the headroom is set to the fraction that leaves the
    /// headroom unclaimed — what a deployment on that card would use — and the plan records it in
    /// `engine_fraction`. Other plans are returned as evaluated.
    pub fn evaluate_for_search(
        base: &Job,
        card: Card,
        count: u32,
        split: Split,
        headroom_percent: u32,
    ) -> Plan {
        let plan = Plan::evaluate(base, card, count, split, headroom_percent);
        if plan.reason != VerdictReason::IntoHeadroom {
            return plan;
        }
        let Some(engine) = base.engine else {
            return plan;
        };
        let Some((fraction, tuned)) =
            engine_leaving_headroom(engine, &plan, plan.tensor_parallel())
        else {
            return plan;
        };
        let job = Job {
            engine: Some(&tuned),
            ..*base
        };
        let retry = Plan::evaluate(&job, card, count, split, headroom_percent);
        if retry.verdict == Verdict::Fits {
            Plan {
                engine_fraction: Some(fraction),
                ..retry
            }
        } else {
            plan
        }
    }

    /// Memory of all cards together (what is being bought or rented).
    pub fn total_capacity(&self) -> u64 {
        crate::units::bytes::mul(self.card.capacity_bytes, u64::from(self.count))
    }
}
