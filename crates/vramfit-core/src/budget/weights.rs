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

use super::{reserve, shard};
use crate::bytes::{add, mul, sum};
use crate::format::WeightFormat;
use crate::gguf;
use crate::model::{under_any, ModelArch, ModulePatterns, Split, Tensor, TensorKind};

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

/// Bytes of `t` on one GPU of a `tp`-way group, 16-bit when `unquantized` covers it.
fn gpu_bytes(
    t: &Tensor,
    arch: &ModelArch,
    format: WeightFormat,
    tp: u64,
    unquantized: &ModulePatterns,
) -> u64 {
    let f = if !unquantized.is_empty() && unquantized.covers(t) {
        WeightFormat::Bf16
    } else {
        format
    };
    f.tensor_bytes(&shard_tensor(t, arch, tp), arch)
}

/// (bytes, allocator rounding) of a list of tensors on one GPU.
fn cost(
    tensors: &[Tensor],
    arch: &ModelArch,
    format: WeightFormat,
    tp: u64,
    unquantized: &ModulePatterns,
) -> (u64, u64) {
    tensors.iter().fold((0, 0), |(b, r), t| {
        let bytes = gpu_bytes(t, arch, format, tp, unquantized);
        (add(b, bytes), add(r, reserve::waste(bytes)))
    })
}

/// The weights on one GPU of a `tp`-way group as (bytes, allocator rounding of each allocation),
/// modules `unquantized` covers in 16 bit: [`per_gpu_tensors`] summed, without listing every
/// layer. Layers of one kind (dense or MoE) with the same GGUF layer class and not singled out by
/// a pattern hold identical tensors, so each such kind is costed once and multiplied by its count;
/// the work is bounded by the kinds, not the depth.
pub fn per_gpu(
    arch: &ModelArch,
    format: WeightFormat,
    tp: u64,
    unquantized: &ModulePatterns,
) -> (u64, u64) {
    let (before, after) = arch.outer_tensors();
    let (mut bytes, mut rounding) = cost(&before, arch, format, tp, unquantized);
    let (b, r) = cost(&after, arch, format, tp, unquantized);
    (bytes, rounding) = (add(bytes, b), add(rounding, r));
    let layer_cost = |i: u32| cost(&arch.layer_tensors(i), arch, format, tp, unquantized);
    if !matches!(format, WeightFormat::Gguf(_)) && !unquantized.names_any_layer() {
        // Counted: the kinds of the whole stack, O(1) in the depth.
        for (i, n) in arch.layer_kinds(0, arch.layers) {
            let (b, r) = layer_cost(i);
            (bytes, rounding) = (add(bytes, mul(b, n)), add(rounding, mul(r, n)));
        }
        return (bytes, rounding);
    }
    // GGUF types depend on the block's class and patterns may single out layers: one cheap
    // look-up per layer, each distinct kind costed once.
    let mut memo: Vec<((bool, u8), (u64, u64))> = Vec::new();
    for i in 0..arch.layers {
        let (b, r) = if unquantized.names_layer(i) {
            layer_cost(i)
        } else {
            let class = match format {
                WeightFormat::Gguf(_) => gguf::layer_class(i, arch.layers),
                _ => 0,
            };
            let key = (arch.is_moe_layer(i), class);
            match memo.iter().find(|(k, _)| *k == key) {
                Some(&(_, c)) => c,
                None => {
                    let c = layer_cost(i);
                    memo.push((key, c));
                    c
                }
            }
        };
        (bytes, rounding) = (add(bytes, b), add(rounding, r));
    }
    (bytes, rounding)
}

/// Bytes of every tensor on one GPU (one entry per allocation, in load order). Modules listed in
/// `unquantized` (a checkpoint's `llm_int8_skip_modules` / `modules_to_not_convert`) stay 16-bit.
/// This lists every layer; budgets use [`per_gpu`].
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

/// Total bytes of a list of tensor sizes (saturating).
pub fn total(tensors: &[u64]) -> u64 {
    sum(tensors.iter().copied())
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

    /// Costing each layer kind once gives the tensor-by-tensor sum, for every format, model,
    /// tensor-parallel size and pattern list.
    #[test]
    fn per_gpu_equals_the_tensor_by_tensor_sum() {
        let patterns: Vec<Vec<String>> = vec![
            vec![],
            vec!["lm_head".into(), "model.layers.0.mlp".into()],
            vec!["layers".into()],
            vec!["layers.3.self_attn".into(), "layers.60.mlp.experts".into()],
        ];
        for id in [
            "llama-3.1-8b-instruct",
            "deepseek-v3",
            "gemma-3-27b-it",
            "gpt-oss-20b",
        ] {
            let arch = catalog::model(id).expect("in catalog").arch;
            for format in WeightFormat::all() {
                for tp in [1, 2, 8] {
                    for p in &patterns {
                        let tensors = per_gpu_tensors(&arch, format, tp, p);
                        let want = (total(&tensors), reserve::weight_rounding(&tensors));
                        let got = per_gpu(&arch, format, tp, &ModulePatterns::new(p));
                        assert_eq!(got, want, "{id} {} tp {tp} {p:?}", format.id());
                    }
                }
            }
        }
    }

    #[test]
    fn int4_keeps_embeddings_16_bit() {
        let m = catalog::model("llama-3.1-8b-instruct").expect("in catalog");
        let w = total(&per_gpu_tensors(&m.arch, WeightFormat::Int4, 1, &[]));
        let embed_and_head = 2 * 128_256 * 4096 * 2;
        assert!(w > embed_and_head && w < 6_000_000_000);
    }
}
