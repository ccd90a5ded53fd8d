//! A decoder layer's passes (pre-norm, RoPE, SwiGLU, MoE; eager or compiled recompute) as op
//! lists.

use super::builder::Ops;
use super::dims::Dims;
use super::{Op, Proj, G, X, Y};

/// Decoder layer. `keep_all`: autograd saves what the eager layer saves; otherwise (compiled
/// recompute) only the matmul inputs, the rest recomputed inside backward. `grad`: with autograd.
pub(super) fn decoder(d: &Dims, grad: bool, keep_all: bool) -> (Vec<Op>, Vec<Op>) {
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
