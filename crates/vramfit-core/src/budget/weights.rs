//! Weights: every tensor of the architecture at its storage format, split over the GPUs.
//!
//! `bytes = Σ tensors numel × bits / 8`. Projections (`Linear`) take the chosen format; embeddings,
//! the untied `lm_head`, biases and norms stay 16-bit for the 8- and 4-bit formats — what GPTQ, AWQ,
//! bitsandbytes and FP8 checkpoints do (their quantisation configs skip these modules), and fp32
//! everywhere for fp32. The scales and zero points of real quantised formats are not counted here
//! (nominal formats; the real layouts are a separate format table).
//!
//! Tensor parallel (Megatron-style, as vLLM shards: `ColumnParallelLinear` / `RowParallelLinear`,
//! `VocabParallelEmbedding`): projections and the embedding / head split by `tp`; K and V
//! projections are replicated when there are fewer KV heads than GPUs (each GPU keeps one head);
//! norms are replicated. Seeds' check: 7e9 params × 2 B = 14 GB; 13e9 × 2 B ≈ 24.2 GiB.

use super::shard;
use crate::model::{ModelArch, Split, TensorRole};
use crate::precision::Precision;

/// One tensor as stored on one GPU: bytes of one instance, and instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredTensor {
    /// Bytes of one instance on this GPU.
    pub bytes: u64,
    /// Instances (layers).
    pub count: u64,
}

/// Storage format of a tensor of `role` when the model is stored in `format`.
pub fn format_of(role: TensorRole, format: Precision) -> Precision {
    match (role, format) {
        (TensorRole::Linear, f) => f,
        (_, Precision::Fp32) => Precision::Fp32,
        (_, Precision::Fp16) => Precision::Fp16,
        _ => Precision::Bf16,
    }
}

/// Every tensor of one GPU's shard, with its bytes.
pub fn per_gpu_tensors(arch: &ModelArch, format: Precision, tp: u64) -> Vec<StoredTensor> {
    let kv_heads = u64::from(arch.kv_heads);
    arch.tensors()
        .into_iter()
        .map(|t| {
            let numel = match t.split {
                Split::Replicated => t.numel,
                Split::ByGpu => shard(t.numel, tp),
                // Each GPU keeps ⌈kv_heads / tp⌉ heads (one replicated head when kv_heads < tp).
                Split::ByKvHead => t.numel / kv_heads * shard(kv_heads, tp),
            };
            StoredTensor {
                bytes: format_of(t.role, format).bytes_for(numel),
                count: t.count,
            }
        })
        .collect()
}

/// Total bytes of a list of stored tensors.
pub fn total(tensors: &[StoredTensor]) -> u64 {
    tensors.iter().map(|t| t.bytes * t.count).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn llama_8b_bf16_matches_vllm_log() {
        // vLLM logs 14.9888 GiB for Llama-3.1-8B, of which 32 MiB is its rotary cos/sin cache
        // (131072 × 128 × 2 B); the parameters alone are 8,030,261,248 × 2 B.
        let m = catalog::model("llama-3.1-8b-instruct").expect("in catalog");
        let w = total(&per_gpu_tensors(&m.arch, Precision::Bf16, 1));
        assert_eq!(w, 8_030_261_248 * 2);
        let w2 = total(&per_gpu_tensors(&m.arch, Precision::Bf16, 2));
        assert!(w2 > w / 2 && w2 < w / 2 + 1_000_000);
    }

    #[test]
    fn int4_keeps_embeddings_16_bit() {
        let m = catalog::model("llama-3.1-8b-instruct").expect("in catalog");
        let w = total(&per_gpu_tensors(&m.arch, Precision::Int4, 1));
        let embed_and_head = 2 * 128_256 * 4096 * 2;
        assert!(w > embed_and_head && w < 6_000_000_000);
    }
}
