//! Accuracy report against the public vLLM start-up profiles in `tests/calibration/`.
//!
//! Each case runs through the CLI's scenario path (`vramfit_cli::run_value`) with the vLLM engine:
//! the model's `config.json` from `configs.json` as `hf_config`, the case's weight format, card
//! memory, `gpu_memory_utilization`, `max_model_len`, `max_num_seqs`, `max_num_batched_tokens`
//! where the case states it, and the engine generation from its version string (≤ 0.6.4 →
//! `v0-legacy`, other V0 → `v0`, V1 → `v1`), on `tensor_parallel_size` cards of that memory with
//! the same tensor-parallel size. Printed per case, predicted / measured: weights (one GPU's share),
//! non-torch memory, activation peak, KV cache GiB, KV tokens and maximum concurrency. A case
//! whose log ends before the KV cache is sized (A33) checks the weights only.
//!
//! Where a case's description leaves out how the run was set up, the facts of the public setup
//! are supplied by [`checkpoint_facts`], each with its source: which checkpoint was really loaded
//! (its `quantization_config`: double quantisation, `llm_int8_skip_modules`) and the LoRA rank the
//! training stack asked vLLM to reserve. These are properties of the runs, not fitted numbers.
//!
//! Bounds are asserted per figure near what each case achieves (see the test). The same engine
//! model serves every case, but two of its constants were read off these logs, so the cells they
//! set are marked "fitted", not out-of-sample checks: vLLM's non-torch overheads
//! (`workloads/engine/vllm.rs`: 0.01 GiB, +0.07 with bitsandbytes, +0.06 for V1) equal the logged non-torch
//! memory of the cases of each kind (the whole non-torch column), and the 0.35 GiB CUDA context
//! (`budget/runtime.rs`) is A04 / A05's log, whose engine (≤ 0.6.4) counts the context inside its
//! budget, so their KV cells too. Every other cell is out of sample; the misses are printed.

use serde_json::{json, Value};
use vramfit_tests::{calibration_file, finish_report};

const GIB: f64 = (1u64 << 30) as f64;

fn read(name: &str) -> Value {
    let path = calibration_file(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn component(est: &Value, id: &str) -> f64 {
    est["plan"]["per_gpu_components"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["id"] == id))
        .and_then(|c| c["bytes"].as_f64())
        .unwrap_or(0.0)
        / GIB
}

fn pct(pred: f64, meas: f64) -> f64 {
    (pred - meas) / meas * 100.0
}

/// The scenario's weight format for a case's description.
fn format_of(desc: &str) -> &'static str {
    match desc {
        d if d.starts_with("bnb-nf4") && !d.contains("no double") => "bnb-nf4-dq",
        d if d.starts_with("bnb-nf4") => "bnb-nf4",
        d if d.starts_with("bnb-fp4") && d.contains("no double") => "bnb-fp4",
        d if d.starts_with("bnb-fp4") => "bnb-fp4-dq",
        "fp16" => "fp16",
        _ => "bf16",
    }
}

/// The engine generation for a case's version string.
fn version_of(v: &str) -> &'static str {
    if v.contains("V1") {
        "v1"
    } else if v.starts_with("0.6.4") || v.starts_with("0.6.3") || v.starts_with("0.5") {
        "v0-legacy"
    } else {
        "v0"
    }
}

/// Facts of a case's public setup that its description leaves out: (weight format, modules the
/// checkpoint leaves unquantised, `max_lora_rank`).
fn checkpoint_facts(id: &str) -> Option<(&'static str, &'static [&'static str], u32)> {
    match id {
        // The run log (RLDecisionAgent notes) loads unsloth/qwen2.5-0.5b-instruct-unsloth-bnb-4bit:
        // nf4 + double quant, `llm_int8_skip_modules` = layer 0 attention and the MLPs of layers 0,
        // 2, 3, 21 (its config.json); ART (src/art/dev/model.py) starts vLLM with LoRA rank 8.
        "A16" => Some((
            "bnb-nf4-dq",
            &[
                "model.layers.0.self_attn",
                "model.layers.0.mlp",
                "model.layers.2.mlp",
                "model.layers.3.mlp",
                "model.layers.21.mlp",
            ],
            8,
        )),
        // Unsloth's loader (unsloth/models/loader.py) swaps unsloth/phi-4-unsloth-bnb-4bit, which
        // vLLM cannot load, for unsloth/phi-4-bnb-4bit (nf4 + double quant, lm_head bf16); the GRPO
        // notebook passes lora_rank = 16 and `load_vllm` enables LoRA with max_loras = 1.
        "A18" => Some(("bnb-nf4-dq", &[], 16)),
        _ => None,
    }
}

fn cell(pred: f64, meas: Option<f64>, digits: usize) -> String {
    match meas {
        Some(m) => format!("{pred:.digits$} / {m:.digits$}"),
        None => format!("{pred:.digits$} / –"),
    }
}

#[test]
fn vllm_profiles_accuracy() {
    let profiles = read("vllm_profiles.json");
    let configs = read("configs.json");
    let mut rows = vec![
        "| case | model | format, vLLM | weights GiB | non-torch GiB (fitted) | activation GiB | KV GiB | KV err (of budget) | KV tokens | max concurrency |".to_string(),
        "|---|---|---|---|---|---|---|---|---|---|".to_string(),
    ];
    let mut failures = Vec::new();
    for case in profiles["cases"].as_array().expect("cases") {
        let id = case["id"].as_str().unwrap_or("?");
        let model = case["model"].as_str().unwrap_or("?");
        let facts = checkpoint_facts(id);
        let format = facts.map_or_else(
            || format_of(case["weights"].as_str().unwrap_or("")),
            |f| f.0,
        );
        let version = version_of(case["vllm"].as_str().unwrap_or(""));
        let total = case["gpu_total_gib"].as_f64().unwrap_or(0.0);
        let util = case["gpu_memory_utilization"].as_f64().unwrap_or(0.9);
        let tp = case["tensor_parallel_size"].as_u64().unwrap_or(1);
        let mut vllm = json!({
            "gpu_memory_utilization": util,
            "max_model_len": case["max_model_len"],
            "max_num_seqs": case["max_num_seqs"],
            "tensor_parallel_size": tp,
            "version": version,
        });
        if let Some(t) = case.get("max_num_batched_tokens") {
            vllm["max_num_batched_tokens"] = t.clone();
        }
        if let Some((_, _, rank)) = facts {
            vllm["max_lora_rank"] = json!(rank);
        }
        let mut scenario = json!({
            "model": {"hf_config": configs["configs"][model]},
            "weights": format,
            "workload": {"inference": {"context_tokens": case["max_model_len"], "sequences": 1}},
            "hardware": {"gpu_memory_gib": total, "count": tp},
            "engine": {"vllm": vllm},
        });
        if let Some((_, skip, _)) = facts.filter(|f| !f.1.is_empty()) {
            scenario["unquantized_modules"] = json!(skip);
        }
        let est =
            vramfit_cli::run_value(&scenario.to_string()).unwrap_or_else(|e| panic!("{id}: {e}"));
        let m = &case["measured"];
        let get = |k: &str| m.get(k).and_then(Value::as_f64);
        // vLLM's "model weights" include LoRA slots allocated while loading.
        let weights = component(&est, "weights") + component(&est, "lora_adapters");
        let non_torch = component(&est, "engine_overhead")
            + component(&est, "communication_buffers")
            + if version == "v0-legacy" {
                component(&est, "cuda_context")
            } else {
                0.0
            };
        let activation = component(&est, "activations");
        let kv = est["kv_cache_bytes"].as_f64().unwrap_or(0.0) / GIB;
        let tokens = est["kv_cache_tokens"].as_f64().unwrap_or(0.0);
        let conc = est["max_concurrency"].as_f64().unwrap_or(0.0);
        let budget = total * util;
        let w_meas = get("weights_gib").unwrap_or(f64::NAN);
        let kv_meas = get("kv_cache_gib");
        let kv_err = kv_meas.map(|m| (kv - m) / budget * 100.0);
        let w_err = pct(weights, w_meas);
        if w_err.is_nan() || w_err.abs() > 2.0 {
            failures.push(format!("{id}: weights {weights:.3} vs {w_meas:.3} GiB"));
        }
        // Each figure vLLM prints is bounded near what the estimate achieves, relative to the
        // figure itself. A01 / A02 are the named misses: their logs count 1.8 / 3.6 GiB of
        // non-torch memory the estimate does not model, which the KV cache then loses; they keep
        // a window, so they must still land within it.
        let named_miss = matches!(id, "A01" | "A02");
        let (kv_bound, non_torch_bound) = if named_miss { (5.0, 3.0) } else { (1.5, 0.05) };
        let mut bound = |what: &str, est: f64, meas: Option<f64>, pct_bound: f64| {
            if let Some(m) = meas {
                if !vramfit_tests::within(pct(est, m), pct_bound) {
                    failures.push(format!("{id}: {what} {est:.3} vs {m:.3} (±{pct_bound} %)"));
                }
            }
        };
        bound("KV GiB", kv, kv_meas, kv_bound);
        bound("KV tokens", tokens, get("kv_tokens"), 1.5);
        bound("max concurrency", conc, get("max_concurrency"), 1.5);
        bound(
            "activation peak",
            activation,
            get("activation_peak_gib"),
            5.0,
        );
        if let Some(m) = get("non_torch_gib") {
            if !vramfit_tests::within(non_torch - m, non_torch_bound) {
                failures.push(format!(
                    "{id}: non-torch {non_torch:.2} vs {m:.2} GiB (±{non_torch_bound} GiB)"
                ));
            }
        }
        let tp_note = if tp > 1 {
            format!(", TP {tp}")
        } else {
            String::new()
        };
        rows.push(format!(
            "| {id} | {model} | {format}, {version}{tp_note} | {} ({:+.1} %) | {} | {} | {} | {} | {} | {} |",
            cell(weights, Some(w_meas), 3),
            w_err,
            cell(non_torch, get("non_torch_gib"), 2),
            cell(activation, get("activation_peak_gib"), 2),
            // The CUDA context constant was read off these two logs (see the module doc).
            if matches!(id, "A04" | "A05") {
                format!("{} (fitted)", cell(kv, kv_meas, 2))
            } else {
                cell(kv, kv_meas, 2)
            },
            kv_err.map_or_else(|| "–".to_string(), |e| format!("{e:+.1} %")),
            cell(tokens, get("kv_tokens"), 0),
            cell(conc, get("max_concurrency"), 2),
        ));
    }
    finish_report("accuracy-vllm", &rows, &failures);
}
