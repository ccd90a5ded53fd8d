//! The builder the layer passes (`decoder.rs`, `encoder.rs`) write their op lists with: fresh
//! slots, and gradients accumulated in place or out of place.

use super::dims::Dims;
use super::{Op, Proj, Slot, SLOTS};

/// Builds op lists with fresh slots.
pub(super) struct Ops {
    pub(super) ops: Vec<Op>,
    pub(super) next: Slot,
}

impl Ops {
    pub(super) fn new(next: Slot) -> Ops {
        Ops {
            ops: Vec::new(),
            next,
        }
    }
    pub(super) fn slot(&mut self) -> Slot {
        let s = self.next;
        self.next = self.next.saturating_add(1).min((SLOTS - 1) as Slot);
        s
    }
    pub(super) fn alloc(&mut self, bytes: u64) -> Slot {
        let s = self.slot();
        self.ops.push(Op::Alloc(s, bytes));
        s
    }
    pub(super) fn alloc_in(&mut self, s: Slot, bytes: u64) {
        self.ops.push(Op::Alloc(s, bytes));
    }
    pub(super) fn free(&mut self, s: Slot) {
        self.ops.push(Op::Free(s));
    }
    pub(super) fn mv(&mut self, to: Slot, from: Slot) {
        self.ops.push(Op::Move(to, from));
    }
    pub(super) fn linear(&mut self, p: Proj, bytes: u64) -> Slot {
        let s = self.slot();
        self.ops.push(Op::Linear(p, s, bytes));
        s
    }
    pub(super) fn back(&mut self, p: Proj, bytes: u64) -> Slot {
        let s = self.slot();
        self.ops.push(Op::LinearBack(p, s, bytes));
        s
    }
    /// Adds the gradient in `g` to the one in `into` (in place, or out of place on torch 1.10,
    /// leaving the sum in `into`).
    pub(super) fn accumulate(&mut self, d: &Dims, into: Slot, g: Slot, bytes: u64) {
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
