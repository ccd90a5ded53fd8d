//! The page's two steps (the estimate without its fixes first, the fixes once the rest of its
//! code is in) give what one `estimate` call gives: for a plan that fits (no fixes), one that does
//! not on a card, one that does not on a pasted config the fix search compacts, and a training run.

use vramfit_core::{add_fixes, estimate, estimate_without_fixes, Scenario};

fn both_ways(json: &str) -> usize {
    let s: Scenario = serde_json::from_str(json).expect("scenario");
    let whole = estimate(&s).expect("estimates");
    let mut first = estimate_without_fixes(&s).expect("estimates");
    assert!(first.fixes.is_empty(), "the first step has no fixes");
    add_fixes(&s, &mut first);
    assert_eq!(first, whole, "two steps differ from one for {json}");
    whole.fixes.len()
}

#[test]
fn a_plan_that_fits_has_no_fixes_either_way() {
    let fixes = both_ways(
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"weights":"bf16","workload":{"inference":{"context_tokens":8192,"sequences":4}},"hardware":{"gpu":"h100-sxm-80gb","count":1}}"#,
    );
    assert_eq!(fixes, 0);
}

#[test]
fn a_plan_that_does_not_fit_gets_the_same_fixes() {
    let fixes = both_ways(
        r#"{"model":{"catalog":"qwen3-8b"},"weights":"bf16","workload":{"inference":{"context_tokens":32768,"sequences":4}},"hardware":{"gpu":"rtx-4090","count":1}}"#,
    );
    assert!(fixes > 0, "a plan over its card lists fixes");
}

#[test]
fn a_pasted_config_gets_the_same_fixes() {
    // A config with a large table the reader does not use: the fix search compacts it.
    let table: Vec<String> = (0..20_000).map(|i| format!("\"k{i}\":{i}")).collect();
    let json = format!(
        r#"{{"model":{{"hf_config":{{"model_type":"llama","architectures":["LlamaForCausalLM"],"hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":131072,"torch_dtype":"bfloat16","unused_table":{{{}}}}}}},"weights":"bf16","workload":{{"inference":{{"context_tokens":131072,"sequences":8}}}},"hardware":{{"gpu":"rtx-4090","count":1}}}}"#,
        table.join(",")
    );
    let s: Scenario = serde_json::from_str(&json).expect("scenario");
    match &s.model {
        Some(vramfit_core::ModelSource::HfConfig(v)) => {
            assert!(vramfit_core::hf_config::needs_compacting(v));
        }
        _ => panic!("a pasted config"),
    }
    assert!(both_ways(&json) > 0);
}

#[test]
fn a_training_run_that_does_not_fit_gets_the_same_fixes() {
    let fixes = both_ways(
        r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"weights":"bf16","workload":{"train":{"method":"full","sequence_length":4096,"micro_batch":4}},"hardware":{"gpu":"rtx-4090","count":1}}"#,
    );
    assert!(fixes > 0, "full training of 8B on a 4090 lists fixes");
}
