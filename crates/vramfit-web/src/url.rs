//! The query string ↔ `(param, value)` pairs; the core's `query` module maps pairs to a scenario.

use vramfit_core::{query, Scenario};
use vramfit_i18n::Locale;

/// Pairs of the current page's query string, percent-decoded.
pub fn read_pairs() -> Vec<(String, String)> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

fn decode(s: &str) -> String {
    let s = s.replace('+', " ");
    js_sys::decode_uri_component(&s)
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or(s)
}

/// The query string for a scenario in a language (`lang=` last).
pub fn query_string(s: &Scenario, lang: Locale) -> String {
    let mut parts: Vec<String> = query::to_pairs(s)
        .into_iter()
        .map(|(k, v)| format!("{k}={}", String::from(js_sys::encode_uri_component(&v))))
        .collect();
    parts.push(format!("lang={}", lang.tag()));
    format!("?{}", parts.join("&"))
}

/// Replaces the address bar's query without adding a history entry.
pub fn replace(s: &Scenario, lang: Locale) {
    if let Some(w) = web_sys::window() {
        let q = query_string(s, lang);
        if w.location().search().ok().as_deref() == Some(q.as_str()) {
            return;
        }
        if let Ok(history) = w.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&q));
        }
    }
}
