//! vramfit-core: the GPU memory budget engine.
//!
//! A [`Scenario`] (model × format × workload × hardware) goes in; an [`Estimate`] (per-component
//! bytes, per-GPU figures, a verdict, warnings, a card recommendation) comes out. The core does no
//! I/O, knows nothing of browsers, and returns numbers and enums, never sentences.
//!
//! ```
//! use vramfit_core::{estimate, Scenario};
//! let est = estimate(&Scenario::example()).expect("the example is valid");
//! assert_eq!(est.total_bytes, est.components.iter().map(|c| c.bytes).sum::<u64>());
//! assert!(est.fits);
//! ```
//!
//! Map of the crate:
//! - [`scenario`] — the input type (serde, versioned) and its validation;
//! - [`model`] — architectures and exact parameter counts; [`format`] — weight formats with their
//!   real storage ([`gguf`] — llama.cpp's quantisation types); [`kv_format`] — KV cache formats;
//! - [`engine`] — vLLM, SGLang, llama.cpp and Transformers allocation policies;
//! - [`training`] — training and fine-tuning budgets (full, LoRA, QLoRA, optimizers, sharding);
//! - [`diffusion`] — image and video generation pipelines; [`custom`] — a workload item by item;
//! - [`import`] — Hugging Face `config.json` reader;
//! - [`budget`] — one module per memory component, each citing its formula's source;
//! - [`plan`] — cards × split → per-GPU budget and verdict with its reason; [`fixes`] — what would
//!   make it fit; [`recommend`] — the card search;
//!   [`inverse`] — largest context / sequences / budget fraction, and the memory-vs-context curve;
//! - [`measure`] — measurement scripts and commands for the scenario, and a reader for their output;
//! - [`catalog`] — models and GPUs; [`rules`] — the seeds' rules of thumb; [`warning`] — warnings;
//! - [`bytes`] — units, and the saturating arithmetic every formula uses (figures stop at 2^64
//!   bytes instead of wrapping); [`limits`] — accepted ranges and `config.json` ceilings.
//! - [`num`] — decimal text ↔ `f64` without the standard library's float tables.

pub mod budget;
pub mod bytes;
pub mod catalog;
pub mod change;
pub mod custom;
pub mod diffusion;
pub mod dispatch;
pub mod engine;
pub mod estimate;
pub mod fixes;
pub mod format;
pub mod gguf;
pub mod header;
pub mod import;
pub mod inverse;
pub mod kv_format;
pub mod limits;
pub mod measure;
pub mod model;
pub mod num;
pub mod plan;
pub mod query;
pub mod recommend;
pub mod rules;
pub mod scenario;
pub mod training;
pub mod warning;

pub use estimate::{Estimate, ScenarioError};

/// Estimates a scenario; when the plan is tight or does not fit, `fixes` lists the cheap changes
/// that help, each evaluated by the core.
pub fn estimate(scenario: &Scenario) -> Result<Estimate, ScenarioError> {
    let mut e = estimate::estimate_without_fixes(scenario)?;
    e.fixes = fixes::search(scenario, &e);
    Ok(e)
}
pub use scenario::Scenario;
