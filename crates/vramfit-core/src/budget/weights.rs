//! Weights: every tensor of the architecture in its storage format (`format.rs`), split over the
//! GPUs of a tensor-parallel group.
//!
//! Tensor parallel (Megatron-style, as vLLM shards: `ColumnParallelLinear` splits the output rows of
//! q/k/v, gate/up, MLA up-projections and experts' gate/up; `RowParallelLinear` splits the input
//! columns of o, down and experts' down; `VocabParallelEmbedding` splits the vocabulary of the
//! embedding and head). K and V projections are replicated when there are fewer KV heads than GPUs
//! (each GPU keeps one head); norms, routers (`ReplicatedLinear`) and the MLA down-projections
//! (`deepseek_v2.py`: `q_a_proj` / `kv_a_proj_with_mqa` are `ReplicatedLinear`, fused as
//! `fused_qkv_a_proj` with `disable_tp=True`) are replicated, as are the biases of row-parallel
//! projections (`RowParallelLinear` allocates its bias at the full output width). MoE experts
//! (`FusedMoE`) split their intermediate width over the GPUs, shared experts are ordinary
//! column/row-parallel MLPs. A vision tower is split like the text model except the parameters
//! its entry lists as `replicated` (patch and position tables, LayerNorms, row-parallel biases).
//! Quantisation groups run along the input, so a row-parallel shard keeps `groups / tp` of them.
//! Seeds' check: 7e9 params × 2 B = 14 GB; 13e9 × 2 B ≈ 24.2 GiB.

use super::{reserve, shard};
use crate::inputs::format::WeightFormat;
use crate::inputs::gguf;
#[cfg(test)]
use crate::inputs::model::under_any;
use crate::inputs::model::{ModelArch, ModulePatterns, Split, Tensor, TensorKind};
use crate::units::bytes::{add, mul, round_up};

/// Whether tensor parallelism splits this tensor's input columns (row-parallel) rather than its rows.
fn splits_columns(kind: TensorKind) -> bool {
    matches!(
        kind,
        TensorKind::AttnOutput
            | TensorKind::FfnDown
            | TensorKind::FfnDownExps
            | TensorKind::FfnDownShexp
            | TensorKind::SsmOut
    )
}

/// Rows of a KV-head-split block one GPU holds: `⌈kv_heads / tp⌉` heads' worth, i.e.
/// `max(1, kv_heads / tp)` when the heads divide evenly or are replicated
/// (`linear.py::QKVParallelLinear`: `num_kv_heads = max(1, total_num_kv_heads // tp_size)`).
/// A layer's own KV heads count (Gemma 4's global layers, `ModelArch::attention_shape`).
fn kv_shard(rows: u64, arch: &ModelArch, layer: Option<u32>, tp: u64) -> u64 {
    let heads = layer.map_or(arch.kv_heads, |i| arch.attention_shape(i).1);
    let kv = u64::from(heads.max(1));
    (rows / kv).saturating_mul(shard(kv, tp))
}

/// The part of `t` one GPU of a `tp`-way group holds.
pub fn shard_tensor(t: &Tensor, arch: &ModelArch, tp: u64) -> Tensor {
    match t.split {
        Split::Replicated => *t,
        Split::ByKvHead => Tensor {
            rows: kv_shard(t.rows, arch, t.layer, tp),
            ..*t
        },
        Split::Mixed {
            kv_rows,
            replicated_rows,
        } => {
            let kv_rows = kv_rows.min(t.rows);
            let replicated_rows = replicated_rows.min(t.rows - kv_rows);
            let split_rows = t.rows - kv_rows - replicated_rows;
            Tensor {
                rows: shard(split_rows, tp)
                    .saturating_add(kv_shard(kv_rows, arch, t.layer, tp))
                    .saturating_add(replicated_rows),
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
/// modules `unquantized` covers in 16 bit: `per_gpu_tensors` summed, without listing every
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
    let mut memo: Vec<((u8, u8), (u64, u64))> = Vec::new();
    for i in 0..arch.layers {
        let (b, r) = if unquantized.names_layer(i) {
            layer_cost(i)
        } else {
            let class = match format {
                WeightFormat::Gguf(_) => gguf::layer_class(i, arch.layers),
                _ => 0,
            };
            let key = (arch.layer_key(i), class);
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
/// This lists every layer; budgets use [`per_gpu`], and the tests check it against this.
#[cfg(test)]
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

/// Padding rows the serving engines add to the embedding (and the untied head) on one GPU of a
/// `tp`-way group, in bytes: each GPU holds `pad_vocab_size(vocab, 64) / tp` rows (vLLM and SGLang
/// `vocab_parallel_embedding.py::VocabParallelEmbedding.__init__`: `num_embeddings_per_partition
/// = divide(num_embeddings_padded, tp_size)`), the tensor list `⌈vocab / tp⌉`. `b`: bytes per
/// element of the (16-bit) tables.
pub fn vocab_padding(a: &ModelArch, tp: u64, b: u64) -> u64 {
    let vocab = u64::from(a.vocab);
    let padded_rows = round_up(vocab, 64).div_ceil(tp.max(1));
    let tables = if a.tied_embeddings { 1 } else { 2 };
    padded_rows
        .saturating_sub(shard(vocab, tp))
        .saturating_mul(u64::from(a.hidden))
        .saturating_mul(b)
        .saturating_mul(tables)
}

/// Total bytes of a list of tensor sizes (saturating).
#[cfg(test)]
pub fn total(tensors: &[u64]) -> u64 {
    crate::units::bytes::sum(tensors.iter().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::catalog;
    use crate::inputs::model::TensorKind;

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

    /// The per-GPU rows of the first tensor of `kind` (in layer 0 when per-layer).
    fn rows_on_gpu(id: &str, kind: TensorKind, tp: u64) -> u64 {
        let m = catalog::model(id).expect("in catalog");
        let t = m
            .arch
            .tensors()
            .into_iter()
            .find(|t| t.kind == kind && t.layer.is_none_or(|l| l == 0))
            .expect("tensor present");
        shard_tensor(&t, &m.arch, tp).rows
    }

    #[test]
    fn vision_towers_split_except_their_replicated_parameters() {
        // Qwen2.5-VL-7B at tp 2: the patch embedding, norms and row-parallel biases (1,673,984)
        // on both GPUs, half of the other 674,876,160 (`qwen2_5_vl.py`).
        assert_eq!(
            rows_on_gpu("qwen2.5-vl-7b-instruct", TensorKind::Vision, 2),
            1_673_984 + 337_438_080
        );
        // Llama 3.2 11B Vision at tp 4: the tile/position tables etc. (76,180,003) whole, a
        // quarter of the rest (`mllama.py`).
        assert_eq!(
            rows_on_gpu("llama-3.2-11b-vision-instruct", TensorKind::Vision, 4),
            76_180_003 + 204_720_896
        );
        // One GPU holds the whole tower.
        assert_eq!(
            rows_on_gpu("gemma-3-27b-it", TensorKind::Vision, 1),
            423_060_336
        );
    }

    #[test]
    fn attention_biases_follow_q_kv_and_row_parallel_layout() {
        // A Qwen2 layout with 16 query heads and 2 KV heads (Qwen2.5-3B): at tp 4 each GPU has
        // 4 query heads' bias (512) and one replicated KV head's k and v biases (2 × 128).
        let a = ModelArch::dense(
            crate::inputs::model::Family::Qwen2,
            36,
            2048,
            16,
            2,
            128,
            11008,
            151_936,
            true,
            32768,
        );
        let bias = a
            .tensors()
            .into_iter()
            .find(|t| t.kind == TensorKind::Bias && t.layer == Some(0))
            .expect("qkv bias");
        assert_eq!(shard_tensor(&bias, &a, 4).rows, 512 + 256);
        assert_eq!(shard_tensor(&bias, &a, 2).rows, 1024 + 256);
        // gpt-oss-120b at tp 8: q bias 4096/8 and 64/8 sinks, one KV head's k and v biases
        // (2 × 64), the o bias of the row-parallel o_proj whole (2880).
        assert_eq!(
            rows_on_gpu("gpt-oss-120b", TensorKind::Bias, 8),
            512 + 8 + 128 + 2880
        );
    }

    #[test]
    fn moe_and_mla_tensors_per_gpu() {
        // gpt-oss-120b at tp 4, per expert: w13 bias 2 × 2880 / 4, w2 bias 2880 whole.
        let m = catalog::model("gpt-oss-120b").expect("in catalog");
        let expert_bias = m
            .arch
            .tensors()
            .into_iter()
            .find(|t| t.kind == TensorKind::Bias && t.count > 1)
            .expect("expert bias");
        assert_eq!(shard_tensor(&expert_bias, &m.arch, 4).rows, 1440 + 2880);
        // Mixtral at tp 8: experts split along the intermediate (14336 / 8), router whole.
        assert_eq!(
            rows_on_gpu("mixtral-8x7b-instruct", TensorKind::FfnGateExps, 8),
            1792
        );
        assert_eq!(
            rows_on_gpu("mixtral-8x7b-instruct", TensorKind::Router, 8),
            8
        );
        // DeepSeek V3 at tp 8: q_a (1536) and kv_a_proj_with_mqa (512 + 64) replicated, kv_b
        // split by head (128 × 256 / 8).
        assert_eq!(rows_on_gpu("deepseek-v3", TensorKind::AttnQA, 8), 1536);
        assert_eq!(rows_on_gpu("deepseek-v3", TensorKind::AttnKvA, 8), 576);
        assert_eq!(rows_on_gpu("deepseek-v3", TensorKind::AttnKvB, 8), 4096);
        // Llama 3.1 70B at tp 16: 8 KV heads, so each GPU keeps one (128 rows of K).
        assert_eq!(
            rows_on_gpu("llama-3.1-70b-instruct", TensorKind::AttnK, 16),
            128
        );
        assert_eq!(
            rows_on_gpu("llama-3.1-70b-instruct", TensorKind::AttnK, 4),
            256
        );
    }

    #[test]
    fn vocabulary_padded_to_64_before_the_split() {
        // 100,000 rows pad to 100,032; at tp 4 each GPU holds 25,008 rows where the tensor list
        // has 25,000: 8 rows × 1024 × 2 B for the embedding and again for the untied head.
        let mut a = ModelArch::dense(
            crate::inputs::model::Family::Llama,
            2,
            1024,
            8,
            8,
            128,
            4096,
            100_000,
            false,
            4096,
        );
        assert_eq!(vocab_padding(&a, 4, 2), 8 * 1024 * 2 * 2);
        a.tied_embeddings = true;
        assert_eq!(vocab_padding(&a, 1, 2), 32 * 1024 * 2);
        a.vocab = 128_256;
        assert_eq!(vocab_padding(&a, 8, 2), 0);
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
