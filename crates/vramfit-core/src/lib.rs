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
//! replay the closed-form training estimate is held to (`workloads/training/replay.rs`).
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
//! One folder per layer, bottom up. A module uses only lower folders, or the modules before its
//! own within its folder (`tests/layers.rs` holds the order):
//! - `units` — `bytes`, `limits`, `num`;
//! - `inputs` — `gguf` (llama.cpp's quantisation types), `model` (architectures, exact parameter
//!   counts), `kv_format`; then `format` (weight formats with their real storage); then
//!   `catalog` and `import` (`hf_config`);
//! - `budget` — the vocabulary every workload shares, one module per memory component;
//! - `workloads` — `engine` (vLLM, SGLang, llama.cpp, Transformers), `training`, `diffusion`,
//!   `custom`: each its types, its validation and its budget, never another workload;
//! - `scenario` — the input type (serde, versioned); then `dispatch` (the one `match` over
//!   workloads) and `stack` (which software runs on which card);
//! - `plans` — `plan` (cards × split → verdict); then `speed`; then `price`; then `recommend`,
//!   `inverse`, `rules`, `warning`, `change`;
//! - `estimate` — the estimate; then `fixes` (what would make it fit) and `runs_on`;
//! - `adapters` — `query` (the URL codec), `measure`, `header`; then `error_text`.

/// A catalog entry's `source` text. Kept with the `sources` feature (on by default: the CLI, the
/// tests, the JS API's own package); empty in the page's wasm, which never shows it and builds the
/// core without default features (the sources would be a large share of the wasm's data, all of it
/// loaded before the first answer).
/// `ALL` (every value, in the order a picker lists them) and `id()` (the value as a scenario spells
/// it, serde's name) for an enum of unit variants: the page builds its option lists from these and
/// restates no value (`tests/closed_sets.rs` holds each `id` to serde's spelling). A variant left
/// out of the list does not compile: `id` is an exhaustive `match`.
macro_rules! closed_set {
    ($t:ident { $($v:ident => $id:literal),+ $(,)? }) => {
        impl $t {
            /// Every value, in the order a picker lists them.
            pub const ALL: [$t; [$($id),+].len()] = [$($t::$v),+];
            /// The value as a scenario spells it.
            pub fn id(self) -> &'static str {
                match self {
                    $($t::$v => $id),+
                }
            }
        }
    };
}

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

mod adapters;
mod budget;
mod estimate;
mod inputs;
mod plans;
mod scenario;
mod units;
mod workloads;

// The eight public namespaces (see above), each in its layer's folder.
pub use adapters::{header, measure, query};
pub use inputs::catalog;
pub use units::{bytes, limits, num};

// Inputs: architectures, storage formats, the `config.json` reader.
pub use inputs::format::WeightFormat;
pub use inputs::import::hf_config;
pub use inputs::kv_format::KvCacheFormat;
pub use inputs::model::{GlobalAttention, ModelArch, PerLayerInputs};

// The budget vocabulary every workload shares.
pub use budget::draft::SpeculativeMethod;
pub use budget::kv_cache::StateStorage;
pub use budget::{Card, ComponentId, PeakPhase, StartFailure};

// The workloads: serving engines, training, image and video generation, custom.
pub use workloads::custom::{Custom, Item, ItemKind};
pub use workloads::diffusion::pipelines::{Role, PIPELINES};
pub use workloads::diffusion::{Attention, Generation, Offload, PipelinePartFormat};
pub use workloads::engine::llama_cpp::{CacheType, LlamaCpp};
pub use workloads::engine::sglang::Sglang;
pub use workloads::engine::transformers::{AttnImplementation, CacheImplementation, Transformers};
pub use workloads::engine::vllm::{HybridPages, Vllm, VllmVersion};
pub use workloads::engine::{Engine, EngineKind, Inference};
pub use workloads::training::{
    Checkpointing, LoraTargets, Method, Optimizer, Sharding, Train, TrainPrecision,
};

// The scenario, aggregating the workloads.
pub use scenario::{
    CardEntry, Hardware, ModelSource, RecommendBy, Scenario, Speculative, Workload, WorkloadKind,
    DEFAULT_MODEL, DEFAULT_REACH,
};
// Which software runs on which card.
pub use scenario::stack::StackGap;

// Plans and what evaluates many plans: verdicts, the curve, warnings, fixes.
pub use plans::change::{Change, Fix};
pub use plans::inverse::{CurveAxis, CurvePoint};
pub use plans::plan::{CardUse, Plan, Split, Verdict, VerdictReason};
pub use plans::price::{Cost, PriceSource};
pub use plans::recommend::{LeftOut, Offer, Recommendation};
pub use plans::speed::{Bound, GenerationSpeed, ServingSpeed, Speed, TrainingSpeed};

/// Rows of published measurements the speed bands are measured on.
pub fn speed_calibration_rows() -> usize {
    plans::speed::fitted::CALIBRATION_ROWS
}

/// The speed model's error bands, ± percent: (decode, prefill), as the calibration measures them
/// (the test `tests/tests/speed_calibration.rs` holds them to its rows).
pub fn speed_bands() -> (u32, u32) {
    (
        plans::speed::fitted::DECODE_BAND_PERCENT,
        plans::speed::fitted::PREFILL_BAND_PERCENT,
    )
}
pub use plans::warning::Warning;

// The estimate, and the steps before it that the CLI and the tests call alone.
pub use estimate::{prepare, resolve_model, user_plan, Estimate, ScenarioError};

// Internals the trace, calibration and hybrid-model tests check directly against llama.cpp's
// allocator, the diffusion traces and the engines' state sizing: not the library's API, so only
// with feature `testing` (the tests' dev-dependency; the CLI and the page never turn it on).
#[cfg(feature = "testing")]
pub use budget::kv_cache::state_per_layer;
#[cfg(feature = "testing")]
pub use workloads::diffusion::{generation_budget, part_bytes, phase_sets, PhaseSet};
#[cfg(feature = "testing")]
pub use workloads::engine::llama_cpp::{
    compute_buffer_bytes, embedding_rows_on_host, fa_f16_copies, ComputeShape, GraphFamily,
};
#[cfg(feature = "testing")]
pub use workloads::engine::sglang::{mamba_slots, STATE_STORAGE};
// What runs on a card.
pub use estimate::runs_on::{runs_on, RunsOn, CONTEXT_TOKENS as RUNS_ON_CONTEXT};
// The allocator replay the closed-form training estimate is held to (tests only).
#[cfg(feature = "replay")]
pub use estimate::training_replay;
#[cfg(feature = "replay")]
pub use workloads::training::replay::ReplayPeak;

/// Estimates a scenario; when the plan is tight or does not fit, `fixes` lists the cheap changes
/// that help, each evaluated by the core. The same as [`estimate_without_fixes`] followed by
/// [`add_fixes`].
pub fn estimate(scenario: &Scenario) -> Result<Estimate, ScenarioError> {
    let mut e = estimate_without_fixes(scenario)?;
    add_fixes(scenario, &mut e);
    Ok(e)
}

/// Everything [`estimate`] returns but the fixes (`fixes` is empty). The page shows this first
/// and adds the fixes once the rest of its code is in: the fix search estimates the scenario
/// again for each change it tries, and its code is not part of the first download.
pub fn estimate_without_fixes(scenario: &Scenario) -> Result<Estimate, ScenarioError> {
    estimate::estimate_without_fixes(scenario)
}

/// Fills `e.fixes` for the scenario `e` was estimated from (by [`estimate_without_fixes`]).
pub fn add_fixes(scenario: &Scenario, e: &mut Estimate) {
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
    e.fixes = estimate::fixes::search(scenario, e);
}
