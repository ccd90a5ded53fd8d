//! The leaf of the core: accepted ranges of every input, the field names validation reports, and
//! the one validation convention every workload follows — `validate` returns
//! `Vec<(Field, RangeError)>`, empty when valid. Imports nothing from the crate.

use serde::Serialize;

/// The schema version this build writes and reads.
pub const SCENARIO_VERSION: u32 = 1;

/// Default headroom kept free on each card, percent of its reported memory.
pub(crate) const DEFAULT_HEADROOM_PERCENT: u32 = 10;
/// Smallest headroom accepted (below it, normal runtime fluctuation already eats the margin).
pub(crate) const MIN_HEADROOM_PERCENT: u32 = 5;
/// Largest headroom accepted.
pub(crate) const MAX_HEADROOM_PERCENT: u32 = 50;
/// Tokens one forward pass of prefill processes at most (vLLM V1's `max_num_batched_tokens` for
/// `vllm serve`: `EngineArgs._set_default_args`, `UsageContext.OPENAI_API_SERVER` → 8192).
pub const DEFAULT_PREFILL_CHUNK_TOKENS: u32 = 8192;
/// Largest context accepted (10 M tokens: beyond any released model).
pub(crate) const MAX_CONTEXT_TOKENS: u32 = 10_000_000;
/// Largest number of concurrent sequences accepted.
pub(crate) const MAX_SEQUENCES: u32 = 100_000;
/// Largest GPU count accepted.
pub(crate) const MAX_GPUS: u32 = 64;
/// Most entries of `unquantized_modules` accepted (real checkpoints list a handful: the head, a
/// vision tower, a few layers' MLPs).
pub const MAX_UNQUANTIZED_MODULES: usize = 256;
/// Most exact weight bytes a scenario accepts (64 TiB: well above any checkpoint, 2 T parameters
/// in fp32 are 8 TiB, and far below where the byte arithmetic saturates).
pub(crate) const MAX_WEIGHTS_BYTES: u64 = 1 << 46;
/// Longest module path accepted in `unquantized_modules`, bytes.
pub(crate) const MAX_MODULE_PATH_LEN: usize = 256;

/// Ceilings on the architecture numbers of a pasted `config.json`, far above every released
/// model (the largest value we know in brackets) and low enough that the work of an estimate stays
/// bounded (each layer kind is costed once, the layer runs are counted) and products of a few
/// dimensions stay far below 2^64. A larger value is refused with `ConfigError::TooLarge`.
pub mod arch {
    /// `num_hidden_layers` (Llama 3.1 405B: 126; DeepNet, the deepest published transformer: 1000).
    pub const LAYERS: u32 = 1024;
    /// `hidden_size` (MT-NLG 530B: 20,480; Llama 3.1 405B: 16,384).
    pub const HIDDEN: u32 = 65_536;
    /// `intermediate_size` and the experts' widths (Nemotron-4 340B: 73,728; Llama 3.1 405B: 53,248).
    pub const INTERMEDIATE: u32 = 262_144;
    /// `num_attention_heads`, `num_key_value_heads` (Llama 3.1 405B, DeepSeek V3, MT-NLG: 128).
    pub const HEADS: u32 = 1024;
    /// `head_dim` and the MLA per-head widths (Gemma 2/3: 256; DeepSeek V3 query/key: 192).
    pub const HEAD_DIM: u32 = 4096;
    /// `vocab_size` (Gemma 3: 262,208; BLOOM: 250,880).
    pub const VOCAB: u32 = 2_097_152;
    /// Routed experts (Switch-C: 2048; Kimi K2: 384; DeepSeek V3: 256), also experts per token.
    pub const EXPERTS: u32 = 4096;
    /// `n_shared_experts` (DeepSeek V2/V3: 2 / 1).
    pub const SHARED_EXPERTS: u32 = 256;
    /// MLA ranks `kv_lora_rank`, `q_lora_rank` (DeepSeek V3: 512 / 1536).
    pub const LORA_RANK: u32 = 65_536;
    /// Token counts: `max_position_embeddings`, `sliding_window`, `attention_chunk_size`
    /// (Llama 4 Scout: 10,485,760 positions).
    pub const TOKENS: u32 = 1 << 24;
    /// A vision tower's `image_size` in pixels (Gemma 3: 896; Llama 3.2 Vision: 560).
    pub const IMAGE_SIZE: u32 = 16_384;
    /// A vision tower's `patch_size` (14 or 16 everywhere).
    pub const PATCH: u32 = 1024;
    /// A recurrent layer's state width per channel: `mamba_d_state` / `ssm_state_size`,
    /// `linear_key_head_dim` (Falcon-H1: 256; Qwen3-Next: 128).
    pub const SSM_STATE: u32 = 4096;
    /// A recurrent layer's convolution width: `mamba_d_conv` / `conv_kernel`,
    /// `linear_conv_kernel_dim` (4 everywhere).
    pub const CONV_KERNEL: u32 = 64;
    /// `mamba_expand` (2 everywhere).
    pub const EXPAND: u32 = 64;
}

/// A scenario field that validation can reject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// `version`.
    Version,
    /// `workload.inference.context_tokens`.
    ContextTokens,
    /// `workload.inference.sequences`.
    Sequences,
    /// `workload.inference.prefill_chunk_tokens`.
    PrefillChunkTokens,
    /// `hardware.count`.
    GpuCount,
    /// `hardware.gpu_memory_gib`.
    GpuMemory,
    /// `hardware` (both `gpu` and `gpu_memory_gib` given).
    Hardware,
    /// `headroom_percent`.
    Headroom,
    /// A setting of the engine, by its flag name.
    Engine(&'static str),
    /// A training setting, by its scenario name.
    Train(&'static str),
    /// An item of a custom workload, by position.
    Item(usize),
    /// A generation setting, by its scenario name.
    Generation(&'static str),
    /// `unquantized_modules` (too many entries, or one too long).
    UnquantizedModules,
    /// `weights_bytes` (zero, or more than any checkpoint).
    WeightsBytes,
    /// `prices_usd_per_hour` (a card not in the catalog, or a price outside 0 – 1000 $/h).
    Price,
    /// A setting of `speculative`, by its scenario name (`draft`, `method`, `num_tokens`,
    /// `acceptance`).
    Speculative(&'static str),
}

/// Why a field was rejected, with the accepted range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum RangeError {
    /// Below the minimum.
    TooSmall {
        /// Smallest accepted value.
        min: f64,
    },
    /// Above the maximum.
    TooLarge {
        /// Largest accepted value.
        max: f64,
    },
    /// Not a number, or a combination that makes no sense.
    Invalid,
    /// Outside `min..=max`.
    Between {
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value.
        max: f64,
    },
    /// Not a multiple of `of`.
    NotMultiple {
        /// The step.
        of: u32,
    },
}

/// Checks `value` lies in `min..=max`.
pub(crate) fn check_range(value: f64, min: f64, max: f64) -> Result<(), RangeError> {
    if !value.is_finite() {
        Err(RangeError::Invalid)
    } else if value < min {
        Err(RangeError::TooSmall { min })
    } else if value > max {
        Err(RangeError::TooLarge { max })
    } else {
        Ok(())
    }
}
