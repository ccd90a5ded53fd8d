//! Speculative decoding: a draft model or the model's MTP layers beside the target, as each
//! engine places them; the speed it buys; the fix that drops it first; the commands.

mod common;

use common::component;
use vramfit_core::{
    catalog, estimate, Change, ComponentId, Estimate, Scenario, ServingSpeed, Speed, Verdict,
};

fn scenario(json: &str) -> Scenario {
    serde_json::from_str(json).expect("scenario")
}

fn est(json: &str) -> Estimate {
    estimate(&scenario(json)).expect("estimates")
}

fn decode(e: &Estimate) -> ServingSpeed {
    match e.speed {
        Some(Speed::Serving(s)) => s,
        _ => panic!("a serving speed"),
    }
}

/// Llama 3.1 70B fp8 on two H100s under vLLM, with `spec` (a JSON member or nothing).
fn vllm_70b(spec: &str) -> String {
    format!(
        r#"{{"model":{{"catalog":"llama-3.1-70b-instruct"}},"weights":"fp8","workload":{{"inference":{{"context_tokens":8192,"sequences":16}}}},"hardware":{{"gpu":"h100-sxm-80gb","count":2}},"engine":{{"vllm":{{}}}}{spec}}}"#
    )
}

const LLAMA_1B_DRAFT: &str =
    r#","speculative":{"draft":{"catalog":"llama-3.2-1b-instruct"},"num_tokens":5}"#;

/// vLLM loads the drafter before it profiles, so its weights come out of the claimed fraction,
/// and the drafter's layers share the KV pool in proportion to what a token costs each.
#[test]
fn vllm_shares_its_pool_with_the_draft() {
    let without = est(&vllm_70b(""));
    let with = est(&vllm_70b(LLAMA_1B_DRAFT));
    let draft_weights = component(&with, ComponentId::DraftWeights);
    // Llama 3.2 1B (1.24 B parameters) in fp8 with its bf16 embedding: between 1.2 and 2.6 GB
    // over the two cards.
    assert!(
        (1_200_000_000..2_600_000_000).contains(&draft_weights),
        "{draft_weights}"
    );
    let pool =
        |e: &Estimate| component(e, ComponentId::KvCache) + component(e, ComponentId::DraftKvCache);
    // The pool shrinks by the draft's weights (to the pool's block rounding, per card).
    let lost = pool(&without) - pool(&with);
    assert!(
        lost.abs_diff(draft_weights) < 64 * 1024 * 1024,
        "{lost} vs {draft_weights}"
    );
    // The draft's share of the pool is its share of a token's KV: 16 layers × 8 heads × 64
    // against 80 layers × 8 heads × 128.
    let share = component(&with, ComponentId::DraftKvCache) as f64 / pool(&with) as f64;
    let expected = (16.0 * 64.0) / (16.0 * 64.0 + 80.0 * 128.0);
    assert!((share - expected).abs() < 1e-3, "{share} vs {expected}");
    // Fewer requests fit; the engine's own claim is unchanged.
    assert!(with.max_concurrency < without.max_concurrency);
    assert_eq!(with.per_gpu_bytes, without.per_gpu_bytes);
}

#[test]
fn sglang_keeps_the_draft_inside_its_static_part() {
    let json = |spec: &str| {
        format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"workload":{{"inference":{{"context_tokens":8192,"sequences":8}}}},"hardware":{{"gpu":"l40s"}},"engine":{{"sglang":{{}}}}{spec}}}"#
        )
    };
    let without = est(&json(""));
    let with = est(&json(LLAMA_1B_DRAFT));
    assert!(component(&with, ComponentId::DraftWeights) > 2_000_000_000);
    assert!(component(&with, ComponentId::DraftKvCache) > 0);
    assert!(with.kv_cache_tokens < without.kv_cache_tokens);
    assert_eq!(with.per_gpu_bytes, without.per_gpu_bytes);
}

/// llama-server: every slot gets its own draft context of `n_ctx / n_parallel` cells with an f16
/// cache and its own compute buffer; the draft's weights load beside the target's.
#[test]
fn llama_cpp_gives_each_slot_a_draft_context() {
    let json = |seqs: u32, spec: &str| {
        format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"weights":"gguf-q8_0","workload":{{"inference":{{"context_tokens":8192,"sequences":{seqs}}}}},"hardware":{{"gpu":"rtx-4090"}},"engine":{{"llama_cpp":{{}}}}{spec}}}"#
        )
    };
    let one = est(&json(1, LLAMA_1B_DRAFT));
    let two = est(&json(2, LLAMA_1B_DRAFT));
    // Llama 3.2 1B: 16 layers × 8 KV heads × 64 × 2 (K and V) × 2 bytes per cell.
    let per_cell = 16 * 8 * 64 * 2 * 2;
    assert_eq!(component(&one, ComponentId::DraftKvCache), per_cell * 8192);
    assert_eq!(
        component(&two, ComponentId::DraftKvCache),
        per_cell * 8192 * 2
    );
    let compute = component(&one, ComponentId::DraftActivations);
    assert!(compute > 0);
    assert_eq!(component(&two, ComponentId::DraftActivations), 2 * compute);
    // The draft in q8_0: 1.24 B parameters at 34 bytes per 32, within the rounding of its
    // tensor types.
    let w = component(&one, ComponentId::DraftWeights) as f64;
    let params = catalog::model("llama-3.2-1b-instruct")
        .expect("draft")
        .arch
        .param_count() as f64;
    assert!((w / (params * 34.0 / 32.0) - 1.0).abs() < 0.02, "{w}");
    let command = vramfit_core::measure::llama_server_command(&scenario(&json(2, LLAMA_1B_DRAFT)));
    assert!(
        command.contains("-md Llama-3.2-1B-Instruct-Q8_0.gguf --draft-max 5"),
        "{command}"
    );
}

/// DeepSeek V3's MTP layer: its weights stored as the model's others, one layer's MLA cache per
/// token, and vLLM's `{"method": "mtp"}`.
#[test]
fn mtp_loads_the_layers_the_checkpoint_ships() {
    let json = |spec: &str| {
        format!(
            r#"{{"model":{{"catalog":"deepseek-v3"}},"weights":"fp8","workload":{{"inference":{{"context_tokens":8192,"sequences":16}}}},"hardware":{{"gpu":"h200","count":8}},"engine":{{"vllm":{{}}}}{spec}}}"#
        )
    };
    let mtp = r#","speculative":{"method":"mtp"}"#;
    let e = est(&json(mtp));
    let arch = catalog::model("deepseek-v3").expect("model").arch;
    let whole = component(&est(&json("")), ComponentId::Weights) as f64;
    let expected = arch.mtp_param_count() as f64 * whole / arch.param_count() as f64;
    let got = component(&e, ComponentId::DraftWeights) as f64;
    // 13.5 B parameters, stored as the main model's, give or take vLLM's padding of the main
    // model's figure.
    assert!((got / expected - 1.0).abs() < 0.03, "{got} vs {expected}");
    let kv_share = component(&e, ComponentId::DraftKvCache) as f64
        / (component(&e, ComponentId::DraftKvCache) + component(&e, ComponentId::KvCache)) as f64;
    assert!((kv_share - 1.0 / 62.0).abs() < 1e-3, "{kv_share}");
    let command = vramfit_core::measure::vllm_command(&scenario(&json(mtp)));
    assert!(
        command.contains(r#"--speculative-config '{"method":"mtp","num_speculative_tokens":1}'"#),
        "{command}"
    );
}

/// One sequence, memory-bound: a draft whose proposals are accepted 70 % of the time buys
/// decode speed; nothing calibrated it, so its band is widened.
#[test]
fn speculation_buys_decode_speed_for_one_request() {
    let json = |spec: &str| {
        format!(
            r#"{{"model":{{"catalog":"llama-3.1-70b-instruct"}},"weights":"fp8","workload":{{"inference":{{"context_tokens":4096,"sequences":1}}}},"hardware":{{"gpu":"h200"}},"engine":{{"vllm":{{}}}}{spec}}}"#
        )
    };
    // On an H200 (on one H100 the 70B does not fit, and a plan that does not fit has no speed).
    let plain = decode(&est(&json("")));
    let spec = decode(&est(&json(LLAMA_1B_DRAFT)));
    let ratio = spec.decode_tokens_per_s / plain.decode_tokens_per_s;
    // (1 − 0.7⁶) / 0.3 = 2.94 tokens per verification, less five 1B steps and the verification's
    // extra rows.
    assert!((1.8..2.94).contains(&ratio), "{ratio}");
    assert!(!spec.calibrated);
    assert!(spec.error_band_percent > plain.error_band_percent || !plain.calibrated);
    // A draft that is never right only costs.
    let never = decode(&est(&json(
        r#","speculative":{"draft":{"catalog":"llama-3.2-1b-instruct"},"acceptance":0}"#,
    )));
    assert!(never.decode_tokens_per_s < plain.decode_tokens_per_s);
    // Prefill does not change.
    assert_eq!(spec.prefill_tokens_per_s, plain.prefill_tokens_per_s);
}

/// Drop the draft before shrinking what the user asked for.
#[test]
fn the_first_fix_drops_the_draft() {
    let e = est(
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"weights":"gguf-q4_k_m","workload":{"inference":{"context_tokens":8192,"sequences":2}},"hardware":{"gpu":"rtx-4060"},"engine":{"llama_cpp":{}},"speculative":{"draft":{"catalog":"llama-3.2-1b-instruct"},"num_tokens":8}}"#,
    );
    assert_eq!(e.verdict, Verdict::DoesNotFit);
    let first = e.fixes.first().expect("fixes");
    assert_eq!(first.change, Change::NoSpeculative);
    assert_eq!(first.verdict, Verdict::Fits);
    assert!(first.scenario.speculative.is_none());
    assert_eq!(
        estimate(&first.scenario).expect("fix").verdict,
        Verdict::Fits
    );
}

#[test]
fn a_proposer_the_model_cannot_take_is_named() {
    let base = |workload: &str, engine: &str, spec: &str| {
        format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"workload":{workload},"engine":{engine},"speculative":{spec}}}"#
        )
    };
    let serve = r#"{"inference":{"context_tokens":8192,"sequences":1}}"#;
    for (json, field) in [
        // Llama 3.1 has no MTP layers.
        (
            base(serve, r#"{"vllm":{}}"#, r#"{"method":"mtp"}"#),
            "method",
        ),
        // llama.cpp runs draft models, not MTP.
        (
            base(serve, r#"{"llama_cpp":{}}"#, r#"{"method":"mtp"}"#),
            "method",
        ),
        // Another vocabulary (Qwen's 151,936 against Llama's 128,256).
        (
            base(
                serve,
                r#"{"vllm":{}}"#,
                r#"{"draft":{"catalog":"qwen3-0.6b"}}"#,
            ),
            "draft",
        ),
        (
            base(
                serve,
                r#"{"vllm":{}}"#,
                r#"{"draft":{"catalog":"no-such-model"}}"#,
            ),
            "draft",
        ),
        (
            base(serve, r#"{"vllm":{}}"#, r#"{"num_tokens":3}"#),
            "draft",
        ),
        (
            base(
                serve,
                r#"{"vllm":{}}"#,
                r#"{"draft":{"catalog":"llama-3.2-1b-instruct"},"num_tokens":17}"#,
            ),
            "num_tokens",
        ),
        (
            base(
                serve,
                r#"{"vllm":{}}"#,
                r#"{"draft":{"catalog":"llama-3.2-1b-instruct"},"acceptance":1.5}"#,
            ),
            "acceptance",
        ),
    ] {
        let err = estimate(&scenario(&json)).expect_err(&json).to_string();
        assert!(
            err.contains(&format!("speculative.{field}")),
            "{json}: {err}"
        );
    }
}

/// A link carries the proposer; a proposer the model cannot take is dropped with a note and the
/// rest of the link kept.
#[test]
fn links_keep_or_drop_the_proposer() {
    let s = scenario(&vllm_70b(LLAMA_1B_DRAFT));
    let pairs = vramfit_core::query::to_pairs(&s);
    let (back, notes) = vramfit_core::query::from_pairs(&pairs);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back, s);
    let (back, notes) = vramfit_core::query::from_pairs(&[
        ("model", "llama-3.1-8b-instruct"),
        ("ctx", "4096"),
        ("spec", r#"{"method":"mtp"}"#),
    ]);
    assert!(back.speculative.is_none());
    assert_eq!(back.workload.shape().0, 4096);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].param, "spec");
}
