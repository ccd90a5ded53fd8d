//! A panic in wasm kills the page; the panel `#panic` says so in the page's language instead of
//! leaving a silently frozen page. Release builds abort at once on a panic
//! (`-C panic=immediate-abort`, scripts/env.sh): no Rust code runs then, so the sentence is written
//! into the hidden panel whenever the language is set, and `www/panic.js` unhides it from the trap.
//! Other builds (debug, stable fallback) run the hook below, which also logs the panic message.

use std::sync::atomic::{AtomicUsize, Ordering};
use vramfit_i18n::{Key, Locale};
use wasm_bindgen::JsCast;

/// The language of the panel's sentence (index into `Locale::ALL`).
static LOCALE: AtomicUsize = AtomicUsize::new(0);

/// Remembers the page's language for the panel and writes its sentence into the hidden panel.
pub fn set_locale(l: Locale) {
    let i = Locale::ALL.iter().position(|x| *x == l).unwrap_or(0);
    LOCALE.store(i, Ordering::Relaxed);
    if let Some(title) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("panic-title"))
    {
        title.set_text_content(Some(l.text(Key::PanicTitle)));
    }
}

/// Installs the hook. The panel `#panic` is in `index.html`, hidden until needed.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if let Some(panel) = doc
            .get_element_by_id("panic")
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            panel.set_hidden(false);
            let l = Locale::ALL[LOCALE.load(Ordering::Relaxed).min(Locale::ALL.len() - 1)];
            if let Some(title) = doc.get_element_by_id("panic-title") {
                title.set_text_content(Some(l.text(Key::PanicTitle)));
            }
            if let Some(detail) = doc.get_element_by_id("panic-detail") {
                detail.set_text_content(Some(&info.to_string()));
            }
        }
    }));
}
