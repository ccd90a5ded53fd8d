//! Activations: the peak transient working set of the forward pass.
//!
//! Serving runs prefill in steps of at most `T = min(context × sequences, prefill_chunk_tokens)`
//! tokens, and samples one token for each of `S` sequences per decode step. The peak is the largest
//! of three phases (b = bytes of the compute dtype, H hidden, I intermediate / tp, V vocabulary):
//!
//! - **MLP** (vLLM `llama.py::LlamaMLP.forward`: the layer loop still holds the previous hidden
//!   states and the residual while `gate_up` then `act` run): `T·b·(3H + 3I)`; Qwen2/Qwen3 keep the
//!   `gate_up` output alive through `down_proj` (`qwen2.py::Qwen2MLP.forward`): `T·b·(4H + 3I)`.
//!   Checked against vLLM 0.6.4 logs on an RTX 3090 (issue #10517): Llama-3.1-8B at T = 20000 / 29000
//!   gives 2.06 / 2.99 GiB + workspace, measured 2.07 / 2.99.
//! - **Attention** with a fused (flash / SDPA) kernel, which never materialises the `T × T` scores:
//!   `T·b·(3H + q + 2kv + q)` — residual, input, output, q/k/v projections and the attention output
//!   (q = heads·head_dim / tp, kv = ⌈kv_heads / tp⌉·head_dim).
//! - **Logits and sampling** (vLLM `sampler.py::Sampler.forward` + `_apply_top_k_top_p`): final
//!   hidden states `T·H·b`, logits `S·V·b`, their fp32 copy and the sort of top-k/top-p with its
//!   stable-sort working set: `S·V·k`, k = 36 B for S ≥ 128, 48 B below (values fp32, indices
//!   int64 and the cub radix-sort buffers). For big vocabularies and many sequences this phase sets
//!   the peak (A01: 256 sequences × 128256 tokens → 1.26 GiB, measured 1.26).

use super::{shard, BudgetInputs};
use crate::model::Family;

/// Peak activation bytes on one GPU of a `tp`-way group.
pub fn per_gpu(inp: &BudgetInputs, tp: u64) -> u64 {
    mlp_phase(inp, tp)
        .max(attention_phase(inp, tp))
        .max(sampler_phase(inp))
}

/// Tokens in the largest prefill step.
pub fn chunk_tokens(inp: &BudgetInputs) -> u64 {
    (inp.context_tokens * inp.sequences).min(inp.prefill_chunk_tokens)
}

fn compute_bytes(inp: &BudgetInputs) -> u64 {
    inp.weights.compute().bytes_for(1)
}

/// The MLP phase.
pub fn mlp_phase(inp: &BudgetInputs, tp: u64) -> u64 {
    let h = u64::from(inp.arch.hidden);
    let i = shard(u64::from(inp.arch.intermediate), tp);
    let hidden_copies = match inp.arch.family {
        Family::Qwen2 | Family::Qwen3 => 4,
        _ => 3,
    };
    chunk_tokens(inp) * compute_bytes(inp) * (hidden_copies * h + 3 * i)
}

/// The attention phase (fused attention kernel, no `T²` term).
pub fn attention_phase(inp: &BudgetInputs, tp: u64) -> u64 {
    let a = inp.arch;
    let q = shard(u64::from(a.heads), tp) * u64::from(a.head_dim);
    let kv = shard(u64::from(a.kv_heads), tp) * u64::from(a.head_dim);
    chunk_tokens(inp) * compute_bytes(inp) * (3 * u64::from(a.hidden) + 2 * q + 2 * kv)
}

/// The logits and sampling phase (full vocabulary: vLLM gathers the logits on one GPU).
pub fn sampler_phase(inp: &BudgetInputs) -> u64 {
    let b = compute_bytes(inp);
    let s = inp.sequences;
    let v = u64::from(inp.arch.vocab);
    let sort_bytes = if s >= 128 { 36 } else { 48 };
    chunk_tokens(inp) * u64::from(inp.arch.hidden) * b + s * v * b + s * v * sort_bytes
}
