//! A micro-batch: the forward of every micro-batch in flight on this stage (embeddings, layers,
//! head), then their backward in reverse, with checkpointing and frozen bottom layers.

use super::ops::{G, X, Y};
use super::{Kind, LayerState, Sim, Stage, Tns};
use crate::workloads::training::TrainPhase;
use std::rc::Rc;

const EMPTY: Tns = Tns {
    block: None,
    size: 0,
    kind: Kind::Activations,
};

impl Sim<'_> {
    pub(super) fn micro_batch(&mut self) {
        let whole_or_first = self.stage != Stage::Last;
        let has_head = self.stage != Stage::First;
        let ckpt = self.t.checkpointing == crate::workloads::training::Checkpointing::Full;
        let n_layers = self.layers.len();
        let mut batches = Vec::new();
        self.phase = TrainPhase::Forward;
        for _ in 0..self.in_flight {
            let (mut x, keep) = if whole_or_first {
                let (x, k) = self.embed_forward();
                (x, k)
            } else {
                let th = self.tokens.saturating_mul(u64::from(self.a.hidden));
                (
                    self.alloc(th.saturating_mul(self.c), Kind::Activations),
                    Vec::new(),
                )
            };
            let mut states: Vec<Box<LayerState>> = Vec::with_capacity(n_layers);
            for l in 0..n_layers {
                self.gather(l);
                let mut ls = self.spare_states.pop().unwrap_or_default();
                ls.slots[usize::from(X)] = Some(x);
                let all = Rc::clone(&self.ops);
                let ops = &all[self.op_of_layer[l]];
                let layer_no = self.layers[l].0;
                if self.frozen_below(layer_no) {
                    self.run(l, &mut ls, &ops.no_grad, false, false);
                    let xin = ls.slots[usize::from(X)].take();
                    self.free_opt(xin);
                } else if ckpt {
                    self.run(l, &mut ls, &ops.no_grad, false, true);
                } else {
                    self.run(l, &mut ls, &ops.forward, true, false);
                }
                x = ls.slots[usize::from(Y)].take().unwrap_or(EMPTY);
                states.push(ls);
            }
            self.release_gathered();
            let casts = std::mem::take(&mut self.autocast_cache);
            for (_, t) in casts {
                self.free(t);
            }
            let head = if has_head {
                self.head_forward(x)
            } else {
                vec![x]
            };
            batches.push((keep, states, head));
        }
        self.phase = TrainPhase::Backward;
        for (keep, mut states, head) in batches {
            let mut g = if has_head {
                self.head_backward(head)
            } else {
                for t in head {
                    self.free(t);
                }
                let th = self.tokens.saturating_mul(u64::from(self.a.hidden));
                self.alloc(th.saturating_mul(self.c), Kind::Activations)
            };
            for l in (0..n_layers).rev() {
                let layer_no = self.layers[l].0;
                if self.frozen_below(layer_no) {
                    break;
                }
                self.gather(l);
                let all = Rc::clone(&self.ops);
                let ops = &all[self.op_of_layer[l]];
                let ls = &mut states[l];
                if ckpt {
                    self.run(l, ls, &ops.recompute, true, true);
                    ls.slots[usize::from(G)] = Some(g);
                    self.run(l, ls, &ops.recompute_backward, true, true);
                } else {
                    ls.slots[usize::from(G)] = Some(g);
                    self.run(l, ls, &ops.backward, true, false);
                }
                self.other_grads(l);
                g = ls.slots[usize::from(G)].take().unwrap_or(EMPTY);
                // What the pass left (a checkpoint's input, the recomputed output).
                for s in ls.slots.iter_mut() {
                    if let Some(t) = s.take() {
                        self.free(t);
                    }
                }
                for k in 0..ls.casts.len() {
                    self.free(ls.casts[k].1);
                }
                ls.casts.clear();
                for k in 0..ls.lora.len() {
                    self.free(ls.lora[k].1);
                }
                ls.lora.clear();
            }
            self.release_gathered();
            // Frozen bottom layers kept nothing for backward.
            for ls in states.iter_mut() {
                for s in ls.slots.iter_mut() {
                    if let Some(t) = s.take() {
                        self.free(t);
                    }
                }
            }
            // Every slot is empty again: the states serve the next micro-batch.
            self.spare_states.append(&mut states);
            if whole_or_first && self.first_trainable == 0 {
                self.embed_backward(g, keep);
            } else {
                self.free(g);
                for t in keep {
                    self.free(t);
                }
            }
        }
    }
}
