//! The query string ↔ `(param, value)` pairs; the core's `query` module maps pairs to a scenario.

use leptos::prelude::{set_timeout_with_handle, window_event_listener, TimeoutHandle};
use std::time::Duration;
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

/// How long the inputs must rest before the address bar follows them, ms.
///
/// `history.replaceState` costs Chromium more per call than the estimate and the answer's update
/// together, and someone typing
/// `32768` changes the answer five times. So the query is written once the inputs have rested
/// this long, not per keystroke; copying the link and leaving the page write it at once
/// ([`flush`]), so neither ever sees an older query.
const SETTLE: Duration = Duration::from_millis(300);

/// Replaces the address bar's query without adding a history entry, once the inputs rest.
///
/// Each call restarts the wait; the newest query wins.
pub fn replace_soon(s: &Scenario, lang: Locale) {
    let q = query_string(s, lang);
    PENDING.with(|p| *p.borrow_mut() = Some(q));
    // Once: a write when the page is left (reload, back) as well.
    ON_HIDE.call_once(|| {
        window_event_listener(leptos::ev::pagehide, |_| flush());
    });
    TIMER.with(|t| {
        let mut wait = t.borrow_mut();
        if let Some(h) = wait.take() {
            h.clear();
        }
        *wait = set_timeout_with_handle(flush, SETTLE).ok();
    });
}

/// Adds the page-hide listener of [`replace_soon`] once.
static ON_HIDE: std::sync::Once = std::sync::Once::new();

thread_local! {
    /// The newest query waiting for [`replace_soon`]'s timer.
    static PENDING: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// The wait now running.
    static TIMER: std::cell::RefCell<Option<TimeoutHandle>> = const { std::cell::RefCell::new(None) };
}

/// Writes a query [`replace_soon`] still holds now (before the link is copied, when the page is
/// left, and when the wait ends).
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
