//! Shared helpers for the cross-crate tests: locating the calibration cases in `tests/calibration/`,
//! and keeping the generated tables of `docs/accuracy.md` (and the generated documents of `docs/`)
//! in sync with what the tests print.

use serde_json::{json, Value};
use std::path::PathBuf;

const MIB: f64 = (1u64 << 20) as f64;
const GIB: f64 = (1u64 << 30) as f64;

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}

/// A file of the calibration set (`tests/calibration/NAME`, in the repository: a clone has no
/// other folder beside it).
pub fn calibration_file(name: &str) -> PathBuf {
    repo_root().join("tests").join("calibration").join(name)
}

/// Checks that `docs/accuracy.md` holds `table` between `<!-- NAME:start -->` and
/// `<!-- NAME:end -->`; with `UPDATE_DOCS=1` (or the older `UPDATE_README=1`) it rewrites that
/// section instead. Returns an error message if stale.
pub fn sync_accuracy_section(name: &str, table: &str) -> Result<(), String> {
    let path = repo_root().join("docs").join("accuracy.md");
    let doc = std::fs::read_to_string(&path).map_err(|e| format!("docs/accuracy.md: {e}"))?;
    let start = format!("<!-- {name}:start -->\n");
    let end = format!("<!-- {name}:end -->");
    let (Some(a), Some(b)) = (doc.find(&start), doc.find(&end)) else {
        return Err(format!("docs/accuracy.md lacks the {name} markers"));
    };
    let current = &doc[a + start.len()..b];
    if current == table {
        return Ok(());
    }
    let update = |var: &str| std::env::var(var).as_deref() == Ok("1");
    if update("UPDATE_DOCS") || update("UPDATE_README") {
        if std::env::var_os("CI").is_some() {
            return Err(format!(
                "docs/accuracy.md's {name} table is stale, and rewriting it is refused under CI"
            ));
        }
        let updated = format!("{}{}{}", &doc[..a + start.len()], table, &doc[b..]);
        return std::fs::write(&path, updated).map_err(|e| format!("docs/accuracy.md: {e}"));
    }
    Err(format!(
        "docs/accuracy.md's {name} table is stale: run `UPDATE_DOCS=1 cargo test -p vramfit-tests` and commit"
    ))
}

/// Whether `|x| ≤ bound`: false for NaN, so a missing figure (NaN) fails a bound instead of
/// passing it as `|x| > bound` would.
pub fn within(x: f64, bound: f64) -> bool {
    x.abs() <= bound
}

/// Checks that the generated document `docs/NAME` holds `text`; with `UPDATE_DOCS=1` (refused
/// under `CI`, where a stale document must fail) it writes it instead.
pub fn sync_doc(name: &str, text: &str) -> Result<(), String> {
    let path = repo_root().join("docs").join(name);
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current == text {
        return Ok(());
    }
    if std::env::var("UPDATE_DOCS").as_deref() == Ok("1") {
        if std::env::var_os("CI").is_some() {
            return Err(format!(
                "docs/{name} is stale, and UPDATE_DOCS is refused under CI"
            ));
        }
        return std::fs::write(&path, text).map_err(|e| format!("docs/{name}: {e}"));
    }
    Err(format!(
        "docs/{name} is stale: run `UPDATE_DOCS=1 cargo test -p vramfit-tests` and commit"
    ))
}

/// Ends an accuracy report: prints the markdown `rows`, fails on any case outside its bound (listed
/// in `failures`), then checks the section `name` of `docs/accuracy.md` holds the same table.
#[track_caller]
pub fn finish_report(name: &str, rows: &[String], failures: &[String]) {
    let table = rows.join("\n") + "\n";
    println!("{table}");
    assert!(
        failures.is_empty(),
        "outside the bounds:\n{}",
        failures.join("\n")
    );
    if let Err(e) = sync_accuracy_section(name, &table) {
        panic!("{e}");
    }
}

/// The `train` workload of a BERT row of `training.json` (HF Trainer 4.16 on torch 1.10 with
/// torch ≤ 1.9's autocast op lists: see `tests/training_calibration.rs`).
pub fn bert_train(case: &Value) -> Value {
    let fp16 = case["precision"].as_str().unwrap_or("") != "fp32";
    let optimizer = match case["optimizer"].as_str().unwrap_or("") {
        "adafactor" => "adafactor",
        o if o.contains("8bit") => "adamw8bit",
        _ => "adamw",
    };
    json!({
        "method": "full",
        "micro_batch": case["micro_batch"],
        "sequence_length": case["seq_len"],
        "gradient_accumulation": case["grad_accum"],
        "precision": if fp16 { "amp_fp16" } else { "fp32" },
        "optimizer": optimizer,
        "foreach": false,
        "checkpointing": if case["gradient_checkpointing"].as_bool().unwrap_or(false) { "full" } else { "none" },
        "flash_attention": false,
        "grads_persist": true,
        "autocast_gelu_fp32": fp16,
    })
}

/// torchtune recipe settings (model, card, GPUs, `train` workload) for each row (README + the recipe configs of that release).
pub fn torchtune(id: &str) -> Option<(&'static str, &'static str, u32, Value)> {
    let common = json!({"micro_batch": 2, "sequence_length": 2048, "precision": "bf16",
        "checkpointing": "full", "compiled": true, "chunked_loss": true});
    let with = |extra: Value| {
        let mut t = common.clone();
        if let (Some(t), Some(e)) = (t.as_object_mut(), extra.as_object()) {
            t.extend(e.clone());
        }
        t
    };
    Some(match id {
        "T01" => (
            "llama-3.1-8b-instruct",
            "rtx-4090",
            1,
            with(
                json!({"method": "full", "optimizer": "paged_adamw8bit", "optimizer_in_backward": true}),
            ),
        ),
        "T02" => (
            "llama-3.1-8b-instruct",
            "rtx-4090",
            1,
            with(json!({"method": "lora", "lora_rank": 8, "lora_targets": "query_value"})),
        ),
        "T03" => (
            "llama-3.1-8b-instruct",
            "rtx-4090",
            1,
            with(json!({"method": "qlora", "lora_rank": 8, "lora_targets": "all_linear"})),
        ),
        "T04" => (
            "llama-3.1-70b-instruct",
            "a100-sxm-80gb",
            8,
            with(
                json!({"method": "lora", "lora_rank": 16, "lora_targets": "query_key_value", "sharding": "zero3"}),
            ),
        ),
        _ => return None,
    })
}

/// The bound on each calibration row of `training.json` (|error| against the measurement, %):
/// what the estimate achieves there plus max(1 point, 30 % of it), rounded up to 0.1. A row
/// without one fails (its bound is NaN).
pub const TRAINING_BOUNDS: &[(&str, f64)] = &[
    // BERT-large, device memory (HF docs, "model training anatomy").
    ("B01", 1.2),
    ("B02", 2.4),
    ("B03", 2.7),
    ("B04", 1.2),
    ("B05", 2.2),
    ("B06", 1.7),
    ("B07", 2.0),
    ("B08", 2.5),
    ("B09", 1.9),
    // torchtune's README, torch's peak allocated.
    ("T01", 1.2),
    ("T02", 7.7),
    ("T03", 4.3),
    ("T04", 7.0),
];

/// A row of `training.json` as a scenario: (scenario, measured, unit bytes, bound in % from
/// [`TRAINING_BOUNDS`], whether the row measured torch's peak allocated rather than device
/// memory); `None` for a row no scenario reproduces.
pub fn training_case(case: &Value) -> Option<(Value, f64, f64, f64, bool)> {
    let id = case["id"].as_str().unwrap_or("?");
    let bound = TRAINING_BOUNDS
        .iter()
        .find(|(row, _)| *row == id)
        .map_or(f64::NAN, |&(_, b)| b);
    if let Some(mib) = case["measured_mib"].as_f64() {
        let s = json!({
            "model": {"hf_config": case["hf_config"]},
            "weights": "fp32",
            "workload": {"train": bert_train(case)},
            "hardware": {"gpu_memory_gib": 15.75, "count": 1, "cuda_context_mib": 1343},
        });
        Some((s, mib, MIB, bound, false))
    } else {
        let (model, gpu, count, train) = torchtune(id)?;
        let s = json!({
            "model": {"catalog": model},
            "weights": "bf16",
            "workload": {"train": train},
            "hardware": {"gpu": gpu, "count": count},
        });
        Some((
            s,
            case["measured_gib"].as_f64().unwrap_or(f64::NAN),
            GIB,
            bound,
            true,
        ))
    }
}
