//! User Timing marks (`performance.mark`) on the way to the first answer, for `scripts/bench` and
//! `tests/e2e/trace-load.js`: `vramfit:main` (the wasm starts), `vramfit:estimate-start` and
//! `vramfit:estimated` (the first estimate), `vramfit:mounted` (the page is in the document).

/// Marks `name` on the page's performance timeline (nothing where there is none).
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}
