//! Waiting for one message: the header reader's worker answers the page this way, and so does
//! the service worker over a `MessageChannel`.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The `data` of the next message, or the error event: `listen` sets its two handlers where the
/// sender delivers them (`onmessage`, and `onerror` where the sender has one).
pub async fn next_message(
    listen: impl FnOnce(&js_sys::Function, &js_sys::Function),
) -> Result<JsValue, JsValue> {
    let mut listen = Some(listen);
    let message =
        js_sys::Promise::new(&mut |resolve: js_sys::Function, reject: js_sys::Function| {
            let on_message = Closure::once_into_js(move |ev: web_sys::MessageEvent| {
                let _ = resolve.call1(&JsValue::NULL, &ev.data());
            });
            let on_error = Closure::once_into_js(move |ev: web_sys::Event| {
                let _ = reject.call1(&JsValue::NULL, &ev);
            });
            if let Some(listen) = listen.take() {
                listen(on_message.unchecked_ref(), on_error.unchecked_ref());
            }
        });
    JsFuture::from(message).await
}
