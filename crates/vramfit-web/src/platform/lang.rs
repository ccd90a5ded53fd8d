//! Loading a language's texts. English is built into the wasm; each other language is a data file
//! of `vramfit-i18n` (`lang/<tag>.json?v=<content hash>`, same origin, copied into `dist/lang/` by
//! Trunk), fetched the first time the page shows that language. A page may instead carry the file
//! inline as `<script type="application/json" id="vramfit-lang-<tag>">` (a single-file build);
//! that is read first and needs no request.

use vramfit_i18n::Locale;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The language a page opens in: the link's `lang=`, else the one the browser prefers among ours
/// (`navigator.languages`), else English.
pub fn requested(pairs: &[(String, String)]) -> Locale {
    pairs
        .iter()
        .find(|(k, _)| k == "lang")
        .and_then(|(_, v)| Locale::from_tag(v))
        .unwrap_or_else(browser_locale)
}

/// The language the browser prefers among ours (`navigator.languages`), else English.
fn browser_locale() -> Locale {
    let langs: Vec<String> = web_sys::window()
        .map(|w| {
            w.navigator()
                .languages()
                .iter()
                .filter_map(|v| v.as_string())
                .collect()
        })
        .unwrap_or_default();
    Locale::negotiate(langs.iter().map(String::as_str))
}

/// How long the first render waits for its language's file ([`ensure_first`]): past this the page
/// opens in English and switches when the file arrives. 4 s is the "computing…" frame's limit of
/// patience on a slow mobile link, where a language file normally arrives well within it.
const FIRST_WAIT_MS: u32 = 4_000;

/// [`ensure`] for the first render: gives up after [`FIRST_WAIT_MS`].
pub async fn ensure_first(l: Locale) -> bool {
    ensure_within(l, Some(FIRST_WAIT_MS)).await
}

/// Installs `l` unless it already is; returns whether its texts are available now. A failed
/// request leaves the language unavailable (the page stays in English) and is retried on the
/// next switch to it.
pub async fn ensure(l: Locale) -> bool {
    ensure_within(l, None).await
}

async fn ensure_within(l: Locale, limit_ms: Option<u32>) -> bool {
    if l.is_available() {
        return true;
    }
    if let Some(text) = inline(l) {
        let _ = l.install(&text);
    }
    if !l.is_available() {
        if let Some(text) = fetch(l, limit_ms).await {
            let _ = l.install(&text);
        }
    }
    l.is_available()
}

/// The data file carried by the page itself, if any.
fn inline(l: Locale) -> Option<String> {
    web_sys::window()?
        .document()?
        .get_element_by_id(&format!("vramfit-lang-{}", l.tag()))?
        .text_content()
}

/// The data file, fetched relative to the page (given up after `limit_ms`, when given).
async fn fetch(l: Locale, limit_ms: Option<u32>) -> Option<String> {
    let url = l.data_url()?;
    let init = web_sys::RequestInit::new();
    if let Some(ms) = limit_ms {
        init.set_signal(Some(&web_sys::AbortSignal::timeout_with_u32(ms)));
    }
    let promise = web_sys::window()?.fetch_with_str_and_init(&url, &init);
    let resp: web_sys::Response = JsFuture::from(promise).await.ok()?.dyn_into().ok()?;
    if !resp.ok() {
        return None;
    }
    JsFuture::from(resp.text().ok()?).await.ok()?.as_string()
}
