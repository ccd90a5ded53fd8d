//! Number formatting for display.

use vramfit_core::bytes::{to_gb, to_gib};

/// Bytes as GiB with two decimals.
pub fn gib(bytes: u64) -> String {
    format!("{:.2}", to_gib(bytes))
}

/// Bytes as GB with two decimals.
pub fn gb(bytes: u64) -> String {
    format!("{:.2}", to_gb(bytes))
}

/// A share as a whole percent, e.g. `14 %`.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "–".into();
    }
    format!("{:.0} %", part as f64 * 100.0 / whole as f64)
}

/// A parameter count as `8.03 B` / `494 M`.
pub fn params(n: u64) -> String {
    if n >= 1_000_000_000 {
        format!("{:.2} B", n as f64 / 1e9)
    } else {
        format!("{:.0} M", n as f64 / 1e6)
    }
}

/// A width in percent of `whole`, for bar segments (clamped to 0–100).
pub fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 * 100.0 / whole as f64).clamp(0.0, 100.0)
    }
}
