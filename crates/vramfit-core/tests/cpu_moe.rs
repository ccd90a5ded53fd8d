//! llama.cpp's MoE experts in host RAM (`--cpu-moe`, `--n-cpu-moe N`): which bytes leave the
//! GPU, what the GPU stages back for a prompt, what a decode step reads from host RAM, the fix
//! that finds the fewest layers, and the command that prints the flag.

mod common;

use common::component;
use vramfit_core::{
    catalog, estimate, Bound, Change, ComponentId, Estimate, Scenario, ServingSpeed, Speed, Verdict,
};

/// Qwen3-30B-A3B on one RTX 3060 12GB under llama.cpp, with `llama_cpp` settings and weights.
fn qwen(weights: &str, llama_cpp: &str) -> Scenario {
    serde_json::from_str(&format!(
        r#"{{"model":{{"catalog":"qwen3-30b-a3b"}},"weights":"{weights}","workload":{{"inference":{{"context_tokens":8192,"sequences":1}}}},"hardware":{{"gpu":"rtx-3060"}},"engine":{{"llama_cpp":{llama_cpp}}}}}"#
    ))
    .expect("scenario")
}

fn est(s: &Scenario) -> Estimate {
    estimate(s).expect("estimates")
}

fn decode(e: &Estimate) -> ServingSpeed {
    match e.speed {
        Some(Speed::Serving(s)) => s,
        _ => panic!("a serving speed"),
    }
}

/// In q8_0 (34 bytes per 32 weights, every tensor alike) the experts that leave the GPU are the
/// routed-expert parameters exactly; the KV cache stays.
#[test]
fn every_routed_expert_leaves_the_gpu_and_nothing_else() {
    let arch = catalog::model("qwen3-30b-a3b").expect("model").arch;
    let experts = arch.routed_expert_param_count() * 34 / 32;
    assert!(experts > 25_000_000_000, "{experts}");
    let all_on_gpu = est(&qwen("gguf-q8_0", "{}"));
    let cpu_moe = est(&qwen("gguf-q8_0", r#"{"cpu_moe":true}"#));
    assert_eq!(
        component(&all_on_gpu, ComponentId::Weights) - component(&cpu_moe, ComponentId::Weights),
        experts
    );
    assert_eq!(
        component(&all_on_gpu, ComponentId::KvCache),
        component(&cpu_moe, ComponentId::KvCache)
    );
    // Host RAM holds them.
    assert!(
        cpu_moe.host_ram_bytes >= experts,
        "{}",
        cpu_moe.host_ram_bytes
    );
    // A prompt's ubatch of 512 rows runs each expert product on the GPU with its weight copied
    // into the compute buffer, one tensor at a time: the largest, 128 × 768 × 2048 in q8_0.
    let staged = 128 * 768 * 2048 * 34 / 32;
    assert_eq!(
        component(&cpu_moe, ComponentId::Activations)
            - component(&all_on_gpu, ComponentId::Activations),
        staged
    );
    // Below 32 rows per ubatch nothing is copied.
    let small_ub = est(&qwen("gguf-q8_0", r#"{"cpu_moe":true,"n_ubatch":16}"#));
    let small_ub_gpu = est(&qwen("gguf-q8_0", r#"{"n_ubatch":16}"#));
    assert_eq!(
        component(&small_ub, ComponentId::Activations),
        component(&small_ub_gpu, ComponentId::Activations)
    );
}

/// `--cpu-moe` is `--n-cpu-moe` at the layer count, and a count past it means all; more layers
/// never put more on the GPU.
#[test]
fn counts_are_layers_from_the_first() {
    let at = |json: &str| est(&qwen("gguf-q4_k_m", json)).per_gpu_bytes;
    assert_eq!(at(r#"{"cpu_moe":true}"#), at(r#"{"n_cpu_moe":48}"#));
    assert_eq!(at(r#"{"n_cpu_moe":48}"#), at(r#"{"n_cpu_moe":4000}"#));
    assert_eq!(at(r#"{"n_cpu_moe":0}"#), at("{}"));
    let mut last = at(r#"{"n_cpu_moe":1}"#);
    assert!(last < at("{}"));
    for n in 2..=48 {
        let now = at(&format!(r#"{{"n_cpu_moe":{n}}}"#));
        assert!(now < last, "{n}: {now} ≥ {last}");
        last = now;
    }
    // A dense model has no experts to move.
    let dense = |json: &str| {
        let s: Scenario = serde_json::from_str(&format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"weights":"gguf-q4_k_m","workload":{{"inference":{{"context_tokens":8192,"sequences":1}}}},"hardware":{{"gpu":"rtx-3060"}},"engine":{{"llama_cpp":{json}}}}}"#
        ))
        .expect("scenario");
        est(&s).per_gpu_bytes
    };
    assert_eq!(dense("{}"), dense(r#"{"cpu_moe":true}"#));
}

/// The fix finds the fewest layers that fit, one fewer does not, it comes before whole layers
/// leave the GPU, and its scenario re-estimates to what it says.
#[test]
fn the_fix_is_the_fewest_layers_that_fit() {
    let s = qwen("gguf-q4_k_m", "{}");
    let e = est(&s);
    assert_eq!(e.verdict, Verdict::DoesNotFit);
    let at = e
        .fixes
        .iter()
        .position(|f| matches!(f.change, Change::CpuMoeLayers { .. }))
        .expect("an experts fix");
    let Change::CpuMoeLayers { layers } = e.fixes[at].change else {
        unreachable!()
    };
    if let Some(ngl) = e
        .fixes
        .iter()
        .position(|f| matches!(f.change, Change::GpuLayers { .. }))
    {
        assert!(at < ngl, "experts before whole layers");
    }
    let again = est(&e.fixes[at].scenario);
    assert_eq!(again.verdict, Verdict::Fits);
    assert_eq!(again.per_gpu_bytes, e.fixes[at].per_gpu_bytes);
    let fewer = est(&qwen(
        "gguf-q4_k_m",
        &format!(r#"{{"n_cpu_moe":{}}}"#, layers - 1),
    ));
    assert_ne!(fewer.verdict, Verdict::Fits, "{layers} is the fewest");
    // The command prints the flag the fix set.
    let command = vramfit_core::measure::llama_server_command(&e.fixes[at].scenario);
    assert!(
        command.contains(&format!("--n-cpu-moe {layers}")),
        "{command}"
    );
}

#[test]
fn the_command_prints_the_flag_as_the_estimate_read_it() {
    let cmd = |json: &str| vramfit_core::measure::llama_server_command(&qwen("gguf-q4_k_m", json));
    assert!(cmd(r#"{"cpu_moe":true}"#).contains("--cpu-moe"));
    assert!(!cmd(r#"{"cpu_moe":true}"#).contains("--n-cpu-moe"));
    assert!(cmd(r#"{"n_cpu_moe":20}"#).contains("--n-cpu-moe 20"));
    assert!(!cmd("{}").contains("cpu-moe"));
    assert!(!cmd(r#"{"n_cpu_moe":0}"#).contains("cpu-moe"));
}

/// Decode with experts in host RAM is bounded by the host's bandwidth: slower with more layers
/// there, faster with a faster host, outside the calibration (its band widened).
#[test]
fn decode_reads_host_experts_at_the_host_bandwidth() {
    // All on the 12 GB card does not fit, so it has no speed: it would not run.
    let too_big = est(&qwen("gguf-q4_k_m", "{}"));
    assert_eq!(too_big.verdict, Verdict::DoesNotFit);
    assert!(too_big.speed.is_none());
    // All on a 24 GB card, for the calibrated figure.
    let on_3090 = qwen("gguf-q4_k_m", "{}");
    let on_3090: Scenario = serde_json::from_str(
        &serde_json::to_string(&on_3090)
            .expect("serialises")
            .replace("rtx-3060", "rtx-3090"),
    )
    .expect("scenario");
    let gpu_only = decode(&est(&on_3090));
    let some = decode(&est(&qwen("gguf-q4_k_m", r#"{"n_cpu_moe":24}"#)));
    let all = decode(&est(&qwen("gguf-q4_k_m", r#"{"cpu_moe":true}"#)));
    let fast_host = decode(&est(&qwen(
        "gguf-q4_k_m",
        r#"{"cpu_moe":true,"host_bandwidth_gb_s":200}"#,
    )));
    assert!(gpu_only.decode_tokens_per_s > some.decode_tokens_per_s);
    assert!(some.decode_tokens_per_s > all.decode_tokens_per_s);
    assert!(fast_host.decode_tokens_per_s > all.decode_tokens_per_s);
    assert_eq!(all.basis, Bound::HostMemory);
    assert!(gpu_only.calibrated && !all.calibrated);
    assert!(all.error_band_percent > gpu_only.error_band_percent);
    // Each prompt ubatch copies the host experts over PCIe: prefill slows too.
    assert!(all.prefill_tokens_per_s < gpu_only.prefill_tokens_per_s);
}

#[test]
fn out_of_range_settings_are_named() {
    for json in [r#"{"n_cpu_moe":5000}"#, r#"{"host_bandwidth_gb_s":0}"#] {
        let err = estimate(&qwen("gguf-q4_k_m", json)).expect_err(json);
        let text = err.to_string();
        let name = if json.contains("n_cpu_moe") {
            "n_cpu_moe"
        } else {
            "host_bandwidth_gb_s"
        };
        assert!(text.contains(name), "{json}: {text}");
    }
}

/// The link carries the settings and reads them back.
#[test]
fn a_link_keeps_the_experts_setting() {
    let s = qwen(
        "gguf-q4_k_m",
        r#"{"n_cpu_moe":20,"host_bandwidth_gb_s":85.5}"#,
    );
    let pairs = vramfit_core::query::to_pairs(&s);
    let (back, notes) = vramfit_core::query::from_pairs(&pairs);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back.engine, s.engine);
}
