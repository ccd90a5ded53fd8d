//! The input fields, kept as the text the user typed (so nothing typed is ever lost), and their
//! conversion to a core `Scenario` with a problem per field.

use crate::answer::sections::Shown;
use crate::ui::field::{parse_decimal, parse_whole, Input, Problem};
use crate::workload::custom::form::CustomForm;
use crate::workload::engine::form::EngineForm;
use crate::workload::gen::form::GenForm;
use crate::workload::spec::form::SpecForm;
use crate::workload::train::form::TrainForm;
use leptos::prelude::*;
use std::collections::BTreeMap;
use vramfit_core::catalog::Availability;
use vramfit_core::hf_config::ConfigError;
use vramfit_core::limits::{Field, RangeError, SCENARIO_VERSION};
use vramfit_core::{
    resolve_model, CardEntry, Estimate, Hardware, Inference, KvCacheFormat, ModelArch, ModelSource,
    RecommendBy, Scenario, ScenarioError, Train, WeightFormat, Workload, WorkloadKind,
    DEFAULT_MODEL,
};

/// Value of the GPU select meaning "recommend a card".
pub const GPU_RECOMMEND: &str = "";
/// Value of the GPU select meaning "a memory size I type".
pub const GPU_CUSTOM: &str = "custom"; // the select's: not a core value

/// Every field as a signal of its text.
#[derive(Clone, Copy)]
pub struct Form {
    /// Catalog model id.
    pub model: RwSignal<String>,
    /// Pasted config.json text ("" = use the catalog model).
    pub config: RwSignal<String>,
    /// Exact weight bytes read from the user's files, with the config text and weight format
    /// they belong to: they apply only while both are unchanged.
    pub exact_weights: RwSignal<Option<ExactWeights>>,
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
    /// A second card type in the same machine ("" = none): a catalog id.
    pub gpu2: RwSignal<String>,
    /// Cards of the second type.
    pub count2: RwSignal<String>,
    /// Headroom percent.
    pub headroom: RwSignal<String>,
    /// The serving engine's knobs.
    pub engine: EngineForm,
    /// Which workload.
    pub workload: RwSignal<WorkloadKind>,
    /// The training knobs.
    pub train: TrainForm,
    /// The custom items.
    pub custom: CustomForm,
    /// The image generation knobs.
    pub image: GenForm,
    /// The video generation knobs.
    pub video: GenForm,
    /// How the recommendation ranks plans: a [`RecommendBy::id`].
    pub rank: RwSignal<String>,
    /// The widest way of getting a card: an [`Availability::id`].
    pub reach: RwSignal<String>,
    /// The scenario's own prices per card-hour, as the link brought them.
    pub prices: RwSignal<BTreeMap<String, f64>>,
    /// The price typed for [`Form::price_card`] ("" = its reference price).
    pub price: RwSignal<String>,
    /// The card the typed price is for ("" = none typed).
    pub price_card: RwSignal<String>,
    /// Speculative decoding's proposer.
    pub spec: SpecForm,
}

/// Exact weight bytes from the user's file headers and what they were read for.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactWeights {
    /// The `config.json` text the file's architecture became.
    pub config: String,
    /// The weight format id the file's tensors are stored in.
    pub weights: String,
    /// The file's tensor bytes.
    pub bytes: u64,
}

impl Form {
    /// Fields showing `s`.
    pub fn new(s: &Scenario) -> Form {
        let inf = s.workload.inference().copied().unwrap_or_default();
        let workload = s.workload.kind();
        let train = match &s.workload {
            Workload::Train(t) => t.clone(),
            _ => Train::default(),
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
            None => (DEFAULT_MODEL.to_string(), String::new()),
            Some(ModelSource::Catalog(id)) => (id.clone(), String::new()),
            Some(ModelSource::HfConfig(v)) => (
                DEFAULT_MODEL.to_string(),
                serde_json::to_string_pretty(v).unwrap_or_default(),
            ),
        };
        // A mixed machine shows as its first two kinds of card (the page has two card fields).
        let mixed = &s.hardware.gpus;
        let gpu = match (mixed.first(), &s.hardware.gpu, s.hardware.gpu_memory_gib) {
            (Some(first), _, _) => first.gpu.clone(),
            (None, Some(id), _) => id.clone(),
            (None, None, Some(_)) => GPU_CUSTOM.to_string(),
            (None, None, None) => GPU_RECOMMEND.to_string(),
        };
        let count = mixed.first().map_or(s.hardware.count, |c| c.count);
        let (gpu2, count2) = mixed
            .get(1)
            .map_or((String::new(), 1), |c| (c.gpu.clone(), c.count));
        Form {
            model: RwSignal::new(model),
            exact_weights: RwSignal::new(s.weights_bytes.map(|bytes| ExactWeights {
                config: config.clone(),
                weights: s.weights.id(),
                bytes,
            })),
            config: RwSignal::new(config),
            weights: RwSignal::new(s.weights.id()),
            // A link's engine flag (`kv_cache_dtype: fp8`) shows in the one KV select.
            kv: RwSignal::new(
                s.kv_cache
                    .map(|p| p.id().to_string())
                    .or_else(|| {
                        s.engine
                            .as_ref()
                            .is_some_and(vramfit_core::Engine::asks_fp8_kv)
                            .then(|| vramfit_core::KvCacheFormat::Fp8.id().to_string())
                    })
                    .unwrap_or_default(),
            ),
            context: RwSignal::new(inf.context_tokens.to_string()),
            sequences: RwSignal::new(inf.sequences.to_string()),
            chunk: RwSignal::new(inf.prefill_chunk_tokens.to_string()),
            gpu: RwSignal::new(gpu),
            memory: RwSignal::new(
                s.hardware
                    .gpu_memory_gib
                    .map(vramfit_core::num::shortest)
                    .unwrap_or_else(|| "24".into()),
            ),
            count: RwSignal::new(count.to_string()),
            gpu2: RwSignal::new(gpu2),
            count2: RwSignal::new(count2.to_string()),
            headroom: RwSignal::new(s.headroom_percent.to_string()),
            engine: EngineForm::new(s.engine.as_ref()),
            workload: RwSignal::new(workload),
            train: TrainForm::new(&train),
            custom: CustomForm::new(custom),
            image: GenForm::new(image, false),
            video: GenForm::new(video, true),
            rank: RwSignal::new(s.recommend_by.id().to_string()),
            reach: RwSignal::new(s.recommend_from.id().to_string()),
            prices: RwSignal::new(s.prices_usd_per_hour.clone()),
            price: RwSignal::new(String::new()),
            price_card: RwSignal::new(String::new()),
            spec: SpecForm::new(s.speculative.as_ref()),
        }
    }

    /// The architecture of the model the fields name (none while a pasted config is unreadable).
    pub fn model_arch(&self) -> Option<ModelArch> {
        let config = self.config.get();
        let source = if config.trim().is_empty() {
            ModelSource::Catalog(self.model.get())
        } else {
            ModelSource::HfConfig(serde_json::from_str(&config).ok()?)
        };
        resolve_model(Some(&source)).ok().map(|(a, _)| a)
    }

    /// The text the price field shows for `card`: what was typed for it, else its price in the
    /// scenario ("" = the reference price).
    pub fn price_text(&self, card: &str) -> String {
        if self.price_card.get() == card {
            self.price.get()
        } else {
            self.prices
                .with(|p| p.get(card).map(|x| vramfit_core::num::shortest(*x)))
                .unwrap_or_default()
        }
    }

    /// The prices of the scenario: the link's, with the typed one for its card (a problem when
    /// it is not a number).
    fn prices(&self, problems: &mut Vec<(Input, Problem)>) -> BTreeMap<String, f64> {
        let mut prices = self.prices.get();
        let card = self.price_card.get();
        if !card.is_empty() {
            let text = self.price.get();
            if text.trim().is_empty() {
                prices.remove(&card);
            } else {
                match parse_decimal(&text) {
                    Ok(p) => {
                        prices.insert(card, p);
                    }
                    Err(p) => problems.push((Input::Price, p)),
                }
            }
        }
        prices
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
        let serving = kind == WorkloadKind::Inference;
        let (context_tokens, sequences, prefill_chunk_tokens) = if serving {
            (
                whole(Input::Context, self.context.get()),
                whole(Input::Sequences, self.sequences.get()),
                whole(Input::Chunk, self.chunk.get()),
            )
        } else {
            (1, 1, vramfit_core::limits::DEFAULT_PREFILL_CHUNK_TOKENS)
        };
        let count = whole(Input::Count, self.count.get());
        let gpu2 = self.gpu2.get();
        let count2 =
            (serving && !gpu2.is_empty()).then(|| whole(Input::SecondCount, self.count2.get()));
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
        let catalog_card = gpu != GPU_RECOMMEND && gpu != GPU_CUSTOM;
        let hardware = if let (true, Some(count2)) = (catalog_card, count2) {
            // No cards of the second type is the second field's problem, named there (the core's
            // check names the machine's count, which the page shows under the first field).
            if count2 == 0 {
                problems.push((
                    Input::SecondCount,
                    Problem::Range(RangeError::TooSmall { min: 1.0 }),
                ));
            }
            Hardware {
                gpus: vec![
                    CardEntry { gpu, count },
                    CardEntry {
                        gpu: gpu2,
                        count: count2.max(1),
                    },
                ],
                ..Hardware::default_one()
            }
        } else {
            Hardware {
                gpu: catalog_card.then_some(gpu),
                gpu_memory_gib,
                count,
                ..Hardware::default_one()
            }
        };
        let config = self.config.get();
        let config_text = config.clone();
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
        let workload = match kind {
            WorkloadKind::Train => Workload::Train(self.train.train(&mut problems)),
            WorkloadKind::Custom => Workload::Custom(self.custom.custom(&mut problems)),
            WorkloadKind::GenerateImage => {
                Workload::GenerateImage(self.image.generation(false, &mut problems))
            }
            WorkloadKind::GenerateVideo => {
                Workload::GenerateVideo(self.video.generation(true, &mut problems))
            }
            WorkloadKind::Inference => Workload::Inference(Inference {
                context_tokens,
                sequences,
                prefill_chunk_tokens,
            }),
        };
        let unquantized_modules = match &model {
            ModelSource::HfConfig(v) => vramfit_core::hf_config::quantization(v)
                .map(|q| q.unquantized_modules)
                .unwrap_or_default(),
            ModelSource::Catalog(_) => Vec::new(),
        };
        let scenario = Scenario {
            version: SCENARIO_VERSION,
            // Image, video and custom jobs run no language model (their links carry none).
            model: kind.needs_model().then_some(model),
            weights: WeightFormat::from_id(&self.weights.get()).unwrap_or(WeightFormat::Bf16),
            unquantized_modules,
            weights_bytes: self.exact_weights.get().and_then(|x| {
                (x.config == config_text && x.weights == self.weights.get()).then_some(x.bytes)
            }),
            kv_cache: KvCacheFormat::from_id(&self.kv.get()),
            workload,
            hardware,
            headroom_percent,
            engine,
            prices_usd_per_hour: self.prices(&mut problems),
            recommend_by: RecommendBy::from_id(&self.rank.get()).unwrap_or_default(),
            recommend_from: Availability::from_id(&self.reach.get())
                .unwrap_or(vramfit_core::DEFAULT_REACH),
            speculative: if serving {
                self.spec.scenario(&mut problems)
            } else {
                None
            },
        };
        for (field, err) in scenario.validate() {
            if let Some(input) = input_of(field) {
                if !problems.iter().any(|(i, _)| *i == input) {
                    problems.push((input, Problem::Range(in_field_unit(field, err))));
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

/// A range error in the unit its field is typed in: `--kv-cache-memory` is typed in GiB, while
/// the scenario (and its range check) counts bytes.
fn in_field_unit(field: Field, err: RangeError) -> RangeError {
    if field != Field::Engine("kv_cache_memory_bytes") {
        return err;
    }
    let gib = |b: f64| vramfit_core::bytes::to_gib(b as u64);
    match err {
        RangeError::TooSmall { min } => RangeError::TooSmall { min: gib(min) },
        RangeError::TooLarge { max } => RangeError::TooLarge { max: gib(max) },
        RangeError::Between { min, max } => RangeError::Between {
            min: gib(min),
            max: gib(max),
        },
        other => other,
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
        Field::Generation(name) => Some(Input::Generation(name)),
        Field::UnquantizedModules | Field::WeightsBytes => Some(Input::Config),
        Field::Price => Some(Input::Price),
        Field::Speculative("num_tokens") => Some(Input::Speculative("num_tokens")),
        Field::Speculative(_) => Some(Input::Speculative("draft")),
        Field::Version => None,
    }
}

/// The live estimate a page shows: the form's fields, the scenario they describe (or their
/// problems), and the last valid scenario with its estimate — estimated again when the scenario
/// changes, never twice for the same one (the first run sees the one estimated at start).
#[derive(Clone, Copy)]
pub struct Live {
    /// Field signals.
    pub form: Form,
    /// The scenario the fields describe, or their problems.
    pub draft: Memo<Result<Scenario, Vec<(Input, Problem)>>>,
    /// The last valid scenario and its estimate.
    pub last_good: RwSignal<Option<(Scenario, Estimate)>>,
    /// Whether an edit waits for the rest of the app's code (the page shows a busy sign).
    pub waiting: RwSignal<bool>,
}

impl Live {
    /// The estimate on screen, as the answer's sections read it: a memo of the last valid one.
    pub fn shown(self) -> Shown {
        let last_good = self.last_good;
        Memo::new(move |_| last_good.with(|g| g.as_ref().map(|(_, e)| e.clone())))
    }

    /// Fields showing `initial`, estimated once, and the effect that keeps the estimate current.
    pub fn new(initial: &Scenario) -> Live {
        let form = Form::new(initial);
        let settled = crate::platform::later::settled();
        // The other workloads' fields and checks are code the first answer does not run: before
        // the rest of the app is in, their scenario waits (no problems, nothing estimated).
        let draft = Memo::new(move |_| {
            if form.workload.get() != WorkloadKind::Inference && !settled.get() {
                return Err(Vec::new());
            }
            form.scenario()
        });
        // The first answer comes without its fixes: the fix search and its code follow with the
        // rest (added below once it is in), as the sections below the verdict do.
        crate::platform::timing::mark("vramfit:estimate-start");
        let first = vramfit_core::estimate_without_fixes(initial).ok();
        crate::platform::timing::mark("vramfit:estimated");
        let mut fixed = false;
        let last_good = RwSignal::new(first.map(|e| (initial.clone(), e)));
        let waiting = RwSignal::new(false);
        // An edit before the rest of the code is in may need it: wait for the one download (this
        // effect runs again when it settles) rather than loading it a second time, synchronously,
        // with nothing on screen.
        let wait = move || {
            waiting.set(true);
            crate::platform::later::load_now();
        };
        Effect::new(move |_| {
            let ready = settled.get();
            // Once the rest is in, the answer on screen gets its fixes, whatever the fields hold
            // now (an edit that follows replaces it with a whole estimate).
            if ready && !fixed {
                fixed = true;
                last_good.update(|g| {
                    if let Some((s, e)) = g {
                        vramfit_core::add_fixes(s, e);
                    }
                });
            }
            match draft.get() {
                // A workload whose fields wait for the rest.
                Err(problems) if problems.is_empty() => wait(),
                Err(_) => waiting.set(false),
                Ok(s) => {
                    if last_good.with_untracked(|g| g.as_ref().is_some_and(|(old, _)| *old == s)) {
                        waiting.set(false);
                    } else if !ready {
                        wait();
                    } else {
                        waiting.set(false);
                        if let Ok(e) = vramfit_core::estimate(&s) {
                            last_good.set(Some((s, e)));
                        }
                    }
                }
            }
        });
        Live {
            form,
            draft,
            last_good,
            waiting,
        }
    }
}
