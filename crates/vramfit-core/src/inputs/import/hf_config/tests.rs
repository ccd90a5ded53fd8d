//! Tests of the `config.json` reader: dense, MoE and wrapped configs, ceilings and errors (the
//! hybrid layouts are tested in `hybrid.rs`).

use super::*;

/// Parses `config.json` text as the web app does before calling `parse_value`.
pub(super) fn parse_str(text: &str) -> Result<ModelArch, ConfigError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ConfigError::NotJson {
        line: e.line(),
        column: e.column(),
    })?;
    parse_value(&value)
}

const LLAMA_31_8B: &str = r#"{"architectures":["LlamaForCausalLM"],"model_type":"llama",
        "hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,
        "num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256,
        "max_position_embeddings":131072,"tie_word_embeddings":false,"rope_scaling":{"factor":8.0}}"#;

#[test]
fn reads_llama() {
    let arch = parse_str(LLAMA_31_8B).expect("valid config");
    assert_eq!(arch.param_count(), 8_030_261_248);
    assert_eq!(arch.head_dim, 128);
}

#[test]
fn nested_text_config() {
    let text = r#"{"model_type":"llava_next","text_config":{"model_type":"mistral",
            "hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,
            "num_attention_heads":32,"num_key_value_heads":8,"vocab_size":32064}}"#;
    let arch = parse_str(text).expect("valid nested config");
    assert_eq!(arch.family, Family::Mistral);
    assert!(!arch.tied_embeddings);
}

/// Counts past the ceilings of `crate::units::limits::arch` are refused by name, at the ceiling they
/// are read; the issue-12 products that wrapped (u32 shared experts, vision tower) cannot arise.
#[test]
fn ceilings_are_typed_errors() {
    let with = |key: &str, value: u64| {
        let mut v: Value = serde_json::from_str(LLAMA_31_8B).expect("JSON");
        v[key] = serde_json::json!(value);
        parse_value(&v)
    };
    assert_eq!(with("num_hidden_layers", 1024).map(|a| a.layers), Ok(1024));
    for (key, max) in [
        ("num_hidden_layers", 1024),
        ("hidden_size", 65_536),
        ("intermediate_size", 262_144),
        ("num_attention_heads", 1024),
        ("head_dim", 4096),
        ("vocab_size", 2_097_152),
        ("max_position_embeddings", 1 << 24),
    ] {
        assert_eq!(
            with(key, max + 1),
            Err(ConfigError::TooLarge { key, max }),
            "{key}"
        );
    }
    assert_eq!(
        with("num_hidden_layers", u64::MAX),
        Err(ConfigError::TooLarge {
            key: "num_hidden_layers",
            max: 1024
        })
    );
    let moe = |shared: u64| {
        parse_value(
            &serde_json::json!({"model_type": "deepseek_v3", "hidden_size": 64,
            "intermediate_size": 128, "num_hidden_layers": 4, "num_attention_heads": 4,
            "vocab_size": 100, "n_routed_experts": 8, "num_experts_per_tok": 2,
            "moe_intermediate_size": 65_536, "n_shared_experts": shared}),
        )
    };
    assert_eq!(
        moe(256).map(|a| a.moe.map(|m| m.shared_intermediate)),
        Ok(Some(256 * 65_536))
    );
    assert_eq!(
        moe(65_536),
        Err(ConfigError::TooLarge {
            key: "n_shared_experts",
            max: 256
        })
    );
    let vision = |image: u64| {
        let mut v: Value = serde_json::from_str(LLAMA_31_8B).expect("JSON");
        v["vision_config"] = serde_json::json!({"num_hidden_layers": 1024,
            "hidden_size": 65_536, "intermediate_size": 262_144, "patch_size": 1,
            "image_size": image});
        parse_value(&v)
    };
    // At every ceiling at once the tower's count stays exact (far below 2^64).
    let params = vision(16_384).map(|a| a.vision.map(|v| v.params));
    assert!(
        matches!(params, Ok(Some(p)) if p > 1 << 45 && p < 1 << 48),
        "{params:?}"
    );
    assert_eq!(
        vision(16_385),
        Err(ConfigError::TooLarge {
            key: "image_size",
            max: 16_384
        })
    );
}

#[test]
fn errors_name_the_problem() {
    let check = |text: &str, want: ConfigError| assert_eq!(parse_str(text), Err(want));
    check("{", ConfigError::NotJson { line: 1, column: 1 });
    check("[1]", ConfigError::NotAnObject);
    check("{}", ConfigError::MissingKey { key: "model_type" });
    check(
        r#"{"model_type":"llama","num_hidden_layers":2}"#,
        ConfigError::MissingKey { key: "hidden_size" },
    );
    check(
        r#"{"model_type":"llama","num_hidden_layers":-2}"#,
        ConfigError::InvalidValue {
            key: "num_hidden_layers",
        },
    );
    check(
        r#"{"model_type":"t5"}"#,
        ConfigError::UnsupportedModelType {
            model_type: "t5".into(),
        },
    );
    check(
        r#"{"model_type":"llama","num_hidden_layers":2,"hidden_size":10,"num_attention_heads":3}"#,
        ConfigError::InconsistentHeads,
    );
}

/// `HuggingFaceTB/SmolLM3-3B` `config.json` (the keys memory reads, as published): read as
/// Llama; the NoPE layers change nothing.
#[test]
fn reads_smollm3_as_llama() {
    let no_rope: Vec<u8> = (0..36).map(|i| u8::from((i + 1) % 4 != 0)).collect();
    let config = serde_json::json!({
        "architectures": ["SmolLM3ForCausalLM"], "attention_bias": false,
        "hidden_act": "silu", "hidden_size": 2048, "intermediate_size": 11008,
        "max_position_embeddings": 65536, "max_window_layers": 28, "mlp_bias": false,
        "model_type": "smollm3", "no_rope_layer_interval": 4, "no_rope_layers": no_rope,
        "num_attention_heads": 16, "num_hidden_layers": 36, "num_key_value_heads": 4,
        "rms_norm_eps": 1e-6, "rope_scaling": null, "rope_theta": 5000000.0,
        "sliding_window": null, "tie_word_embeddings": true, "torch_dtype": "bfloat16",
        "use_sliding_window": false, "vocab_size": 128256
    });
    let arch = parse_value(&config).expect("valid config");
    assert_eq!(arch.family, Family::Llama);
    assert_eq!(arch.sliding_window, None);
    assert_eq!(arch.param_count(), 3_075_098_624);
}

/// `allenai/OLMo-2-1124-13B` `config.json`, verbatim: the count is the safetensors index's
/// (54,864,793,600 B in F32), q/k norms over the whole projections included.
#[test]
fn reads_olmo2() {
    let text = r#"{
  "architectures": ["Olmo2ForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "eos_token_id": 100257, "hidden_act": "silu", "hidden_size": 5120,
  "initializer_range": 0.02, "intermediate_size": 13824, "max_position_embeddings": 4096,
  "model_type": "olmo2", "num_attention_heads": 40, "num_hidden_layers": 40,
  "num_key_value_heads": 40, "pad_token_id": 100277, "rms_norm_eps": 1e-06,
  "rope_scaling": null, "rope_theta": 500000, "tie_word_embeddings": false,
  "torch_dtype": "float32", "transformers_version": "4.47.0", "use_cache": true,
  "vocab_size": 100352
}"#;
    let arch = parse_str(text).expect("valid config");
    assert_eq!(arch.family, Family::Olmo2);
    assert_eq!(arch.param_count(), 13_716_198_400);
    let norms: u64 = arch
        .layer_tensors(0)
        .iter()
        .filter(|t| t.kind == crate::inputs::model::TensorKind::Norm)
        .map(|t| t.rows * t.cols * t.count)
        .sum();
    // q_norm and k_norm (5120 each) plus the two post-norms.
    assert_eq!(norms, 4 * 5120);
}

/// `zai-org/GLM-4.5-Air` `config.json`, verbatim (as `transformers` 4.54 prints it). The
/// count is the model vLLM serves, without the MTP layer (see the module doc): 1 dense and 45
/// MoE layers, q/k/v biases, no q/k norms.
#[test]
fn reads_glm4_5_air() {
    let text = r#"{
  "architectures": ["Glm4MoeForCausalLM"], "attention_bias": true, "attention_dropout": 0.0,
  "eos_token_id": [151329, 151336, 151338], "first_k_dense_replace": 1, "head_dim": 128,
  "hidden_act": "silu", "hidden_size": 4096, "initializer_range": 0.02,
  "intermediate_size": 10944, "max_position_embeddings": 131072, "model_type": "glm4_moe",
  "moe_intermediate_size": 1408, "n_group": 1, "n_routed_experts": 128, "n_shared_experts": 1,
  "norm_topk_prob": true, "num_attention_heads": 96, "num_experts_per_tok": 8,
  "num_hidden_layers": 46, "num_key_value_heads": 8, "num_nextn_predict_layers": 1,
  "pad_token_id": 151329, "partial_rotary_factor": 0.5, "rms_norm_eps": 1e-05,
  "rope_scaling": null, "rope_theta": 1000000, "routed_scaling_factor": 1.0,
  "tie_word_embeddings": false, "topk_group": 1, "torch_dtype": "bfloat16",
  "transformers_version": "4.54.1", "use_cache": true, "use_qk_norm": false,
  "vocab_size": 151552
}"#;
    let arch = parse_str(text).expect("valid config");
    assert_eq!(arch.family, Family::Glm4Moe);
    assert!(!arch.qk_norm);
    let moe = arch.moe.expect("MoE");
    assert_eq!(
        (
            moe.experts,
            moe.active,
            moe.expert_intermediate,
            moe.shared_intermediate
        ),
        (128, 8, 1408, 1408)
    );
    assert_eq!(moe.first_dense_layers, 1);
    assert!(moe.router_bias);
    // `num_nextn_predict_layers` 1: the checkpoint's MTP layer, outside the served count.
    assert_eq!(arch.mtp_layers, 1);
    assert!(arch.checkpoint_param_count() > arch.param_count());
    // Per layer: attention 109,051,904 + q/k/v biases 14,336 + 2 norms 8,192; layer 0's MLP
    // 134,479,872; each MoE layer 129 gated experts of 1408 (2,231,894,016) + router 524,288
    // + its bias 128; embeddings and head 2 × 620,756,992; final norm 4,096.
    let expected: u64 = 46 * 109_074_432
        + 134_479_872
        + 45 * (2_231_894_016 + 524_288 + 128)
        + 2 * 620_756_992
        + 4096;
    assert_eq!(expected, 106_852_251_264);
    assert_eq!(arch.param_count(), expected);
}

/// GLM-4.5 (`zai-org/GLM-4.5`; GLM-4.6 differs only in `max_position_embeddings` 202752):
/// 3 dense and 89 MoE layers of 160 experts, with per-head q/k norms (`use_qk_norm`).
#[test]
fn reads_glm4_5_with_qk_norm() {
    let config = serde_json::json!({
        "architectures": ["Glm4MoeForCausalLM"], "attention_bias": true,
        "first_k_dense_replace": 3, "head_dim": 128, "hidden_size": 5120,
        "intermediate_size": 12288, "max_position_embeddings": 131072,
        "model_type": "glm4_moe", "moe_intermediate_size": 1536, "n_group": 1,
        "n_routed_experts": 160, "n_shared_experts": 1, "num_attention_heads": 96,
        "num_experts_per_tok": 8, "num_hidden_layers": 92, "num_key_value_heads": 8,
        "num_nextn_predict_layers": 1, "partial_rotary_factor": 0.5,
            "tie_word_embeddings": false, "topk_group": 1, "use_qk_norm": true,
        "vocab_size": 151552
    });
    let arch = parse_value(&config).expect("valid config");
    assert!(arch.qk_norm);
    let without = parse_value(&{
        let mut c = config.clone();
        c["use_qk_norm"] = serde_json::json!(false);
        c
    })
    .expect("valid config");
    // q_norm and k_norm of head_dim 128 in each of the 92 layers.
    assert_eq!(arch.param_count() - without.param_count(), 92 * 256);
    assert_eq!(arch.param_count(), 352_797_829_024);
    // Only GLM-4.5 reads the switch; a wrong type is a typed error.
    let mut bad = config.clone();
    bad["use_qk_norm"] = serde_json::json!("yes");
    assert!(matches!(
        parse_value(&bad),
        Err(ConfigError::InvalidValue { key: "use_qk_norm" })
    ));
}

/// Found by a user audit: a mixtral config routing each token to 64 of its 8 experts was
/// accepted, and the plan and its speed moved with it.
#[test]
fn more_experts_per_token_than_experts_is_an_error() {
    let config = |active: u32| {
        serde_json::json!({
            "model_type": "mixtral", "num_hidden_layers": 32, "hidden_size": 4096,
            "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
            "vocab_size": 32000, "max_position_embeddings": 32768, "num_local_experts": 8,
            "num_experts_per_tok": active,
        })
    };
    assert!(parse_value(&config(2)).is_ok());
    assert_eq!(
        parse_value(&config(64)).err(),
        Some(ConfigError::ExpertsPerToken {
            active: 64,
            experts: 8
        })
    );
}
