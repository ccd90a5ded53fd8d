//! Mixed cards (`hardware.gpus`): placed per card as each engine places a model, every card
//! listed with what it holds, the card that sets the limit named, speed and price from the cards
//! themselves.

mod common;

use common::est;
use vramfit_core::{catalog, estimate, Estimate, Scenario, ServingSpeed, Speed, Split, Verdict};

fn decode(e: &Estimate) -> ServingSpeed {
    match e.speed {
        Some(Speed::Serving(s)) => s,
        _ => panic!("a serving speed"),
    }
}

fn llama_cpp_70b(hardware: &str) -> String {
    format!(
        r#"{{"model":{{"catalog":"llama-3.3-70b-instruct"}},"weights":"gguf-q4_k_m","workload":{{"inference":{{"context_tokens":8192,"sequences":1}}}},"hardware":{hardware},"engine":{{"llama_cpp":{{}}}}}}"#
    )
}

/// llama.cpp splits the layers by free memory: the 5090 (32 GB) holds about twice the 4080's
/// (16 GB) share, each card's bytes stay within its own memory, and the card fullest for its size
/// sets the verdict.
#[test]
fn llama_cpp_splits_layers_by_free_memory() {
    let e = est(&llama_cpp_70b(
        r#"{"gpus":[{"gpu":"rtx-5090"},{"gpu":"rtx-4080"}]}"#,
    ));
    let plan = e.plan.as_ref().expect("a plan");
    assert_eq!(plan.split, Split::Layers);
    assert_eq!(plan.count, 2);
    let cards = &plan.per_card;
    assert_eq!(cards.len(), 2);
    assert_eq!((cards[0].gpu, cards[1].gpu), ("rtx-5090", "rtx-4080"));
    let ratio = cards[0].bytes as f64 / cards[1].bytes as f64;
    let free = |id: &str| catalog::gpu(id).expect("card").capacity_bytes() as f64;
    let expected = free("rtx-5090") / free("rtx-4080");
    assert!(
        (ratio / expected - 1.0).abs() < 0.1,
        "{ratio} vs {expected}"
    );
    // One card sets the limit: the verdict and the per-GPU figure are its.
    let limit: Vec<_> = cards.iter().filter(|c| c.sets_limit).collect();
    assert_eq!(limit.len(), 1);
    assert_eq!(plan.per_gpu_bytes, limit[0].bytes);
    assert_eq!(plan.card.gpu, Some(limit[0].gpu));
    let fill = |c: &vramfit_core::CardUse| c.bytes as f64 / c.capacity_bytes as f64;
    assert!(cards.iter().all(|c| fill(c) <= fill(limit[0])));
    // The deployment's components add up every card's.
    let total: u64 = e.components.iter().map(|c| c.bytes).sum();
    assert_eq!(total, cards.iter().map(|c| c.bytes).sum::<u64>());
    // The command prints the split it was estimated with.
    let s: Scenario = serde_json::from_str(&llama_cpp_70b(
        r#"{"gpus":[{"gpu":"rtx-5090"},{"gpu":"rtx-4080"}]}"#,
    ))
    .expect("scenario");
    let command = vramfit_core::measure::llama_server_command(&s);
    assert!(command.contains("--tensor-split 31.0,15.3"), "{command}");
}

/// Two 24 GB cards are not one 48 GB card, and a 5090 with a 4080 is neither two 5090s nor two
/// 4080s: in between in memory, and it runs where two 4080s do not, slower than two 5090s.
#[test]
fn a_mixed_pair_sits_between_its_uniform_pairs() {
    let mixed = est(&llama_cpp_70b(
        r#"{"gpus":[{"gpu":"rtx-5090"},{"gpu":"rtx-4080"}]}"#,
    ));
    let two_5090 = est(&llama_cpp_70b(r#"{"gpu":"rtx-5090","count":2}"#));
    let two_4080 = est(&llama_cpp_70b(r#"{"gpu":"rtx-4080","count":2}"#));
    assert_eq!(two_5090.verdict, Verdict::Fits);
    assert_eq!(two_4080.verdict, Verdict::DoesNotFit);
    // Two 4080s would not run it, so they have no speed; the mixed pair runs, slower than two
    // 5090s.
    assert!(two_4080.speed.is_none());
    let (m, fast) = (
        decode(&mixed).decode_tokens_per_s,
        decode(&two_5090).decode_tokens_per_s,
    );
    assert!(0.0 < m && m < fast, "0 < {m} < {fast}");
    // Not calibrated: no published row ran a mixed pair.
    assert!(!decode(&mixed).calibrated);
    // The price is both cards'.
    let price = |id| {
        catalog::market(id)
            .and_then(|m| m.usd_per_hour)
            .expect("a price")
    };
    let cost = mixed.cost.expect("a cost");
    assert!((cost.usd_per_hour - (price("rtx-5090") + price("rtx-4080"))).abs() < 1e-9);
}

/// vLLM's tensor parallel gives every card the same shard and the same KV blocks: the smallest
/// card sets the limit.
#[test]
fn tensor_parallel_is_limited_by_the_smallest_card() {
    let json = |hardware: &str| {
        format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"workload":{{"inference":{{"context_tokens":8192,"sequences":4}}}},"hardware":{hardware},"engine":{{"vllm":{{}}}}}}"#
        )
    };
    let mixed = est(&json(
        r#"{"gpus":[{"gpu":"a100-sxm-80gb"},{"gpu":"l40s"}]}"#,
    ));
    let plan = mixed.plan.as_ref().expect("a plan");
    assert_eq!(plan.split, Split::TensorParallel);
    let small = plan
        .per_card
        .iter()
        .find(|c| c.gpu == "l40s")
        .expect("the L40S");
    assert!(small.sets_limit);
    assert!(plan.per_card.iter().all(|c| c.bytes == small.bytes));
    // The same figures as two L40S: the larger card adds nothing to the pool.
    let two_small = est(&json(r#"{"gpu":"l40s","count":2}"#));
    assert_eq!(mixed.per_gpu_bytes, two_small.per_gpu_bytes);
    assert_eq!(mixed.max_concurrency, two_small.max_concurrency);
    // The slower card's bandwidth paces every layer.
    assert_eq!(
        decode(&mixed).decode_tokens_per_s,
        decode(&two_small).decode_tokens_per_s
    );
}

#[test]
fn mixed_cards_are_named_alone_and_for_a_server() {
    let bad = [
        // Beside a `gpu`.
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":8192,"sequences":1}},"hardware":{"gpu":"rtx-4090","gpus":[{"gpu":"rtx-3090"}]}}"#,
        // For training.
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"train":{"method":"lora","micro_batch":1,"sequence_length":2048}},"hardware":{"gpus":[{"gpu":"rtx-4090"},{"gpu":"rtx-3090"}]}}"#,
        // A count of zero.
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":8192,"sequences":1}},"hardware":{"gpus":[{"gpu":"rtx-4090","count":0}]}}"#,
    ];
    for json in bad {
        let s: Scenario = serde_json::from_str(json).expect("parses");
        assert!(estimate(&s).is_err(), "{json}");
    }
    let unknown: Scenario = serde_json::from_str(
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":8192,"sequences":1}},"hardware":{"gpus":[{"gpu":"rtx-4090"},{"gpu":"no-such-card"}]}}"#,
    )
    .expect("parses");
    let err = estimate(&unknown).expect_err("unknown card").to_string();
    assert!(err.contains("no-such-card"), "{err}");
}

/// The link carries the cards; a link whose cards cannot be (training) drops them with a note.
#[test]
fn links_carry_the_cards() {
    let s: Scenario = serde_json::from_str(&llama_cpp_70b(
        r#"{"gpus":[{"gpu":"rtx-5090"},{"gpu":"rtx-4080","count":2}]}"#,
    ))
    .expect("scenario");
    let (back, notes) = vramfit_core::query::from_pairs(&vramfit_core::query::to_pairs(&s));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back, s);
    let (back, notes) = vramfit_core::query::from_pairs(&[
        (
            "train",
            r#"{"method":"lora","micro_batch":1,"sequence_length":2048}"#,
        ),
        ("gpus", r#"[{"gpu":"rtx-4090"},{"gpu":"rtx-3090"}]"#),
    ]);
    assert!(back.hardware.gpus.is_empty());
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].param, "gpus");
    let (_, notes) = vramfit_core::query::from_pairs(&[("gpus", r#"[{"gpu":"nope"}]"#)]);
    assert_eq!(notes[0].param, "gpus");
}
