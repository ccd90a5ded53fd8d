//! Activations saved for backward, and the logits, per GPU.
//!
//! Per layer and token (bytes), b = micro-batch, s = sequence length, h hidden, q = heads·head_dim,
//! kv = KV heads·head_dim, I the MLP width, a heads, c the compute dtype's bytes, t = tensor
//! parallel (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
//! Models": `sbh(34 + 5as/h)` in 16 bit, re-derived for these layers):
//! - **Decoders** (pre-norm, SwiGLU, no dropout): `c·(5h + (2q + 2kv)/t + 4I/t)` — norm inputs and
//!   outputs, q/k/v, the attention output, gate, up, their activation and product; MoE layers keep
//!   `4·Ie` per routed expert a token visits plus the shared expert. With LoRA / QLoRA the frozen
//!   projections keep no input (autograd's `MmBackward` saves the input only for a weight that
//!   requires a gradient): the normed input of the attention stays only if an attention projection
//!   carries an adapter, the MLP's normed input only if gate / up do, the product only if down
//!   does, and each RMSNorm keeps the fp32 copy of its input that its `pow` and `mul` save (`8h`
//!   for the two; `lora_layer`, checked against a meta-device trace of transformers' Llama). Without
//!   a fused attention kernel the scores and their fp32 softmax add `a·s·(c + 4)/t`.
//! - **BERT encoders** (post-norm, GELU, dropout, eager attention; notes §2 from torch's saved
//!   tensors): fp32 `66h + 13as`, autocast `42h + 11as` (torch 1.10's op lists; with torch ≤ 1.9's,
//!   where GELU is on the fp32 list, `+ 2i` for the fp32 copy of its input it saves).
//! - **Checkpointing**: selective drops the attention-score term; full keeps each layer's input
//!   (`c·h`) through the forward and the loss's backward, and one layer recomputed in backward on
//!   top (`torch.compile` keeps only the matmul inputs of the recomputed layer:
//!   `c·(2h + q/t + I/t)`): the recomputed layer counts in `recompute`, not in `total` (a
//!   non-reentrant checkpoint's forward saves nothing inside the layer).
//! - With pipeline parallelism (1F1B) the first stage holds `pp` micro-batches of `L/pp` layers:
//!   all `L` layers' worth, so `pp` does not reduce this term.

use super::config::{Checkpointing, LoraTargets, Method, Train, TrainPrecision};
use crate::inputs::model::ModelArch;
use crate::units::bytes::{add, div, mul, prod, round_up, sub, sum, MIB};

/// Saved activations on one GPU: at the end of the forward, and at the peak of backward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Activations {
    /// Everything saved at the end of the forward pass.
    pub total: u64,
    /// What backward holds beside the growing gradients (one layer recomputed, checkpoints).
    pub recompute: u64,
}

fn compute_bytes(t: &Train) -> u64 {
    match t.precision {
        TrainPrecision::Fp32 => 4,
        _ => 2,
    }
}

/// Bytes per token of one decoder layer, without and with the attention-score term.
fn decoder_layer(a: &ModelArch, t: &Train, seq: u64) -> (u64, u64) {
    let tp = u64::from(t.tensor_parallel.max(1));
    let c = compute_bytes(t);
    let h = u64::from(a.hidden);
    let q = mul(u64::from(a.heads), u64::from(a.head_dim));
    let kv = mul(u64::from(a.kv_heads), u64::from(a.head_dim));
    let mlp = match a.moe {
        Some(m) => sum([
            prod(&[4, u64::from(m.expert_intermediate), u64::from(m.active)]),
            mul(4, u64::from(m.shared_intermediate)),
            u64::from(m.experts),
        ]),
        None => mul(4, u64::from(a.intermediate)),
    };
    let attention = div(add(mul(2, q), mul(2, kv)), tp);
    let base = match t.method {
        Method::Full => mul(c, sum([mul(5, h), attention, div(mlp, tp)])),
        Method::Lora | Method::Qlora => lora_layer(h, c, div(q, tp), attention, div(mlp, tp), t),
    };
    let scores = if t.flash_attention {
        0
    } else {
        div(prod(&[u64::from(a.heads), seq, c + 4]), tp)
    };
    (base, scores)
}

/// Bytes per token one decoder layer saves when its weights are frozen (LoRA / QLoRA), from the
/// saved tensors of a meta-device trace of transformers' `LlamaForCausalLM` with peft-style
/// adapters (`tools/trace/train_trace.py`, checked by `tests/tests/training_traces.rs`):
/// - **norms**: `LlamaRMSNorm.forward` runs `hidden_states.to(torch.float32)`, `pow(2)`, `mean`,
///   `rsqrt`, `hidden_states * rsqrt` in fp32: `pow` and that `mul` save the fp32 copy of the
///   input (4 bytes an element whatever the compute dtype), and with a frozen norm weight
///   `weight * hidden_states.to(input_dtype)` saves nothing new. Two norms: `8h` bytes.
/// - **adapted linears' inputs**: peft's `lora.Linear.forward` is `base_layer(x) +
///   lora_B(lora_A(dropout(x))) * scaling`; `lora_A`'s `MmBackward` saves `x` (one copy shared by
///   the projections reading it), while the frozen base (`nn.Linear`, or bitsandbytes
///   `MatMul4Bit`, which saves only the packed weight and dequantises again in backward) saves
///   none. So the attention's normed input (`c·h`) is kept because every target list adapts an
///   attention projection, the MLP's normed input (`c·h`) and the gate × up product (`c·I`, the
///   input of `down_proj`) only with MLP adapters; `o_proj`'s input is the attention output that
///   the kernel saves anyway.
/// - **attention and MLP**: q and k after RoPE, v, the attention output (flash saves all four),
///   gate, up and `silu(gate)` (saved by `silu` and the product): `c·(2q + 2kv + 3I)`.
///
/// - **adapter dropout** (`lora_dropout`): `nn.Dropout` in training runs CUDA's fused
///   `native_dropout` (`aten/src/ATen/native/cuda/Dropout.cu`: the output and a bool mask,
///   `empty_like(self, kBool)`, saved for `native_dropout_backward`), one per adapted linear, and
///   `lora_A` saves that output instead of `x`: `(c + 1)` bytes per input element per target (q,
///   k, v, gate, up read `h`, o reads `q`, down reads `I`), while the shared normed inputs and the
///   product are no longer kept by anyone.
///
/// Not counted: the adapters' rank-wide `lora_A` outputs (`c·r` per target), flash's fp32
/// log-sum-exp (`4a`) and the norms' `rsqrt` (4 bytes each), under 0.3 % of a layer.
fn lora_layer(h: u64, c: u64, q: u64, attention: u64, mlp: u64, t: &Train) -> u64 {
    let norms = mul(8, h);
    let all = t.lora_targets == LoraTargets::AllLinear;
    // gate, up and silu(gate): the product (down's input, mlp / 4) only if lora_A saves it.
    let mlp_kept = sub(mlp, mlp / 4);
    if t.lora_dropout {
        let inputs = match t.lora_targets {
            LoraTargets::QueryValue => mul(2, h),
            LoraTargets::QueryKeyValue => mul(3, h),
            LoraTargets::Attention => add(mul(3, h), q),
            LoraTargets::AllLinear => sum([mul(5, h), q, mlp / 4]),
        };
        return sum([norms, mul(c, add(attention, mlp_kept)), mul(c + 1, inputs)]);
    }
    let attention = mul(c, add(h, attention));
    let mlp = if all {
        mul(c, add(h, mlp))
    } else {
        // Without an MLP adapter neither the MLP's normed input nor the product is kept.
        mul(c, mlp_kept)
    };
    sum([norms, attention, mlp])
}

/// Saved activations for `batch` sequences of `seq` tokens.
pub fn saved(a: &ModelArch, t: &Train, batch: u64, seq: u64) -> Activations {
    let tokens = mul(batch, seq);
    let layers = u64::from(a.layers);
    let h = u64::from(a.hidden);
    let c = compute_bytes(t);
    let (per_layer, scores) = if a.family.is_encoder() {
        let heads = u64::from(a.heads);
        let fp32 = t.precision == TrainPrecision::Fp32;
        let (hk, sk) = if fp32 { (66, 13) } else { (42, 11) };
        let scores = if t.flash_attention {
            0
        } else {
            prod(&[sk, heads, seq])
        };
        // Torch ≤ 1.9's autocast runs GELU in fp32: it saves a 4-byte cast of its input where
        // torch 1.10 saves the 2-byte input itself (`autocast_gelu_fp32`).
        let gelu_fp32 = if !fp32 && t.autocast_gelu_fp32 {
            mul(2, u64::from(a.intermediate))
        } else {
            0
        };
        (add(mul(hk, h), gelu_fp32), scores)
    } else {
        decoder_layer(a, t, seq)
    };
    let kept = match t.checkpointing {
        Checkpointing::None => add(per_layer, scores),
        Checkpointing::Selective => per_layer,
        Checkpointing::Full => mul(c, h),
    };
    let recomputed_layer = if t.compiled && !a.family.is_encoder() {
        let tp = u64::from(t.tensor_parallel.max(1));
        let q = mul(u64::from(a.heads), u64::from(a.head_dim));
        mul(c, sum([mul(2, h), q / tp, u64::from(a.intermediate) / tp]))
    } else {
        add(per_layer, scores)
    };
    let embeddings = prod(&[2, c, h]);
    let stack = mul(layers, kept);
    match t.checkpointing {
        Checkpointing::Full => Activations {
            total: mul(tokens, add(stack, embeddings)),
            recompute: mul(tokens, add(stack, recomputed_layer)),
        },
        _ => Activations {
            total: mul(
                tokens,
                sub(add(stack, embeddings), frozen_first_layer(a, t)),
            ),
            recompute: mul(tokens, add(per_layer, scores)),
        },
    }
}

/// What the first decoder layer does not save, per token, when the embeddings are frozen
/// (LoRA / QLoRA) and the layer is not checkpointed: its input does not require a gradient, so
/// autograd records nothing for its input norm (no fp32 copy, `4h`), and with adapter dropout the
/// dropouts of the attention projections reading that norm's output keep no mask (`h` each). A
/// checkpointed layer keeps its input whatever it requires.
fn frozen_first_layer(a: &ModelArch, t: &Train) -> u64 {
    if t.method == Method::Full || a.family.is_encoder() || a.layers == 0 {
        return 0;
    }
    let h = u64::from(a.hidden);
    let masks = if t.lora_dropout {
        match t.lora_targets {
            LoraTargets::QueryValue => 2,
            _ => 3,
        }
    } else {
        0
    };
    mul(4 + masks, h)
}

/// Logits and loss buffers: `b·s·V/t` in the compute dtype, plus what the cross-entropy keeps.
/// Encoders with a classification head have only `b × labels` logits.
///
/// - Whole sequence (eager; transformers' `ForCausalLMLoss`: `logits.float()`, then
///   `F.cross_entropy`): the forward holds the logits, their fp32 upcast and the fp32 log-softmax
///   saved for backward (`_log_softmax`'s derivative reads `result`, torch
///   `tools/autograd/derivatives.yaml`) at once, `c + 8` bytes per logit; the model output (and
///   its logits) is dropped before backward (HF `Trainer.compute_loss` returns the loss alone),
///   and the first backward node then holds the saved log-softmax, `nll_loss_backward`'s fp32
///   gradient (`zeros_like` + scatter) and `_log_softmax_backward_data`'s fp32 result while every
///   activation is still saved: 12 bytes per logit, the larger (meta trace of
///   `tools/trace/train_trace.py`). Compiled without chunks: `c + 8` (not traced).
/// - Chunked (torchtune `CEWithChunkedOutputLoss`, eight chunks of tokens), eager: each chunk's
///   upcast lives only through its log-softmax, but every chunk's fp32 log-softmax stays saved
///   until backward: `c + 4` per logit, plus one chunk's upcast.
/// - Chunked and compiled (`training.compile_loss` compiles `compute_cross_entropy`): Inductor
///   fuses the upcast into the log-softmax reductions and saves only the 16-bit chunk and a
///   per-token log-sum-exp, and backward writes each chunk's gradient straight in 16 bit: the
///   logits plus one chunk's gradient. This is what makes chunking pay, as the class's own doc
///   says ("the CE and upcasting have to be compiled together").
pub fn logits(a: &ModelArch, t: &Train, batch: u64, seq: u64) -> u64 {
    if a.family.is_encoder() {
        return mul(batch, 2 * 4);
    }
    let elements = logit_elements(a, t, batch, seq);
    let c = compute_bytes(t);
    match (t.chunked_loss, t.compiled) {
        (true, true) => add(mul(elements, c), div(mul(elements, c), LOSS_CHUNKS)),
        (true, false) => add(mul(elements, c + 4), div(mul(elements, 4), LOSS_CHUNKS)),
        (false, false) => mul(elements, 12),
        (false, true) => mul(elements, c + 8),
    }
}

/// The segment the eager, whole-sequence cross-entropy's backward leaves cached beside the next
/// forward's peak, counted in the allocator reserve: one fp32 block of the logits, `4·b·s·V/t`
/// rounded to 2 MiB.
///
/// The caching allocator serves each request from the smallest cached free block at least as large
/// (`c10/cuda/CUDACachingAllocator.cpp`, `malloc` → `get_free_block`, best fit) or else opens a
/// segment of the request's size rounded to 2 MiB (`alloc_block`, requests of 10 MiB and more),
/// and keeps every segment reserved (nothing goes back to the driver unless a request fails). With
/// `e = b·s·V/t` logits in the 16-bit compute dtype (`c = 2`):
/// - forward: transformers' `logits.float()` (`4e`) and `_log_softmax`'s fp32 result (`4e`, saved
///   for backward: its derivative reads `result`, `tools/autograd/derivatives.yaml`) are live with
///   the 16-bit logits (`2e`), each larger than any block the forward freed: three segments;
///   `nll_loss` keeps only a scalar, and the upcast and the 16-bit logits are freed;
/// - backward: `nll_loss_backward` writes a zeroed fp32 gradient (`4e`), which best fit places in
///   the upcast's freed block; `_log_softmax_backward_data` writes its fp32 result (`4e`) while the
///   saved log-softmax and that gradient are live, and the only free block left is the 16-bit
///   logits' (`2e`, too small): a fourth segment. The 16-bit gradient the LM head reads (`2e`)
///   then takes the logits' block.
///
/// Every later step repeats these requests into the same four segments, so at the forward's end
/// (the 16-bit logits, the upcast and the saved log-softmax live: what [`logits`] counts) the
/// fourth, `_log_softmax_backward_data`'s, is reserved and idle. Nothing when the logits are fp32
/// (the second gradient fits the logits' freed block exactly), with torchtune's chunked loss (one
/// chunk's blocks, reused chunk after chunk), for encoders (a classification head's `b × labels`
/// logits) or when the fp32 block is under 10 MiB (it shares the 20 MiB segments other requests
/// reuse).
pub fn cached_loss_segment(a: &ModelArch, t: &Train, batch: u64, seq: u64) -> u64 {
    if a.family.is_encoder() || t.chunked_loss || compute_bytes(t) >= 4 {
        return 0;
    }
    let block = round_up(mul(logit_elements(a, t, batch, seq), 4), 2 * MIB);
    if block < 10 * MIB {
        return 0;
    }
    block
}

/// The chunks torchtune's `CEWithChunkedOutputLoss` splits the tokens into (`num_output_chunks`).
const LOSS_CHUNKS: u64 = 8;

/// Logits on one GPU: `b·s·V/t`.
fn logit_elements(a: &ModelArch, t: &Train, batch: u64, seq: u64) -> u64 {
    div(
        prod(&[batch, seq, u64::from(a.vocab)]),
        u64::from(t.tensor_parallel.max(1)),
    )
}

/// The largest single block the forward or backward allocates and frees before the optimizer
/// step (what a step's temporary could reuse): the fp32 attention probabilities of one layer
/// without a fused kernel, or one logits tensor (per chunk with chunked cross-entropy) with its
/// fp32 upcast.
pub fn largest_block(a: &ModelArch, t: &Train, batch: u64, seq: u64) -> u64 {
    let tp = u64::from(t.tensor_parallel.max(1));
    let scores = if t.flash_attention {
        0
    } else {
        div(prod(&[4, batch, u64::from(a.heads), seq, seq]), tp)
    };
    let logits = if a.family.is_encoder() {
        0
    } else {
        // One chunk (or the whole batch), 16-bit when a compiled loss never upcasts it whole.
        let chunks = if t.chunked_loss { LOSS_CHUNKS } else { 1 };
        let bytes = if t.chunked_loss && t.compiled {
            compute_bytes(t)
        } else {
            4
        };
        mul(div(logit_elements(a, t, batch, seq), chunks), bytes)
    };
    scores.max(logits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::catalog;

    #[test]
    fn frozen_projections_save_less_and_checkpointing_saves_least() {
        let a = catalog::model("llama-3.1-8b-instruct")
            .expect("catalog")
            .arch;
        let full = Train::default();
        let lora = Train {
            method: Method::Lora,
            ..Train::default()
        };
        let ckpt = Train {
            checkpointing: Checkpointing::Full,
            ..Train::default()
        };
        let f = saved(&a, &full, 2, 2048).total;
        let l = saved(&a, &lora, 2, 2048).total;
        let c = saved(&a, &ckpt, 2, 2048).total;
        assert!(l < f && c < l, "{f} {l} {c}");
        // Eager attention adds the s² scores.
        let eager = Train {
            flash_attention: false,
            ..Train::default()
        };
        assert!(saved(&a, &eager, 2, 2048).total > f);
    }

    /// Llama 3.2 1B, 8 × 512 tokens, 128,256-entry vocabulary (S13): 525.3 M logits, whose fp32
    /// gradient is 2,004 MiB.
    #[test]
    fn the_eager_loss_leaves_one_fp32_logits_segment_cached() {
        let a = catalog::model("llama-3.2-1b-instruct")
            .expect("catalog")
            .arch;
        let bf16 = Train::default();
        assert_eq!(cached_loss_segment(&a, &bf16, 8, 512), 2_004 * MIB);
        // Autocast computes the logits in 16 bit too; compiled, unchunked: the same eager loss.
        for t in [
            Train {
                precision: TrainPrecision::AmpFp16,
                ..Train::default()
            },
            Train {
                compiled: true,
                ..Train::default()
            },
            Train {
                method: Method::Qlora,
                ..Train::default()
            },
        ] {
            assert_eq!(cached_loss_segment(&a, &t, 8, 512), 2_004 * MIB);
        }
        // Tensor parallel splits the vocabulary: half the block.
        let tp2 = Train {
            tensor_parallel: 2,
            ..Train::default()
        };
        assert_eq!(cached_loss_segment(&a, &tp2, 8, 512), 1_002 * MIB);
        // Saturating on absurd sizes.
        assert!(cached_loss_segment(&a, &bf16, u64::MAX, 2) >= u64::MAX / 2);
    }

    #[test]
    fn no_cached_loss_segment_where_the_loss_reuses_its_blocks() {
        let a = catalog::model("llama-3.2-1b-instruct")
            .expect("catalog")
            .arch;
        // fp32 logits: the second gradient fits the logits' freed block.
        let fp32 = Train {
            precision: TrainPrecision::Fp32,
            ..Train::default()
        };
        assert_eq!(cached_loss_segment(&a, &fp32, 8, 512), 0);
        // Chunked, eager or compiled: one chunk's blocks, reused chunk after chunk.
        for compiled in [false, true] {
            let chunked = Train {
                chunked_loss: true,
                compiled,
                ..Train::default()
            };
            assert_eq!(cached_loss_segment(&a, &chunked, 8, 512), 0);
        }
        // A few tokens: a 1 MiB block in the shared 20 MiB segments.
        assert_eq!(cached_loss_segment(&a, &Train::default(), 1, 2), 0);
        // BERT's classification head: `b × labels` logits.
        let bert = crate::inputs::import::hf_config::parse_value(&serde_json::json!({
            "architectures": ["BertForSequenceClassification"],
            "model_type": "bert",
            "hidden_size": 1024,
            "num_hidden_layers": 24,
            "num_attention_heads": 16,
            "intermediate_size": 4096,
            "vocab_size": 30522,
            "max_position_embeddings": 512,
            "type_vocab_size": 2
        }))
        .expect("bert");
        assert_eq!(cached_loss_segment(&bert, &Train::default(), 8, 512), 0);
    }
}
