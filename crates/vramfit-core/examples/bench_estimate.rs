//! Times `estimate` (including the full card recommendation) on a few scenarios, natively.
//! Run: `cargo run --release -p vramfit-core --example bench_estimate`.

use std::time::Instant;
use vramfit_core::catalog;
use vramfit_core::scenario::{ModelSource, Workload};
use vramfit_core::{estimate, Scenario};

fn main() {
    let mut scenarios = Vec::new();
    for m in catalog::models() {
        let mut s = Scenario::example();
        s.model = Some(ModelSource::Catalog(m.id.to_string()));
        if let Workload::Inference(inf) = &mut s.workload {
            inf.context_tokens = 32768;
        }
        scenarios.push(s);
    }
    let rounds = 200;
    let start = Instant::now();
    let mut checksum = 0u64;
    for _ in 0..rounds {
        for s in &scenarios {
            checksum = checksum.wrapping_add(estimate(s).map_or(0, |e| e.total_bytes));
        }
    }
    let n = rounds * scenarios.len();
    let per = start.elapsed().as_secs_f64() / n as f64;
    println!("estimate (with recommendation over the GPU catalog): {:.1} µs per call over {n} calls (checksum {checksum})", per * 1e6);
}
