//! Times `estimate` (including the full card recommendation, the inverse bisections and the curve)
//! natively: the mean over the catalog models, and the slowest single estimate over the stress
//! scenarios below and the fuzzer's regression cases (`tests/fuzz/*.json`).
//! Run: `cargo run --release -p vramfit-core --example bench_estimate`.

use serde_json::{json, Value};
use std::time::Instant;
use vramfit_core::{catalog, estimate, ModelSource, Scenario, Workload};

/// A 1024-layer dense config (the accepted ceiling) at Llama-3.1-405B widths.
fn deep_config() -> Value {
    json!({"model_type": "llama", "hidden_size": 16384, "intermediate_size": 53248,
           "num_hidden_layers": 1024, "num_attention_heads": 128, "num_key_value_heads": 8,
           "head_dim": 128, "vocab_size": 128256, "max_position_embeddings": 131072})
}

/// Scenarios at the edges of what validation accepts, where the work is largest.
fn stress() -> Vec<(String, Value)> {
    let deep = json!({"hf_config": deep_config()});
    let moe = json!({"hf_config": {"model_type": "deepseek_v3", "hidden_size": 7168,
        "intermediate_size": 18432, "num_hidden_layers": 1024, "num_attention_heads": 128,
        "num_key_value_heads": 128, "vocab_size": 129280, "n_routed_experts": 4096,
        "num_experts_per_tok": 8, "moe_intermediate_size": 2048, "n_shared_experts": 1,
        "first_k_dense_replace": 3, "kv_lora_rank": 512, "q_lora_rank": 1536,
        "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128}});
    let patterns: Vec<String> = (0..256)
        .map(|i| format!("model.layers.{}.mlp", i * 4))
        .collect();
    let serve =
        |ctx: u32, seqs: u32| json!({"inference": {"context_tokens": ctx, "sequences": seqs}});
    let mut out = Vec::new();
    for (engine, e) in [
        ("neutral", Value::Null),
        ("vllm", json!({"vllm": {}})),
        ("sglang", json!({"sglang": {}})),
        ("llama.cpp", json!({"llama_cpp": {"n_gpu_layers": 700}})),
        (
            "transformers",
            json!({"transformers": {"attn_implementation": "eager"}}),
        ),
    ] {
        for (weights, model) in [
            ("gguf-q4_k_m", &deep),
            ("bnb-nf4", &deep),
            ("fp8-block", &moe),
        ] {
            let mut s = json!({"model": model, "weights": weights, "workload": serve(32768, 64)});
            if !e.is_null() {
                s["engine"] = e.clone();
            }
            out.push((format!("1024 layers, {weights}, {engine}"), s));
        }
    }
    out.push((
        "1024 layers, 256 unquantized modules".into(),
        json!({"model": deep, "weights": "bnb-nf4", "unquantized_modules": patterns,
               "workload": serve(8192, 4)}),
    ));
    for method in ["full", "lora", "qlora"] {
        out.push((
            format!("1024 layers, training {method}"),
            json!({"model": deep, "workload": {"train": {"method": method, "micro_batch": 8,
                "sequence_length": 8192, "lora_targets": "all_linear", "optimizer": "adafactor",
                "trainable_top_layers": 500}}}),
        ));
    }
    out.push((
        "video 8192² × 1025 frames × 64, naive attention".into(),
        json!({"workload": {"generate_video": {"pipeline": "hunyuanvideo", "width": 8192,
            "height": 8192, "frames": 1025, "batch": 64, "attention": "naive"}}}),
    ));
    // Tiled decodes of the same size visit a few candidate tiles, not thousands (CogVideoX's
    // decoder loops over frames inside each tile).
    for pipeline in [
        "cogvideox-5b",
        "hunyuanvideo",
        "wan21-t2v-1.3b",
        "ltx-video",
    ] {
        out.push((
            format!("video 8192² × 1025 frames × 64, {pipeline}, VAE tiling"),
            json!({"workload": {"generate_video": {"pipeline": pipeline, "width": 8192,
                "height": 8192, "frames": 1025, "batch": 64, "vae_tiling": true}}}),
        ));
    }
    out
}

/// The fuzzer's regression cases, by file name.
fn regression_cases() -> Vec<(String, Value)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fuzz");
    let mut out: Vec<(String, Value)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| {
            let text = std::fs::read_to_string(e.path()).ok()?;
            Some((
                e.file_name().to_string_lossy().into_owned(),
                serde_json::from_str(&text).ok()?,
            ))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn main() {
    let mut scenarios = Vec::new();
    for m in catalog::models() {
        let mut s = Scenario::example();
        s.model = Some(ModelSource::Catalog(m.id.to_string()));
        if let Workload::Inference(inf) = &mut s.workload {
            inf.context_tokens = 32768;
        }
        scenarios.push(s);
    }
    let rounds: usize = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(200);
    let start = Instant::now();
    let mut checksum = 0u64;
    for _ in 0..rounds {
        for s in &scenarios {
            checksum = checksum.wrapping_add(estimate(s).map_or(0, |e| e.total_bytes));
        }
    }
    let n = rounds * scenarios.len();
    let per = start.elapsed().as_secs_f64() / n as f64;
    println!("estimate (with recommendation over the GPU catalog): {:.1} µs per call over {n} calls (checksum {checksum})", per * 1e6);

    let skip: Vec<String> = std::env::var("BENCH_SKIP")
        .unwrap_or_default()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let mut slowest = (0.0f64, String::new());
    for (name, value) in stress().into_iter().chain(regression_cases()) {
        if skip.iter().any(|s| name.contains(s.as_str())) {
            continue;
        }
        let Ok(s) = serde_json::from_value::<Scenario>(value) else {
            continue;
        };
        let mut best = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            let r = estimate(&s);
            best = best.min(t.elapsed().as_secs_f64());
            checksum = checksum.wrapping_add(r.map_or(1, |e| e.total_bytes));
        }
        if std::env::var("BENCH_VERBOSE").is_ok() {
            println!("  {:>9.3} ms  {name}", best * 1e3);
        }
        if best > slowest.0 {
            slowest = (best, name);
        }
    }
    println!(
        "slowest estimate over the stress and fuzz regression scenarios: {:.2} ms ({})",
        slowest.0 * 1e3,
        slowest.1
    );
}
