//! Byte units. Estimates are integer bytes (`u64`) so native and wasm32 give identical results.
//!
//! Two units are shown side by side on purpose: GPU vendors sell "GB" (10^9 bytes, sometimes
//! really GiB), while drivers, PyTorch and vLLM print GiB (2^30 bytes) even where their text says
//! "GB". The seeds' worked example: 13e9 parameters × 2 bytes = 26,000,000,000 bytes ≈ 24.2 GiB.

/// 2^10 bytes.
pub const KIB: u64 = 1 << 10;
/// 2^20 bytes.
pub const MIB: u64 = 1 << 20;
/// 2^30 bytes.
pub const GIB: u64 = 1 << 30;
/// 10^9 bytes.
pub const GB: u64 = 1_000_000_000;

/// Bytes as GiB, for display and reports only (never for further arithmetic).
pub fn to_gib(bytes: u64) -> f64 {
    bytes as f64 / GIB as f64
}

/// Bytes as GB (10^9), for display only.
pub fn to_gb(bytes: u64) -> f64 {
    bytes as f64 / GB as f64
}

/// A GiB figure typed by a person (e.g. a card's memory) as whole bytes, rounded to the nearest
/// byte. `None` for values that are not finite, not positive, or beyond 1 PiB.
pub fn gib_to_bytes(gib: f64) -> Option<u64> {
    if gib.is_finite() && gib > 0.0 && gib <= 1_048_576.0 {
        Some((gib * GIB as f64).round() as u64)
    } else {
        None
    }
}

/// `a` rounded up to a multiple of `m` (`m > 0`).
pub fn round_up(a: u64, m: u64) -> u64 {
    a.div_ceil(m) * m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_examples() {
        // 13 B parameters at 2 bytes: 26,000,000,000 B ≈ 24.2 GiB; 7 B × 2 = 14 GB.
        assert_eq!(13_000_000_000u64 * 2, 26 * GB);
        assert!((to_gib(26 * GB) - 24.21).abs() < 0.01);
        assert_eq!(to_gb(14 * GB), 14.0);
        assert_eq!(gib_to_bytes(1.0), Some(GIB));
        assert_eq!(gib_to_bytes(-1.0), None);
        assert_eq!(gib_to_bytes(f64::NAN), None);
        assert_eq!(round_up(5, 4), 8);
    }
}
