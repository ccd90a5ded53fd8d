//! A panic in wasm kills the page; this hook shows a visible panel with the message instead of a
//! silently frozen page (and logs it to the console).

use std::sync::atomic::{AtomicUsize, Ordering};
use vramfit_i18n::{Key, Locale};
use wasm_bindgen::JsCast;

/// The language of the panel's sentence (index into `Locale::ALL`).
static LOCALE: AtomicUsize = AtomicUsize::new(0);

/// Remembers the page's language for the panel.
pub fn set_locale(l: Locale) {
    let i = Locale::ALL.iter().position(|x| *x == l).unwrap_or(0);
    LOCALE.store(i, Ordering::Relaxed);
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
