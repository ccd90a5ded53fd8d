//! The speed model against published llama.cpp measurements (`tests/calibration/
//! speed_llama_cpp.json`, each row with its source): every row runs as a scenario through the
//! estimate — the same path as the page and the CLI — and the predicted decode and prefill
//! tokens/s are compared with the measured ones. The table goes to `docs/accuracy-speed.md`; the
//! error bands the page shows ([`vramfit_core`]'s `error_band_percent`) must be what these rows
//! measure, and the medians must stay within the targets.

use serde_json::{json, Value};
use vramfit_core::{estimate, Scenario, Speed};
use vramfit_tests::{calibration_file, sync_doc};

/// Llama 2 7B's `config.json` (meta-llama/Llama-2-7b-hf): not in the catalog, so its
/// architecture comes the way a pasted config does.
fn llama2_7b() -> Value {
    json!({"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,
        "intermediate_size":11008,"num_hidden_layers":32,"num_attention_heads":32,
        "num_key_value_heads":32,"vocab_size":32000,"max_position_embeddings":4096,
        "rms_norm_eps":1e-5,"tie_word_embeddings":false,"torch_dtype":"float16"})
}

fn model(arch: &str) -> Value {
    match arch {
        "llama2-7b" => json!({"hf_config": llama2_7b()}),
        "llama3-8b" => json!({"catalog": "meta-llama-3-8b"}),
        "llama3-70b" => json!({"catalog": "meta-llama-3-70b"}),
        other => json!({"catalog": other}),
    }
}

fn weights(w: &str) -> String {
    match w {
        "mxfp4" => "mxfp4".into(),
        w => format!("gguf-{w}"),
    }
}

/// (decode tokens/s, prefill tokens/s) the estimate predicts for a row.
fn predict(row: &Value) -> (f64, Option<f64>) {
    let run = |tokens: u64| -> Speed {
        let s: Scenario = serde_json::from_value(json!({
            "model": model(row["arch"].as_str().expect("arch")),
            "weights": weights(row["weights"].as_str().expect("weights")),
            "workload": {"inference": {"context_tokens": tokens, "sequences": 1}},
            "hardware": {"gpu": row["gpu"], "count": row["gpu_count"]},
            "engine": {"llama_cpp": {}},
        }))
        .expect("a valid scenario");
        let e = estimate(&s).expect("estimates");
        e.speed.expect("a speed for a catalog card")
    };
    let Speed::Serving(tg) = run(row["tg_tokens"].as_u64().expect("tg_tokens")) else {
        panic!("serving speed")
    };
    let pp = row["pp_tokens"].as_u64().map(|t| match run(t) {
        Speed::Serving(s) => s.prefill_tokens_per_s,
        _ => panic!("serving speed"),
    });
    (tg.decode_tokens_per_s, pp)
}

fn percentile(errors: &[f64], p: f64) -> f64 {
    let mut a: Vec<f64> = errors.iter().map(|e| e.abs()).collect();
    a.sort_by(f64::total_cmp);
    a[((a.len() as f64 * p) as usize).min(a.len() - 1)]
}

#[test]
fn speed_against_llama_cpp_measurements() {
    let text = std::fs::read_to_string(calibration_file("speed_llama_cpp.json")).expect("rows");
    let data: Value = serde_json::from_str(&text).expect("json");
    let rows = data["rows"].as_array().expect("rows");
    assert_eq!(
        rows.len(),
        vramfit_core::speed_calibration_rows(),
        "every row of the calibration set is used, and the page says how many"
    );
    let mut table = vec![
        "| row | card | cards | backend | model | weights | decode measured | predicted | error | prefill measured | predicted | error |".to_string(),
        "|---|---|---:|---|---|---|---:|---:|---:|---:|---:|---:|".to_string(),
    ];
    let (mut tg_err, mut pp_err) = (Vec::new(), Vec::new());
    for row in rows {
        let (tg, pp) = predict(row);
        let tg_measured = row["tg_tokens_per_s"]
            .as_f64()
            .expect("every row has a decode figure");
        let e = tg / tg_measured - 1.0;
        assert!(e.is_finite(), "{}: no decode prediction", row["id"]);
        tg_err.push(e);
        let pp_measured = row["pp_tokens_per_s"].as_f64();
        let pe = match (pp, pp_measured) {
            (Some(p), Some(m)) => {
                let pe = p / m - 1.0;
                assert!(pe.is_finite(), "{}: no prefill prediction", row["id"]);
                pp_err.push(pe);
                Some(pe)
            }
            _ => None,
        };
        let s = |v: &Value| v.as_str().unwrap_or("").to_string();
        table.push(format!(
            "| {} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {:+.0} % | {} | {} | {} |",
            s(&row["id"]),
            s(&row["gpu"]),
            row["gpu_count"],
            s(&row["backend"]),
            s(&row["model"]),
            s(&row["weights"]),
            tg_measured,
            tg,
            e * 100.0,
            pp_measured.map_or("–".into(), |m| format!("{m:.0}")),
            pp.map_or("–".into(), |p| format!("{p:.0}")),
            pe.map_or("–".into(), |e| format!("{:+.0} %", e * 100.0)),
        ));
    }
    assert_eq!(pp_err.len(), rows.len(), "every row has a prefill figure");
    let tg_median = percentile(&tg_err, 0.5);
    let tg_p80 = percentile(&tg_err, 0.8);
    let tg_within20 = tg_err.iter().filter(|e| e.abs() <= 0.2).count();
    let pp_median = percentile(&pp_err, 0.5);
    let pp_p80 = percentile(&pp_err, 0.8);
    let summary = format!(
        "Decode: median error {:.1} %, 80th percentile {:.1} %, {} of {} rows within 20 %, worst {:.0} %.\n\
         Prefill: median error {:.1} %, 80th percentile {:.1} %, worst {:.0} %.\n",
        tg_median * 100.0,
        tg_p80 * 100.0,
        tg_within20,
        tg_err.len(),
        percentile(&tg_err, 1.0) * 100.0,
        pp_median * 100.0,
        pp_p80 * 100.0,
        percentile(&pp_err, 1.0) * 100.0,
    );
    let doc = format!(
        "# Speed accuracy\n\n\
         Written by `tests/tests/speed_calibration.rs` (`UPDATE_DOCS=1 cargo test -p vramfit-tests --test speed_calibration`): \
         every published llama.cpp measurement in `tests/calibration/speed_llama_cpp.json` \
         (sources in `tests/calibration/speed_llama_cpp.md`) run as a scenario through the estimate. \
         Decode is one sequence at the row's generation length (`tg`), prefill one prompt of the row's \
         prompt length (`pp`). The model's efficiencies are fitted on these rows per backend, weight \
         class and memory kind (`crates/vramfit-core/src/plans/speed/fitted.rs`), never per card; the \
         bands the page shows are the 80th percentiles below, rounded up.\n\n\
         {summary}\n{}\n",
        table.join("\n")
    );
    println!("{doc}");
    let band = |p80: f64| (p80 * 100.0).ceil() as u32;
    let mut failures = Vec::new();
    if tg_median > 0.10 {
        failures.push(format!("decode median {:.1} % > 10 %", tg_median * 100.0));
    }
    if tg_within20 * 5 < tg_err.len() * 4 {
        failures.push(format!(
            "decode within 20 % on {tg_within20} of {} rows (< 80 %)",
            tg_err.len()
        ));
    }
    if pp_median > 0.25 {
        failures.push(format!("prefill median {:.1} % > 25 %", pp_median * 100.0));
    }
    if band(tg_p80) != vramfit_core::speed_bands().0 {
        failures.push(format!(
            "DECODE_BAND_PERCENT is {} but the rows measure {}",
            vramfit_core::speed_bands().0,
            band(tg_p80)
        ));
    }
    if band(pp_p80) != vramfit_core::speed_bands().1 {
        failures.push(format!(
            "PREFILL_BAND_PERCENT is {} but the rows measure {}",
            vramfit_core::speed_bands().1,
            band(pp_p80)
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if let Err(e) = sync_doc("accuracy-speed.md", &doc) {
        panic!("{e}");
    }
}
