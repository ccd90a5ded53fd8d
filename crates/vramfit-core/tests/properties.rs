//! Properties of the estimate over random scenarios: the total is the sum of its components; memory
//! never decreases when context, sequences or bytes per parameter grow; sharding never raises the
//! per-GPU figure.

use proptest::prelude::*;
use vramfit_core::{
    catalog, estimate, Hardware, Inference, ModelSource, Scenario, WeightFormat, Workload,
};

fn scenario(
    model: usize,
    weights: WeightFormat,
    ctx: u32,
    seqs: u32,
    gpu_gib: f64,
    count: u32,
) -> Scenario {
    Scenario {
        version: 1,
        model: Some(ModelSource::Catalog(catalog_id(model))),
        weights,
        unquantized_modules: Vec::new(),
        weights_bytes: None,
        kv_cache: None,
        workload: Workload::Inference(Inference {
            context_tokens: ctx,
            sequences: seqs,
            prefill_chunk_tokens: 8192,
        }),
        hardware: Hardware {
            gpu: None,
            gpu_memory_gib: Some(gpu_gib),
            count,
            cuda_context_mib: None,
            gpus: Vec::new(),
        },
        headroom_percent: 10,
        engine: None,
        ..Scenario::example()
    }
}

fn catalog_id(i: usize) -> String {
    let all: Vec<_> = catalog::models().collect();
    all[i % all.len()].id.to_string()
}

fn total(s: &Scenario) -> (u64, u64) {
    let e = estimate(s).expect("valid scenario");
    (e.total_bytes, e.per_gpu_bytes)
}

/// Precisions ordered by growing bytes per parameter.
const BY_WIDTH: [WeightFormat; 4] = [
    WeightFormat::Int4,
    WeightFormat::Int8,
    WeightFormat::Bf16,
    WeightFormat::Fp32,
];

proptest! {
    #[test]
    fn total_is_sum_of_components(model in 0usize..1000, w in 0usize..4, ctx in 1u32..200_000, seqs in 1u32..300) {
        let e = estimate(&scenario(model, BY_WIDTH[w], ctx, seqs, 80.0, 1)).expect("valid");
        prop_assert_eq!(e.total_bytes, e.components.iter().map(|c| c.bytes).sum::<u64>());
        let plan = e.plan.expect("a plan");
        prop_assert_eq!(e.per_gpu_bytes, plan.per_gpu_components.iter().map(|c| c.bytes).sum::<u64>());
    }

    #[test]
    fn monotone_in_context_sequences_and_width(model in 0usize..1000, w in 0usize..3, ctx in 1u32..100_000, seqs in 1u32..200, extra in 1u32..50_000) {
        let base = total(&scenario(model, BY_WIDTH[w], ctx, seqs, 80.0, 1));
        prop_assert!(total(&scenario(model, BY_WIDTH[w], ctx + extra, seqs, 80.0, 1)) >= base);
        let more = seqs + extra % 64 + 1;
        prop_assert!(total(&scenario(model, BY_WIDTH[w], ctx, more, 80.0, 1)) >= base);
        // One more of each, too: a step in a term shows at +1, not always at +k.
        prop_assert!(total(&scenario(model, BY_WIDTH[w], ctx, seqs + 1, 80.0, 1)) >= base);
        prop_assert!(total(&scenario(model, BY_WIDTH[w], ctx + 1, seqs, 80.0, 1)) >= base);
        prop_assert!(total(&scenario(model, BY_WIDTH[w + 1], ctx, seqs, 80.0, 1)) >= base);
    }

    #[test]
    fn sharding_weights_and_kv_never_raises_them_per_gpu(model in 0usize..1000, ctx in 1u32..100_000, seqs in 1u32..64) {
        use vramfit_core::ComponentId;
        let s1 = scenario(model, WeightFormat::Bf16, ctx, seqs, 80.0, 1);
        let arch = vramfit_core::catalog::model(&catalog_id(model)).expect("catalog").arch;
        for n in [2u32, 4, 8].into_iter().filter(|n| arch.tensor_parallel_ok(*n)) {
            let one = estimate(&s1).expect("valid").plan.expect("plan");
            let many = estimate(&scenario(model, WeightFormat::Bf16, ctx, seqs, 80.0, n)).expect("valid").plan.expect("plan");
            for id in [ComponentId::Weights, ComponentId::KvCache, ComponentId::Activations] {
                let get = |p: &vramfit_core::Plan| p.per_gpu_components.iter().find(|c| c.id == id).map_or(0, |c| c.bytes);
                prop_assert!(get(&many) <= get(&one), "{:?} grew with {} GPUs", id, n);
            }
        }
    }
}
