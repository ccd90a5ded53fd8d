//! vLLM: what it reports at start-up (weights, non-torch memory, activation peak, KV cache GiB,
//! KV tokens, maximum concurrency), from its source (`vllm/worker/worker.py::determine_num_available_blocks`, `vllm/v1/worker/gpu_worker.py`).
//!
//! - **Budget** = `total_gpu_memory × gpu_memory_utilization` (`worker.py::determine_num_available_blocks`
//!   in V0, `v1/worker/gpu_worker.py::determine_available_memory` in V1).
//! - **Weights** = the parameters as loaded (`DeviceMemoryProfiler` around `load_model`), split over
//!   the tensor-parallel group as `budget::weights` describes, plus what vLLM adds per GPU:
//!   - the rotary `cos_sin_cache` buffer `positions × rotary_dim × b`
//!     (`rotary_embedding.py::RotaryEmbedding`), where `rotary_dim` is `qk_rope_head_dim` for MLA
//!     (`deepseek_v2.py` builds its rope on the rope part only) and the positions are
//!     `4 × max_position` for Qwen2-VL / Qwen2.5-VL's multimodal rope
//!     (`MRotaryEmbedding.__init__`: `cache_max_position_num = max_position_embeddings * 4`);
//!   - the vocabulary rows of the embedding and the untied head padded to 64 and then divided
//!     (`vocab_parallel_embedding.py::VocabParallelEmbedding`: `num_embeddings_per_partition =
//!     divide(pad_vocab_size(vocab, 64), tp_size)`);
//!   - for MLA with a quantised `kv_b_proj`, its 16-bit copy kept as `W_UK_T` / `W_UV`
//!     (`MLACommonImpl.process_weights_after_loading` dequantises it with
//!     `get_and_maybe_dequant_weights`; an unquantised weight is only viewed):
//!     `layers × heads/tp × (nope + v) × kv_lora_rank × b`;
//!   - MXFP4 experts padded to the kernel's tiles (`mxfp4.py::Mxfp4MoEMethod.create_weights`): the
//!     per-GPU intermediate width rounded up to 64 on Hopper (Triton kernels), to 128 with the
//!     hidden width to 256 on Ampere/Ada (Marlin), both to 256 on Blackwell (FlashInfer).
//! - **Non-torch**: v0.6.4 and older (`version: "v0-legacy"`) count `used − torch allocated`, i.e.
//!   the whole CUDA context (0.35 GiB on an RTX 3090, issue #10517). Later versions take the
//!   baseline after the context exists and count only what appears after it: kernel images loaded
//!   later (0.01 GiB; +0.07 GiB once bitsandbytes kernels load; +0.06 GiB for the V1 engine), and
//!   with TP > 1 two NCCL communicators (`PyNcclCommunicator` and torch's `ProcessGroupNCCL`:
//!   544 MB each for 2 ranks, 688 MB for more, NVIDIA/nccl#964) plus custom all-reduce IPC buffers
//!   (`runtime::CUSTOM_ALL_REDUCE_BYTES`). In those versions the CUDA context sits outside the
//!   budget.
//! - **Activation peak** of the profile run (`model_runner.py::profile_run` V0, `_dummy_run` +
//!   `_dummy_sampler_run` V1): `max_num_batched_tokens` tokens through the model, then sampling for
//!   `max_num_seqs` sequences with top-k/top-p — `budget::activations::peak` — plus the cuBLAS
//!   workspace allocated inside the profile. Default `max_num_batched_tokens`: V1 8192
//!   (`vllm serve`); V0 `max(max_model_len, 2048)` without chunked prefill, which V0 enables by
//!   itself above 32768 tokens (then 2048).
//!   V1 adds, for vision models, the encoder cache of the dummy images (`encoder_cache`).
//! - **KV cache** = budget − weights − non-torch − activation peak; **tokens** = whole 16-token
//!   blocks of `bytes per token` (`CacheEngine.get_cache_block_size`); **maximum concurrency** =
//!   tokens / `max_model_len`. Start-up fails if the cache cannot hold one `max_model_len` request
//!   (`_check_enough_kv_cache_memory`) and, in V1, if free memory at start is below the budget.
//! - **LoRA** (`--enable-lora`): `max_loras` adapter slots of `max_lora_rank` are allocated while the
//!   weights load (`worker/model_runner.py::load_model` creates the LoRA manager inside the
//!   `DeviceMemoryProfiler` block), so vLLM counts them as weights.
//! - **CUDA graphs** are captured after the KV cache is allocated, outside the budget (every version
//!   up to 0.10). Their pool holds the per-layer outputs of the largest captured decode batch:
//!   `min(max_num_seqs, 256 (V0) | 512 (V1)) × layers × 8·H × b`; on the public profiles this gives
//!   0.16 / 0.38 / 0.50 GiB against 0.17 / 0.41 / 0.67 measured (fp16 cases), an estimate only.
//! - **Hybrid models** (Mamba-2 / gated DeltaNet layers beside attention). Each recurrent layer
//!   keeps one state per request (`budget::kv_cache::state_per_layer`: conv `(d_conv − 1) ×
//!   conv_dim/tp` and SSM `heads/tp × head_dim × state`, shapes from
//!   `layers/mamba/mamba_utils.py::MambaStateShapeCalculator`), in `--mamba-cache-dtype` and
//!   `--mamba-ssm-cache-dtype` (`auto`: the model dtype, `MambaStateDtypeCalculator`; Qwen3.5 and
//!   Nemotron-H take the checkpoint's `mamba_ssm_dtype` / `mamba_ssm_cache_dtype`,
//!   `models/config.py::Qwen3_5ForConditionalGenerationConfig` / `NemotronHForCausalLMConfig`).
//!   - V0 (`models/mamba_cache.py::MambaCacheManager`, built in the model's first forward, i.e.
//!     inside the profile run): conv and SSM tensors for `pad_for_cudagraph(max_num_seqs)`
//!     requests × every recurrent layer, counted before the KV cache; the KV cache then covers
//!     the attention layers only.
//!   - V1 (the hybrid KV cache manager) keeps states and keys/values in **one pool of pages of one
//!     size** (`models/config.py::HybridAttentionMambaModelConfig.verify_and_update_config`): the
//!     attention block grows to the smallest multiple of 16 tokens (32 for head size 256 on
//!     Blackwell) whose page holds one layer's state, `block = 16 · ⌈state / (16 · kv bytes per
//!     token and layer)⌉`, and the state page is padded to that page. Layers are grouped by kind
//!     into groups of `G` layers (`core/kv_cache_utils.py::_get_kv_cache_groups_uniform_page_size`:
//!     `G` = the smaller layer count, or the larger when it is under 1.5 × the smaller);
//!     `num_blocks = pool / page / G` (`get_kv_cache_config_from_groups`, `get_num_blocks`). Every
//!     running request takes one block per recurrent group (`MambaSpec.max_memory_usage_bytes`,
//!     prefix caching off: vLLM turns it off for hybrid models up to 0.11) and
//!     `⌈tokens / block⌉` per attention group. vLLM prints `num_blocks / groups × block` tokens
//!     (`_report_kv_cache_config`) and `num_blocks / (attention groups · ⌈max_model_len / block⌉ +
//!     recurrent groups)` as the maximum concurrency (`get_max_concurrency_for_kv_cache_config`).
//!     The states of the running requests (`min(sequences, max_num_seqs)`) are the pool's
//!     `RecurrentState` part, the rest its `KvCache`. Check: Qwen3-Next-80B-A3B on two H200, 0.10.2,
//!     44.59 GiB pool: block 544, state padded by 1.49 %, 973,760 tokens, 14.77× at 262,144 (a
//!     public start-up log, reproduced in the tests).

use super::{fraction_of, ratio};
use crate::budget::kv_cache::StateStorage;
use crate::budget::Card;
use crate::budget::{
    activations, components, kv_cache, runtime, weights, BudgetInputs, ComponentId,
};
use crate::budget::{shard, GpuBudget, KvReport, StartFailure};
use crate::inputs::catalog::GpuArch;
use crate::inputs::format::WeightFormat;
use crate::inputs::kv_format::KvCacheFormat;
use crate::inputs::model::{Family, ModelArch};
use crate::units::bytes::{add, div, from_u128, mul, prod, round_up, sum, GIB};
use serde::{Deserialize, Serialize};

/// Which profiler regime (see the module doc), by release.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VllmVersion {
    /// V1 engine, 0.29 and later (the default): CUDA-graph memory is profiled before the KV cache
    /// is sized and comes out of the claimed fraction (`determine_available_memory` subtracts
    /// the estimate; `VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS` on by default since 0.20, the V2
    /// runner profiling it since 0.29). Also 0.20 – 0.28 for models on the V1 runner (MoE and
    /// hybrid models; every model before 0.22). Sources: tests/calibration/
    /// vllm_cudagraph_accounting.md.
    #[default]
    #[serde(rename = "v1-0.29")]
    V1Graphs,
    /// V1 engine, 0.8 – 0.19 (and dense models on the V2 runner, 0.25 – 0.28): CUDA graphs are
    /// captured after the KV cache is sized, outside the claimed fraction.
    V1,
    /// V0 engine, 0.6.5 – 0.10.0.
    V0,
    /// V0 engine, 0.6.4 and older: the CUDA context is counted inside the budget.
    V0Legacy,
}

impl VllmVersion {
    /// Every regime, newest first.
    pub const ALL: [VllmVersion; 4] = [
        VllmVersion::V1Graphs,
        VllmVersion::V1,
        VllmVersion::V0,
        VllmVersion::V0Legacy,
    ];

    /// Its scenario id.
    pub fn id(self) -> &'static str {
        match self {
            VllmVersion::V1Graphs => "v1-0.29",
            VllmVersion::V1 => "v1",
            VllmVersion::V0 => "v0",
            VllmVersion::V0Legacy => "v0-legacy",
        }
    }

    /// The regime of a scenario id.
    pub fn from_id(id: &str) -> Option<VllmVersion> {
        VllmVersion::ALL.into_iter().find(|v| v.id() == id)
    }

    /// The releases it covers, as the page lists them.
    pub fn releases(self) -> &'static str {
        match self {
            VllmVersion::V1Graphs => "V1 (0.29+)",
            VllmVersion::V1 => "V1 (0.8 – 0.28)",
            VllmVersion::V0 => "V0 (0.6.5 – 0.10)",
            VllmVersion::V0Legacy => "V0 (≤ 0.6.4)",
        }
    }

    /// The V1 engine (either regime of its CUDA graphs).
    fn v1(self) -> bool {
        matches!(self, VllmVersion::V1Graphs | VllmVersion::V1)
    }
}

/// vLLM settings, named as its flags.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vllm {
    /// `--gpu-memory-utilization` (default 0.9).
    #[serde(default = "default_util")]
    pub gpu_memory_utilization: f64,
    /// `--max-model-len` (default: the workload's context).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_model_len: Option<u32>,
    /// `--max-num-seqs` (default 256).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_num_seqs: Option<u32>,
    /// `--max-num-batched-tokens` (default per version, see the module doc).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_num_batched_tokens: Option<u32>,
    /// `--tensor-parallel-size` (default: the number of cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tensor_parallel_size: Option<u32>,
    /// `--kv-cache-dtype`: `auto` (the model dtype) or `fp8`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_cache_dtype: Option<String>,
    /// Engine generation.
    #[serde(default)]
    pub version: VllmVersion,
    /// `--enforce-eager`: no CUDA graphs.
    #[serde(default)]
    pub enforce_eager: bool,
    /// `--max-lora-rank` with `--enable-lora` (absent: LoRA off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lora_rank: Option<u32>,
    /// `--max-loras` (default 1): adapter slots kept on the GPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_loras: Option<u32>,
    /// `--mamba-cache-dtype` (hybrid models' convolution state): `auto` (the model dtype),
    /// `float32`, `float16`, `bfloat16`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mamba_cache_dtype: Option<String>,
    /// `--mamba-ssm-cache-dtype` (hybrid models' SSM state): `auto` (as the convolution state, or
    /// the checkpoint's for Qwen3.5 / Nemotron-H), `float32`, `float16`, `bfloat16`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mamba_ssm_cache_dtype: Option<String>,
    /// `--kv-cache-memory` (vLLM PR #21489): the KV cache's bytes per GPU, set directly. vLLM then
    /// ignores `gpu_memory_utilization` (`gpu_worker.py::determine_available_memory` runs the
    /// profile and returns these bytes), so the engine no longer sizes its own pool and the
    /// card's headroom applies as for any engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_cache_memory_bytes: Option<u64>,
}

fn default_util() -> f64 {
    0.9
}

impl Default for Vllm {
    fn default() -> Vllm {
        Vllm {
            gpu_memory_utilization: default_util(),
            max_model_len: None,
            max_num_seqs: None,
            max_num_batched_tokens: None,
            tensor_parallel_size: None,
            kv_cache_dtype: None,
            version: VllmVersion::V1Graphs,
            enforce_eager: false,
            max_lora_rank: None,
            max_loras: None,
            mamba_cache_dtype: None,
            mamba_ssm_cache_dtype: None,
            kv_cache_memory_bytes: None,
        }
    }
}

/// vLLM's default `max_num_seqs`.
pub const DEFAULT_MAX_NUM_SEQS: u32 = 256;
/// Tokens per KV block.
pub const BLOCK_TOKENS: u64 = 16;

impl Vllm {
    /// `max_model_len`, defaulting to the workload's context.
    pub fn max_model_len(&self, inp: &BudgetInputs) -> u64 {
        self.max_model_len.map_or(inp.context_tokens, u64::from)
    }

    /// `max_num_batched_tokens` as the scheduler resolves it.
    pub fn batched_tokens(&self, inp: &BudgetInputs) -> u64 {
        let len = self.max_model_len(inp);
        match (self.max_num_batched_tokens, self.version) {
            (Some(t), _) => u64::from(t),
            (None, v) if v.v1() => 8192,
            (None, _) if len > 32768 => 2048,
            (None, _) => len.max(2048),
        }
    }

    /// The KV cache element format (`auto` = the model's compute dtype).
    pub fn kv_format(&self, inp: &BudgetInputs) -> KvCacheFormat {
        match self.kv_cache_dtype.as_deref() {
            Some(s) if s.starts_with("fp8") => KvCacheFormat::Fp8,
            _ => inp.kv_cache,
        }
    }

    /// How vLLM stores a hybrid model's recurrent states (see the module doc).
    pub fn state_storage(&self, inp: &BudgetInputs) -> StateStorage {
        let model = StateStorage::model_dtype(inp.arch, inp.weights.compute_bytes());
        let conv_bytes = dtype_bytes(self.mamba_cache_dtype.as_deref()).unwrap_or(model.conv_bytes);
        let ssm_bytes = match dtype_bytes(self.mamba_ssm_cache_dtype.as_deref()) {
            Some(b) => b,
            // `auto`: as the convolution state, unless the checkpoint asks for fp32.
            None if model.ssm_bytes > model.conv_bytes => model.ssm_bytes,
            None => conv_bytes,
        };
        StateStorage {
            full_window: false,
            conv_bytes,
            ssm_bytes,
        }
    }
}

/// Bytes per element of a `--mamba-cache-dtype` value; `None` for `auto` or absent.
fn dtype_bytes(name: Option<&str>) -> Option<u64> {
    match name? {
        "float32" => Some(4),
        "float16" | "bfloat16" => Some(2),
        _ => None,
    }
}

/// V0's `VllmConfig.pad_for_cudagraph`: a batch padded to the captured size above it (1, 2, 4,
/// then multiples of 8 up to 512); unchanged with `--enforce-eager` or beyond the largest.
pub fn pad_for_cudagraph(seqs: u64, enforce_eager: bool) -> u64 {
    match seqs {
        _ if enforce_eager => seqs,
        0..=2 => seqs,
        3..=4 => 4,
        5..=512 => round_up(seqs, 8),
        _ => seqs,
    }
}

/// V1's unified pages for a hybrid model (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HybridPages {
    /// Tokens per attention block (raised so one page holds a layer's state).
    pub block_tokens: u64,
    /// Bytes of one page (one block of one layer), attention and state alike.
    pub page_bytes: u64,
    /// One layer's state before padding to the page.
    pub state_bytes: u64,
    /// Layers per group `G`.
    pub group_size: u64,
    /// Attention groups.
    pub attention_groups: u64,
    /// Recurrent groups.
    pub recurrent_groups: u64,
}

impl HybridPages {
    /// The pages of `a` on one GPU of a `tp`-way group, with `kv_bits` per cached element and
    /// states stored as `storage`; `None` without recurrent layers.
    pub fn new(
        a: &ModelArch,
        tp: u64,
        kv_bits: u64,
        storage: StateStorage,
        gpu: Option<GpuArch>,
    ) -> Option<HybridPages> {
        let r = a.recurrent()?;
        let n_rec = a.recurrent_layers_in(0, a.layers);
        if n_rec == 0 {
            return None;
        }
        let n_attn = u64::from(a.self_attention_layers());
        let token = mul(a.kv_elements_per_token_layer(tp), kv_bits)
            .div_ceil(8)
            .max(1);
        let state = kv_cache::state_per_layer(&r, tp, storage).max(1);
        // FlashInfer on Blackwell does not take 16-token blocks with head size 256.
        let align = if gpu == Some(GpuArch::Blackwell) && a.head_dim == 256 {
            32
        } else {
            16
        };
        let block_tokens = if n_attn == 0 {
            0
        } else {
            mul(align, state.div_ceil(mul(align, token)))
        };
        let page_bytes = if n_attn == 0 {
            state
        } else {
            mul(block_tokens, token)
        };
        let (lo, hi) = if n_attn == 0 {
            (n_rec, n_rec)
        } else {
            (n_attn.min(n_rec), n_attn.max(n_rec))
        };
        // `max < 1.5 · min` → the larger count.
        let group_size = if 2 * hi < 3 * lo { hi } else { lo };
        Some(HybridPages {
            block_tokens,
            page_bytes,
            state_bytes: state,
            group_size,
            attention_groups: n_attn.div_ceil(group_size),
            recurrent_groups: n_rec.div_ceil(group_size),
        })
    }

    /// Blocks a pool of `pool` bytes holds: `pool / page / G`.
    pub fn num_blocks(&self, pool: u64) -> u64 {
        pool / self.page_bytes.max(1) / self.group_size.max(1)
    }

    /// The tokens vLLM prints for `num_blocks`: `num_blocks / groups × block`.
    pub fn tokens(&self, num_blocks: u64) -> u64 {
        let groups = (self.attention_groups + self.recurrent_groups).max(1);
        mul(num_blocks / groups, self.block_tokens)
    }

    /// Blocks one request of `max_len` tokens takes: `⌈max_len / block⌉` per attention group and
    /// one per recurrent group.
    pub fn blocks_per_request(&self, max_len: u64) -> u64 {
        let attention = if self.block_tokens == 0 {
            0
        } else {
            mul(self.attention_groups, max_len.div_ceil(self.block_tokens))
        };
        add(attention, self.recurrent_groups).max(1)
    }

    /// Bytes of the states of `requests` running requests (one block per recurrent group, each
    /// block a page in each of the `G` shared tensors).
    pub fn state_bytes_for(&self, requests: u64) -> u64 {
        prod(&[
            requests,
            self.recurrent_groups,
            self.group_size,
            self.page_bytes,
        ])
    }
}

/// Bytes of one LoRA slot of rank `r` (bf16), as `lora/layers.py::create_lora_weights` allocates
/// them inside the weight-loading measurement: per layer, an `A` (`r × in`) and a `B` (`out × r`)
/// for each slice of q/k/v, o, gate/up and down: `r · (7H + 2q + 2kv + 3I)` elements.
pub fn lora_slots(inp: &BudgetInputs, r: u64) -> u64 {
    let a = inp.arch;
    let h = u64::from(a.hidden);
    let q = mul(u64::from(a.heads), u64::from(a.head_dim));
    let kv = mul(u64::from(a.kv_heads), u64::from(a.head_dim));
    let i = u64::from(a.intermediate);
    let width = sum([mul(7, h), mul(2, q), mul(2, kv), mul(3, i)]);
    prod(&[u64::from(a.layers), r, width, 2])
}

/// V1 profiles a vision tower by encoding as many dummy images as the encoder budget
/// (`max_num_batched_tokens` image tokens) holds and keeps their outputs in the encoder cache
/// while the language model's dummy run executes (`gpu_model_runner.py::profile_run`): `items ×
/// tokens_per_image × H × b`, plus the dummy `pixel_values` in fp32 (one 14 × 14 × 3 patch per image
/// token). V0 profiles without the encoder cache.
fn encoder_cache(v: &Vllm, inp: &BudgetInputs, batched_tokens: u64) -> u64 {
    match (v.version, inp.arch.vision) {
        (version, Some(vision)) if version.v1() && vision.tokens_per_image > 0 => {
            let per_image = u64::from(vision.tokens_per_image);
            let items = batched_tokens / per_image;
            let b = inp.weights.compute_bytes();
            let width = add(mul(u64::from(inp.arch.hidden), b), 14 * 14 * 3 * 4);
            prod(&[items, per_image, width])
        }
        _ => 0,
    }
}

/// The rotary `cos_sin_cache` (one per model, `get_rope` caches it): `positions × rotary_dim × b`
/// with MLA's rope width (`qk_rope_head_dim`) and Qwen2-VL / Qwen2.5-VL's 4 × positions
/// (`MRotaryEmbedding.__init__`).
pub fn rotary_cache(a: &ModelArch, b: u64) -> u64 {
    let dim = a
        .mla
        .map_or(u64::from(a.head_dim), |m| u64::from(m.qk_rope_head_dim));
    let mrope = a.family == Family::Qwen2 && a.vision.is_some();
    let positions = u64::from(a.max_position).saturating_mul(if mrope { 4 } else { 1 });
    positions.saturating_mul(dim).saturating_mul(b)
}

/// The 16-bit copy of a quantised MLA `kv_b_proj` on one GPU (`W_UK_T` and `W_UV`, built by
/// `MLACommonImpl.process_weights_after_loading` through `get_and_maybe_dequant_weights`).
pub fn mla_dequantized_kv_b(a: &ModelArch, format: WeightFormat, tp: u64, b: u64) -> u64 {
    match a.mla {
        Some(m) if format.is_quantized() && format != WeightFormat::Mxfp4 => {
            let per_head = u64::from(m.qk_nope_head_dim) + u64::from(m.v_head_dim);
            u64::from(a.layers)
                .saturating_mul(shard(u64::from(a.heads), tp))
                .saturating_mul(per_head)
                .saturating_mul(u64::from(m.kv_lora_rank))
                .saturating_mul(b)
        }
        _ => 0,
    }
}

/// Extra bytes per GPU of MXFP4 experts padded to the MoE kernel's tiles
/// (`mxfp4.py::Mxfp4MoEMethod.create_weights` and `get_mxfp4_backend`): the per-GPU intermediate
/// width `I / tp` is rounded up to 64 with the Triton kernels (Hopper, the default; also an
/// unknown card), to 128 with the hidden width to 256 with Marlin (Ampere and Ada, which the
/// Triton kernels do not support), and both to 256 with FlashInfer (Blackwell). Packed weights
/// take half a byte and one E8M0 scale per 32 elements; `w13_bias` (2·I) and `w2_bias` (hidden)
/// are bf16.
pub fn mxfp4_padding(a: &ModelArch, format: WeightFormat, tp: u64, gpu: Option<GpuArch>) -> u64 {
    let Some(m) = a.moe.filter(|_| format == WeightFormat::Mxfp4) else {
        return 0;
    };
    let (i_align, h_align) = match gpu {
        Some(GpuArch::Blackwell) => (256, 256),
        Some(GpuArch::Ampere | GpuArch::Ada) => (128, 256),
        _ => (64, 1),
    };
    let bytes = |i: u64, h: u64| {
        let n = i.saturating_mul(h);
        let weights = n
            .div_ceil(2)
            .saturating_add(n.div_ceil(32))
            .saturating_mul(3);
        let bias = if m.expert_bias {
            i.saturating_mul(2).saturating_add(h).saturating_mul(2)
        } else {
            0
        };
        weights.saturating_add(bias)
    };
    let h = u64::from(a.hidden);
    let i = shard(u64::from(m.expert_intermediate), tp);
    let per_expert = bytes(round_up(i, i_align), round_up(h, h_align)).saturating_sub(bytes(i, h));
    let moe_layers = (0..a.layers).filter(|&l| a.is_moe_layer(l)).count() as u64;
    per_expert
        .saturating_mul(u64::from(m.experts))
        .saturating_mul(moe_layers)
}

/// One GPU's budget under vLLM.
pub fn vllm_budget(v: &Vllm, inp: &BudgetInputs, card: &Card) -> GpuBudget {
    let tp = inp.tp();
    let a = inp.arch;
    let b = inp.weights.compute_bytes();
    let (weights, _) = inp.footprint.get(tp);
    let weights = weights
        .saturating_add(weights::vocab_padding(a, tp, b))
        .saturating_add(rotary_cache(a, b))
        .saturating_add(mla_dequantized_kv_b(a, inp.weights, tp, b))
        .saturating_add(mxfp4_padding(a, inp.weights, tp, inp.gpu_arch));
    let lora = v.max_lora_rank.map_or(0, |r| {
        div(
            mul(
                lora_slots(inp, u64::from(r)),
                u64::from(v.max_loras.unwrap_or(1).max(1)),
            ),
            tp,
        )
    });

    let max_len = v.max_model_len(inp);
    let seqs = u64::from(v.max_num_seqs.unwrap_or(DEFAULT_MAX_NUM_SEQS));
    let tokens = v.batched_tokens(inp);
    let profile_seqs = if v.version.v1() {
        seqs.min(tokens)
    } else {
        seqs
    };
    let activation = sum([
        activations::peak(inp, tp, tokens, profile_seqs),
        runtime::cublas_workspace(inp.gpu_arch),
        encoder_cache(v, inp, tokens),
    ]);

    let bnb = matches!(
        inp.weights,
        WeightFormat::BnbInt8 | WeightFormat::BnbNf4 { .. } | WeightFormat::BnbFp4 { .. }
    );
    let context = inp.cuda_context_bytes;
    // The non-torch overheads vLLM attributes to itself (kernel images loaded after its baseline,
    // library handles; bitsandbytes' own; V1's extra): fitted, equal to the calibration's logged
    // non-torch memory of the cases of each kind, which its table marks as such.
    let (overhead, context_inside) = match v.version {
        VllmVersion::V0Legacy => (0, true),
        VllmVersion::V0 => (GIB / 100 + if bnb { GIB * 7 / 100 } else { 0 }, false),
        VllmVersion::V1 | VllmVersion::V1Graphs => (
            GIB / 100 + GIB * 6 / 100 + if bnb { GIB * 7 / 100 } else { 0 },
            false,
        ),
    };
    let nccl = if tp > 1 {
        2 * runtime::communication_buffers(inp.tensor_parallel) + runtime::CUSTOM_ALL_REDUCE_BYTES
    } else {
        0
    };
    // A proposer loads with the target, before the profile run (`GPUModelRunner.load_model`
    // loads the drafter), so its weights are outside the pool.
    let draft_weights = inp.draft.map_or(0, |d| d.weights_per_gpu(tp));
    let used_before_kv = sum([
        weights,
        draft_weights,
        lora,
        activation,
        overhead,
        nccl,
        if context_inside { context } else { 0 },
    ]);
    let kv_format = v.kv_format(inp);
    let storage = v.state_storage(inp);
    let pages = if v.version.v1() {
        HybridPages::new(a, tp, kv_format.bits(), storage, inp.gpu_arch)
    } else {
        None
    };
    // V0 allocates the states of `pad_for_cudagraph(max_num_seqs)` requests in the profile run.
    let v0_states = if v.version.v1() {
        0
    } else {
        mul(
            kv_cache::state_per_sequence(a, tp, storage),
            pad_for_cudagraph(seqs, v.enforce_eager),
        )
    };
    let used_before_kv = add(used_before_kv, v0_states);
    // What the engine claims: its fraction of the card, or with `--kv-cache-memory` what the
    // profile run measured plus exactly the bytes asked for the pool.
    let budget = match v.kv_cache_memory_bytes {
        Some(b) => add(used_before_kv, b),
        None => fraction_of(card.capacity_bytes, v.gpu_memory_utilization),
    };
    let graphs = if v.enforce_eager {
        0
    } else {
        let cap = if v.version.v1() { 512 } else { 256 };
        prod(&[
            seqs.min(cap),
            u64::from(a.layers),
            8,
            u64::from(a.hidden),
            b,
        ])
    };
    // From 0.29 (V1 runner models from 0.20) the graphs' memory is estimated before the pool is
    // sized and taken from the claimed fraction; the estimate is this figure (vLLM's own
    // extrapolation from two captures can be several times it: the calibration notes list
    // cases). `--kv-cache-memory` and `--enforce-eager` leave the graphs outside.
    let graphs_inside = v.version == VllmVersion::V1Graphs && v.kv_cache_memory_bytes.is_none();
    let used_before_kv = if graphs_inside {
        add(used_before_kv, graphs)
    } else {
        used_before_kv
    };
    let per_token = kv_cache::per_sequence(a, 1, tp, kv_format.bits()).max(1);
    let mut kv_bytes = budget.saturating_sub(used_before_kv);
    // Sliding-window layers cost at most `window` tokens per request: spread over max_model_len.
    let per_request = kv_cache::per_sequence(a, max_len, tp, kv_format.bits()).max(1);
    // The proposer's attention layers take their KV cache from the same pool, for the same
    // tokens (their specs join the KV cache config): the pool is shared in proportion to what
    // one token costs each.
    let draft_kv = inp.draft.map_or(0, |d| {
        let d_per_token = d.kv_per_token(tp, kv_format.bits()) as f64;
        let t_per_token = per_request as f64 / max_len.max(1) as f64;
        (kv_bytes as f64 * d_per_token / (d_per_token + t_per_token)) as u64
    });
    kv_bytes -= draft_kv.min(kv_bytes);
    // The block size is at least 16 bytes: `mul` saturates where the product would wrap to 0.
    let mut kv_tokens = if per_request >= mul(per_token, max_len) {
        kv_bytes / mul(BLOCK_TOKENS, per_token) * BLOCK_TOKENS
    } else {
        from_u128(u128::from(kv_bytes) * u128::from(max_len) / u128::from(per_request))
            / BLOCK_TOKENS
            * BLOCK_TOKENS
    };
    let mut max_concurrency = ratio(kv_tokens, max_len);
    let mut state_bytes = v0_states;
    if let Some(p) = pages {
        // One pool: the states of the running requests come out of it.
        let blocks = p.num_blocks(kv_bytes);
        kv_tokens = p.tokens(blocks);
        max_concurrency = blocks as f64 / p.blocks_per_request(max_len) as f64;
        let running = seqs
            .min(inp.sequences.max(1))
            .min(blocks / p.recurrent_groups.max(1));
        state_bytes = p.state_bytes_for(running).min(kv_bytes);
        kv_bytes -= state_bytes;
    }
    let failure = if budget <= used_before_kv {
        Some(StartFailure::NoRoomForKvCache)
    } else if match pages {
        // `_check_enough_kv_cache_memory` over the groups: one request's blocks must fit.
        Some(_) => max_concurrency < 1.0,
        None => kv_tokens < max_len,
    } {
        Some(StartFailure::MaxModelLenTooLong {
            kv_tokens,
            max_model_len: max_len,
        })
    } else if add(budget, if context_inside { 0 } else { context }) > card.capacity_bytes {
        Some(StartFailure::BudgetExceedsFreeMemory)
    } else {
        None
    };
    let (ctx_component, overhead_component) = if context_inside {
        (context, 0)
    } else {
        (context, overhead)
    };
    GpuBudget {
        components: components(&[
            (ComponentId::Weights, weights),
            (ComponentId::DraftWeights, draft_weights),
            (ComponentId::LoraAdapters, lora),
            (ComponentId::KvCache, kv_bytes),
            (ComponentId::DraftKvCache, draft_kv),
            (ComponentId::RecurrentState, state_bytes),
            (ComponentId::Activations, activation),
            (ComponentId::CudaContext, ctx_component),
            (ComponentId::EngineOverhead, overhead_component),
            (ComponentId::CommunicationBuffers, nccl),
            (ComponentId::CudaGraphs, graphs),
        ]),
        report: Some(KvReport {
            kv_cache_bytes: kv_bytes,
            kv_cache_tokens: kv_tokens,
            max_concurrency,
            budget_bytes: Some(budget),
            state_bytes,
            estimated_inside: if graphs_inside { graphs } else { 0 },
        }),
        host_bytes: 0,
        failure,
        preallocates: true,
        phase: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::catalog;

    fn arch(id: &str) -> &'static ModelArch {
        &catalog::model(id).expect("in catalog").arch
    }

    #[test]
    fn rotary_cache_width_and_positions() {
        // DeepSeek V3: the rope covers qk_rope_head_dim = 64 of 163,840 positions, bf16.
        assert_eq!(rotary_cache(arch("deepseek-v3"), 2), 163_840 * 64 * 2);
        // Qwen2.5-VL: MRotaryEmbedding keeps 4 × 128,000 positions of the 128-wide head.
        assert_eq!(
            rotary_cache(arch("qwen2.5-vl-7b-instruct"), 2),
            4 * 128_000 * 128 * 2
        );
        // A plain model: max_position × head_dim (32 MiB for Llama 3.1 8B, as vLLM logs).
        assert_eq!(
            rotary_cache(arch("llama-3.1-8b-instruct"), 2),
            131_072 * 128 * 2
        );
    }

    #[test]
    fn mla_keeps_a_16_bit_kv_b_only_when_quantised() {
        // DeepSeek V3 FP8 at tp 8: 61 layers × 16 heads × (128 + 128) × 512 × 2 B.
        let a = arch("deepseek-v3");
        assert_eq!(
            mla_dequantized_kv_b(a, WeightFormat::Fp8Block, 8, 2),
            61 * 16 * 256 * 512 * 2
        );
        assert_eq!(mla_dequantized_kv_b(a, WeightFormat::Bf16, 8, 2), 0);
        assert_eq!(
            mla_dequantized_kv_b(arch("llama-3.1-8b-instruct"), WeightFormat::Fp8, 1, 2),
            0
        );
    }

    #[test]
    fn mxfp4_experts_padded_per_gpu() {
        // gpt-oss-120b (128 experts of 2880 in 36 layers, hidden 2880).
        let a = arch("gpt-oss-120b");
        let f = WeightFormat::Mxfp4;
        let hopper = Some(GpuArch::Hopper);
        // One GPU: 2880 is a multiple of 64, nothing to pad on Hopper.
        assert_eq!(mxfp4_padding(a, f, 1, hopper), 0);
        // tp 4: 720 → 768 per GPU; per expert 48 × 2880 elements at 17/32 B each, three
        // matrices, plus 2 × 48 bf16 bias entries.
        assert_eq!(mxfp4_padding(a, f, 4, hopper), 1_016_119_296);
        assert_eq!(mxfp4_padding(a, f, 4, None), 1_016_119_296);
        // Marlin (Ampere): 720 → 768 and the hidden width 2880 → 3072.
        assert_eq!(mxfp4_padding(a, f, 4, Some(GpuArch::Ampere)), 2_100_805_632);
        // Not MXFP4: nothing.
        assert_eq!(mxfp4_padding(a, WeightFormat::Bf16, 4, hopper), 0);
    }
}
