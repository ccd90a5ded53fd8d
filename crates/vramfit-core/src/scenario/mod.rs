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
//!
//! # The scenario layer
//!
//! This folder is the layer above `workloads`, which it aggregates; it may use every folder below.
//! The scenario type is this module. Above it, side by side, come [`dispatch`] (a `Job` and the
//! one `match` over workloads) and [`stack`] (which engines and formats run on which card): they
//! use the scenario and never each other (`tests/layers.rs`).

pub mod dispatch;
pub mod stack;

use crate::budget::draft::SpeculativeMethod;
use crate::inputs::catalog::Availability;
use crate::inputs::format::WeightFormat;
use crate::inputs::kv_format::KvCacheFormat;
use crate::workloads::diffusion::Generation;
use crate::workloads::engine::Engine;
use crate::workloads::engine::Inference;
use crate::workloads::training::Train;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::units::limits::{
    check_range, Field, RangeError, DEFAULT_HEADROOM_PERCENT, MAX_GPUS, MAX_HEADROOM_PERCENT,
    MAX_MODULE_PATH_LEN, MAX_UNQUANTIZED_MODULES, MAX_WEIGHTS_BYTES, MIN_HEADROOM_PERCENT,
    SCENARIO_VERSION,
};

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
    /// Exact tensor bytes of the checkpoint in `weights`, read from the user's own file headers
    /// (`vramfit inspect`, or a file dropped on the page). When given, every weight figure of the
    /// scenario's format is scaled by exact ÷ estimated (see `Footprint::scaled_to`): one GPU
    /// holding the whole model holds exactly the file's bytes, and a split over GPUs or layers
    /// keeps the estimate's proportions. Training's other formats (a QLoRA base, master weights)
    /// are not scaled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights_bytes: Option<u64>,
    /// Storage format of the KV cache; `None` = the compute precision of the weights.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_cache: Option<KvCacheFormat>,
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
    /// The user's own price per GPU-hour for catalog cards (card id → US dollars), over the
    /// reference table's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub prices_usd_per_hour: BTreeMap<String, f64>,
    /// How the recommendation ranks the plans that fit (default: price per hour).
    #[serde(default, skip_serializing_if = "RecommendBy::is_default")]
    pub recommend_by: RecommendBy,
    /// The widest way of getting a card the recommendation considers: `cloud`, `marketplace`
    /// (default: what can be rented) or `buy` (everything).
    #[serde(default = "default_reach", skip_serializing_if = "is_default_reach")]
    pub recommend_from: Availability,
    /// Speculative decoding (serving): a draft model or the model's MTP layers beside it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speculative: Option<Speculative>,
}

/// Speculative decoding: `{"draft": {"catalog": "llama-3.2-1b-instruct"}, "num_tokens": 5}` or
/// `{"method": "mtp", "num_tokens": 1}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Speculative {
    /// A draft model (default) or the model's MTP layers.
    #[serde(default, skip_serializing_if = "SpeculativeMethod::is_default")]
    pub method: SpeculativeMethod,
    /// The draft model, as `model` names one (draft-model method only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft: Option<ModelSource>,
    /// The draft's weight format (default: the target's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft_weights: Option<WeightFormat>,
    /// Tokens proposed per step (1–16; default 5 for a draft model, as vLLM's documentation runs
    /// one, and 1 for MTP, DeepSeek-V3's one MTP module).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_tokens: Option<u32>,
    /// Acceptance rate per proposed token (0–0.99; default 0.7 for a draft model, 0.85 for MTP:
    /// `budget::draft::DRAFT_ACCEPTANCE`, `MTP_ACCEPTANCE`, with their sources).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acceptance: Option<f64>,
}

impl Speculative {
    /// Tokens proposed per step, the default filled in.
    pub fn tokens(&self) -> u32 {
        self.num_tokens.unwrap_or(match self.method {
            SpeculativeMethod::DraftModel => 5,
            SpeculativeMethod::Mtp => 1,
        })
    }

    /// Range checks that need no model: the counts, the rate, a draft where one is needed.
    pub fn validate(&self) -> Vec<(Field, RangeError)> {
        let mut errs = Vec::new();
        if let Some(n) = self.num_tokens {
            if let Err(e) = check_range(f64::from(n), 1.0, 16.0) {
                errs.push((Field::Speculative("num_tokens"), e));
            }
        }
        if let Some(a) = self.acceptance {
            if let Err(e) = check_range(a, 0.0, 0.99) {
                errs.push((Field::Speculative("acceptance"), e));
            }
        }
        let needs_draft = self.method == SpeculativeMethod::DraftModel;
        if needs_draft != self.draft.is_some() {
            errs.push((Field::Speculative("draft"), RangeError::Invalid));
        }
        errs
    }
}

/// How the recommendation ranks the plans that fit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecommendBy {
    /// Dollars per hour, lowest first.
    #[default]
    Price,
    /// Dollars per million output tokens, lowest first.
    CostPerToken,
    /// Decode tokens per second per request (training: tokens per second; generation: seconds
    /// per item), fastest first.
    Speed,
}

impl RecommendBy {
    /// Every ranking, in the order the UI offers them.
    pub const ALL: [RecommendBy; 3] = [
        RecommendBy::Price,
        RecommendBy::CostPerToken,
        RecommendBy::Speed,
    ];

    /// The stable id (`price`, `cost_per_token`, `speed`).
    pub fn id(self) -> &'static str {
        match self {
            RecommendBy::Price => "price",
            RecommendBy::CostPerToken => "cost_per_token",
            RecommendBy::Speed => "speed",
        }
    }

    /// The ranking whose [`RecommendBy::id`] is `id`.
    pub fn from_id(id: &str) -> Option<RecommendBy> {
        RecommendBy::ALL.into_iter().find(|r| r.id() == id)
    }

    fn is_default(&self) -> bool {
        *self == RecommendBy::default()
    }
}

/// The default reach of the recommendation: cards that can be rented.
pub const DEFAULT_REACH: Availability = Availability::Marketplace;

fn default_reach() -> Availability {
    DEFAULT_REACH
}

fn is_default_reach(a: &Availability) -> bool {
    *a == DEFAULT_REACH
}

/// Most user prices a scenario carries.
pub const MAX_USER_PRICES: usize = 256;
/// Highest user price per GPU-hour accepted, US dollars.
pub const MAX_USER_PRICE: f64 = 1000.0;

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
    Custom(crate::workloads::custom::Custom),
}

/// The catalog model a new scenario starts from.
pub const DEFAULT_MODEL: &str = "llama-3.1-8b-instruct";

/// The kind of a workload without its settings: what the UI's workload switch chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WorkloadKind {
    /// Serving / generating text.
    Inference,
    /// Training or fine-tuning.
    Train,
    /// Image generation.
    GenerateImage,
    /// Video generation.
    GenerateVideo,
    /// Item by item.
    Custom,
}

impl WorkloadKind {
    /// Every kind, in the order the UI offers them.
    pub const ALL: [WorkloadKind; 5] = [
        WorkloadKind::Inference,
        WorkloadKind::Train,
        WorkloadKind::GenerateImage,
        WorkloadKind::GenerateVideo,
        WorkloadKind::Custom,
    ];

    /// A short stable id (UI values and test ids): `serve`, `train`, `image`, `video`, `custom`.
    pub fn short_id(self) -> &'static str {
        match self {
            WorkloadKind::Inference => "serve",
            WorkloadKind::Train => "train",
            WorkloadKind::GenerateImage => "image",
            WorkloadKind::GenerateVideo => "video",
            WorkloadKind::Custom => "custom",
        }
    }

    /// Whether the workload runs a language model from `model`.
    pub fn needs_model(self) -> bool {
        matches!(self, WorkloadKind::Inference | WorkloadKind::Train)
    }
}

impl Workload {
    /// The kind of this workload.
    pub fn kind(&self) -> WorkloadKind {
        match self {
            Workload::Inference(_) => WorkloadKind::Inference,
            Workload::Train(_) => WorkloadKind::Train,
            Workload::GenerateImage(_) => WorkloadKind::GenerateImage,
            Workload::GenerateVideo(_) => WorkloadKind::GenerateVideo,
            Workload::Custom(_) => WorkloadKind::Custom,
        }
    }

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
        self.kind().needs_model()
    }

    /// The serving parameters, when serving.
    pub fn inference(&self) -> Option<&Inference> {
        match self {
            Workload::Inference(i) => Some(i),
            _ => None,
        }
    }
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
    /// Different cards in one machine (serving), in device order: `[{"gpu": "rtx-5090"},
    /// {"gpu": "rtx-4080", "count": 2}]`. Replaces `gpu`, `gpu_memory_gib` and `count`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gpus: Vec<CardEntry>,
}

/// One kind of card of a mixed machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardEntry {
    /// Catalog GPU id.
    pub gpu: String,
    /// Cards of this kind (default 1).
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

impl Scenario {
    /// A scenario from JSON text, as the CLI and the JS API read it: the serde shape, plus one
    /// rule serde cannot express: without `"weights"`, a pre-quantised repo id in
    /// `model.catalog` (`…-AWQ`, `…-GPTQ-Int4`, `…-FP8`, `unsloth/…-bnb-4bit`, `…-GGUF:Q4_K_M`)
    /// brings its own format instead of bf16 (a checkpoint is what it is; an explicit `"weights"`
    /// still wins, e.g. to describe a requantisation). Errors keep serde's line and column.
    pub fn from_json(text: &str) -> Result<Scenario, serde_json::Error> {
        let mut s: Scenario = serde_json::from_str(text)?;
        let has_weights = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .is_some_and(|v| v.get("weights").is_some());
        if !has_weights {
            s.take_repo_format();
        }
        Ok(s)
    }

    /// Sets `weights` to the format a pre-quantised repo id names (see [`Scenario::from_json`]);
    /// the URL codec applies it when a link has `model=` but no `weights=`.
    pub fn take_repo_format(&mut self) {
        if let Some(ModelSource::Catalog(id)) = &self.model {
            if let Some(format) = crate::inputs::catalog::lookup(id).and_then(|m| m.format) {
                self.weights = format;
            }
        }
    }

    /// A common starting point: Llama 3.1 8B Instruct in bf16, 8k context, 4 sequences, recommend.
    pub fn example() -> Scenario {
        Scenario {
            version: SCENARIO_VERSION,
            model: Some(ModelSource::Catalog(DEFAULT_MODEL.into())),
            weights: WeightFormat::Bf16,
            unquantized_modules: Vec::new(),
            weights_bytes: None,
            kv_cache: None,
            workload: Workload::Inference(Inference::default()),
            hardware: Hardware::default_one(),
            headroom_percent: DEFAULT_HEADROOM_PERCENT,
            engine: None,
            prices_usd_per_hour: BTreeMap::new(),
            recommend_by: RecommendBy::Price,
            recommend_from: DEFAULT_REACH,
            speculative: None,
        }
    }

    /// The format the base weights take on the GPU: `weights`, except under QLoRA, which loads
    /// them as NF4 (with its double quantisation setting) whatever the checkpoint's format.
    pub fn loaded_format(&self) -> WeightFormat {
        match &self.workload {
            Workload::Train(t) if t.method == crate::workloads::training::Method::Qlora => {
                WeightFormat::BnbNf4 {
                    double_quant: t.double_quant,
                }
            }
            _ => self.weights,
        }
    }

    /// Every range violation, field by field (empty when the scenario is valid). Each workload
    /// and the engine check their own fields (`validate` on their types); this adds the
    /// scenario's own and keeps the order the golden files record: version, workload, hardware,
    /// headroom, generation, the hardware pair, the engine, the unquantised modules (at most
    /// [`MAX_UNQUANTIZED_MODULES`] paths of at most `MAX_MODULE_PATH_LEN` (256) bytes).
    pub fn validate(&self) -> Vec<(Field, RangeError)> {
        let mut errs = Vec::new();
        let check = |errs: &mut Vec<_>, field, v: f64, min: f64, max: f64| {
            if let Err(e) = check_range(v, min, max) {
                errs.push((field, e));
            }
        };
        check(
            &mut errs,
            Field::Version,
            f64::from(self.version),
            1.0,
            f64::from(SCENARIO_VERSION),
        );
        let mut generation = Vec::new();
        match &self.workload {
            Workload::Inference(inf) => errs.extend(inf.validate()),
            Workload::Train(t) => errs.extend(t.validate(self.hardware.count)),
            Workload::Custom(c) => errs.extend(c.validate()),
            Workload::GenerateImage(g) => generation = g.validate(false),
            Workload::GenerateVideo(g) => generation = g.validate(true),
        }
        check(
            &mut errs,
            Field::GpuCount,
            f64::from(self.hardware.count),
            1.0,
            f64::from(MAX_GPUS),
        );
        if let Some(gib) = self.hardware.gpu_memory_gib {
            check(&mut errs, Field::GpuMemory, gib, 1.0, 4096.0);
        }
        check(
            &mut errs,
            Field::Headroom,
            f64::from(self.headroom_percent),
            f64::from(MIN_HEADROOM_PERCENT),
            f64::from(MAX_HEADROOM_PERCENT),
        );
        errs.extend(generation);
        let bad_price = self.prices_usd_per_hour.len() > MAX_USER_PRICES
            || self.prices_usd_per_hour.iter().any(|(id, p)| {
                crate::inputs::catalog::gpu(id).is_none() || !(0.0..=MAX_USER_PRICE).contains(p)
            });
        if bad_price {
            errs.push((
                Field::Price,
                crate::units::limits::RangeError::Between {
                    min: 0.0,
                    max: MAX_USER_PRICE,
                },
            ));
        }
        if self.hardware.gpu.is_some() && self.hardware.gpu_memory_gib.is_some() {
            errs.push((Field::Hardware, RangeError::Invalid));
        }
        if !self.hardware.gpus.is_empty() {
            // Mixed cards are named card by card (not beside `gpu` or a typed size), and are a
            // server's: training and generation plan over cards of one kind.
            let alone = self.hardware.gpu.is_none() && self.hardware.gpu_memory_gib.is_none();
            let serving = matches!(self.workload, Workload::Inference(_));
            if !alone || !serving {
                errs.push((Field::Hardware, RangeError::Invalid));
            }
            let cards: u64 = self.hardware.gpus.iter().map(|e| u64::from(e.count)).sum();
            if self.hardware.gpus.iter().any(|e| e.count == 0) || cards > u64::from(MAX_GPUS) {
                errs.push((
                    Field::GpuCount,
                    RangeError::Between {
                        min: 1.0,
                        max: f64::from(MAX_GPUS),
                    },
                ));
            }
        }
        if let Some(engine) = &self.engine {
            errs.extend(engine.validate());
        }
        if let Some(spec) = &self.speculative {
            errs.extend(spec.validate());
            // Only a server proposes tokens.
            if !matches!(self.workload, Workload::Inference(_)) {
                errs.push((Field::Speculative("method"), RangeError::Invalid));
            }
        }
        if let Some(bytes) = self.weights_bytes {
            check(
                &mut errs,
                Field::WeightsBytes,
                bytes as f64,
                1.0,
                MAX_WEIGHTS_BYTES as f64,
            );
        }
        if self.unquantized_modules.len() > MAX_UNQUANTIZED_MODULES {
            errs.push((
                Field::UnquantizedModules,
                RangeError::TooLarge {
                    max: MAX_UNQUANTIZED_MODULES as f64,
                },
            ));
        } else if self
            .unquantized_modules
            .iter()
            .any(|m| m.len() > MAX_MODULE_PATH_LEN)
        {
            errs.push((Field::UnquantizedModules, RangeError::Invalid));
        }
        errs
    }
}

impl Default for Hardware {
    fn default() -> Hardware {
        Hardware::default_one()
    }
}

impl Hardware {
    /// The CUDA context per GPU: what the user measured, else the default
    /// (`budget::runtime::CUDA_CONTEXT_BYTES`).
    pub fn cuda_context_bytes(&self) -> u64 {
        self.cuda_context_mib
            .map_or(crate::budget::runtime::CUDA_CONTEXT_BYTES, |m| {
                u64::from(m) * crate::units::bytes::MIB
            })
    }

    /// The catalog ids of a mixed machine, one per card in device order (empty unless `gpus`
    /// is given).
    pub fn mixed_ids(&self) -> Vec<&str> {
        self.gpus
            .iter()
            .flat_map(|e| std::iter::repeat_n(e.gpu.as_str(), e.count as usize))
            .collect()
    }

    /// One card, to be recommended.
    pub fn default_one() -> Hardware {
        Hardware {
            gpu: None,
            gpu_memory_gib: None,
            count: 1,
            cuda_context_mib: None,
            gpus: Vec::new(),
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
    fn a_prequantised_repo_brings_its_format_unless_weights_are_given() {
        let serve = r#""workload":{"inference":{"context_tokens":8192,"sequences":1}}"#;
        for (repo, format) in [
            (
                "unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit",
                WeightFormat::BnbNf4 { double_quant: true },
            ),
            (
                "Qwen/Qwen2.5-7B-Instruct-AWQ",
                WeightFormat::Awq { group: 128 },
            ),
        ] {
            let text = format!(r#"{{"model":{{"catalog":"{repo}"}},{serve}}}"#);
            assert_eq!(
                Scenario::from_json(&text).expect("parses").weights,
                format,
                "{repo}"
            );
            let explicit =
                format!(r#"{{"model":{{"catalog":"{repo}"}},"weights":"bf16",{serve}}}"#);
            let s = Scenario::from_json(&explicit).expect("parses");
            assert_eq!(
                s.weights,
                WeightFormat::Bf16,
                "{repo}: explicit weights win"
            );
        }
        // A plain id or repo keeps the default.
        let plain =
            format!(r#"{{"model":{{"catalog":"meta-llama/Llama-3.1-8B-Instruct"}},{serve}}}"#);
        assert_eq!(
            Scenario::from_json(&plain).expect("parses").weights,
            WeightFormat::Bf16
        );
        // Serde's position survives for a malformed file.
        let err = Scenario::from_json("{\n  \"weights\": 3 }").expect_err("a number is no format");
        assert_eq!(err.line(), 2);
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
