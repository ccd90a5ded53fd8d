//! KV cache: the keys and values of every token of every active sequence.
//!
//! Per layer and token: `2 × kv_heads × head_dim` elements (per GPU: ⌈kv_heads / tp⌉ heads), or
//! for MLA the compressed latent plus the rotary key, `kv_lora_rank + qk_rope_head_dim`, which
//! tensor parallelism does not split (vLLM `CacheEngine.get_cache_block_size`, its MLA branch).
//! Global layers keep the whole context; sliding-window layers keep at most `window` tokens (vLLM
//! V1's hybrid KV cache manager, HF `DynamicSlidingWindowLayer`); Llama 3.2 Vision's
//! cross-attention layers cache the image tokens, not the text.
//!
//! `bytes = Σ_layers elements × tokens_held(layer) × sequences × cache bytes`.

use super::BudgetInputs;
use crate::bytes::{from_u128, mul};
use crate::model::ModelArch;

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
    let (global, local) = layer_split(arch);
    let window = arch.sliding_window.map_or(tokens, |w| u64::from(w.window));
    let cross = arch.vision.map_or(0, |v| {
        u128::from(v.cross_attention_layers) * u128::from(v.tokens_per_image)
    });
    let held = (u128::from(global) * u128::from(tokens))
        .saturating_add(u128::from(local) * u128::from(tokens.min(window)))
        .saturating_add(cross);
    let bits = per_layer
        .saturating_mul(held)
        .saturating_mul(u128::from(elem_bits));
    from_u128(bits.div_ceil(8))
}

/// KV cache bytes on one GPU of a `tp`-way group for the scenario's sequences × context.
pub fn bytes_per_gpu(inp: &BudgetInputs, tp: u64) -> u64 {
    mul(
        per_sequence(inp.arch, inp.context_tokens, tp, inp.kv_cache.bits()),
        inp.sequences,
    )
}

/// KV cache bytes per token of context for the whole model (all GPUs), counting every layer.
pub fn bytes_per_token(inp: &BudgetInputs) -> u64 {
    from_u128(
        (u128::from(inp.arch.kv_elements_per_token()) * u128::from(inp.kv_cache.bits()))
            .div_ceil(8),
    )
}
