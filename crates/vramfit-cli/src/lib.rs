//! The CLI's scenario path as a library, so the calibration tests run exactly what `vramfit
//! estimate` runs: JSON text in, JSON text out.

pub mod inspect;

use serde_json::{json, Value};
use vramfit_core::{estimate, Scenario};

/// Parses a scenario, estimates it, and renders the estimate (or the error) as JSON.
pub fn run(text: &str) -> Result<String, String> {
    run_value(text)
        .map(|v| v.to_string())
        .map_err(|v| v.to_string())
}

/// The measurement script (`pytorch`) or command line (`vllm`, `llama-server`) for a scenario.
pub fn script(kind: &str, text: &str) -> Result<String, String> {
    let scenario: Scenario = serde_json::from_str(text).map_err(|e| {
        json!({"error": {"kind": "invalid_scenario_json", "line": e.line(), "column": e.column(),
                         "message": e.to_string()}})
        .to_string()
    })?;
    if let Err(e) = vramfit_core::estimate::prepare(&scenario) {
        return Err(json!({ "error": e }).to_string());
    }
    Ok(match kind {
        "vllm" => vramfit_core::measure::vllm_command(&scenario),
        "llama-server" => vramfit_core::measure::llama_server_command(&scenario),
        _ => vramfit_core::measure::pytorch_script(&scenario),
    })
}

/// As [`run`], returning JSON values.
pub fn run_value(text: &str) -> Result<Value, Value> {
    let scenario: Scenario = serde_json::from_str(text).map_err(|e| {
        json!({"error": {"kind": "invalid_scenario_json", "line": e.line(), "column": e.column(),
                         "message": e.to_string()}})
    })?;
    let est = estimate(&scenario).map_err(|e| json!({ "error": e }))?;
    serde_json::to_value(&est)
        .map_err(|e| json!({"error": {"kind": "internal", "message": e.to_string()}}))
}
