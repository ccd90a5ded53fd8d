//! Inputs: what a scenario names before any budget is drawn up (the model, how it is stored, the
//! catalogs of models and cards). Uses `units` only. Within the folder, bottom up (the order
//! `tests/layers.rs` holds):
//! 1. [`gguf`] (llama.cpp's quantisation types and `llama-quantize`'s per-tensor rules), [`model`]
//!    (architectures and exact tensor lists), [`kv_format`] (KV cache formats); none uses another;
//! 2. [`format`](mod@format): weight formats with their real storage, costing a model's tensors
//!    (in a `gguf` preset for GGUF files);
//! 3. [`catalog`] (the models and the GPUs, with the dated market table) and [`import`] (the
//!    `config.json` reader, public as `vramfit_core::hf_config`), both building `model`s stored
//!    in `format`s.

pub mod catalog;
pub mod format;
pub mod gguf;
pub mod import;
pub mod kv_format;
pub mod model;
