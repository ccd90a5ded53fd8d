//! What a fix is, as data: the change it makes ([`Change`], worded by the UI) and the changed
//! scenario with its estimated per-GPU bytes and verdict ([`Fix`]). The search that finds them is
//! `crate::estimate::fixes`.

use crate::plans::plan::Verdict;
use crate::scenario::Scenario;
use crate::workloads::diffusion::Offload;
use serde::Serialize;

/// The change a fix makes, as data (the UI words it).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Change {
    /// The engine's claimed fraction of the card (`gpu_memory_utilization`, `mem_fraction_static`).
    EngineFraction {
        /// The new fraction.
        fraction: f64,
    },
    /// Tokens per sequence.
    Context {
        /// The new context.
        tokens: u32,
    },
    /// Concurrent sequences.
    Sequences {
        /// The new count.
        sequences: u32,
    },
    /// The KV cache format (`fp8`; llama.cpp `q8_0`).
    KvCache {
        /// Its scenario id.
        format: String,
    },
    /// The weight format.
    Weights {
        /// Its scenario id.
        format: String,
    },
    /// vLLM `--kv-cache-memory`: the pool's bytes per GPU set to what the sequences need.
    KvCacheMemory {
        /// Bytes per GPU.
        bytes: u64,
    },
    /// Serve without speculative decoding (the draft model or MTP layers dropped).
    NoSpeculative,
    /// llama.cpp `--n-cpu-moe`: the routed experts of the first layers in host RAM.
    CpuMoeLayers {
        /// Layers whose experts stay in host RAM.
        layers: u32,
    },
    /// llama.cpp `-ngl`: layers on the GPUs, the rest in host RAM.
    GpuLayers {
        /// Layers on the GPUs.
        layers: u32,
    },
    /// More cards of the same kind.
    Gpus {
        /// Cards.
        count: u32,
    },
    /// Another card.
    Card {
        /// Catalog id.
        gpu: String,
        /// Cards.
        count: u32,
    },
    /// Training: activation checkpointing.
    Checkpointing,
    /// Training: an 8-bit AdamW.
    Optimizer8bit,
    /// Training: a chunked cross-entropy under `torch.compile` (torchtune's
    /// `CEWithChunkedOutputLoss`): only the 16-bit logits stay saved, not their fp32 copies.
    ChunkedLoss,
    /// Training: LoRA adapters instead of full fine-tuning.
    Lora,
    /// Training: QLoRA (4-bit base, LoRA adapters).
    Qlora,
    /// Training: ZeRO-3 / FSDP full sharding over this many cards.
    Zero3 {
        /// Cards.
        count: u32,
    },
    /// Training: sequences per micro-batch.
    MicroBatch {
        /// The new micro-batch.
        micro_batch: u32,
    },
    /// Generation: VAE tiling.
    VaeTiling,
    /// Generation: the denoiser in fp8.
    DenoiserFp8,
    /// Generation: a denoiser the pipeline loads in fp32 loaded in bf16 (the `torch_dtype` its
    /// diffusers recipe uses).
    DenoiserBf16,
    /// Generation: the T5 text encoder left off the GPU.
    DropT5,
    /// Generation: CPU offload.
    Offload {
        /// The mode.
        mode: Offload,
    },
    /// Generation: the largest size (square side, px) that fits.
    ImageSize {
        /// Width = height.
        side: u32,
    },
    /// Generation: the most frames that fit.
    Frames {
        /// Frames.
        frames: u32,
    },
    /// Several of the changes above at once, in the order they were applied: offered when no
    /// single change to how the workload runs makes it fit on the same cards.
    Together {
        /// The changes.
        changes: Vec<Change>,
    },
}

/// One change that helps, with the changed scenario and what the core estimates for it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fix {
    /// What changes.
    pub change: Change,
    /// The whole scenario with the change applied.
    pub scenario: Scenario,
    /// Bytes on the fullest GPU of its plan.
    pub per_gpu_bytes: u64,
    /// The verdict of its plan.
    pub verdict: Verdict,
    /// The card of its plan (catalog id), if a catalog card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu: Option<&'static str>,
    /// Cards in its plan.
    pub count: u32,
    /// The claimed fraction (vLLM, SGLang) the fix also sets so the engine leaves the headroom,
    /// when it had to lower the scenario's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine_fraction: Option<f64>,
}
