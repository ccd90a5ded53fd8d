//! The leaf of the web crate: which field of the form a problem belongs to, what the problem is,
//! and the parsers of typed numbers. Imports nothing from the crate.

use vramfit_core::import::hf_config::ConfigError;
use vramfit_core::scenario::RangeError;

/// A field of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Pasted `config.json`.
    Config,
    /// Context tokens.
    Context,
    /// Concurrent sequences.
    Sequences,
    /// Prefill chunk.
    Chunk,
    /// Custom GPU memory.
    GpuMemory,
    /// GPU count.
    Count,
    /// Headroom percent.
    Headroom,
    /// An engine setting, by flag name.
    Engine(&'static str),
    /// A training setting, by scenario name.
    Train(&'static str),
    /// A custom item, by position.
    Item(usize),
    /// A generation setting, by scenario name.
    Generation(&'static str),
}

/// What is wrong with a field.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// Nothing typed.
    Empty,
    /// Not a whole number.
    NotWholeNumber,
    /// Not a number.
    NotNumber,
    /// Out of range.
    Range(RangeError),
    /// The pasted config could not be read.
    Config(ConfigError),
}

/// A whole number as typed (spaces and thousands separators `_`, `,`, `'` allowed).
pub fn parse_whole(text: &str) -> Result<u32, Problem> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | ',' | '\'' | '\u{a0}'))
        .collect();
    if cleaned.is_empty() {
        return Err(Problem::Empty);
    }
    if cleaned.starts_with('-')
        && cleaned[1..].chars().all(|c| c.is_ascii_digit())
        && cleaned.len() > 1
    {
        return Err(Problem::Range(RangeError::TooSmall { min: 1.0 }));
    }
    match cleaned.parse::<u64>() {
        Ok(n) => Ok(u32::try_from(n).unwrap_or(u32::MAX)),
        Err(_) => Err(Problem::NotWholeNumber),
    }
}

/// A decimal number as typed (a decimal comma is accepted).
pub fn parse_decimal(text: &str) -> Result<f64, Problem> {
    let t = text.trim().replace(',', ".");
    if t.is_empty() {
        return Err(Problem::Empty);
    }
    vramfit_core::num::parse(&t)
        .filter(|v| v.is_finite())
        .ok_or(Problem::NotNumber)
}
