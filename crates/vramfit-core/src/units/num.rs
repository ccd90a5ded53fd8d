//! Decimal text ↔ `f64` for typed values, URL parameters and engine logs, without the standard
//! library's float parsing (its table of powers) and without `f64`'s `Display` in our own code:
//! both weigh far more in the wasm than a handful of short numbers needs. (serde's error messages
//! still reach `Display`, so its shortest printer stays.) Native and wasm32 use the same
//! functions, so both read the same values.

/// Exact powers of ten as `f64` (10^22 is the largest one).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A number written as `str::parse::<f64>` accepts it: an optional sign, digits with an optional
/// point (at least one digit), an optional exponent (`e`/`E`, sign, digits); `inf`, `infinity`
/// and `nan` in any case. The value equals the standard library's (correctly rounded) whenever the
/// significant digits, without their trailing zeros, fit in 2^53 and the power of ten that scales
/// them is at most 22 — every number a person types or an engine prints here; beyond that it is
/// within a few units in the last place.
pub fn parse(s: &str) -> Option<f64> {
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let sign = |v: f64| if negative { -v } else { v };
    if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        return Some(sign(f64::INFINITY));
    }
    if body.eq_ignore_ascii_case("nan") {
        return Some(f64::NAN);
    }
    let b = body.as_bytes();
    let mut i = 0;
    let mut mantissa: u64 = 0;
    let mut digits = 0; // significant digits kept in `mantissa`
    let mut exp10: i64 = 0;
    let mut seen_digit = false;
    let mut inexact = false;
    let mut digit = |d: u8, after_point: bool, mantissa: &mut u64, exp10: &mut i64| {
        if *mantissa == 0 && d == 0 {
            if after_point {
                *exp10 -= 1;
            }
        } else if digits < 19 {
            *mantissa = *mantissa * 10 + u64::from(d);
            digits += 1;
            if after_point {
                *exp10 -= 1;
            }
        } else {
            inexact |= d != 0;
            if !after_point {
                *exp10 += 1;
            }
        }
    };
    while i < b.len() && b[i].is_ascii_digit() {
        digit(b[i] - b'0', false, &mut mantissa, &mut exp10);
        seen_digit = true;
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            digit(b[i] - b'0', true, &mut mantissa, &mut exp10);
            seen_digit = true;
            i += 1;
        }
    }
    if !seen_digit {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        let negative_exp = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let start = i;
        let mut e: i64 = 0;
        while i < b.len() && b[i].is_ascii_digit() {
            e = (e * 10 + i64::from(b[i] - b'0')).min(1_000_000);
            i += 1;
        }
        if i == start {
            return None;
        }
        exp10 += if negative_exp { -e } else { e };
    }
    if i != b.len() {
        return None;
    }
    if mantissa == 0 {
        return Some(sign(0.0));
    }
    // Trailing zeros of the mantissa move into the exponent (12000e-3 → 12e0).
    while mantissa.is_multiple_of(10) {
        mantissa /= 10;
        exp10 += 1;
    }
    if !inexact && mantissa <= 1 << 53 {
        let m = mantissa as f64;
        if (0..=22).contains(&exp10) {
            return Some(sign(m * POW10[exp10 as usize]));
        }
        if (-22..0).contains(&exp10) {
            return Some(sign(m / POW10[exp10.unsigned_abs() as usize]));
        }
        // A small mantissa times a power beyond 22: the excess first, while it stays exact.
        if (23..=22 + 15).contains(&exp10) {
            let excess = (exp10 - 22) as usize;
            if let Some(w) = mantissa
                .checked_mul(10u64.pow(excess as u32))
                .filter(|w| *w <= 1 << 53)
            {
                return Some(sign(w as f64 * POW10[22]));
            }
        }
    }
    // Beyond the exact cases: scale step by step (a few units in the last place at most).
    let mut v = mantissa as f64;
    let mut e = exp10;
    while e > 0 {
        let step = e.min(22);
        v *= POW10[step as usize];
        e -= step;
        if v.is_infinite() {
            break;
        }
    }
    while e < 0 {
        let step = (-e).min(22);
        v /= POW10[step as usize];
        e += step;
        if v == 0.0 {
            break;
        }
    }
    Some(sign(v))
}

/// `x` written as `x.to_string()` writes it — the shortest digits that read back as `x`, never with
/// an exponent (`0.9`, `24`, `0.0000001`) — using the float printer `serde_json` already carries.
/// Where two 17-digit forms are equally short the last digit may differ from `Display`'s; both
/// read back as `x`.
pub fn shortest(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let json = serde_json::to_string(&x).unwrap_or_default();
    let (sign, unsigned) = match json.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", json.as_str()),
    };
    let (mantissa, exp) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.trim_start_matches('+').parse::<i64>().unwrap_or(0)),
        None => (unsigned, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = format!("{int}{frac}");
    let point = int.len() as i64 + exp; // digits before the decimal point
    let mut out = String::from(sign);
    if point <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
        out.push_str(&digits);
    } else if point as usize >= digits.len() {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', point as usize - digits.len()));
    } else {
        out.push_str(&digits[..point as usize]);
        out.push('.');
        out.push_str(&digits[point as usize..]);
    }
    // Like `Display`: no trailing fraction zeros, no lone point, leading zeros of the integer part
    // dropped (`0.5` keeps its zero).
    if out.contains('.') {
        while out.ends_with('0') {
            out.pop();
        }
        if out.ends_with('.') {
            out.pop();
        }
    }
    let body = out.trim_start_matches('-');
    let trimmed = body.trim_start_matches('0');
    let trimmed = if trimmed.is_empty() || trimmed.starts_with('.') {
        format!("0{trimmed}")
    } else {
        trimmed.to_string()
    };
    format!("{sign}{trimmed}")
}

/// `text` as [`parse`] reads it, for a writer whose decimal separator is `decimal` (`'.'` or
/// `','`; the other is its grouping separator): the grouping separator before three digits groups
/// thousands (`1,024` with `'.'`, `1.024` with `','`), either separator alone otherwise is a
/// decimal point (`2,5`, `0.125`), spaces between digits group. Where the separators fit no
/// reading (`1,2,3`) the text is returned as it is, and [`parse`] refuses it. The page reads typed
/// decimals with the page's language; the log reader (`adapters/measure`) reads engines' English.
pub fn plain_decimal(text: &str, decimal: char) -> String {
    let t: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{202f}'))
        .collect();
    let grouping = if decimal == ',' { '.' } else { ',' };
    let groups: Vec<&str> = t.split(grouping).collect();
    // Thousands: every group after the first is three digits (the last may go on with the
    // decimal part), and the first is one to three digits that do not start with 0.
    let first = groups[0].trim_start_matches(['-', '+']);
    let grouped = groups.len() > 1
        && !first.is_empty()
        && first.len() <= 3
        && !first.starts_with('0')
        && first.chars().all(|c| c.is_ascii_digit())
        && groups[1..].iter().enumerate().all(|(i, g)| {
            let last = i + 2 == groups.len();
            let digits = g.chars().take_while(char::is_ascii_digit).count();
            digits == 3 && (g.len() == 3 || (last && g[3..].starts_with(decimal)))
        });
    let t = if grouped {
        groups.concat()
    } else if groups.len() == 2 && !t.contains(decimal) {
        // One separator of the other kind: a decimal point as another language writes it.
        t.replacen(grouping, ".", 1)
    } else {
        t
    };
    t.replacen(decimal, ".", 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by a user audit: "1,024" typed in English was read as 1.024 (a 1 GiB card), "1.024"
    /// typed in German likewise.
    #[test]
    fn decimals_as_the_page_language_writes_them() {
        let en = |s: &str| plain_decimal(s, '.');
        let de = |s: &str| plain_decimal(s, ',');
        assert_eq!(en("1,024"), "1024");
        assert_eq!(en("1,024.5"), "1024.5");
        assert_eq!(en("2.499"), "2.499");
        assert_eq!(en("2,5"), "2.5");
        assert_eq!(en("0,125"), "0.125");
        assert_eq!(de("1.024"), "1024");
        assert_eq!(de("1.024,5"), "1024.5");
        assert_eq!(de("2,499"), "2.499");
        assert_eq!(de("2.5"), "2.5");
        assert_eq!(de("0.125"), "0.125");
        assert_eq!(de("1 024,5"), "1024.5");
        assert_eq!(en("1,2,3"), "1,2,3");
        assert_eq!(parse(&en("1,2,3")), None);
        assert_eq!(en(" 24 "), "24");
    }

    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    #[test]
    fn parse_agrees_with_the_standard_library() {
        let fixed = [
            "0",
            "-0",
            "+1",
            "1.",
            ".5",
            "0.9",
            "79.2",
            "24",
            "1e5",
            "1E+5",
            "2.5e-3",
            "14.99",
            "0.000001",
            "123456789012345678",
            "1e22",
            "1e23",
            "12e21",
            "3.4028235e38",
            "4.9e-324",
            "1e-400",
            "1e400",
            "9007199254740993",
            "0.1234567890123456789",
            "inf",
            "-Infinity",
            "00012.5000",
            "1_0",
            "",
            ".",
            "e5",
            "1e",
            "1.2.3",
            "--1",
            " 1",
            "0x10",
            "1e+",
            "nan",
        ];
        for s in fixed {
            let want = s.parse::<f64>().ok();
            let got = parse(s);
            match (want, got) {
                (Some(w), Some(g)) if w.is_nan() => assert!(g.is_nan(), "{s}"),
                (Some(w), Some(g)) => {
                    let close = w == g || ((w - g) / w).abs() < 1e-15;
                    assert!(close, "{s}: {g} vs {w}");
                }
                (w, g) => assert_eq!(g.is_some(), w.is_some(), "{s}"),
            }
        }
        // Short decimals as typed and printed: exactly the standard library's value.
        let mut next = rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..100_000 {
            let n = next();
            let int = n % 1_000_000;
            let frac = (n >> 20) % 100_000;
            let places = ((n >> 40) % 6) as usize;
            let s = if places == 0 {
                format!("{int}")
            } else {
                format!("{int}.{:0places$}", frac % 10u64.pow(places as u32))
            };
            assert_eq!(parse(&s), s.parse::<f64>().ok(), "{s}");
            let e = format!("{}e{}", int, (n >> 50) % 23);
            assert_eq!(parse(&e), e.parse::<f64>().ok(), "{e}");
            let e = format!("{}.{}e-{}", int, frac % 100_000, (n >> 50) % 17);
            assert_eq!(parse(&e), e.parse::<f64>().ok(), "{e}");
            // Outside the exact range: within a few units in the last place.
            let far = format!("{}e{}", n >> 20, (n >> 50) % 300);
            let (g, w) = (
                parse(&far).unwrap_or(0.0),
                far.parse::<f64>().unwrap_or(0.0),
            );
            assert!(g == w || ((g - w) / w).abs() < 1e-15, "{far}: {g} vs {w}");
        }
    }

    #[test]
    fn shortest_writes_what_display_writes() {
        let mut values = vec![
            0.0,
            -0.0,
            0.9,
            24.0,
            79.2,
            1e21,
            1e22,
            1e-7,
            1.5e-5,
            123456.789,
            0.1 + 0.2,
            5e-324,
            f64::MAX,
            -2.5,
            1e16,
            1e15,
            0.5,
        ];
        let mut next = rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..50_000 {
            let x = f64::from_bits(next());
            if x.is_finite() {
                values.push(x);
            }
            values.push((next() % 100_000) as f64 / 100.0);
        }
        for x in values {
            let s = shortest(x);
            // Reads back as `x`, never longer than `Display`, and the same text for numbers of up
            // to 15 significant digits (where the shortest digits are unique).
            assert_eq!(s.parse::<f64>().ok(), Some(x), "{x:e}: {s}");
            let d = x.to_string();
            assert!(s.len() <= d.len(), "{x:e}: {s} vs {d}");
            let significant = d.trim_start_matches(['-', '0', '.']).replace('.', "");
            if significant.trim_end_matches('0').len() <= 15 {
                assert_eq!(s, d, "{x:e}");
            }
        }
    }
}
