//! The repository stands alone: no tracked file reads or points at a path outside the checkout
//! (a user's clone has nothing beside it). Every relative path that climbs with `../` is resolved
//! against the folder of the file that holds it and must stay inside the repository; a few names
//! of folders that only exist beside a developer's checkout are refused outright.

use std::path::Path;
use vramfit_tests::repo_root;

/// Tracked files (from git when it is there, otherwise a walk of the tree minus build outputs).
fn tracked_files(root: &Path) -> Vec<String> {
    if let Ok(out) = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output()
    {
        if out.status.success() && !out.stdout.is_empty() {
            return out
                .stdout
                .split(|b| *b == 0)
                .filter(|s| !s.is_empty())
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .collect();
        }
    }
    let mut files = Vec::new();
    walk(root, root, &mut files);
    files
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    const SKIP: [&str; 6] = [
        "target",
        "dist",
        "node_modules",
        ".tools",
        ".git",
        "dist-single",
    ];
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIP.contains(&name.as_str()) {
                walk(root, &path, out);
            }
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push(rel.to_string_lossy().into_owned());
        }
    }
}

/// How many `../` steps a path that starts at `at` climbs above the file's own folder.
fn leading_ups(text: &str, at: usize) -> usize {
    let mut n = 0;
    let mut rest = &text[at..];
    while let Some(r) = rest.strip_prefix("../") {
        n += 1;
        rest = r;
    }
    n
}

/// Problems in one file: each `../` run that escapes the root, each forbidden folder name.
fn problems(rel: &str, text: &str) -> Vec<String> {
    // Spelled in pieces so this file does not match itself.
    let forbidden = [
        ["shared", "/calibration"].concat(),
        ["shared", "/engines"].concat(),
        ["shared", "/seeds"].concat(),
        ["..", "/.library"].concat(),
        ["/work", "/main"].concat(),
    ];
    let depth = Path::new(rel).components().count().saturating_sub(1);
    let mut found = Vec::new();
    for (line_no, line) in text.lines().enumerate() {
        for word in &forbidden {
            if line.contains(word.as_str()) {
                found.push(format!("{rel}:{}: names `{word}`", line_no + 1));
            }
        }
        let mut from = 0;
        while let Some(i) = line[from..].find("../") {
            let at = from + i;
            // Only the start of a run: the char before is not part of another `../`.
            if at < 1 || !line[..at].ends_with("../") && !line[..at].ends_with('.') {
                let ups = leading_ups(line, at);
                if ups > depth {
                    found.push(format!(
                        "{rel}:{}: `{}` climbs {ups} folders from a file {depth} deep",
                        line_no + 1,
                        line[at..].chars().take(60).collect::<String>()
                    ));
                }
            }
            from = at + leading_ups(line, at).max(1) * 3;
        }
    }
    found
}

#[test]
fn no_tracked_file_points_outside_the_checkout() {
    let root = repo_root();
    let mut found = Vec::new();
    for rel in tracked_files(&root) {
        let Ok(text) = std::fs::read_to_string(root.join(&rel)) else {
            continue; // binary files (screenshots) hold no paths
        };
        found.extend(problems(&rel, &text));
    }
    assert!(
        found.is_empty(),
        "paths outside the repository:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_guard_sees_an_escape() {
    assert_eq!(problems("tests/a.rs", "read(\"../x\")").len(), 0);
    assert_eq!(problems("tests/a.rs", "read(\"../../x\")").len(), 1);
    assert_eq!(problems("a.md", "[c](../elsewhere/x.json)").len(), 1);
    let named = ["../", "shared", "/calibration/x.json"].concat();
    assert_eq!(problems("a/b/c.rs", &named).len(), 1);
}
