//! Parts of the page that are built once the rest of the app's code is in: what a
//! first answer does not show — what follows the verdict (fixes, limits and chart,
//! recommendation and offers, rules of thumb), the sections below the answer (acceptance test,
//! measuring, questions) and the inside of closed panels (reading your own files). Their code then lives in
//! the rest module of the split wasm (tools/split-wasm), not in the primary one the first answer
//! waits for.
//!
//! The split's loader (`runtime.js`) calls `globalThis.__vramfit_after_rest(callback)`'s callback
//! once the rest is instantiated (background, on demand or before start), or once loading it in
//! the background has failed (building the parts then loads it on demand, which shows its own
//! error). A whole build has no such function: everything is built at once.
//!
//! An edit made before the rest is in waits for it ([`load_now`], and the page's busy sign)
//! instead of making the loader fetch it a second time, synchronously, on demand.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// Whether the parts may be built; one for the page (not owned by a component, so a rebuilt
    /// view finds it set).
    static SETTLED: ArcRwSignal<bool> = {
        let settled = ArcRwSignal::new(false);
        when_rest_is_in(settled.clone());
        settled
    };
}

/// True once the rest of the code is in (at once in a whole build). Read it in a `Show`.
pub fn settled() -> Signal<bool> {
    SETTLED.with(|s| Signal::from(s.clone()))
}

/// Starts loading the rest now rather than when the page is next idle: an edit is waiting for it
/// (`globalThis.__vramfit_rest_load_now`; nothing in a whole build). One download either way: the
/// loader starts its background load once.
pub fn load_now() {
    let hook = js_sys::Reflect::get(
        &js_sys::global(),
        &JsValue::from_str("__vramfit_rest_load_now"),
    )
    .ok()
    .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    if let Some(hook) = hook {
        // A failure to start is the background load's to report (it settles, and the code the
        // edit needs then loads on demand, with its own error).
        let _ = hook.call0(&JsValue::NULL);
    }
}

fn when_rest_is_in(settled: ArcRwSignal<bool>) {
    let hook = js_sys::Reflect::get(
        &js_sys::global(),
        &JsValue::from_str("__vramfit_after_rest"),
    )
    .ok()
    .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match hook {
        Some(hook) => {
            let set = settled.clone();
            let callback = Closure::once_into_js(move || set.set(true));
            if hook.call1(&JsValue::NULL, &callback).is_err() {
                settled.set(true);
            }
        }
        None => settled.set(true),
    }
}
