//! SGLang: weights + KV pool ≈ `mem_fraction_static × free memory before loading` (traced in
//! `python/sglang/srt/model_executor/model_runner.py`).
//!
//! - `model_runner.py::profile_max_num_token` (2024–2025; `kv_cache_configurator.py::
//!   _profile_available_bytes` since 2026): `rest = free_after_weights − free_before·(1 − mfs)`, so
//!   the pool is `mfs · free_before − weights`. `free_before` is `min_per_gpu_memory` of
//!   `ModelRunner.init_torch_distributed`: `get_available_gpu_memory(distributed=True)`, the
//!   minimum over the ranks (all equal here), measured after `initialize_model_parallel`. By then
//!   a TP group holds one NCCL communicator (`PyNcclCommunicator.__init__` runs a warm-up
//!   all-reduce) and the custom all-reduce buffers; torch's `ProcessGroupNCCL` communicator is
//!   created lazily at its first collective (`parallel_state.py::init_distributed_environment`
//!   passes no `device_id` and runs no warm-up), after the pool is sized, so it sits outside the
//!   static part. Weights per GPU are the tensor-parallel split of `budget::weights` plus the
//!   vocabulary padded to 64 rows before the split (`VocabParallelEmbedding`, as in vLLM).
//! - Cell size per token: `layers · kv_heads/tp · (head_dim + v_head_dim) · dtype` (MLA:
//!   `layers · (kv_lora_rank + qk_rope_head_dim) · dtype`); tokens = `pool // cell`.
//! - Default `mem_fraction_static` (`server_args.py`, 2025-09 regime): `round((mem − reserved) /
//!   mem, 3)` with reserved = 2.8 + TP/10 GiB below 35 GiB cards, 9.5 + TP/2 below 90, 12 + TP/2
//!   below 160, else 32 GiB. Multimodal models then get `ServerArgs.adjust_mem_fraction_for_vlm`:
//!   the fraction times `0.95 × clamp(1 − 0.1 · (L·h² / (24 · 1024²) − 1), 0.8, 1.05)` with `L`
//!   and `h` the `vision_config`'s `num_hidden_layers` and `hidden_size` (24 and 1024 where the
//!   config has no such key). Default `chunked_prefill_size`: 2048 below 35 GiB, 8192 below 160,
//!   else 16384.
//! - Outside the static part: the chunked-prefill activations, CUDA graphs (as for vLLM, batch
//!   capped at 256), and the `req_to_token` pool: int32 `(max_num_reqs + 1) × (context_len + 4)`,
//!   `max_num_reqs = min(max(tokens / context_len · 512, 2048), 4096)` unless
//!   `--max-running-requests` is set.
//! - **Hybrid models** (`model_executor/model_runner_kv_cache_mixin.py::_handle_max_mamba_cache`):
//!   the recurrent states get their own pool of `max_mamba_cache_size` request slots, taken from
//!   the same static memory before the KV pool. Without `--max-mamba-cache-size` the slots are
//!   `⌊rest · r / (1 + r) / per_req⌋` with `r = --mamba-full-memory-ratio` (0.9), `rest` the static
//!   part less the weights; the KV pool is what remains and holds the attention layers' tokens
//!   only. `per_req` sums over the recurrent layers the convolution state `conv_dim/tp ×
//!   (d_conv − 1)` in bf16 and the SSM state `heads/tp × head_dim × state` in fp32
//!   (`configs/mamba_utils.py`: `CONV_DTYPE = torch.bfloat16`, the SSM dtype from
//!   `SGLANG_MAMBA_SSM_DTYPE`, `--mamba-ssm-dtype`, default `float32`). Requests are capped by the
//!   slots (`_resolve_max_num_reqs`).

use super::{fraction_of, ratio};
use crate::budget::kv_cache::StateStorage;
use crate::budget::Card;
use crate::budget::{
    activations, components, kv_cache, runtime, weights, BudgetInputs, ComponentId,
};
use crate::budget::{GpuBudget, KvReport, StartFailure};
use crate::inputs::kv_format::KvCacheFormat;
use crate::inputs::model::Vision;
use crate::units::bytes::{add, mul, prod, GIB};
use serde::{Deserialize, Serialize};

/// SGLang settings, named as its flags.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sglang {
    /// `--mem-fraction-static` (default: by card size, see the module doc).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mem_fraction_static: Option<f64>,
    /// `--context-length` (default: the workload's context).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_length: Option<u32>,
    /// `--chunked-prefill-size`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunked_prefill_size: Option<u32>,
    /// `--tp-size` (default: the number of cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tp_size: Option<u32>,
    /// `--kv-cache-dtype`: `auto` or `fp8_e4m3` / `fp8_e5m2`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_cache_dtype: Option<String>,
    /// `--max-running-requests`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_running_requests: Option<u32>,
    /// `--max-mamba-cache-size`: recurrent-state slots of a hybrid model (default: from the ratio).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_mamba_cache_size: Option<u32>,
    /// `--mamba-full-memory-ratio` (default 0.9): state pool over KV pool of a hybrid model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mamba_full_memory_ratio: Option<f64>,
}

/// SGLang's default `--mamba-full-memory-ratio`.
pub const DEFAULT_MAMBA_FULL_MEMORY_RATIO: f64 = 0.9;

/// How SGLang stores a recurrent state: the convolution state in bf16, the SSM state in fp32.
pub const STATE_STORAGE: StateStorage = StateStorage {
    full_window: false,
    conv_bytes: 2,
    ssm_bytes: 4,
};

/// The recurrent-state slots and their bytes on one GPU for a static part of `rest` bytes (after
/// the weights): `(slots, bytes)`; `(0, 0)` without recurrent layers.
pub fn mamba_slots(s: &Sglang, per_req: u64, rest: u64) -> (u64, u64) {
    if per_req == 0 {
        return (0, 0);
    }
    let slots = match s.max_mamba_cache_size {
        Some(n) => u64::from(n),
        None => {
            let r = s
                .mamba_full_memory_ratio
                .filter(|r| r.is_finite() && *r >= 0.0)
                .unwrap_or(DEFAULT_MAMBA_FULL_MEMORY_RATIO);
            (rest as f64 * r / (1.0 + r) / per_req as f64) as u64
        }
    };
    (slots, mul(slots, per_req))
}

/// The default `mem_fraction_static` for a card of `capacity` bytes and `tp` GPUs, rounded to three
/// decimals as `server_args.py` does.
pub fn default_mem_fraction(capacity: u64, tp: u64) -> f64 {
    let mem = capacity as f64 / GIB as f64;
    let tp = tp as f64;
    let reserved = if mem < 35.0 {
        2.8 + tp / 10.0
    } else if mem < 90.0 {
        9.5 + tp / 2.0
    } else if mem < 160.0 {
        12.0 + tp / 2.0
    } else {
        32.0
    };
    (((mem - reserved) / mem).clamp(0.0, 1.0) * 1000.0).round() / 1000.0
}

/// The factor `ServerArgs.adjust_mem_fraction_for_vlm` multiplies the default fraction by for a
/// multimodal model: `0.95 × clamp(1 − 0.1 · (complexity − 1), 0.8, 1.05)`, complexity =
/// `num_hidden_layers · hidden_size²` of the `vision_config` over ViT-L/14's `24 · 1024²`
/// (`getattr` defaults 24 and 1024 for keys the config lacks).
pub fn vlm_fraction_factor(vision: &Vision) -> f64 {
    let layers = if vision.config_layers == 0 {
        24.0
    } else {
        f64::from(vision.config_layers)
    };
    let hidden = if vision.config_hidden == 0 {
        1024.0
    } else {
        f64::from(vision.config_hidden)
    };
    let complexity = layers * hidden * hidden / (24.0 * 1024.0 * 1024.0);
    0.95 * (1.0 - 0.1 * (complexity - 1.0)).clamp(0.8, 1.05)
}

/// The default chunked prefill size for a card of `capacity` bytes.
pub fn default_chunk(capacity: u64) -> u64 {
    match capacity / GIB {
        0..=34 => 2048,
        35..=159 => 8192,
        _ => 16384,
    }
}

/// One GPU's budget under SGLang.
pub fn sglang_budget(s: &Sglang, inp: &BudgetInputs, card: &Card) -> GpuBudget {
    let tp = inp.tp();
    let a = inp.arch;
    let (weights, _) = inp.footprint.get(tp);
    let weights =
        weights.saturating_add(weights::vocab_padding(a, tp, inp.weights.compute_bytes()));
    let context = inp.cuda_context_bytes;
    // Before `min_per_gpu_memory`: PyNccl's communicator and the custom all-reduce buffers; torch's
    // communicator comes later, outside the static part.
    let (nccl_before, nccl_after) = if tp > 1 {
        let comm = runtime::communication_buffers(inp.tensor_parallel);
        (comm.saturating_add(runtime::CUSTOM_ALL_REDUCE_BYTES), comm)
    } else {
        (0, 0)
    };
    let nccl = nccl_before.saturating_add(nccl_after);
    let free_before = card
        .capacity_bytes
        .saturating_sub(context.saturating_add(nccl_before));
    let mfs = s.mem_fraction_static.unwrap_or_else(|| {
        let base = default_mem_fraction(card.capacity_bytes, tp);
        a.vision.map_or(base, |v| base * vlm_fraction_factor(&v))
    });
    let static_bytes = fraction_of(free_before, mfs);
    // The draft worker loads its model inside the static part and keeps its KV pool for the
    // same tokens as the target's (EAGLE / draft-model workers share the token allocator).
    let draft_weights = inp.draft.map_or(0, |d| d.weights_per_gpu(tp));
    let rest = static_bytes.saturating_sub(add(weights, draft_weights));
    let per_req = kv_cache::state_per_sequence(a, tp, STATE_STORAGE);
    let (slots, state_bytes) = mamba_slots(s, per_req, rest);
    let pool = rest.saturating_sub(state_bytes);
    let kv_format = match s.kv_cache_dtype.as_deref() {
        Some(d) if d.starts_with("fp8") => KvCacheFormat::Fp8,
        _ => inp.kv_cache,
    };
    let cell = kv_cache::per_sequence(a, 1, tp, kv_format.bits()).max(1);
    let draft_cell = inp
        .draft
        .map_or(0, |d| d.kv_per_token(tp, kv_format.bits()));
    let tokens = pool / add(cell, draft_cell);
    let draft_kv = mul(tokens, draft_cell);
    let pool = pool - draft_kv;
    let context_len = s.context_length.map_or(inp.context_tokens, u64::from);
    let chunk = s
        .chunked_prefill_size
        .map_or_else(|| default_chunk(card.capacity_bytes), u64::from);
    let running = s.max_running_requests.map_or(inp.sequences, u64::from);
    let activation = add(
        activations::peak(inp, tp, chunk, running.min(chunk)),
        runtime::cublas_workspace(inp.gpu_arch),
    );
    let max_reqs = s.max_running_requests.map_or_else(
        || (mul(tokens, 512) / context_len.max(1)).clamp(2048, 4096),
        u64::from,
    );
    // A hybrid model runs at most as many requests as it has state slots.
    let max_reqs = if per_req > 0 {
        max_reqs.min(slots)
    } else {
        max_reqs
    };
    let req_pool = prod(&[4, add(max_reqs, 1), add(context_len, 4)]);
    let graphs = prod(&[
        running.min(256),
        u64::from(a.layers),
        8,
        u64::from(a.hidden),
        inp.weights.compute_bytes(),
    ]);
    let failure = if pool == 0 || (per_req > 0 && slots == 0) {
        Some(StartFailure::NoRoomForKvCache)
    } else if tokens < context_len {
        Some(StartFailure::MaxModelLenTooLong {
            kv_tokens: tokens,
            max_model_len: context_len,
        })
    } else {
        None
    };
    GpuBudget {
        components: components(&[
            (ComponentId::Weights, weights),
            (ComponentId::DraftWeights, draft_weights),
            (ComponentId::KvCache, pool),
            (ComponentId::DraftKvCache, draft_kv),
            (ComponentId::RecurrentState, state_bytes),
            (ComponentId::Activations, activation),
            (ComponentId::CudaContext, context),
            (ComponentId::CommunicationBuffers, nccl),
            (ComponentId::CudaGraphs, graphs),
            (ComponentId::RequestPool, req_pool),
        ]),
        report: Some(KvReport {
            kv_cache_bytes: pool,
            kv_cache_tokens: tokens,
            max_concurrency: if per_req > 0 {
                ratio(tokens, context_len).min(slots as f64)
            } else {
                ratio(tokens, context_len)
            },
            budget_bytes: Some(static_bytes),
            state_bytes,
            estimated_inside: 0,
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
    use crate::budget::{BudgetInputs, Footprint};
    use crate::inputs::catalog;
    use crate::inputs::format::WeightFormat;

    #[test]
    fn default_fraction_is_rounded_to_three_decimals() {
        // 79 GiB, one GPU: (79 − 10) / 79 = 0.87341… → 0.873.
        assert_eq!(default_mem_fraction(79 * GIB, 1), 0.873);
        // Four GPUs reserve 9.5 + 2 GiB: 67.5 / 79 = 0.85443… → 0.854.
        assert_eq!(default_mem_fraction(79 * GIB, 4), 0.854);
    }

    #[test]
    fn vlm_fraction_factor_per_tower() {
        let v = |layers, hidden| Vision {
            params: 1,
            tokens_per_image: 1,
            cross_attention_layers: 0,
            replicated: 0,
            config_layers: layers,
            config_hidden: hidden,
        };
        // ViT-L/14 (LLaVA): complexity 1, the base 0.95.
        assert!((vlm_fraction_factor(&v(24, 1024)) - 0.95).abs() < 1e-12);
        // Qwen2.5-VL: no `num_hidden_layers` key (24), hidden 1280: 0.95 × (1 − 0.05625).
        assert!((vlm_fraction_factor(&v(0, 1280)) - 0.896_562_5).abs() < 1e-12);
        // Gemma 3's SigLIP, 27 × 1152²: 0.95 × (1 − 0.042_382_812_5).
        assert!((vlm_fraction_factor(&v(27, 1152)) - 0.909_736_328_125).abs() < 1e-12);
        // Llama 4's 34 × 1408² ViT (complexity 2.678…): 0.95 × 0.832_161….
        assert!((vlm_fraction_factor(&v(34, 1408)) - 0.790_553_385_416_666_6).abs() < 1e-12);
    }

    /// Pool, static budget and communication buffers of a catalog model on `tp` cards.
    fn budget(id: &str, tp: u32, capacity: u64, s: &Sglang) -> (u64, u64, u64, u64) {
        let m = catalog::model(id).expect("in catalog");
        let footprint = Footprint::new(&m.arch, WeightFormat::Bf16, &[u64::from(tp)], &[]);
        let inp = BudgetInputs {
            arch: &m.arch,
            weights: WeightFormat::Bf16,
            footprint: &footprint,
            kv_cache: KvCacheFormat::Bf16,
            context_tokens: 8192,
            sequences: 1,
            prefill_chunk_tokens: 8192,
            tensor_parallel: tp,
            gpu_arch: None,
            cuda_context_bytes: runtime::CUDA_CONTEXT_BYTES,
            draft: None,
            device_free: None,
        };
        let card = Card {
            gpu: None,
            capacity_bytes: capacity,
            arch: None,
            pcie_only: false,
        };
        let b = sglang_budget(s, &inp, &card);
        let report = b.report.expect("report");
        let get = |id| {
            b.components
                .iter()
                .find(|c| c.id == id)
                .map_or(0, |c| c.bytes)
        };
        (
            report.kv_cache_bytes,
            report.budget_bytes.unwrap_or(0),
            get(ComponentId::CommunicationBuffers),
            get(ComponentId::Weights),
        )
    }

    #[test]
    fn only_the_pynccl_communicator_precedes_the_measurement() {
        // Llama 3.1 70B on 4 × 80 GiB with mem_fraction_static 0.85: the static part is 0.85 of
        // the card less the CUDA context, PyNccl's buffers (688 MB) and the custom all-reduce
        // buffers (24 MiB); torch's communicator (another 688 MB) comes later.
        let s = Sglang {
            mem_fraction_static: Some(0.85),
            ..Sglang::default()
        };
        let cap = 80 * GIB;
        let (pool, static_bytes, comm, weights) = budget("llama-3.1-70b-instruct", 4, cap, &s);
        let free_before = cap - runtime::CUDA_CONTEXT_BYTES - 688_000_000 - 24 * 1024 * 1024;
        assert_eq!(static_bytes, (free_before as f64 * 0.85) as u64);
        assert_eq!(pool, static_bytes - weights);
        assert_eq!(comm, 2 * 688_000_000 + 24 * 1024 * 1024);
    }

    #[test]
    fn multimodal_models_get_the_reduced_default_fraction() {
        // Qwen2.5-VL-7B on one 80 GiB card: round((80 − 10) / 80, 3) × 0.896_562_5.
        let cap = 80 * GIB;
        let (_, static_bytes, _, _) = budget("qwen2.5-vl-7b-instruct", 1, cap, &Sglang::default());
        let free_before = cap - runtime::CUDA_CONTEXT_BYTES;
        let mfs = 0.875 * 0.896_562_5;
        assert_eq!(static_bytes, (free_before as f64 * mfs) as u64);
    }
}
