//! Card recommendation: the smallest plan from the GPU catalog that holds the budget with headroom.
//!
//! 1. The smallest single card (by reported memory) whose verdict is "fits".
//! 2. Otherwise a plan of 2, 4 or 8 identical cards — tensor parallel only for counts the model can
//!    use (query heads divisible by the count, KV heads divisible or replicable: vLLM's rule), layer
//!    split for llama.cpp and Transformers — choosing
//!    the least total memory, then NVLink / xGMI over PCIe, then fewer cards. PCIe-only plans carry a
//!    warning: every layer's all-reduce crosses PCIe.
//!    Training with DDP is offered fully sharded (FSDP / ZeRO-3) instead, since replicated state
//!    never shrinks with more cards.
//! 3. For serving several independent sequences, replicas: `r` smaller cards each running a full copy
//!    and `⌈sequences / r⌉` of the sequences — offered when it needs a smaller card than the plan above.
//!
//! The seeds' point: two 24 GB cards are not one 48 GB card unless the software splits the model.

use crate::budget::Card;
use crate::catalog::GPUS;
use crate::dispatch::Job;
use crate::plan::{multi_gpu_split, Plan, Split, Verdict};
use crate::scenario::Workload;
use crate::training::{Sharding, Train};
use serde::Serialize;

/// Tensor-parallel sizes tried.
pub const TP_SIZES: [u32; 3] = [2, 4, 8];
/// Most replicas offered.
pub const MAX_REPLICAS: u32 = 8;

/// What vramfit recommends for a budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recommendation {
    /// The smallest single card, or else the smallest multi-GPU plan; `None` if nothing in the
    /// catalog holds it.
    pub best: Option<Plan>,
    /// Replicas of a smaller card, when serving several sequences makes that possible.
    pub replicas: Option<Plan>,
    /// Every catalog card alone, smallest first, with its verdict.
    pub single_cards: Vec<Plan>,
}

/// Recommends a plan for `base` with `headroom_percent` kept free.
pub fn recommend(base: &Job, headroom_percent: u32) -> Recommendation {
    let single_cards: Vec<Plan> = GPUS
        .iter()
        .map(|g| {
            Plan::evaluate_for_search(
                base,
                Card::from_catalog(g),
                1,
                Split::Single,
                headroom_percent,
            )
        })
        .collect();
    let best = single_cards
        .iter()
        .find(|p| p.verdict == Verdict::Fits)
        .cloned()
        .or_else(|| tensor_parallel_plan(base, headroom_percent));
    let replicas = replica_plan(base, headroom_percent).filter(|r| match &best {
        Some(b) => r.card.capacity_bytes < b.card.capacity_bytes,
        None => true,
    });
    Recommendation {
        best,
        replicas,
        single_cards,
    }
}

fn tensor_parallel_plan(base: &Job, headroom_percent: u32) -> Option<Plan> {
    let mut plans: Vec<Plan> = Vec::new();
    // Training that replicates its state (DDP) gains nothing from more cards: the plan offered is
    // the same run fully sharded (FSDP / ZeRO-3), which is what makes several cards hold it.
    let sharded;
    let mut inputs = *base;
    let mut sharded_split = None;
    if let Workload::Train(t) = base.workload {
        if t.sharding == Sharding::Ddp {
            sharded = Workload::Train(Train {
                sharding: Sharding::Zero3,
                ..t.clone()
            });
            inputs.workload = &sharded;
            sharded_split = Some(Split::Sharded);
        }
    }
    let base = &inputs;
    for n in TP_SIZES {
        let Some(split) = multi_gpu_split(base.arch, base.engine, base.workload, n) else {
            continue;
        };
        let split = sharded_split.unwrap_or(split);
        if split == Split::Replicas {
            // Copies of the whole job on more cards never lower the memory per card.
            continue;
        }
        plans.extend(
            GPUS.iter()
                .map(|g| {
                    Plan::evaluate_for_search(
                        base,
                        Card::from_catalog(g),
                        n,
                        split,
                        headroom_percent,
                    )
                })
                .filter(|p| p.verdict == Verdict::Fits),
        );
    }
    plans
        .into_iter()
        .min_by_key(|p| (p.total_capacity(), p.card.pcie_only, p.count))
}

fn replica_plan(base: &Job, headroom_percent: u32) -> Option<Plan> {
    let max_r = MAX_REPLICAS.min(u32::try_from(base.sequences).unwrap_or(u32::MAX));
    (2..=max_r)
        .filter_map(|r| {
            GPUS.iter()
                .map(|g| {
                    Plan::evaluate_for_search(
                        base,
                        Card::from_catalog(g),
                        r,
                        Split::Replicas,
                        headroom_percent,
                    )
                })
                .find(|p| p.verdict == Verdict::Fits)
        })
        .min_by_key(|p| (p.card.capacity_bytes, p.count))
}
