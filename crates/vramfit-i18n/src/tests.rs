//! Locale completeness and formatting tests.

use super::*;

/// Keys whose text is the same in every language (a placeholder of model names, a pure pattern, a
/// Python call).
const SAME_IN_ALL: &[Key] = &[
    Key::SearchPlaceholder,
    Key::PlanTitle,
    Key::EngineTransformers,
];

/// Keys that may equal English in a given language because they are proper nouns, units or
/// technical terms that language borrows as they are.
fn may_equal_english(_l: Locale, k: Key) -> bool {
    use Key::*;
    SAME_IN_ALL.contains(&k)
        || matches!(
            k,
            CompCudaContext
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
