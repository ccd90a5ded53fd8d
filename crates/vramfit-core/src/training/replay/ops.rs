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

use crate::model::{ModelArch, TensorKind};
use crate::training::config::{LoraTargets, Method, Train, TrainPrecision};

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

/// Sizes of one layer's tensors for a micro-batch.
#[derive(Clone, Copy, Debug)]
struct Dims {
    tokens: u64,
    seq: u64,
    h: u64,
    q: u64,
    kv: u64,
    mlp: u64,
    router: u64,
    heads: u64,
    c: u64,
    amp: bool,
    flash: bool,
    in_place_grads: bool,
    /// GELU on autocast's fp32 list (torch ≤ 1.9).
    gelu_fp32: bool,
    mlp_in_saved: bool,
    down_in_saved: bool,
}

impl Dims {
    /// Bytes of `per_token` elements of `bytes` each for every token.
    fn t(&self, per_token: u64, bytes: u64) -> u64 {
        self.tokens.saturating_mul(per_token).saturating_mul(bytes)
    }
    /// Bytes of the attention scores (per head and key) at `bytes` per element.
    fn s(&self, bytes: u64) -> u64 {
        self.t(self.heads.saturating_mul(self.seq), bytes)
    }
}

/// The compute dtype's bytes.
pub fn compute_bytes(t: &Train) -> u64 {
    match t.precision {
        TrainPrecision::Fp32 => 4,
        _ => 2,
    }
}

fn dims(a: &ModelArch, t: &Train, batch: u64, seq: u64, moe_layer: bool) -> Dims {
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

/// Builds op lists with fresh slots.
struct Ops {
    ops: Vec<Op>,
    next: Slot,
}

impl Ops {
    fn new(next: Slot) -> Ops {
        Ops {
            ops: Vec::new(),
            next,
        }
    }
    fn slot(&mut self) -> Slot {
        let s = self.next;
        self.next = self.next.saturating_add(1).min((SLOTS - 1) as Slot);
        s
    }
    fn alloc(&mut self, bytes: u64) -> Slot {
        let s = self.slot();
        self.ops.push(Op::Alloc(s, bytes));
        s
    }
    fn alloc_in(&mut self, s: Slot, bytes: u64) {
        self.ops.push(Op::Alloc(s, bytes));
    }
    fn free(&mut self, s: Slot) {
        self.ops.push(Op::Free(s));
    }
    fn mv(&mut self, to: Slot, from: Slot) {
        self.ops.push(Op::Move(to, from));
    }
    fn linear(&mut self, p: Proj, bytes: u64) -> Slot {
        let s = self.slot();
        self.ops.push(Op::Linear(p, s, bytes));
        s
    }
    fn back(&mut self, p: Proj, bytes: u64) -> Slot {
        let s = self.slot();
        self.ops.push(Op::LinearBack(p, s, bytes));
        s
    }
    /// Adds the gradient in `g` to the one in `into` (in place, or out of place on torch 1.10,
    /// leaving the sum in `into`).
    fn accumulate(&mut self, d: &Dims, into: Slot, g: Slot, bytes: u64) {
        if d.in_place_grads {
            self.free(g);
        } else {
            let sum = self.alloc(bytes);
            self.free(into);
            self.free(g);
            self.mv(into, sum);
        }
    }
}

/// Decoder layer. `keep_all`: autograd saves what the eager layer saves; otherwise (compiled
/// recompute) only the matmul inputs, the rest recomputed inside backward. `grad`: with autograd.
fn decoder(d: &Dims, grad: bool, keep_all: bool) -> (Vec<Op>, Vec<Op>) {
    let c = d.c;
    let th = d.t(d.h, c);
    let mut f = Ops::new(3);
    let n1 = f.alloc(th);
    let q = f.linear(Proj::Q, d.t(d.q, c));
    let k = f.linear(Proj::K, d.t(d.kv, c));
    let v = f.linear(Proj::V, d.t(d.kv, c));
    if !grad {
        f.free(n1);
    }
    let qr = f.alloc(d.t(d.q, c));
    f.free(q);
    let kr = f.alloc(d.t(d.kv, c));
    f.free(k);
    let (att, lse, pr, prc) = if d.flash {
        let att = f.alloc(d.t(d.q, c));
        let lse = f.alloc(d.t(d.heads, 4));
        (att, Some(lse), None, None)
    } else {
        let sc = f.alloc(d.s(c));
        let pr = f.alloc(d.s(4));
        f.free(sc);
        let prc = f.alloc(d.s(c));
        let att0 = f.alloc(d.t(d.q, c));
        let att = f.alloc(d.t(d.q, c));
        f.free(att0);
        (att, None, Some(pr), Some(prc))
    };
    let transient_attn = [Some(qr), Some(kr), Some(v), pr, prc];
    if !grad || !keep_all {
        for s in transient_attn.into_iter().flatten() {
            f.free(s);
        }
        if !grad {
            if let Some(l) = lse {
                f.free(l);
            }
        }
    }
    let o = f.linear(Proj::O, th);
    if !grad {
        f.free(att);
    }
    let r1 = f.alloc(th);
    f.free(o);
    let n2 = f.alloc(th);
    let rt = (d.router > 0).then(|| f.linear(Proj::Router, d.t(d.router, c)));
    let g = f.linear(Proj::Gate, d.t(d.mlp, c));
    let u = f.linear(Proj::Up, d.t(d.mlp, c));
    let keep_n2 = grad && (d.mlp_in_saved || !keep_all);
    if !keep_n2 {
        f.free(n2);
    }
    let ac = f.alloc(d.t(d.mlp, c));
    if !grad {
        f.free(g);
    }
    let pd = f.alloc(d.t(d.mlp, c));
    if !grad || !keep_all {
        f.free(ac);
        f.free(u);
        if grad {
            f.free(g);
        }
    }
    if !grad || !keep_all {
        if let Some(r) = rt {
            f.free(r);
        }
    }
    let dn = f.linear(Proj::Down, th);
    let keep_pd = grad && (d.down_in_saved || !keep_all);
    if !keep_pd {
        f.free(pd);
    }
    f.alloc_in(Y, th);
    f.free(dn);
    if !grad || !keep_all {
        f.free(r1);
    }
    if !grad {
        return (f.ops, Vec::new());
    }

    let mut b = Ops::new(f.next);
    // Compiled: the MLP's intermediates are recomputed from the saved norm output.
    if !keep_all {
        b.alloc_in(r1, th);
        b.alloc_in(g, d.t(d.mlp, c));
        b.alloc_in(u, d.t(d.mlp, c));
        b.alloc_in(ac, d.t(d.mlp, c));
        if let Some(r) = rt {
            b.alloc_in(r, d.t(d.router, c));
        }
    }
    let gp = b.back(Proj::Down, d.t(d.mlp, c));
    if keep_pd {
        b.free(pd);
    }
    let ga = b.alloc(d.t(d.mlp, c));
    let gu = b.alloc(d.t(d.mlp, c));
    b.free(gp);
    b.free(ac);
    let gg = b.alloc(d.t(d.mlp, c));
    b.free(ga);
    let gn2 = b.back(Proj::Up, th);
    b.free(gu);
    b.free(u);
    let gn2b = b.back(Proj::Gate, th);
    b.free(gg);
    b.free(g);
    b.accumulate(d, gn2, gn2b, th);
    if let Some(r) = rt {
        let gr = b.back(Proj::Router, th);
        b.free(r);
        b.accumulate(d, gn2, gr, th);
    }
    if keep_n2 {
        b.free(n2);
    }
    let gr1 = b.alloc(th);
    b.free(gn2);
    b.free(r1);
    b.accumulate(d, G, gr1, th);
    if !keep_all {
        b.alloc_in(qr, d.t(d.q, c));
        b.alloc_in(kr, d.t(d.kv, c));
        b.alloc_in(v, d.t(d.kv, c));
        if let (Some(pr), Some(prc)) = (pr, prc) {
            b.alloc_in(pr, d.s(4));
            b.alloc_in(prc, d.s(c));
        }
    }
    let gatt = b.back(Proj::O, d.t(d.q, c));
    b.free(att);
    let (gq, gk, gv) = match (pr, prc) {
        (Some(pr), Some(prc)) => {
            let gprc = b.alloc(d.s(c));
            let gv = b.alloc(d.t(d.kv, c));
            b.free(gatt);
            b.free(prc);
            let gpr = b.alloc(d.s(4));
            b.free(gprc);
            let gs = b.alloc(d.s(4));
            b.free(gpr);
            b.free(pr);
            let gs16 = b.alloc(d.s(c));
            b.free(gs);
            let gq = b.alloc(d.t(d.q, c));
            let gk = b.alloc(d.t(d.kv, c));
            b.free(gs16);
            (gq, gk, gv)
        }
        _ => {
            let gq = b.alloc(d.t(d.q, c));
            let gk = b.alloc(d.t(d.kv, c));
            let gv = b.alloc(d.t(d.kv, c));
            b.free(gatt);
            if let Some(l) = lse {
                b.free(l);
            }
            (gq, gk, gv)
        }
    };
    b.free(qr);
    b.free(kr);
    let gq2 = b.alloc(d.t(d.q, c));
    b.free(gq);
    let gk2 = b.alloc(d.t(d.kv, c));
    b.free(gk);
    let gn1 = b.back(Proj::V, th);
    b.free(gv);
    b.free(v);
    let gn1k = b.back(Proj::K, th);
    b.free(gk2);
    b.accumulate(d, gn1, gn1k, th);
    let gn1q = b.back(Proj::Q, th);
    b.free(gq2);
    b.accumulate(d, gn1, gn1q, th);
    b.free(n1);
    let gx = b.alloc(th);
    b.free(gn1);
    b.free(X);
    b.accumulate(d, G, gx, th);
    (f.ops, b.ops)
}

/// BERT encoder layer (HF `BertLayer`): `grad` with autograd (else the checkpointed no-grad
/// forward, which keeps `X`).
fn encoder(d: &Dims, grad: bool) -> (Vec<Op>, Vec<Op>) {
    let c = d.c;
    // Autocast on fp32 weights: 16-bit matmuls, fp32 residual stream, norms and softmax.
    let amp = d.amp && c < 4;
    let th = d.t(d.h, 1);
    let ti = d.t(d.mlp, 1);
    let mut f = Ops::new(3);
    // q, k, v: under autocast each linear casts X to 16 bit and saves its copy.
    let mut casts = Vec::new();
    let proj = |f: &mut Ops, p: Proj, casts: &mut Vec<Slot>| {
        if amp {
            let xc = f.alloc(2 * th);
            casts.push(xc);
        }
        f.linear(p, c * th)
    };
    let q = proj(&mut f, Proj::Q, &mut casts);
    let k = proj(&mut f, Proj::K, &mut casts);
    let v = proj(&mut f, Proj::V, &mut casts);
    if !grad {
        for &s in &casts {
            f.free(s);
        }
    }
    // Scores (eager) or a fused kernel.
    let mut saved_attn: Vec<Slot> = Vec::new();
    let (ctx_src, attn_out_free) = if d.flash {
        let o = f.alloc(c * th);
        let lse = f.alloc(d.t(d.heads, 4));
        if grad {
            saved_attn.extend([q, k, v, o, lse]);
        } else {
            f.free(lse);
        }
        (o, !grad)
    } else {
        let qc = f.alloc(c * th);
        let kc = f.alloc(c * th);
        let sc = f.alloc(d.s(c));
        if !grad {
            f.free(qc);
            f.free(kc);
        }
        let sd = f.alloc(d.s(c));
        f.free(sc);
        // Scores plus the mask: fp32 under autocast (the mask is fp32), else the compute dtype.
        let sw = if amp { 4 } else { c };
        let sm = f.alloc(d.s(sw));
        f.free(sd);
        let p = f.alloc(d.s(sw));
        let pd = f.alloc(d.s(sw));
        let pm = f.alloc(d.s(1));
        if !grad {
            f.free(pm);
            f.free(p);
            f.free(sm);
        }
        let pdc = if amp { Some(f.alloc(d.s(2))) } else { None };
        let vc = f.alloc(c * th);
        let cx = f.alloc(c * th);
        if !grad {
            f.free(vc);
            if let Some(x) = pdc {
                f.free(x);
            }
        }
        if amp || !grad {
            f.free(pd);
        }
        if grad {
            saved_attn.extend([qc, kc, sm, p, pm, vc]);
            saved_attn.extend(pdc);
            if !amp {
                saved_attn.push(pd);
            }
        }
        (cx, true)
    };
    let cp = f.alloc(c * th);
    if attn_out_free {
        f.free(ctx_src);
    }
    if !(d.flash && grad) {
        f.free(q);
        f.free(k);
        f.free(v);
    }
    // Self output: dense, dropout, residual add (fp32 under autocast), LayerNorm.
    let dd0 = f.linear(Proj::O, c * th);
    if !grad {
        f.free(cp);
    }
    let dd = f.alloc(c * th);
    let dm = f.alloc(th);
    if !grad {
        f.free(dm);
    }
    f.free(dd0);
    let wide = if amp { 4 } else { c };
    let s1 = f.alloc(wide * th);
    let l1 = f.alloc(wide * th);
    let st1 = f.alloc(d.t(1, 8));
    if !grad {
        f.free(s1);
        f.free(st1);
    }
    f.free(dd);
    // Intermediate (GELU) and output.
    let l1c = if amp { Some(f.alloc(2 * th)) } else { None };
    let i1 = f.linear(Proj::Up, c * ti);
    if let (Some(x), false) = (l1c, grad) {
        f.free(x);
    }
    // GELU on autocast's fp32 list (torch ≤ 1.9): it casts its 16-bit input to fp32 and saves
    // that copy (the 16-bit one dies with the rebinding), returns fp32, and the output dense
    // casts it to 16 bit again (the copy it saves); the fp32 output stays referenced by
    // `BertLayer.feed_forward_chunk`'s `intermediate_output` until the layer's output is built.
    let gelu32 = amp && d.gelu_fp32;
    let (i1, g32) = if gelu32 {
        let i1w = f.alloc(4 * ti);
        let g32 = f.alloc(4 * ti);
        if !grad {
            f.free(i1w);
        }
        f.free(i1);
        (i1w, Some(g32))
    } else {
        (i1, None)
    };
    let g = f.alloc(if gelu32 { 2 * ti } else { c * ti });
    if !grad && !gelu32 {
        f.free(i1);
    }
    let d2 = f.linear(Proj::Down, c * th);
    if !grad {
        f.free(g);
    }
    let dd2 = f.alloc(c * th);
    let dm2 = f.alloc(th);
    if !grad {
        f.free(dm2);
    }
    f.free(d2);
    let s2 = f.alloc(wide * th);
    f.alloc_in(Y, wide * th);
    let st2 = f.alloc(d.t(1, 8));
    if !grad {
        f.free(s2);
        f.free(st2);
    }
    f.free(dd2);
    if let Some(x) = g32 {
        f.free(x);
    }
    // l1 is saved by the intermediate dense only without autocast (else its 16-bit copy is).
    let l1_saved = grad && !amp;
    if !l1_saved {
        f.free(l1);
    }
    // Under autocast X is saved by nothing (its copies are) and dies with the layer.
    if amp && grad {
        f.free(X);
    }
    if !grad {
        return (f.ops, Vec::new());
    }

    let mut b = Ops::new(f.next);
    let gs2 = b.alloc(wide * th);
    b.free(s2);
    b.free(st2);
    // The residual keeps gs2 for l1; the dropout branch gets a 16-bit copy under autocast.
    let gdd2 = amp.then(|| b.alloc(2 * th));
    let gd2 = b.alloc(c * th);
    if let Some(x) = gdd2 {
        b.free(x);
    }
    b.free(dm2);
    b.free(G);
    let gg = b.back(Proj::Down, c * ti);
    b.free(gd2);
    b.free(g);
    // fp32 GELU: the cast's backward widens the gradient, GELU's backward gives an fp32 gradient,
    // and the input cast's backward narrows it to 16 bit for the intermediate dense.
    let gg = if gelu32 {
        let w = b.alloc(4 * ti);
        b.free(gg);
        w
    } else {
        gg
    };
    let gi = b.alloc(if gelu32 { 4 * ti } else { c * ti });
    b.free(gg);
    b.free(i1);
    let gi = if gelu32 {
        let n = b.alloc(2 * ti);
        b.free(gi);
        n
    } else {
        gi
    };
    let gl1a = b.back(Proj::Up, c * th);
    b.free(gi);
    if let Some(x) = l1c {
        b.free(x);
    }
    if l1_saved {
        b.free(l1);
    }
    let gl1a = if amp {
        let g32 = b.alloc(4 * th);
        b.free(gl1a);
        g32
    } else {
        gl1a
    };
    b.accumulate(d, gs2, gl1a, wide * th);
    let gs1 = b.alloc(wide * th);
    b.free(gs2);
    b.free(s1);
    b.free(st1);
    let gdd = amp.then(|| b.alloc(2 * th));
    let gd = b.alloc(c * th);
    if let Some(x) = gdd {
        b.free(x);
    }
    b.free(dm);
    let gcp = b.back(Proj::O, c * th);
    b.free(gd);
    b.free(cp);
    let (gq, gk, gv) = if d.flash {
        let gq = b.alloc(c * th);
        let gk = b.alloc(c * th);
        let gv = b.alloc(c * th);
        b.free(gcp);
        for s in saved_attn {
            b.free(s);
        }
        (gq, gk, gv)
    } else {
        // saved_attn = [qc, kc, sm, p, pm, vc, (pdc | pd)]
        let (qc, kc, sm, p, pm, vc, last) = (
            saved_attn[0],
            saved_attn[1],
            saved_attn[2],
            saved_attn[3],
            saved_attn[4],
            saved_attn[5],
            saved_attn[6],
        );
        let gc = b.alloc(c * th);
        b.free(gcp);
        let gpd = b.alloc(d.s(c));
        let gvc = b.alloc(c * th);
        b.free(gc);
        b.free(vc);
        b.free(last);
        let sw = if amp { 4 } else { c };
        let gpd = if amp {
            let g32 = b.alloc(d.s(4));
            b.free(gpd);
            g32
        } else {
            gpd
        };
        let gp = b.alloc(d.s(sw));
        b.free(gpd);
        b.free(pm);
        let gsm = b.alloc(d.s(sw));
        b.free(gp);
        b.free(p);
        b.free(sm);
        let gsm = if amp {
            let g16 = b.alloc(d.s(2));
            b.free(gsm);
            g16
        } else {
            gsm
        };
        let gsc = b.alloc(d.s(c));
        b.free(gsm);
        let gqc = b.alloc(c * th);
        let gkc = b.alloc(c * th);
        b.free(gsc);
        b.free(qc);
        b.free(kc);
        let gq = b.alloc(c * th);
        b.free(gqc);
        let gk = b.alloc(c * th);
        b.free(gkc);
        let gv = b.alloc(c * th);
        b.free(gvc);
        (gq, gk, gv)
    };
    // v, k, q linears; their input gradients join the residual's (gs1) in X's buffer.
    for (p, gin, cast) in [
        (Proj::V, gv, casts.get(2)),
        (Proj::K, gk, casts.get(1)),
        (Proj::Q, gq, casts.first()),
    ] {
        let gx = b.back(p, c * th);
        b.free(gin);
        let gx = match cast {
            Some(&xc) => {
                b.free(xc);
                let g32 = b.alloc(4 * th);
                b.free(gx);
                g32
            }
            None => gx,
        };
        b.accumulate(d, gs1, gx, wide * th);
    }
    if !amp {
        b.free(X);
    }
    // The gradient of X leaves in G.
    b.mv(G, gs1);
    (f.ops, b.ops)
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
            crate::training::Checkpointing::Full => (&ops.no_grad, kept(&ops.recompute)),
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
    use crate::catalog;
    use crate::training::Checkpointing;

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
        let bert = crate::import::hf_config::parse_value(
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
        let a = crate::import::hf_config::parse_value(
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
