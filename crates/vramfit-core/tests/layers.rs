//! The core's imports point down only. Each top-level module has a layer; a module may use
//! (`crate::…`) only modules of a strictly lower layer (and itself). The layers, bottom up, are
//! the table in ARCHITECTURE.md ("The core"); a new module must be added here with its layer.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// (module, layer), bottom up.
const LAYERS: &[(&str, u32)] = &[
    // Leaf units and ranges.
    ("bytes", 0),
    ("limits", 0),
    ("num", 0),
    // Model, quantisation types and formats, catalogs, the config.json reader.
    ("gguf", 1),
    ("model", 1),
    ("kv_format", 1),
    ("format", 2),
    ("catalog", 3),
    ("import", 3),
    // The budget vocabulary: components, card, peak phase, the per-GPU result type.
    ("budget", 4),
    // Each workload: its types, its `validate`, its budget. Never another workload.
    ("engine", 5),
    ("training", 5),
    ("diffusion", 5),
    ("custom", 5),
    // The scenario aggregates the workloads.
    ("scenario", 6),
    // The one dispatch over workloads, and which software runs on which card.
    ("dispatch", 7),
    ("stack", 7),
    // Plans, then their speed and price, then what evaluates many plans.
    ("plan", 8),
    ("speed", 9),
    ("price", 10),
    ("recommend", 11),
    ("inverse", 11),
    ("rules", 11),
    ("warning", 11),
    ("change", 11),
    // The estimate, then what is built on estimates.
    ("estimate", 12),
    ("measure", 13),
    ("fixes", 13),
    ("query", 13),
    ("header", 13),
    ("runs_on", 13),
    ("error_text", 14),
];

/// Items re-exported at the crate root (`pub use module::…;` in `src/lib.rs`), each with the
/// top-level module it comes from, so that `crate::Plan` counts as a use of `plan`.
fn root_items() -> &'static [(String, String)] {
    static ITEMS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    ITEMS.get_or_init(|| {
        let lib = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
        let text = std::fs::read_to_string(lib).expect("src/lib.rs");
        let code: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let mut items = Vec::new();
        for statement in code.split(';') {
            let Some(path) = statement.trim_start().strip_prefix("pub use ") else {
                continue;
            };
            let Some((module, rest)) = path.split_once("::") else {
                continue;
            };
            for part in rest.split(['{', '}', ',']) {
                let leaf = part.rsplit("::").next().unwrap_or("");
                let name = leaf.rsplit(" as ").next().unwrap_or("").trim();
                if !name.is_empty() {
                    items.push((name.to_string(), module.trim().to_string()));
                }
            }
        }
        items
    })
}

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src").flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a source file belongs to (`src/engine/vllm.rs` → `engine`).
fn owner(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_string()
}

/// The top-level modules a line of code names with `crate::`, including `use crate::{a, b::c}`.
fn imported(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.insert(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.insert(name);
        }
    }
    found
        .into_iter()
        .map(|n| {
            root_items()
                .iter()
                .find(|(item, _)| *item == n)
                .map_or(n, |(_, m)| m.clone())
        })
        .collect()
}

fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut bad = Vec::new();
    for file in files {
        let me = owner(src, &file);
        if me == "lib" {
            continue;
        }
        let Some(mine) = layer(&me) else {
            bad.push(format!("module `{me}` has no layer in tests/layers.rs"));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("read");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for used in imported(code) {
                if used == me {
                    continue;
                }
                match layer(&used) {
                    Some(l) if l < mine => {}
                    Some(l) => bad.push(format!(
                        "{}:{}: `{me}` (layer {mine}) uses `{used}` (layer {l})",
                        file.display(),
                        n + 1
                    )),
                    None => bad.push(format!(
                        "{}:{}: `{used}` has no layer",
                        file.display(),
                        n + 1
                    )),
                }
            }
        }
    }
    bad
}

#[test]
fn core_imports_point_down_only() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let bad = violations(&src);
    assert!(
        bad.is_empty(),
        "imports pointing up or sideways:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_reader_sees_grouped_and_root_imports() {
    let got = imported("use crate::{budget::Card, engine, Estimate, Role, hf_config};");
    let want: BTreeSet<String> = ["budget", "diffusion", "engine", "estimate", "import"]
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(got, want);
}
