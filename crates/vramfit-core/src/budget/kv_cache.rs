//! KV cache: the keys and values of every token of every active sequence.
//!
//! `bytes = layers × 2 × kv_heads × head_dim × cache bytes × context tokens × sequences`
//! (per GPU: ⌈kv_heads / tp⌉ heads). This is what HF `DynamicCache` holds at the end of a sequence
//! and what vLLM's paged cache needs to hold `sequences` full contexts
//! (`vllm/worker/cache_engine.py::CacheEngine.get_cache_block_size`: `2 · layers · kv_heads ·
//! head_dim · dtype_size` per token). GQA/MQA shrink it through `kv_heads`; sliding-window and
//! MLA caches are modelled with the architectures that have them.

use super::{shard, BudgetInputs};

/// KV cache bytes on one GPU of a `tp`-way group.
pub fn per_gpu(inp: &BudgetInputs, tp: u64) -> u64 {
    let arch = inp.arch;
    let heads = shard(u64::from(arch.kv_heads), tp);
    let per_token = 2 * u64::from(arch.layers) * heads * u64::from(arch.head_dim);
    inp.kv_cache
        .bytes_for(per_token * inp.context_tokens * inp.sequences)
}

/// KV cache bytes per token for the whole model (all GPUs together).
pub fn bytes_per_token(inp: &BudgetInputs) -> u64 {
    inp.kv_cache.bytes_for(inp.arch.kv_elements_per_token())
}
