//! SGLang: weights + KV pool ≈ `mem_fraction_static × free memory before loading` (traced in
//! `python/sglang/srt/model_executor/model_runner.py`).
//!
//! - `model_runner.py::profile_max_num_token` (2024–2025; `kv_cache_configurator.py::
//!   _profile_available_bytes` since 2026): `rest = free_after_weights − free_before·(1 − mfs)`, so
//!   the pool is `mfs · free_before − weights`, where `free_before` is the card minus the CUDA
//!   context and NCCL (measured after `init_torch_distributed`).
//! - Cell size per token: `layers · kv_heads/tp · (head_dim + v_head_dim) · dtype` (MLA:
//!   `layers · (kv_lora_rank + qk_rope_head_dim) · dtype`); tokens = `pool // cell`.
//! - Default `mem_fraction_static` (`server_args.py`, 2025-09 regime): `(mem − reserved) / mem` with
//!   reserved = 2.8 + TP/10 GiB below 35 GiB cards, 9.5 + TP/2 below 90, 12 + TP/2 below 160, else
//!   32 GiB. Default `chunked_prefill_size`: 2048 below 35 GiB, 8192 below 160, else 16384.
//! - Outside the static part: the chunked-prefill activations, CUDA graphs (as for vLLM, batch
//!   capped at 256), and the `req_to_token` pool: int32 `(max_num_reqs + 1) × (context_len + 4)`,
//!   `max_num_reqs = min(max(tokens / context_len · 512, 2048), 4096)` unless
//!   `--max-running-requests` is set.

use super::{fraction_of, ratio};
use crate::budget::Card;
use crate::budget::{activations, components, kv_cache, runtime, BudgetInputs, ComponentId};
use crate::budget::{GpuBudget, KvReport, StartFailure};
use crate::bytes::{add, mul, prod, GIB};
use crate::precision::Precision;
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
}

/// The default `mem_fraction_static` for a card of `capacity` bytes and `tp` GPUs.
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
    ((mem - reserved) / mem).clamp(0.0, 1.0)
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
    let context = inp.cuda_context_bytes;
    let nccl = if tp > 1 {
        2 * runtime::communication_buffers(inp.tensor_parallel)
    } else {
        0
    };
    let free_before = card.capacity_bytes.saturating_sub(add(context, nccl));
    let mfs = s
        .mem_fraction_static
        .unwrap_or_else(|| default_mem_fraction(card.capacity_bytes, tp));
    let static_bytes = fraction_of(free_before, mfs);
    let pool = static_bytes.saturating_sub(weights);
    let kv_format = match s.kv_cache_dtype.as_deref() {
        Some(d) if d.starts_with("fp8") => Precision::Fp8,
        _ => inp.kv_cache,
    };
    let cell = kv_cache::per_sequence(a, 1, tp, kv_format.bits()).max(1);
    let tokens = pool / cell;
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
    let req_pool = prod(&[4, add(max_reqs, 1), add(context_len, 4)]);
    let graphs = prod(&[
        running.min(256),
        u64::from(a.layers),
        8,
        u64::from(a.hidden),
        inp.weights.compute_bytes(),
    ]);
    let failure = if pool == 0 {
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
            (ComponentId::KvCache, pool),
            (ComponentId::Activations, activation),
            (ComponentId::CudaContext, context),
            (ComponentId::CommunicationBuffers, nccl),
            (ComponentId::CudaGraphs, graphs),
            (ComponentId::RequestPool, req_pool),
        ]),
        report: Some(KvReport {
            kv_cache_bytes: pool,
            kv_cache_tokens: tokens,
            max_concurrency: ratio(tokens, context_len),
            budget_bytes: Some(static_bytes),
        }),
        host_bytes: 0,
        failure,
        preallocates: true,
        phase: None,
    }
}
