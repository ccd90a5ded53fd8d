//! Locale completeness and formatting tests.

use super::*;

/// Keys whose text is the same in every language (a placeholder of model names, a pure pattern, a
/// Python call).
const SAME_IN_ALL: &[Key] = &[
    Key::SearchPlaceholder,
    Key::PlanTitle,
    Key::EngineTransformers,
    Key::Seconds,
    Key::Milliseconds,
    Key::ColPerHour,
];

/// Keys that may equal English in a given language because they are proper nouns, units or
/// technical terms that language borrows as they are.
fn may_equal_english(_l: Locale, k: Key) -> bool {
    use Key::*;
    SAME_IN_ALL.contains(&k)
        || matches!(
            k,
            CompCudaContext
                | ColPlan
                | ColModel
                | ColFormat
                | ColGibPerGpu
                | AvailCloud
                | AvailMarketplace
                | MethodLora
                | TargetsQv
                | TargetsQkv
                | PrecFp32
                | OptSgd
                | Compiled
                | ShardZero2
                | CompVae
                | AttnSdpa
                | CompCublas
                | FileArch
                | CompNccl
                | CompCudaGraphs
                | FormatNf4
                | FormatFp4
                | FormatMxfp4
                | CompKvCache
                | KvCacheLabel
                | GpusLegend
                | FormatFp8
                | ParamsSuffix
                | CopyScript
                | CompLora
                | FormatGptq
                | FormatAwq
                | PerGpuTimes
        )
}

/// Each data file names every key in [`Key::ALL`] order, then each plural form of the language,
/// and nothing else; every value is non-empty.
#[test]
fn data_files_hold_every_key_in_order() {
    let cat = |c: Plural| match c {
        Plural::One => "one",
        Plural::Two => "two",
        Plural::Few => "few",
        Plural::Many => "many",
        Plural::Other => "other",
    };
    for l in Locale::ALL.into_iter().skip(1) {
        let path = format!("{}/lang/{}.json", env!("CARGO_MANIFEST_DIR"), l.tag());
        let src = std::fs::read_to_string(&path).expect("data file");
        let entries = data::parse(&src).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        let mut want: Vec<String> = Key::ALL.iter().map(|k| format!("{k:?}")).collect();
        for k in PluralKey::ALL {
            for &c in l.plural_categories() {
                want.push(format!("{k:?}.{}", cat(c)));
            }
        }
        let got: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
        for (i, w) in want.iter().enumerate() {
            assert_eq!(got.get(i).copied(), Some(w.as_str()), "{path}: entry {i}");
        }
        assert_eq!(got.len(), want.len(), "{path}: extra entries");
        assert_eq!(want.len(), data::expected_len(l));
        for (n, v) in &entries {
            assert!(!v.trim().is_empty(), "{path}: {n} is empty");
        }
        assert!(l.is_available(), "{l:?} installs from its data file");
        assert!(l
            .data_url()
            .is_some_and(|u| u.starts_with(&format!("lang/{}.json?v=", l.tag()))));
    }
    assert_eq!(Locale::En.data_url(), None);
}

#[test]
fn data_file_reader() {
    let parsed = data::parse(r#" { "a" : "x\"y\\z\n\u00a0\ud83d\ude00", "b":"é" } "#);
    assert_eq!(
        parsed,
        Ok(vec![
            ("a".into(), "x\"y\\z\n\u{a0}\u{1f600}".into()),
            ("b".into(), "é".into())
        ])
    );
    assert_eq!(data::parse("{}"), Ok(vec![]));
    for bad in [
        r#"{"a":1}"#,
        r#"{"a":"b",}"#,
        r#"{"a":"b"} x"#,
        "{\"a\":\"\n\"}",
        r#"["a"]"#,
    ] {
        assert!(
            matches!(data::parse(bad), Err(LoadError::Syntax(_))),
            "{bad}"
        );
    }
    // A file with the wrong number of entries is refused.
    assert!(matches!(
        data::read(Locale::Pl, r#"{"Tagline": "x"}"#),
        Err(LoadError::Count { found: 1, .. })
    ));
}

#[test]
fn every_key_is_translated() {
    let mut missing = Vec::new();
    for l in Locale::ALL {
        for &k in Key::ALL {
            let t = l.text(k);
            if t.trim().is_empty() {
                missing.push(format!("{l:?} {k:?}: empty"));
            } else if l != Locale::En && t == Locale::En.text(k) && !may_equal_english(l, k) {
                missing.push(format!("{l:?} {k:?}: same as English"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} untranslated:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn placeholders_match_english() {
    let names = |t: &str| {
        let mut v: Vec<String> = t
            .split('{')
            .skip(1)
            .filter_map(|s| s.split_once('}').map(|(n, _)| n.to_string()))
            .filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !n.is_empty())
            .collect();
        v.sort();
        v
    };
    for l in Locale::ALL {
        for &k in Key::ALL {
            assert_eq!(names(l.text(k)), names(Locale::En.text(k)), "{l:?} {k:?}");
        }
    }
}

#[test]
fn plural_forms_exist_for_each_category() {
    for l in Locale::ALL {
        for &k in PluralKey::ALL {
            for &c in l.plural_categories() {
                let t = l.plural_text(k, c);
                assert!(t.contains("{n}") && t.len() > 4, "{l:?} {k:?} {c:?}: {t}");
            }
            if l != Locale::En {
                let other = l.plural_text(k, Plural::Other);
                assert_ne!(
                    other,
                    Locale::En.plural_text(k, Plural::Other),
                    "{l:?} {k:?} untranslated"
                );
            }
        }
    }
}

#[test]
fn cldr_plural_categories() {
    use Plural::*;
    let check = |l: Locale, cases: &[(u64, Plural)]| {
        for &(n, c) in cases {
            assert_eq!(l.plural(n), c, "{l:?} {n}");
        }
    };
    check(Locale::En, &[(1, One), (0, Other), (2, Other)]);
    check(
        Locale::Pl,
        &[
            (1, One),
            (2, Few),
            (4, Few),
            (5, Many),
            (12, Many),
            (22, Few),
            (25, Many),
            (0, Many),
        ],
    );
    check(
        Locale::Sl,
        &[
            (1, One),
            (2, Two),
            (3, Few),
            (4, Few),
            (5, Other),
            (101, One),
            (102, Two),
        ],
    );
    check(
        Locale::Fr,
        &[(0, One), (1, One), (2, Other), (1_000_000, Many)],
    );
    check(Locale::It, &[(1, One), (2, Other), (2_000_000, Many)]);
    for l in Locale::ALL {
        for n in 0..200 {
            assert!(l.plural_categories().contains(&l.plural(n)), "{l:?} {n}");
        }
    }
}

#[test]
fn number_formats() {
    assert_eq!(Locale::En.decimal(24.2147, 1), "24.2");
    assert_eq!(Locale::Pl.decimal(24.2147, 1), "24,2");
    assert_eq!(Locale::Sl.decimal(24.2147, 2), "24,21");
    assert_eq!(Locale::En.integer(131072), "131,072");
    assert_eq!(Locale::De.integer(131072), "131.072");
    assert_eq!(Locale::Fr.integer(131072), "131\u{202f}072");
    assert_eq!(Locale::Pl.integer(8192), "8192");
    assert_eq!(Locale::Pl.integer(32768), "32\u{a0}768");
    assert_eq!(Locale::Es.integer(8192), "8192");
    assert_eq!(Locale::De.decimal(1234.5, 2), "1.234,50");
    assert_eq!(
        Locale::Pl.count(PluralKey::Tokens, 1),
        Locale::Pl
            .plural_text(PluralKey::Tokens, Plural::One)
            .replace("{n}", "1")
    );
    assert_eq!(Locale::negotiate(["fr-CA", "en"]), Locale::Fr);
    assert_eq!(Locale::negotiate(["ja", "sl-SI"]), Locale::Sl);
    assert_eq!(Locale::negotiate(["ja"]), Locale::En);
}

/// `fixed` writes what `format!("{:.*}")` writes, over random bit patterns and hand-picked ties.
#[test]
fn fixed_matches_the_standard_formatting() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut values = vec![
        0.0,
        -0.0,
        0.125,
        0.375,
        2.5,
        -1.5,
        1.005,
        99.995,
        0.045,
        1e15,
        123456789.123,
        7.0 / 3.0,
        f64::MIN_POSITIVE,
        5e-324,
        1e21,
        4.0e22,
        0.5,
        1.5,
        1e-7,
    ];
    for _ in 0..5_000 {
        let x = f64::from_bits(next());
        if x.is_finite() {
            values.push(x);
        }
        // Values of the size the page shows (GiB, percent, ratios), with ties at the last digit.
        let n = next();
        values.push((n % 10_000_000) as f64 / 1000.0 * if n & 1 == 0 { 1.0 } else { -1.0 });
        values.push((n % 100_000) as f64 / 8.0);
    }
    for &x in &values {
        for places in 0..=6 {
            let want = format!("{:.*}", places, x);
            let got = fixed(x, places);
            if got != "–" {
                assert_eq!(got, want, "{x:e} {places}");
            } else {
                assert!(
                    x.abs() * 10f64.powi(places as i32) >= 2f64.powi(127),
                    "{x:e} {places}"
                );
            }
        }
    }
    assert_eq!(fixed(f64::NAN, 2), "–");
    assert_eq!(Locale::En.decimal(-0.001, 2), "0.00");
    assert_eq!(Locale::De.decimal(-1234.567, 1), "-1.234,6");
}

#[test]
fn capitalised_words_start_in_ascii() {
    // The web page starts a sentence with this word, capitalising it with `to_ascii_uppercase`
    // (`vramfit-web`'s `text::capitalized`): its first letter must be ASCII in every language.
    for l in Locale::ALL {
        let word = l.text(Key::WordDoesNotFit);
        assert!(
            word.chars().next().is_some_and(|c| c.is_ascii_alphabetic()),
            "{l:?}: {word}"
        );
    }
}
