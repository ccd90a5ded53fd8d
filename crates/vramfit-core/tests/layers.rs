//! The core's imports point down only. `src/` holds one folder per layer, and [`LAYERS`] lists the
//! folders bottom up, as ARCHITECTURE.md ("The core") does. A module may use (`crate::…`) only
//! what is in a lower folder, or in an earlier group of its own folder (and itself); the modules
//! of one group never use each other. A new module must be added here, to its folder's groups.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The folders of `src/`, bottom up, each with its modules in groups, bottom up. `""` is the
/// folder's own `mod.rs` (the budget vocabulary, the scenario type, the estimate), counted with
/// the first group where no group names it. A folder whose only group is `[""]` is one module.
#[rustfmt::skip]
const LAYERS: &[(&str, &[&[&str]])] = &[
    ("units",     &[&["bytes", "limits", "num"]]),
    ("inputs",    &[&["gguf", "model", "kv_format"], &["format"], &["catalog", "import"]]),
    ("budget",    &[&[""]]),
    ("workloads", &[&["engine", "training", "diffusion", "custom"]]),
    ("scenario",  &[&[""], &["dispatch", "stack"]]),
    ("plans",     &[&["plan"], &["speed"], &["price"],
                    &["recommend", "inverse", "rules", "warning", "change"]]),
    ("estimate",  &[&[""], &["fixes", "runs_on"]]),
    ("adapters",  &[&["query", "measure", "header"], &["error_text"]]),
];

/// A module: its folder and its name in the folder (`""`: the folder's own `mod.rs`).
type Module = (String, String);

fn groups(folder: &str) -> Option<&'static [&'static [&'static str]]> {
    LAYERS.iter().find(|(f, _)| *f == folder).map(|&(_, g)| g)
}

/// The module `name` names in `folder`: itself if the table lists it, else the folder's own.
fn module(folder: &str, name: &str) -> Module {
    let listed = groups(folder).is_some_and(|g| g.iter().any(|g| g.contains(&name)));
    let name = if listed { name } else { "" };
    (folder.to_string(), name.to_string())
}

/// Where a module sits: (folder, group), bottom up.
fn position((folder, name): &Module) -> Option<(usize, usize)> {
    let f = LAYERS.iter().position(|(l, _)| l == folder)?;
    let g = LAYERS[f].1.iter().position(|g| g.contains(&name.as_str()));
    Some((f, g.or(name.is_empty().then_some(0))?))
}

fn show((folder, name): &Module) -> String {
    if name.is_empty() {
        folder.clone()
    } else {
        format!("{folder}::{name}")
    }
}

/// The paths of a use tree at the start of `s` (`a::{b, c::d as e}`), each with the name it binds;
/// returns them and the rest of `s`.
fn use_tree<'a>(s: &'a str, prefix: &[String], out: &mut Vec<(Vec<String>, String)>) -> &'a str {
    let s = s.trim_start();
    if let Some(mut rest) = s.strip_prefix('{') {
        loop {
            rest = rest.trim_start().trim_start_matches(',').trim_start();
            if let Some(after) = rest.strip_prefix('}') {
                return after;
            }
            let before = rest.len();
            rest = use_tree(rest, prefix, out);
            if rest.len() == before {
                return rest;
            }
        }
    }
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let name = ident(s);
    if name.is_empty() {
        return s; // `*`, or not a path
    }
    let mut path = prefix.to_vec();
    path.push(name.clone());
    let rest = &s[name.len()..];
    if let Some(rest) = rest.strip_prefix("::") {
        return use_tree(rest, &path, out);
    }
    let mut bound = name;
    let mut rest = rest;
    if let Some(alias) = rest.trim_start().strip_prefix("as ") {
        bound = ident(alias.trim_start());
        rest = &alias.trim_start()[bound.len()..];
    }
    out.push((path, bound));
    rest
}

/// Code without its comments (`//` to the end of each line), line by line.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Items re-exported at the crate root (`pub use …;` in `src/lib.rs`), each with the path it comes
/// from, so that `crate::Plan` counts as a use of `plans::plan`.
fn root_items() -> &'static [(Vec<String>, String)] {
    static ITEMS: OnceLock<Vec<(Vec<String>, String)>> = OnceLock::new();
    ITEMS.get_or_init(|| {
        let lib = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs");
        let lib = code(&std::fs::read_to_string(lib).expect("src/lib.rs"));
        let mut items = Vec::new();
        for statement in lib.split(';') {
            if let Some((_, tree)) = statement.split_once("pub use ") {
                use_tree(tree, &[], &mut items);
            }
        }
        items
    })
}

/// The module a `crate::` path names, through the crate root's re-exports.
fn resolve(path: &[String]) -> Option<Module> {
    let first = path.first()?;
    if groups(first).is_some() {
        return Some(module(first, path.get(1).map_or("", String::as_str)));
    }
    let (from, _) = root_items()
        .iter()
        .find(|(from, bound)| bound == first && from[0] != *first)?;
    resolve(from)
}

/// The paths `code` names with `crate::`, each with the line it starts on.
fn uses(code: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let mut paths = Vec::new();
        use_tree(&code[at + "crate::".len()..], &[], &mut paths);
        let line = code[..at].matches('\n').count() + 1;
        found.extend(paths.into_iter().map(|(p, _)| (line, p)));
    }
    found
}

/// The imports of one file (`rel`, under `src/`) that point up or sideways.
fn violations_in(rel: &Path, text: &str) -> Vec<String> {
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let name = parts.get(1).map_or("", |n| if n == "mod" { "" } else { n });
    let whole = groups(&parts[0]).is_some_and(|g| g.len() == 1 && g[0] == [""]);
    let me = if whole {
        module(&parts[0], "")
    } else {
        (parts[0].clone(), name.to_string())
    };
    let Some(mine) = position(&me) else {
        return vec![format!(
            "{}: `{}` has no layer in tests/layers.rs",
            rel.display(),
            show(&me)
        )];
    };
    let mut bad = Vec::new();
    for (line, path) in uses(&code(text)) {
        let used = resolve(&path);
        match used.as_ref().map(|u| (u, position(u))) {
            Some((used, _)) if *used == me => {}
            Some((_, Some(theirs))) if theirs < mine => {}
            Some((used, Some(_))) => bad.push(format!(
                "{}:{line}: `{}` uses `{}`, which is not below it",
                rel.display(),
                show(&me),
                show(used),
            )),
            _ => bad.push(format!(
                "{}:{line}: `crate::{}` has no layer",
                rel.display(),
                path.join("::")
            )),
        }
    }
    bad
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

#[test]
fn core_imports_point_down_only() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut bad = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src");
        if rel != Path::new("lib.rs") {
            let text = std::fs::read_to_string(&file).expect("read");
            bad.extend(violations_in(rel, &text));
        }
    }
    for (folder, groups) in LAYERS {
        for name in groups
            .iter()
            .flat_map(|g| g.iter())
            .filter(|n| !n.is_empty())
        {
            let at = src.join(folder).join(name);
            if !at.is_dir() && !at.with_extension("rs").is_file() {
                bad.push(format!(
                    "tests/layers.rs names `{folder}::{name}`, not in src/"
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports pointing up or sideways:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_reader_sees_grouped_nested_and_root_imports() {
    let code =
        "use crate::{budget::Card, workloads::{engine, diffusion::Offload as O}, Estimate,\n\
                Role, hf_config};\nlet p = crate::plans::plan::Plan::default();";
    let got: BTreeSet<String> = uses(code)
        .iter()
        .map(|(_, p)| show(&resolve(p).expect("placed")))
        .collect();
    let want = [
        "budget",
        "estimate",
        "inputs::import",
        "plans::plan",
        "workloads::diffusion",
        "workloads::engine",
    ];
    assert_eq!(got, want.into_iter().map(String::from).collect());
    assert_eq!(uses(code).last().map(|(line, _)| *line), Some(3));
}

#[test]
fn an_import_up_or_sideways_fails() {
    let check = |file: &str, code: &str| violations_in(Path::new(file), code).len();
    assert_eq!(
        check("plans/speed/mod.rs", "use crate::plans::plan::Plan;"),
        0
    );
    assert_eq!(
        check("plans/plan/mod.rs", "use crate::plans::speed::Speed;"),
        1
    );
    assert_eq!(
        check("plans/rules.rs", "use crate::plans::warning::Warning;"),
        1
    );
    assert_eq!(check("units/bytes.rs", "let e: crate::Estimate;"), 1);
    assert_eq!(check("scenario/mod.rs", "use crate::scenario::stack;"), 1);
    assert_eq!(
        check("scenario/stack.rs", "use crate::scenario::Scenario;"),
        0
    );
    assert_eq!(check("budget/weights.rs", "use crate::budget::Card;"), 0);
    assert_eq!(check("plans/new.rs", ""), 1);
}
