//! PyTorch's CUDA caching allocator, replayed exactly in integers
//! (`c10/cuda/CUDACachingAllocator.cpp`, `DeviceCachingAllocator`):
//! - `round_size`: a request is rounded up to a multiple of 512 B (`kMinBlockSize`), at least 512.
//!   A request of 0 B allocates nothing (`CUDACachingAllocator::allocate` returns a null pointer).
//! - `get_pool`: requests ≤ 1 MiB (`kSmallSize`) use the small pool, larger ones the large pool;
//!   blocks never move between pools.
//! - `get_free_block`: best fit — the smallest cached free block of the pool that holds the
//!   request, equal sizes by lowest address (`BlockComparatorSize` orders by size, then address).
//! - `alloc_block` / `get_allocation_size`: with no such block a new segment is `cudaMalloc`ed:
//!   2 MiB (`kSmallBuffer`) for a small request, 20 MiB (`kLargeBuffer`) for a request under
//!   10 MiB (`kMinLargeAlloc`), else the request rounded up to 2 MiB (`kRoundLarge`).
//! - `should_split` / `alloc_found_block`: the block's remainder becomes a free block when it is
//!   ≥ 512 B (small pool) or > 1 MiB (large pool); otherwise the request gets the whole block.
//! - `free_block` / `try_merge_blocks`: a freed block merges with the free blocks beside it in its
//!   segment and is cached; nothing calls `empty_cache`, so segments go back to the driver only
//!   through the out-of-memory path below.
//! - `malloc` → `alloc_block`, then `release_cached_blocks` and `alloc_block` again: when the new
//!   segment does not fit the device (`cudaMalloc` fails; here: it would take reserved memory past
//!   [`Allocator::with_limit`]'s bytes), every cached segment left whole (a free block with no
//!   neighbour, `release_blocks` over the large pool, then the small one) is returned
//!   (`cudaFree`) and the segment is asked for again; if it still does not fit the run raises
//!   out-of-memory. (`release_available_cached_blocks`, tried first, acts only with
//!   `max_split_size_mb` set.) Reserved memory then falls: its peak is kept apart. A run that
//!   would raise out-of-memory is replayed on as if the segment had been granted, so its reserved
//!   peak lands above the limit.
//!
//! Not modelled: several streams, `max_split_size_mb`, `expandable_segments`,
//! `roundup_power2_divisions`, `garbage_collection_threshold` (all off by default). Segment
//! addresses are handed out in increasing order (addresses only break ties between free blocks
//! of one size: the driver's choice of a new segment's address is not documented).

const MIN_BLOCK: u64 = 512;
const SMALL_SIZE: u64 = 1 << 20;
const SMALL_BUFFER: u64 = 2 << 20;
const LARGE_BUFFER: u64 = 20 << 20;
const MIN_LARGE_ALLOC: u64 = 10 << 20;
const ROUND_LARGE: u64 = 2 << 20;
const NONE: u32 = u32::MAX;
/// Addresses handed out at most (64 PiB, far beyond any device): a request that would need more
/// saturates reserved memory instead of wrapping addresses.
const ADDRESS_SPACE: u64 = 1 << 56;

/// `round_size`: the bytes a request occupies.
pub fn round_size(bytes: u64) -> u64 {
    if bytes < MIN_BLOCK {
        MIN_BLOCK
    } else {
        bytes.div_ceil(MIN_BLOCK).saturating_mul(MIN_BLOCK)
    }
}

/// `get_allocation_size`: the segment `cudaMalloc`ed for a rounded request that no cached block
/// holds.
pub fn segment_size(size: u64) -> u64 {
    if size <= SMALL_SIZE {
        SMALL_BUFFER
    } else if size < MIN_LARGE_ALLOC {
        LARGE_BUFFER
    } else {
        size.div_ceil(ROUND_LARGE).saturating_mul(ROUND_LARGE)
    }
}

/// One pool's free blocks ordered by (size, address) (`BlockComparatorSize`): the best fit for a
/// request is the lowest address among the smallest size at least the request. Stored as the
/// distinct sizes in increasing order, each with its blocks as (address, block) in decreasing
/// address order — the same order as one sorted list, but a pool caches many fragments of a few
/// sizes (a layer's leftovers, ≤ 2 MiB, that its larger requests never take): a size is found
/// by bisecting the few sizes, the best fit is popped off its bucket's end, and a new segment's
/// fragment (the highest address) goes in front of a bucket only when it is small.
#[derive(Clone, Debug, Default)]
struct FreeList {
    sizes: Vec<(u64, Vec<(u64, u32)>)>,
    /// Emptied buckets, kept for new sizes (no allocation per call).
    spare: Vec<Vec<(u64, u32)>>,
}

impl FreeList {
    fn bucket(&self, size: u64) -> Result<usize, usize> {
        self.sizes.binary_search_by_key(&size, |b| b.0)
    }

    fn insert(&mut self, size: u64, addr: u64, id: u32) {
        let i = match self.bucket(size) {
            Ok(i) => i,
            Err(i) => {
                let v = self.spare.pop().unwrap_or_default();
                self.sizes.insert(i, (size, v));
                i
            }
        };
        let b = &mut self.sizes[i].1;
        let pos = b.partition_point(|&(a, _)| a > addr);
        b.insert(pos, (addr, id));
    }

    fn remove(&mut self, size: u64, addr: u64) {
        self.take(size, addr);
    }

    /// Removes the block of `size` at `addr` and returns its id.
    fn take(&mut self, size: u64, addr: u64) -> Option<u32> {
        let i = self.bucket(size).ok()?;
        let b = &mut self.sizes[i].1;
        let pos = b.partition_point(|&(a, _)| a > addr);
        let id = b.get(pos).filter(|&&(a, _)| a == addr)?.1;
        b.remove(pos);
        if b.is_empty() {
            let (_, v) = self.sizes.remove(i);
            self.spare.push(v);
        }
        Some(id)
    }

    /// Removes and returns the best fit for `size`: (block id).
    fn take_best_fit(&mut self, size: u64) -> Option<u32> {
        let i = self.sizes.partition_point(|b| b.0 < size);
        let b = &mut self.sizes.get_mut(i)?.1;
        let (_, id) = b.pop()?;
        if b.is_empty() {
            let (_, v) = self.sizes.remove(i);
            self.spare.push(v);
        }
        Some(id)
    }

    fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.iter_ids().map(|(s, a, _)| (s, a))
    }

    /// (size, address, block) in (size, address) order.
    fn iter_ids(&self) -> impl Iterator<Item = (u64, u64, u32)> + '_ {
        self.sizes
            .iter()
            .flat_map(|(s, b)| b.iter().rev().map(move |&(a, id)| (*s, a, id)))
    }
}

/// The calls an allocator served: `malloc(bytes)` with the bytes it got, `free` of the block the
/// n-th call got.
#[cfg(test)]
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub calls: Vec<Call>,
    live: std::collections::HashMap<u32, usize>,
}

/// One allocator call in a [`Trace`].
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    Malloc { bytes: u64, got: u64, reserved: u64 },
    Free { call: usize },
}

/// A handed-out block (`None` for a 0-byte request).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockId(u32);

#[derive(Clone, Copy, Debug)]
struct Block {
    addr: u64,
    size: u64,
    /// The rounded request it serves (when handed out).
    req: u64,
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
    /// Highest `reserved` so far (`max_memory_reserved`).
    reserved_peak: u64,
    /// Reserved bytes a new segment may not take it past (`u64::MAX`: no limit).
    limit: u64,
    /// Segments released by the out-of-memory path so far.
    released: u64,
    /// Live requests rounded to 512 B, and their peak.
    requested: u64,
    requested_peak: u64,
    /// Every call with what it got, for the check against [`reference`].
    #[cfg(test)]
    pub trace: Option<Trace>,
    allocated: u64,
    segments: u64,
    calls: u64,
}

impl Allocator {
    /// An allocator that has reserved nothing, on a device with room for any segment.
    #[cfg(test)]
    pub fn new() -> Allocator {
        Allocator::with_limit(u64::MAX)
    }

    /// An allocator whose segments may take at most `limit` bytes (the device's free memory
    /// besides what is outside the allocator): past it, cached whole segments are released and
    /// the segment asked for again.
    pub fn with_limit(limit: u64) -> Allocator {
        Allocator {
            limit,
            ..Allocator::default()
        }
    }

    /// Bytes of all segments now (`torch.cuda.memory_reserved`).
    pub fn reserved_now(&self) -> u64 {
        self.reserved
    }

    /// Bytes of all segments now.
    #[cfg(test)]
    pub fn reserved(&self) -> u64 {
        self.reserved
    }

    /// The highest sum of live requests rounded to 512 B so far.
    pub fn requested_peak(&self) -> u64 {
        self.requested_peak
    }

    /// The highest reserved bytes so far (`torch.cuda.max_memory_reserved`).
    pub fn reserved_peak(&self) -> u64 {
        self.reserved_peak
    }

    /// Segments returned to the driver by the out-of-memory path.
    pub fn released(&self) -> u64 {
        self.released
    }

    /// Bytes of handed-out blocks (`torch.cuda.memory_allocated`).
    pub fn allocated(&self) -> u64 {
        self.allocated
    }

    /// Segments `cudaMalloc`ed so far.
    #[cfg(test)]
    pub fn segments(&self) -> u64 {
        self.segments
    }

    /// `malloc` and `free` calls so far.
    pub fn calls(&self) -> u64 {
        self.calls
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
        self.requested = self.requested.saturating_add(size);
        self.requested_peak = self.requested_peak.max(self.requested);
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
                    self.reserved_peak = u64::MAX;
                    self.allocated = self.allocated.saturating_add(size);
                    #[cfg(test)]
                    if let Some(t) = &mut self.trace {
                        t.calls.push(Call::Malloc {
                            bytes,
                            got: size,
                            reserved: self.reserved,
                        });
                    }
                    return (None, size);
                }
                // A saturated reserve stays saturated (nothing released brings it back).
                if self.reserved != u64::MAX && seg > self.limit.saturating_sub(self.reserved) {
                    self.release_cached_blocks();
                }
                let addr = self.next_addr;
                self.next_addr = self.next_addr.saturating_add(seg);
                self.reserved = self.reserved.saturating_add(seg);
                self.reserved_peak = self.reserved_peak.max(self.reserved);
                self.segments += 1;
                self.new_block(Block {
                    addr,
                    size: seg,
                    req: 0,
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
                req: 0,
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
        blk.req = size;
        let got = blk.size;
        self.allocated = self.allocated.saturating_add(got);
        #[cfg(test)]
        if let Some(t) = &mut self.trace {
            t.live.insert(id, t.calls.len());
            t.calls.push(Call::Malloc {
                bytes,
                got,
                reserved: self.reserved,
            });
        }
        (Some(BlockId(id)), got)
    }

    /// `release_cached_blocks` → `release_blocks`: every free block that is a whole segment
    /// (no neighbour in it) is returned to the driver, large pool first.
    fn release_cached_blocks(&mut self) {
        for small in [false, true] {
            let whole: Vec<(u64, u64)> = self
                .pool_ref(small)
                .iter_ids()
                .filter(|&(_, _, id)| {
                    self.blocks
                        .get(id as usize)
                        .is_some_and(|b| b.prev == NONE && b.next == NONE)
                })
                .map(|(s, a, _)| (s, a))
                .collect();
            for (size, addr) in whole {
                if let Some(id) = self.pool(small).take(size, addr) {
                    self.spare.push(id);
                    self.reserved = self.reserved.saturating_sub(size);
                    self.released += 1;
                }
            }
        }
    }

    fn pool_ref(&self, small: bool) -> &FreeList {
        if small {
            &self.free_small
        } else {
            &self.free_large
        }
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
        self.requested = self.requested.saturating_sub(b.req);
        #[cfg(test)]
        if let Some(t) = &mut self.trace {
            if let Some(call) = t.live.remove(&i) {
                t.calls.push(Call::Free { call });
            }
        }
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
            req: 0,
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

    /// The `N` largest free blocks' sizes, largest first (0 where there are fewer).
    pub fn largest_free<const N: usize>(&self) -> [u64; N] {
        let mut out = [0; N];
        for (size, _) in self.free_small.iter().chain(self.free_large.iter()) {
            if let Some(pos) = out.iter().position(|&x| size > x) {
                out[pos..].rotate_right(1);
                out[pos] = size;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MIB: u64 = 1 << 20;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Random mallocs and frees, small and large: the bucketed free lists serve every call
        /// as the single sorted list did.
        #[test]
        fn same_calls_as_the_reference(ops in prop::collection::vec((0u8..4, 0u64..40_000_000, any::<u16>()), 1..600)) {
            let mut a = Allocator::new();
            a.trace = Some(Trace::default());
            let mut live = Vec::new();
            for (kind, bytes, pick) in ops {
                if kind == 0 && !live.is_empty() {
                    let id = live.swap_remove(usize::from(pick) % live.len());
                    a.free(id);
                } else {
                    // Mostly sizes the training replay asks for: 512 B .. 1 MiB and a few
                    // recurring large ones, so blocks are reused, split and merged.
                    let bytes = match kind {
                        1 => bytes % (1 << 20),
                        2 => [8 * MIB, 16 * MIB, 33 * MIB, 3 * MIB / 2][usize::from(pick) % 4],
                        _ => bytes,
                    };
                    if let (Some(id), _) = a.malloc(bytes) {
                        live.push(id);
                    }
                }
            }
            let t = a.trace.take().unwrap_or_default();
            reference::check(&t, a.reserved_peak(), &a.free_blocks());
        }
    }

    #[test]
    fn rounding_and_segment_sizes() {
        assert_eq!(round_size(1), 512);
        assert_eq!(round_size(513), 1024);
        assert_eq!(segment_size(MIB), 2 * MIB);
        assert_eq!(segment_size(MIB + 512), 20 * MIB);
        assert_eq!(segment_size(10 * MIB - 512), 20 * MIB);
        assert_eq!(segment_size(10 * MIB), 10 * MIB);
        assert_eq!(segment_size(119 * MIB + 1), 120 * MIB);
    }

    #[test]
    fn large_requests_share_a_20_mib_segment_and_split_only_above_1_mib() {
        let mut a = Allocator::new();
        let (x, sx) = a.malloc(8 * MIB);
        let (_y, sy) = a.malloc(8 * MIB);
        assert_eq!(
            (sx, sy, a.reserved(), a.segments()),
            (8 * MIB, 8 * MIB, 20 * MIB, 1)
        );
        // 4 MiB left: a 3.5 MiB request takes the whole remainder (0.5 MiB is not split off).
        let (_z, sz) = a.malloc(3 * MIB + MIB / 2);
        assert_eq!((sz, a.reserved()), (4 * MIB, 20 * MIB));
        // Freed blocks are cached and merged, never returned.
        a.free(x.expect("block"));
        let (_w, sw) = a.malloc(6 * MIB);
        assert_eq!((sw, a.reserved()), (6 * MIB, 20 * MIB));
        // A 95 MiB tensor gets a 96 MiB segment whole (1 MiB left is not split off).
        let (_v, sv) = a.malloc(95 * MIB);
        assert_eq!((sv, a.reserved()), (96 * MIB, 116 * MIB));
    }

    #[test]
    fn best_fit_takes_the_smallest_block_and_segments_never_merge() {
        let mut a = Allocator::new();
        let (p, _) = a.malloc(64 * MIB);
        let (q, _) = a.malloc(32 * MIB);
        a.free(p.expect("block"));
        a.free(q.expect("block"));
        // 30 MiB fits the 32 MiB segment (2 MiB left is split off), not the 64 MiB one.
        let (_r, sr) = a.malloc(30 * MIB);
        assert_eq!(sr, 30 * MIB);
        // 90 MiB fits in neither segment although 66 MiB are free in total.
        a.malloc(90 * MIB);
        assert_eq!(a.reserved(), (64 + 32 + 90) * MIB);
        assert_eq!(a.allocated(), 120 * MIB);
    }

    #[test]
    fn small_pool_packs_2_mib_segments() {
        let mut a = Allocator::new();
        let ids: Vec<_> = (0..4096).map(|_| a.malloc(1000).0).collect();
        assert_eq!(a.reserved(), 2 * 2 * MIB); // 4096 × 1024 B in two 2 MiB segments
        for id in ids.into_iter().flatten() {
            a.free(id);
        }
        assert_eq!(a.free_blocks(), vec![(2 * MIB, 0), (2 * MIB, 2 * MIB)]);
        assert_eq!(a.malloc(0), (None, 0));
    }
}

/// The allocator as first written (one sorted vector of free blocks per pool, no device limit):
/// the reference the faster free lists are checked against, call by call.
#[cfg(test)]
pub(crate) mod reference;
