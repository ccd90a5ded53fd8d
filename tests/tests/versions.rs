//! One file pins every tool version (`tools/versions.sh`, which the scripts source); the two pins
//! their own tools keep elsewhere must say the same: Trunk.toml's `wasm_bindgen` is Cargo.lock's
//! wasm-bindgen (the CLI must match the library it post-processes), and tests/e2e/package.json's
//! `@playwright/test` is `PLAYWRIGHT_VERSION`. Every other file names the variables, not numbers.

use vramfit_tests::repo_root;

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo_root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `NAME="value"` of tools/versions.sh.
fn pinned(name: &str) -> String {
    let text = read("tools/versions.sh");
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name}=\"")))
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or_else(|| panic!("tools/versions.sh pins no {name}"))
        .to_string()
}

/// The version of `package` in Cargo.lock.
fn locked(package: &str) -> String {
    let lock = read("Cargo.lock");
    let at = lock
        .find(&format!("name = \"{package}\"\n"))
        .unwrap_or_else(|| panic!("Cargo.lock has no {package}"));
    let rest = &lock[at..];
    let line = rest.lines().nth(1).expect("a version line");
    line.trim_start_matches("version = \"")
        .trim_end_matches('"')
        .to_string()
}

#[test]
fn trunk_runs_the_wasm_bindgen_the_lock_builds() {
    let trunk = read("Trunk.toml");
    let pin = trunk
        .lines()
        .find_map(|l| l.trim().strip_prefix("wasm_bindgen = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("Trunk.toml pins wasm_bindgen");
    assert_eq!(pin, locked("wasm-bindgen"));
}

#[test]
fn the_browser_tests_run_the_pinned_playwright() {
    let package: serde_json::Value =
        serde_json::from_str(&read("tests/e2e/package.json")).expect("package.json");
    let pin = package["devDependencies"]["@playwright/test"]
        .as_str()
        .expect("@playwright/test");
    assert_eq!(pin, pinned("PLAYWRIGHT_VERSION"));
}

#[test]
fn the_scripts_name_the_pins_not_numbers() {
    for name in [
        "VRAMFIT_NIGHTLY",
        "TRUNK_VERSION",
        "BINARYEN_VERSION",
        "TERSER_VERSION",
    ] {
        let version = pinned(name);
        for script in ["scripts/setup", "scripts/env.sh"] {
            assert!(
                !read(script).contains(&version),
                "{script} repeats {name}'s {version}: name the variable"
            );
        }
    }
}
