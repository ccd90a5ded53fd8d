//! The allocator with a breakdown by kind: each allocation and free goes through the
//! allocator model, with the live bytes per [`Kind`] and the allocated peak recorded.

use super::{Kind, Sim, Tns};

impl Sim<'_> {
    pub(super) fn alloc(&mut self, bytes: u64, kind: Kind) -> Tns {
        let (block, size) = self.al.malloc(bytes);
        let k = kind as usize;
        self.by_kind[k] = self.by_kind[k].saturating_add(size);
        let now = self.al.allocated();
        if now > self.peak.0 {
            self.peak = (now, self.by_kind, self.phase);
            self.at_peak = (self.al.reserved_now(), self.al.largest_free());
        }
        Tns { block, size, kind }
    }

    pub(super) fn free(&mut self, t: Tns) {
        if let Some(b) = t.block {
            self.al.free(b);
        }
        let k = t.kind as usize;
        self.by_kind[k] = self.by_kind[k].saturating_sub(t.size);
    }

    pub(super) fn free_opt(&mut self, t: Option<Tns>) {
        if let Some(t) = t {
            self.free(t);
        }
    }

    pub(super) fn rekind(&mut self, t: &mut Tns, kind: Kind) {
        self.by_kind[t.kind as usize] = self.by_kind[t.kind as usize].saturating_sub(t.size);
        self.by_kind[kind as usize] = self.by_kind[kind as usize].saturating_add(t.size);
        t.kind = kind;
    }
}
