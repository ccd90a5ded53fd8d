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
//! # Public API
//!
//! The estimate's vocabulary is re-exported at the crate root, item by item, grouped below by the
//! layer that defines it: formats and architectures, the budget vocabulary, each workload's
//! types, the scenario, plans and their verdicts, and the estimate with [`estimate()`]. These are
//! exactly the items the web app (its JavaScript API included), the CLI and the tests name; other
//! types reach them only as fields and results (an [`Estimate`]'s `recommendation`, a [`Plan`]'s
//! `kv`), and the modules defining them are private. The cargo feature `replay` (tests only, off by
//! default, never in the page or the CLI) adds `training_replay` and `ReplayPeak`: the allocator
//! replay the closed-form training estimate is held to (`training/replay.rs`).
//!
//! Eight modules stay public as namespaces, because what outside code uses of them are mostly
//! free functions and constants, whose names read well only behind the module's name
//! (`query::from_pairs`, `num::parse`, `bytes::GIB`, `catalog::gpu`, `header::ErrorKind`):
//! [`bytes`] (units), [`num`] (decimal text ↔ `f64`), [`limits`] (the validation vocabulary
//! `Field` and `RangeError`, the scenario version and defaults, `config.json` ceilings),
//! [`catalog`] (models and GPUs), [`hf_config`] (the Hugging Face `config.json` reader), [`query`]
//! (the URL codec), [`measure`] (measurement scripts and the log reader) and [`header`]
//! (safetensors / GGUF header inspection). Apart from the types their functions take and return,
//! what else they hold is crate-private.
//!
//! # Map of the crate
//!
//! The private modules, bottom up (`tests/layers.rs` checks that imports point down only):
//! - `gguf` — llama.cpp's quantisation types; `model` — architectures and exact parameter counts;
//!   `kv_format` — KV cache formats; `format` — weight formats with their real storage;
//!   `import` — holds `hf_config`;
//! - `budget` — one module per memory component, each citing its formula's source;
//! - `engine` — vLLM, SGLang, llama.cpp and Transformers allocation policies; `training` —
//!   training and fine-tuning budgets (full, LoRA, QLoRA, optimizers, sharding); `diffusion` —
//!   image and video generation pipelines; `custom` — a workload item by item;
//! - `scenario` — the input type (serde, versioned) and its validation; `dispatch` — the one
//!   `match` over workloads;
//! - `plan` — cards × split → per-GPU budget and verdict with its reason; `recommend` — the card
//!   search; `inverse` — largest context / sequences / budget fraction, and the memory curve;
//!   `rules` — the seeds' rules of thumb; `warning` — warnings; `change` — the changes a fix makes;
//! - `estimate` — the estimate; `fixes` — what would make it fit.

/// A catalog entry's `source` text. Kept with the `sources` feature (on by default: the CLI, the
/// tests, the JS API's own package); empty in the page's wasm, which never shows it and builds the
/// core without default features (the sources would be a large share of the wasm's data, all of it
/// loaded before the first answer).
#[cfg(feature = "sources")]
macro_rules! source {
    ($s:expr) => {
        $s
    };
}
#[cfg(not(feature = "sources"))]
macro_rules! source {
    ($s:expr) => {
        ""
    };
}

pub mod bytes;
pub mod catalog;
pub mod header;
pub mod limits;
pub mod measure;
pub mod num;
pub mod query;

mod budget;
mod change;
mod custom;
mod diffusion;
mod dispatch;
mod engine;
mod error_text;
mod estimate;
mod fixes;
mod format;
mod gguf;
mod import;
mod inverse;
mod kv_format;
mod model;
mod plan;
mod price;
mod recommend;
mod rules;
mod runs_on;
mod scenario;
mod speed;
mod stack;
mod training;
mod warning;

// Inputs (layers 1–3): architectures, storage formats, the `config.json` reader.
pub use format::WeightFormat;
pub use import::hf_config;
pub use kv_format::KvCacheFormat;
pub use model::{GlobalAttention, ModelArch, PerLayerInputs};

// The budget vocabulary every workload shares (layer 4).
pub use budget::draft::SpeculativeMethod;
pub use budget::kv_cache::StateStorage;
pub use budget::{Card, ComponentId, PeakPhase, StartFailure};

// The workloads (layer 5): serving engines, training, image and video generation, custom.
pub use custom::{Custom, Item, ItemKind};
pub use diffusion::pipelines::{Role, PIPELINES};
pub use diffusion::{Attention, Generation, Offload, PipelinePartFormat};
pub use engine::llama_cpp::{CacheType, LlamaCpp};
pub use engine::sglang::Sglang;
pub use engine::transformers::{AttnImplementation, CacheImplementation, Transformers};
pub use engine::vllm::{HybridPages, Vllm, VllmVersion};
pub use engine::{Engine, EngineKind, Inference};
pub use training::{
    Checkpointing, LoraTargets, Method, Optimizer, Sharding, Train, TrainPrecision,
};

// The scenario, aggregating the workloads (layer 6).
pub use scenario::{
    CardEntry, Hardware, ModelSource, RecommendBy, Scenario, Speculative, Workload, WorkloadKind,
    DEFAULT_MODEL, DEFAULT_REACH,
};
// Which software runs on which card (layer 7).
pub use stack::StackGap;

// Plans and what evaluates many plans (layers 8–9): verdicts, the curve, warnings, fixes.
pub use change::{Change, Fix};
pub use inverse::{CurveAxis, CurvePoint};
pub use plan::{CardUse, Plan, Split, Verdict, VerdictReason};
pub use price::{Cost, PriceSource};
pub use recommend::{LeftOut, Offer, Recommendation};
pub use speed::{Bound, GenerationSpeed, ServingSpeed, Speed, TrainingSpeed};

/// Rows of published measurements the speed bands are measured on.
pub fn speed_calibration_rows() -> usize {
    speed::fitted::CALIBRATION_ROWS
}

/// The speed model's error bands, ± percent: (decode, prefill), as the calibration measures them
/// (the test `tests/tests/speed_calibration.rs` holds them to its rows).
pub fn speed_bands() -> (u32, u32) {
    (
        speed::fitted::DECODE_BAND_PERCENT,
        speed::fitted::PREFILL_BAND_PERCENT,
    )
}
pub use warning::Warning;

// The estimate (layer 10), and the steps before it that the CLI and the tests call alone.
pub use estimate::{prepare, resolve_model, user_plan, Estimate, ScenarioError};

// Internals the trace, calibration and hybrid-model tests check directly against llama.cpp's
// allocator, the diffusion traces and the engines' state sizing: not the library's API, so only
// with feature `testing` (the tests' dev-dependency; the CLI and the page never turn it on).
#[cfg(feature = "testing")]
pub use budget::kv_cache::state_per_layer;
#[cfg(feature = "testing")]
pub use diffusion::{generation_budget, part_bytes, phase_sets, PhaseSet};
#[cfg(feature = "testing")]
pub use engine::llama_cpp::{
    compute_buffer_bytes, embedding_rows_on_host, fa_f16_copies, ComputeShape, GraphFamily,
};
#[cfg(feature = "testing")]
pub use engine::sglang::{mamba_slots, STATE_STORAGE};
// What runs on a card (layer 13).
pub use runs_on::{runs_on, RunsOn, CONTEXT_TOKENS as RUNS_ON_CONTEXT};
// The allocator replay the closed-form training estimate is held to (tests only).
#[cfg(feature = "replay")]
pub use estimate::training_replay;
#[cfg(feature = "replay")]
pub use training::replay::ReplayPeak;

/// Estimates a scenario; when the plan is tight or does not fit, `fixes` lists the cheap changes
/// that help, each evaluated by the core.
pub fn estimate(scenario: &Scenario) -> Result<Estimate, ScenarioError> {
    // A pasted config keeps what the reader uses: the fix search copies the scenario once per
    // change it tries, and a config carrying a million-entry table made every estimate slow.
    let compacted;
    let scenario = match &scenario.model {
        Some(ModelSource::HfConfig(v)) if hf_config::needs_compacting(v) => {
            compacted = Scenario {
                model: Some(ModelSource::HfConfig(hf_config::compact(v))),
                ..scenario.clone()
            };
            &compacted
        }
        _ => scenario,
    };
    let mut e = estimate::estimate_without_fixes(scenario)?;
    e.fixes = fixes::search(scenario, &e);
    Ok(e)
}
