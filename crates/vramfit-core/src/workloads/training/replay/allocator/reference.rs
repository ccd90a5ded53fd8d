//! The allocator as first written: one sorted vector of free blocks per pool and no device limit.
//! Tests only: the faster free lists of `allocator.rs` are checked against it, call by call. It
//! shares the parent's constants, so the two differ only in how they keep and search free blocks.

use super::{round_size, segment_size, ADDRESS_SPACE, MIN_BLOCK, NONE, SMALL_SIZE};

/// One pool's free blocks as (size, address, block), sorted by size then address
/// (`BlockComparatorSize`): the best fit for a request is the first entry at least its size.
#[derive(Clone, Debug, Default)]
struct FreeList {
    blocks: Vec<(u64, u64, u32)>,
}

impl FreeList {
    fn insert(&mut self, size: u64, addr: u64, id: u32) {
        let pos = self
            .blocks
            .partition_point(|&(s, a, _)| (s, a) < (size, addr));
        self.blocks.insert(pos, (size, addr, id));
    }

    fn remove(&mut self, size: u64, addr: u64) {
        let pos = self
            .blocks
            .partition_point(|&(s, a, _)| (s, a) < (size, addr));
        if self
            .blocks
            .get(pos)
            .is_some_and(|&(s, a, _)| s == size && a == addr)
        {
            self.blocks.remove(pos);
        }
    }

    /// Removes and returns the best fit for `size`: (block id).
    fn take_best_fit(&mut self, size: u64) -> Option<u32> {
        let pos = self.blocks.partition_point(|&(s, _, _)| s < size);
        (pos < self.blocks.len()).then(|| self.blocks.remove(pos).2)
    }

    fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.blocks.iter().map(|&(s, a, _)| (s, a))
    }
}

/// A handed-out block (`None` for a 0-byte request).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockId(u32);

#[derive(Clone, Copy, Debug)]
struct Block {
    addr: u64,
    size: u64,
    allocated: bool,
    small: bool,
    prev: u32,
    next: u32,
}

/// The allocator's state: every block of every segment, the two pools' free blocks.
#[derive(Clone, Debug, Default)]
pub struct Allocator {
    blocks: Vec<Block>,
    spare: Vec<u32>,
    free_small: FreeList,
    free_large: FreeList,
    next_addr: u64,
    reserved: u64,
    allocated: u64,
    segments: u64,
    calls: u64,
}

impl Allocator {
    /// An allocator that has reserved nothing.
    pub fn new() -> Allocator {
        Allocator::default()
    }

    /// Bytes of all segments (`torch.cuda.memory_reserved`).
    pub fn reserved(&self) -> u64 {
        self.reserved
    }

    /// Bytes of handed-out blocks (`torch.cuda.memory_allocated`).
    pub fn allocated(&self) -> u64 {
        self.allocated
    }

    fn pool(&mut self, small: bool) -> &mut FreeList {
        if small {
            &mut self.free_small
        } else {
            &mut self.free_large
        }
    }

    fn new_block(&mut self, b: Block) -> u32 {
        match self.spare.pop() {
            Some(i) => {
                self.blocks[i as usize] = b;
                i
            }
            None => {
                self.blocks.push(b);
                u32::try_from(self.blocks.len() - 1).unwrap_or(NONE)
            }
        }
    }

    /// `malloc`: hands out a block for `bytes` and returns it with its size (the bytes it counts
    /// in `allocated`).
    pub fn malloc(&mut self, bytes: u64) -> (Option<BlockId>, u64) {
        if bytes == 0 {
            return (None, 0);
        }
        self.calls += 1;
        let size = round_size(bytes);
        let small = size <= SMALL_SIZE;
        let found = self.pool(small).take_best_fit(size);
        let id = match found {
            Some(id) => id,
            None => {
                let seg = segment_size(size);
                if seg > ADDRESS_SPACE - self.next_addr {
                    // Beyond any device: the run does not fit anywhere; reserved saturates and
                    // the request gets no block (addresses stay far below 2^64).
                    self.reserved = u64::MAX;
                    self.allocated = self.allocated.saturating_add(size);
                    return (None, size);
                }
                let addr = self.next_addr;
                self.next_addr = self.next_addr.saturating_add(seg);
                self.reserved = self.reserved.saturating_add(seg);
                self.segments += 1;
                self.new_block(Block {
                    addr,
                    size: seg,
                    allocated: false,
                    small,
                    prev: NONE,
                    next: NONE,
                })
            }
        };
        let b = self.blocks[id as usize];
        let rest = b.size - size;
        let split = if small {
            rest >= MIN_BLOCK
        } else {
            rest > SMALL_SIZE
        };
        if split {
            let r = self.new_block(Block {
                addr: b.addr + size,
                size: rest,
                allocated: false,
                small,
                prev: id,
                next: b.next,
            });
            if b.next != NONE {
                self.blocks[b.next as usize].prev = r;
            }
            let blk = &mut self.blocks[id as usize];
            blk.next = r;
            blk.size = size;
            self.pool(small).insert(rest, b.addr + size, r);
        }
        let blk = &mut self.blocks[id as usize];
        blk.allocated = true;
        let got = blk.size;
        self.allocated = self.allocated.saturating_add(got);
        (Some(BlockId(id)), got)
    }

    /// `free` / `free_block`: returns the block to its pool, merged with free neighbours.
    pub fn free(&mut self, id: BlockId) {
        let i = id.0;
        let Some(b) = self.blocks.get(i as usize).copied() else {
            return;
        };
        if !b.allocated {
            return;
        }
        self.calls += 1;
        self.allocated = self.allocated.saturating_sub(b.size);
        let (mut addr, mut size, mut prev, mut next) = (b.addr, b.size, b.prev, b.next);
        let mut keep = i;
        if prev != NONE {
            let p = self.blocks[prev as usize];
            if !p.allocated {
                self.pool(b.small).remove(p.size, p.addr);
                self.spare.push(keep);
                keep = prev;
                addr = p.addr;
                size = size.saturating_add(p.size);
                prev = p.prev;
            }
        }
        if next != NONE {
            let n = self.blocks[next as usize];
            if !n.allocated {
                self.pool(b.small).remove(n.size, n.addr);
                self.spare.push(next);
                size = size.saturating_add(n.size);
                next = n.next;
            }
        }
        self.blocks[keep as usize] = Block {
            addr,
            size,
            allocated: false,
            small: b.small,
            prev,
            next,
        };
        if prev != NONE {
            self.blocks[prev as usize].next = keep;
        }
        if next != NONE {
            self.blocks[next as usize].prev = keep;
        }
        self.pool(b.small).insert(size, addr, keep);
    }

    /// The free blocks of both pools as (size, address): with the same tensors allocated, two
    /// states with equal free blocks serve any later sequence of requests identically.
    pub fn free_blocks(&self) -> Vec<(u64, u64)> {
        self.free_small
            .iter()
            .chain(self.free_large.iter())
            .collect()
    }
}

/// Runs `trace` through the reference: each call must get the same bytes, and the reserved and
/// allocated peaks and the free blocks at the end must be the same. Returns the allocated peak.
pub fn check(trace: &super::Trace, reserved_peak: u64, free_blocks: &[(u64, u64)]) -> u64 {
    let mut r = Allocator::new();
    let mut peak = 0;
    let mut ids = Vec::with_capacity(trace.calls.len());
    for (n, c) in trace.calls.iter().enumerate() {
        match *c {
            super::Call::Malloc {
                bytes,
                got,
                reserved,
            } => {
                let (id, g) = r.malloc(bytes);
                assert_eq!(
                    (g, r.reserved()),
                    (got, reserved),
                    "call {n}: malloc({bytes})"
                );
                ids.push(id);
                peak = peak.max(r.allocated());
            }
            super::Call::Free { call } => {
                if let Some(id) = ids.get(call).copied().flatten() {
                    r.free(id);
                }
                ids.push(None);
            }
        }
    }
    assert_eq!(r.reserved(), reserved_peak, "reserved peak");
    assert_eq!(r.free_blocks(), free_blocks, "free blocks");
    peak
}
