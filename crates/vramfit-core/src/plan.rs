//! A deployment plan — which card, how many, how they split the work — and its per-GPU budget and
//! verdict against the card's reported memory with the user's headroom.
//!
//! Verdict: `per_gpu ≤ capacity × (1 − headroom)` fits; `≤ capacity` is tight (the seeds' warning:
//! an estimate of 78 GB on an 80 GB card will not work in practice); above, it does not fit.

use crate::budget::{self, BudgetInputs, Component};
use crate::catalog::{Gpu, GpuArch};
use serde::Serialize;

/// How the GPUs of a plan share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// One card holds everything.
    Single,
    /// Tensor parallel: every layer split over all cards (one model, weights and KV divided).
    TensorParallel,
    /// Independent replicas, each a full model serving a share of the sequences.
    Replicas,
}

/// Fit of a per-GPU budget on a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Fits with the headroom kept free.
    Fits,
    /// Fits in the card, but eats into the headroom.
    Tight,
    /// Larger than the card.
    DoesNotFit,
}

/// The card a plan uses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Card {
    /// Catalog id (`None`: a memory size typed by the user).
    pub gpu: Option<&'static str>,
    /// Reported memory of one card, bytes.
    pub capacity_bytes: u64,
    /// Generation (decides the cuBLAS workspace), if known.
    #[serde(skip)]
    pub arch: Option<GpuArch>,
    /// Whether multi-GPU traffic would cross PCIe only.
    pub pcie_only: bool,
}

impl Card {
    /// A catalog card.
    pub fn from_catalog(g: &'static Gpu) -> Card {
        Card {
            gpu: Some(g.id),
            capacity_bytes: g.capacity_bytes(),
            arch: Some(g.arch),
            pcie_only: g.interconnect == crate::catalog::Interconnect::PcieOnly,
        }
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
}

impl Plan {
    /// Evaluates `count` cards split as `split` for a budget whose per-replica sequences and tensor
    /// parallel degree follow from the split. `base` carries the model and workload.
    pub fn evaluate(
        base: &BudgetInputs,
        card: Card,
        count: u32,
        split: Split,
        headroom_percent: u32,
    ) -> Plan {
        let count = count.max(1);
        let (tensor_parallel, replicas) = match split {
            Split::Single => (1, 1),
            Split::TensorParallel => (count, 1),
            Split::Replicas => (1, count),
        };
        let sequences = base.sequences.div_ceil(u64::from(replicas));
        let inputs = BudgetInputs {
            sequences,
            tensor_parallel,
            gpu_arch: card.arch,
            ..*base
        };
        let per_gpu_components = budget::per_gpu(&inputs);
        let per_gpu_bytes = per_gpu_components.iter().map(|c| c.bytes).sum();
        let usable_bytes = card.capacity_bytes / 100 * u64::from(100 - headroom_percent.min(100));
        let verdict = if per_gpu_bytes <= usable_bytes {
            Verdict::Fits
        } else if per_gpu_bytes <= card.capacity_bytes {
            Verdict::Tight
        } else {
            Verdict::DoesNotFit
        };
        Plan {
            card,
            count,
            split,
            sequences_per_replica: u32::try_from(sequences).unwrap_or(u32::MAX),
            per_gpu_components,
            per_gpu_bytes,
            usable_bytes,
            verdict,
        }
    }

    /// Memory of all cards together (what is being bought or rented).
    pub fn total_capacity(&self) -> u64 {
        self.card.capacity_bytes * u64::from(self.count)
    }
}
