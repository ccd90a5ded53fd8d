//! The input fields, kept as the text the user typed (so nothing typed is ever lost), and their
//! conversion to a core `Scenario` with a problem per field.

use crate::custom_form::CustomForm;
use crate::engine_form::EngineForm;
use crate::gen_form::GenForm;
use crate::train_form::TrainForm;
use leptos::prelude::*;
use vramfit_core::estimate::{resolve_model, ScenarioError};
use vramfit_core::format::WeightFormat;
use vramfit_core::import::hf_config::ConfigError;
use vramfit_core::precision::Precision;
use vramfit_core::scenario::{
    Field, Hardware, Inference, ModelSource, RangeError, Scenario, Workload, SCENARIO_VERSION,
};
use vramfit_core::training::Train;

/// A field of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Pasted `config.json`.
    Config,
    /// Context tokens.
    Context,
    /// Concurrent sequences.
    Sequences,
    /// Prefill chunk.
    Chunk,
    /// Custom GPU memory.
    GpuMemory,
    /// GPU count.
    Count,
    /// Headroom percent.
    Headroom,
    /// An engine setting, by flag name.
    Engine(&'static str),
    /// A training setting, by scenario name.
    Train(&'static str),
    /// A custom item, by position.
    Item(usize),
    /// A generation setting, by scenario name.
    Generation(&'static str),
}

/// What is wrong with a field.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// Nothing typed.
    Empty,
    /// Not a whole number.
    NotWholeNumber,
    /// Not a number.
    NotNumber,
    /// Out of range.
    Range(RangeError),
    /// The pasted config could not be read.
    Config(ConfigError),
}

/// Value of the GPU select meaning "recommend a card".
pub const GPU_RECOMMEND: &str = "";
/// Value of the GPU select meaning "a memory size I type".
pub const GPU_CUSTOM: &str = "custom";

/// Every field as a signal of its text.
#[derive(Clone, Copy)]
pub struct Form {
    /// Catalog model id.
    pub model: RwSignal<String>,
    /// Pasted config.json text ("" = use the catalog model).
    pub config: RwSignal<String>,
    /// Weight format id.
    pub weights: RwSignal<String>,
    /// KV cache format id ("" = same as compute).
    pub kv: RwSignal<String>,
    /// Context tokens.
    pub context: RwSignal<String>,
    /// Sequences.
    pub sequences: RwSignal<String>,
    /// Prefill chunk tokens.
    pub chunk: RwSignal<String>,
    /// GPU id, [`GPU_RECOMMEND`] or [`GPU_CUSTOM`].
    pub gpu: RwSignal<String>,
    /// Custom GPU memory, GiB.
    pub memory: RwSignal<String>,
    /// GPU count.
    pub count: RwSignal<String>,
    /// Headroom percent.
    pub headroom: RwSignal<String>,
    /// The serving engine's knobs.
    pub engine: EngineForm,
    /// Which workload: `serve` or `train`.
    pub workload: RwSignal<String>,
    /// The training knobs.
    pub train: TrainForm,
    /// The custom items.
    pub custom: CustomForm,
    /// The image generation knobs.
    pub image: GenForm,
    /// The video generation knobs.
    pub video: GenForm,
}

impl Form {
    /// Fields showing `s`.
    pub fn new(s: &Scenario) -> Form {
        let inf = s.workload.inference().copied().unwrap_or(Inference {
            context_tokens: 8192,
            sequences: 4,
            prefill_chunk_tokens: vramfit_core::scenario::DEFAULT_PREFILL_CHUNK_TOKENS,
        });
        let (workload, train) = match &s.workload {
            Workload::Train(t) => ("train", t.clone()),
            Workload::Inference(_) => ("serve", Train::default()),
            Workload::Custom(_) => ("custom", Train::default()),
            Workload::GenerateImage(_) => ("image", Train::default()),
            Workload::GenerateVideo(_) => ("video", Train::default()),
        };
        let (image, video) = match &s.workload {
            Workload::GenerateImage(g) => (Some(g), None),
            Workload::GenerateVideo(g) => (None, Some(g)),
            _ => (None, None),
        };
        let custom = match &s.workload {
            Workload::Custom(c) => Some(c),
            _ => None,
        };
        let (model, config) = match &s.model {
            None => ("llama-3.1-8b-instruct".to_string(), String::new()),
            Some(ModelSource::Catalog(id)) => (id.clone(), String::new()),
            Some(ModelSource::HfConfig(v)) => (
                "llama-3.1-8b-instruct".to_string(),
                serde_json::to_string_pretty(v).unwrap_or_default(),
            ),
        };
        let gpu = match (&s.hardware.gpu, s.hardware.gpu_memory_gib) {
            (Some(id), _) => id.clone(),
            (None, Some(_)) => GPU_CUSTOM.to_string(),
            (None, None) => GPU_RECOMMEND.to_string(),
        };
        Form {
            model: RwSignal::new(model),
            config: RwSignal::new(config),
            weights: RwSignal::new(s.weights.id()),
            kv: RwSignal::new(s.kv_cache.map(|p| p.id().to_string()).unwrap_or_default()),
            context: RwSignal::new(inf.context_tokens.to_string()),
            sequences: RwSignal::new(inf.sequences.to_string()),
            chunk: RwSignal::new(inf.prefill_chunk_tokens.to_string()),
            gpu: RwSignal::new(gpu),
            memory: RwSignal::new(
                s.hardware
                    .gpu_memory_gib
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| "24".into()),
            ),
            count: RwSignal::new(s.hardware.count.to_string()),
            headroom: RwSignal::new(s.headroom_percent.to_string()),
            engine: EngineForm::new(s.engine.as_ref()),
            workload: RwSignal::new(workload.into()),
            train: TrainForm::new(&train),
            custom: CustomForm::new(custom),
            image: GenForm::new(image, false),
            video: GenForm::new(video, true),
        }
    }

    /// The scenario the fields describe, or every field's problem.
    pub fn scenario(&self) -> Result<Scenario, Vec<(Input, Problem)>> {
        let mut problems = Vec::new();
        let mut whole = |input, text: String| match parse_whole(&text) {
            Ok(n) => n,
            Err(p) => {
                problems.push((input, p));
                0
            }
        };
        let kind = self.workload.get();
        let serving = kind == "serve";
        let (context_tokens, sequences, prefill_chunk_tokens) = if serving {
            (
                whole(Input::Context, self.context.get()),
                whole(Input::Sequences, self.sequences.get()),
                whole(Input::Chunk, self.chunk.get()),
            )
        } else {
            (1, 1, vramfit_core::scenario::DEFAULT_PREFILL_CHUNK_TOKENS)
        };
        let count = whole(Input::Count, self.count.get());
        let headroom_percent = whole(Input::Headroom, self.headroom.get());
        let gpu = self.gpu.get();
        let gpu_memory_gib = if gpu == GPU_CUSTOM {
            match parse_decimal(&self.memory.get()) {
                Ok(m) => Some(m),
                Err(p) => {
                    problems.push((Input::GpuMemory, p));
                    None
                }
            }
        } else {
            None
        };
        let config = self.config.get();
        let model = if config.trim().is_empty() {
            ModelSource::Catalog(self.model.get())
        } else {
            match serde_json::from_str(&config) {
                Ok(v) => ModelSource::HfConfig(v),
                Err(e) => {
                    problems.push((
                        Input::Config,
                        Problem::Config(ConfigError::NotJson {
                            line: e.line(),
                            column: e.column(),
                        }),
                    ));
                    ModelSource::Catalog(self.model.get())
                }
            }
        };
        if let Err(ScenarioError::Config { error }) = resolve_model(Some(&model)) {
            problems.push((Input::Config, Problem::Config(error)));
        }
        let engine = if serving {
            self.engine.engine(&mut problems)
        } else {
            None
        };
        let workload = match kind.as_str() {
            "train" => Workload::Train(self.train.train(&mut problems)),
            "custom" => Workload::Custom(self.custom.custom(&mut problems)),
            "image" => Workload::GenerateImage(self.image.generation(false, &mut problems)),
            "video" => Workload::GenerateVideo(self.video.generation(true, &mut problems)),
            _ => Workload::Inference(Inference {
                context_tokens,
                sequences,
                prefill_chunk_tokens,
            }),
        };
        let unquantized_modules = match &model {
            ModelSource::HfConfig(v) => vramfit_core::import::hf_config::quantization(v)
                .map(|q| q.unquantized_modules)
                .unwrap_or_default(),
            ModelSource::Catalog(_) => Vec::new(),
        };
        let scenario = Scenario {
            version: SCENARIO_VERSION,
            model: Some(model),
            weights: WeightFormat::from_id(&self.weights.get()).unwrap_or(WeightFormat::Bf16),
            unquantized_modules,
            kv_cache: Precision::from_id(&self.kv.get()),
            workload,
            hardware: Hardware {
                gpu: (gpu != GPU_RECOMMEND && gpu != GPU_CUSTOM).then_some(gpu),
                gpu_memory_gib,
                count,
                cuda_context_mib: None,
            },
            headroom_percent,
            engine,
        };
        for (field, err) in scenario.validate() {
            if let Some(input) = input_of(field) {
                if !problems.iter().any(|(i, _)| *i == input) {
                    problems.push((input, Problem::Range(err)));
                }
            }
        }
        if problems.is_empty() {
            Ok(scenario)
        } else {
            Err(problems)
        }
    }
}

fn input_of(field: Field) -> Option<Input> {
    match field {
        Field::ContextTokens => Some(Input::Context),
        Field::Sequences => Some(Input::Sequences),
        Field::PrefillChunkTokens => Some(Input::Chunk),
        Field::GpuCount => Some(Input::Count),
        Field::GpuMemory | Field::Hardware => Some(Input::GpuMemory),
        Field::Headroom => Some(Input::Headroom),
        Field::Engine(name) => Some(Input::Engine(name)),
        Field::Train(name) => Some(Input::Train(name)),
        Field::Item(i) => Some(Input::Item(i)),
        Field::Generation(name) => Some(Input::Generation(match name {
            "pipeline" => "pipeline",
            "width" => "width",
            "height" => "height",
            "frames" => "frames",
            "batch" => "batch",
            _ => "pipeline",
        })),
        Field::Version => None,
    }
}

/// A whole number as typed (spaces and thousands separators `_`, `,`, `'` allowed).
pub fn parse_whole(text: &str) -> Result<u32, Problem> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | ',' | '\'' | '\u{a0}'))
        .collect();
    if cleaned.is_empty() {
        return Err(Problem::Empty);
    }
    if cleaned.starts_with('-')
        && cleaned[1..].chars().all(|c| c.is_ascii_digit())
        && cleaned.len() > 1
    {
        return Err(Problem::Range(RangeError::TooSmall { min: 1.0 }));
    }
    match cleaned.parse::<u64>() {
        Ok(n) => Ok(u32::try_from(n).unwrap_or(u32::MAX)),
        Err(_) => Err(Problem::NotWholeNumber),
    }
}

/// A decimal number as typed (a decimal comma is accepted).
pub fn parse_decimal(text: &str) -> Result<f64, Problem> {
    let t = text.trim().replace(',', ".");
    if t.is_empty() {
        return Err(Problem::Empty);
    }
    t.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or(Problem::NotNumber)
}
