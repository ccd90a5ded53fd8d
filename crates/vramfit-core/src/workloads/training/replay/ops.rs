//! The tensors of one layer's forward and backward pass, in creation order, per GPU: what the
//! allocator replay (`replay.rs`) runs. The closed form's `activations.rs` sums the same saved
//! tensors as formulas; a test here holds the two together.
//!
//! b = micro-batch, s = sequence length, T = b·s tokens, h hidden, q = heads·head_dim,
//! kv = KV heads·head_dim, I the MLP width, a heads, c the compute dtype's bytes, t = tensor
//! parallel (q, kv, I and a divided by t). Saved per token and layer (Korthikanti et al. 2022,
//! "Reducing Activation Recomputation in Large Transformer Models", `sbh(34 + 5as/h)` in 16 bit,
//! re-derived tensor by tensor for these layers):
//! - **Decoders** (pre-norm, RoPE, SwiGLU, no dropout): `c·(4h + 2q + 2kv + 4I)` — the layer input
//!   and the attention norm's output, q and k after RoPE, v, the attention output (o_proj's input),
//!   the residual sum and the MLP norm's output, gate, up, their activation and product. MoE
//!   layers keep gate/up/act/product for `active·Ie + Is` and the router logits. Transients: the
//!   projections' outputs before RoPE and before the residual adds. With LoRA / QLoRA a frozen
//!   projection keeps no input (`MmBackward` saves the input only for a weight that requires a
//!   gradient): the MLP norm's output stays only if gate / up carry adapters, the product only if
//!   down does. Without a fused attention kernel the scores (c), their fp32 softmax (4) and its
//!   16-bit copy (c) per head and key: `a·s·(4 + c)` saved, `a·s·c` transient.
//! - **BERT encoders** (post-norm, GELU, dropout, eager attention; HF `BertLayer` on torch 1.10,
//!   tensor by tensor from autograd's saved variables): fp32 `66h + 13as` (matmul's reshape copies
//!   of q, k and v, softmax saving input and output, dropout masks of 1 B); autocast `42h + 11as`
//!   (each linear casts its input to 16 bit and saves the copy; scores + the fp32 mask promote to
//!   fp32), `50h + 11as` with GELU on autocast's fp32 list (`autocast_gelu_fp32`, torch ≤ 1.9:
//!   `aten/src/ATen/autocast_mode.cpp`, removed by pytorch PR #59639: GELU saves an fp32 copy of
//!   its input, and its fp32 output is cast again for the output dense). Flash attention keeps q, k, v, the output and its log-sum-exp instead of the scores.
//! - **Backward** walks the layer in reverse: each consumer allocates the gradient of its input
//!   and releases what it saved (autograd frees saved variables once their node has run); weight
//!   gradients come from `LinearBack`; gradients of a tensor used twice accumulate in place
//!   (`InputBuffer::accumulate`), except on torch 1.10 (BERT rows) where `old + new` allocates.
//! - **Checkpointing**: the no-grad forward keeps only the layer input and output; backward
//!   reruns the forward with autograd (`torch.compile` keeps only the matmul inputs
//!   `c·(2h + q + I)` and recomputes the rest inside backward) and then its backward.
//! - With pipeline parallelism (1F1B) the first stage holds `pp` micro-batches of `L/pp` layers.

mod builder;
mod decoder;
mod dims;
mod encoder;

use self::decoder::decoder;
use self::dims::dims;
use self::encoder::encoder;
use crate::inputs::model::{ModelArch, TensorKind};
use crate::workloads::training::config::{Train, TrainPrecision};

/// A place for one tensor of a layer.
pub type Slot = u8;
/// The layer's input activation (the previous layer's output).
pub const X: Slot = 0;
/// The layer's output activation.
pub const Y: Slot = 1;
/// The gradient: of the output when backward starts, of the input when it ends.
pub const G: Slot = 2;
/// Slots per layer.
pub const SLOTS: usize = 160;

/// Which linear projections of a layer an op runs through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proj {
    /// Query projections (MLA: the query down/up projections).
    Q,
    /// Key projection (MLA: the key-value down/up projections).
    K,
    /// Value projection.
    V,
    /// Attention output projection.
    O,
    /// MLP gate (dense, routed and shared experts).
    Gate,
    /// MLP up.
    Up,
    /// MLP down.
    Down,
    /// MoE router.
    Router,
}

impl Proj {
    /// Whether a weight tensor of `kind` belongs to this projection.
    pub fn covers(self, kind: TensorKind) -> bool {
        use TensorKind as K;
        match self {
            Proj::Q => matches!(kind, K::AttnQ | K::AttnQA | K::AttnQB),
            Proj::K => matches!(kind, K::AttnK | K::AttnKvA | K::AttnKvB),
            Proj::V => kind == K::AttnV,
            Proj::O => kind == K::AttnOutput,
            Proj::Gate => matches!(kind, K::FfnGate | K::FfnGateExps | K::FfnGateShexp),
            Proj::Up => matches!(kind, K::FfnUp | K::FfnUpExps | K::FfnUpShexp),
            Proj::Down => matches!(kind, K::FfnDown | K::FfnDownExps | K::FfnDownShexp),
            Proj::Router => kind == K::Router,
        }
    }
}

/// One event of a layer's pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A new tensor of `bytes` in the slot.
    Alloc(Slot, u64),
    /// The slot's tensor is no longer referenced.
    Free(Slot),
    /// Forward through a projection; its output (`bytes`) goes to the slot. The replay adds what
    /// the weights need around it (autocast copies, dequantised NF4, LoRA adapters).
    Linear(Proj, Slot, u64),
    /// Backward through a projection: the gradient of its input (`bytes`) into the slot, then its
    /// weights' gradients.
    LinearBack(Proj, Slot, u64),
    /// The tensor of the second slot now goes by the first (which was empty).
    Move(Slot, Slot),
}

/// A layer's passes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayerOps {
    /// Forward with autograd: ends with `Y`; what it saved stays in its slots.
    pub forward: Vec<Op>,
    /// Backward after `forward`: from `G` (gradient of `Y`) to `G` (gradient of `X`), freeing the
    /// saved tensors and `X`.
    pub backward: Vec<Op>,
    /// Forward under checkpointing (no autograd): keeps `X`, ends with `Y`, frees the rest.
    pub no_grad: Vec<Op>,
    /// Under checkpointing: the forward rerun in backward, then its backward.
    pub recompute: Vec<Op>,
    /// The backward after `recompute`.
    pub recompute_backward: Vec<Op>,
}

/// The compute dtype's bytes.
pub fn compute_bytes(t: &Train) -> u64 {
    match t.precision {
        TrainPrecision::Fp32 => 4,
        _ => 2,
    }
}

/// The passes of layer `layer` for `batch` sequences of `seq` tokens.
pub fn layer_ops(a: &ModelArch, t: &Train, batch: u64, seq: u64, layer: u32) -> LayerOps {
    let d = dims(a, t, batch, seq, a.is_moe_layer(layer));
    if a.family.is_encoder() {
        let (forward, backward) = encoder(&d, true);
        let (no_grad, _) = encoder(&d, false);
        return LayerOps {
            recompute: forward.clone(),
            recompute_backward: backward.clone(),
            forward,
            backward,
            no_grad,
        };
    }
    let (forward, backward) = decoder(&d, true, true);
    let (no_grad, _) = decoder(&d, false, true);
    let (recompute, recompute_backward) = if t.compiled {
        decoder(&d, true, false)
    } else {
        (forward.clone(), backward.clone())
    };
    LayerOps {
        forward,
        backward,
        no_grad,
        recompute,
        recompute_backward,
    }
}

/// Bytes a forward pass leaves allocated beyond its input: its saved tensors and its output.
#[cfg(test)]
pub fn kept(ops: &[Op]) -> u64 {
    let mut live = [0u64; SLOTS];
    for op in ops {
        match *op {
            Op::Alloc(s, b) | Op::Linear(_, s, b) | Op::LinearBack(_, s, b) => {
                live[usize::from(s)] = b;
            }
            Op::Free(s) => live[usize::from(s)] = 0,
            Op::Move(to, from) => {
                live[usize::from(to)] = live[usize::from(from)];
                live[usize::from(from)] = 0;
            }
        }
    }
    live.iter().sum()
}

/// Saved activations on one GPU: at the end of the forward, and at the peak of backward.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Activations {
    /// Everything saved at the end of the forward pass.
    pub total: u64,
    /// What one layer saves (under checkpointing: the recomputed layer).
    pub layer: u64,
}

/// Saved activations for `batch` sequences of `seq` tokens (summed from the op lists: the layer
/// outputs kept, each layer's saved tensors, the embedding output).
#[cfg(test)]
pub fn saved(a: &ModelArch, t: &Train, batch: u64, seq: u64) -> Activations {
    let c = compute_bytes(t);
    let input = batch
        .saturating_mul(seq)
        .saturating_mul(u64::from(a.hidden))
        .saturating_mul(if a.family.is_encoder() && c == 2 {
            4
        } else {
            c
        });
    let mut total = input;
    let mut layer = 0;
    for l in 0..a.layers {
        let ops = layer_ops(a, t, batch, seq, l);
        let (fwd, one) = match t.checkpointing {
            crate::workloads::training::Checkpointing::Full => (&ops.no_grad, kept(&ops.recompute)),
            _ => (&ops.forward, kept(&ops.forward)),
        };
        // Under autocast a BERT layer frees its input; elsewhere the input stays.
        let frees_input = fwd.contains(&Op::Free(X));
        total = if frees_input {
            total.saturating_sub(input).saturating_add(kept(fwd))
        } else {
            total.saturating_add(kept(fwd))
        };
        layer = layer.max(one);
    }
    Activations { total, layer }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::catalog;
    use crate::workloads::training::config::Method;
    use crate::workloads::training::Checkpointing;

    fn balanced(ops: &[Op], start: &[Slot]) -> Vec<Slot> {
        let mut live = [false; SLOTS];
        for &s in start {
            live[usize::from(s)] = true;
        }
        for op in ops {
            match *op {
                Op::Alloc(s, _) | Op::Linear(_, s, _) | Op::LinearBack(_, s, _) => {
                    assert!(!live[usize::from(s)], "slot {s} reused while live: {op:?}");
                    live[usize::from(s)] = true;
                }
                Op::Free(s) => {
                    assert!(live[usize::from(s)], "slot {s} freed twice: {op:?}");
                    live[usize::from(s)] = false;
                }
                Op::Move(to, from) => {
                    assert!(live[usize::from(from)] && !live[usize::from(to)], "{op:?}");
                    live[usize::from(to)] = true;
                    live[usize::from(from)] = false;
                }
            }
        }
        (0..SLOTS as Slot)
            .filter(|&s| live[usize::from(s)])
            .collect()
    }

    #[test]
    fn every_pass_frees_what_it_allocates() {
        let bert = crate::inputs::import::hf_config::parse_value(
            &serde_json::json!({"architectures": ["BertForSequenceClassification"],
                "model_type": "bert", "hidden_size": 1024, "intermediate_size": 4096,
                "num_hidden_layers": 24, "num_attention_heads": 16, "vocab_size": 30522,
                "max_position_embeddings": 512, "type_vocab_size": 2}),
        )
        .expect("bert");
        let llama = catalog::model("llama-3.1-8b-instruct")
            .expect("catalog")
            .arch;
        for a in [bert, llama] {
            for precision in [
                TrainPrecision::Fp32,
                TrainPrecision::AmpFp16,
                TrainPrecision::Bf16,
            ] {
                for flash in [false, true] {
                    for compiled in [false, true] {
                        for (method, gelu32) in [
                            (Method::Full, false),
                            (Method::Lora, false),
                            (Method::Full, true),
                        ] {
                            let t = Train {
                                precision,
                                flash_attention: flash,
                                compiled,
                                method,
                                autocast_gelu_fp32: gelu32,
                                ..Train::default()
                            };
                            let ops = layer_ops(&a, &t, 2, 128, 0);
                            let mut saved = balanced(&ops.forward, &[X]);
                            // The output leaves the layer (it is the next one's input).
                            assert!(saved.contains(&Y));
                            saved.retain(|&s| s != Y);
                            let after: Vec<Slot> =
                                balanced(&ops.backward, &[saved, vec![G]].concat());
                            assert_eq!(after, vec![G], "{t:?}");
                            assert_eq!(balanced(&ops.no_grad, &[X]), vec![X, Y]);
                            let mut saved = balanced(&ops.recompute, &[X]);
                            saved.retain(|&s| s != Y);
                            let after =
                                balanced(&ops.recompute_backward, &[saved, vec![G]].concat());
                            assert_eq!(after, vec![G], "{t:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn bert_layer_keeps_66h_plus_13as_in_fp32_and_42h_plus_11as_under_autocast() {
        let a = crate::inputs::import::hf_config::parse_value(
            &serde_json::json!({"architectures": ["BertForSequenceClassification"],
                "model_type": "bert", "hidden_size": 1024, "intermediate_size": 4096,
                "num_hidden_layers": 24, "num_attention_heads": 16, "vocab_size": 30522,
                "max_position_embeddings": 512, "type_vocab_size": 2}),
        )
        .expect("bert");
        let (b, s, h, heads) = (4u64, 512u64, 1024u64, 16u64);
        let stats = 2 * 8 * b * s; // two LayerNorms' mean and rstd, fp32
        for (precision, gelu32, hk, sk, x_kept) in [
            (TrainPrecision::Fp32, false, 66, 13, true),
            // GELU on autocast's fp32 list changes nothing in fp32.
            (TrainPrecision::Fp32, true, 66, 13, true),
            (TrainPrecision::AmpFp16, false, 42, 11, false),
            // torch ≤ 1.9: GELU saves its input in fp32 (4 B × 4h instead of 2 B × 4h).
            (TrainPrecision::AmpFp16, true, 50, 11, false),
        ] {
            let t = Train {
                precision,
                flash_attention: false,
                autocast_gelu_fp32: gelu32,
                ..Train::default()
            };
            let ops = layer_ops(&a, &t, b, s, 0);
            // The output (fp32 in both) stands in for the input where the input is saved.
            let out = if x_kept { 0 } else { b * s * h * 4 };
            let kept = kept(&ops.forward);
            assert_eq!(
                kept,
                b * s * (hk * h + sk * heads * s) + stats + out,
                "{precision:?}"
            );
        }
    }

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
        // Decoder layer: c·(4h + 2q + 2kv + 4I) plus the log-sum-exp per head, per token (the
        // output kept in place of the input, both c·h).
        let (h, q, kv, i) = (4096u64, 4096u64, 1024u64, 14336u64);
        let per_layer = 2048 * (2 * (4 * h + 2 * q + 2 * kv + 4 * i) + 32 * 4);
        assert_eq!(kept(&layer_ops(&a, &full, 1, 2048, 0).forward), per_layer);
    }
}
