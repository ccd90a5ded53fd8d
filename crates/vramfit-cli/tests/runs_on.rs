//! `vramfit runs-on GPU [--count N] [--engine E]`: every catalog model in its common formats on a
//! card, through the binary a user runs.

use serde_json::Value;
use std::process::Command;

fn runs_on(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .arg("runs-on")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn lists_the_catalog_on_a_4090() {
    let (code, out, err) = runs_on(&["rtx-4090"]);
    assert_eq!(code, 0, "{err}");
    let list: Vec<Value> = serde_json::from_str(&out).expect("a JSON array");
    let models: std::collections::BTreeSet<&str> =
        list.iter().filter_map(|r| r["model"].as_str()).collect();
    assert!(models.len() >= 50, "{} models", models.len());
    for r in &list {
        for key in [
            "model",
            "weights",
            "fits",
            "max_context_tokens",
            "decode_tokens_per_s",
        ] {
            assert!(r.get(key).is_some(), "{r} lacks {key}");
        }
        // A model that fits has a speed; one that does not fit at all, none.
        if r["fits"] == true {
            assert!(
                r["decode_tokens_per_s"].as_f64().is_some_and(|t| t > 0.0),
                "{r}"
            );
        }
        if r["verdict"] == "does_not_fit" {
            assert!(r["decode_tokens_per_s"].is_null(), "{r}");
        }
    }
    let fits = |model: &str, weights: &str| {
        list.iter()
            .find(|r| r["model"] == model && r["weights"] == weights)
            .map(|r| r["fits"] == true)
    };
    assert_eq!(fits("llama-3.1-8b-instruct", "bf16"), Some(true));
    assert_eq!(fits("llama-3.3-70b-instruct", "bf16"), Some(false));
}

#[test]
fn llama_cpp_lists_gguf_and_a_second_card_raises_what_fits() {
    let count = |args: &[&str]| {
        let (code, out, err) = runs_on(args);
        assert_eq!(code, 0, "{err}");
        let list: Vec<Value> = serde_json::from_str(&out).expect("array");
        assert!(list.iter().all(|r| r["weights"]
            .as_str()
            .is_some_and(|w| w.starts_with("gguf-"))));
        list.iter().filter(|r| r["fits"] == true).count()
    };
    let one = count(&["rtx-3090", "--engine", "llama_cpp"]);
    let two = count(&["rtx-3090", "--count", "2", "--engine", "llama-cpp"]);
    assert!(two > one, "{two} ≤ {one}");
}

#[test]
fn bad_arguments_say_why() {
    for (args, says) in [
        (vec![], "needs a GPU"),
        (vec!["no-such-card"], "unknown GPU"),
        (vec!["l40s", "--count", "0"], "--count"),
        (vec!["l40s", "--engine", "tensorrt"], "unknown engine"),
    ] {
        let (code, _, err) = runs_on(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// The estimate's JSON carries the renter's contract at the top level and on every
/// ranked offer: `speed` {decode_tokens_per_s, decode_tokens_per_s_total, prefill_tokens_per_s,
/// time_to_first_token_ms, error_band_percent, basis} and `cost` {usd_per_hour,
/// usd_per_million_output_tokens, price_source, price_as_of}.
#[test]
fn the_estimate_json_carries_speed_and_cost() {
    let scenario = r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":8192,"sequences":4}},"recommend_by":"cost_per_token","prices_usd_per_hour":{"rtx-4090":0.3}}"#;
    let v: Value =
        serde_json::from_str(&vramfit_cli::run(scenario).expect("estimates")).expect("json");
    let speed_keys = [
        "decode_tokens_per_s",
        "decode_tokens_per_s_total",
        "prefill_tokens_per_s",
        "time_to_first_token_ms",
        "error_band_percent",
        "basis",
    ];
    let cost_keys = [
        "usd_per_hour",
        "usd_per_million_output_tokens",
        "price_source",
        "price_as_of",
    ];
    let check = |o: &Value, what: &str| {
        for k in speed_keys {
            assert!(
                o["speed"].get(k).is_some(),
                "{what}: speed.{k} in {}",
                o["speed"]
            );
        }
        for k in cost_keys {
            assert!(
                o["cost"].get(k).is_some(),
                "{what}: cost.{k} in {}",
                o["cost"]
            );
        }
    };
    check(&v, "estimate");
    let alternatives = v["recommendation"]["alternatives"]
        .as_array()
        .expect("alternatives");
    assert!(!alternatives.is_empty());
    for (i, o) in alternatives.iter().enumerate() {
        check(o, &format!("alternative {i}"));
    }
    assert_eq!(v["recommendation"]["by"], "cost_per_token");
    // Ranked by $ per million tokens, lowest first.
    let per_m: Vec<f64> = alternatives
        .iter()
        .map(|o| {
            o["cost"]["usd_per_million_output_tokens"]
                .as_f64()
                .expect("a number")
        })
        .collect();
    assert!(per_m.windows(2).all(|w| w[0] <= w[1]), "{per_m:?}");
}
