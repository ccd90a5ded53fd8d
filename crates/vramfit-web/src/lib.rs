//! vramfit-web: the Leptos single-page app. It holds no formulas: every number comes from
//! `vramfit-core`; this crate parses what the user types, keeps the state in the URL, and renders.
//!
//! - [`app`] — the page layout and the state flow (form → scenario → estimate → view);
//! - [`form`] — the input fields as text, and their conversion to a `Scenario`;
//! - [`url`] — reading and writing the query string;
//! - [`inputs`], [`engine_inputs`], [`result`] — the two halves of the page; [`chart`] — memory vs context;
//! - [`engine_form`] — the engine knobs as text and their conversion to the core's `Engine`;
//! - [`text`] — core enums → message keys of `vramfit-i18n` (seven languages), one `match` each;
//! - [`guidance`], [`measure_view`] — checklist, FAQ, and the measurement scripts with paste-back;
//! - [`format`] — number formatting;
//! - [`panic_panel`] — turns a panic into a visible error panel;
//! - [`embed`] — the `?embed=1` widget and the snippet panel; [`js_api`] — `window.vramfit`;
//!   [`offline`] — registers the service worker.

pub mod app;
pub mod chart;
pub mod custom_form;
pub mod custom_inputs;
pub mod embed;
pub mod engine_form;
pub mod engine_inputs;
pub mod form;
pub mod format;
pub mod gen_form;
pub mod gen_inputs;
pub mod guidance;
pub mod inputs;
pub mod js_api;
pub mod measure_view;
pub mod offline;
pub mod panic_panel;
pub mod result;
pub mod text;
pub mod train_form;
pub mod train_inputs;
pub mod url;
