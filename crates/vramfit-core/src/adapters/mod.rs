//! Adapters: between the core and the formats outside it, built on everything below (the
//! estimate included). Bottom up (the order `tests/layers.rs` holds):
//! 1. [`query`] (the URL codec: a scenario ↔ `?key=value` pairs, checked by `estimate::prepare`),
//!    [`measure`] (measurement scripts for the engines, and the log reader comparing a run with
//!    its estimate) and [`header`] (safetensors / GGUF header inspection). All three are public
//!    namespaces. `header` itself needs only `inputs`; it sits here because its tests estimate
//!    the scenarios it reads;
//! 2. [`error_text`]: `Display` and `std::error::Error` for the core's error types, `header`'s
//!    `HeaderError` and `estimate`'s `ScenarioError` among them.

pub mod error_text;
pub mod header;
pub mod measure;
pub mod query;
