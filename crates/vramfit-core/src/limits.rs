//! The leaf of the core: accepted ranges of every input, the field names validation reports, and
//! the one validation convention every workload follows — `validate` returns
//! `Vec<(Field, RangeError)>`, empty when valid. Imports nothing from the crate.

use serde::Serialize;

/// The schema version this build writes and reads.
pub const SCENARIO_VERSION: u32 = 1;

/// Default headroom kept free on each card, percent of its reported memory.
pub const DEFAULT_HEADROOM_PERCENT: u32 = 10;
/// Smallest headroom accepted (below it, normal runtime fluctuation already eats the margin).
pub const MIN_HEADROOM_PERCENT: u32 = 5;
/// Largest headroom accepted.
pub const MAX_HEADROOM_PERCENT: u32 = 50;
/// Tokens one forward pass of prefill processes at most (vLLM V1's `max_num_batched_tokens` for
/// `vllm serve`: `EngineArgs._set_default_args`, `UsageContext.OPENAI_API_SERVER` → 8192).
pub const DEFAULT_PREFILL_CHUNK_TOKENS: u32 = 8192;
/// Largest context accepted (10 M tokens: beyond any released model).
pub const MAX_CONTEXT_TOKENS: u32 = 10_000_000;
/// Largest number of concurrent sequences accepted.
pub const MAX_SEQUENCES: u32 = 100_000;
/// Largest GPU count accepted.
pub const MAX_GPUS: u32 = 64;

/// A scenario field that validation can reject.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// `version`.
    Version,
    /// `workload.inference.context_tokens`.
    ContextTokens,
    /// `workload.inference.sequences`.
    Sequences,
    /// `workload.inference.prefill_chunk_tokens`.
    PrefillChunkTokens,
    /// `hardware.count`.
    GpuCount,
    /// `hardware.gpu_memory_gib`.
    GpuMemory,
    /// `hardware` (both `gpu` and `gpu_memory_gib` given).
    Hardware,
    /// `headroom_percent`.
    Headroom,
    /// A setting of the engine, by its flag name.
    Engine(&'static str),
    /// A training setting, by its scenario name.
    Train(&'static str),
    /// An item of a custom workload, by position.
    Item(usize),
    /// A generation setting, by its scenario name.
    Generation(&'static str),
}

/// Why a field was rejected, with the accepted range.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum RangeError {
    /// Below the minimum.
    TooSmall {
        /// Smallest accepted value.
        min: f64,
    },
    /// Above the maximum.
    TooLarge {
        /// Largest accepted value.
        max: f64,
    },
    /// Not a number, or a combination that makes no sense.
    Invalid,
    /// Outside `min..=max`.
    Between {
        /// Smallest accepted value.
        min: f64,
        /// Largest accepted value.
        max: f64,
    },
    /// Not a multiple of `of`.
    NotMultiple {
        /// The step.
        of: u32,
    },
}

/// Checks `value` lies in `min..=max`.
pub fn check_range(value: f64, min: f64, max: f64) -> Result<(), RangeError> {
    if !value.is_finite() {
        Err(RangeError::Invalid)
    } else if value < min {
        Err(RangeError::TooSmall { min })
    } else if value > max {
        Err(RangeError::TooLarge { max })
    } else {
        Ok(())
    }
}
