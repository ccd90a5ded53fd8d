//! The two ends of the model in a micro-batch: the embeddings (ids, BERT's embedding sum and
//! LayerNorm) and the head (an encoder's classifier, or the final norm, the logits and the
//! chunked loss), forward and backward.

use super::{Kind, Sim, Tns};
use crate::inputs::model::TensorKind;

impl Sim<'_> {
    pub(super) fn embed_forward(&mut self) -> (Tns, Vec<Tns>) {
        let th = self.tokens.saturating_mul(u64::from(self.a.hidden));
        let wide = if self.grad_bytes == 4 { 4 } else { self.c };
        let mut keep = Vec::new();
        // Input ids (and labels) on the device.
        keep.push(self.alloc(self.tokens.saturating_mul(8), Kind::Activations));
        if self.a.family.is_encoder() {
            // BertEmbeddings: word + token type, += positions, LayerNorm, dropout.
            let we = self.alloc(th.saturating_mul(wide), Kind::Activations);
            let te = self.alloc(th.saturating_mul(wide), Kind::Activations);
            let e = self.alloc(th.saturating_mul(wide), Kind::Activations);
            let pe = self.alloc(
                self.seq
                    .saturating_mul(u64::from(self.a.hidden))
                    .saturating_mul(wide),
                Kind::Activations,
            );
            let le = self.alloc(th.saturating_mul(wide), Kind::Activations);
            keep.push(self.alloc(self.tokens.saturating_mul(8), Kind::Activations));
            let de = self.alloc(th.saturating_mul(wide), Kind::Activations);
            keep.push(self.alloc(th, Kind::Activations));
            self.free(le);
            self.free(we);
            self.free(te);
            self.free(pe);
            keep.push(e);
            (de, keep)
        } else {
            let e = self.alloc(th.saturating_mul(wide), Kind::Activations);
            (e, keep)
        }
    }

    pub(super) fn embed_backward(&mut self, g: Tns, keep: Vec<Tns>) {
        let th = self.tokens.saturating_mul(u64::from(self.a.hidden));
        let wide = if self.grad_bytes == 4 { 4 } else { self.c };
        let mut g = g;
        if self.a.family.is_encoder() {
            let g1 = self.alloc(th.saturating_mul(wide), Kind::Activations);
            self.free(g);
            let g2 = self.alloc(th.saturating_mul(wide), Kind::Activations);
            self.free(g1);
            g = g2;
        }
        for i in self.embed.clone().into_iter().rev() {
            self.weight_grad(i);
        }
        self.free(g);
        for t in keep {
            self.free(t);
        }
    }

    /// The head's forward: returns what its backward needs.
    pub(super) fn head_forward(&mut self, x: Tns) -> Vec<Tns> {
        let h = u64::from(self.a.hidden);
        let c = self.c;
        let mut saved = vec![x];
        if self.a.family.is_encoder() {
            // Pooler on the first token, dropout, classifier, loss: a few small tensors.
            let b = self.batch;
            for bytes in [
                4 * b * h,
                c * b * h,
                c * b * h,
                c * b * h,
                b * h,
                8 * b,
                8 * b,
                4,
            ] {
                saved.push(self.alloc(bytes, Kind::Logits));
            }
            return saved;
        }
        let tp = u64::from(self.t.tensor_parallel.max(1));
        let th = self.tokens.saturating_mul(h);
        let nf = self.alloc(th.saturating_mul(c), Kind::Activations);
        saved.push(nf);
        let elements = self.tokens.saturating_mul(u64::from(self.a.vocab)) / tp;
        let chunks: u64 = if self.t.chunked_loss { 8 } else { 1 };
        let per = elements.div_ceil(chunks);
        let mut logits = Vec::new();
        for _ in 0..chunks {
            for t in self.dequantised(&self.head.clone()) {
                self.free(t);
            }
            logits.push(self.alloc(per.saturating_mul(c), Kind::Logits));
        }
        // Cross-entropy per chunk: fp32 upcast and log-softmax (saved), unless compiled (the
        // fused loss keeps its 16-bit input and the log-sum-exp).
        let mut kept = Vec::new();
        for _ in 0..chunks {
            if self.t.compiled && self.t.chunked_loss {
                kept.push(self.alloc(
                    per.saturating_mul(4) / u64::from(self.a.vocab).max(1),
                    Kind::Logits,
                ));
            } else {
                let up = self.alloc(per.saturating_mul(4), Kind::Logits);
                kept.push(self.alloc(per.saturating_mul(4), Kind::Logits));
                self.free(up);
            }
        }
        if !(self.t.compiled && self.t.chunked_loss) {
            // The 16-bit logits are referenced by nothing once the loss is computed.
            for t in logits.drain(..) {
                self.free(t);
            }
        }
        saved.extend(logits);
        saved.extend(kept);
        saved
    }

    pub(super) fn head_backward(&mut self, saved: Vec<Tns>) -> Tns {
        let h = u64::from(self.a.hidden);
        let c = self.c;
        let wide = if self.a.family.is_encoder() && self.grad_bytes == 4 {
            4
        } else {
            c
        };
        let mut it = saved.into_iter();
        let x = it.next();
        let rest: Vec<Tns> = it.collect();
        if self.a.family.is_encoder() {
            let b = self.batch;
            let g = self.alloc(8 * b, Kind::Logits);
            for i in self.head.clone().into_iter().rev() {
                self.weight_grad(i);
            }
            let gx = self.alloc(4 * b * h, Kind::Logits);
            self.free(g);
            for t in rest {
                self.free(t);
            }
            // Select backward: a zeroed [T, h] with the first tokens' gradient.
            let gy = self.alloc(
                self.tokens.saturating_mul(h).saturating_mul(wide),
                Kind::Activations,
            );
            self.free(gx);
            self.free_opt(x);
            return gy;
        }
        let tp = u64::from(self.t.tensor_parallel.max(1));
        let th = self.tokens.saturating_mul(h);
        let chunks: u64 = if self.t.chunked_loss { 8 } else { 1 };
        let elements = self.tokens.saturating_mul(u64::from(self.a.vocab)) / tp;
        let per = elements.div_ceil(chunks);
        let mut rest = rest.into_iter();
        let nf = rest.next();
        let others: Vec<Tns> = rest.collect();
        let compiled = self.t.compiled && self.t.chunked_loss;
        let (logits, kept) = if compiled {
            let n = others.len() / 2;
            (others[..n].to_vec(), others[n..].to_vec())
        } else {
            (Vec::new(), others)
        };
        let gnf = self.alloc(th.saturating_mul(c), Kind::Activations);
        for k in (0..chunks as usize).rev() {
            let gl = if compiled {
                let gl = self.alloc(per.saturating_mul(c), Kind::Logits);
                if let Some(&t) = logits.get(k) {
                    self.free(t);
                }
                gl
            } else {
                let g1 = self.alloc(per.saturating_mul(4), Kind::Logits);
                let g2 = self.alloc(per.saturating_mul(4), Kind::Logits);
                self.free(g1);
                if let Some(&t) = kept.get(k) {
                    self.free(t);
                }
                let gl = self.alloc(per.saturating_mul(c), Kind::Logits);
                self.free(g2);
                gl
            };
            for t in self.dequantised(&self.head.clone()) {
                self.free(t);
            }
            let gpart = self.alloc(th.saturating_mul(c).div_ceil(chunks), Kind::Activations);
            for i in self.head.clone() {
                if self.params[i].kind == TensorKind::Output {
                    self.weight_grad(i);
                }
            }
            self.free(gl);
            self.free(gpart);
        }
        if compiled {
            for t in kept {
                self.free(t);
            }
        }
        // Final norm backward.
        let gx = self.alloc(th.saturating_mul(c), Kind::Activations);
        for i in self.head.clone() {
            if self.params[i].kind != TensorKind::Output {
                self.weight_grad(i);
            }
        }
        self.free(gnf);
        self.free_opt(nf);
        self.free_opt(x);
        gx
    }
}
