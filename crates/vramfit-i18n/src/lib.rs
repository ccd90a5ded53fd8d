//! vramfit-i18n: every user-visible sentence in English, Italian, Polish, Slovenian, German, French
//! and Spanish, with CLDR plural categories and locale number formatting.
//!
//! English is compiled in (`en.rs`, two tables, what a first answer shows and the rest, with a
//! check that a key without English text, or with two, does not compile). The six other languages
//! are data files, `lang/<tag>.json`, read at run time: the web app fetches the one it needs
//! ([`Locale::data_url`], [`Locale::install`]) so the wasm carries English only; with the default
//! `bundled` feature (native builds: tests, tools) the files are compiled in and installed on first
//! use. Until a language is installed its texts fall back to English. The tests check that every
//! data file has every key, in order, with the placeholders of the English text and a form for each
//! plural category the language uses.
//!
//! Why not `leptos_i18n`: this crate costs no dependency, no build script and no ICU data in the
//! wasm (leptos_i18n's plurals and number formatting bring ICU data into it, all of it loaded
//! before the first answer). Plural categories and number formats follow CLDR for integers and
//! fixed decimals, implemented here and tested natively; the core stays free of sentences (it
//! returns enums the UI maps to [`Key`]s).
//!
//! Templates use `{name}` placeholders, filled by [`fill`].

mod data;
mod en;
mod keys;

pub use data::LoadError;
pub use keys::{Key, PluralKey};

/// A supported language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Locale {
    /// English.
    #[default]
    En,
    /// Italian.
    It,
    /// Polish.
    Pl,
    /// Slovenian.
    Sl,
    /// German.
    De,
    /// French.
    Fr,
    /// Spanish.
    Es,
}

/// A CLDR plural category.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plural {
    /// `one`.
    One,
    /// `two`.
    Two,
    /// `few`.
    Few,
    /// `many`.
    Many,
    /// `other`.
    Other,
}

impl Locale {
    /// Every locale, English first.
    pub const ALL: [Locale; 7] = [
        Locale::En,
        Locale::It,
        Locale::Pl,
        Locale::Sl,
        Locale::De,
        Locale::Fr,
        Locale::Es,
    ];

    /// BCP 47 tag (`<html lang>`, `?lang=`).
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::It => "it",
            Locale::Pl => "pl",
            Locale::Sl => "sl",
            Locale::De => "de",
            Locale::Fr => "fr",
            Locale::Es => "es",
        }
    }

    /// The language's own name.
    pub fn native_name(self) -> &'static str {
        match self {
            Locale::En => "English",
            Locale::It => "Italiano",
            Locale::Pl => "Polski",
            Locale::Sl => "Slovenščina",
            Locale::De => "Deutsch",
            Locale::Fr => "Français",
            Locale::Es => "Español",
        }
    }

    /// The locale for a tag such as `pl`, `pl-PL`, `de_AT` (case-insensitive).
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let primary = tag.split(['-', '_']).next()?.to_ascii_lowercase();
        Locale::ALL.into_iter().find(|l| l.tag() == primary)
    }

    /// The first supported locale among the browser's preferences, else English.
    pub fn negotiate<'a>(preferences: impl IntoIterator<Item = &'a str>) -> Locale {
        preferences
            .into_iter()
            .find_map(Locale::from_tag)
            .unwrap_or_default()
    }

    /// The plural categories CLDR defines for integers in this language.
    pub fn plural_categories(self) -> &'static [Plural] {
        match self {
            Locale::En | Locale::De => &[Plural::One, Plural::Other],
            Locale::It | Locale::Es | Locale::Fr => &[Plural::One, Plural::Many, Plural::Other],
            Locale::Pl => &[Plural::One, Plural::Few, Plural::Many, Plural::Other],
            Locale::Sl => &[Plural::One, Plural::Two, Plural::Few, Plural::Other],
        }
    }

    /// CLDR cardinal plural category of an integer (`plurals.xml`, CLDR 44; `i` = n, `v` = 0).
    pub fn plural(self, n: u64) -> Plural {
        let million = n != 0 && n.is_multiple_of(1_000_000);
        match self {
            Locale::En | Locale::De => {
                if n == 1 {
                    Plural::One
                } else {
                    Plural::Other
                }
            }
            Locale::It | Locale::Es => match n {
                1 => Plural::One,
                _ if million => Plural::Many,
                _ => Plural::Other,
            },
            Locale::Fr => match n {
                0 | 1 => Plural::One,
                _ if million => Plural::Many,
                _ => Plural::Other,
            },
            Locale::Pl => {
                let (m10, m100) = (n % 10, n % 100);
                if n == 1 {
                    Plural::One
                } else if (2..=4).contains(&m10) && !(12..=14).contains(&m100) {
                    Plural::Few
                } else {
                    Plural::Many
                }
            }
            Locale::Sl => match n % 100 {
                1 => Plural::One,
                2 => Plural::Two,
                3 | 4 => Plural::Few,
                _ => Plural::Other,
            },
        }
    }

    /// Decimal separator.
    pub fn decimal_separator(self) -> char {
        match self {
            Locale::En => '.',
            _ => ',',
        }
    }

    /// Grouping separator and the fewest integer digits that trigger grouping (CLDR
    /// `minimumGroupingDigits`: 2 for Polish and Spanish, so 4-digit numbers stay ungrouped).
    fn grouping(self) -> (&'static str, usize) {
        match self {
            Locale::En => (",", 4),
            Locale::It | Locale::De | Locale::Sl => (".", 4),
            Locale::Es => (".", 5),
            Locale::Pl => ("\u{a0}", 5),
            Locale::Fr => ("\u{202f}", 4),
        }
    }

    /// The template for `key` in this language (English while the language is not installed).
    pub fn text(self, key: Key) -> &'static str {
        data::table(self)
            .and_then(|t| t.texts.get(key as usize).copied())
            .unwrap_or_else(|| en::text(key))
    }

    /// The template for a counted phrase in category `c` (`{n}` is the count).
    pub fn plural_text(self, key: PluralKey, c: Plural) -> &'static str {
        data::table(self)
            .and_then(|t| {
                let cats = self.plural_categories();
                // `Other` is last in every language's list and stands for a category it lacks.
                let ci = cats.iter().position(|&x| x == c).unwrap_or(cats.len() - 1);
                t.plurals.get(key as usize * cats.len() + ci).copied()
            })
            .unwrap_or_else(|| en::plural(key, c))
    }

    /// Whether this language's texts are installed (English always is).
    pub fn is_available(self) -> bool {
        self == Locale::En || data::table(self).is_some()
    }

    /// The path of this language's data file relative to the page, versioned by its content hash
    /// (`lang/pl.json?v=1a2b3c4d`); None for English, which is built in.
    pub fn data_url(self) -> Option<String> {
        data::url(self)
    }

    /// Installs this language from the text of its data file. Installing English or a language
    /// already installed does nothing.
    pub fn install(self, data_file: &str) -> Result<(), LoadError> {
        data::install(self, data_file)
    }

    /// A counted phrase: "1 token", "5 tokenów", "2 žetona".
    pub fn count(self, key: PluralKey, n: u64) -> String {
        fill(
            self.plural_text(key, self.plural(n)),
            &[("n", &self.integer(n))],
        )
    }

    /// An integer with the locale's grouping: `131,072` / `131.072` / `131 072`.
    pub fn integer(self, n: u64) -> String {
        self.group(&n.to_string())
    }

    /// Digits with the locale's grouping separator every three from the right.
    fn group(self, digits: &str) -> String {
        let (sep, min) = self.grouping();
        if digits.len() < min {
            return digits.to_string();
        }
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push_str(sep);
            }
            out.push(c);
        }
        out
    }

    /// A decimal with `places` fraction digits, rounded as [`fixed`] rounds: `24.21` / `24,21`.
    /// No sign when every digit shown is zero.
    pub fn decimal(self, x: f64, places: usize) -> String {
        let Some((int, frac)) = fixed_parts(x, places) else {
            return "–".into();
        };
        let sign = if x < 0.0 && (int != "0" || frac.bytes().any(|b| b != b'0')) {
            "-"
        } else {
            ""
        };
        let int = self.group(&int);
        if frac.is_empty() {
            format!("{sign}{int}")
        } else {
            format!("{sign}{int}{}{frac}", self.decimal_separator())
        }
    }
}

/// `x` with `places` fraction digits (at most 18) and a `.`, exactly as `format!("{:.*}", places,
/// x)` writes it (the binary value rounded half to even), without the standard library's
/// fixed-precision float formatting (its code stays out of the wasm). "–" for a value that is not
/// finite or too large to scale exactly (|x| · 10^places ≥ 2^128, far beyond any figure shown).
pub fn fixed(x: f64, places: usize) -> String {
    match fixed_parts(x, places) {
        None => "–".into(),
        Some((int, frac)) => {
            let sign = if x.is_sign_negative() { "-" } else { "" };
            if frac.is_empty() {
                format!("{sign}{int}")
            } else {
                format!("{sign}{int}.{frac}")
            }
        }
    }
}

/// The integer digits and the `places` fraction digits of |x| rounded half to even.
fn fixed_parts(x: f64, places: usize) -> Option<(String, String)> {
    if !x.is_finite() || places > 18 {
        return None;
    }
    let bits = x.abs().to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    // |x| = m · 2^e exactly.
    let (m, e) = if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    };
    let pow = 10u128.pow(places as u32);
    let scaled = if e >= 0 {
        if e > 74 {
            return None;
        }
        (u128::from(m) << e).checked_mul(pow)?
    } else {
        let n = u128::from(m) * pow; // < 2^53 · 10^18 < 2^113
        let k = e.unsigned_abs();
        if k >= 114 {
            0 // n / 2^k < 1/2
        } else {
            let q = n >> k;
            let r = n & ((1u128 << k) - 1);
            let half = 1u128 << (k - 1);
            if r > half || (r == half && q & 1 == 1) {
                q + 1
            } else {
                q
            }
        }
    };
    let frac = if places == 0 {
        String::new()
    } else {
        format!("{:0places$}", scaled % pow)
    };
    Some(((scaled / pow).to_string(), frac))
}

/// Replaces each `{name}` in `template` with its value.
pub fn fill(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests;
