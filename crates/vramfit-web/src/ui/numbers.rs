//! Number formatting for display, in the user's locale (decimal comma where the locale uses it).

use vramfit_core::bytes::{to_gb, to_gib};
use vramfit_i18n::Locale;

/// Bytes as GiB with two decimals: `24.21` / `24,21`.
pub fn gib(l: Locale, bytes: u64) -> String {
    l.decimal(to_gib(bytes), 2)
}

/// Bytes as GB with two decimals.
pub fn gb(l: Locale, bytes: u64) -> String {
    l.decimal(to_gb(bytes), 2)
}

/// A share as a whole percent number (without the sign).
pub fn percent(l: Locale, part: u64, whole: u64) -> String {
    if whole == 0 {
        return "–".into();
    }
    l.decimal(part as f64 * 100.0 / whole as f64, 0)
}

/// A parameter count as `8.03 B` / `494 M` (B and M are SI-style abbreviations kept in all
/// languages, as model cards use them).
pub fn params(l: Locale, n: u64) -> String {
    if n >= 1_000_000_000 {
        format!("{} B", l.decimal(n as f64 / 1e9, 2))
    } else {
        format!("{} M", l.decimal(n as f64 / 1e6, 0))
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
