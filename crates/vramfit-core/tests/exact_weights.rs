//! A scenario's `weights_bytes` (the exact tensor bytes of the user's checkpoint, read from its
//! headers) replaces the format's estimate of the weights: one GPU holds exactly those bytes, a
//! tensor-parallel split keeps the estimate's proportions, the URL carries it, and absurd values
//! are refused.

use vramfit_core::limits::Field;
use vramfit_core::{estimate, query, ComponentId, Scenario};

fn on(count: u32, extra: &str) -> Scenario {
    serde_json::from_str(&format!(
        r#"{{"model":{{"catalog":"llama-3.1-8b-instruct"}},"weights":"gguf-q4_k_m","workload":{{"inference":{{"context_tokens":8192,"sequences":1}}}},"hardware":{{"gpu":"h100-sxm-80gb","count":{count}}}{extra}}}"#
    ))
    .expect("json")
}

fn scenario(extra: &str) -> Scenario {
    on(1, extra)
}

fn weights(s: &Scenario) -> u64 {
    estimate(s)
        .expect("valid")
        .components
        .iter()
        .find(|c| c.id == ComponentId::Weights)
        .map_or(0, |c| c.bytes)
}

#[test]
fn exact_bytes_replace_the_estimate_and_keep_the_split() {
    let estimated = weights(&scenario(""));
    let exact = estimated + estimated / 20; // a file 5 % larger than the preset's mix
    let one = scenario(&format!(r#","weights_bytes":{exact}"#));
    assert_eq!(weights(&one), exact);
    // Two GPUs splitting the model: each holds its share of the exact bytes, in the estimate's
    // proportions (within one byte of rounding).
    let two = |extra: &str| on(2, extra);
    let est_two = weights(&two(""));
    let exact_two = weights(&two(&format!(r#","weights_bytes":{exact}"#)));
    let want = u128::from(est_two) * u128::from(exact) / u128::from(estimated);
    assert!(
        u128::from(exact_two).abs_diff(want) <= 1,
        "{exact_two} vs {want}"
    );
    // vLLM adds what it allocates beside the checkpoint's tensors (padded vocabulary shards):
    // the scaled part moves by the file's 5 %, the rest stays.
    let vllm = |extra: &str| {
        weights(&on(
            2,
            &format!(r#"{extra},"engine":{{"vllm":{{"tensor_parallel_size":2}}}}"#),
        ))
    };
    let ratio = vllm(&format!(r#","weights_bytes":{exact}"#)) as f64 / vllm("") as f64;
    assert!((1.04..=1.051).contains(&ratio), "{ratio}");
}

#[test]
fn the_url_carries_exact_bytes_and_refuses_absurd_ones() {
    let s = scenario(r#","weights_bytes":4920734208"#);
    let pairs = query::to_pairs(&s);
    assert!(pairs.contains(&("weights_bytes", "4920734208".to_string())));
    let (back, notes) = query::from_pairs(&pairs);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(back.weights_bytes, Some(4_920_734_208));
    for bad in ["0", "-5", "99999999999999999999999", "1e9", ""] {
        let (parsed, notes) = query::from_pairs(&[("weights_bytes", bad)]);
        assert_eq!(parsed.weights_bytes, None, "{bad}");
        assert!(!notes.is_empty(), "{bad} is reported");
    }
    let zero = scenario(r#","weights_bytes":0"#);
    assert!(zero
        .validate()
        .iter()
        .any(|(f, _)| *f == Field::WeightsBytes));
    assert!(estimate(&zero).is_err());
}
