//! The languages other than English, read from their data files (`lang/<tag>.json`).
//!
//! A data file is a JSON object: every [`Key`] by its name, in [`Key::ALL`] order, then every
//! [`PluralKey`] as `Name.category` for each plural category of the language, in
//! [`Locale::plural_categories`] order. The reader takes the values by position (the names are for
//! translators and for the tests, which check them against the keys), so the wasm carries no key
//! names. A table, once installed, lives for the rest of the program (at most six, leaked once).

use crate::{Key, Locale, PluralKey};
use std::sync::OnceLock;

/// One language's templates: `texts[key as usize]`, `plurals[plural_key × categories + category]`.
pub(crate) struct Table {
    pub(crate) texts: Vec<&'static str>,
    pub(crate) plurals: Vec<&'static str>,
}

/// Installed tables of the six non-English locales, in [`Locale::ALL`] order after English.
static TABLES: [OnceLock<Table>; 6] = [const { OnceLock::new() }; 6];

/// Why a data file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Not a JSON object of strings; the byte offset where reading stopped.
    Syntax(usize),
    /// The file holds a different number of entries than the keys and plural forms ask for.
    Count {
        /// Entries the language needs.
        expected: usize,
        /// Entries the file has.
        found: usize,
    },
}

/// The data files, for native builds (tests, tools): with the `bundled` feature a locale's table is
/// installed from here on first use; the web build leaves it out and fetches the file instead.
#[cfg(feature = "bundled")]
const BUNDLED: [&str; 6] = [
    include_str!("../lang/it.json"),
    include_str!("../lang/pl.json"),
    include_str!("../lang/sl.json"),
    include_str!("../lang/de.json"),
    include_str!("../lang/fr.json"),
    include_str!("../lang/es.json"),
];

/// FNV-1a of each data file, computed at compile time (the bytes are not kept in the binary): the
/// version in the file's URL, so a changed file is never served from a stale cache.
const HASHES: [u32; 6] = [
    fnv1a(include_bytes!("../lang/it.json")),
    fnv1a(include_bytes!("../lang/pl.json")),
    fnv1a(include_bytes!("../lang/sl.json")),
    fnv1a(include_bytes!("../lang/de.json")),
    fnv1a(include_bytes!("../lang/fr.json")),
    fnv1a(include_bytes!("../lang/es.json")),
];

const fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u32;
        h = h.wrapping_mul(0x0100_0193);
        i += 1;
    }
    h
}

/// Slot of a non-English locale.
fn slot(l: Locale) -> Option<&'static OnceLock<Table>> {
    (l as usize).checked_sub(1).and_then(|i| TABLES.get(i))
}

/// The installed table of `l` (None for English and for a language not loaded yet).
pub(crate) fn table(l: Locale) -> Option<&'static Table> {
    let slot = slot(l)?;
    #[cfg(feature = "bundled")]
    if slot.get().is_none() {
        let _ = install(l, BUNDLED[l as usize - 1]);
    }
    slot.get()
}

/// Entries a data file of `l` must have.
pub(crate) fn expected_len(l: Locale) -> usize {
    Key::ALL.len() + PluralKey::ALL.len() * l.plural_categories().len()
}

/// Reads `src` as the data file of `l` and installs it (a second install of a locale is ignored).
pub(crate) fn install(l: Locale, src: &str) -> Result<(), LoadError> {
    let Some(slot) = slot(l) else {
        return Ok(());
    };
    if slot.get().is_none() {
        let _ = slot.set(read(l, src)?);
    }
    Ok(())
}

/// The table of `l` in `src` (its strings leaked: a table lives as long as the program).
pub(crate) fn read(l: Locale, src: &str) -> Result<Table, LoadError> {
    let entries = parse(src)?;
    let expected = expected_len(l);
    if entries.len() != expected {
        return Err(LoadError::Count {
            expected,
            found: entries.len(),
        });
    }
    let mut texts: Vec<&'static str> = entries
        .into_iter()
        .map(|(_, v)| &*Box::leak(v.into_boxed_str()))
        .collect();
    let plurals = texts.split_off(Key::ALL.len());
    Ok(Table { texts, plurals })
}

/// The data file's path relative to the page, with its content hash as the version:
/// `lang/pl.json?v=1a2b3c4d`. None for English, which is built in.
pub(crate) fn url(l: Locale) -> Option<String> {
    let hash = *HASHES.get((l as usize).checked_sub(1)?)?;
    let mut v = String::with_capacity(8);
    for shift in (0..8).rev() {
        let d = (hash >> (shift * 4)) & 0xf;
        v.push(char::from_digit(d, 16).unwrap_or('0'));
    }
    Some(format!("lang/{}.json?v={v}", l.tag()))
}

/// A JSON object whose values are all strings, as `(name, value)` pairs in file order.
pub(crate) fn parse(src: &str) -> Result<Vec<(String, String)>, LoadError> {
    let b = src.as_bytes();
    let mut i = 0;
    let ws = |i: &mut usize| {
        while *i < b.len() && matches!(b[*i], b' ' | b'\n' | b'\r' | b'\t') {
            *i += 1;
        }
    };
    let expect = |i: &mut usize, c: u8| {
        if b.get(*i) == Some(&c) {
            *i += 1;
            Ok(())
        } else {
            Err(LoadError::Syntax(*i))
        }
    };
    let mut out = Vec::new();
    ws(&mut i);
    expect(&mut i, b'{')?;
    ws(&mut i);
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            ws(&mut i);
            let name = string(src, &mut i)?;
            ws(&mut i);
            expect(&mut i, b':')?;
            ws(&mut i);
            let value = string(src, &mut i)?;
            out.push((name, value));
            ws(&mut i);
            match b.get(i) {
                Some(b',') => i += 1,
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return Err(LoadError::Syntax(i)),
            }
        }
    }
    ws(&mut i);
    if i == b.len() {
        Ok(out)
    } else {
        Err(LoadError::Syntax(i))
    }
}

/// A JSON string starting at `*i` (at its opening quote); leaves `*i` after the closing quote.
fn string(src: &str, i: &mut usize) -> Result<String, LoadError> {
    let b = src.as_bytes();
    if b.get(*i) != Some(&b'"') {
        return Err(LoadError::Syntax(*i));
    }
    *i += 1;
    let mut out = String::new();
    let mut start = *i;
    loop {
        let at = *i;
        match b.get(at) {
            None => return Err(LoadError::Syntax(at)),
            Some(b'"') => {
                out.push_str(src.get(start..at).ok_or(LoadError::Syntax(at))?);
                *i += 1;
                return Ok(out);
            }
            Some(b'\\') => {
                out.push_str(src.get(start..at).ok_or(LoadError::Syntax(at))?);
                let esc = *b.get(at + 1).ok_or(LoadError::Syntax(at))?;
                *i += 2;
                match esc {
                    b'"' => out.push('"'),
                    b'\\' => out.push('\\'),
                    b'/' => out.push('/'),
                    b'n' => out.push('\n'),
                    b't' => out.push('\t'),
                    b'r' => out.push('\r'),
                    b'b' => out.push('\u{8}'),
                    b'f' => out.push('\u{c}'),
                    b'u' => {
                        let hi = hex4(b, i)?;
                        let c = if (0xd800..0xdc00).contains(&hi) {
                            if b.get(*i) != Some(&b'\\') || b.get(*i + 1) != Some(&b'u') {
                                return Err(LoadError::Syntax(*i));
                            }
                            *i += 2;
                            let lo = hex4(b, i)?;
                            if !(0xdc00..0xe000).contains(&lo) {
                                return Err(LoadError::Syntax(*i));
                            }
                            0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00)
                        } else {
                            hi
                        };
                        out.push(char::from_u32(c).ok_or(LoadError::Syntax(*i))?);
                    }
                    _ => return Err(LoadError::Syntax(at)),
                }
                start = *i;
            }
            Some(c) if *c < 0x20 => return Err(LoadError::Syntax(at)),
            Some(_) => *i += 1,
        }
    }
}

/// Four hex digits at `*i`.
fn hex4(b: &[u8], i: &mut usize) -> Result<u32, LoadError> {
    let mut v = 0;
    for _ in 0..4 {
        let d = b
            .get(*i)
            .and_then(|c| (*c as char).to_digit(16))
            .ok_or(LoadError::Syntax(*i))?;
        v = v * 16 + d;
        *i += 1;
    }
    Ok(v)
}
