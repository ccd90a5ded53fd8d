//! `estimate(&Scenario)`: resolves the model and the cards, evaluates the plan and the
//! recommendation, and collects warnings.
//!
//! With a catalog card or a typed memory size, the plan is the user's: `count` cards in tensor
//! parallel when the model's heads allow it, otherwise as replicas (with a warning). Without a card,
//! the recommended plan is shown. `components` are the whole deployment (per-GPU × count);
//! `per_gpu_components` are the fullest GPU's.

use crate::budget::{kv_cache, BudgetInputs, Component};
use crate::catalog::{self, CatalogModel};
use crate::import::hf_config::{self, ConfigError};
use crate::model::ModelArch;
use crate::plan::{Card, Plan, Split, Verdict};
use crate::precision::Precision;
use crate::recommend::{recommend, Recommendation};
use crate::rules::{rules_of_thumb, RulesOfThumb};
use crate::scenario::{Field, ModelSource, RangeError, Scenario, Workload};
use crate::warning::Warning;
use serde::Serialize;

/// Why a scenario cannot be estimated.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ScenarioError {
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
    pub model: ModelSummary,
    /// KV cache format used.
    pub kv_cache_format: Precision,
    /// Whole-deployment components (per-GPU figures × cards).
    pub components: Vec<Component>,
    /// Sum of `components`.
    pub total_bytes: u64,
    /// The plan shown: the user's cards, or the recommendation.
    pub plan: Option<Plan>,
    /// Bytes on the fullest GPU.
    pub per_gpu_bytes: u64,
    /// Whether the plan fits with headroom.
    pub fits: bool,
    /// KV cache bytes per token for the whole model.
    pub kv_bytes_per_token: u64,
    /// Warnings.
    pub warnings: Vec<Warning>,
    /// Recommendation from the GPU catalog.
    pub recommendation: Recommendation,
    /// The seeds' rules of thumb.
    pub rules_of_thumb: RulesOfThumb,
}

/// Resolves a model source to its architecture (and catalog entry).
pub fn resolve_model(
    source: &ModelSource,
) -> Result<(ModelArch, Option<&'static CatalogModel>), ScenarioError> {
    match source {
        ModelSource::Catalog(id) => catalog::model(id)
            .map(|m| (m.arch, Some(m)))
            .ok_or_else(|| ScenarioError::UnknownModel { id: id.clone() }),
        ModelSource::HfConfig(value) => hf_config::parse_value(value)
            .map(|a| (a, None))
            .map_err(|error| ScenarioError::Config { error }),
    }
}

/// Estimates a scenario.
pub fn estimate(scenario: &Scenario) -> Result<Estimate, ScenarioError> {
    let fields = scenario.validate();
    if !fields.is_empty() {
        return Err(ScenarioError::InvalidFields { fields });
    }
    let (arch, entry) = resolve_model(&scenario.model)?;
    let Workload::Inference(inf) = scenario.workload;
    let kv_format = scenario.kv_cache.unwrap_or(scenario.weights.compute());
    let base = BudgetInputs {
        arch: &arch,
        weights: scenario.weights,
        kv_cache: kv_format,
        context_tokens: u64::from(inf.context_tokens),
        sequences: u64::from(inf.sequences),
        prefill_chunk_tokens: u64::from(inf.prefill_chunk_tokens),
        tensor_parallel: 1,
        gpu_arch: None,
    };
    let headroom = scenario.headroom_percent;
    let recommendation = recommend(&base, headroom);
    let hw = &scenario.hardware;
    let chosen_card = match (&hw.gpu, hw.gpu_memory_gib) {
        (Some(id), _) => {
            Some(Card::from_catalog(catalog::gpu(id).ok_or_else(|| {
                ScenarioError::UnknownGpu { id: id.clone() }
            })?))
        }
        (None, Some(gib)) => Some(Card {
            gpu: None,
            capacity_bytes: crate::bytes::gib_to_bytes(gib).unwrap_or(0),
            arch: None,
            pcie_only: false,
        }),
        (None, None) => None,
    };
    let mut warnings = Vec::new();
    let plan = match chosen_card {
        Some(card) => {
            let split = if hw.count == 1 {
                Split::Single
            } else if arch.tensor_parallel_ok(hw.count) {
                Split::TensorParallel
            } else {
                warnings.push(Warning::TensorParallelIndivisible {
                    heads: arch.heads,
                    kv_heads: arch.kv_heads,
                    count: hw.count,
                });
                Split::Replicas
            };
            Some(Plan::evaluate(&base, card, hw.count, split, headroom))
        }
        None => recommendation.best.clone(),
    };
    let components: Vec<Component> = plan
        .as_ref()
        .map(|p| {
            p.per_gpu_components
                .iter()
                .map(|c| Component {
                    id: c.id,
                    bytes: c.bytes * u64::from(p.count),
                })
                .collect()
        })
        .unwrap_or_default();
    collect_warnings(
        &mut warnings,
        &arch,
        &base,
        plan.as_ref(),
        &components,
        scenario.weights,
    );
    let params = arch.param_count();
    Ok(Estimate {
        model: ModelSummary {
            id: entry.map(|m| m.id),
            name: entry.map(|m| m.name),
            arch,
            params,
        },
        kv_cache_format: kv_format,
        total_bytes: components.iter().map(|c| c.bytes).sum(),
        components,
        per_gpu_bytes: plan.as_ref().map_or(0, |p| p.per_gpu_bytes),
        fits: plan.as_ref().is_some_and(|p| p.verdict == Verdict::Fits),
        plan,
        kv_bytes_per_token: kv_cache::bytes_per_token(&base),
        warnings,
        recommendation,
        rules_of_thumb: rules_of_thumb(params, scenario.weights),
    })
}

fn collect_warnings(
    warnings: &mut Vec<Warning>,
    arch: &ModelArch,
    base: &BudgetInputs,
    plan: Option<&Plan>,
    components: &[Component],
    weights: Precision,
) {
    match plan.map(|p| p.verdict) {
        Some(Verdict::Tight) => warnings.push(Warning::WithinHeadroom),
        Some(Verdict::DoesNotFit) => warnings.push(Warning::DoesNotFit),
        Some(Verdict::Fits) => {}
        None => warnings.push(Warning::NoPlanFits),
    }
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
    use crate::budget::ComponentId;
    if bytes_of(ComponentId::KvCache) > bytes_of(ComponentId::Weights) {
        warnings.push(Warning::KvCacheDominates);
    }
    if matches!(weights, Precision::Fp8 | Precision::Int8 | Precision::Int4) {
        warnings.push(Warning::QuantizedWeights);
    }
}
