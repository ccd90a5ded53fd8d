//! Gemma 3n: per-layer embeddings (PLE), AltUp, LAuReL and KV sharing; Gemma 4 31B: full-attention
//! layers of their own shape with keys used as values. The parameter counts, the KV cache under
//! every engine and where each engine keeps the PLE table equal a hand computation from the
//! `text_config`, written out here; the config reader builds the catalog entries from those
//! configs, and the Hub ids resolve to them in any case.

mod common;
use common::{component, serve};
use vramfit_core::catalog;
use vramfit_core::{estimate, ComponentId, Scenario};

/// The E2B `text_config` (inside the `gemma3n` wrapper, whose `vision_config` and `audio_config`
/// are not read) as public ports of the model give it.
fn e2b_config() -> serde_json::Value {
    let layer_types: Vec<&str> = (0..30)
        .map(|i| {
            if (i + 1) % 5 == 0 {
                "full_attention"
            } else {
                "sliding_attention"
            }
        })
        .collect();
    serde_json::json!({
        "architectures": ["Gemma3nForConditionalGeneration"], "model_type": "gemma3n",
        "vision_config": {"model_type": "gemma3n_vision", "hidden_size": 2048},
        "audio_config": {"model_type": "gemma3n_audio", "hidden_size": 1536},
        "text_config": {
            "model_type": "gemma3n_text", "hidden_size": 2048, "num_hidden_layers": 30,
            "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 256,
            "intermediate_size": vec![8192; 30], "vocab_size": 262400,
            "vocab_size_per_layer_input": 262144, "hidden_size_per_layer_input": 256,
            "altup_num_inputs": 4, "laurel_rank": 64, "num_kv_shared_layers": 10,
            "sliding_window": 512, "layer_types": layer_types,
            "max_position_embeddings": 32768, "tie_word_embeddings": true
        }
    })
}

/// Gemma 3n E2B's text model: 4,456,156,768 parameters (the hand count in `catalog::models_gemma`
/// — per layer 62,153,296 × 30, outside the layers 2,591,557,888), the published 4.46 B; the PLE
/// table alone is 262,144 × 30 · 256 = 2,013,265,920. The config reader builds the catalog entry.
#[test]
fn gemma3n_e2b_count_and_config() {
    let m = catalog::model("gemma-3n-e2b-it").expect("in catalog");
    let a = m.arch;
    assert_eq!(a.param_count(), 4_456_156_768);
    let per_layer: u64 = a.layer_tensors(0).iter().map(|t| t.numel()).sum();
    assert_eq!(per_layer, 62_153_296);
    let (before, after) = a.outer_tensors();
    let outer: u64 = before.iter().chain(&after).map(|t| t.numel()).sum();
    assert_eq!(outer, 2_591_557_888);
    let ple: u64 = before
        .iter()
        .filter(|t| format!("{:?}", t.kind) == "PerLayerEmbd")
        .map(|t| t.numel())
        .sum();
    assert_eq!(ple, 2_013_265_920);
    let parsed = vramfit_core::hf_config::parse_value(&e2b_config()).expect("valid config");
    assert_eq!(parsed, a);
    assert_eq!(catalog::model("gemma-3n-e2b").map(|b| b.arch), Some(a));
    // 20 of the 30 layers cache (the last 10 share), 4 of them global (layers 4, 9, 14, 19).
    assert_eq!(a.self_attention_layers(), 20);
    assert_eq!(a.local_layers_in(0, 20), 16);
    // Mixed MatFormer widths and a missing sharing count are refused, naming the key.
    let mut mixed = e2b_config();
    mixed["text_config"]["intermediate_size"][3] = serde_json::json!(4096);
    let mut unshared = e2b_config();
    unshared["text_config"]
        .as_object_mut()
        .expect("object")
        .remove("num_kv_shared_layers");
    assert!(matches!(
        vramfit_core::hf_config::parse_value(&mixed),
        Err(vramfit_core::hf_config::ConfigError::InvalidValue {
            key: "intermediate_size"
        })
    ));
    assert!(matches!(
        vramfit_core::hf_config::parse_value(&unshared),
        Err(vramfit_core::hf_config::ConfigError::MissingKey {
            key: "num_kv_shared_layers"
        })
    ));
    // The text config alone (`gemma3n_text`) reads the same.
    let text = e2b_config()["text_config"].clone();
    assert_eq!(vramfit_core::hf_config::parse_value(&text), Ok(a));
}

/// KV cache of Gemma 3n E2B at 4,096 tokens × 4 sequences, bf16. Per token and caching layer
/// 2 (K, V) × 2 KV heads × 256 × 2 B = 2,048 B; 20 caching layers (the 10 shared ones hold none):
/// 40,960 B a token (61,440 B if every layer cached).
/// - Engine-neutral, Transformers (`DynamicCache` of 20 layers, the sliding ones keeping 512
///   tokens), vLLM: 2,048 × (4 × 4,096 + 16 × 512) = 50,331,648 B a sequence; × 4 =
///   201,326,592 B. vLLM's maximum concurrency is its pool over that per-request figure.
/// - llama.cpp (4 streams of 4,096 cells; the sliding layers 512 + 512 (ubatch) cells a stream):
///   4 × 16,384 × 2,048 + 16 × 4,096 × 2,048 = 268,435,456 B.
/// - SGLang (its Gemma 3n code not checked; sized as vLLM): 40,960 B a token of its pool.
#[test]
fn gemma3n_e2b_kv_cache_by_engine() {
    let e = serve("gemma-3n-e2b-it", 4_096, 4, "null");
    assert_eq!(e.kv_bytes_per_token, 40_960);
    assert_eq!(component(&e, ComponentId::KvCache), 201_326_592);
    let t = serve("gemma-3n-e2b-it", 4_096, 4, r#"{"transformers":{}}"#);
    assert_eq!(t.kv_cache_bytes, Some(201_326_592));
    let v = serve("gemma-3n-e2b-it", 4_096, 4, r#"{"vllm":{}}"#);
    let pool = v.kv_cache_bytes.expect("vLLM pool");
    let concurrency = v.max_concurrency.expect("vLLM concurrency");
    assert!((concurrency - pool as f64 / 50_331_648.0).abs() < 1e-3);
    let l = serve("gemma-3n-e2b-it", 4_096, 4, r#"{"llama_cpp":{}}"#);
    assert_eq!(component(&l, ComponentId::KvCache), 268_435_456);
    let s = serve("gemma-3n-e2b-it", 4_096, 4, r#"{"sglang":{}}"#);
    let (pool, tokens) = (
        s.kv_cache_bytes.expect("pool"),
        s.kv_cache_tokens.expect("tokens"),
    );
    assert_eq!(tokens, pool / 40_960);
    // Without sharing every layer would cache: 6 global and 24 sliding layers.
    let mut unshared = catalog::model("gemma-3n-e2b-it").expect("in catalog").arch;
    unshared.kv_shared_layers = 0;
    assert_eq!(unshared.kv_elements_per_token() * 2, 61_440);
}

/// Where the PLE table lives: on the GPU under vLLM, Transformers, the engine-neutral budget and
/// SGLang (not checked in its source; budgeted as vLLM) (all 4,456,156,768 parameters × 2 B = 8,912,313,536 B, vLLM adding its rotary cache
/// of 32,768 positions × 256 × 2 B = 16,777,216 B); in host memory under llama.cpp, which keeps
/// the layers (1,864,598,880 × 2 B), the small tensors outside them (40,896,768 × 2 B) and the
/// tied embedding again as the output (537,395,200 × 2 B) on the GPU: 4,885,781,696 B, and
/// `token_embd` with `per_layer_token_embd` ((537,395,200 + 2,013,265,920) × 2 B =
/// 5,101,322,240 B) on the host.
#[test]
fn gemma3n_ple_table_placement_by_engine() {
    let neutral = serve("gemma-3n-e2b-it", 4_096, 4, "null");
    assert_eq!(component(&neutral, ComponentId::Weights), 8_912_313_536);
    for engine in [r#"{"sglang":{}}"#, r#"{"transformers":{}}"#] {
        let e = serve("gemma-3n-e2b-it", 4_096, 4, engine);
        assert_eq!(
            component(&e, ComponentId::Weights),
            8_912_313_536,
            "{engine}"
        );
    }
    let v = serve("gemma-3n-e2b-it", 4_096, 4, r#"{"vllm":{}}"#);
    assert_eq!(
        component(&v, ComponentId::Weights),
        8_912_313_536 + 16_777_216
    );
    let l = serve("gemma-3n-e2b-it", 4_096, 4, r#"{"llama_cpp":{}}"#);
    assert_eq!(component(&l, ComponentId::Weights), 4_885_781_696);
    assert!(l.host_bytes >= 5_101_322_240, "{}", l.host_bytes);
}

/// The Hub ids of the Gemma 3n and Gemma 4 checkpoints resolve to their entries in any case.
#[test]
fn gemma3n_repo_ids_resolve() {
    for (repo, id) in [
        ("google/gemma-3n-E2B-it", "gemma-3n-e2b-it"),
        ("GOOGLE/GEMMA-3N-E2B-IT", "gemma-3n-e2b-it"),
        (
            "https://huggingface.co/google/gemma-3n-e2b-it",
            "gemma-3n-e2b-it",
        ),
        ("google/gemma-3n-E2B", "gemma-3n-e2b"),
        ("google/Gemma-3n-e2b", "gemma-3n-e2b"),
        ("google/gemma-4-31B-it", "gemma-4-31b-it"),
        ("Google/GEMMA-4-31b-IT", "gemma-4-31b-it"),
        ("google/gemma-4-31b", "gemma-4-31b"),
    ] {
        assert_eq!(
            catalog::lookup(repo).map(|m| m.model.id),
            Some(id),
            "{repo}"
        );
    }
}

/// Gemma 4 31B's `text_config` (inside the `gemma4` wrapper) as public ports give it.
fn gemma4_31b_config() -> serde_json::Value {
    let layer_types: Vec<&str> = (0..60)
        .map(|i| {
            if i % 6 == 5 {
                "full_attention"
            } else {
                "sliding_attention"
            }
        })
        .collect();
    serde_json::json!({
        "architectures": ["Gemma4ForConditionalGeneration"], "model_type": "gemma4",
        "vision_config": {"model_type": "gemma4_vision", "hidden_size": 1152},
        "text_config": {
            "model_type": "gemma4_text", "hidden_size": 5376, "num_hidden_layers": 60,
            "num_attention_heads": 32, "num_key_value_heads": 16, "head_dim": 256,
            "num_global_key_value_heads": 4, "global_head_dim": 512, "attention_k_eq_v": true,
            "intermediate_size": 21504, "vocab_size": 262144, "sliding_window": 1024,
            "layer_types": layer_types, "max_position_embeddings": 262144,
            "tie_word_embeddings": true, "enable_moe_block": false,
            "hidden_size_per_layer_input": 0, "num_kv_shared_layers": 0,
            "use_double_wide_mlp": false
        }
    })
}

/// Gemma 4 31B: 30,697,345,340 text parameters (the hand count in `catalog::models_gemma`:
/// sliding layers 478,959,105 × 50, global layers 534,009,857 × 10, embedding and final norm
/// 1,409,291,520), the published 30.7 B; the config reader builds the catalog entry and refuses
/// the Gemma 4 blocks not modelled (MoE block, per-layer embeddings, KV sharing, double-wide MLP).
#[test]
fn gemma4_31b_count_and_config() {
    let a = catalog::model("gemma-4-31b-it").expect("in catalog").arch;
    assert_eq!(a.param_count(), 30_697_345_340);
    let layer = |i: u32| -> u64 { a.layer_tensors(i).iter().map(|t| t.numel()).sum() };
    assert_eq!(layer(0), 478_959_105);
    assert_eq!(layer(5), 534_009_857);
    let parsed = vramfit_core::hf_config::parse_value(&gemma4_31b_config()).expect("valid");
    assert_eq!(parsed, a);
    assert_eq!(catalog::model("gemma-4-31b").map(|b| b.arch), Some(a));
    for (key, value) in [
        ("enable_moe_block", serde_json::json!(true)),
        ("hidden_size_per_layer_input", serde_json::json!(256)),
        ("num_kv_shared_layers", serde_json::json!(18)),
        ("use_double_wide_mlp", serde_json::json!(true)),
    ] {
        let mut bad = gemma4_31b_config();
        bad["text_config"][key] = value;
        assert_eq!(
            vramfit_core::hf_config::parse_value(&bad),
            Err(vramfit_core::hf_config::ConfigError::InvalidValue { key }),
            "{key}"
        );
    }
    // Tensor parallelism: the 4 global KV heads split over 2 or 4 GPUs, are replicated over 8.
    assert!(a.tensor_parallel_ok(4) && a.tensor_parallel_ok(8) && !a.tensor_parallel_ok(3));
}

/// KV cache of Gemma 4 31B, bf16. Per token: sliding layers 2 × 16 × 256 × 2 B = 16,384 B,
/// global layers 2 × 4 × 512 × 2 B = 8,192 B; every layer: 50 × 16,384 + 10 × 8,192 = 901,120 B.
/// - Engine-neutral, Transformers and vLLM at 32,768 tokens × 2 sequences: (50 × 16,384 × 1,024
///   + 10 × 8,192 × 32,768) × 2 = (838,860,800 + 2,684,354,560) × 2 = 7,046,430,720 B.
/// - llama.cpp at 8,192 tokens × 2 sequences (2 streams of 8,192 cells; sliding layers
///   1,024 + 512 cells a stream, padded to 1,536), flash attention on (the default):
///   10 × 16,384 × 8,192 + 50 × 3,072 × 16,384 = 1,342,177,280 + 2,516,582,400 = 3,858,759,680 B.
#[test]
fn gemma4_31b_kv_cache_by_engine() {
    let json = |ctx: u32, seqs: u32, engine: &str| {
        let text = format!(
            r#"{{"model":{{"catalog":"google/gemma-4-31B-it"}},"weights":"bf16",
            "workload":{{"inference":{{"context_tokens":{ctx},"sequences":{seqs}}}}},
            "hardware":{{"gpu_memory_gib":1024,"count":1}},"engine":{engine}}}"#
        );
        let scenario: Scenario = serde_json::from_str(&text).expect("valid scenario");
        estimate(&scenario).expect("estimates")
    };
    let e = json(32_768, 2, "null");
    assert_eq!(e.kv_bytes_per_token, 901_120);
    assert_eq!(component(&e, ComponentId::KvCache), 7_046_430_720);
    let t = json(32_768, 2, r#"{"transformers":{}}"#);
    assert_eq!(t.kv_cache_bytes, Some(7_046_430_720));
    let v = json(32_768, 2, r#"{"vllm":{}}"#);
    let pool = v.kv_cache_bytes.expect("vLLM pool");
    let per_request = 7_046_430_720.0 / 2.0;
    assert!((v.max_concurrency.expect("concurrency") - pool as f64 / per_request).abs() < 1e-3);
    let l = json(8_192, 2, r#"{"llama_cpp":{}}"#);
    assert_eq!(component(&l, ComponentId::KvCache), 3_858_759_680);
    // Without flash attention llama.cpp pads the global layers' V rows to the sliding layers'
    // 4,096: their cells hold 2,048 × 2 + 4,096 × 2 = 12,288 B, + 10 × 16,384 × 4,096 B.
    let n = json(8_192, 2, r#"{"llama_cpp":{"flash_attn":false}}"#);
    assert_eq!(
        component(&n, ComponentId::KvCache),
        3_858_759_680 + 671_088_640
    );
}
