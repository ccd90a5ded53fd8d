//! The JavaScript API: `window.vramfit = {estimate, catalog, version}`, set as soon as the wasm
//! starts (then a `vramfit:ready` event is dispatched on `window`).
//!
//! - `estimate(scenario)` takes a plain object in the scenario schema of
//!   `docs/scenario.md` and returns the estimate as the CLI prints it
//!   (`vramfit estimate FILE`). On a bad scenario it **throws** the CLI's error object,
//!   `{error: {kind: "unknown_model" | "unknown_gpu" | "config" | "invalid_fields" |
//!   "invalid_scenario_json" | "missing_model", …}}` (a plain object, not an `Error`).
//! - `catalog()` returns `{models, gpus, pipelines}`: the catalog models (with their
//!   architecture), the GPUs, and the image/video pipelines (`id`, `name`, `video`).
//! - `version` is the app's version.
//!
//! Objects cross the boundary as JSON text (`JSON.stringify` → `serde_json` → `JSON.parse`): the
//! same serialiser as the CLI, so the output is the CLI's JSON exactly, and it adds no crate to the
//! wasm (serde-wasm-bindgen was measured heavier; see `docs/embedding.md`).

use js_sys::{Object, Reflect, JSON};
use serde::Serialize;
use serde_json::{json, Value};
use vramfit_core::{catalog, estimate, Estimate, Scenario, PIPELINES};
use wasm_bindgen::prelude::*;

/// The estimate for a scenario given as JSON text, or the CLI's error object.
pub fn estimate_json(text: &str) -> Result<String, Value> {
    let scenario = Scenario::from_json(text).map_err(|e| {
        json!({"error": {"kind": "invalid_scenario_json", "line": e.line(), "column": e.column(),
                         "message": e.to_string()}})
    })?;
    let est = estimate(&scenario).map_err(|e| json!({ "error": e }))?;
    serde_json::to_string(&est)
        .map_err(|e| json!({"error": {"kind": "internal", "message": e.to_string()}}))
}

/// Models, GPUs and generation pipelines, as `catalog()` returns them.
pub fn catalog_json() -> Value {
    let pipelines: Vec<Value> = PIPELINES
        .iter()
        .map(|p| json!({"id": p.id, "name": p.name, "video": p.video})) // keys: not a core value
        .collect();
    json!({
        "models": catalog::models().collect::<Vec<_>>(),
        "gpus": catalog::all_gpus().collect::<Vec<_>>(),
        "pipelines": pipelines,
    })
}

/// A serialisable value as a plain JS object (`null` if it cannot be serialised).
pub fn to_js<T: Serialize + ?Sized>(v: &T) -> JsValue {
    serde_json::to_string(v)
        .ok()
        .and_then(|s| JSON::parse(&s).ok())
        .unwrap_or(JsValue::NULL)
}

/// `{type: "vramfit:state", scenario, estimate}`, the embed's answer to `{type: "vramfit:get"}`.
pub fn state_message(current: Option<&(Scenario, Estimate)>) -> JsValue {
    let msg = Object::new();
    let (scenario, est) = match current {
        Some((s, e)) => (to_js(s), to_js(e)),
        None => (JsValue::NULL, JsValue::NULL),
    };
    let _ = Reflect::set(&msg, &"type".into(), &"vramfit:state".into());
    let _ = Reflect::set(&msg, &"scenario".into(), &scenario);
    let _ = Reflect::set(&msg, &"estimate".into(), &est);
    msg.into()
}

fn estimate_js(scenario: JsValue) -> Result<JsValue, JsValue> {
    let text = JSON::stringify(&scenario)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| {
            to_js(
                &json!({"error": {"kind": "invalid_scenario_json", "line": 0, "column": 0,
                "message": "the scenario is not a JSON-serialisable object"}}),
            )
        })?;
    match estimate_json(&text) {
        Ok(out) => JSON::parse(&out).map_err(|_| {
            to_js(&json!({"error": {"kind": "internal", "message": "unparsable estimate"}}))
        }),
        Err(e) => Err(to_js(&e)),
    }
}

/// Whether the page asked for the API only (`globalThis.vramfitHeadless = true`, set by
/// `api.js` before it starts the wasm): then no UI is mounted.
pub fn headless() -> bool {
    web_sys::window()
        .and_then(|w| Reflect::get(&w, &"vramfitHeadless".into()).ok())
        .is_some_and(|v| v.is_truthy())
}

/// Sets `window.vramfit` and dispatches `vramfit:ready`.
pub fn install() {
    let Some(w) = web_sys::window() else {
        return;
    };
    let api = Object::new();
    let est = Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(estimate_js);
    let cat = Closure::<dyn Fn() -> JsValue>::new(|| to_js(&catalog_json()));
    let _ = Reflect::set(&api, &"estimate".into(), &est.into_js_value());
    let _ = Reflect::set(&api, &"catalog".into(), &cat.into_js_value());
    let _ = Reflect::set(&api, &"version".into(), &env!("CARGO_PKG_VERSION").into());
    let _ = Reflect::set(&w, &"vramfit".into(), &Object::freeze(&api));
    if let Ok(ev) = web_sys::Event::new("vramfit:ready") {
        let _ = w.dispatch_event(&ev);
    }
}
