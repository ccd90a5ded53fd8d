//! What runs on a card: every catalog model in the formats people run it in, each estimated on
//! the card (or several of it) with its verdict, the largest context that fits and its decode
//! speed. The answer to "I have (or can rent) this card: what can I run?".
//!
//! Formats by engine: without an engine or with vLLM / SGLang / Transformers, bf16, fp8 and AWQ
//! int4 (the uploads those engines serve); with llama.cpp, GGUF q8_0, q4_k_m and f16. A format the
//! card's software does not run ([`crate::scenario::stack`]) is left out. Each estimate serves one sequence
//! at [`CONTEXT_TOKENS`] tokens (or the model's own limit when shorter).

use crate::estimate::{estimate_without_fixes, ScenarioError};
use crate::inputs::catalog::{self, Gpu};
use crate::inputs::format::WeightFormat;
use crate::plans::plan::Verdict;
use crate::plans::speed::Speed;
use crate::scenario::{Hardware, ModelSource, Scenario, Workload};
use crate::workloads::engine::{Engine, EngineKind};
use serde::Serialize;

/// The context each model is tried at, tokens.
pub const CONTEXT_TOKENS: u32 = 8192;

/// One model in one format on the card.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunsOn {
    /// Catalog id.
    pub model: &'static str,
    /// Weight format id.
    pub weights: String,
    /// Whether it fits with the headroom at [`CONTEXT_TOKENS`] tokens.
    pub fits: bool,
    /// The verdict.
    pub verdict: Verdict,
    /// The largest context that fits, tokens, at most the model's own limit (`None`: not even a
    /// short one).
    pub max_context_tokens: Option<u64>,
    /// Decode tokens/s of one sequence (`None` when it does not fit).
    pub decode_tokens_per_s: Option<f64>,
}

/// The formats tried with `engine`.
pub fn formats(engine: Option<EngineKind>) -> Vec<WeightFormat> {
    let ids: &[&str] = match engine {
        Some(EngineKind::LlamaCpp) => &["gguf-q4_k_m", "gguf-q8_0", "gguf-f16"],
        _ => &["bf16", "fp8", "awq-int4-g128"],
    };
    ids.iter()
        .filter_map(|id| WeightFormat::from_id(id))
        .collect()
}

/// Every catalog model in its common formats on `count` × `gpu` under `engine`.
pub fn runs_on(
    gpu: &'static Gpu,
    count: u32,
    engine: Option<EngineKind>,
) -> Result<Vec<RunsOn>, ScenarioError> {
    let engine_value = engine.map(Engine::default_of);
    let mut out = Vec::new();
    for m in catalog::models() {
        for w in formats(engine) {
            let workload = Workload::Inference(crate::workloads::engine::Inference {
                context_tokens: CONTEXT_TOKENS.min(m.arch.max_position.max(16)),
                sequences: 1,
                ..crate::workloads::engine::Inference::default()
            });
            if crate::scenario::stack::check(gpu, &workload, engine_value.as_ref(), w).is_err() {
                continue;
            }
            let scenario = Scenario {
                model: Some(ModelSource::Catalog(m.id.into())),
                weights: w,
                workload,
                hardware: Hardware {
                    gpu: Some(gpu.id.into()),
                    count: count.max(1),
                    ..Hardware::default_one()
                },
                engine: engine_value.clone(),
                ..Scenario::example()
            };
            let e = estimate_without_fixes(&scenario)?;
            let decode = match e.speed {
                Some(Speed::Serving(s)) if e.verdict != Verdict::DoesNotFit => {
                    Some(s.decode_tokens_per_s)
                }
                _ => None,
            };
            out.push(RunsOn {
                model: m.id,
                weights: w.id(),
                fits: e.fits,
                verdict: e.verdict,
                // Past the model's trained length a context is not the model's to serve.
                max_context_tokens: e
                    .limits
                    .and_then(|l| l.max_context_tokens)
                    .map(|c| c.min(u64::from(m.arch.max_position))),
                decode_tokens_per_s: decode,
            });
        }
    }
    Ok(out)
}
