//! The page restates none of the core's closed sets: no value a scenario spells (an engine, a
//! cache type, a training or generation option, a format) is a string literal in the web crate;
//! its option lists come from the core's `ALL` and `id()`. A literal that is also the name of a
//! form field (`id="attention"`, `for="price"`) is the field, not the value; any other such line
//! says so in a comment that reads "not a core value".

use std::path::{Path, PathBuf};
use vramfit_core::{
    Attention, AttnImplementation, CacheImplementation, CacheType, Checkpointing, EngineKind,
    ItemKind, KvCacheFormat, LoraTargets, Method, Offload, Optimizer, PipelinePartFormat,
    RecommendBy, Sharding, TrainPrecision, VllmVersion, WorkloadKind,
};
use vramfit_tests::repo_root;

/// Every value the core's closed sets spell.
fn core_ids() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = Vec::new();
    ids.extend(EngineKind::ALL.map(EngineKind::id));
    ids.extend(CacheType::ALL.map(CacheType::id));
    ids.extend(AttnImplementation::ALL.map(AttnImplementation::id));
    ids.extend(CacheImplementation::ALL.map(CacheImplementation::id));
    ids.extend(VllmVersion::ALL.map(VllmVersion::id));
    ids.extend(WorkloadKind::ALL.map(WorkloadKind::short_id));
    ids.extend(RecommendBy::ALL.map(RecommendBy::id));
    ids.extend(KvCacheFormat::ALL.map(KvCacheFormat::id));
    ids.extend(PipelinePartFormat::ALL.map(PipelinePartFormat::id));
    ids.extend(Method::ALL.map(Method::id));
    ids.extend(LoraTargets::ALL.map(LoraTargets::id));
    ids.extend(TrainPrecision::ALL.map(TrainPrecision::id));
    ids.extend(Optimizer::ALL.map(Optimizer::id));
    ids.extend(Checkpointing::ALL.map(Checkpointing::id));
    ids.extend(Sharding::ALL.map(Sharding::id));
    ids.extend(Attention::ALL.map(Attention::id));
    ids.extend(Offload::ALL.map(Offload::id));
    ids.extend(ItemKind::ALL.map(ItemKind::id));
    ids
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder").flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// `(file:line, value)` for each literal of a core value in the web crate's code.
fn restated(ids: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&repo_root().join("crates/vramfit-web/src"), &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        for (n, line) in text.lines().enumerate() {
            let (code, comment) = line.split_once("//").unwrap_or((line, ""));
            if comment.contains("not a core value") {
                continue;
            }
            for id in ids {
                let literal = format!("\"{id}\"");
                let field = [format!("id={literal}"), format!("for={literal}")];
                if code.contains(&literal) && !field.iter().any(|f| code.contains(f.as_str())) {
                    found.push(format!("{}:{}: {literal}", file.display(), n + 1));
                }
            }
        }
    }
    found
}

#[test]
fn the_web_crate_spells_no_core_value() {
    let ids = core_ids();
    assert!(ids.len() > 60, "the closed sets hold {} values", ids.len());
    let found = restated(&ids);
    assert!(
        found.is_empty(),
        "core values restated in the web crate:\n{}",
        found.join("\n")
    );
}
