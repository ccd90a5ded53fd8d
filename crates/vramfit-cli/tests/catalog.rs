//! `vramfit catalog models|gpus|pipelines`: the binary prints each catalog as a JSON array with ids,
//! names, repo ids, sizes and sources; an unknown catalog is a usage error (exit code 2).

use serde_json::Value;
use std::process::Command;

fn run(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(args)
        .output()
        .expect("vramfit runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn catalog(kind: &str) -> Vec<Value> {
    let (code, stdout) = run(&["catalog", kind]);
    assert_eq!(code, 0, "vramfit catalog {kind}");
    match serde_json::from_str(&stdout).expect("JSON") {
        Value::Array(items) => items,
        other => panic!("not an array: {other}"),
    }
}

fn str_field<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_else(|| panic!("{key} in {v}"))
}

#[test]
fn models_list_ids_repo_ids_parameters_and_sources() {
    let models = catalog("models");
    assert!(models.len() >= 100, "{} models", models.len());
    for m in &models {
        assert!(!str_field(m, "id").is_empty());
        assert!(!str_field(m, "name").is_empty());
        assert!(!str_field(m, "source").is_empty());
        let repos = m["repo_ids"].as_array().expect("repo_ids");
        assert!(repos
            .iter()
            .all(|r| r.as_str().is_some_and(|r| r.contains('/'))));
        assert!(!repos.is_empty());
        assert!(m["params"].as_u64().is_some_and(|p| p > 0));
        assert!(m["published_params"].as_u64().is_some_and(|p| p > 0));
        assert!(m["checkpoint_params"].as_u64() >= m["params"].as_u64());
        assert!(m["published_counts_mtp"].is_boolean());
    }
    // GLM-4.5-Air: the checkpoint adds its MTP layer to the served model.
    let air = models
        .iter()
        .find(|m| m["id"] == "glm-4.5-air")
        .expect("glm-4.5-air");
    assert_eq!(air["params"], 106_852_251_264_u64);
    assert_eq!(air["checkpoint_params"], 110_468_824_832_u64);
    assert_eq!(air["published_counts_mtp"], true);
    let llama = models
        .iter()
        .find(|m| m["id"] == "llama-3.1-8b-instruct")
        .expect("llama-3.1-8b-instruct");
    assert_eq!(llama["params"], 8_030_261_248_u64);
    assert_eq!(llama["family"], "llama");
    assert_eq!(llama["repo_ids"][0], "meta-llama/Llama-3.1-8B-Instruct");
    assert!(llama["repo_ids"].as_array().is_some_and(|r| r
        .iter()
        .any(|r| r == "meta-llama/Meta-Llama-3.1-8B-Instruct")));
}

#[test]
fn gpus_list_memory_as_marketed_and_as_reported_with_sources() {
    let gpus = catalog("gpus");
    let discrete = gpus.iter().filter(|g| g["unified"] == false).count();
    assert!(discrete >= 80, "{discrete} discrete GPUs");
    assert!(gpus.iter().any(|g| g["unified"] == true));
    for g in &gpus {
        assert!(!str_field(g, "id").is_empty());
        assert!(g["reported_mib"].as_u64().is_some_and(|m| m > 0));
        assert!(g["marketed_gb"].as_u64().is_some_and(|m| m > 0));
        let source = str_field(g, "source");
        assert!(source.starts_with("observed: ") || source.starts_with("derived: "));
    }
    let h100 = gpus
        .iter()
        .find(|g| g["id"] == "h100-sxm-80gb")
        .expect("h100-sxm-80gb");
    assert_eq!(h100["reported_mib"], 81090);
    assert_eq!(h100["interconnect"]["nv_link"], 900);
}

#[test]
fn pipelines_list_parts_and_repo_ids() {
    let pipelines = catalog("pipelines");
    assert!(pipelines.len() >= 14);
    for p in &pipelines {
        assert!(!str_field(p, "name").is_empty());
        assert!(p["repo_ids"].as_array().is_some_and(|r| !r.is_empty()));
        let parts = p["parts"].as_array().expect("parts");
        let sum: u64 = parts.iter().filter_map(|x| x["params"].as_u64()).sum();
        assert_eq!(p["params"].as_u64(), Some(sum));
    }
    let flux = pipelines
        .iter()
        .find(|p| p["id"] == "flux1-dev")
        .expect("flux1-dev");
    assert_eq!(flux["repo_ids"][0], "black-forest-labs/FLUX.1-dev");
}

#[test]
fn an_unknown_catalog_is_a_usage_error() {
    let (code, stdout) = run(&["catalog", "engines"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
}
