//! The renter's decision: speed, price and the software stack in the recommendation.

use vramfit_core::catalog::{self, Vendor};
use vramfit_core::{estimate, Estimate, Offer, RecommendBy, Scenario, Speed};

fn est(json: &str) -> Estimate {
    let s: Scenario = serde_json::from_str(json).expect("scenario");
    estimate(&s).expect("estimates")
}

fn offers(e: &Estimate) -> impl Iterator<Item = &Offer> {
    e.recommendation
        .alternatives
        .iter()
        .chain(&e.recommendation.side_by_side)
}

const SERVE_70B: &str = r#"{"model":{"catalog":"llama-3.3-70b-instruct"},"workload":{"inference":{"context_tokens":32768,"sequences":8}},"engine":{"vllm":{}}}"#;
const QLORA: &str = r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"weights":"bf16","workload":{"train":{"method":"qlora","micro_batch":1,"sequence_length":2048}}}"#;
const DEFAULT_PAGE: &str = r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":8192,"sequences":4}}}"#;

#[test]
fn a_user_price_sets_the_hourly_cost_exactly() {
    let on_two_l40s = |prices: &str| {
        est(&format!(
            r#"{{{prices}"model":{{"catalog":"llama-3.1-8b-instruct"}},"workload":{{"inference":{{"context_tokens":8192,"sequences":8}}}},"hardware":{{"gpu":"l40s","count":2}},"engine":{{"vllm":{{}}}}}}"#
        ))
    };
    let reference = on_two_l40s("");
    let e = on_two_l40s(r#""prices_usd_per_hour":{"l40s":1.25},"#);
    let cost = e.cost.expect("a cost");
    assert_eq!(cost.usd_per_hour, 2.5);
    assert_eq!(cost.price_source, vramfit_core::PriceSource::User);
    assert_eq!(
        reference.cost.expect("cost").price_source,
        vramfit_core::PriceSource::Reference
    );
    // The speed does not move with the price, and per million tokens follows from both.
    assert_eq!(e.speed, reference.speed);
    let Some(Speed::Serving(speed)) = e.speed else {
        panic!("a serving speed")
    };
    let per_m = cost.usd_per_million_output_tokens.expect("$/M");
    let expected = 2.5 / (speed.decode_tokens_per_s_total * 3600.0) * 1e6;
    assert!(
        (per_m - expected).abs() <= expected * 1e-12,
        "{per_m} vs {expected}"
    );
}

#[test]
fn a_higher_user_price_moves_the_recommendation_away() {
    let e = est(DEFAULT_PAGE);
    let id = e
        .recommendation
        .best
        .as_ref()
        .and_then(|p| p.card.gpu)
        .expect("card");
    let json = DEFAULT_PAGE.replacen(
        "{\"model\"",
        &format!("{{\"prices_usd_per_hour\":{{\"{id}\":999}},\"model\""),
        1,
    );
    let e2 = est(&json);
    assert_ne!(
        e2.recommendation.best.as_ref().and_then(|p| p.card.gpu),
        Some(id)
    );
}

#[test]
fn no_offer_runs_on_a_card_its_software_does_not_support() {
    for json in [SERVE_70B, QLORA, DEFAULT_PAGE] {
        let e = est(json);
        let left: Vec<&str> = e.recommendation.left_out.iter().map(|l| l.gpu).collect();
        for o in offers(&e) {
            let id = o.plan.card.gpu.expect("catalog card");
            assert!(!left.contains(&id), "{id} is left out yet offered");
        }
    }
    // QLoRA needs bitsandbytes (CUDA), vLLM no Pascal, bf16 not before Ampere.
    for o in offers(&est(QLORA)) {
        let g = catalog::gpu(o.plan.card.gpu.expect("card")).expect("catalog");
        assert_eq!(g.vendor, Vendor::Nvidia, "{} offered for QLoRA", g.id);
    }
    for o in offers(&est(SERVE_70B)) {
        assert!(!o
            .plan
            .card
            .gpu
            .is_some_and(|g| g.starts_with("p40") || g.starts_with("p100")));
    }
}

#[test]
fn ranked_by_price_nothing_cheaper_fits() {
    for json in [SERVE_70B, QLORA, DEFAULT_PAGE] {
        let e = est(json);
        let best = e.recommendation.alternatives.first().expect("an offer");
        let price = best.cost.expect("priced").usd_per_hour;
        for o in offers(&e) {
            if let Some(c) = o.cost {
                assert!(
                    c.usd_per_hour >= price,
                    "{:?} at {} < {}",
                    o.plan.card.gpu,
                    c.usd_per_hour,
                    price
                );
            }
        }
        // Every single card that fits, runs the stack and is rented costs at least as much.
        let left: Vec<&str> = e.recommendation.left_out.iter().map(|l| l.gpu).collect();
        for p in &e.recommendation.single_cards {
            let id = p.card.gpu.expect("card");
            let m = catalog::market(id).expect("market");
            if p.verdict == vramfit_core::Verdict::Fits
                && !left.contains(&id)
                && m.availability != catalog::Availability::Buy
            {
                if let Some(h) = m.usd_per_hour {
                    assert!(h >= price, "{id} at {h} is cheaper than the best {price}");
                }
            }
        }
    }
}

#[test]
fn ranked_by_speed_the_first_is_fastest() {
    let json = SERVE_70B.replacen("{\"model\"", "{\"recommend_by\":\"speed\",\"model\"", 1);
    let e = est(&json);
    assert_eq!(e.recommendation.by, RecommendBy::Speed);
    let speed = |o: &Offer| match o.speed {
        Some(Speed::Serving(s)) => s.decode_tokens_per_s,
        _ => 0.0,
    };
    let first = speed(&e.recommendation.alternatives[0]);
    assert!(e
        .recommendation
        .alternatives
        .iter()
        .all(|o| speed(o) <= first));
}

#[test]
fn the_plan_shown_carries_speed_and_cost() {
    let e = est(
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":8192,"sequences":8}},"hardware":{"gpu":"l40s"},"engine":{"vllm":{}}}"#,
    );
    let Some(Speed::Serving(s)) = e.speed else {
        panic!("serving speed")
    };
    assert!(
        s.decode_tokens_per_s > 10.0 && s.decode_tokens_per_s < 200.0,
        "{s:?}"
    );
    assert!(s.decode_tokens_per_s_total > s.decode_tokens_per_s);
    assert!(s.time_to_first_token_ms > 0.0);
    assert!(e.cost.is_some_and(|c| c.usd_per_hour > 0.0));
}

#[test]
fn bandwidth_and_links_move_decode_the_way_they_should() {
    let speed = |gpu: &str, n: u32, engine: &str| {
        let e = est(&format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"workload":{{"inference":{{"context_tokens":4096,"sequences":1}}}},"hardware":{{"gpu":"{gpu}","count":{n}}},"engine":{engine}}}"#
        ));
        match e.speed {
            Some(Speed::Serving(s)) => s.decode_tokens_per_s,
            _ => panic!("speed"),
        }
    };
    // More bandwidth, faster.
    assert!(speed("h100-sxm-80gb", 1, r#"{"vllm":{}}"#) > speed("a10g", 1, r#"{"vllm":{}}"#));
    // Tensor parallel over NVLink speeds one sequence up; llama.cpp's layer split does not.
    assert!(
        speed("h100-sxm-80gb", 2, r#"{"vllm":{}}"#) > speed("h100-sxm-80gb", 1, r#"{"vllm":{}}"#)
    );
    let one = speed("rtx-3090", 1, r#"{"llama_cpp":{}}"#);
    let two = speed("rtx-3090", 2, r#"{"llama_cpp":{}}"#);
    assert!((two / one - 1.0).abs() < 0.05, "{one} vs {two}");
}

/// The verdict of the user's own card includes the software stack: memory that fits on a card
/// its engine, formats or kernels do not run on is not a plan. The page would otherwise say
/// "fits" above a list that leaves the same card out.
#[test]
fn the_users_own_card_does_not_fit_where_its_software_does_not_run() {
    use vramfit_core::{Change, StackGap, Verdict, VerdictReason, Warning};
    let on = |gpu: &str, weights: &str, engine: &str| {
        est(&format!(
            r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"weights":"{weights}","hardware":{{"gpu":"{gpu}"}},"engine":{{"{engine}":{{}}}},"workload":{{"inference":{{"context_tokens":4096,"sequences":1}}}}}}"#
        ))
    };
    // FP8 on a Turing card: the memory fits (13 of 14.6 GiB), the kernels do not exist.
    let t4 = on("t4", "fp8", "vllm");
    let plan = t4.plan.as_ref().expect("the user's plan");
    assert!(plan.per_gpu_bytes < plan.card.capacity_bytes);
    assert_eq!(t4.verdict, Verdict::DoesNotFit);
    assert_eq!(
        t4.reason,
        VerdictReason::SoftwareDoesNotRun { gap: StackGap::Fp8 }
    );
    assert!(t4
        .warnings
        .contains(&Warning::SoftwareDoesNotRun { gap: StackGap::Fp8 }));
    // What does not run has no speed and no limits of what would fit.
    assert!(t4.speed.is_none() && t4.limits.is_none());
    // The same card is among those the recommendation leaves out, for the same reason.
    assert!(t4
        .recommendation
        .left_out
        .iter()
        .any(|o| o.gpu == "t4" && o.gap == StackGap::Fp8));
    // Its fixes run: a format the card's kernels have, or a card that runs FP8.
    assert!(!t4.fixes.is_empty());
    for fix in &t4.fixes {
        let runs = match fix.change {
            Change::Weights { ref format } => !format.starts_with("fp8"),
            Change::Card { .. } => fix.gpu != Some("t4"),
            _ => false,
        };
        assert!(runs, "a fix that keeps fp8 on the T4: {fix:?}");
    }
    // vLLM runs FP8 checkpoints on Ampere (Marlin): no gap there.
    let a100 = on("a100-sxm-80gb", "fp8", "vllm");
    assert_eq!(a100.verdict, Verdict::Fits);
    // bitsandbytes needs CUDA; the Radeon has the memory.
    let radeon = on("rx-7900-xtx", "bnb-nf4", "transformers");
    assert_eq!(
        radeon.reason,
        VerdictReason::SoftwareDoesNotRun {
            gap: StackGap::Bitsandbytes
        }
    );
    // A memory size typed without a card has no stack to check.
    let typed: Scenario = serde_json::from_str(r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"weights":"fp8","hardware":{"gpu_memory_gib":16},"engine":{"vllm":{}},"workload":{"inference":{"context_tokens":4096,"sequences":1}}}"#).expect("scenario");
    assert_ne!(
        estimate(&typed).expect("estimates").verdict,
        Verdict::DoesNotFit
    );
}

/// The speed in all, and the price per token it sets, count only the requests an engine's KV pool
/// holds at once: the verdict says the others wait in the queue.
#[test]
fn the_speed_in_all_counts_no_request_waiting_for_the_kv_pool() {
    use vramfit_core::VerdictReason;
    let e = est(
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"weights":"bf16","hardware":{"gpu":"rtx-4090"},"engine":{"vllm":{}},"workload":{"inference":{"context_tokens":32768,"sequences":8}}}"#,
    );
    let VerdictReason::ConcurrencyBelowSequences {
        max_concurrency_centi,
        sequences,
    } = e.reason
    else {
        panic!("8 × 32k on a 4090 waits for the pool: {:?}", e.reason);
    };
    assert_eq!(sequences, 8);
    let Some(Speed::Serving(s)) = e.speed else {
        panic!("a serving speed")
    };
    let at_once = (max_concurrency_centi as f64 / 100.0).max(1.0);
    assert!(at_once < 8.0);
    let ratio = s.decode_tokens_per_s_total / s.decode_tokens_per_s;
    assert!(
        (ratio - at_once).abs() < 0.01,
        "{ratio} requests decoding at once, the pool holds {at_once}"
    );
}
