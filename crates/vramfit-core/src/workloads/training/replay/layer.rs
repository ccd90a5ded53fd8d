//! One layer's pass: its op list run against the allocator, each projection with its autocast
//! copies, dequantised weights and LoRA branch (forward and backward), and the layers gathered
//! under ZeRO-3 / FSDP.

use super::ops::{Op, Proj, Slot, X};
use super::{Kind, LayerState, Sim};
use std::rc::Rc;

impl Sim<'_> {
    pub(super) fn linear(
        &mut self,
        layer: usize,
        ls: &mut LayerState,
        p: Proj,
        s: Slot,
        bytes: u64,
        grad: bool,
    ) {
        let cover = Rc::clone(&self.cover);
        let list = &cover[layer][p as usize];
        for &i in list {
            self.cast(i, ls, grad);
        }
        let dq = self.dequantised(list);
        let mut out = self.alloc(bytes, Kind::Activations);
        for t in dq {
            self.free(t);
        }
        let r = u64::from(self.t.lora_rank.max(1));
        let adapters = list.iter().filter(|&&i| self.params[i].adapter).count() / 2;
        for _ in 0..adapters {
            let a_out = self.alloc(
                self.tokens.saturating_mul(r).saturating_mul(self.c),
                Kind::Activations,
            );
            let b_out = self.alloc(bytes, Kind::Activations);
            if self.t.compiled {
                // Compiled (torchtune compiles each layer): `out + (alpha / rank) · b_out` is one
                // pointwise kernel, and Inductor writes it into the buffer of `out`, the last
                // reader of which it is (`torch/_inductor/scheduler.py`
                // `decide_inplace_update`, `config.inplace_buffers`); `b_out` is freed.
                self.free(b_out);
            } else {
                let scaled = self.alloc(bytes, Kind::Activations);
                self.free(b_out);
                let sum = self.alloc(bytes, Kind::Activations);
                self.free(scaled);
                self.free(out);
                out = sum;
            }
            if grad {
                ls.lora.push((p, a_out, bytes));
            } else {
                self.free(a_out);
            }
        }
        ls.slots[usize::from(s)] = Some(out);
    }

    pub(super) fn linear_back(
        &mut self,
        layer: usize,
        ls: &mut LayerState,
        p: Proj,
        s: Slot,
        bytes: u64,
    ) {
        let cover = Rc::clone(&self.cover);
        let list = &cover[layer][p as usize];
        let dq = self.dequantised(list);
        let gin = self.alloc(bytes, Kind::Activations);
        for t in dq {
            self.free(t);
        }
        for &i in list.iter().rev() {
            if !self.params[i].adapter {
                self.weight_grad(i);
            }
        }
        let r = u64::from(self.t.lora_rank.max(1));
        let adapters: Vec<usize> = list
            .iter()
            .copied()
            .filter(|&i| self.params[i].adapter)
            .collect();
        let mut k = 0;
        while let Some(pos) = ls.lora.iter().position(|&(q, _, _)| q == p) {
            let (_, a_out, out_bytes) = ls.lora.swap_remove(pos);
            let gs = self.alloc(out_bytes, Kind::Activations);
            let ga = self.alloc(
                self.tokens.saturating_mul(r).saturating_mul(self.c),
                Kind::Activations,
            );
            self.free(gs);
            if let Some(&b) = adapters.get(2 * k + 1) {
                self.weight_grad(b);
            }
            self.free(a_out);
            let gx = self.alloc(bytes, Kind::Activations);
            if let Some(&a) = adapters.get(2 * k) {
                self.weight_grad(a);
            }
            self.free(ga);
            self.free(gx);
            k += 1;
        }
        for &i in list {
            self.release_cast(i, ls);
        }
        ls.slots[usize::from(s)] = Some(gin);
    }

    /// Runs a layer pass. `pinned`: `X` is held by a checkpoint, not by this pass.
    pub(super) fn run(
        &mut self,
        layer: usize,
        ls: &mut LayerState,
        ops: &[Op],
        grad: bool,
        pinned: bool,
    ) {
        for &op in ops {
            match op {
                Op::Alloc(s, b) => {
                    let t = self.alloc(b, Kind::Activations);
                    ls.slots[usize::from(s)] = Some(t);
                }
                Op::Free(s) => {
                    if s == X && pinned {
                        continue;
                    }
                    let t = ls.slots[usize::from(s)].take();
                    self.free_opt(t);
                }
                Op::Move(to, from) => {
                    ls.slots[usize::from(to)] = ls.slots[usize::from(from)].take();
                }
                Op::Linear(p, s, b) => self.linear(layer, ls, p, s, b, grad),
                Op::LinearBack(p, s, b) => self.linear_back(layer, ls, p, s, b),
            }
        }
    }

    /// Gradients of the layer's parameters no projection produced (norms, biases, routers).
    pub(super) fn other_grads(&mut self, layer: usize) {
        let cover = Rc::clone(&self.cover);
        for &i in &cover[layer][8] {
            if !self.params[i].adapter {
                self.weight_grad(i);
            }
        }
    }

    pub(super) fn gather(&mut self, layer: usize) {
        if self.shard_params <= 1 && !self.t.offload_params {
            return;
        }
        let bytes: u64 = self.layers[layer]
            .1
            .iter()
            .map(|&i| self.params[i].stored)
            .sum();
        let t = self.alloc(bytes, Kind::Temporary);
        self.gathered.push_back(t);
        while self.gathered.len() > 2 {
            let old = self.gathered.pop_front();
            self.free_opt(old);
        }
    }

    pub(super) fn release_gathered(&mut self) {
        while let Some(t) = self.gathered.pop_front() {
            self.free(t);
        }
    }

    pub(super) fn frozen_below(&self, l: u32) -> bool {
        l < self.first_trainable
    }
}
