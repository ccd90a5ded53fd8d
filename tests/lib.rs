//! Shared helpers for the cross-crate tests: locating the calibration cases in `tests/calibration/`,
//! and keeping the README's generated tables in sync with what the tests print.

use std::path::PathBuf;

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

/// Checks that the README holds `table` between `<!-- NAME:start -->` and `<!-- NAME:end -->`;
/// with `UPDATE_README=1` it rewrites that section instead. Returns an error message if stale.
pub fn sync_readme_section(name: &str, table: &str) -> Result<(), String> {
    let path = repo_root().join("README.md");
    let readme = std::fs::read_to_string(&path).map_err(|e| format!("README.md: {e}"))?;
    let start = format!("<!-- {name}:start -->\n");
    let end = format!("<!-- {name}:end -->");
    let (Some(a), Some(b)) = (readme.find(&start), readme.find(&end)) else {
        return Err(format!("README.md lacks the {name} markers"));
    };
    let current = &readme[a + start.len()..b];
    if current == table {
        return Ok(());
    }
    if std::env::var("UPDATE_README").as_deref() == Ok("1") {
        let updated = format!("{}{}{}", &readme[..a + start.len()], table, &readme[b..]);
        return std::fs::write(&path, updated).map_err(|e| format!("README.md: {e}"));
    }
    Err(format!(
        "README.md's {name} table is stale: run `UPDATE_README=1 cargo test -p vramfit-tests` and commit"
    ))
}

/// Ends an accuracy report: prints the markdown `rows`, fails on any case outside its bound (listed
/// in `failures`), then checks the README section `name` holds the same table.
#[track_caller]
pub fn finish_report(name: &str, rows: &[String], failures: &[String]) {
    let table = rows.join("\n") + "\n";
    println!("{table}");
    assert!(
        failures.is_empty(),
        "outside the bounds:\n{}",
        failures.join("\n")
    );
    if let Err(e) = sync_readme_section(name, &table) {
        panic!("{e}");
    }
}
