//! Byte units and byte arithmetic. Estimates are integer bytes (`u64`) so native and wasm32 give
//! identical results.
//!
//! **Arithmetic that cannot wrap.** Every budget formula multiplies and adds through this module's
//! crate-private helpers (`mul`, `prod`, `add`, `sum`, `sub`, `div`, `div_ceil`, `round_up`,
//! `from_u128`) wherever a factor is a token, sequence, batch, layer or element count that user
//! input can make large. They saturate at [`SATURATED`] (`u64::MAX`, 16 EiB) instead of wrapping,
//! in debug and release alike, and a saturated value stays saturated through every later step
//! (`SATURATED / n`, `SATURATED − x` and `round_up(SATURATED, m)` are still `SATURATED`): it reads
//! "at least 2^64 bytes", more than any machine holds, so a plan containing it never fits, and the
//! estimate carries `Warning::Saturated`. Below 2^64 the helpers equal the plain operators, so
//! ordinary estimates are unchanged to the byte.
//!
//! Two units are shown side by side on purpose: GPU vendors sell "GB" (10^9 bytes, sometimes
//! really GiB), while drivers, PyTorch and vLLM print GiB (2^30 bytes) even where their text says
//! "GB". The seeds' worked example: 13e9 parameters × 2 bytes = 26,000,000,000 bytes ≈ 24.2 GiB.

/// 2^10 bytes.
pub(crate) const KIB: u64 = 1 << 10;
/// 2^20 bytes.
pub(crate) const MIB: u64 = 1 << 20;
/// 2^30 bytes.
pub const GIB: u64 = 1 << 30;
/// 10^9 bytes.
pub(crate) const GB: u64 = 1_000_000_000;

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

/// The value a figure takes when its true size is 2^64 bytes or more (or derives from one that is).
pub const SATURATED: u64 = u64::MAX;

/// Whether `bytes` is the saturated marker.
pub(crate) fn is_saturated(bytes: u64) -> bool {
    bytes == SATURATED
}

/// `a × b`, saturating (zero when either is zero).
pub(crate) fn mul(a: u64, b: u64) -> u64 {
    a.saturating_mul(b)
}

/// The product of `factors`, saturating (zero when any is zero).
pub(crate) fn prod(factors: &[u64]) -> u64 {
    if factors.contains(&0) {
        return 0;
    }
    factors.iter().fold(1u64, |acc, &f| acc.saturating_mul(f))
}

/// `a + b`, saturating.
pub(crate) fn add(a: u64, b: u64) -> u64 {
    a.saturating_add(b)
}

/// The sum of `items`, saturating.
pub(crate) fn sum(items: impl IntoIterator<Item = u64>) -> u64 {
    items.into_iter().fold(0u64, u64::saturating_add)
}

/// `a − b`, floored at zero; a saturated `a` stays saturated.
pub(crate) fn sub(a: u64, b: u64) -> u64 {
    if is_saturated(a) {
        a
    } else {
        a.saturating_sub(b)
    }
}

/// `a / b` (a zero `b` counts as 1); a saturated `a` stays saturated.
pub(crate) fn div(a: u64, b: u64) -> u64 {
    if is_saturated(a) {
        a
    } else {
        a / b.max(1)
    }
}

/// `⌈a / b⌉` (a zero `b` counts as 1); a saturated `a` stays saturated.
pub(crate) fn div_ceil(a: u64, b: u64) -> u64 {
    if is_saturated(a) {
        a
    } else {
        a.div_ceil(b.max(1))
    }
}

/// A `u128` intermediate as bytes, saturating.
pub(crate) fn from_u128(x: u128) -> u64 {
    u64::try_from(x).unwrap_or(SATURATED)
}

/// `a` rounded up to a multiple of `m` (a zero `m` counts as 1), saturating.
pub(crate) fn round_up(a: u64, m: u64) -> u64 {
    let m = m.max(1);
    if is_saturated(a) {
        return a;
    }
    a.div_ceil(m).saturating_mul(m)
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

    #[test]
    fn saturating_helpers_never_wrap_and_stay_saturated() {
        assert_eq!(mul(1 << 40, 1 << 30), SATURATED);
        assert_eq!(prod(&[1 << 20, 1 << 20, 1 << 30]), SATURATED);
        assert_eq!(prod(&[SATURATED, 0, 7]), 0);
        assert_eq!(prod(&[3, 5, 7]), 105);
        assert_eq!(add(SATURATED - 1, 5), SATURATED);
        assert_eq!(sum([u64::MAX / 2, u64::MAX / 2, 2]), SATURATED);
        assert_eq!(sum([1, 2, 3]), 6);
        assert_eq!(div(SATURATED, 8), SATURATED);
        assert_eq!(div(80, 8), 10);
        assert_eq!(div(80, 0), 80);
        assert_eq!(div_ceil(SATURATED, 3), SATURATED);
        assert_eq!(div_ceil(10, 4), 3);
        assert_eq!(sub(SATURATED, 1 << 40), SATURATED);
        assert_eq!(sub(5, 9), 0);
        assert_eq!(round_up(u64::MAX - 3, 16), SATURATED);
        assert_eq!(round_up(SATURATED, 16), SATURATED);
        assert_eq!(from_u128(1 << 70), SATURATED);
        assert_eq!(from_u128(12), 12);
    }
}
