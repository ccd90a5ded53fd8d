//! Weights: every tensor of the architecture in its storage format (`format.rs`), split over the
//! GPUs of a tensor-parallel group.
//!
//! Tensor parallel (Megatron-style, as vLLM shards: `ColumnParallelLinear` splits the output rows of
//! q/k/v, gate/up, MLA up-projections and experts' gate/up; `RowParallelLinear` splits the input
//! columns of o, down and experts' down; `VocabParallelEmbedding` splits the vocabulary of the
//! embedding and head). K and V projections are replicated when there are fewer KV heads than GPUs
//! (each GPU keeps one head); norms, routers, MLA down-projections and the vision tower are
//! replicated. Quantisation groups run along the input, so a row-parallel shard keeps
//! `groups / tp` of them. Seeds' check: 7e9 params × 2 B = 14 GB; 13e9 × 2 B ≈ 24.2 GiB.

use super::shard;
use crate::format::WeightFormat;
use crate::model::{under_any, ModelArch, Split, Tensor, TensorKind};

/// Whether tensor parallelism splits this tensor's input columns (row-parallel) rather than its rows.
fn splits_columns(kind: TensorKind) -> bool {
    matches!(
        kind,
        TensorKind::AttnOutput
            | TensorKind::FfnDown
            | TensorKind::FfnDownExps
            | TensorKind::FfnDownShexp
    )
}

/// The part of `t` one GPU of a `tp`-way group holds.
pub fn shard_tensor(t: &Tensor, arch: &ModelArch, tp: u64) -> Tensor {
    match t.split {
        Split::Replicated => *t,
        Split::ByKvHead => {
            let kv = u64::from(arch.kv_heads.max(1));
            Tensor {
                rows: t.rows / kv * shard(kv, tp),
                ..*t
            }
        }
        Split::ByGpu if splits_columns(t.kind) => Tensor {
            cols: shard(t.cols, tp),
            ..*t
        },
        Split::ByGpu => Tensor {
            rows: shard(t.rows, tp),
            ..*t
        },
    }
}

/// Bytes of every tensor on one GPU (one entry per allocation, in load order). Modules listed in
/// `unquantized` (a checkpoint's `llm_int8_skip_modules` / `modules_to_not_convert`) stay 16-bit.
pub fn per_gpu_tensors(
    arch: &ModelArch,
    format: WeightFormat,
    tp: u64,
    unquantized: &[String],
) -> Vec<u64> {
    arch.tensors()
        .iter()
        .map(|t| {
            let f = if !unquantized.is_empty() && under_any(&t.module_path(), unquantized) {
                WeightFormat::Bf16
            } else {
                format
            };
            f.tensor_bytes(&shard_tensor(t, arch, tp), arch)
        })
        .collect()
}

/// Total bytes of a list of tensor sizes.
pub fn total(tensors: &[u64]) -> u64 {
    tensors.iter().sum()
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
        let w = total(&per_gpu_tensors(&m.arch, WeightFormat::Bf16, 1, &[]));
        assert_eq!(w, 8_030_261_248 * 2);
        let w2 = total(&per_gpu_tensors(&m.arch, WeightFormat::Bf16, 2, &[]));
        assert!(w2 > w / 2 && w2 < w / 2 + 1_000_000);
    }

    #[test]
    fn int4_keeps_embeddings_16_bit() {
        let m = catalog::model("llama-3.1-8b-instruct").expect("in catalog");
        let w = total(&per_gpu_tensors(&m.arch, WeightFormat::Int4, 1, &[]));
        let embed_and_head = 2 * 128_256 * 4096 * 2;
        assert!(w > embed_and_head && w < 6_000_000_000);
    }
}
