//! Activations: the peak transient working set of the forward pass.
//!
//! Serving runs prefill in steps of at most `T = min(context × sequences, prefill_chunk_tokens)`
//! tokens, and samples one token for each of `S` sequences per decode step. The peak is the largest
//! of these phases (b = bytes of the compute dtype, H hidden, I intermediate / tp, V vocabulary):
//!
//! - **MLP** (vLLM `llama.py::LlamaMLP.forward`: the layer loop still holds the previous hidden
//!   states and the residual while `gate_up` then `act` run): `T·b·(3H + 3I)`; Qwen2/Qwen3 keep the
//!   `gate_up` output alive through `down_proj` (`qwen2.py::Qwen2MLP.forward`): `T·b·(4H + 3I)`.
//!   Checked against vLLM 0.6.4 logs on an RTX 3090 (issue #10517): Llama-3.1-8B at T = 20000 / 29000
//!   gives 2.06 / 2.99 GiB + workspace, measured 2.07 / 2.99.
//! - **MoE** (vLLM `fused_moe.py::fused_experts_impl`, in place): the three hidden copies, the shared
//!   expert's output, router logits `T·E`, and per routed token the intermediate caches
//!   `cache1 [T, k, 2·Ie]`, `cache2 [T·k, Ie]`, `cache3 [T, k, H]`:
//!   `T·b·(4H + E + k·(3·Ie + H))` with Ie per GPU.
//! - **Attention** with a fused (flash / SDPA) kernel, which never materialises the `T × T` scores:
//!   `T·b·(3H + 2q + 2kv)` — residual, input, output, q/k/v projections and the attention output
//!   (q = heads·head_dim / tp, kv = ⌈kv_heads / tp⌉·head_dim); for MLA the query, the latent, the
//!   up-projected keys/values and the output.
//! - **Logits and sampling** (vLLM `sampler.py::Sampler.forward` + `_apply_top_k_top_p`): final
//!   hidden states `T·H·b`, logits `S·V·b`, their fp32 copy and the sort of top-k/top-p with its
//!   stable-sort working set: `S·V·k`, k = 36 B for S ≥ 128, 48 B below (values fp32, indices
//!   int64 and the cub radix-sort buffers). For big vocabularies and many sequences this phase sets
//!   the peak (A01: 256 sequences × 128256 tokens → 1.26 GiB, measured 1.26).

use super::{shard, BudgetInputs};
use crate::units::bytes::{mul, prod, sum};

/// Peak activation bytes on one GPU of a `tp`-way group.
pub fn peak_per_gpu(inp: &BudgetInputs, tp: u64) -> u64 {
    peak(inp, tp, chunk_tokens(inp), inp.sequences)
}

/// Peak for a step of `tokens` tokens that ends by sampling `sequences` sequences.
pub fn peak(inp: &BudgetInputs, tp: u64, tokens: u64, sequences: u64) -> u64 {
    mlp_phase(inp, tp, tokens)
        .max(attention_phase(inp, tp, tokens))
        .max(sampler_phase(inp, tokens, sequences))
}

/// Tokens in the largest prefill step.
pub fn chunk_tokens(inp: &BudgetInputs) -> u64 {
    mul(inp.context_tokens, inp.sequences).min(inp.prefill_chunk_tokens)
}

/// The MLP phase (dense or MoE, whichever the model has that is larger).
pub fn mlp_phase(inp: &BudgetInputs, tp: u64, tokens: u64) -> u64 {
    let a = inp.arch;
    let b = inp.weights.compute_bytes();
    let h = u64::from(a.hidden);
    let copies = if a.family.keeps_gate_up() { 4 } else { 3 };
    let has_dense = a.moe_layers_in(0, a.layers) < u64::from(a.layers);
    let dense = if has_dense {
        let width = sum([mul(copies, h), mul(3, shard(u64::from(a.intermediate), tp))]);
        prod(&[tokens, b, width])
    } else {
        0
    };
    let moe = a.moe.map_or(0, |m| {
        let ie = shard(u64::from(m.expert_intermediate), tp);
        let k = u64::from(m.active);
        let width = sum([
            mul(4, h),
            u64::from(m.experts),
            mul(k, sum([mul(3, ie), h])),
        ]);
        prod(&[tokens, b, width])
    });
    dense.max(moe)
}

/// The attention phase (fused attention kernel, no `T²` term).
pub fn attention_phase(inp: &BudgetInputs, tp: u64, tokens: u64) -> u64 {
    let a = inp.arch;
    let b = inp.weights.compute_bytes();
    let h = u64::from(a.hidden);
    let width = match a.mla {
        Some(m) => {
            let heads = shard(u64::from(a.heads), tp);
            let qk = u64::from(m.qk_nope_head_dim) + u64::from(m.qk_rope_head_dim);
            let nv = u64::from(m.qk_nope_head_dim) + u64::from(m.v_head_dim);
            sum([
                mul(heads, qk + nv + u64::from(m.v_head_dim)),
                u64::from(m.kv_lora_rank),
                u64::from(m.qk_rope_head_dim),
            ])
        }
        None => {
            let q = mul(shard(u64::from(a.heads), tp), u64::from(a.head_dim));
            let kv = mul(shard(u64::from(a.kv_heads), tp), u64::from(a.head_dim));
            sum([mul(2, q), mul(2, kv)])
        }
    };
    prod(&[tokens, b, sum([mul(3, h), width])])
}

/// Bytes per vocabulary entry the top-k / top-p sort of `sequences` rows keeps, all rows
/// together. torch's sort keeps 48 B per element below 128 rows and 36 B from 128 on (it changes
/// algorithm there); taken literally, 128 sequences would need less memory than 127. The estimate
/// keeps the larger of `48 × min(n, 127)` and `36 × n`, so memory never falls when the load grows
/// (the inverse solvers bisect on that): from 128 to 169 sequences it is conservative by at most
/// `12 × 127` bytes per vocabulary entry less the rows' growth.
fn sort_elements(sequences: u64) -> u64 {
    mul(48, sequences.min(127)).max(mul(36, sequences))
}

/// The logits and sampling phase (full vocabulary: vLLM gathers the logits on one GPU).
pub fn sampler_phase(inp: &BudgetInputs, tokens: u64, sequences: u64) -> u64 {
    let b = inp.weights.compute_bytes();
    let v = u64::from(inp.arch.vocab);
    sum([
        prod(&[tokens, u64::from(inp.arch.hidden), b]),
        prod(&[sequences, v, b]),
        mul(sort_elements(sequences), v),
    ])
}
