//! Sizes of one layer's tensors for a micro-batch, from the model and the training setup.

use super::compute_bytes;
use crate::inputs::model::ModelArch;
use crate::workloads::training::config::{LoraTargets, Method, Train, TrainPrecision};

/// Sizes of one layer's tensors for a micro-batch.
#[derive(Clone, Copy, Debug)]
pub(super) struct Dims {
    pub(super) tokens: u64,
    pub(super) seq: u64,
    pub(super) h: u64,
    pub(super) q: u64,
    pub(super) kv: u64,
    pub(super) mlp: u64,
    pub(super) router: u64,
    pub(super) heads: u64,
    pub(super) c: u64,
    pub(super) amp: bool,
    pub(super) flash: bool,
    pub(super) in_place_grads: bool,
    /// GELU on autocast's fp32 list (torch ≤ 1.9).
    pub(super) gelu_fp32: bool,
    pub(super) mlp_in_saved: bool,
    pub(super) down_in_saved: bool,
}

impl Dims {
    /// Bytes of `per_token` elements of `bytes` each for every token.
    pub(super) fn t(&self, per_token: u64, bytes: u64) -> u64 {
        self.tokens.saturating_mul(per_token).saturating_mul(bytes)
    }
    /// Bytes of the attention scores (per head and key) at `bytes` per element.
    pub(super) fn s(&self, bytes: u64) -> u64 {
        self.t(self.heads.saturating_mul(self.seq), bytes)
    }
}

pub(super) fn dims(a: &ModelArch, t: &Train, batch: u64, seq: u64, moe_layer: bool) -> Dims {
    let tp = u64::from(t.tensor_parallel.max(1));
    let h = u64::from(a.hidden);
    let (mlp, router) = match a.moe.filter(|_| moe_layer) {
        Some(m) => (
            u64::from(m.expert_intermediate) * u64::from(m.active)
                + u64::from(m.shared_intermediate),
            u64::from(m.experts),
        ),
        None => (u64::from(a.intermediate), 0),
    };
    let lora = matches!(t.method, Method::Lora | Method::Qlora);
    let all_linear = t.lora_targets == LoraTargets::AllLinear;
    Dims {
        tokens: batch.saturating_mul(seq),
        seq,
        h,
        q: u64::from(a.heads) * u64::from(a.head_dim) / tp,
        kv: u64::from(a.kv_heads) * u64::from(a.head_dim) / tp,
        mlp: mlp / tp,
        router,
        heads: u64::from(a.heads) / tp,
        c: compute_bytes(t),
        amp: matches!(
            t.precision,
            TrainPrecision::AmpFp16 | TrainPrecision::AmpBf16
        ),
        flash: t.flash_attention,
        // torch 1.10's `InputBuffer::accumulate` adds out of place; BERT rows run that stack.
        in_place_grads: !a.family.is_encoder(),
        gelu_fp32: t.autocast_gelu_fp32,
        mlp_in_saved: !lora || all_linear,
        down_in_saved: !lora || all_linear,
    }
}
