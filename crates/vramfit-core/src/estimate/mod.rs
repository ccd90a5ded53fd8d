//! `estimate(&Scenario)`: resolves the model and the cards, evaluates the plan and the
//! recommendation, and collects warnings.
//!
//! With a catalog card or a typed memory size, the plan is the user's: `count` cards in tensor
//! parallel when the model's heads allow it, otherwise as replicas (with a warning). Without a card,
//! the recommended plan is shown. `components` are the whole deployment (per-GPU × count);
//! `per_gpu_components` are the fullest GPU's.
//!
//! # The estimate layer
//!
//! This folder is the layer above `plans`; it may use every folder below. The estimate is this
//! module. Above it, side by side, come [`fixes`] (what would make it fit: the crate root's
//! `estimate()` runs it on this module's result) and [`runs_on`] (every catalog model on one
//! card): both are searches that call the estimate many times, so they sit above it rather than
//! among the `plans`.

pub mod fixes;
pub mod runs_on;

use crate::budget::draft::Draft;
use crate::budget::{kv_cache, BudgetInputs, Card, Component, ComponentId, Footprint, KvReport};
use crate::inputs::catalog::{self, CatalogModel};
use crate::inputs::format::WeightFormat;
use crate::inputs::import::hf_config::{self, ConfigError};
use crate::inputs::kv_format::KvCacheFormat;
use crate::inputs::model::ModelArch;
use crate::plans::inverse::{context_curve, limits, CurveAxis, CurvePoint, Limits};
use crate::plans::plan::{multi_gpu_split, Plan, Split, Verdict, VerdictReason};
use crate::plans::price::Cost;
use crate::plans::recommend::{recommend, Market, Recommendation};
use crate::plans::rules::{rules_of_thumb, RulesOfThumb};
use crate::plans::speed::Speed;
use crate::plans::warning::Warning;
use crate::scenario::dispatch::Job;
use crate::scenario::{ModelSource, Scenario, Workload};
use crate::units::limits::{Field, RangeError, DEFAULT_PREFILL_CHUNK_TOKENS};
use crate::workloads::engine::{Engine, EngineKind};
use serde::Serialize;

/// Why a scenario cannot be estimated.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ScenarioError {
    /// The workload needs a model and the scenario names none.
    MissingModel,
    /// No catalog model has this id.
    UnknownModel {
        /// The id given.
        id: String,
    },
    /// No catalog GPU has this id.
    UnknownGpu {
        /// The id given.
        id: String,
    },
    /// The pasted `config.json` could not be read.
    Config {
        /// Why.
        error: ConfigError,
    },
    /// Fields out of range.
    InvalidFields {
        /// Each field and why.
        fields: Vec<(Field, RangeError)>,
    },
}

/// What the model is.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelSummary {
    /// Catalog id, when from the catalog.
    pub id: Option<&'static str>,
    /// Display name, when from the catalog.
    pub name: Option<&'static str>,
    /// Architecture.
    pub arch: ModelArch,
    /// Exact parameter count.
    pub params: u64,
}

/// The result of an estimate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<ModelSummary>,
    /// KV cache format used.
    pub kv_cache_format: KvCacheFormat,
    /// Tokens per request (the context `max_concurrency` refers to).
    pub context_tokens: u64,
    /// Whole-deployment components (per-GPU figures × cards).
    pub components: Vec<Component>,
    /// Sum of `components`.
    pub total_bytes: u64,
    /// The plan shown: the user's cards, or the recommendation.
    pub plan: Option<Plan>,
    /// Bytes on the fullest GPU.
    pub per_gpu_bytes: u64,
    /// Whether the plan fits with headroom (`verdict == fits`).
    pub fits: bool,
    /// The verdict on the plan shown (does not fit when nothing fits).
    pub verdict: Verdict,
    /// Why: the plan's reason, or `nothing_fits`.
    pub reason: VerdictReason,
    /// KV cache bytes per token of one copy of the model's cache (as on one GPU holding the whole
    /// model); a hybrid model's attention layers only. Under tensor parallel the heads' keys and
    /// values divide over the GPUs, but an MLA model's latent is kept whole on every GPU, so its
    /// deployment holds this figure once per GPU.
    pub kv_bytes_per_token: u64,
    /// Sliding-window models: the bytes one more token adds once the context is past the window
    /// (the global layers' only; 0 when every layer is local), for the whole model. Left out for
    /// models without local layers. `kv_bytes_per_token` holds up to the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_bytes_per_token_past_window: Option<u64>,
    /// Hybrid models: recurrent-state bytes per sequence for the whole model, in the model's dtype
    /// (constant in the context length; 0, and left out, otherwise).
    #[serde(skip_serializing_if = "is_zero")]
    pub state_bytes_per_sequence: u64,
    /// KV cache on one GPU as the engine sizes it (engine chosen), bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache_bytes: Option<u64>,
    /// Tokens the engine's KV cache holds (engine chosen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_cache_tokens: Option<u64>,
    /// Requests of the full context that fit at once (engine chosen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_concurrency: Option<f64>,
    /// Hybrid models: recurrent-state bytes on one GPU as the engine holds them (engine chosen),
    /// beside `kv_cache_bytes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recurrent_state_bytes: Option<u64>,
    /// Host RAM the plan needs beyond the GPUs (llama.cpp partial offload), bytes.
    pub host_bytes: u64,
    /// Host RAM to plan for the machine: what the plan keeps on the host, and at least the weights
    /// once, which loading stages in RAM.
    pub host_ram_bytes: u64,
    /// Largest context / sequences / budget fraction on the plan's cards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits: Option<Limits>,
    /// Per-GPU memory on the plan's cards against context (inference), sequence length
    /// (training), square image size or frames (generation); `curve_axis` says which. Serialised
    /// as `context_curve`, its name from when every curve ran over context.
    #[serde(rename = "context_curve")]
    pub curve: Vec<CurvePoint>,
    /// What the curve's x axis counts.
    pub curve_axis: CurveAxis,
    /// Generation: the largest square image size (px) or frame count on the plan's cards that
    /// fits with the headroom.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation_max: Option<u64>,
    /// Warnings.
    pub warnings: Vec<Warning>,
    /// Recommendation from the GPU catalog.
    pub recommendation: Recommendation,
    /// When tight or not fitting: the cheap changes that help, best first (found by
    /// `crate::estimate::fixes`).
    pub fixes: Vec<crate::plans::change::Fix>,
    /// The seeds' rules of thumb.
    pub rules_of_thumb: RulesOfThumb,
    /// How fast the plan shown runs (`None`: a plan that does not fit, a typed memory size, a
    /// custom workload, or no plan).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<Speed>,
    /// What the plan shown costs to rent (`None`: its card has no price).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
}

/// Resolves a model source to its architecture (and catalog entry).
pub fn resolve_model(
    source: Option<&ModelSource>,
) -> Result<(ModelArch, Option<&'static CatalogModel>), ScenarioError> {
    match source.ok_or(ScenarioError::MissingModel)? {
        ModelSource::Catalog(id) => catalog::lookup(id)
            .map(|m| (m.model.arch, Some(m.model)))
            .ok_or_else(|| ScenarioError::UnknownModel { id: id.clone() }),
        ModelSource::HfConfig(value) => hf_config::parse_value(value)
            .map(|a| (a, None))
            .map_err(|error| ScenarioError::Config { error }),
    }
}

/// The model side of a scenario, resolved once: architecture, catalog entry, and the base inputs
/// every plan starts from.
pub struct Prepared {
    /// Architecture.
    pub arch: ModelArch,
    /// Catalog entry, if any.
    pub entry: Option<&'static CatalogModel>,
    /// Weights per tensor-parallel size.
    pub footprint: Footprint,
    /// KV cache format.
    pub kv_format: KvCacheFormat,
    /// Speculative decoding's proposer, resolved (serving only).
    pub draft: Option<Draft>,
}

/// Validates a scenario and resolves its model.
pub fn prepare(scenario: &Scenario) -> Result<Prepared, ScenarioError> {
    let fields = scenario.validate();
    if !fields.is_empty() {
        return Err(ScenarioError::InvalidFields { fields });
    }
    let (arch, entry) = if scenario.workload.needs_model() {
        resolve_model(scenario.model.as_ref())?
    } else {
        // Image, video and custom workloads have no language model: a one-parameter stand-in
        // keeps the plan machinery uniform and contributes nothing.
        (
            ModelArch::dense(
                crate::inputs::model::Family::Llama,
                1,
                1,
                1,
                1,
                1,
                1,
                1,
                true,
                1,
            ),
            None,
        )
    };
    let mut tps: Vec<u64> = vec![1, 2, 4, 8, u64::from(scenario.hardware.count)];
    if let Some(tp) = scenario.engine.as_ref().and_then(Engine::tensor_parallel) {
        tps.push(u64::from(tp));
    }
    // One KV cache format for the whole answer: an engine's own flag (vLLM / SGLang
    // `--kv-cache-dtype fp8`) is the cache the model line, the per-token figure and the fixes
    // speak of, as the engine's budget already does.
    let engine_fp8 = scenario.engine.as_ref().is_some_and(Engine::asks_fp8_kv);
    let kv_format = if engine_fp8 {
        KvCacheFormat::Fp8
    } else {
        scenario.kv_cache.unwrap_or(match scenario.weights {
            WeightFormat::Fp32 => KvCacheFormat::Fp32,
            WeightFormat::Fp16 => KvCacheFormat::Fp16,
            _ => KvCacheFormat::Bf16,
        })
    };
    let footprint = {
        let f = Footprint::new(&arch, scenario.weights, &tps, &scenario.unquantized_modules);
        match scenario.weights_bytes {
            Some(exact) => f.scaled_to(exact),
            None => f,
        }
    };
    let draft = match &scenario.speculative {
        Some(spec) => Some(resolve_draft(spec, scenario, &arch, &footprint, &tps)?),
        None => None,
    };
    Ok(Prepared {
        footprint,
        arch,
        entry,
        kv_format,
        draft,
    })
}

/// The proposer of `spec` beside `target`: the draft model (its vocabulary within 128 tokens of
/// the target's, as llama.cpp's `common_speculative_are_compatible` allows; vLLM and SGLang verify
/// with the target's vocabulary too), or the model's MTP layers (a model that ships none is
/// refused). llama.cpp and Transformers run draft models only.
fn resolve_draft(
    spec: &crate::scenario::Speculative,
    scenario: &Scenario,
    target: &ModelArch,
    footprint: &Footprint,
    tps: &[u64],
) -> Result<Draft, ScenarioError> {
    use crate::budget::draft::SpeculativeMethod;
    let invalid = |name| ScenarioError::InvalidFields {
        fields: vec![(Field::Speculative(name), RangeError::Invalid)],
    };
    match spec.method {
        SpeculativeMethod::DraftModel => {
            // Whatever is wrong with the draft (unknown id, unreadable config) is the draft
            // field's: a link drops it and keeps the rest.
            let (arch, _) = resolve_model(spec.draft.as_ref()).map_err(|_| invalid("draft"))?;
            if arch.vocab.abs_diff(target.vocab) > 128 {
                return Err(invalid("draft"));
            }
            let format = spec.draft_weights.unwrap_or(scenario.weights);
            Ok(Draft::model(
                &arch,
                format,
                tps,
                spec.tokens(),
                spec.acceptance,
            ))
        }
        SpeculativeMethod::Mtp => {
            let engine_runs_mtp = scenario
                .engine
                .as_ref()
                .is_none_or(|e| matches!(e.kind(), EngineKind::Vllm | EngineKind::Sglang));
            if !engine_runs_mtp {
                return Err(invalid("method"));
            }
            Draft::mtp(target, footprint, spec.tokens(), spec.acceptance)
                .ok_or_else(|| invalid("method"))
        }
    }
}

impl Prepared {
    /// The base job of `scenario` (tp = 1, no card).
    pub fn inputs<'a>(&'a self, scenario: &'a Scenario) -> Job<'a> {
        let (context, sequences) = scenario.workload.shape();
        let chunk = scenario
            .workload
            .inference()
            .map_or(DEFAULT_PREFILL_CHUNK_TOKENS, |i| i.prefill_chunk_tokens);
        Job {
            inputs: BudgetInputs {
                arch: &self.arch,
                weights: scenario.weights,
                footprint: &self.footprint,
                kv_cache: self.kv_format,
                context_tokens: u64::from(context),
                sequences: u64::from(sequences),
                prefill_chunk_tokens: u64::from(chunk),
                tensor_parallel: 1,
                gpu_arch: None,
                cuda_context_bytes: scenario.hardware.cuda_context_bytes(),
                draft: self.draft.as_ref(),
                device_free: None,
            },
            workload: &scenario.workload,
            engine: scenario.engine.as_ref(),
        }
    }
}

/// The card the scenario names, if it names one.
pub fn chosen_card(scenario: &Scenario) -> Result<Option<Card>, ScenarioError> {
    let hw = &scenario.hardware;
    Ok(match (&hw.gpu, hw.gpu_memory_gib) {
        (Some(id), _) => {
            Some(Card::from_catalog(catalog::gpu(id).ok_or_else(|| {
                ScenarioError::UnknownGpu { id: id.clone() }
            })?))
        }
        (None, Some(gib)) => Some(Card {
            gpu: None,
            capacity_bytes: crate::units::bytes::gib_to_bytes(gib).unwrap_or(0),
            arch: None,
            pcie_only: false,
        }),
        (None, None) => None,
    })
}

/// The plan for the scenario's own cards (`None` when it asks for a recommendation), and the
/// warning when the count cannot split the model.
pub fn user_plan(
    scenario: &Scenario,
    prepared: &Prepared,
) -> Result<(Option<Plan>, Option<Warning>), ScenarioError> {
    if !scenario.hardware.gpus.is_empty() {
        return mixed_user_plan(scenario, prepared);
    }
    let Some(card) = chosen_card(scenario)? else {
        return Ok((None, None));
    };
    let arch = &prepared.arch;
    let count = scenario
        .engine
        .as_ref()
        .and_then(Engine::tensor_parallel)
        .unwrap_or(scenario.hardware.count)
        .max(1);
    let (split, warning) = if count == 1 {
        (Split::Single, None)
    } else {
        match multi_gpu_split(arch, scenario.engine.as_ref(), &scenario.workload, count) {
            Some(split) => (split, None),
            None => (
                Split::Replicas,
                Some(Warning::TensorParallelIndivisible {
                    heads: arch.heads,
                    kv_heads: arch.kv_heads,
                    count,
                }),
            ),
        }
    };
    let base = prepared.inputs(scenario);
    Ok((
        Some(with_software(
            Plan::evaluate(&base, card, count, split, scenario.headroom_percent),
            scenario,
            &[card],
        )),
        warning,
    ))
}

/// The components of the whole deployment: every card's, summed by component (cards of one
/// kind hold the same).
fn deployment(p: &Plan) -> Vec<Component> {
    if p.per_card.is_empty() {
        return p
            .per_gpu_components
            .iter()
            .map(|c| Component {
                id: c.id,
                bytes: crate::units::bytes::mul(c.bytes, u64::from(p.count)),
            })
            .collect();
    }
    let mut out: Vec<Component> = Vec::new();
    for c in p.per_card.iter().flat_map(|card| &card.components) {
        match out.iter_mut().find(|o| o.id == c.id) {
            Some(o) => o.bytes = crate::units::bytes::add(o.bytes, c.bytes),
            None => out.push(*c),
        }
    }
    out
}

/// The plan over a mixed machine's cards (`hardware.gpus`), and the warning when tensor parallel
/// cannot divide the heads over them (the layers are split instead).
fn mixed_user_plan(
    scenario: &Scenario,
    prepared: &Prepared,
) -> Result<(Option<Plan>, Option<Warning>), ScenarioError> {
    let cards = scenario
        .hardware
        .mixed_ids()
        .into_iter()
        .map(|id| {
            catalog::gpu(id)
                .map(Card::from_catalog)
                .ok_or_else(|| ScenarioError::UnknownGpu { id: id.to_string() })
        })
        .collect::<Result<Vec<Card>, ScenarioError>>()?;
    let count = u32::try_from(cards.len()).unwrap_or(u32::MAX);
    let arch = &prepared.arch;
    let warning = multi_gpu_split(arch, scenario.engine.as_ref(), &scenario.workload, count)
        .is_none()
        .then_some(Warning::TensorParallelIndivisible {
            heads: arch.heads,
            kv_heads: arch.kv_heads,
            count,
        });
    let base = prepared.inputs(scenario);
    Ok((
        crate::plans::plan::mixed_plan(&base, &cards, scenario.headroom_percent)
            .map(|p| with_software(p, scenario, &cards)),
        warning,
    ))
}

/// The plan on the scenario's own `cards`, "does not fit" with the stack's reason where its
/// engine, formats or kernels do not run on one of them (`scenario/stack.rs`): memory that fits
/// on a card the software cannot use is not a plan. A memory size typed without a card has no
/// stack to check. The recommendation leaves such cards out on its own (`plans/recommend.rs`).
fn with_software(mut plan: Plan, scenario: &Scenario, cards: &[Card]) -> Plan {
    let gap = cards
        .iter()
        .filter_map(|c| c.gpu.and_then(catalog::gpu))
        .find_map(|g| {
            crate::scenario::stack::check(
                g,
                &scenario.workload,
                scenario.engine.as_ref(),
                scenario.weights,
            )
            .err()
        });
    if let Some(gap) = gap {
        plan.reason = VerdictReason::SoftwareDoesNotRun { gap };
        plan.verdict = plan.reason.verdict();
    }
    plan
}

/// The allocator replay of the scenario's own training plan (its card and GPU count), the
/// reference the closed form is held to (`workloads/training/replay.rs`); `None` for other workloads or when
/// the scenario names no card. Tests only (feature `replay`).
#[cfg(feature = "replay")]
pub fn training_replay(
    scenario: &Scenario,
) -> Result<Option<crate::workloads::training::replay::ReplayPeak>, ScenarioError> {
    let Workload::Train(t) = &scenario.workload else {
        return Ok(None);
    };
    let prepared = prepare(scenario)?;
    let Some(card) = chosen_card(scenario)? else {
        return Ok(None);
    };
    // As `user_plan` → `Plan::evaluate` (training splits data-parallel over every card).
    let base = prepared.inputs(scenario);
    let inputs = BudgetInputs {
        tensor_parallel: scenario.hardware.count.max(1),
        gpu_arch: card.arch,
        ..base.inputs
    };
    Ok(Some(crate::workloads::training::replay::peak(
        t, &inputs, &card,
    )))
}

/// How the scenario asks the recommendation to choose.
pub fn market(scenario: &Scenario) -> Market<'_> {
    Market {
        by: scenario.recommend_by,
        reach: scenario.recommend_from,
        prices: &scenario.prices_usd_per_hour,
    }
}

/// Points of the memory curve.
pub const CURVE_POINTS: usize = 48;

/// Estimates a scenario, without the search for fixes (`fixes` stays empty; the crate root's
/// `estimate` adds them).
pub fn estimate_without_fixes(scenario: &Scenario) -> Result<Estimate, ScenarioError> {
    let prepared = prepare(scenario)?;
    let base = prepared.inputs(scenario);
    let recommendation = recommend(&base, scenario.headroom_percent, &market(scenario));
    let (chosen, split_warning) = user_plan(scenario, &prepared)?;
    let mut warnings: Vec<Warning> = split_warning.into_iter().collect();
    let plan = chosen.or_else(|| recommendation.best.clone());
    let components: Vec<Component> = plan.as_ref().map(deployment).unwrap_or_default();
    collect_warnings(
        &mut warnings,
        &prepared.arch,
        &base,
        plan.as_ref(),
        &components,
        scenario.weights,
    );
    let arch = prepared.arch;
    let params = arch.param_count();
    let kv: Option<KvReport> = plan.as_ref().and_then(|p| p.kv);
    let headroom = scenario.headroom_percent;
    let llm = scenario.workload.needs_model();
    // What would fit is no answer where the software does not run at all.
    let plan_limits = plan
        .as_ref()
        .filter(|p| llm && !matches!(p.reason, VerdictReason::SoftwareDoesNotRun { .. }))
        .map(|p| limits(&base, p, headroom));
    let top = crate::units::bytes::mul(base.context_tokens, 2)
        .max(u64::from(arch.max_position).min(1 << 20));
    let mut curve = plan
        .as_ref()
        .filter(|_| llm)
        .map(|p| context_curve(&base, p, headroom, top, CURVE_POINTS))
        .unwrap_or_default();
    let mut curve_axis = match scenario.workload {
        Workload::Train(_) => CurveAxis::SequenceLength,
        _ => CurveAxis::ContextTokens,
    };
    let mut generation_max = None;
    if let (Workload::GenerateImage(g) | Workload::GenerateVideo(g), Some(p)) =
        (&scenario.workload, plan.as_ref())
    {
        let points = crate::workloads::diffusion::sweep(g, &p.card, CURVE_POINTS);
        generation_max = points
            .iter()
            .filter(|(_, b)| *b <= p.usable_bytes)
            .map(|(v, _)| u64::from(*v))
            .max();
        curve = points
            .into_iter()
            .map(|(v, b)| CurvePoint {
                x: u64::from(v),
                per_gpu_bytes: b,
            })
            .collect();
        curve_axis = if matches!(scenario.workload, Workload::GenerateVideo(_)) {
            CurveAxis::Frames
        } else {
            CurveAxis::ImageSide
        };
    }
    // A plan that does not fit has no speed: it does not run (its price per hour stays, the price
    // per token goes with the speed).
    let speed = plan
        .as_ref()
        .filter(|p| p.verdict != Verdict::DoesNotFit)
        .and_then(|p| crate::plans::speed::of_plan(&base, p));
    let cost = plan.as_ref().and_then(|p| {
        crate::plans::price::of_plan(p, speed.as_ref(), &scenario.prices_usd_per_hour)
    });
    let mut estimate = Estimate {
        speed,
        cost,
        model: scenario.workload.needs_model().then(|| ModelSummary {
            id: prepared.entry.map(|m| m.id),
            name: prepared.entry.map(|m| m.name),
            arch,
            params,
        }),
        kv_cache_format: prepared.kv_format,
        context_tokens: base.context_tokens,
        total_bytes: crate::budget::total(&components),
        components,
        per_gpu_bytes: plan.as_ref().map_or(0, |p| p.per_gpu_bytes),
        fits: plan.as_ref().is_some_and(|p| p.verdict == Verdict::Fits),
        verdict: plan.as_ref().map_or(Verdict::DoesNotFit, |p| p.verdict),
        reason: plan
            .as_ref()
            .map_or(VerdictReason::NothingFits, |p| p.reason),
        kv_bytes_per_token: kv_cache::bytes_per_token(&base),
        kv_bytes_per_token_past_window: kv_cache::bytes_per_token_past_window(&base),
        state_bytes_per_sequence: kv_cache::state_bytes_per_sequence(&base),
        kv_cache_bytes: kv.map(|k| k.kv_cache_bytes),
        kv_cache_tokens: kv.map(|k| k.kv_cache_tokens),
        max_concurrency: kv.map(|k| k.max_concurrency),
        recurrent_state_bytes: kv.map(|k| k.state_bytes).filter(|b| *b > 0),
        host_bytes: plan.as_ref().map_or(0, |p| p.host_bytes),
        host_ram_bytes: plan.as_ref().map_or(0, |p| p.host_bytes).max(if llm {
            base.footprint.get(1).0
        } else {
            0
        }),
        limits: plan_limits,
        curve,
        curve_axis,
        generation_max,
        plan,
        warnings,
        recommendation,
        fixes: Vec::new(),
        rules_of_thumb: rules_of_thumb(params, scenario.weights),
    };
    if saturated(&estimate) {
        estimate.warnings.push(Warning::Saturated);
    }
    Ok(estimate)
}

/// Whether a figure of the estimate reached 2^64 bytes (`crate::units::bytes::SATURATED`): the
/// scenario then fits nowhere, and the figures at that limit are bounds, not sizes.
fn saturated(e: &Estimate) -> bool {
    use crate::units::bytes::is_saturated;
    let plan = |p: &Plan| {
        is_saturated(p.per_gpu_bytes)
            || is_saturated(p.host_bytes)
            || p.per_gpu_components.iter().any(|c| is_saturated(c.bytes))
    };
    e.components.iter().any(|c| is_saturated(c.bytes))
        || [
            e.total_bytes,
            e.per_gpu_bytes,
            e.kv_bytes_per_token,
            e.host_bytes,
            e.host_ram_bytes,
            e.rules_of_thumb.weights_only_bytes,
            e.kv_cache_bytes.unwrap_or(0),
            e.model.as_ref().map_or(0, |m| m.params),
        ]
        .into_iter()
        .any(is_saturated)
        || e.plan.as_ref().is_some_and(plan)
        || e.recommendation.single_cards.iter().any(plan)
}

fn collect_warnings(
    warnings: &mut Vec<Warning>,
    arch: &ModelArch,
    base: &Job,
    plan: Option<&Plan>,
    components: &[Component],
    weights: WeightFormat,
) {
    // Exactly one warning states the verdict's reason, so the warnings never contradict it.
    let verdict_warning = match plan.map_or(VerdictReason::NothingFits, |p| p.reason) {
        VerdictReason::FitsWithHeadroom => None,
        VerdictReason::IntoHeadroom => Some(Warning::WithinHeadroom),
        VerdictReason::ConcurrencyBelowSequences {
            max_concurrency_centi,
            sequences,
        } => Some(Warning::ConcurrencyBelowSequences {
            max_concurrency_centi,
            sequences,
        }),
        VerdictReason::EngineWillNotStart { failure } => {
            Some(Warning::EngineWillNotStart { failure })
        }
        VerdictReason::WeightsAlone | VerdictReason::OverCapacity => Some(Warning::DoesNotFit),
        VerdictReason::NothingFits => Some(Warning::NoPlanFits),
        VerdictReason::SoftwareDoesNotRun { gap } => Some(Warning::SoftwareDoesNotRun { gap }),
    };
    warnings.extend(verdict_warning);
    if plan.is_some_and(|p| p.count > 1 && p.split == Split::TensorParallel && p.card.pcie_only) {
        warnings.push(Warning::PcieOnly);
    }
    if base.context_tokens > u64::from(arch.max_position) {
        warnings.push(Warning::ContextBeyondModel {
            max_position: arch.max_position,
        });
    }
    let bytes_of = |id| {
        components
            .iter()
            .find(|c| c.id == id)
            .map_or(0, |c| c.bytes)
    };
    if bytes_of(ComponentId::KvCache) > bytes_of(ComponentId::Weights) {
        warnings.push(Warning::KvCacheDominates);
    }
    if weights.is_quantized() {
        warnings.push(Warning::QuantizedWeights);
    }
    if let Some(p) = plan {
        let outside = crate::units::bytes::sum(
            p.per_gpu_components
                .iter()
                .filter(|c| {
                    matches!(
                        c.id,
                        ComponentId::CudaContext
                            | ComponentId::CommunicationBuffers
                            | ComponentId::EngineOverhead
                            | ComponentId::CudaGraphs
                    )
                })
                .map(|c| c.bytes),
        );
        warnings.push(Warning::OutsideAllocator { bytes: outside });
    }
    if base.workload.needs_model() {
        warnings.push(Warning::ModelFiles {
            bytes: base.footprint.get(1).0,
        });
    }
    if let Some(bytes) = plan.map(|p| p.host_bytes).filter(|b| *b > 0) {
        warnings.push(match base.workload {
            Workload::GenerateImage(_) | Workload::GenerateVideo(_) => {
                Warning::OffloadHostMemory { bytes }
            }
            Workload::Train(_) => Warning::TrainingHostMemory { bytes },
            _ => Warning::HostMemory { bytes },
        });
    }
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}
