//! Helpers shared by the serving integration tests; each test file uses what it needs.
#![allow(dead_code)]

use vramfit_core::{estimate, ComponentId, Estimate, Scenario};

/// An estimate of `model` serving `seqs` sequences of `ctx` tokens in bf16 on one card of 1 TiB
/// (`engine`: a scenario `engine` object, or `null` for the engine-neutral budget).
pub fn serve(model: &str, ctx: u32, seqs: u32, engine: &str) -> Estimate {
    let json = format!(
        r#"{{"model":{{"catalog":"{model}"}},"weights":"bf16",
        "workload":{{"inference":{{"context_tokens":{ctx},"sequences":{seqs}}}}},
        "hardware":{{"gpu_memory_gib":1024,"count":1}},"engine":{engine}}}"#
    );
    let scenario: Scenario = serde_json::from_str(&json).expect("valid scenario");
    estimate(&scenario).expect("estimates")
}

/// The bytes of one budget component (0 when absent).
pub fn component(e: &Estimate, id: ComponentId) -> u64 {
    e.components
        .iter()
        .find(|c| c.id == id)
        .map_or(0, |c| c.bytes)
}

/// The estimate of a scenario given as JSON.
pub fn est(json: &str) -> Estimate {
    let s: Scenario = serde_json::from_str(json).expect("scenario");
    estimate(&s).expect("estimates")
}
