//! The CLI's scenario path as a library, so the calibration tests run exactly what `vramfit
//! estimate` runs: JSON text in, JSON text out.

pub mod inspect;

use serde_json::{json, Value};
use vramfit_core::{catalog, estimate, Role, Scenario, PIPELINES};

/// Parses a scenario, estimates it, and renders the estimate (or the error) as JSON.
pub fn run(text: &str) -> Result<String, String> {
    run_value(text)
        .map(|v| v.to_string())
        .map_err(|v| v.to_string())
}

/// The measurement script (`pytorch`, `train`, `diffusers`) or command line (`vllm`,
/// `llama-server`) for a scenario.
pub fn script(kind: &str, text: &str) -> Result<String, String> {
    let scenario = Scenario::from_json(text).map_err(|e| {
        json!({"error": {"kind": "invalid_scenario_json", "line": e.line(), "column": e.column(),
                         "message": e.to_string()}})
        .to_string()
    })?;
    if let Err(e) = vramfit_core::prepare(&scenario) {
        return Err(json!({ "error": e }).to_string());
    }
    Ok(match kind {
        "vllm" => vramfit_core::measure::vllm_command(&scenario),
        "llama-server" => vramfit_core::measure::llama_server_command(&scenario),
        "diffusers" => vramfit_core::measure::diffusers_script(&scenario)
            .ok_or_else(|| json!({"error": {"kind": "not_a_generation_workload"}}).to_string())?,
        "train" => vramfit_core::measure::training_script(&scenario)
            .ok_or_else(|| json!({"error": {"kind": "not_a_training_workload"}}).to_string())?,
        // `pytorch` on a training scenario is its training step, never an inference script.
        _ => vramfit_core::measure::training_script(&scenario)
            .unwrap_or_else(|| vramfit_core::measure::pytorch_script(&scenario)),
    })
}

/// As [`run`], returning JSON values.
pub fn run_value(text: &str) -> Result<Value, Value> {
    let scenario = Scenario::from_json(text).map_err(|e| {
        json!({"error": {"kind": "invalid_scenario_json", "line": e.line(), "column": e.column(),
                         "message": e.to_string()}})
    })?;
    let est = estimate(&scenario).map_err(|e| json!({ "error": e }))?;
    serde_json::to_value(&est)
        .map_err(|e| json!({"error": {"kind": "internal", "message": e.to_string()}}))
}

/// One catalog as a JSON array: models (id, name, Hugging Face repo ids, family, computed
/// parameters of the served model and of the checkpoint with its multi-token-prediction layers,
/// published parameters and whether they count those layers, source), GPUs (every field of the entry: memory as marketed and as the
/// driver reports it, interconnect, bandwidth, whether the memory is unified, source; the discrete
/// cards by reported memory, then the unified-memory machines) or diffusion pipelines (id, name,
/// repo ids, parts with their parameters and default format, total parameters, source). `None`
/// for an unknown catalog name.
pub fn catalog_value(kind: &str) -> Option<Value> {
    Some(match kind {
        "models" => catalog::models()
            .map(|m| {
                json!({
                    "id": m.id,
                    "name": m.name,
                    "repo_ids": m.repo_ids().collect::<Vec<_>>(),
                    "family": m.arch.family.model_type(),
                    "params": m.arch.param_count(),
                    "checkpoint_params": m.arch.checkpoint_param_count(),
                    "published_params": m.published_params,
                    "published_counts_mtp": m.published_counts_mtp,
                    "max_position": m.arch.max_position,
                    "source": m.source,
                })
            })
            .collect(),
        "gpus" => catalog::all_gpus()
            .map(|g| serde_json::to_value(g).unwrap_or(Value::Null))
            .collect(),
        "pipelines" => PIPELINES
            .iter()
            .map(|p| {
                let parts: Vec<Value> = p
                    .parts
                    .iter()
                    .map(|part| {
                        json!({
                            "id": part.id,
                            "role": match part.role {
                                Role::TextEncoder => "text_encoder",
                                Role::Denoiser => "denoiser",
                                Role::Vae => "vae",
                            },
                            "params": part.params,
                            "format": part.default_format.id(),
                        })
                    })
                    .collect();
                json!({
                    "id": p.id,
                    "name": p.name,
                    "video": p.video,
                    "repo_ids": catalog::pipeline_repo_ids(p.id),
                    "params": p.parts.iter().map(|part| part.params).sum::<u64>(),
                    "parts": parts,
                    "source": p.source,
                })
            })
            .collect(),
        _ => return None,
    })
}

/// [`catalog_value`] as JSON text.
pub fn catalog(kind: &str) -> Option<String> {
    catalog_value(kind).map(|v| v.to_string())
}

/// `vramfit runs-on GPU [--count N] [--engine E]`: every catalog model in its common formats on
/// the card, as a JSON array of `{model, weights, fits, verdict, max_context_tokens,
/// decode_tokens_per_s}`. `Err` carries the message for a bad command line.
pub fn runs_on(args: &[String]) -> Result<String, String> {
    let mut gpu = None;
    let mut count = 1u32;
    let mut engine = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--count" => {
                count = it
                    .next()
                    .and_then(|n| n.parse::<u32>().ok())
                    .filter(|n| (1..=64).contains(n))
                    .ok_or("--count takes a whole number of cards (1 to 64)")?;
            }
            "--engine" => {
                let id = it
                    .next()
                    .ok_or("--engine takes vllm, sglang, llama_cpp or transformers")?;
                engine = Some(
                    vramfit_core::EngineKind::from_id(&id.replace('-', "_")).ok_or(format!(
                        "unknown engine `{id}` (vllm, sglang, llama_cpp, transformers)"
                    ))?,
                );
            }
            id if gpu.is_none() => {
                gpu = Some(
                    vramfit_core::catalog::gpu(id)
                        .ok_or(format!("unknown GPU `{id}` (see `vramfit catalog gpus`)"))?,
                );
            }
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }
    let gpu = gpu.ok_or("runs-on needs a GPU id, e.g. `vramfit runs-on rtx-4090`")?;
    let list = vramfit_core::runs_on(gpu, count, engine).map_err(|e| format!("{e:?}"))?;
    serde_json::to_string(&list).map_err(|e| e.to_string())
}
