//! One verdict, never contradicted: over generated scenarios of every workload and engine, the
//! verdict, its reason, the totals, the usable bytes, the warnings, the recommendation and the
//! fixes agree with each other.

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use std::cell::Cell;
use vramfit_core::{
    catalog, estimate, Change, Estimate, Plan, Scenario, ScenarioError, Split, Verdict,
    VerdictReason, Warning,
};

const ENGINES: [&str; 5] = [
    "null",
    r#"{"vllm":{}}"#,
    r#"{"sglang":{}}"#,
    r#"{"llama_cpp":{}}"#,
    r#"{"transformers":{}}"#,
];
const FORMATS: [&str; 5] = ["bf16", "fp8", "awq-int4-g128", "gguf-q4_k_m", "bnb-nf4"];

fn serving(
    model: usize,
    weights: usize,
    engine: usize,
    ctx: u32,
    seqs: u32,
    gpu: usize,
    count: u32,
) -> String {
    let models: Vec<_> = catalog::models().collect();
    let gpus = catalog::GPUS;
    let hardware = if gpu == 0 {
        "{}".to_string()
    } else {
        format!(
            r#"{{"gpu":"{}","count":{count}}}"#,
            gpus[gpu % gpus.len()].id
        )
    };
    format!(
        r#"{{"model":{{"catalog":"{}"}},"weights":"{}","workload":{{"inference":{{"context_tokens":{ctx},"sequences":{seqs}}}}},"hardware":{hardware},"engine":{}}}"#,
        models[model % models.len()].id,
        FORMATS[weights % FORMATS.len()],
        ENGINES[engine % ENGINES.len()],
    )
}

fn other(kind: usize, size: u32, gpu: usize) -> String {
    let gpus = catalog::GPUS;
    let g = gpus[gpu % gpus.len()].id;
    match kind % 3 {
        0 => format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"weights":"bf16","workload":{{"train":{{"micro_batch":{},"sequence_length":{}}}}},"hardware":{{"gpu":"{g}","count":1}}}}"#,
            1 + size % 8,
            256 * (1 + size % 16)
        ),
        1 => format!(
            r#"{{"weights":"bf16","workload":{{"generate_image":{{"pipeline":"flux1-dev","width":{s},"height":{s}}}}},"hardware":{{"gpu":"{g}","count":1}}}}"#,
            s = 256 + 64 * (size % 28)
        ),
        _ => format!(
            r#"{{"weights":"bf16","workload":{{"custom":{{"items":[{{"name":"a","kind":"persistent","size_gib":{}}}]}}}},"hardware":{{"gpu":"{g}","count":1}}}}"#,
            1 + size % 200
        ),
    }
}

fn plan_agrees(p: &Plan) -> Result<(), TestCaseError> {
    let sum = p.per_gpu_components.iter().map(|c| c.bytes).sum::<u64>();
    prop_assert_eq!(p.per_gpu_bytes, sum);
    prop_assert_eq!(p.verdict, p.reason.verdict());
    match p.reason {
        VerdictReason::FitsWithHeadroom => prop_assert!(p.per_gpu_bytes <= p.usable_bytes),
        VerdictReason::IntoHeadroom => prop_assert!(
            p.per_gpu_bytes > p.usable_bytes && p.per_gpu_bytes <= p.card.capacity_bytes
        ),
        VerdictReason::OverCapacity | VerdictReason::WeightsAlone => {
            prop_assert!(p.per_gpu_bytes > p.card.capacity_bytes)
        }
        VerdictReason::EngineWillNotStart { failure } => {
            prop_assert_eq!(p.start_failure, Some(failure))
        }
        VerdictReason::ConcurrencyBelowSequences { .. } => prop_assert!(p.kv.is_some()),
        VerdictReason::NothingFits => prop_assert!(false, "a plan never says nothing fits"),
        // Only a catalog card has a software stack to check.
        VerdictReason::SoftwareDoesNotRun { .. } => prop_assert!(p.card.gpu.is_some()),
    }
    prop_assert!(p.usable_bytes <= p.card.capacity_bytes);
    Ok(())
}

fn agrees(e: &Estimate) -> Result<(), TestCaseError> {
    prop_assert_eq!(e.fits, e.verdict == Verdict::Fits);
    prop_assert_eq!(e.verdict, e.reason.verdict());
    prop_assert_eq!(
        e.total_bytes,
        e.components.iter().map(|c| c.bytes).sum::<u64>()
    );
    match &e.plan {
        Some(p) => {
            plan_agrees(p)?;
            prop_assert_eq!(e.reason, p.reason);
            prop_assert_eq!(e.per_gpu_bytes, p.per_gpu_bytes);
        }
        None => prop_assert_eq!(e.reason, VerdictReason::NothingFits),
    }
    let verdict_warnings: Vec<&Warning> = e
        .warnings
        .iter()
        .filter(|w| {
            matches!(
                w,
                Warning::WithinHeadroom
                    | Warning::DoesNotFit
                    | Warning::NoPlanFits
                    | Warning::EngineWillNotStart { .. }
                    | Warning::SoftwareDoesNotRun { .. }
                    | Warning::ConcurrencyBelowSequences { .. }
            )
        })
        .collect();
    prop_assert_eq!(
        verdict_warnings.len(),
        usize::from(e.verdict != Verdict::Fits)
    );
    // The limits shown beside a plan that fits reach at least what it was asked for.
    if let (Some(l), Some(p)) = (&e.limits, &e.plan) {
        if p.verdict == Verdict::Fits {
            let asked = u64::from(p.sequences_per_replica)
                * if p.split == Split::Replicas {
                    u64::from(p.count)
                } else {
                    1
                };
            prop_assert!(
                l.max_context_tokens.is_some_and(|c| c >= e.context_tokens),
                "fits at {} tokens, limits {:?}",
                e.context_tokens,
                l
            );
            prop_assert!(
                l.max_sequences.is_some_and(|s| s >= asked),
                "fits {} sequences, limits {:?}",
                asked,
                l
            );
        }
    }
    if let Some(b) = &e.recommendation.best {
        plan_agrees(b)?;
        prop_assert_eq!(b.verdict, Verdict::Fits);
    }
    for p in &e.recommendation.single_cards {
        plan_agrees(p)?;
    }
    if e.verdict == Verdict::Fits {
        prop_assert!(e.fixes.is_empty());
    }
    for f in &e.fixes {
        prop_assert!(f.verdict != Verdict::DoesNotFit);
        let again = estimate(&f.scenario).expect("a fix is a valid scenario");
        prop_assert_eq!(again.per_gpu_bytes, f.per_gpu_bytes);
        prop_assert_eq!(again.verdict, f.verdict);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn other_workloads_agree(kind in 0usize..3, size in 0u32..1000, gpu in 0usize..200) {
        let s: Scenario = serde_json::from_str(&other(kind, size, gpu)).expect("json");
        let e = estimate(&s).expect("valid");
        agrees(&e)?;
    }
}

/// Over generated serving scenarios the answers agree. The core may refuse a scenario only as
/// `InvalidFields` (a field out of its range for that model, format, engine and card; the models
/// and cards are the catalog's, so an unknown id or a config error is a defect); any other refusal
/// fails, and at least half the cases must be estimated (today all 48 are), so that a core
/// refusing everything cannot pass by checking nothing.
#[test]
fn serving_answers_agree() {
    const CASES: u32 = 48;
    let mut config = ProptestConfig::with_cases(CASES);
    config.source_file = Some(file!());
    config.test_name = Some(concat!(module_path!(), "::serving_answers_agree"));
    let mut runner = TestRunner::new(config);
    let valid = Cell::new(0u32);
    let refused = Cell::new(0u32);
    let strategy = (
        (0usize..200, 0usize..5, 0usize..5),
        (1u32..70_000, 1u32..64),
        (0usize..200, 1u32..5),
    );
    let result = runner.run(
        &strategy,
        |((model, weights, engine), (ctx, seqs), (gpu, count))| {
            let json = serving(model, weights, engine, ctx, seqs, gpu, count);
            let s: Scenario = serde_json::from_str(&json).expect("json");
            match estimate(&s) {
                Ok(e) => {
                    valid.set(valid.get() + 1);
                    agrees(&e)
                }
                Err(ScenarioError::InvalidFields { .. }) => {
                    refused.set(refused.get() + 1);
                    Ok(())
                }
                Err(other) => Err(TestCaseError::fail(format!("{json}: refused as {other:?}"))),
            }
        },
    );
    if let Err(e) = result {
        panic!("{e}\n{runner}");
    }
    println!("{} estimated, {} refused", valid.get(), refused.get());
    assert!(
        2 * valid.get() >= CASES,
        "only {} of the cases estimated ({} refused)",
        valid.get(),
        refused.get()
    );
}

#[test]
fn issue_11_vllm_cases() {
    let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"llama-3.1-70b-instruct"},"weights":"bf16","workload":{"inference":{"context_tokens":32768,"sequences":8}},"hardware":{"gpu":"h100-sxm-80gb","count":2},"engine":{"vllm":{}}}"#).expect("json");
    let e = estimate(&s).expect("valid");
    assert!(
        matches!(e.reason, VerdictReason::EngineWillNotStart { .. }),
        "{:?}",
        e.reason
    );
    assert!(!e.warnings.contains(&Warning::DoesNotFit));
    let awq: Scenario = serde_json::from_str(
        &serde_json::to_string(&s)
            .expect("ser")
            .replace("\"bf16\"", "\"awq-int4-g128\""),
    )
    .expect("json");
    let e = estimate(&awq).expect("valid");
    // vLLM at its own default fills the fraction it claims by design: that is its headroom, so a
    // plan whose pool holds the sequences fits, with nothing to fix.
    assert_eq!(e.reason, VerdictReason::FitsWithHeadroom);
    assert!(e.fixes.is_empty());
}

/// Gemma 4 31B under vLLM at its default on one H200 fits: the unclaimed tenth of the card is
/// vLLM's headroom; a fraction past what the card leaves for the memory outside the pool does not
/// start, and its one fix is the largest fraction the limits allow, which fits when re-estimated.
#[test]
fn vllm_fraction_is_its_own_headroom() {
    let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"gemma-4-31b-it"},"weights":"bf16","workload":{"inference":{"context_tokens":65536,"sequences":8}},"hardware":{"gpu":"h200","count":1},"engine":{"vllm":{}}}"#).expect("json");
    let e = estimate(&s).expect("valid");
    assert_eq!(e.reason, VerdictReason::FitsWithHeadroom);
    let full: Scenario = serde_json::from_str(r#"{"model":{"catalog":"gemma-4-31b-it"},"weights":"bf16","workload":{"inference":{"context_tokens":65536,"sequences":8}},"hardware":{"gpu":"h200","count":1},"engine":{"vllm":{"gpu_memory_utilization":1.0}}}"#).expect("json");
    let e = estimate(&full).expect("valid");
    assert_eq!(e.verdict, Verdict::DoesNotFit, "{:?}", e.reason);
    let max = e.limits.and_then(|l| l.utilization).expect("a range").max;
    let fraction = e
        .fixes
        .iter()
        .find_map(|f| match f.change {
            Change::EngineFraction { fraction } if f.verdict == Verdict::Fits => Some(fraction),
            _ => None,
        })
        .expect("the fraction fix");
    assert!(
        fraction <= max && max - fraction < 0.01,
        "{fraction} vs {max}"
    );
}

/// HunyuanVideo at 720p, 81 frames on one RTX 4090 needs ≈ 75 GiB: no single change to how it
/// runs fits, so the fixes offer the cheapest changes together (on the same card), and the
/// combined scenario's own estimate is what the fix says.
#[test]
fn changes_together_when_none_alone_fits() {
    use vramfit_core::Change;
    let s: Scenario = serde_json::from_str(r#"{"workload":{"generate_video":{"pipeline":"hunyuanvideo","width":1280,"height":720,"frames":81}},"hardware":{"gpu":"rtx-4090","count":1}}"#).expect("json");
    let e = estimate(&s).expect("valid");
    assert_eq!(e.verdict, Verdict::DoesNotFit);
    let fix = e
        .fixes
        .iter()
        .find(|f| matches!(f.change, Change::Together { .. }))
        .expect("a combined fix");
    let Change::Together { changes } = &fix.change else {
        unreachable!()
    };
    assert!(changes.len() >= 2, "{changes:?}");
    assert_eq!(changes.first(), Some(&Change::VaeTiling), "cheapest first");
    assert_eq!(fix.verdict, Verdict::Fits);
    assert_eq!(fix.scenario.hardware, s.hardware, "same card");
    let again = estimate(&fix.scenario).expect("valid");
    assert_eq!(again.per_gpu_bytes, fix.per_gpu_bytes);
    assert_eq!(again.verdict, Verdict::Fits);
    // Each change alone leaves it not fitting (else it would be offered alone).
    for single in e.fixes.iter().filter(|f| f.scenario.hardware == s.hardware) {
        assert!(
            matches!(single.change, Change::Together { .. }) || single.verdict != Verdict::Fits,
            "{:?}",
            single.change
        );
    }
}

/// A compiled chunked loss is offered where it shrinks the logits of a vocabulary (first for
/// QLoRA Llama 3.1 8B at 4 × 2048 on a 24 GB card, where they are half the budget), not for an
/// encoder's classifier head, whose `b × labels` logits it cannot shrink.
#[test]
fn chunked_loss_fix_only_over_a_vocabulary() {
    let llama: Scenario = serde_json::from_str(r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"train":{"method":"qlora","lora_rank":16,"lora_targets":"all_linear","micro_batch":4,"sequence_length":2048,"checkpointing":"full","optimizer":"paged_adamw8bit"}},"hardware":{"gpu":"rtx-4090","count":1}}"#).expect("json");
    let e = estimate(&llama).expect("valid");
    assert_eq!(e.verdict, Verdict::DoesNotFit);
    let first = e.fixes.first().expect("a fix");
    assert_eq!(first.change, Change::ChunkedLoss);
    assert_eq!(first.verdict, Verdict::Fits);
    assert_eq!(
        estimate(&first.scenario).expect("valid").per_gpu_bytes,
        first.per_gpu_bytes
    );

    let bert: Scenario = serde_json::from_str(r#"{"model":{"hf_config":{"architectures":["BertForSequenceClassification"],"model_type":"bert","hidden_size":1024,"num_hidden_layers":24,"num_attention_heads":16,"intermediate_size":4096,"vocab_size":30522,"max_position_embeddings":512,"type_vocab_size":2}},"workload":{"train":{"method":"full","micro_batch":512,"sequence_length":512,"precision":"fp32","flash_attention":false,"checkpointing":"full"}},"hardware":{"gpu":"rtx-4090","count":1}}"#).expect("json");
    let e = estimate(&bert).expect("valid");
    assert_eq!(e.verdict, Verdict::DoesNotFit);
    assert!(!e.fixes.is_empty());
    assert!(
        e.fixes.iter().all(|f| f.change != Change::ChunkedLoss),
        "{:?}",
        e.fixes
    );
}

/// The host-RAM warning names what holds the memory: training's offloaded or paged optimizer
/// states (not "the engine", which it said before for training too), llama.cpp's host buffers.
#[test]
fn host_memory_warning_names_its_owner() {
    let host = |e: &Estimate| -> Vec<Warning> {
        e.warnings
            .iter()
            .copied()
            .filter(|w| {
                matches!(
                    w,
                    Warning::HostMemory { .. }
                        | Warning::OffloadHostMemory { .. }
                        | Warning::TrainingHostMemory { .. }
                )
            })
            .collect()
    };
    for train in [
        r#"{"method":"qlora","micro_batch":1,"sequence_length":1024,"optimizer":"paged_adamw8bit"}"#,
        r#"{"method":"full","micro_batch":1,"sequence_length":1024,"offload_optimizer":true}"#,
    ] {
        let s: Scenario = serde_json::from_str(&format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"workload":{{"train":{train}}},"hardware":{{"gpu":"rtx-4090","count":1}}}}"#
        ))
        .expect("json");
        let e = estimate(&s).expect("valid");
        assert!(e.host_bytes > 0, "{train}");
        assert_eq!(
            host(&e),
            [Warning::TrainingHostMemory {
                bytes: e.host_bytes
            }],
            "{train}"
        );
    }
    let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"weights":"gguf-q4_k_m","engine":{"llama_cpp":{}},"workload":{"inference":{"context_tokens":8192,"sequences":1}},"hardware":{"gpu":"rtx-4090","count":1}}"#).expect("json");
    let e = estimate(&s).expect("valid");
    assert_eq!(
        host(&e),
        [Warning::HostMemory {
            bytes: e.host_bytes
        }]
    );
}

/// Found by fuzzing: Transformers on several GPUs chose the peak phase on whole-model
/// figures, then divided the cache, so prefill's working set (not divided) was lost: Llama 3.1 8B,
/// 64 × 8k with 3,072 new tokens on 4 × A100 40GB read "fits" at 32.4 GB per GPU.
#[test]
fn transformers_peak_phase_is_chosen_per_gpu() {
    let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":8192,"sequences":64}},"hardware":{"gpu":"a100-sxm-40gb","count":4},"engine":{"transformers":{"max_new_tokens":3072}}}"#).expect("json");
    let e = estimate(&s).expect("valid");
    assert!(e.per_gpu_bytes > 45_000_000_000, "{}", e.per_gpu_bytes);
    assert_eq!(e.verdict, Verdict::DoesNotFit);
}

/// Found by fuzzing: llama.cpp with explicit `-np` kept its slots whatever the
/// sequences, so the limit on sequences ran to the solver's ceiling (100,000).
#[test]
fn llama_cpp_explicit_slots_bound_the_sequences() {
    let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"phi-4-reasoning"},"weights":"awq-int4-g128","workload":{"inference":{"context_tokens":4096,"sequences":3}},"hardware":{"gpu":"rtx-4070-ti"},"engine":{"llama_cpp":{"n_ctx":16384,"n_parallel":4}}}"#).expect("json");
    let e = estimate(&s).expect("valid");
    let most = e.limits.and_then(|l| l.max_sequences).unwrap_or(0);
    assert!(most < 16, "{most}");
    for f in &e.fixes {
        let again = estimate(&f.scenario).expect("a fix is valid");
        assert_eq!(again.verdict, f.verdict, "{:?}", f.change);
    }
}

/// A video pipeline whose only text encoder is a T5 (Wan's umT5) is never offered to
/// drop it; a denoiser published in fp32 is offered in bf16.
#[test]
fn generation_fixes_keep_the_only_text_encoder() {
    use vramfit_core::Change;
    for gpu in ["rtx-4090", "h100-sxm-80gb", "l40s"] {
        let s: Scenario = serde_json::from_str(&format!(r#"{{"workload":{{"generate_video":{{"pipeline":"wan22-t2v-a14b","width":1280,"height":720,"frames":81}}}},"hardware":{{"gpu":"{gpu}"}}}}"#)).expect("json");
        let e = estimate(&s).expect("valid");
        let all: Vec<&Change> = e
            .fixes
            .iter()
            .flat_map(|f| match &f.change {
                Change::Together { changes } => changes.iter().collect::<Vec<_>>(),
                c => vec![c],
            })
            .collect();
        assert!(!all.contains(&&Change::DropT5), "{gpu}: {all:?}");
    }
    let s: Scenario = serde_json::from_str(r#"{"workload":{"generate_video":{"pipeline":"wan22-t2v-a14b","width":1280,"height":720,"frames":81}},"hardware":{"gpu":"h200"}}"#).expect("json");
    let e = estimate(&s).expect("valid");
    assert!(
        e.fixes
            .iter()
            .any(|f| f.change == Change::DenoiserBf16 && f.verdict == Verdict::Fits),
        "{:?}",
        e.fixes.iter().map(|f| &f.change).collect::<Vec<_>>()
    );
}

/// Found by fuzzing: a pasted config carrying a huge table the reader ignores made
/// every estimate slow, the fix search copying it per change tried. The fixes' scenarios carry
/// the compact config.
#[test]
fn a_pasted_configs_ignored_tables_are_not_copied() {
    let mut config = serde_json::json!({"model_type":"llama","hidden_size":4096,"intermediate_size":14336,
        "num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256});
    config["id2label"] =
        serde_json::Value::Array((0..200_000).map(serde_json::Value::from).collect());
    let s: Scenario = serde_json::from_value(serde_json::json!({"model":{"hf_config":config},
        "workload":{"inference":{"context_tokens":8192,"sequences":4}},"hardware":{"gpu":"rtx-4060"}})).expect("json");
    let e = estimate(&s).expect("valid");
    assert!(!e.fixes.is_empty());
    for f in &e.fixes {
        let text = serde_json::to_string(&f.scenario).expect("json");
        assert!(!text.contains("id2label"), "{:?}", f.change);
    }
}

/// vLLM's `--kv-cache-memory`: the pool is exactly the bytes asked, the fraction is
/// ignored, the card's headroom applies as for any engine, and no fix sets a fraction.
#[test]
fn vllm_kv_cache_memory_sets_the_pool() {
    let on = |bytes: u64| {
        let s: Scenario = serde_json::from_str(&format!(r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"workload":{{"inference":{{"context_tokens":8192,"sequences":4}}}},"hardware":{{"gpu":"rtx-4090"}},"engine":{{"vllm":{{"kv_cache_memory_bytes":{bytes}}}}}}}"#)).expect("json");
        estimate(&s).expect("valid")
    };
    let e = on(4 << 30);
    assert_eq!(e.kv_cache_bytes, Some(4 << 30));
    assert_eq!(e.kv_cache_tokens, Some(32_768));
    assert_eq!(e.verdict, Verdict::Fits);
    let plan = e.plan.expect("plan");
    // The card's headroom (10 %), not only the memory outside a self-sized pool.
    assert!(plan.usable_bytes as f64 <= plan.card.capacity_bytes as f64 * 0.9 + 1.0);
    let big = on(40 << 30);
    assert_eq!(big.verdict, Verdict::DoesNotFit);
    assert!(!big
        .fixes
        .iter()
        .any(|f| matches!(f.change, vramfit_core::Change::EngineFraction { .. })));
    assert!(big.limits.and_then(|l| l.utilization).is_none());
}

/// Two plans whose limits once said less than the plan itself: a llama.cpp mixed machine (its
/// layers shared by each card's free memory, not as three of the fullest card) and a training run
/// the recommendation shards over two cards (ZeRO-3, not the data parallel the scenario names).
#[test]
fn limits_agree_with_mixed_and_sharded_plans() {
    for json in [
        r#"{"model":{"catalog":"qwen2.5-32b-instruct"},"weights":"gguf-q4_k_m","hardware":{"gpus":[{"gpu":"rtx-5090"},{"gpu":"rtx-4080","count":2}]},"engine":{"llama_cpp":{}},"workload":{"inference":{"context_tokens":16384,"sequences":6}}}"#,
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"train":{"method":"full","micro_batch":1,"sequence_length":2048}}}"#,
    ] {
        let s: Scenario = serde_json::from_str(json).expect("json");
        let e = estimate(&s).expect("valid");
        assert_eq!(e.verdict, Verdict::Fits, "{json}");
        let l = e.limits.as_ref().expect("limits");
        assert!(
            l.max_context_tokens.is_some_and(|c| c >= e.context_tokens),
            "{json}: {l:?}"
        );
        agrees(&e).expect("agrees");
    }
}

/// The largest context offered stops at what the model was trained for (memory for more is no
/// context it can use), unless the scenario itself asks for more (it is warned).
#[test]
fn the_largest_context_stops_at_the_trained_context() {
    let on_h100 = |ctx: u32| {
        let s: Scenario = serde_json::from_str(&format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"hardware":{{"gpu":"h100-sxm-80gb"}},"workload":{{"inference":{{"context_tokens":{ctx},"sequences":1}}}}}}"#
        ))
        .expect("json");
        estimate(&s).expect("valid")
    };
    let e = on_h100(8192);
    let trained = u64::from(e.model.as_ref().expect("a model").arch.max_position);
    assert_eq!(trained, 131_072);
    assert_eq!(
        e.limits.as_ref().and_then(|l| l.max_context_tokens),
        Some(trained)
    );
    let beyond = on_h100(200_000);
    assert!(beyond.warnings.contains(&Warning::ContextBeyondModel {
        max_position: 131_072
    }));
    let l = beyond
        .limits
        .as_ref()
        .and_then(|l| l.max_context_tokens)
        .expect("a limit");
    assert!(l >= 200_000);
}

/// Where the engine's fraction leaves no room for a KV cache (it will not start), the range of
/// fractions that serve the sequences does not start at that same fraction: the page once said
/// "will not start" at 0.90 beside "0.90 – 0.96 serves all sequences" (a draft model's cache
/// beside a 70B on one H100).
#[test]
fn no_fraction_serves_where_the_engine_leaves_no_room_for_a_kv_cache() {
    let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"llama-3.1-70b-instruct"},"weights":"fp8","hardware":{"gpu":"h100-sxm-80gb"},"engine":{"vllm":{}},"speculative":{"draft":{"catalog":"llama-3.2-1b-instruct"},"num_tokens":5},"workload":{"inference":{"context_tokens":8192,"sequences":8}}}"#).expect("json");
    let e = estimate(&s).expect("valid");
    assert!(
        matches!(e.reason, VerdictReason::EngineWillNotStart { .. }),
        "{:?}",
        e.reason
    );
    let range = e.limits.and_then(|l| l.utilization).expect("a range");
    assert!(
        range.min.is_none_or(|min| min > 0.9 && min <= range.max),
        "{range:?}"
    );
}
