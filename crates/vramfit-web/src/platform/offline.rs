//! Registers the service worker `sw.js` (next to `index.html`), which keeps an offline copy of the
//! app keyed by the asset hashes in `index.html` (see `www/sw.js`). Skipped where service workers
//! cannot run: `file://` (the single-file build), insecure origins, browsers without them.

use js_sys::Reflect;
use wasm_bindgen_futures::{spawn_local, JsFuture};

/// Registers `./sw.js` for the app's folder; failures are ignored (the app works without it).
pub fn register() {
    let Some(w) = web_sys::window() else {
        return;
    };
    let protocol = w.location().protocol().unwrap_or_default();
    if protocol != "http:" && protocol != "https:" {
        return;
    }
    let nav = w.navigator();
    let has_sw = Reflect::get(&nav, &"serviceWorker".into()).is_ok_and(|v| !v.is_undefined());
    if !has_sw {
        return;
    }
    let registered = JsFuture::from(nav.service_worker().register("./sw.js"));
    // A rejected registration (e.g. storage disabled) is not an error of the app.
    spawn_local(async move {
        let _ = registered.await;
    });
}
