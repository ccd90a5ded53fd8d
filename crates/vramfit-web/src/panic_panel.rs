//! A panic in wasm kills the page; this hook shows a visible panel with the message instead of a
//! silently frozen page (and logs it to the console).

use wasm_bindgen::JsCast;

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
            if let Some(detail) = doc.get_element_by_id("panic-detail") {
                detail.set_text_content(Some(&info.to_string()));
            }
        }
    }));
}
