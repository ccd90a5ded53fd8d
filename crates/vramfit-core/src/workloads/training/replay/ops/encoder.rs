//! A BERT encoder layer's passes (HF `BertLayer`: post-norm, GELU, dropout, eager attention;
//! fp32 or autocast) as op lists.

use super::builder::Ops;
use super::dims::Dims;
use super::{Op, Proj, Slot, G, X, Y};

/// BERT encoder layer (HF `BertLayer`): `grad` with autograd (else the checkpointed no-grad
/// forward, which keeps `X`).
pub(super) fn encoder(d: &Dims, grad: bool) -> (Vec<Op>, Vec<Op>) {
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
