//! The web crate's imports point down only, as the core's do (`crates/vramfit-core/tests/layers.rs`).
//! Each folder (or top-level file) of `crates/vramfit-web/src` has a layer; a module may name
//! (`crate::…`) only its own folder and folders of a strictly lower layer. The order, bottom up, is
//! the one in the crate's `lib.rs` doc and ARCHITECTURE.md; a new folder must be added here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use vramfit_tests::repo_root;

/// (folder or top-level module, layer), bottom up.
const LAYERS: &[(&str, u32)] = &[
    // Leaves: fields, numbers, texts, widgets, the language as context; the browser's glue.
    ("ui", 0),
    ("platform", 0),
    // The user's own files; the answer half of the page.
    ("files", 1),
    ("answer", 1),
    // The input half: each workload's form and fieldset, the whole form.
    ("workload", 2),
    // The widget, then the page that also offers the widget's snippet.
    ("embed", 3),
    ("app", 4),
];

fn src() -> PathBuf {
    repo_root().join("crates/vramfit-web/src")
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

/// The folder or top-level module a file belongs to (`src/answer/speed.rs` → `answer`); `None`
/// for the crate root and the binaries, which only wire the modules together.
fn owner(file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src()).expect("under src");
    let first = rel.components().next()?.as_os_str().to_string_lossy();
    let name = first.trim_end_matches(".rs").to_string();
    (!matches!(name.as_str(), "lib" | "main" | "bin")).then_some(name)
}

/// The top-level modules a line names with `crate::`, including `use crate::{a, b::c}`.
fn imported(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let names: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group[..group.find('}').unwrap_or(group.len())]
                .split(',')
                .collect(),
            None => vec![rest],
        };
        for part in names {
            let name: String = part
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// Every `(file, module it names)` that breaks the order: an upward or sideways import, or a
/// module the table does not know.
fn violations() -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut bad = Vec::new();
    for file in files {
        let Some(me) = owner(&file) else { continue };
        let Some(mine) = layer(&me) else {
            bad.push(format!("{me}: not in LAYERS"));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable");
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            for used in imported(code) {
                if used == me {
                    continue;
                }
                match layer(&used) {
                    Some(l) if l < mine => {}
                    Some(_) => bad.push(format!("{}: {me} uses {used}", file.display())),
                    None => bad.push(format!("{}: {used} is not in LAYERS", file.display())),
                }
            }
        }
    }
    bad
}

#[test]
fn the_web_crates_imports_point_down() {
    let bad = violations();
    assert!(
        bad.is_empty(),
        "imports against the layer order:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_folder_has_a_layer_and_the_check_reads_some_imports() {
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(src()).expect("src").flatten() {
        if let Some(name) = owner(&entry.path()) {
            folders.push(name);
        }
    }
    for f in &folders {
        assert!(layer(f).is_some(), "{f} has no layer in LAYERS");
    }
    // The check cannot pass by reading nothing: the answer names the leaves.
    let answer = std::fs::read_to_string(src().join("answer/sections.rs")).expect("answer");
    assert!(imported(&answer).contains("ui"));
    // And it catches an upward import.
    assert!(layer("ui") < layer("answer"));
    assert_eq!(
        imported("use crate::{answer::x, ui::y};"),
        BTreeSet::from(["answer".to_string(), "ui".to_string()])
    );
}
