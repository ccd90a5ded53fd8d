//! Hugging Face Transformers `generate`: weights + a growing cache + one layer's working set
//! (traced in `src/transformers/cache_utils.py`,
//! `generation/utils.py`, `modeling_llama.py`, `integrations/sdpa_attention.py`).
//!
//! Two phases, the larger sets the peak (B = batch, s = prompt, T = prompt + new tokens, p = model
//! dtype bytes, h / h_kv heads, d head dim):
//! - **Prefill** (one forward over the whole prompt, no chunking): the prompt's cache
//!   `2·L·B·h_kv·d·s·p`, plus one layer's working set — MLP `3·B·s·I·p + 2·B·s·H·p`; attention with
//!   `sdpa` expands GQA keys/values with `repeat_kv` (`2·B·h·s·d·p`), `eager` materialises the
//!   scores `B·h·s²·(p + 4)` (fp32 softmax) — plus the last position's logits `B·V·(p + 4)`
//!   (`logits_to_keep = 1` since 4.45).
//! - **End of generation**: the full cache `2·L·B·h_kv·d·T·p`, the `torch.cat` transient of one
//!   layer (`DynamicLayer.update` allocates the T+1 tensor while the old one lives), `repeat_kv` of
//!   one layer's whole cache at each decode step, and the logits with the sampler's fp32 copies.
//!   A `static` cache is allocated at full length from the start (no transient).
//!
//! Hybrid models cache keys and values in their attention layers only (the transient and
//! `repeat_kv` are one attention layer's) and keep, per sequence and recurrent layer, a state
//! allocated once, whatever the length: Mamba-2 caches
//! (`modeling_bamba.py::HybridMambaAttentionDynamicCache`, shared by Granite 4.0-H, Nemotron-H and
//! Falcon-H1) hold the whole convolution window `conv_dim × d_conv` and the SSM state `heads ×
//! head_dim × d_state`, both in the model dtype; Qwen3-Next's `Qwen3NextDynamicCache` pads the
//! convolution input to the kernel (`conv_dim × d_conv`, model dtype) and keeps the recurrent state
//! the DeltaNet kernels return in fp32 (`torch_chunk_gated_delta_rule` computes in fp32).
//!
//! Plus the CUDA context, cuBLAS workspace and the allocator's segment rounding.

use crate::budget::kv_cache::StateStorage;
use crate::budget::{components, kv_cache, reserve, runtime, BudgetInputs, ComponentId};
use crate::budget::{GpuBudget, KvReport};
use crate::inputs::model::RecurrentKind;
use crate::units::bytes::{add, div, div_ceil, mul, prod, sum};
use serde::{Deserialize, Serialize};

/// `generate` settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transformers {
    /// Sequences generated together (batch × beams × return sequences; default: the workload's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_size: Option<u32>,
    /// `max_new_tokens` (default 256); the prompt is the rest of the context.
    #[serde(default = "default_new")]
    pub max_new_tokens: u32,
    /// `attn_implementation`.
    #[serde(default)]
    pub attn_implementation: AttnImplementation,
    /// `cache_implementation`.
    #[serde(default)]
    pub cache_implementation: CacheImplementation,
}

/// Transformers' `attn_implementation`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttnImplementation {
    /// `sdpa`: PyTorch's scaled-dot-product attention (the default); no scores kept.
    #[default]
    Sdpa,
    /// `eager`: the scores of every head are materialised.
    Eager,
    /// `flash_attention_2`: no scores kept.
    #[serde(rename = "flash_attention_2")]
    FlashAttention2,
}

impl AttnImplementation {
    /// Every implementation, the default first.
    pub const ALL: [AttnImplementation; 3] = [
        AttnImplementation::Sdpa,
        AttnImplementation::Eager,
        AttnImplementation::FlashAttention2,
    ];

    /// Its name, as `from_pretrained` takes it.
    pub fn id(self) -> &'static str {
        match self {
            AttnImplementation::Sdpa => "sdpa",
            AttnImplementation::Eager => "eager",
            AttnImplementation::FlashAttention2 => "flash_attention_2",
        }
    }

    /// The implementation of a name.
    pub fn from_id(id: &str) -> Option<AttnImplementation> {
        AttnImplementation::ALL.into_iter().find(|a| a.id() == id)
    }
}

/// Transformers' `cache_implementation`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheImplementation {
    /// `dynamic`: the cache grows with the tokens (the default).
    #[default]
    Dynamic,
    /// `static`: the cache is allocated for the whole length up front.
    Static,
}

impl CacheImplementation {
    /// Every implementation, the default first.
    pub const ALL: [CacheImplementation; 2] =
        [CacheImplementation::Dynamic, CacheImplementation::Static];

    /// Its name, as `generate` takes it.
    pub fn id(self) -> &'static str {
        match self {
            CacheImplementation::Dynamic => "dynamic",
            CacheImplementation::Static => "static",
        }
    }

    /// The implementation of a name.
    pub fn from_id(id: &str) -> Option<CacheImplementation> {
        CacheImplementation::ALL.into_iter().find(|c| c.id() == id)
    }
}

fn default_new() -> u32 {
    256
}

impl Default for Transformers {
    fn default() -> Transformers {
        Transformers {
            batch_size: None,
            max_new_tokens: default_new(),
            attn_implementation: AttnImplementation::Sdpa,
            cache_implementation: CacheImplementation::Dynamic,
        }
    }
}

/// The peak of `generate` on one GPU. With several GPUs `device_map="auto"` splits the layers:
/// weights and cache divide, the working set of a layer does not.
pub fn transformers_budget(t: &Transformers, inp: &BudgetInputs) -> GpuBudget {
    let a = inp.arch;
    let p = inp.weights.compute_bytes();
    let devices = inp.tp();
    let (weights, rounding) = inp.footprint.get(1);
    let weights = div_ceil(weights, devices);
    let batch = t.batch_size.map_or(inp.sequences, u64::from).max(1);
    let total = inp.context_tokens.max(1);
    let prompt = total.saturating_sub(u64::from(t.max_new_tokens)).max(1);
    let bits = inp.kv_cache.bits();
    let (h, i, v) = (
        u64::from(a.hidden),
        u64::from(a.intermediate),
        u64::from(a.vocab),
    );
    let (heads, d) = (u64::from(a.heads), u64::from(a.head_dim));
    let eager = t.attn_implementation == AttnImplementation::Eager;
    let is_static = t.cache_implementation == CacheImplementation::Static;
    let layer_kv = |tokens: u64| {
        div(
            mul(kv_cache::per_sequence(a, tokens, 1, bits), batch),
            u64::from(a.self_attention_layers().max(1)),
        )
    };
    let storage = StateStorage {
        full_window: true,
        conv_bytes: p,
        ssm_bytes: match a.recurrent().map(|r| r.kind) {
            Some(RecurrentKind::GatedDeltaNet) => 4,
            _ => p,
        },
    };
    let states = mul(kv_cache::state_per_sequence(a, 1, storage), batch);

    let mlp = add(
        prod(&[3, batch, prompt, i, p]),
        prod(&[2, batch, prompt, h, p]),
    );
    let attn = if eager {
        prod(&[batch, heads, prompt, prompt, p + 4])
    } else {
        prod(&[2, batch, heads, prompt, d, p])
    };
    let logits = prod(&[batch, v, p + 4]);
    let prefill_cache = if is_static {
        mul(kv_cache::per_sequence(a, total, 1, bits), batch)
    } else {
        mul(kv_cache::per_sequence(a, prompt, 1, bits), batch)
    };
    let prefill_work = add(mlp.max(attn), logits);

    let full_cache = mul(kv_cache::per_sequence(a, total, 1, bits), batch);
    let transient = if is_static { 0 } else { layer_kv(total) };
    let repeat = prod(&[2, batch, heads, total, d, p]);
    let decode_work = sum([transient, repeat, mul(2, logits)]);

    // The peak phase is the one with more bytes on one GPU: the cache is divided over the
    // devices, the working set is not (each device runs its layers' full-width activations), so
    // the choice is made on per-device figures, never on whole-model ones. A saturated cache
    // stays saturated rather than reading as a real size once divided.
    let per_device = |cache: u64| {
        if crate::units::bytes::is_saturated(cache) {
            cache
        } else {
            div_ceil(cache, devices)
        }
    };
    let (cache, working) = if add(per_device(prefill_cache), prefill_work)
        > add(per_device(full_cache), decode_work)
    {
        (per_device(prefill_cache), prefill_work)
    } else {
        (per_device(full_cache), decode_work)
    };
    GpuBudget {
        components: components(&[
            (ComponentId::Weights, weights),
            (ComponentId::KvCache, cache),
            (ComponentId::RecurrentState, div_ceil(states, devices)),
            (ComponentId::Activations, working),
            (ComponentId::CudaContext, inp.cuda_context_bytes),
            (
                ComponentId::CublasWorkspace,
                runtime::cublas_workspace(inp.gpu_arch),
            ),
            (
                ComponentId::AllocatorReserve,
                add(reserve::segments(), rounding),
            ),
        ]),
        report: Some(KvReport {
            kv_cache_bytes: full_cache,
            kv_cache_tokens: mul(total, batch),
            max_concurrency: batch as f64,
            budget_bytes: None,
            state_bytes: states,
            estimated_inside: 0,
        }),
        host_bytes: 0,
        failure: None,
        preallocates: false,
        phase: None,
    }
}
