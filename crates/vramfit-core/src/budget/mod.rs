//! The budget vocabulary (layer 2 of the core, above the leaf units, formats, models and catalogs):
//! component ids and components, the card, the peak phase and the per-GPU result type
//! ([`result`]), the model-level inputs every workload starts from ([`BudgetInputs`]), and one file
//! per serving memory component, each opening with its formula and source. Workloads
//! (`crate::engine`, `crate::training`, `crate::diffusion`, `crate::custom`) build on these; nothing
//! here knows which workload asked.
//!
//! All figures are for **one** GPU of a tensor-parallel group of `tp` GPUs (tp = 1: a single card);
//! `crate::estimate` multiplies them out to the whole deployment.

pub mod activations;
pub mod kv_cache;
pub mod reserve;
mod result;
pub mod runtime;
pub mod weights;

pub use result::{Card, GpuBudget, KvReport, PeakPhase, StartFailure};

use crate::catalog::GpuArch;
use crate::format::WeightFormat;
use crate::model::ModelArch;
use crate::precision::Precision;
use serde::Serialize;

/// A part of the memory budget. The UI maps each to its label and guidance in one `match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ComponentId {
    /// Model parameters as stored.
    Weights,
    /// LoRA adapter slots the engine keeps ready (vLLM `--enable-lora`).
    LoraAdapters,
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
    /// Memory outside the framework allocator that the engine's profiler attributes to itself
    /// (kernel images loaded after its baseline, library handles).
    EngineOverhead,
    /// CUDA graphs captured for decoding (their private memory pool).
    CudaGraphs,
    /// The engine's request bookkeeping (SGLang's `req_to_token` pool).
    RequestPool,
    /// Memory the caching allocator holds beyond live tensors (segment rounding).
    AllocatorReserve,
    /// Training: the fp32 master copy of 16-bit weights (mixed precision).
    MasterWeights,
    /// Training: trainable adapter parameters (LoRA), with their gradients and optimizer states.
    Adapters,
    /// Training: gradients of the trainable parameters.
    Gradients,
    /// Training: optimizer states (Adam moments, quantised states, factored statistics).
    OptimizerStates,
    /// Training: the logits and loss buffers (vocabulary × tokens).
    Logits,
    /// Training: temporaries of the backward pass and the optimizer step.
    TemporaryBuffers,
    /// Diffusion: the text encoders (CLIP, T5) resident at the peak.
    TextEncoders,
    /// Diffusion: the denoiser (UNet or diffusion transformer) resident at the peak.
    Denoiser,
    /// Diffusion: the VAE resident at the peak.
    Vae,
    /// Diffusion: the VAE decode working set (full frame or a tile).
    VaeDecode,
    /// Custom workload: persistent data (weights, scene assets).
    PersistentData,
    /// Custom workload: intermediate results.
    Intermediates,
    /// Custom workload: caches.
    Caches,
    /// Custom workload: workspaces.
    Workspaces,
}

/// One component's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Component {
    /// Which component.
    pub id: ComponentId,
    /// Bytes.
    pub bytes: u64,
}

/// Weights and their allocator rounding per tensor-parallel size, computed once per estimate
/// (the recommendation evaluates hundreds of plans with the same model).
#[derive(Clone, Debug)]
pub struct Footprint {
    /// Per tp: (weight bytes, allocator rounding of the weights). A few entries (1, 2, 4, 8): a
    /// list searched in order (a map would add its generic code to the wasm for nothing).
    by_tp: Vec<(u64, (u64, u64))>,
}

impl Footprint {
    /// Weights of `arch` in `format` (modules under `unquantized` in 16 bit) for each
    /// tensor-parallel size in `tps`.
    pub fn new(
        arch: &ModelArch,
        format: WeightFormat,
        tps: &[u64],
        unquantized: &[String],
    ) -> Footprint {
        let mut by_tp: Vec<(u64, (u64, u64))> = Vec::new();
        for &tp in tps {
            let tp = tp.max(1);
            if by_tp.iter().any(|(t, _)| *t == tp) {
                continue;
            }
            let tensors = weights::per_gpu_tensors(arch, format, tp, unquantized);
            by_tp.push((
                tp,
                (weights::total(&tensors), reserve::weight_rounding(&tensors)),
            ));
        }
        Footprint { by_tp }
    }

    /// (weights, allocator rounding) on one GPU of a `tp`-way group; zero if `tp` was not prepared.
    pub fn get(&self, tp: u64) -> (u64, u64) {
        let tp = tp.max(1);
        self.by_tp
            .iter()
            .find(|(t, _)| *t == tp)
            .map_or((0, 0), |(_, v)| *v)
    }
}

/// The model-level facts the components of one GPU depend on, whatever the workload. For
/// training, `context_tokens` is the sequence length and `sequences` the micro-batch.
#[derive(Clone, Copy, Debug)]
pub struct BudgetInputs<'a> {
    /// Architecture.
    pub arch: &'a ModelArch,
    /// Weight storage.
    pub weights: WeightFormat,
    /// Weights per tp, precomputed.
    pub footprint: &'a Footprint,
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
    /// CUDA context and kernel images per GPU (measured override or the default).
    pub cuda_context_bytes: u64,
}

impl BudgetInputs<'_> {
    /// The tensor-parallel degree as `u64` (at least 1).
    pub fn tp(&self) -> u64 {
        u64::from(self.tensor_parallel.max(1))
    }
}

/// Every component of one GPU for engine-neutral serving, in display order (zeros left out).
pub fn serving_components(inp: &BudgetInputs) -> Vec<Component> {
    let tp = inp.tp();
    let (weights, rounding) = inp.footprint.get(tp);
    components(&[
        (ComponentId::Weights, weights),
        (ComponentId::KvCache, kv_cache::bytes_per_gpu(inp, tp)),
        (ComponentId::Activations, activations::peak_per_gpu(inp, tp)),
        (ComponentId::CudaContext, inp.cuda_context_bytes),
        (
            ComponentId::CublasWorkspace,
            runtime::cublas_workspace(inp.gpu_arch),
        ),
        (
            ComponentId::CommunicationBuffers,
            runtime::communication_buffers(inp.tensor_parallel),
        ),
        (
            ComponentId::AllocatorReserve,
            reserve::segments() + rounding,
        ),
    ])
}

/// A component list from `(id, bytes)` pairs, zeros left out.
pub fn components(list: &[(ComponentId, u64)]) -> Vec<Component> {
    list.iter()
        .filter(|(_, bytes)| *bytes > 0)
        .map(|&(id, bytes)| Component { id, bytes })
        .collect()
}

/// `x` split over `n` GPUs, rounded up (the largest shard).
pub(crate) fn shard(x: u64, n: u64) -> u64 {
    x.div_ceil(n.max(1))
}
