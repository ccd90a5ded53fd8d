//! The scenario: everything an estimate depends on, in one serde type shared by the URL state, the
//! CLI's JSON, the JS API and the golden test files.
//!
//! ```json
//! { "version": 1,
//!   "model": {"catalog": "llama-3.1-8b-instruct"},          // or {"hf_config": {…config.json…}}
//!   "weights": "bf16",
//!   "kv_cache": "fp16",                                      // optional: default = compute precision
//!   "workload": {"inference": {"context_tokens": 8192, "sequences": 4}},
//!   "hardware": {"gpu": "rtx-4090", "count": 1},            // or {"gpu_memory_gib": 24, "count": 1}
//!                                                            // or {} / absent: recommend a card
//!   "headroom_percent": 10 }
//! ```
//! `validate` checks ranges and returns typed errors naming the field; nothing here panics on user
//! input.

use crate::diffusion::{DiffusionError, Generation};
use crate::engine::Engine;
use crate::format::WeightFormat;
use crate::precision::Precision;
use crate::training::Train;
use serde::{Deserialize, Serialize};

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

/// A complete, versioned description of what to estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Schema version (1).
    #[serde(default = "default_version")]
    pub version: u32,
    /// Which model (LLM serving and training; absent for image/video and custom workloads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelSource>,
    /// Storage format of the weights (`bf16`, `fp8`, `gptq-int4-g128`, `gguf-q4_k_m`, …; default
    /// bf16; unused by image, video and custom workloads).
    #[serde(default = "default_weights")]
    pub weights: WeightFormat,
    /// Modules the checkpoint leaves unquantised (its `llm_int8_skip_modules` /
    /// `modules_to_not_convert`, e.g. `model.layers.0.mlp`), stored in 16 bit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unquantized_modules: Vec<String>,
    /// Storage format of the KV cache; `None` = the compute precision of the weights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_cache: Option<Precision>,
    /// What runs.
    pub workload: Workload,
    /// On what.
    #[serde(default)]
    pub hardware: Hardware,
    /// Memory kept free on each card, percent.
    #[serde(default = "default_headroom")]
    pub headroom_percent: u32,
    /// Serving engine and its settings; absent: an engine-neutral estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Engine>,
}

fn default_weights() -> WeightFormat {
    WeightFormat::Bf16
}

fn default_version() -> u32 {
    SCENARIO_VERSION
}

fn default_headroom() -> u32 {
    DEFAULT_HEADROOM_PERCENT
}

/// Where the architecture comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModelSource {
    /// A catalog id.
    Catalog(String),
    /// A Hugging Face `config.json`, as JSON.
    HfConfig(serde_json::Value),
}

/// The workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Workload {
    /// Serving / generating text.
    Inference(Inference),
    /// Training or fine-tuning.
    Train(Train),
    /// Image generation with a diffusion pipeline.
    GenerateImage(Generation),
    /// Video generation with a diffusion pipeline.
    GenerateVideo(Generation),
    /// Anything else, described item by item.
    Custom(crate::custom::Custom),
}

impl Workload {
    /// Tokens per sequence and sequences at once: (context, sequences) when serving,
    /// (sequence length, micro-batch) when training.
    pub fn shape(&self) -> (u32, u32) {
        match self {
            Workload::Inference(i) => (i.context_tokens, i.sequences),
            Workload::Train(t) => (t.sequence_length, t.micro_batch),
            Workload::Custom(_) | Workload::GenerateImage(_) | Workload::GenerateVideo(_) => (0, 1),
        }
    }

    /// Whether the workload runs a language model from `model`.
    pub fn needs_model(&self) -> bool {
        matches!(self, Workload::Inference(_) | Workload::Train(_))
    }

    /// The serving parameters, when serving.
    pub fn inference(&self) -> Option<&Inference> {
        match self {
            Workload::Inference(i) => Some(i),
            _ => None,
        }
    }
}

/// Serving parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inference {
    /// Tokens held per sequence (prompt + generated), i.e. the context each request may use.
    pub context_tokens: u32,
    /// Sequences served at the same time.
    pub sequences: u32,
    /// Most tokens one prefill step processes (chunked prefill budget).
    #[serde(default = "default_chunk")]
    pub prefill_chunk_tokens: u32,
}

fn default_chunk() -> u32 {
    DEFAULT_PREFILL_CHUNK_TOKENS
}

/// The cards: a catalog GPU, or a memory size, and how many; neither = recommend a card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hardware {
    /// Catalog GPU id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<String>,
    /// Memory of a card not in the catalog, GiB as the driver reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_memory_gib: Option<f64>,
    /// Number of cards (default 1).
    #[serde(default = "one")]
    pub count: u32,
    /// The CUDA context your stack measures (MiB, e.g. nvidia-smi before any tensor); default
    /// 0.35 GiB (lazy module loading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cuda_context_mib: Option<u32>,
}

fn one() -> u32 {
    1
}

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

impl Scenario {
    /// A common starting point: Llama 3.1 8B Instruct in bf16, 8k context, 4 sequences, recommend.
    pub fn example() -> Scenario {
        Scenario {
            version: SCENARIO_VERSION,
            model: Some(ModelSource::Catalog("llama-3.1-8b-instruct".into())),
            weights: WeightFormat::Bf16,
            unquantized_modules: Vec::new(),
            kv_cache: None,
            workload: Workload::Inference(Inference {
                context_tokens: 8192,
                sequences: 4,
                prefill_chunk_tokens: DEFAULT_PREFILL_CHUNK_TOKENS,
            }),
            hardware: Hardware::default_one(),
            headroom_percent: DEFAULT_HEADROOM_PERCENT,
            engine: None,
        }
    }

    /// Every range violation, field by field (empty when the scenario is valid).
    pub fn validate(&self) -> Vec<(Field, RangeError)> {
        let mut errs = Vec::new();
        let mut extra = Vec::new();
        let mut check = |field, v: f64, min: f64, max: f64| {
            if let Err(e) = check_range(v, min, max) {
                errs.push((field, e));
            }
        };
        check(
            Field::Version,
            f64::from(self.version),
            1.0,
            f64::from(SCENARIO_VERSION),
        );
        match &self.workload {
            Workload::Inference(inf) => {
                check(
                    Field::ContextTokens,
                    f64::from(inf.context_tokens),
                    1.0,
                    f64::from(MAX_CONTEXT_TOKENS),
                );
                check(
                    Field::Sequences,
                    f64::from(inf.sequences),
                    1.0,
                    f64::from(MAX_SEQUENCES),
                );
                check(
                    Field::PrefillChunkTokens,
                    f64::from(inf.prefill_chunk_tokens),
                    16.0,
                    f64::from(MAX_CONTEXT_TOKENS),
                );
            }
            Workload::GenerateImage(g) | Workload::GenerateVideo(g) => {
                let video = matches!(self.workload, Workload::GenerateVideo(_));
                match crate::diffusion::validate(g) {
                    Err(e) => extra.push(generation_field(&e)),
                    Ok(p) if p.video != video => {
                        extra.push((Field::Generation("pipeline"), RangeError::Invalid))
                    }
                    Ok(_) => {}
                }
            }
            Workload::Custom(c) => {
                if let Some(i) = crate::custom::invalid_item(c) {
                    check(Field::Item(i), f64::NAN, 0.0, 0.0);
                }
            }
            Workload::Train(t) => {
                for (name, v, min, max) in [
                    ("micro_batch", t.micro_batch, 1, 65_536),
                    ("sequence_length", t.sequence_length, 1, MAX_CONTEXT_TOKENS),
                    (
                        "gradient_accumulation",
                        t.gradient_accumulation,
                        1,
                        1_000_000,
                    ),
                    ("lora_rank", t.lora_rank, 1, 65_536),
                    ("tensor_parallel", t.tensor_parallel, 1, MAX_GPUS),
                    ("pipeline_parallel", t.pipeline_parallel, 1, MAX_GPUS),
                    ("hybrid_group", t.hybrid_group.unwrap_or(8), 1, MAX_GPUS),
                ] {
                    check(
                        Field::Train(name),
                        f64::from(v),
                        f64::from(min),
                        f64::from(max),
                    );
                }
                let model_parallel = u64::from(t.tensor_parallel) * u64::from(t.pipeline_parallel);
                if model_parallel > u64::from(self.hardware.count.max(1)) {
                    check(
                        Field::Train("tensor_parallel"),
                        f64::from(t.tensor_parallel),
                        1.0,
                        f64::from(self.hardware.count.max(1) / t.pipeline_parallel.max(1)),
                    );
                }
            }
        }
        check(
            Field::GpuCount,
            f64::from(self.hardware.count),
            1.0,
            f64::from(MAX_GPUS),
        );
        if let Some(gib) = self.hardware.gpu_memory_gib {
            check(Field::GpuMemory, gib, 1.0, 4096.0);
        }
        check(
            Field::Headroom,
            f64::from(self.headroom_percent),
            f64::from(MIN_HEADROOM_PERCENT),
            f64::from(MAX_HEADROOM_PERCENT),
        );
        errs.extend(extra);
        if self.hardware.gpu.is_some() && self.hardware.gpu_memory_gib.is_some() {
            errs.push((Field::Hardware, RangeError::Invalid));
        }
        if let Some(engine) = &self.engine {
            errs.extend(
                crate::engine::validate(engine)
                    .into_iter()
                    .map(|(n, e)| (Field::Engine(n), e)),
            );
        }
        errs
    }
}

/// The field and problem of a generation that fails its pipeline's rules.
fn generation_field(e: &DiffusionError) -> (Field, RangeError) {
    match e {
        DiffusionError::UnknownPipeline { .. } => {
            (Field::Generation("pipeline"), RangeError::Invalid)
        }
        DiffusionError::VideoPipelineNeedsFrames | DiffusionError::ImagePipelineTakesOneFrame => {
            (Field::Generation("frames"), RangeError::Invalid)
        }
        DiffusionError::SizeNotMultiple { multiple } => (
            Field::Generation("width"),
            RangeError::NotMultiple { of: *multiple },
        ),
        DiffusionError::OutOfRange { field, min, max } => (
            Field::Generation(field),
            RangeError::Between {
                min: f64::from(*min),
                max: f64::from(*max),
            },
        ),
        DiffusionError::UnknownPart { .. } => {
            (Field::Generation("drop_text_encoders"), RangeError::Invalid)
        }
    }
}

impl Default for Hardware {
    fn default() -> Hardware {
        Hardware::default_one()
    }
}

impl Hardware {
    /// One card, to be recommended.
    pub fn default_one() -> Hardware {
        Hardware {
            gpu: None,
            gpu_memory_gib: None,
            count: 1,
            cuda_context_mib: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_round_trips_and_defaults() {
        let s = Scenario::example();
        let json = serde_json::to_string(&s).expect("serialise");
        let back: Scenario = serde_json::from_str(&json).expect("parse");
        assert_eq!(s, back);
        let minimal: Scenario = serde_json::from_str(
            r#"{"model":{"catalog":"x"},"weights":"int4",
                "workload":{"inference":{"context_tokens":10,"sequences":2}},
                "hardware":{"gpu_memory_gib":24,"count":2}}"#,
        )
        .expect("parse minimal");
        assert_eq!(minimal.headroom_percent, 10);
        assert!(minimal.validate().is_empty());
    }

    #[test]
    fn validation_names_fields() {
        let mut s = Scenario::example();
        s.headroom_percent = 2;
        s.hardware.count = 0;
        let errs = s.validate();
        assert!(errs.contains(&(Field::Headroom, RangeError::TooSmall { min: 5.0 })));
        assert!(errs.contains(&(Field::GpuCount, RangeError::TooSmall { min: 1.0 })));
    }
}
