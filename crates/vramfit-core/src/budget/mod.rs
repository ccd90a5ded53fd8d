//! The per-component budget of one GPU of a deployment. One file per component; each opens with
//! its formula and source.
//!
//! All figures are for **one** GPU of a tensor-parallel group of `tp` GPUs (tp = 1: a single card);
//! `crate::estimate` multiplies them out to the whole deployment.

pub mod activations;
pub mod kv_cache;
pub mod reserve;
pub mod runtime;
pub mod weights;

use crate::catalog::GpuArch;
use crate::model::ModelArch;
use crate::precision::Precision;
use serde::Serialize;

/// A part of the memory budget. The UI maps each to its label and guidance in one `match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ComponentId {
    /// Model parameters as stored.
    Weights,
    /// Keys and values of every active token of every sequence.
    KvCache,
    /// Peak transient working set of a forward pass (prefill chunk, logits, sampler).
    Activations,
    /// CUDA/ROCm context and kernel images, outside the framework allocator.
    CudaContext,
    /// cuBLAS / hipBLAS workspace kept by the framework.
    CublasWorkspace,
    /// NCCL communicator buffers (only with more than one GPU per model replica).
    CommunicationBuffers,
    /// Memory the caching allocator holds beyond live tensors (segment rounding).
    AllocatorReserve,
}

/// One component's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Component {
    /// Which component.
    pub id: ComponentId,
    /// Bytes.
    pub bytes: u64,
}

/// What the components of one GPU depend on.
#[derive(Clone, Copy, Debug)]
pub struct BudgetInputs<'a> {
    /// Architecture.
    pub arch: &'a ModelArch,
    /// Weight storage.
    pub weights: Precision,
    /// KV cache storage.
    pub kv_cache: Precision,
    /// Tokens per sequence.
    pub context_tokens: u64,
    /// Concurrent sequences.
    pub sequences: u64,
    /// Tokens per prefill step.
    pub prefill_chunk_tokens: u64,
    /// GPUs splitting the model (tensor parallel degree).
    pub tensor_parallel: u32,
    /// GPU generation, when known.
    pub gpu_arch: Option<GpuArch>,
}

/// Every component of one GPU, in display order. Zero-byte components are left out.
pub fn per_gpu(inp: &BudgetInputs) -> Vec<Component> {
    let tp = u64::from(inp.tensor_parallel.max(1));
    let weights = weights::per_gpu_tensors(inp.arch, inp.weights, tp);
    let list = [
        (ComponentId::Weights, weights::total(&weights)),
        (ComponentId::KvCache, kv_cache::per_gpu(inp, tp)),
        (ComponentId::Activations, activations::per_gpu(inp, tp)),
        (ComponentId::CudaContext, runtime::CUDA_CONTEXT_BYTES),
        (
            ComponentId::CublasWorkspace,
            runtime::cublas_workspace(inp.gpu_arch),
        ),
        (
            ComponentId::CommunicationBuffers,
            runtime::communication_buffers(inp.tensor_parallel),
        ),
        (ComponentId::AllocatorReserve, reserve::per_gpu(&weights)),
    ];
    list.into_iter()
        .filter(|(_, bytes)| *bytes > 0)
        .map(|(id, bytes)| Component { id, bytes })
        .collect()
}

/// `x` split over `n` GPUs, rounded up (the largest shard).
pub(crate) fn shard(x: u64, n: u64) -> u64 {
    x.div_ceil(n.max(1))
}
