//! The budget vocabulary every workload shares: the card a budget is judged on, the phase that
//! sets a peak, why an engine would refuse to start, and the per-GPU result type ([`GpuBudget`])
//! that every workload's budget function returns.

use super::Component;
use crate::inputs::catalog::{Gpu, GpuArch, Interconnect};
use serde::Serialize;

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
            pcie_only: g.interconnect == Interconnect::PcieOnly,
        }
    }
}

/// The phase of a workload that sets its peak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PeakPhase {
    /// Training: end of the forward pass.
    Forward,
    /// Training: backward pass.
    Backward,
    /// Training: optimizer step.
    OptimizerStep,
    /// Generation: text encoding.
    TextEncoding,
    /// Generation: denoising.
    Denoising,
    /// Generation: VAE decoding.
    Decoding,
}

/// What the engine reports about its KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KvReport {
    /// KV cache bytes on one GPU (keys and values; a hybrid model's states are `state_bytes`).
    pub kv_cache_bytes: u64,
    /// Tokens the cache holds (the engine's own figure: whole blocks / pages / cells).
    pub kv_cache_tokens: u64,
    /// Requests of `context_tokens` tokens that fit at once (`tokens / max_model_len`).
    pub max_concurrency: f64,
    /// The memory the engine claims up front on one GPU (vLLM / SGLang), if it pre-allocates.
    pub budget_bytes: Option<u64>,
    /// Recurrent-layer states on one GPU (hybrid models; 0 otherwise), beside the keys and values
    /// `kv_cache_bytes` counts. vLLM V1 keeps both in one pool (its "Available KV cache memory"
    /// is their sum).
    #[serde(skip_serializing_if = "is_zero")]
    pub state_bytes: u64,
    /// Memory inside `budget_bytes` that the engine only estimates before it sizes the pool
    /// (vLLM 0.29+'s CUDA graphs: its extrapolation from two captures, several times off either
    /// way in published logs). The headroom applies to it as to memory outside the budget.
    #[serde(skip_serializing_if = "is_zero")]
    pub estimated_inside: u64,
}

impl KvReport {
    /// The memory the headroom applies to on a card holding `per_gpu_bytes`: what lies outside
    /// the engine's budget, and what it only estimates inside it.
    pub fn outside_pool(&self, per_gpu_bytes: u64) -> u64 {
        self.budget_bytes.map_or(per_gpu_bytes, |b| {
            per_gpu_bytes
                .saturating_sub(b)
                .saturating_add(self.estimated_inside)
        })
    }

    /// `max_concurrency` in hundredths, rounded **down**: a count of requests never rounds up to
    /// one the cache cannot hold (6.996 requests read 6.99, as vLLM's own two decimals would
    /// truncate them, never 7.00 beside "most sequences: 6").
    pub fn max_concurrency_centi(&self) -> u64 {
        let x = (self.max_concurrency * 100.0 + 1e-6).floor();
        if x.is_finite() && x > 0.0 {
            x as u64
        } else {
            0
        }
    }
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// Why an engine would refuse to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum StartFailure {
    /// Weights, activations and overhead exceed the engine's budget: no room for any KV cache.
    NoRoomForKvCache,
    /// The KV cache cannot hold one request of the configured maximum length.
    MaxModelLenTooLong {
        /// Tokens the cache holds.
        kv_tokens: u64,
        /// The configured maximum length.
        max_model_len: u64,
    },
    /// The budget plus memory outside it exceeds the card (vLLM V1 refuses when free memory at
    /// start is below the requested fraction).
    BudgetExceedsFreeMemory,
}

/// One GPU's budget under a workload: the result type of every workload's budget function.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuBudget {
    /// Components on one GPU, in display order.
    pub components: Vec<Component>,
    /// The engine's KV report, if it sizes the cache itself.
    pub report: Option<KvReport>,
    /// Host RAM the engine needs for offloaded layers (llama.cpp partial offload), bytes.
    pub host_bytes: u64,
    /// Why it would not start, if so.
    pub failure: Option<StartFailure>,
    /// Whether the engine claims its memory up front (the verdict then reads the KV capacity, not
    /// the headroom).
    pub preallocates: bool,
    /// The phase that sets the peak, where the workload has phases (training, generation).
    pub phase: Option<PeakPhase>,
}

impl GpuBudget {
    /// A budget of plain components: nothing pre-allocated, no host RAM, no phases.
    pub fn of(components: Vec<Component>) -> GpuBudget {
        GpuBudget {
            components,
            report: None,
            host_bytes: 0,
            failure: None,
            preallocates: false,
            phase: None,
        }
    }
}
