//! The query string ↔ `(param, value)` pairs; the core's `query` module maps pairs to a scenario.

use vramfit_core::{query, Scenario};
use vramfit_i18n::Locale;
use wasm_bindgen::{closure::Closure, JsCast};

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

/// Replaces the address bar's query without adding a history entry, after the next frame.
///
/// `history.replaceState` costs Chromium several milliseconds (measured 7.5 ms per call on this
/// machine), so it runs after the new answer is painted instead of between the input and the
/// paint; updates that arrive before it runs are coalesced into the newest query.
pub fn replace_soon(s: &Scenario, lang: Locale) {
    let q = query_string(s, lang);
    let first = PENDING.with(|p| p.replace(Some(q)).is_none());
    if !first {
        return;
    }
    let Some(w) = web_sys::window() else {
        return;
    };
    let after_paint = Closure::once_into_js(move || {
        let run = Closure::once_into_js(flush);
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback(run.unchecked_ref());
        }
    });
    if w.request_animation_frame(after_paint.unchecked_ref())
        .is_err()
    {
        flush();
    }
}

thread_local! {
    /// The newest query waiting for [`replace_soon`]'s timer.
    static PENDING: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Writes a query [`replace_soon`] still holds now (before the link is copied).
pub fn flush() {
    if let Some(q) = PENDING.with(|p| p.take()) {
        replace_now(&q);
    }
}

fn replace_now(q: &str) {
    if let Some(w) = web_sys::window() {
        if w.location().search().ok().as_deref() == Some(q) {
            return;
        }
        if let Ok(history) = w.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(q));
        }
    }
}
