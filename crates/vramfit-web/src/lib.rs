//! vramfit-web: the Leptos single-page app. It holds no formulas: every number comes from
//! `vramfit-core`; this crate parses what the user types, keeps the state in the URL, and renders.
//!
//! Modules, bottom up (each uses only those above it in this list):
//! - leaves: [`field`] — form fields, their problems and number parsers; [`numbers`] — number
//!   formatting; [`text`] — core enums → message keys of `vramfit-i18n` (seven languages), one
//!   `match` each; [`widgets`] — number, select and checkbox fields;
//! - per workload, the knobs as text and their conversion to the core's types: [`engine_form`],
//!   [`train_form`], [`gen_form`], [`custom_form`]; and their fieldsets: [`engine_inputs`],
//!   [`train_inputs`], [`gen_inputs`], [`custom_inputs`];
//! - [`form`] — every field as text and the conversion to a `Scenario`; [`inputs`] — the input
//!   half of the page; [`result`], [`chart`], [`fixes_view`], [`guidance`], [`measure_view`] —
//!   the answer half;
//! - [`later`] — what is built once the rest of the split wasm is in; [`lang`] — fetching a
//!   language's texts; [`url`] — the query string; [`panic_panel`] — a panic as a visible error panel;
//! - [`app`] — the page layout and the state flow (form → scenario → estimate → view);
//! - [`embed`] — the `?embed=1` widget and the snippet panel; [`js_api`] — `window.vramfit`;
//!   [`offline`] — registers the service worker; [`file_drop`] — safetensors / GGUF headers read
//!   in the browser.

pub mod app;
pub mod chart;
pub mod custom_form;
pub mod custom_inputs;
pub mod embed;
pub mod engine_form;
pub mod engine_inputs;
pub mod field;
pub mod file_drop;
pub mod fixes_view;
pub mod form;
pub mod gen_form;
pub mod gen_inputs;
pub mod guidance;
pub mod inputs;
pub mod js_api;
pub mod lang;
pub mod later;
pub mod markup;
pub mod measure_view;
pub mod numbers;
pub mod offline;
pub mod panic_panel;
pub mod reader;
pub mod result;
pub mod runs_on_view;
pub mod spec_form;
pub mod spec_inputs;
pub mod speed_view;
pub mod text;
pub mod train_form;
pub mod train_inputs;
pub mod url;
pub mod widgets;
