//! The leaf of the web crate: which field of the form a problem belongs to, what the problem is,
//! and the parsers of typed numbers. Imports nothing from the crate.

use vramfit_core::hf_config::ConfigError;
use vramfit_core::limits::RangeError;

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
    /// Cards of the second type.
    SecondCount,
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
    /// The user's price for the card shown.
    Price,
    /// A speculative-decoding setting (`draft` for the proposer select, `num_tokens`).
    Speculative(&'static str),
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

/// A whole number as typed (spaces and thousands separators `_`, `,`, `'` allowed). A `k` or `M`
/// suffix multiplies by 1,024 or 1,048,576, as context lengths are named ("32k" = 32,768 tokens,
/// "128K" = 131,072, "1M" = 1,048,576); a decimal before the suffix is allowed ("1.5k" = 1,536,
/// and "1,5k" with a decimal comma). A comma is a thousands separator only where it groups three
/// digits ("8,192"); otherwise a single comma is a decimal comma, so "1,5" is not a whole number
/// (it was read as 15).
pub fn parse_whole(text: &str) -> Result<u32, Problem> {
    let spaced: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '\'' | '\u{a0}'))
        .collect();
    let cleaned = decimal_comma_or_grouping(&spaced);
    if cleaned.is_empty() {
        return Err(Problem::Empty);
    }
    if cleaned.starts_with('-')
        && cleaned[1..].chars().all(|c| c.is_ascii_digit() || c == '.')
        && cleaned.len() > 1
    {
        return Err(Problem::Range(RangeError::TooSmall { min: 1.0 }));
    }
    let (digits, scale) = match cleaned.char_indices().last() {
        Some((i, 'k' | 'K')) => (&cleaned[..i], 1024u64),
        Some((i, 'm' | 'M')) => (&cleaned[..i], 1024 * 1024),
        _ => (cleaned.as_str(), 1),
    };
    if scale > 1 {
        let value = vramfit_core::num::parse(digits).ok_or(Problem::NotWholeNumber)?;
        let n = value * scale as f64;
        if !n.is_finite() || n < 0.0 || n.fract() != 0.0 {
            return Err(Problem::NotWholeNumber);
        }
        return Ok(if n > f64::from(u32::MAX) {
            u32::MAX
        } else {
            n as u32
        });
    }
    match digits.parse::<u64>() {
        Ok(n) => Ok(u32::try_from(n).unwrap_or(u32::MAX)),
        Err(_) => Err(Problem::NotWholeNumber),
    }
}

/// `text` without its thousands commas when each comma is followed by exactly three digits
/// ("8,192", "1,048,576"); with its one comma as a decimal point otherwise ("1,5k" → "1.5k");
/// as it is when it has several commas that do not group (then it is not a number).
fn decimal_comma_or_grouping(text: &str) -> String {
    let groups: Vec<&str> = text.split(',').collect();
    let grouping = groups[1..].iter().enumerate().all(|(i, g)| {
        let digits = g.chars().take_while(char::is_ascii_digit).count();
        // The last group may go on with a decimal part or a suffix ("1,024.5k", "1,024k").
        digits == 3 && (i == groups.len() - 2 || g.len() == 3)
    });
    if grouping {
        groups.concat()
    } else if groups.len() == 2 && !text.contains('.') {
        text.replacen(',', ".", 1)
    } else {
        text.to_string()
    }
}

/// The page's decimal separator for typed decimals (`'.'` or `','`), set with the page's
/// language (`app.rs`), as the panic panel's language is: the forms' state outside the page
/// parses what was typed, and what was typed was typed in the page's language.
static DECIMAL_COMMA: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Reads typed decimals as the page's language writes them ([`parse_decimal`]).
pub fn set_decimal_separator(l: vramfit_i18n::Locale) {
    DECIMAL_COMMA.store(
        l.decimal_separator() == ',',
        std::sync::atomic::Ordering::Relaxed,
    );
}

/// A decimal number as typed, in the page's language: its grouping separator followed by three
/// digits groups thousands ("1,024" in English and "1.024" in German are 1024), either separator
/// alone otherwise is a decimal point ("2,5" and "2.5" are 2.5 everywhere, "0,125" is 0.125), and
/// spaces between digits group (French, Polish). A number a grouping cannot explain ("1,2,3") is
/// not a number.
pub fn parse_decimal(text: &str) -> Result<f64, Problem> {
    let comma = DECIMAL_COMMA.load(std::sync::atomic::Ordering::Relaxed);
    let t = vramfit_core::num::plain_decimal(text, if comma { ',' } else { '.' });
    if t.is_empty() {
        return Err(Problem::Empty);
    }
    vramfit_core::num::parse(&t)
        .filter(|v| v.is_finite())
        .ok_or(Problem::NotNumber)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_counts_with_suffixes() {
        assert_eq!(parse_whole("32k"), Ok(32_768));
        assert_eq!(parse_whole("128K"), Ok(131_072));
        assert_eq!(parse_whole("1M"), Ok(1_048_576));
        assert_eq!(parse_whole("1.5k"), Ok(1_536));
        assert_eq!(parse_whole("8,192"), Ok(8_192));
        assert_eq!(parse_whole("1,048,576"), Ok(1_048_576));
        assert_eq!(parse_whole("1,024k"), Ok(1_048_576));
        // A decimal comma, as German, French, Italian, Spanish, Polish and Slovenian write it.
        assert_eq!(parse_whole("1,5k"), Ok(1_536));
        assert_eq!(parse_whole("1,5"), Err(Problem::NotWholeNumber));
        assert_eq!(parse_whole("8,19"), Err(Problem::NotWholeNumber));
        assert_eq!(parse_whole("1,5,6"), Err(Problem::NotWholeNumber));
        assert_eq!(parse_whole("1,2.5k"), Err(Problem::NotWholeNumber));
        assert_eq!(parse_whole("0.3k"), Err(Problem::NotWholeNumber));
        assert_eq!(parse_whole("k"), Err(Problem::NotWholeNumber));
        assert_eq!(parse_whole("99999999M"), Ok(u32::MAX));
        assert_eq!(parse_whole(""), Err(Problem::Empty));
    }
}
