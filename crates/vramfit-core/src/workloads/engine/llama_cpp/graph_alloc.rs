//! llama.cpp's compute buffer by replaying ggml's graph allocator over the worst-case ubatch graph.
//!
//! Two halves, both in integers (saturating: absurd shapes give a saturated size, never a wrap
//! or a panic):
//!
//! - **The graph** ([`build`]): the nodes that `llama_context::sched_reserve`
//!   (`src/llama-context.cpp`) reserves for the prompt-processing ubatch of
//!   `n_tokens = min(n_ctx, n_ubatch)` tokens (rounded up to a multiple of `n_seq_max` by
//!   `graph_reserve`; the caller does that) in `n_stream` streams with `n_outputs` output rows, in
//!   ggml's node order (depth-first,
//!   `ggml_build_forward_expand`), each with its byte size, operator (in place or not, view or
//!   not) and sources. It follows `src/models/llama.cpp` (also Mistral and Mixtral),
//!   `src/models/qwen2.cpp`, `src/models/qwen3.cpp`, `src/models/qwen3moe.cpp` and
//!   `src/models/gemma2.cpp`, `src/models/gemma3.cpp` (with its sliding window) with
//!   `src/llama-graph.cpp`: `build_inp_embd` (the token ids, and an
//!   `n_embd × n_tokens` f32 `inp_embd` input that is allocated though unused), `build_inp_pos`,
//!   `build_attn_inp_kv` / `_kv_iswa` (`attn_inp_k_idxs` i64 per token, `attn_inp_v_idxs` i64 per
//!   token or, with the transposed V cache of non-flash attention, per token and V channel,
//!   `attn_inp_kq_mask` `n_kv × n_tokens/n_stream × n_stream`, f16 with flash attention, f32
//!   without; a sliding-window model has one set per cache), `build_attn` (the Hadamard
//!   rotations `llama_mul_mat_hadamard` of Q and K with `attn_inp_k_rot`, of V and the attention
//!   output with `attn_inp_v_rot`, when the cache type is quantised and the head width a multiple of
//!   64, `llama_kv_cache` constructor), `build_attn_mha` (flash attention, or `kq`, soft-capping,
//!   `soft_max_ext`, `kqv` and a `cont`), the last layer's `get_rows` of `inp_out_ids`,
//!   `build_ffn` (gate, up, the GLU, down) and `build_moe_ffn` (router, soft-max, `argsort_top_k`,
//!   weights `get_rows` / `sum_rows` / `clamp` / `div`, `mul_mat_id` gate, up and down, the
//!   weighting `mul`, and the sum of `n_expert_used` strided views), the output norm and the
//!   logits (Gemma 2: soft-capped; Gemma 3 has no soft-capping but Qwen3's per-head q/k norms, and
//!   five sliding-window layers to one global). The dumps of the real graphs these were checked against are
//!   described in `tools/llama-trace/README.md`.
//! - **The allocator** ([`replay`]): `ggml_gallocr_alloc_graph_impl` (`ggml/src/ggml-alloc.c`):
//!   inputs (leafs) allocated first, in leaf order; every node allocated before it runs, in place
//!   over its first source that `ggml_op_can_inplace` allows (the source allocated by the
//!   allocator, not a view, not a graph output, of the same type and shape, with one child and no
//!   views left); sources freed once their children and views are done (a view frees its
//!   `view_src`); graph outputs (`result_norm`, `result_output`) never freed. Placement is
//!   `ggml_dyn_tallocr_alloc`: sizes padded to the buffer's alignment, the best-fitting free block
//!   other than the last (the smallest that fits, the later on ties), else the end of the last
//!   block; frees merge with their neighbours. The buffer is the highest end reached.
//!
//! Not replayed: the token-generation graph `sched_reserve` also reserves (`n_seq_max` tokens; its
//! tensors are no larger, and on every trace the buffer is the prompt graph's), and the split of a
//! graph over several backends (`ggml-backend.cpp`, `ggml_backend_sched_split_graph`: with CUDA
//! the inputs stay in host memory and are copied to the GPU at the start of its split) — this is
//! the graph as one backend allocates it, which is what the CPU traces measure.
//!
//! Depth: every layer frees what it allocated except its output, so the free blocks a layer
//! meets are the same from the second layer on and the buffer does not grow with depth (llama.cpp's
//! own 2- and 4-layer reservations are equal on every traced point; Gemma 3's 6- and 8-layer ones
//! differ where the last layer changes kind). The replay builds [`replayed_layers`]: the first two
//! layers and the last (Gemma 2: the last two; Gemma 3: the first six and the last six, one period
//! of its pattern at each end), at most twelve; the unit test
//! `replayed_layers_reach_the_steady_state` builds 2 to 11 whole layers (Gemma 3: to 26) over the
//! traced families' shapes and finds the same peak.

use crate::units::bytes::{mul, prod};

/// Most experts per token the replay builds views for (`LLAMA_MAX_EXPERTS` is 512); above it the
/// caller keeps the formula.
pub const MAX_REPLAY_EXPERTS: u64 = 512;

/// The layer structure of a model family, as llama.cpp builds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFamily {
    /// `src/models/llama.cpp` (Llama, Mistral; with experts, Mixtral).
    Llama,
    /// `src/models/qwen2.cpp`: q/k/v biases.
    Qwen2,
    /// `src/models/qwen3.cpp` / `qwen3moe.cpp`: per-head q/k RMS norms.
    Qwen3,
    /// `src/models/gemma2.cpp`: scaled embeddings, post-attention and post-FFN norms, GeGLU, a
    /// scaled query, soft-capped scores and logits, sliding-window layers at even indices.
    Gemma2,
    /// `src/models/gemma3.cpp` (sliding window on): Gemma 2's layer with per-head q/k RMS norms and
    /// no soft-capping, five sliding-window layers to one global (`load_swa_pattern(ml, 6)`: layer
    /// `il` slides when `il % 6 < 5`).
    Gemma3,
}

impl GraphFamily {
    /// The period of the sliding-window pattern (`set_swa_pattern`, `src/llama-hparams.cpp`:
    /// layer `il` slides when `il % n_pattern < n_pattern - 1`), for the families with one.
    fn swa_pattern(self) -> Option<u64> {
        match self {
            GraphFamily::Gemma2 => Some(2),
            GraphFamily::Gemma3 => Some(6),
            _ => None,
        }
    }
}

/// A mixture-of-experts FFN (`build_moe_ffn` with soft-max gating and normalised weights).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphMoe {
    /// `n_expert`: the router's width.
    pub experts: u64,
    /// `n_expert_used`.
    pub used: u64,
    /// `n_ff_exp`: one expert's width.
    pub expert_ff: u64,
}

/// Everything that shapes the worst-case graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphSpec {
    /// The layer structure.
    pub family: GraphFamily,
    /// Experts, for a MoE FFN.
    pub moe: Option<GraphMoe>,
    /// `n_embd`.
    pub hidden: u64,
    /// `n_head`.
    pub heads: u64,
    /// `n_head_kv`.
    pub kv_heads: u64,
    /// `n_embd_head_k` (= `n_embd_head_v` for these families).
    pub head_dim: u64,
    /// `n_ff` of a dense FFN.
    pub n_ff: u64,
    /// `n_vocab`.
    pub vocab: u64,
    /// Decoder layers of the model (the replay builds at most four, [`replayed_layers`]).
    pub layers: u64,
    /// `n_kv` per stream of the full-attention cache.
    pub cells: u64,
    /// `n_kv` per stream of the sliding-window cache (Gemma 2).
    pub swa_cells: u64,
    /// `n_tokens` of the ubatch.
    pub tokens: u64,
    /// `n_stream` (`n_seq_max`, 1 with `--kv-unified`).
    pub streams: u64,
    /// `n_outputs` of the worst-case ubatch.
    pub outputs: u64,
    /// Flash attention.
    pub flash_attn: bool,
    /// Quantised K cache (Hadamard rotation of Q and K).
    pub quantized_k: bool,
    /// Quantised V cache (Hadamard rotation of V and the attention output).
    pub quantized_v: bool,
    /// Whether this buffer holds the output layer (norm and logits).
    pub with_output: bool,
    /// The buffer type's alignment (`ggml_backend_buft_get_alignment`: CPU 32, CUDA 128).
    pub alignment: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    F32,
    F16,
    I32,
    I64,
}

impl Ty {
    fn bytes(self) -> u64 {
        match self {
            Ty::F16 => 2,
            Ty::F32 | Ty::I32 => 4,
            Ty::I64 => 8,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A weight or the KV cache: in its own buffer, never allocated here.
    External,
    /// A graph input (`ggml_set_input`): allocated with the leafs.
    Input,
    /// An operation; `true` where `ggml_op_can_inplace`.
    Op(bool),
    /// A view of a tensor (its `view_src`, always the root); never allocated.
    View(u32),
}

#[derive(Clone, Copy, Debug)]
struct Tensor {
    kind: Kind,
    ty: Ty,
    ne: [u64; 4],
    bytes: u64,
    output: bool,
    src: [u32; 4],
    n_src: u8,
}

/// The graph: tensor 0 stands for every external tensor.
#[derive(Debug, Default)]
pub struct Graph {
    t: Vec<Tensor>,
    leafs: Vec<u32>,
    nodes: Vec<u32>,
}

const EXT: u32 = 0;

impl Graph {
    fn new() -> Graph {
        let mut g = Graph {
            t: Vec::with_capacity(512),
            leafs: Vec::with_capacity(16),
            nodes: Vec::with_capacity(512),
        };
        g.push(Kind::External, Ty::F32, [0; 4], &[]);
        g
    }

    fn push(&mut self, kind: Kind, ty: Ty, ne: [u64; 4], src: &[u32]) -> u32 {
        let mut s = [EXT; 4];
        for (d, x) in s.iter_mut().zip(src) {
            *d = *x;
        }
        let ne = ne.map(|x| x.max(1));
        self.t.push(Tensor {
            kind,
            ty,
            ne,
            bytes: prod(&[ne[0], ne[1], ne[2], ne[3], ty.bytes()]),
            output: false,
            src: s,
            n_src: src.len().min(4) as u8,
        });
        (self.t.len() - 1) as u32
    }

    /// A new input, not yet in the leaf order ([`Graph::leaf`] places it).
    fn input(&mut self, ty: Ty, ne: [u64; 4]) -> u32 {
        self.push(Kind::Input, ty, ne, &[])
    }

    /// Puts an input in the leaf order at its first use (ggml's depth-first visit).
    fn leaf(&mut self, id: u32) -> u32 {
        if !self.leafs.contains(&id) {
            self.leafs.push(id);
        }
        id
    }

    fn op(&mut self, inplace: bool, ty: Ty, ne: [u64; 4], src: &[u32]) -> u32 {
        let id = self.push(Kind::Op(inplace), ty, ne, src);
        self.nodes.push(id);
        id
    }

    /// An f32 operation that cannot run in place.
    fn f(&mut self, ne: [u64; 4], src: &[u32]) -> u32 {
        self.op(false, Ty::F32, ne, src)
    }

    /// An f32 operation that can run in place (`ggml_op_can_inplace`).
    fn ip(&mut self, ne: [u64; 4], src: &[u32]) -> u32 {
        self.op(true, Ty::F32, ne, src)
    }

    /// A view (reshape, view, permute) of `src`; `ne` only sizes it.
    fn view(&mut self, src: u32, ne: [u64; 4]) -> u32 {
        let root = match self.t[src as usize].kind {
            Kind::View(r) => r,
            _ => src,
        };
        let ty = self.t[src as usize].ty;
        let id = self.push(Kind::View(root), ty, ne, &[src]);
        self.nodes.push(id);
        id
    }

    /// An operation writing into the KV cache (`set_rows` on a cache view): a view of an external.
    fn cache_write(&mut self, src: &[u32]) -> u32 {
        let id = self.push(Kind::View(EXT), Ty::F16, [1; 4], src);
        self.nodes.push(id);
        id
    }

    fn mark_output(&mut self, id: u32) {
        self.t[id as usize].output = true;
    }
}

/// The inputs of one KV cache (`llm_graph_input_attn_kv`).
struct CacheInputs {
    cells: u64,
    k_rot: Option<u32>,
    v_rot: Option<u32>,
    k_idxs: u32,
    v_idxs: u32,
    mask: u32,
}

/// The decoder layers a replay builds: all of them up to three (Gemma 2: four, Gemma 3: twelve), else
/// the first two (the first reads the embeddings, the second is a layer in steady state; Gemma 3:
/// the first six, whose global sixth layer moves the residual stream against the hole its scores
/// leave) and the last one — the last period of the sliding-window pattern for Gemma 2 (two layers) and Gemma 3
/// (six), whose layers alternate between their two caches, so that the last layer has the model's
/// own kind and each cache's inputs are last used (and freed) where they are in the model (Gemma 3
/// 12B's traces differ between 6 layers, the last one global, and 8, the last one sliding).
pub fn replayed_layers(n_layer: u64, family: GraphFamily) -> Vec<u64> {
    let n = n_layer.max(1);
    // A sliding-window model keeps one whole period at the end (Gemma 3: six layers, so that its
    // last global layer and the last layers of both kinds are where they are in the model).
    let tail = family.swa_pattern().unwrap_or(1);
    // Gemma 3 also keeps its whole first period: its first global layer moves where the residual
    // stream lies against the hole the global scores leave (7.5 MiB on 12B at 12 layers).
    let head = tail.max(2);
    if n <= head.saturating_add(tail) {
        (0..n).collect()
    } else {
        (0..head).chain(n - tail..n).collect()
    }
}

/// Builds the worst-case ubatch graph of `s` over the decoder layers `layers` (indices into the
/// model's `s.layers`, ascending; the last one selects the output rows).
pub fn build(s: &GraphSpec, layers: &[u64]) -> Graph {
    let mut g = Graph::new();
    let e = s.hidden;
    let t = s.tokens.max(1);
    let st = s.streams.clamp(1, t);
    let ts = t / st;
    let o = s.outputs.clamp(1, t);
    let hd = s.head_dim;
    let h = s.heads;
    let q = mul(h, hd);
    let kv = mul(s.kv_heads, hd);
    let fa = s.flash_attn;
    let gemma = matches!(s.family, GraphFamily::Gemma2 | GraphFamily::Gemma3);
    // Gemma 2's soft-capping of the scores (`build_attn_mha`) and logits.
    let softcap = s.family == GraphFamily::Gemma2;
    // Per-head q/k RMS norms (`build_norm` with `attn_q_norm` / `attn_k_norm`).
    let qk_norm = matches!(s.family, GraphFamily::Qwen3 | GraphFamily::Gemma3);
    let swa_pattern = s.family.swa_pattern();

    // Inputs, created in `build_inp_*` order and placed in the leaf order at first use.
    let tokens = g.input(Ty::I32, [t, 1, 1, 1]);
    let embd_in = g.input(Ty::F32, [e, t, 1, 1]);
    let pos = g.input(Ty::I32, [t, 1, 1, 1]);
    // `build_input_k_rot`: the largest power of two ≥ 128 dividing the head width, else 64.
    let nrot_k = {
        let mut n = 64u64;
        loop {
            let next = n.saturating_mul(2);
            if next == n || !hd.is_multiple_of(next) {
                break n;
            }
            n = next;
        }
    };
    let rot_k = s.quantized_k && hd > 0 && hd.is_multiple_of(64);
    let rot_v = s.quantized_v && hd > 0 && hd.is_multiple_of(64);
    let cache_inputs = |g: &mut Graph, cells: u64| CacheInputs {
        cells: cells.max(1),
        k_rot: rot_k.then(|| g.input(Ty::F32, [nrot_k, nrot_k, 1, 1])),
        v_rot: rot_v.then(|| g.input(Ty::F32, [64, 64, 1, 1])),
        k_idxs: g.input(Ty::I64, [t, 1, 1, 1]),
        v_idxs: g.input(Ty::I64, [if fa { t } else { mul(t, kv) }, 1, 1, 1]),
        mask: g.input(
            if fa { Ty::F16 } else { Ty::F32 },
            [cells.max(1), ts, 1, st],
        ),
    };
    let full = cache_inputs(&mut g, s.cells);
    let swa = gemma.then(|| cache_inputs(&mut g, s.swa_cells));
    let out_ids = g.input(Ty::I32, [o, 1, 1, 1]);

    g.leaf(tokens);
    g.leaf(embd_in);
    let mut inp = g.f([e, t, 1, 1], &[EXT, tokens]); // embd: get_rows
    if gemma {
        inp = g.ip([e, t, 1, 1], &[inp]); // inp_scaled
    }
    for (i, &il) in layers.iter().enumerate() {
        // The last layer keeps only the output rows (`inp_out_ids`) where this buffer holds the
        // output; a device without it (pipeline parallelism) runs every layer on all tokens.
        let last = i + 1 == layers.len() && s.with_output;
        let c = match (&swa, swa_pattern) {
            // `set_swa_pattern(n)`: layer `il` slides when `il % n < n - 1`.
            (Some(w), Some(n)) if il % n < n - 1 => w,
            _ => &full,
        };
        let rows = if last { o } else { t };
        let norm = g.ip([e, t, 1, 1], &[inp]);
        let attn_norm = g.ip([e, t, 1, 1], &[norm, EXT]);

        // Q (expanded first), then V and K (`build_attn`; Gemma 2 builds K before V).
        let mut qc = g.f([q, t, 1, 1], &[EXT, attn_norm]);
        if s.family == GraphFamily::Qwen2 {
            qc = g.ip([q, t, 1, 1], &[qc, EXT]);
        }
        let mut qr = g.view(qc, [hd, h, t, 1]);
        if qk_norm {
            let n = g.ip([hd, h, t, 1], &[qr]);
            qr = g.ip([hd, h, t, 1], &[n, EXT]);
        }
        if let Some(r) = c.k_rot {
            g.leaf(r);
        }
        g.leaf(pos);
        let mut qf = g.ip([hd, h, t, 1], &[qr, pos]);
        if gemma {
            qf = g.ip([hd, h, t, 1], &[qf]);
        }
        if let Some(r) = c.k_rot {
            let v = g.view(qf, [nrot_k, 1, 1, 1]);
            let m = g.f([q, t, 1, 1], &[r, v]);
            qf = g.view(m, [hd, h, t, 1]);
        }
        let build_v = |g: &mut Graph| {
            let mut vc = g.f([kv, t, 1, 1], &[EXT, attn_norm]);
            if s.family == GraphFamily::Qwen2 {
                vc = g.ip([kv, t, 1, 1], &[vc, EXT]);
            }
            let mut vf = g.view(vc, [hd, s.kv_heads, t, 1]);
            if let Some(r) = c.v_rot {
                g.leaf(r);
                let v = g.view(vf, [64, 1, 1, 1]);
                let m = g.f([kv, t, 1, 1], &[r, v]);
                vf = g.view(m, [hd, s.kv_heads, t, 1]);
            }
            vf
        };
        let build_k = |g: &mut Graph| {
            let mut kc = g.f([kv, t, 1, 1], &[EXT, attn_norm]);
            if s.family == GraphFamily::Qwen2 {
                kc = g.ip([kv, t, 1, 1], &[kc, EXT]);
            }
            let mut kr = g.view(kc, [hd, s.kv_heads, t, 1]);
            if qk_norm {
                let n = g.ip([hd, s.kv_heads, t, 1], &[kr]);
                kr = g.ip([hd, s.kv_heads, t, 1], &[n, EXT]);
            }
            let mut kf = g.ip([hd, s.kv_heads, t, 1], &[kr, pos]);
            if let Some(r) = c.k_rot {
                let v = g.view(kf, [nrot_k, 1, 1, 1]);
                let m = g.f([kv, t, 1, 1], &[r, v]);
                kf = g.view(m, [hd, s.kv_heads, t, 1]);
            }
            kf
        };
        let (vf, kf) = if gemma {
            let kf = build_k(&mut g);
            (build_v(&mut g), kf)
        } else {
            let vf = build_v(&mut g);
            (vf, build_k(&mut g))
        };
        // `cpy_k`, `cpy_v`: set_rows into the cache.
        let kview = g.view(kf, [kv, t, 1, 1]);
        g.leaf(c.k_idxs);
        g.cache_write(&[kview, c.k_idxs, EXT]);
        let vview = g.view(vf, [kv, t, 1, 1]);
        g.leaf(c.v_idxs);
        g.cache_write(&[vview, c.v_idxs, EXT]);

        // `build_attn_mha`.
        let qperm = g.view(qf, [hd, ts, h, st]);
        g.leaf(c.mask);
        let mut attn = if fa {
            let out = g.f([hd, h, ts, st], &[qperm, EXT, EXT, c.mask]);
            g.view(out, [q, t, 1, 1])
        } else {
            let mut kq = g.f([c.cells, ts, h, st], &[EXT, qperm]);
            let ne = g.t[kq as usize].ne;
            if softcap {
                kq = g.ip(ne, &[kq]);
                kq = g.ip(ne, &[kq]);
                kq = g.ip(ne, &[kq]);
            }
            let sm = g.ip(ne, &[kq, c.mask]);
            let kqv = g.f([hd, ts, h, st], &[EXT, sm]);
            let perm = g.view(kqv, [hd, h, ts, st]);
            g.f([q, t, 1, 1], &[perm])
        };
        if let Some(r) = c.v_rot {
            let v = g.view(attn, [64, 1, 1, 1]);
            let m = g.f([q, t, 1, 1], &[r, v]);
            attn = g.view(m, [q, t, 1, 1]);
        }
        let mut cur = g.f([e, t, 1, 1], &[EXT, attn]);
        let ffn_inp = if gemma {
            if last {
                g.leaf(out_ids);
                cur = g.f([e, rows, 1, 1], &[cur, out_ids]);
            }
            let n = g.ip([e, rows, 1, 1], &[cur]);
            let post = g.ip([e, rows, 1, 1], &[n, EXT]);
            let res = if last {
                g.f([e, rows, 1, 1], &[inp, out_ids])
            } else {
                inp
            };
            g.ip([e, rows, 1, 1], &[post, res])
        } else {
            let res = if last {
                g.leaf(out_ids);
                cur = g.f([e, rows, 1, 1], &[cur, out_ids]);
                g.f([e, rows, 1, 1], &[inp, out_ids])
            } else {
                inp
            };
            g.ip([e, rows, 1, 1], &[cur, res])
        };
        let n = g.ip([e, rows, 1, 1], &[ffn_inp]);
        let ffn_norm = g.ip([e, rows, 1, 1], &[n, EXT]);
        let mut ffn_out = match s.moe {
            Some(m) => moe_ffn(&mut g, m, e, rows, ffn_norm),
            None => {
                let gate = g.f([s.n_ff, rows, 1, 1], &[EXT, ffn_norm]);
                let up = g.f([s.n_ff, rows, 1, 1], &[EXT, ffn_norm]);
                let glu = g.f([s.n_ff, rows, 1, 1], &[gate, up]);
                g.f([e, rows, 1, 1], &[EXT, glu])
            }
        };
        if gemma {
            let n = g.ip([e, rows, 1, 1], &[ffn_out]);
            ffn_out = g.ip([e, rows, 1, 1], &[n, EXT]);
        }
        inp = g.ip([e, rows, 1, 1], &[ffn_out, ffn_inp]);
    }
    if s.with_output {
        let n = g.ip([e, o, 1, 1], &[inp]);
        let result_norm = g.ip([e, o, 1, 1], &[n, EXT]);
        g.mark_output(result_norm);
        let mut logits = g.f([s.vocab, o, 1, 1], &[EXT, result_norm]);
        if softcap {
            logits = g.ip([s.vocab, o, 1, 1], &[logits]);
            logits = g.ip([s.vocab, o, 1, 1], &[logits]);
            logits = g.ip([s.vocab, o, 1, 1], &[logits]);
        }
        g.mark_output(logits);
    }
    g
}

/// `build_moe_ffn` with soft-max gating, normalised weights and separate gate / up experts.
fn moe_ffn(g: &mut Graph, m: GraphMoe, e: u64, rows: u64, cur: u32) -> u32 {
    let x = m.experts;
    let k = m.used.clamp(1, MAX_REPLAY_EXPERTS);
    let logits = g.f([x, rows, 1, 1], &[EXT, cur]);
    let probs = g.ip([x, rows, 1, 1], &[logits]);
    let probs3 = g.view(probs, [1, x, rows, 1]);
    let argsort = g.op(false, Ty::I32, [x, rows, 1, 1], &[probs]);
    let topk = g.view(argsort, [k, rows, 1, 1]);
    let weights = g.f([1, k, rows, 1], &[probs3, topk]);
    let weights2 = g.view(weights, [k, rows, 1, 1]);
    let wsum = g.f([1, rows, 1, 1], &[weights2]);
    let clamped = g.ip([1, rows, 1, 1], &[wsum]);
    let wnorm = g.ip([k, rows, 1, 1], &[weights2, clamped]);
    let wnorm3 = g.view(wnorm, [1, k, rows, 1]);
    let cur3 = g.view(cur, [e, 1, rows, 1]);
    let gate = g.f([m.expert_ff, k, rows, 1], &[EXT, cur3, topk]);
    let up = g.f([m.expert_ff, k, rows, 1], &[EXT, cur3, topk]);
    let glu = g.f([m.expert_ff, k, rows, 1], &[gate, up]);
    let down = g.f([e, k, rows, 1], &[EXT, glu, topk]);
    let experts = g.ip([e, k, rows, 1], &[down, wnorm3]);
    // Strided views, one per selected expert, summed: the first `add` cannot reuse a view. (ggml
    // creates the views before the sums; views allocate nothing, so interleaving them is the same.)
    let mut out = g.view(experts, [e, rows, 1, 1]);
    for _ in 1..k {
        let v = g.view(experts, [e, rows, 1, 1]);
        out = g.ip([e, rows, 1, 1], &[out, v]);
    }
    if k == 1 {
        out = g.f([e, rows, 1, 1], &[out]);
    }
    out
}

/// `ggml_dyn_tallocr` with one chunk (the CPU and CUDA buffer types have no maximum size).
struct DynAlloc {
    alignment: u64,
    /// (offset, size), sorted by offset, coalesced; the last block is the end of the chunk.
    free: Vec<(u64, u64)>,
    max_size: u64,
}

impl DynAlloc {
    fn new(alignment: u64) -> DynAlloc {
        DynAlloc {
            alignment: alignment.max(1),
            // `max_chunk_size = MIN(max_buffer_size, SIZE_MAX/2)`.
            free: vec![(0, u64::MAX / 2)],
            max_size: 0,
        }
    }

    fn pad(&self, size: u64) -> u64 {
        size.div_ceil(self.alignment).saturating_mul(self.alignment)
    }

    fn alloc(&mut self, size: u64) -> u64 {
        let size = self.pad(size);
        let n = self.free.len();
        let mut best = None;
        let mut best_size = u64::MAX;
        for (i, &(_, bsize)) in self.free.iter().enumerate().take(n.saturating_sub(1)) {
            if bsize >= size && bsize <= best_size {
                best = Some(i);
                best_size = bsize;
            }
        }
        let i = best.unwrap_or(n - 1);
        let (offset, bsize) = self.free[i];
        // The last block is (practically) endless; past it the size saturates.
        let taken = size.min(bsize);
        self.free[i] = (offset.saturating_add(taken), bsize - taken);
        if self.free[i].1 == 0 && n > 1 {
            self.free.remove(i);
        }
        self.max_size = self.max_size.max(offset.saturating_add(size));
        offset
    }

    fn free_bytes(&mut self, offset: u64, size: u64) {
        let size = self.pad(size);
        let end = offset.saturating_add(size);
        for i in 0..self.free.len() {
            let (boff, bsize) = self.free[i];
            if boff.saturating_add(bsize) == offset {
                self.free[i].1 = bsize.saturating_add(size);
                if i + 1 < self.free.len() {
                    let (noff, nsize) = self.free[i + 1];
                    if boff.saturating_add(self.free[i].1) == noff {
                        self.free[i].1 = self.free[i].1.saturating_add(nsize);
                        self.free.remove(i + 1);
                    }
                }
                return;
            }
            if end == boff {
                self.free[i] = (offset, bsize.saturating_add(size));
                if i > 0 {
                    let (poff, psize) = self.free[i - 1];
                    if poff.saturating_add(psize) == offset {
                        self.free[i - 1].1 = psize.saturating_add(self.free[i].1);
                        self.free.remove(i);
                    }
                }
                return;
            }
        }
        let at = self.free.partition_point(|&(o, _)| o < offset);
        self.free.insert(at, (offset, size));
    }
}

#[derive(Clone, Copy, Default)]
struct HashNode {
    children: u32,
    views: u32,
    allocated: bool,
    offset: u64,
}

/// The peak of `ggml_gallocr_alloc_graph_impl` over `g`: the compute buffer's size.
pub fn replay(g: &Graph, alignment: u64) -> u64 {
    let mut hn = vec![HashNode::default(); g.t.len()];
    let mut a = DynAlloc::new(alignment);
    let allocate = |hn: &mut [HashNode], a: &mut DynAlloc, id: u32| {
        let tensor = &g.t[id as usize];
        let inplace = match tensor.kind {
            Kind::External | Kind::View(_) => return,
            Kind::Input => false,
            Kind::Op(inplace) => inplace,
        };
        if hn[id as usize].allocated {
            return;
        }
        hn[id as usize].allocated = true;
        if inplace {
            for &p in &tensor.src[..tensor.n_src as usize] {
                let parent = &g.t[p as usize];
                let ph = hn[p as usize];
                // `ggml_gallocr_is_own` is false for views: they are never reused.
                if !ph.allocated || parent.output {
                    continue;
                }
                if parent.ty != tensor.ty || parent.ne != tensor.ne {
                    continue;
                }
                if ph.children == 1 && ph.views == 0 {
                    hn[id as usize].offset = ph.offset;
                    hn[p as usize].allocated = false;
                    return;
                }
            }
        }
        hn[id as usize].offset = a.alloc(tensor.bytes);
    };
    for &l in &g.leafs {
        allocate(&mut hn, &mut a, l);
    }
    for &n in &g.nodes {
        let tensor = &g.t[n as usize];
        if let Kind::View(root) = tensor.kind {
            hn[root as usize].views += 1;
        }
        for &p in &tensor.src[..tensor.n_src as usize] {
            hn[p as usize].children += 1;
        }
    }
    let free = |hn: &mut [HashNode], a: &mut DynAlloc, id: u32| {
        let tensor = &g.t[id as usize];
        if tensor.output {
            return;
        }
        a.free_bytes(hn[id as usize].offset, tensor.bytes);
        hn[id as usize].allocated = false;
    };
    for &n in &g.nodes {
        allocate(&mut hn, &mut a, n);
        let tensor = &g.t[n as usize];
        for &p in &tensor.src[..tensor.n_src as usize] {
            if p == EXT {
                continue;
            }
            let ph = &mut hn[p as usize];
            ph.children = ph.children.saturating_sub(1);
            if ph.children == 0 && ph.views == 0 {
                if let Kind::View(root) = g.t[p as usize].kind {
                    if root == EXT {
                        continue;
                    }
                    let rh = &mut hn[root as usize];
                    rh.views = rh.views.saturating_sub(1);
                    if rh.views == 0 && rh.children == 0 && rh.allocated {
                        free(&mut hn, &mut a, root);
                    }
                } else if ph.allocated {
                    free(&mut hn, &mut a, p);
                }
            }
        }
    }
    a.max_size
}

/// The compute buffer of `s`: the replay over [`replayed_layers`].
pub fn compute_buffer(s: &GraphSpec) -> u64 {
    replay(&build(s, &replayed_layers(s.layers, s.family)), s.alignment)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llama(flash_attn: bool, quantized: bool, streams: u64, outputs: u64) -> GraphSpec {
        GraphSpec {
            family: GraphFamily::Llama,
            moe: None,
            hidden: 5120,
            heads: 32,
            kv_heads: 8,
            head_dim: 128,
            n_ff: 14336,
            vocab: 131072,
            layers: 40,
            cells: 16384 / streams,
            swa_cells: 16384 / streams,
            tokens: 512,
            streams,
            outputs,
            flash_attn,
            quantized_k: quantized,
            quantized_v: quantized,
            with_output: true,
            alignment: 128,
        }
    }

    fn shapes() -> Vec<GraphSpec> {
        let mut out = Vec::new();
        for fa in [false, true] {
            for (streams, outputs) in [(1, 512), (1, 1), (4, 4), (4, 512)] {
                let base = llama(fa, fa, streams, outputs);
                out.push(base);
                out.push(GraphSpec {
                    family: GraphFamily::Qwen2,
                    hidden: 3584,
                    heads: 28,
                    kv_heads: 4,
                    ..base
                });
                out.push(GraphSpec {
                    family: GraphFamily::Qwen3,
                    moe: Some(GraphMoe {
                        experts: 128,
                        used: 8,
                        expert_ff: 768,
                    }),
                    hidden: 2048,
                    heads: 32,
                    kv_heads: 4,
                    ..base
                });
                out.push(GraphSpec {
                    family: GraphFamily::Gemma2,
                    hidden: 3584,
                    heads: 16,
                    kv_heads: 8,
                    head_dim: 256,
                    n_ff: 14336,
                    vocab: 256000,
                    layers: 42,
                    swa_cells: 4608 / streams,
                    ..base
                });
                // Gemma 3 12B and 27B (n_head·head_dim 4096 below n_embd 5376).
                for (hidden, heads, kv_heads, head_dim, n_ff) in
                    [(3840, 16, 8, 256, 15360), (5376, 32, 16, 128, 21504)]
                {
                    out.push(GraphSpec {
                        family: GraphFamily::Gemma3,
                        hidden,
                        heads,
                        kv_heads,
                        head_dim,
                        n_ff,
                        vocab: 262208,
                        layers: 48,
                        swa_cells: 1536 / streams,
                        ..base
                    });
                }
            }
        }
        out
    }

    /// Depth does not move the peak past the replayed layers: every deeper graph, built whole,
    /// peaks where the replay does (odd and even depths, for Gemma 2's alternating layers; every
    /// position in Gemma 3's period of six).
    #[test]
    fn replayed_layers_reach_the_steady_state() {
        for s in shapes() {
            let replayed = compute_buffer(&GraphSpec { layers: 64, ..s });
            let top = if s.family == GraphFamily::Gemma3 {
                26
            } else {
                11
            };
            for n in 2..=top {
                let whole: Vec<u64> = (0..n).collect();
                let full = replay(&build(&GraphSpec { layers: n, ..s }, &whole), s.alignment);
                let short = compute_buffer(&GraphSpec { layers: n, ..s });
                assert_eq!(full, short, "{s:?} at {n} layers");
                // Gemma 2 with an odd depth ends on a sliding layer: another graph; at 2 layers
                // its sliding cache's inputs are last used by the first layer.
                // Gemma 3 is checked against a model of its own phase below.
                if n >= 4
                    && (s.family != GraphFamily::Gemma2 || n % 2 == 0)
                    && s.family != GraphFamily::Gemma3
                {
                    assert_eq!(full, replayed, "{s:?} at {n} layers");
                }
                // Gemma 3: a deep model whose last layer sits at the same place in the pattern
                // (60 layers more) peaks where the whole graph does.
                if s.family == GraphFamily::Gemma3 && n >= 8 {
                    let deep = compute_buffer(&GraphSpec {
                        layers: n.saturating_add(60),
                        ..s
                    });
                    assert_eq!(full, deep, "{s:?} at {n} layers");
                }
            }
        }
    }

    /// Absurd shapes saturate; nothing wraps or panics.
    #[test]
    fn absurd_shapes_saturate() {
        let s = GraphSpec {
            hidden: u64::MAX,
            heads: u64::MAX,
            n_ff: u64::MAX / 3,
            vocab: u64::MAX,
            cells: u64::MAX,
            tokens: u64::MAX,
            streams: u64::MAX,
            outputs: u64::MAX,
            head_dim: u64::MAX,
            ..llama(true, true, 1, 1)
        };
        assert!(compute_buffer(&s) >= u64::MAX / 4);
        let zero = GraphSpec {
            hidden: 0,
            heads: 0,
            kv_heads: 0,
            head_dim: 0,
            n_ff: 0,
            vocab: 0,
            cells: 0,
            tokens: 0,
            streams: 0,
            outputs: 0,
            ..llama(false, false, 1, 1)
        };
        let _ = compute_buffer(&zero);
    }

    /// The allocator: best fit among the inner free blocks (the later on ties), merging on free.
    #[test]
    fn dyn_alloc_best_fit_and_merge() {
        let mut a = DynAlloc::new(32);
        let x = a.alloc(100); // 0..128
        let y = a.alloc(64); // 128..192
        let z = a.alloc(256); // 192..448
        let _w = a.alloc(32); // 448..480
        assert_eq!((x, y, z), (0, 128, 192));
        a.free_bytes(x, 100);
        a.free_bytes(z, 256);
        // 64 bytes fit both holes: the smaller (0..128) wins.
        assert_eq!(a.alloc(64), 0);
        a.free_bytes(y, 64);
        // 64..448 is one block now.
        assert_eq!(a.free[0], (64, 384));
        assert_eq!(a.max_size, 480);
        // Nothing inner fits 1000: the end of the last block.
        assert_eq!(a.alloc(1000), 480);
    }
}
