//! Catalog checks: every model's computed parameter count matches its published count within
//! 0.5 %; ids are unique kebab-case; the GPU catalog spans 8 GB to 288 GB, both vendors.

use vramfit_core::catalog::{self, Vendor, GPUS};

fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
}

#[test]
fn every_model_count_matches_its_card() {
    let n = catalog::models().count();
    assert!(n >= 45, "only {n} models");
    let mut bad = Vec::new();
    for m in catalog::models() {
        let computed = m.arch.param_count() as f64;
        let published = m.published_params as f64;
        let dev = (computed - published).abs() / published;
        if dev > 0.005 {
            bad.push(format!(
                "{}: computed {computed} vs published {published} ({:.2} %)",
                m.id,
                dev * 100.0
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "counts off by more than 0.5 %:\n{}",
        bad.join("\n")
    );
}

#[test]
fn ids_are_unique_and_kebab_case() {
    let mut ids: Vec<&str> = catalog::models()
        .map(|m| m.id)
        .chain(GPUS.iter().map(|g| g.id))
        .collect();
    assert!(ids.iter().all(|id| is_kebab(id)), "{ids:?}");
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(before, ids.len(), "duplicate ids");
}

#[test]
fn gpu_catalog_covers_the_range() {
    assert!(GPUS.len() >= 30, "only {} GPUs", GPUS.len());
    let min = GPUS.iter().map(|g| g.marketed_gb).min().unwrap_or(0);
    let max = GPUS.iter().map(|g| g.marketed_gb).max().unwrap_or(0);
    assert!(min <= 8 && max >= 288, "{min}..{max} GB");
    assert!(GPUS.iter().any(|g| g.vendor == Vendor::Amd));
    // Sorted ascending by reported memory: the recommender relies on it.
    assert!(GPUS
        .windows(2)
        .all(|w| w[0].reported_mib <= w[1].reported_mib));
    // Reported memory never exceeds the marketed capacity read as GiB.
    for g in GPUS {
        assert!(
            g.reported_mib <= u64::from(g.marketed_gb) * 1024,
            "{}",
            g.id
        );
        assert!(
            g.reported_mib * 100 >= u64::from(g.marketed_gb) * 1024 * 85,
            "{}",
            g.id
        );
    }
}
