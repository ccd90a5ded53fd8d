//! Golden scenarios: each `tests/scenarios/NAME.json` (the same schema as the URL and the CLI) is
//! run through the CLI's path and compared with `NAME.expected.json`. A change in any figure shows
//! up as a diff to review; `UPDATE_GOLDEN=1 cargo test -p vramfit-tests --test golden` rewrites the
//! expected files.

use vramfit_tests::repo_root;

#[test]
fn golden_scenarios() {
    let dir = repo_root().join("tests").join("scenarios");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/scenarios")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p.to_string_lossy().ends_with(".expected.json")
        })
        .collect();
    names.sort();
    assert!(names.len() >= 5, "golden scenarios missing");
    // An expected file without its scenario is a test that no longer runs.
    let orphans: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/scenarios")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".expected.json"))
        .filter(|p| {
            let s = p.to_string_lossy().replace(".expected.json", ".json");
            !std::path::Path::new(&s).exists()
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        orphans.is_empty(),
        "expected files without a scenario: {orphans:?}"
    );
    let update = std::env::var("UPDATE_GOLDEN").as_deref() == Ok("1");
    assert!(
        !(update && std::env::var_os("CI").is_some()),
        "UPDATE_GOLDEN is refused under CI: a changed estimate must fail there"
    );
    let mut stale = Vec::new();
    for path in names {
        let text = std::fs::read_to_string(&path).expect("readable scenario");
        let got = match vramfit_cli::run_value(&text) {
            Ok(v) | Err(v) => serde_json::to_string_pretty(&v).expect("json") + "\n",
        };
        let expected_path = path.with_extension("expected.json");
        if update {
            std::fs::write(&expected_path, &got).expect("write expected");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != got {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "estimates changed for {stale:?}: review, then UPDATE_GOLDEN=1 cargo test -p vramfit-tests --test golden"
    );
}
