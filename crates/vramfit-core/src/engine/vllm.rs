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

use super::{fraction_of, ratio};
use crate::budget::Card;
use crate::budget::{
    activations, components, kv_cache, runtime, weights, BudgetInputs, ComponentId,
};
use crate::budget::{shard, GpuBudget, KvReport, StartFailure};
use crate::bytes::{add, div, from_u128, mul, prod, round_up, sum, GIB};
use crate::catalog::GpuArch;
use crate::format::WeightFormat;
use crate::kv_format::KvCacheFormat;
use crate::model::{Family, ModelArch};
use serde::{Deserialize, Serialize};

/// Which profiler regime (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VllmVersion {
    /// V1 engine (0.8 – 0.10+, the default since 0.8).
    #[default]
    V1,
    /// V0 engine, 0.6.5 – 0.10.0.
    V0,
    /// V0 engine, 0.6.4 and older: the CUDA context is counted inside the budget.
    V0Legacy,
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
            version: VllmVersion::V1,
            enforce_eager: false,
            max_lora_rank: None,
            max_loras: None,
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
            (None, VllmVersion::V1) => 8192,
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
        (VllmVersion::V1, Some(vision)) if vision.tokens_per_image > 0 => {
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
    let profile_seqs = match v.version {
        VllmVersion::V1 => seqs.min(tokens),
        _ => seqs,
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
    let (overhead, context_inside) = match v.version {
        VllmVersion::V0Legacy => (0, true),
        VllmVersion::V0 => (GIB / 100 + if bnb { GIB * 7 / 100 } else { 0 }, false),
        VllmVersion::V1 => (
            GIB / 100 + GIB * 6 / 100 + if bnb { GIB * 7 / 100 } else { 0 },
            false,
        ),
    };
    let nccl = if tp > 1 {
        2 * runtime::communication_buffers(inp.tensor_parallel) + runtime::CUSTOM_ALL_REDUCE_BYTES
    } else {
        0
    };
    let budget = fraction_of(card.capacity_bytes, v.gpu_memory_utilization);
    let used_before_kv = sum([
        weights,
        lora,
        activation,
        overhead,
        nccl,
        if context_inside { context } else { 0 },
    ]);
    let kv_format = v.kv_format(inp);
    let per_token = kv_cache::per_sequence(a, 1, tp, kv_format.bits()).max(1);
    let kv_bytes = budget.saturating_sub(used_before_kv);
    // Sliding-window layers cost at most `window` tokens per request: spread over max_model_len.
    let per_request = kv_cache::per_sequence(a, max_len, tp, kv_format.bits()).max(1);
    // The block size is at least 16 bytes: `mul` saturates where the product would wrap to 0.
    let kv_tokens = if per_request >= mul(per_token, max_len) {
        kv_bytes / mul(BLOCK_TOKENS, per_token) * BLOCK_TOKENS
    } else {
        from_u128(u128::from(kv_bytes) * u128::from(max_len) / u128::from(per_request))
            / BLOCK_TOKENS
            * BLOCK_TOKENS
    };
    let graphs = if v.enforce_eager {
        0
    } else {
        let cap = match v.version {
            VllmVersion::V1 => 512,
            _ => 256,
        };
        prod(&[
            seqs.min(cap),
            u64::from(a.layers),
            8,
            u64::from(a.hidden),
            b,
        ])
    };
    let failure = if budget <= used_before_kv {
        Some(StartFailure::NoRoomForKvCache)
    } else if kv_tokens < max_len {
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
            (ComponentId::LoraAdapters, lora),
            (ComponentId::KvCache, kv_bytes),
            (ComponentId::Activations, activation),
            (ComponentId::CudaContext, ctx_component),
            (ComponentId::EngineOverhead, overhead_component),
            (ComponentId::CommunicationBuffers, nccl),
            (ComponentId::CudaGraphs, graphs),
        ]),
        report: Some(KvReport {
            kv_cache_bytes: kv_bytes,
            kv_cache_tokens: kv_tokens,
            max_concurrency: ratio(kv_tokens, max_len),
            budget_bytes: Some(budget),
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
    use crate::catalog;

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
