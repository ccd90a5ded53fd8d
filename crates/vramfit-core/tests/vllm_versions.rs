//! vLLM's start-up accounting by release: where its CUDA graphs sit relative to the claimed
//! fraction, and the `--kv-cache-memory` fix.

mod common;

use common::{component, est};
use vramfit_core::{estimate, Change, ComponentId, Estimate, Verdict};

fn on_h100(vllm: &str) -> String {
    format!(
        r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"workload":{{"inference":{{"context_tokens":32768,"sequences":16}}}},"hardware":{{"gpu":"h100-sxm-80gb"}},"engine":{{"vllm":{vllm}}}}}"#
    )
}

/// From 0.29 the graphs come out of the claimed fraction: the pool is smaller by exactly the
/// graphs, and the card's total is the fraction plus the CUDA context; before, the graphs sat on
/// top of it.
#[test]
fn graphs_inside_the_fraction_from_0_29() {
    let new = est(&on_h100("{}"));
    let old = est(&on_h100(r#"{"version":"v1"}"#));
    let graphs = component(&new, ComponentId::CudaGraphs);
    assert!(graphs > 0);
    assert_eq!(graphs, component(&old, ComponentId::CudaGraphs));
    let kv = |e: &Estimate| component(e, ComponentId::KvCache);
    // The pool rounds down to whole blocks; the difference is the graphs to a block.
    let block = 16 * 128 * 1024; // 16 tokens × 128 KiB per token for Llama 3.1 8B in bf16
    assert!(kv(&old) - kv(&new) >= graphs && kv(&old) - kv(&new) < graphs + block);
    assert!(old.per_gpu_bytes - new.per_gpu_bytes >= graphs - block);
    let context = component(&new, ComponentId::CudaContext);
    let claimed = (new.plan.as_ref().expect("plan").card.capacity_bytes as f64 * 0.9) as u64;
    assert!(new.per_gpu_bytes <= claimed + context);
    assert!(new.per_gpu_bytes + block > claimed + context);
    // The engine's own estimate stays under the headroom.
    let report = new.plan.as_ref().and_then(|p| p.kv).expect("report");
    assert_eq!(report.estimated_inside, graphs);
    // Without graphs (`--enforce-eager`) both releases are the same.
    assert_eq!(
        est(&on_h100(r#"{"enforce_eager":true}"#)).per_gpu_bytes,
        est(&on_h100(r#"{"enforce_eager":true,"version":"v1"}"#)).per_gpu_bytes
    );
}

/// A fraction that claims more than the card leaves: `--kv-cache-memory` set to what the
/// sequences need fits, and its scenario re-estimates to the figure the fix shows.
#[test]
fn kv_cache_memory_fix_sizes_the_pool_for_the_sequences() {
    let e = est(
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":4096,"sequences":2}},"hardware":{"gpu":"rtx-4090"},"engine":{"vllm":{"gpu_memory_utilization":0.99}}}"#,
    );
    assert_ne!(e.verdict, Verdict::Fits);
    let fix = e
        .fixes
        .iter()
        .find(|f| matches!(f.change, Change::KvCacheMemory { .. }))
        .expect("a --kv-cache-memory fix");
    let Change::KvCacheMemory { bytes } = fix.change else {
        unreachable!()
    };
    // Two requests of 4096 tokens at 128 KiB a token: 1 GiB, a quarter GiB up with the blocks.
    assert!((1 << 30..=(5 << 28)).contains(&bytes), "{bytes}");
    assert_eq!(fix.verdict, Verdict::Fits);
    let again = estimate(&fix.scenario).expect("fix");
    assert_eq!(again.per_gpu_bytes, fix.per_gpu_bytes);
    assert!(again.max_concurrency.expect("concurrency") >= 2.0);
    // V0 has no such flag.
    let v0 = est(
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":4096,"sequences":2}},"hardware":{"gpu":"rtx-4090"},"engine":{"vllm":{"gpu_memory_utilization":0.99,"version":"v0"}}}"#,
    );
    assert!(!v0
        .fixes
        .iter()
        .any(|f| matches!(f.change, Change::KvCacheMemory { .. })));
}
