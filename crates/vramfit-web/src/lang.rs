//! Loading a language's texts. English is built into the wasm; each other language is a data file
//! of `vramfit-i18n` (`lang/<tag>.json?v=<content hash>`, same origin, copied into `dist/lang/` by
//! Trunk), fetched the first time the page shows that language. A page may instead carry the file
//! inline as `<script type="application/json" id="vramfit-lang-<tag>">` (a single-file build);
//! that is read first and needs no request.

use vramfit_i18n::Locale;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Installs `l` unless it already is; returns whether its texts are available now. A failed
/// request leaves the language unavailable (the page stays in English) and is retried on the
/// next switch to it.
pub async fn ensure(l: Locale) -> bool {
    if l.is_available() {
        return true;
    }
    if let Some(text) = inline(l) {
        let _ = l.install(&text);
    }
    if !l.is_available() {
        if let Some(text) = fetch(l).await {
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

/// The data file, fetched relative to the page.
async fn fetch(l: Locale) -> Option<String> {
    let url = l.data_url()?;
    let promise = web_sys::window()?.fetch_with_str(&url);
    let resp: web_sys::Response = JsFuture::from(promise).await.ok()?.dyn_into().ok()?;
    if !resp.ok() {
        return None;
    }
    JsFuture::from(resp.text().ok()?).await.ok()?.as_string()
}
