//! Allocator reserve: memory PyTorch's caching allocator holds beyond the bytes of live tensors.
//!
//! Mechanism (`c10/cuda/CUDACachingAllocator.cpp`): requests are rounded to 512 B; a request above
//! 1 MiB is served from a segment of 20 MiB (requests < 10 MiB) or the request rounded up to 2 MiB;
//! a block is split only if the remainder exceeds 1 MiB. So a weight tensor whose 2-MiB-rounded
//! segment leaves ≤ 1 MiB over is charged the whole segment, and one 20 MiB segment serves the
//! mid-sized tensors. Small tensors (≤ 1 MiB) share 2 MiB small-pool segments. This counts the
//! rounding of the weights (replayed tensor by tensor), one 20 MiB segment and one small-pool
//! segment; fragmentation that grows over a long run (PyTorch's `expandable_segments` note) is what
//! the user's headroom is for.

use crate::units::bytes::{round_up, MIB};

const SMALL: u64 = MIB;
const MID_LIMIT: u64 = 10 * MIB;
const MID_SEGMENT: u64 = 20 * MIB;
const SMALL_SEGMENT: u64 = 2 * MIB;

/// Rounding of the stored tensors (one entry per allocation) on one GPU: the tensor-by-tensor
/// reference the tests check the weights' fast path against.
#[cfg(test)]
pub fn weight_rounding(weights: &[u64]) -> u64 {
    crate::units::bytes::sum(weights.iter().map(|b| waste(*b)))
}

/// The pooled segments every process holds: one 20 MiB mid-size segment and one 2 MiB small one.
pub fn segments() -> u64 {
    MID_SEGMENT + SMALL_SEGMENT
}

/// Unusable bytes the allocator adds to one tensor of `bytes` (zero for a saturated size).
pub fn waste(bytes: u64) -> u64 {
    let requested = round_up(bytes, 512);
    if requested <= MID_LIMIT {
        // Small and mid-sized requests share pooled segments; their rounding is the 512 B.
        return requested - bytes;
    }
    let segment = round_up(requested, 2 * MIB);
    let rest = segment - requested;
    if rest > SMALL {
        requested - bytes // remainder split off and reusable
    } else {
        segment - bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_rules() {
        assert_eq!(waste(512), 0);
        assert_eq!(waste(100), 412);
        // 95 MiB → 96 MiB segment, 1 MiB left: not split, charged.
        assert_eq!(waste(95 * MIB), MIB);
        // 93.5 MiB → 94 MiB segment, 0.5 MiB left: charged.
        assert_eq!(waste(93 * MIB + MIB / 2), MIB / 2);
        // 90.5 MiB → 92 MiB segment, 1.5 MiB left: split off, reusable.
        assert_eq!(waste(90 * MIB + MIB / 2), 0);
        assert_eq!(waste(96 * MIB), 0);
    }
}
