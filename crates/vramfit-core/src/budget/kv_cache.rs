//! KV cache: the keys and values of every token of every active sequence.
//!
//! Per layer and token: `2 × kv_heads × head_dim` elements (per GPU: ⌈kv_heads / tp⌉ heads), or
//! for MLA the compressed latent plus the rotary key, `kv_lora_rank + qk_rope_head_dim`, which
//! tensor parallelism does not split (vLLM `CacheEngine.get_cache_block_size`, its MLA branch).
//! Gemma 4's global layers have their own KV heads and head width (`ModelArch::global_attention`).
//! Global layers keep the whole context; sliding-window layers keep at most `window` tokens (vLLM
//! V1's hybrid KV cache manager, HF `DynamicSlidingWindowLayer`); Llama 3.2 Vision's
//! cross-attention layers cache the image tokens, not the text.
//!
//! `bytes = Σ_layers elements × tokens_held(layer) × sequences × cache bytes`.
//!
//! Hybrid models cache keys and values in their attention layers only; each recurrent layer
//! (Mamba-2, gated DeltaNet) keeps instead a fixed-size state per sequence, whatever the context:
//! the last `d_conv − 1` inputs of its convolution channels and one `head_dim × state` matrix per
//! head ([`state_per_sequence`]). On one GPU of a `tp`-way group:
//! `conv_channels(tp) · (d_conv − 1) · conv bytes + heads/tp · head_dim · state · ssm bytes`
//! (vLLM `mamba_utils.py::MambaStateShapeCalculator.mamba2_state_shape` /
//! `gated_delta_net_state_shape`; llama.cpp `llama_hparams::n_embd_r` / `n_embd_s`). The element
//! types are the engine's ([`StateStorage`]): engine-neutral serving uses the model's dtype for
//! both, as vLLM does by default (`mamba_cache_dtype` / `mamba_ssm_cache_dtype` = `auto`,
//! `MambaStateDtypeCalculator._mamba_state_dtype`), and fp32 for the SSM state where the checkpoint
//! asks for it.

use super::BudgetInputs;
use crate::inputs::model::{ModelArch, Recurrent};
use crate::units::bytes::{from_u128, mul, prod};

/// How an engine stores a recurrent state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateStorage {
    /// Convolution inputs kept per channel: `d_conv − 1` (false: vLLM, SGLang, llama.cpp) or the
    /// whole window `d_conv` (true: Transformers' caches pad the window to the kernel).
    pub full_window: bool,
    /// Bytes per convolution-state element.
    pub conv_bytes: u64,
    /// Bytes per SSM / recurrent-state element.
    pub ssm_bytes: u64,
}

impl StateStorage {
    /// Both states in the model's compute dtype, the SSM state in fp32 where the checkpoint asks
    /// (`Recurrent::ssm_f32`): vLLM's default, and the engine-neutral estimate.
    pub fn model_dtype(arch: &ModelArch, compute_bytes: u64) -> StateStorage {
        let f32 = arch.recurrent().is_some_and(|r| r.ssm_f32);
        StateStorage {
            full_window: false,
            conv_bytes: compute_bytes,
            ssm_bytes: if f32 { 4 } else { compute_bytes },
        }
    }
}

/// Bytes of one recurrent layer's state for one sequence on one GPU of a `tp`-way group.
pub fn state_per_layer(r: &Recurrent, tp: u64, s: StateStorage) -> u64 {
    let rows = u64::from(r.conv_kernel).saturating_sub(u64::from(!s.full_window));
    prod(&[r.conv_channels(tp), rows, s.conv_bytes])
        .saturating_add(mul(r.ssm_elements(tp), s.ssm_bytes))
}

/// Recurrent state bytes of one sequence on one GPU of a `tp`-way group, every recurrent layer
/// (0 for a model without one). Constant in the context length.
pub fn state_per_sequence(arch: &ModelArch, tp: u64, s: StateStorage) -> u64 {
    state_in_layers(arch, 0, arch.layers, tp, s)
}

/// Recurrent state bytes of one sequence for the recurrent layers among `lo..hi`.
pub fn state_in_layers(arch: &ModelArch, lo: u32, hi: u32, tp: u64, s: StateStorage) -> u64 {
    arch.recurrent().map_or(0, |r| {
        mul(state_per_layer(&r, tp, s), arch.recurrent_layers_in(lo, hi))
    })
}

/// Recurrent state bytes on one GPU of a `tp`-way group for the scenario's sequences, in the
/// model's dtype ([`StateStorage::model_dtype`]).
pub fn state_bytes_per_gpu(inp: &BudgetInputs, tp: u64) -> u64 {
    let s = StateStorage::model_dtype(inp.arch, inp.weights.compute_bytes());
    mul(state_per_sequence(inp.arch, tp, s), inp.sequences)
}

/// Recurrent state bytes of one sequence for the whole model (all GPUs), in the model's dtype.
pub fn state_bytes_per_sequence(inp: &BudgetInputs) -> u64 {
    let s = StateStorage::model_dtype(inp.arch, inp.weights.compute_bytes());
    state_per_sequence(inp.arch, 1, s)
}

/// Layers of each kind among the self-attention layers: (global, local), counted.
pub fn layer_split(arch: &ModelArch) -> (u64, u64) {
    let n = arch.self_attention_layers();
    let local = arch.local_layers_in(0, n);
    (u64::from(n) - local, local)
}

/// Cache bytes one sequence of `tokens` tokens holds on one GPU of a `tp`-way group, with
/// `elem_bits` bits per cached element (exact in `u128`, saturating).
pub fn per_sequence(arch: &ModelArch, tokens: u64, tp: u64, elem_bits: u64) -> u64 {
    let per_layer = u128::from(arch.kv_elements_per_token_layer(tp));
    // Gemma 4's global layers cache their own shape (`ModelArch::global_attention`).
    let per_global = u128::from(arch.kv_elements_per_token_global_layer(tp));
    let (global, local) = layer_split(arch);
    let window = arch.sliding_window.map_or(tokens, |w| u64::from(w.window));
    let cross = arch.vision.map_or(0, |v| {
        u128::from(v.cross_attention_layers) * u128::from(v.tokens_per_image)
    });
    let held = (u128::from(local) * u128::from(tokens.min(window))).saturating_add(cross);
    let elements = per_layer
        .saturating_mul(held)
        .saturating_add(per_global.saturating_mul(u128::from(global) * u128::from(tokens)));
    let bits = elements.saturating_mul(u128::from(elem_bits));
    from_u128(bits.div_ceil(8))
}

/// KV cache bytes on one GPU of a `tp`-way group for the scenario's sequences × context.
pub fn bytes_per_gpu(inp: &BudgetInputs, tp: u64) -> u64 {
    mul(
        per_sequence(inp.arch, inp.context_tokens, tp, inp.kv_cache.bits()),
        inp.sequences,
    )
}

/// KV cache bytes one more token adds past the sliding window (the global layers' only), for
/// the whole model; `None` for a model without sliding-window layers.
pub fn bytes_per_token_past_window(inp: &BudgetInputs) -> Option<u64> {
    inp.arch
        .kv_elements_per_token_past_window()
        .map(|e| from_u128((u128::from(e) * u128::from(inp.kv_cache.bits())).div_ceil(8)))
}

/// KV cache bytes per token of context for the whole model (all GPUs), counting every layer.
pub fn bytes_per_token(inp: &BudgetInputs) -> u64 {
    from_u128(
        (u128::from(inp.arch.kv_elements_per_token()) * u128::from(inp.kv_cache.bits()))
            .div_ceil(8),
    )
}
