//! Registers the service worker `sw.js` (next to `index.html`), which keeps an offline copy of the
//! version `assets.json` (the post-build program's manifest) describes (see `www/sw.js`), and asks
//! it what it keeps ([`ask`]). Skipped where service workers cannot run: `file://` (the single-file
//! build), insecure origins, browsers without them.

use crate::platform::message::next_message;
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

/// Calls `f` when a service worker starts controlling the page (on a first visit, once the new
/// worker has claimed it), for the page's life.
pub fn on_controller_change(f: impl Fn() + 'static) {
    use wasm_bindgen::{closure::Closure, JsCast};
    let Some(w) = web_sys::window() else {
        return;
    };
    let f = Closure::<dyn Fn()>::new(f);
    w.navigator()
        .service_worker()
        .set_oncontrollerchange(Some(f.as_ref().unchecked_ref()));
    f.forget();
}

/// What the service worker keeps for offline use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kept {
    /// Every language and the file reader, not only what this device has used.
    pub all: bool,
    /// Bytes the worker would still fetch to keep everything.
    pub missing_bytes: u64,
}

/// Asks the service worker that controls the page what it keeps (`keep_all: None`), or to keep
/// everything (`Some(true)`) or only what is used (`Some(false)`), and waits for its answer
/// (`www/sw.js`, its `cache-all` and `cache-status` messages). `None` where no worker controls the
/// page (the single file, a first load before the worker took over) or it answered an error.
pub async fn ask(keep_all: Option<bool>) -> Option<Kept> {
    let controller = web_sys::window()?
        .navigator()
        .service_worker()
        .controller()?;
    let channel = web_sys::MessageChannel::new().ok()?;
    let port = channel.port1();
    let answer = next_message(|on_message, _| port.set_onmessage(Some(on_message)));
    let message = js_sys::Object::new();
    let kind = if keep_all.is_some() {
        "cache-all"
    } else {
        "cache-status"
    };
    Reflect::set(&message, &"type".into(), &kind.into()).ok()?;
    if let Some(on) = keep_all {
        Reflect::set(&message, &"enabled".into(), &on.into()).ok()?;
    }
    controller
        .post_message_with_transferable(&message, &js_sys::Array::of1(&channel.port2()))
        .ok()?;
    let data = answer.await.ok()?;
    let field = |name: &str| Reflect::get(&data, &name.into()).ok();
    if field("error").is_some_and(|e| !e.is_undefined()) {
        return None;
    }
    Some(Kept {
        all: field("all")?.as_bool()?,
        missing_bytes: field("missingBytes")?.as_f64()?.max(0.0) as u64,
    })
}
