//! The budget vocabulary, the layer above `units` and `inputs` (all it may use): component ids and
//! components, the card, the peak phase and the per-GPU result type ([`result`]), the model-level
//! inputs every workload starts from ([`BudgetInputs`]), and one file per serving memory
//! component, each opening with its formula and source. The workloads (`crate::workloads`) build
//! on these; nothing here knows which workload asked. Its modules use one another freely:
//! `tests/layers.rs` counts the folder as one module.
//!
//! All figures are for **one** GPU of a tensor-parallel group of `tp` GPUs (tp = 1: a single card);
//! `crate::estimate` multiplies them out to the whole deployment.

pub mod activations;
pub mod draft;
pub mod kv_cache;
pub mod reserve;
mod result;
pub mod runtime;
pub mod weights;

pub use result::{Card, GpuBudget, KvReport, PeakPhase, StartFailure};

use crate::inputs::catalog::GpuArch;
use crate::inputs::format::WeightFormat;
use crate::inputs::kv_format::KvCacheFormat;
use crate::inputs::model::{ModelArch, ModulePatterns, TensorKind};
use crate::units::bytes::{add, from_u128, sum};
use serde::Serialize;
use std::cell::RefCell;
use std::collections::BTreeMap;

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
    /// Hybrid models: the fixed-size state each recurrent (Mamba-2 / linear-attention) layer keeps
    /// per sequence, in place of a KV cache.
    RecurrentState,
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
    /// Speculative decoding: the draft model's or the MTP layers' weights.
    DraftWeights,
    /// Speculative decoding: the proposer's KV cache.
    DraftKvCache,
    /// Speculative decoding under llama.cpp: the draft contexts' compute buffers.
    DraftActivations,
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

/// Weights and their allocator rounding per tensor-parallel size, and the whole model's layers as
/// running sums, computed once per estimate (the recommendation, the inverse bisections and the
/// curve evaluate over a thousand plans with the same model; none of them walks the layers again).
#[derive(Clone, Debug)]
pub struct Footprint {
    /// Per tp: (weight bytes, allocator rounding of the weights).
    by_tp: BTreeMap<u64, (u64, u64)>,
    /// Whole-model bytes of the decoder layers in the format (patterns ignored: llama.cpp loads a
    /// GGUF file with its own types), as running sums: entry `i` holds layers `0..i`.
    layer_prefix: Vec<u128>,
    /// The routed-expert tensors of the same layers (llama.cpp's `ffn_(gate|up|down)_exps`, what
    /// `--cpu-moe` / `--n-cpu-moe` keep in host RAM), as running sums like `layer_prefix`.
    expert_prefix: Vec<u128>,
    /// The largest single routed-expert tensor of any layer, whole (what one offloaded matrix
    /// product copies to the GPU).
    largest_expert_tensor: u64,
    /// The tensors outside the layers, whole, as llama.cpp places them.
    outer: OuterWeights,
    /// The architecture, for [`Footprint::weights_in`].
    arch: ModelArch,
    /// Weights in other formats (training's base formats), filled on first use.
    other_formats: RefCell<Vec<(FormatTp, (u64, u64))>>,
}

/// One layer kind's bytes: all its tensors, its routed-expert tensors, its largest routed-expert
/// tensor.
type LayerBytes = (u64, u64, u64);

/// A weight format and a tensor-parallel size.
type FormatTp = (WeightFormat, u64);

/// The tensors outside the decoder layers in the weight format, whole, grouped as llama.cpp
/// places them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OuterWeights {
    /// `token_embd` and the per-layer embedding table (kept in host RAM).
    pub token_embd: u64,
    /// The output weight llama.cpp loads: the last output tensor, else a tied embedding again.
    pub output: u64,
    /// The vision tower (host RAM).
    pub vision: u64,
    /// Norms and biases outside the layers (on the output device).
    pub other: u64,
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
        let patterns = ModulePatterns::new(unquantized);
        let mut by_tp = BTreeMap::new();
        for &tp in tps {
            by_tp
                .entry(tp.max(1))
                .or_insert_with(|| weights::per_gpu(arch, format, tp.max(1), &patterns));
        }
        let whole = |t: &crate::inputs::model::Tensor| format.tensor_bytes(t, arch);
        let mut memo: Vec<((u8, u8), LayerBytes)> = Vec::new();
        let mut layer_prefix = Vec::with_capacity(arch.layers as usize + 1);
        let mut expert_prefix = Vec::with_capacity(arch.layers as usize + 1);
        let mut largest_expert_tensor = 0;
        let (mut running, mut running_experts) = (0u128, 0u128);
        layer_prefix.push(running);
        expert_prefix.push(running_experts);
        for i in 0..arch.layers {
            let class = match format {
                WeightFormat::Gguf(_) => crate::inputs::gguf::layer_class(i, arch.layers),
                _ => 0,
            };
            let key = (arch.layer_key(i), class);
            let (bytes, experts, largest) = match memo.iter().find(|(k, _)| *k == key) {
                Some(&(_, b)) => b,
                None => {
                    let tensors = arch.layer_tensors(i);
                    let expert = || tensors.iter().filter(|t| t.kind.is_expert()).map(whole);
                    let b = (
                        sum(tensors.iter().map(whole)),
                        sum(expert()),
                        expert().max().unwrap_or(0),
                    );
                    memo.push((key, b));
                    b
                }
            };
            running += u128::from(bytes);
            running_experts += u128::from(experts);
            largest_expert_tensor = largest_expert_tensor.max(largest);
            layer_prefix.push(running);
            expert_prefix.push(running_experts);
        }
        let (before, after) = arch.outer_tensors();
        let mut outer = OuterWeights::default();
        for t in before.iter().chain(&after) {
            let bytes = whole(t);
            match t.kind {
                TensorKind::TokenEmbd => {
                    outer.token_embd = add(outer.token_embd, bytes);
                    if arch.tied_embeddings {
                        outer.output = bytes;
                    }
                }
                // llama.cpp keeps the per-layer embedding table on the host with `token_embd`
                // (`LLM_TENSOR_LAYER_INPUT`); it is never the output head.
                TensorKind::PerLayerEmbd => outer.token_embd = add(outer.token_embd, bytes),
                TensorKind::Output => outer.output = bytes,
                TensorKind::Vision => outer.vision = add(outer.vision, bytes),
                _ => outer.other = add(outer.other, bytes),
            }
        }
        Footprint {
            by_tp,
            layer_prefix,
            expert_prefix,
            largest_expert_tensor,
            outer,
            arch: *arch,
            other_formats: RefCell::new(Vec::new()),
        }
    }

    /// The same footprint with the scenario format's weights scaled to `exact` bytes for the whole
    /// model (the user's checkpoint, read from its headers): every per-GPU figure, every layer and
    /// the tensors outside the layers are multiplied by exact ÷ the estimate for one GPU, so one
    /// GPU holding everything holds exactly `exact` and a split keeps the estimate's proportions.
    /// Allocator rounding and training's other formats are left as they are. Integer arithmetic
    /// (u128), saturating at `u64::MAX`.
    pub fn scaled_to(mut self, exact: u64) -> Footprint {
        let estimated = self.get(1).0;
        if estimated == 0 {
            return self;
        }
        let scale = |b: u64| from_u128(u128::from(b) * u128::from(exact) / u128::from(estimated));
        for (weights, _) in self.by_tp.values_mut() {
            *weights = scale(*weights);
        }
        for prefix in self.layer_prefix.iter_mut().chain(&mut self.expert_prefix) {
            *prefix = *prefix * u128::from(exact) / u128::from(estimated);
        }
        self.largest_expert_tensor = scale(self.largest_expert_tensor);
        let o = &mut self.outer;
        *o = OuterWeights {
            token_embd: scale(o.token_embd),
            output: scale(o.output),
            vision: scale(o.vision),
            other: scale(o.other),
        };
        self
    }

    /// (weights, allocator rounding) of the whole architecture in `format` (no module left
    /// unquantised) on one GPU of a `tp`-way group: what a training run stores. Computed on the
    /// first plan that asks and reused by every later one.
    pub fn weights_in(&self, format: WeightFormat, tp: u64) -> (u64, u64) {
        let key = (format, tp.max(1));
        if let Some(&(_, v)) = self.other_formats.borrow().iter().find(|(k, _)| *k == key) {
            return v;
        }
        let v = weights::per_gpu(&self.arch, format, key.1, &ModulePatterns::default());
        self.other_formats.borrow_mut().push((key, v));
        v
    }

    /// (weights, allocator rounding) on one GPU of a `tp`-way group; zero if `tp` was not prepared.
    pub fn get(&self, tp: u64) -> (u64, u64) {
        self.by_tp.get(&tp.max(1)).copied().unwrap_or((0, 0))
    }

    /// Whole-model bytes of the decoder layers `lo..hi` (clamped to the model), saturating.
    pub fn layer_bytes(&self, lo: u64, hi: u64) -> u64 {
        prefix_range(&self.layer_prefix, lo, hi)
    }

    /// Whole-model bytes of the routed-expert tensors of layers `lo..hi` (clamped), saturating.
    pub fn expert_bytes(&self, lo: u64, hi: u64) -> u64 {
        prefix_range(&self.expert_prefix, lo, hi)
    }

    /// The largest single routed-expert tensor of any layer, whole (0 for a dense model).
    pub fn largest_expert_tensor(&self) -> u64 {
        self.largest_expert_tensor
    }

    /// The tensors outside the layers, whole.
    pub fn outer(&self) -> OuterWeights {
        self.outer
    }
}

/// Entries `lo..hi` of running sums (clamped to the table), saturating at `u64::MAX`.
fn prefix_range(prefix: &[u128], lo: u64, hi: u64) -> u64 {
    let last = prefix.len().saturating_sub(1) as u64;
    let (lo, hi) = (lo.min(last), hi.min(last));
    if hi <= lo {
        return 0;
    }
    let at = |i: u64| prefix.get(i as usize).copied().unwrap_or(0);
    from_u128(at(hi).saturating_sub(at(lo)))
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
    pub kv_cache: KvCacheFormat,
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
    /// Speculative decoding's proposer (serving only), placed beside the target by the engine.
    pub draft: Option<&'a draft::Draft>,
    /// Free memory of each card of a mixed machine, in device order (llama.cpp splits layers in
    /// proportion to it); `None` for cards of one kind.
    pub device_free: Option<&'a [u64]>,
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
        (
            ComponentId::RecurrentState,
            kv_cache::state_bytes_per_gpu(inp, tp),
        ),
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
            add(reserve::segments(), rounding),
        ),
    ])
}

/// The sum of a component list (saturating).
pub fn total(list: &[Component]) -> u64 {
    sum(list.iter().map(|c| c.bytes))
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
