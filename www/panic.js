// The panic panel for release builds. They are compiled with `-C panic=immediate-abort`
// (scripts/env.sh, for a smaller wasm): a panic in the wasm traps at once, without Rust's panic
// hook, and reaches JavaScript as a WebAssembly.RuntimeError thrown out of an event handler or the
// start-up promise. This shows the panel `#panic` (its sentence is already in the page's language:
// crates/vramfit-web/src/platform/panic_panel.rs writes it whenever the language is set) with the error.
(function () {
  function show(err) {
    if (!(err instanceof WebAssembly.RuntimeError)) return;
    var panel = document.getElementById('panic');
    if (!panel) return;
    panel.hidden = false;
    var detail = document.getElementById('panic-detail');
    if (detail) detail.textContent = String(err.stack || err);
  }
  addEventListener('error', function (ev) { show(ev.error); });
  addEventListener('unhandledrejection', function (ev) { show(ev.reason); });
})();
