//! A deployment plan — which card, how many, how they split the work — and its per-GPU budget and
//! verdict against the card's reported memory with the user's headroom.
//!
//! Verdict: `per_gpu ≤ capacity × (1 − headroom)` fits; `≤ capacity` is tight (the seeds' warning:
//! an estimate of 78 GB on an 80 GB card will not work in practice); above, it does not fit.
//! Engines that claim their memory up front (vLLM, SGLang) are judged by what they report instead:
//! they do not fit when they would refuse to start, are tight when their KV cache holds fewer
//! requests of the full context than the sequences asked for, and fit otherwise.

use crate::budget::{BudgetInputs, Component, KvReport, StartFailure};
use crate::dispatch::Job;
use crate::engine::Engine;
use crate::model::ModelArch;

pub use crate::budget::{Card, PeakPhase};
use crate::scenario::Workload;
use serde::Serialize;

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
}

impl Plan {
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
        let usable_bytes = card.capacity_bytes / 100 * u64::from(100 - headroom_percent.min(100));
        let verdict = if eb.failure.is_some() || per_gpu_bytes > card.capacity_bytes {
            Verdict::DoesNotFit
        } else if eb.preallocates {
            match eb.report {
                Some(r) if r.max_concurrency + 1e-9 < sequences as f64 => Verdict::Tight,
                _ => Verdict::Fits,
            }
        } else if per_gpu_bytes <= usable_bytes {
            Verdict::Fits
        } else {
            Verdict::Tight
        };
        Plan {
            card,
            count,
            split,
            sequences_per_replica: u32::try_from(sequences).unwrap_or(u32::MAX),
            per_gpu_components: eb.components,
            per_gpu_bytes,
            usable_bytes,
            verdict,
            kv: eb.report,
            host_bytes: eb.host_bytes,
            start_failure: eb.failure,
            peak_phase: eb.phase,
        }
    }

    /// Memory of all cards together (what is being bought or rented).
    pub fn total_capacity(&self) -> u64 {
        crate::bytes::mul(self.card.capacity_bytes, u64::from(self.count))
    }
}
