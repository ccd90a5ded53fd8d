//! vramfit-web: the Leptos single-page app. It holds no formulas: every number comes from
//! `vramfit-core`; this crate parses what the user types, keeps the state in the URL, and renders.
//!
//! Folders, bottom up (each uses only those above it; `tests/layers.rs` of the core crate holds
//! this crate to the order too):
//! - `ui` — form fields and their problems, number formatting, core enums → message keys, the
//!   shared widgets, the page's language as context;
//! - `workload` — the input half: one folder per workload with its form (text → core types) and
//!   its fieldset, the whole form → `Scenario`, and the layout of the fieldsets;
//! - `answer` — the answer half: verdict, components, engine report, limits and chart, speed and
//!   price, recommendation, fixes, and the sections below the answer;
//! - `files` — the user's own safetensors / GGUF headers, read in a web worker;
//! - `platform` — URL, languages, service worker, `window.vramfit`, the panic panel, and what
//!   waits for the rest of the split wasm;
//! - `app` — the page and its state flow (URL → form → scenario → estimate → view); `embed` —
//!   the `?embed=1` widget and the snippet panel.
//!
//! The modules are private; what the two binaries (`main.rs`, the page; `bin/vramfit-reader.rs`,
//! the header reader's worker) start the app with is exported below.

mod answer;
mod app;
mod embed;
mod files;
mod platform;
mod ui;
mod workload;

pub use app::App;
pub use embed::{requested as embed_requested, EmbedApp};
pub use files::reader::worker_main as reader_worker_main;
pub use platform::js_api::{headless as api_only, install as install_js_api};
pub use platform::lang::{ensure_first as fetch_first_language, requested as requested_language};
pub use platform::offline::register as register_service_worker;
pub use platform::panic_panel::install as install_panic_panel;
pub use platform::timing::mark;
pub use platform::url::read_pairs as url_pairs;
