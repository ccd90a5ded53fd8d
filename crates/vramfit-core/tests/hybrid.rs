//! Hybrid models (Mamba-2 / gated DeltaNet layers beside attention): for each catalog hybrid the
//! KV cache and the recurrent state at a given context equal a hand computation from its
//! `config.json`, written out here; memory grows with the context only through the attention
//! layers, under every engine; vLLM's unified pages reproduce a public start-up log.

mod common;
use common::{component, serve};
use vramfit_core::catalog::{self, GpuArch};
use vramfit_core::{
    estimate, mamba_slots, state_per_layer, ComponentId, HybridPages, Scenario, Sglang,
    StateStorage, VerdictReason, STATE_STORAGE,
};

const GIB: u64 = 1 << 30;

/// Qwen3-Next-80B-A3B at 32,768 tokens × 4 sequences, bf16 (engine-neutral).
/// KV: 12 attention layers × 2 (K, V) × 2 KV heads × 256 × 2 B = 24,576 B a token;
///     × 32,768 × 4 = 3,221,225,472 B.
/// State: 36 DeltaNet layers, each (2 · 16 · 128 + 32 · 128) = 8,192 conv channels × 3 kept
///     inputs × 2 B = 49,152 B plus 32 heads × 128 × 128 × 2 B = 1,048,576 B: 1,097,728 B;
///     × 36 = 39,518,208 B a sequence; × 4 = 158,072,832 B.
#[test]
fn qwen3_next_kv_and_state_match_the_config() {
    let e = serve("qwen3-next-80b-a3b-instruct", 32_768, 4, "null");
    assert_eq!(e.kv_bytes_per_token, 24_576);
    assert_eq!(component(&e, ComponentId::KvCache), 3_221_225_472);
    assert_eq!(e.state_bytes_per_sequence, 39_518_208);
    assert_eq!(component(&e, ComponentId::RecurrentState), 158_072_832);
}

/// Qwen3.5-35B-A3B (and Qwen3.6-35B-A3B, the same config) at 32,768 tokens × 4 sequences, bf16.
/// `layer_types`: full attention in layers 3, 7, …, 39 (10 of 40), gated DeltaNet in the 30
/// others; `mamba_ssm_dtype` `float32`.
/// KV (every engine): 10 × 2 (K, V) × 2 KV heads × 256 × 2 B = 20,480 B a token; × 32,768 × 4 =
///     2,684,354,560 B.
/// State, engine-neutral and vLLM's dtype (conv in bf16, SSM in fp32): (2 · 16 · 128 + 32 · 128)
///     = 8,192 conv channels × 3 × 2 B = 49,152 B plus 32 × 128 × 128 × 4 B = 2,097,152 B:
///     2,146,304 B a layer, × 30 = 64,389,120 B a sequence, × 4 = 257,556,480 B.
/// llama.cpp (f32 rows of 3 × 8,192 + 32 × 128 × 128 = 548,864 elements): 2,195,456 B a layer,
///     × 30 × 4 sequences = 263,454,720 B.
/// Transformers (the whole 4-wide window in bf16, the state in fp32): (8,192 × 4 × 2 + 2,097,152)
///     × 30 = 64,880,640 B for one sequence.
/// SGLang on 2 GPUs (conv bf16, SSM fp32): 30 × (4,096 × 3 × 2 B + 16 × 128 × 128 × 4 B) =
///     30 × 1,073,152 = 32,194,560 B a request.
#[test]
fn qwen3_5_kv_and_state_match_the_config() {
    for id in ["qwen3.5-35b-a3b", "qwen3.6-35b-a3b"] {
        let e = serve(id, 32_768, 4, "null");
        assert_eq!(e.kv_bytes_per_token, 20_480, "{id}");
        assert_eq!(component(&e, ComponentId::KvCache), 2_684_354_560);
        assert_eq!(e.state_bytes_per_sequence, 64_389_120);
        assert_eq!(component(&e, ComponentId::RecurrentState), 257_556_480);
    }
    let l = serve("qwen3.5-35b-a3b", 4_096, 4, r#"{"llama_cpp":{}}"#);
    assert_eq!(component(&l, ComponentId::RecurrentState), 263_454_720);
    let t = serve("qwen3.5-35b-a3b", 4_096, 1, r#"{"transformers":{}}"#);
    assert_eq!(component(&t, ComponentId::RecurrentState), 64_880_640);
    let a = &catalog::model("qwen3.5-35b-a3b").expect("in catalog").arch;
    let r = a.recurrent().expect("recurrent");
    assert_eq!(state_per_layer(&r, 2, STATE_STORAGE) * 30, 32_194_560);
    // vLLM keeps the same state per running sequence, in its unified pages.
    let v = serve("qwen3.5-35b-a3b", 32_768, 4, r#"{"vllm":{}}"#);
    assert!(v.recurrent_state_bytes.is_some_and(|b| b >= 4 * 64_389_120));
    // The dense 27B: 16 attention layers × 2 × 4 × 256 × 2 B = 65,536 B a token; 48 DeltaNet
    // layers × ((2 · 16 · 128 + 48 · 128) = 10,240 channels × 3 × 2 B + 48 × 128 × 128 × 4 B) =
    // 48 × 3,207,168 = 153,944,064 B a sequence.
    let d = serve("qwen3.5-27b", 32_768, 1, "null");
    assert_eq!(d.kv_bytes_per_token, 65_536);
    assert_eq!(d.state_bytes_per_sequence, 153_944_064);
}

/// Falcon-H1-7B at 32,768 tokens × 4 sequences, bf16 (engine-neutral).
/// KV: all 44 layers attend, 2 × 2 KV heads × 128 × 2 B = 1,024 B a layer, 45,056 B a token;
///     × 32,768 × 4 = 5,905,580,032 B.
/// State: 44 Mamba-2 layers beside them, (3,072 + 2 · 1 · 256) = 3,584 conv channels × 3 × 2 B =
///     21,504 B plus 24 heads × 128 × 256 × 2 B = 1,572,864 B: 1,594,368 B; × 44 = 70,152,192 B a
///     sequence; × 4 = 280,608,768 B.
#[test]
fn falcon_h1_kv_and_state_match_the_config() {
    let e = serve("falcon-h1-7b-instruct", 32_768, 4, "null");
    assert_eq!(e.kv_bytes_per_token, 45_056);
    assert_eq!(component(&e, ComponentId::KvCache), 5_905_580_032);
    assert_eq!(e.state_bytes_per_sequence, 70_152_192);
    assert_eq!(component(&e, ComponentId::RecurrentState), 280_608_768);
}

/// Nemotron-H-8B at 32,768 tokens × 4 sequences, bf16 (engine-neutral).
/// KV: 4 attention layers × 2 × 8 KV heads × 128 × 2 B = 16,384 B a token; × 32,768 × 4 =
///     2,147,483,648 B.
/// State: 24 Mamba-2 layers, (8,192 + 2 · 8 · 128) = 10,240 conv channels × 3 × 2 B = 61,440 B plus
///     128 heads × 64 × 128 × 2 B = 2,097,152 B: 2,158,592 B; × 24 = 51,806,208 B a sequence; × 4 =
///     207,224,832 B.
#[test]
fn nemotron_h_kv_and_state_match_the_config() {
    let e = serve("nemotron-h-8b-base-8k", 32_768, 4, "null");
    assert_eq!(e.kv_bytes_per_token, 16_384);
    assert_eq!(component(&e, ComponentId::KvCache), 2_147_483_648);
    assert_eq!(e.state_bytes_per_sequence, 51_806_208);
    assert_eq!(component(&e, ComponentId::RecurrentState), 207_224_832);
}

/// Nemotron 3 Nano 30B-A3B at 32,768 tokens × 4 sequences, bf16. Pattern
/// `MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME`: 23 Mamba-2, 23 MoE, 6 attention layers.
/// Weights: per Mamba-2 layer `in_proj` (2 · 4,096 + 2 · 8 · 128 + 64) × 2,688 = 27,697,152, conv
///     6,144 × 4 + bias 6,144, 3 × 64 head vectors, norm 4,096, `out_proj` 2,688 × 4,096 =
///     11,010,048, layer norm 2,688: 38,744,896; per MoE layer router 128 × 2,688 + bias 128,
///     128 ReLU² experts 2 × 1,856 × 2,688 each (1,277,165,568), shared expert 2 × 3,712 × 2,688,
///     norm: 1,297,468,160; per attention layer q, o 4,096 × 2,688 each, k, v 256 × 2,688 each,
///     norm: 23,399,040; embeddings and head 2 × 131,072 × 2,688; final norm. 31,577,940,288, what
///     llama.cpp reports for the converted checkpoint.
/// KV: 6 × 2 × 2 KV heads × 128 × 2 B = 6,144 B a token; × 32,768 × 4 = 805,306,368 B.
/// State: (4,096 + 2 · 8 · 128) = 6,144 conv channels × 3 × 2 B = 36,864 B plus 64 heads × 64 ×
///     128 × 2 B = 1,048,576 B: 1,085,440 B a layer; × 23 = 24,965,120 B a sequence; × 4 =
///     99,860,480 B. llama.cpp: f32 rows of 3 × 6,144 + 64 × 64 × 128 = 542,720 elements, × 4 B ×
///     23 × 4 sequences = 199,720,960 B. SGLang (SSM in fp32): 23 × (36,864 + 2,097,152) =
///     49,082,368 B a request on one GPU.
#[test]
fn nemotron_3_nano_kv_state_and_weights_match_the_config() {
    let a = &catalog::model("nemotron-3-nano-30b-a3b")
        .expect("in catalog")
        .arch;
    assert_eq!(a.param_count(), 31_577_940_288);
    assert_eq!(a.moe_layers_in(0, 52), 23);
    assert!(!a.is_moe_layer(0) && a.is_moe_layer(1) && !a.is_moe_layer(5));
    let e = serve("nemotron-3-nano-30b-a3b", 32_768, 4, "null");
    assert_eq!(e.kv_bytes_per_token, 6_144);
    assert_eq!(component(&e, ComponentId::KvCache), 805_306_368);
    assert_eq!(e.state_bytes_per_sequence, 24_965_120);
    assert_eq!(component(&e, ComponentId::RecurrentState), 99_860_480);
    let l = serve("nemotron-3-nano-30b-a3b", 4_096, 4, r#"{"llama_cpp":{}}"#);
    assert_eq!(component(&l, ComponentId::RecurrentState), 199_720_960);
    let r = a.recurrent().expect("recurrent");
    assert_eq!(state_per_layer(&r, 1, STATE_STORAGE) * 23, 49_082_368);
    // Every engine estimates it, with at least the weights of the tensors (vLLM pads the 23
    // layers' expert weights to its kernel's alignment; no engine loads fewer).
    for engine in [
        r#"{"vllm":{}}"#,
        r#"{"sglang":{}}"#,
        r#"{"transformers":{}}"#,
    ] {
        let x = serve("nemotron-3-nano-30b-a3b", 32_768, 4, engine);
        assert!(
            component(&x, ComponentId::Weights) >= component(&e, ComponentId::Weights),
            "{engine}"
        );
        assert!(component(&x, ComponentId::RecurrentState) > 0, "{engine}");
    }
}

/// Granite 4.0-H at 32,768 tokens × 4 sequences, bf16 (engine-neutral); attention in layers 5, 15,
/// 25 and 35, Mamba-2 in the 36 others.
/// H-Tiny: KV 4 × 2 × 4 KV heads × 128 × 2 B = 8,192 B a token; × 32,768 × 4 = 1,073,741,824 B.
///     State (3,072 + 2 · 128) = 3,328 conv channels × 3 × 2 B = 19,968 B plus 48 heads × 64 × 128
///     × 2 B = 786,432 B: 806,400 B; × 36 = 29,030,400 B a sequence; × 4 = 116,121,600 B.
/// H-Small: KV 4 × 2 × 8 × 128 × 2 B = 16,384 B a token; × 32,768 × 4 = 2,147,483,648 B.
///     State (8,192 + 256) × 3 × 2 B = 50,688 B plus 128 × 64 × 128 × 2 B = 2,097,152 B:
///     2,147,840 B; × 36 = 77,322,240 B a sequence; × 4 = 309,288,960 B.
#[test]
fn granite_4_h_kv_and_state_match_the_config() {
    let tiny = serve("granite-4.0-h-tiny", 32_768, 4, "null");
    assert_eq!(tiny.kv_bytes_per_token, 8_192);
    assert_eq!(component(&tiny, ComponentId::KvCache), 1_073_741_824);
    assert_eq!(tiny.state_bytes_per_sequence, 29_030_400);
    assert_eq!(component(&tiny, ComponentId::RecurrentState), 116_121_600);
    let small = serve("granite-4.0-h-small", 32_768, 4, "null");
    assert_eq!(small.kv_bytes_per_token, 16_384);
    assert_eq!(component(&small, ComponentId::KvCache), 2_147_483_648);
    assert_eq!(small.state_bytes_per_sequence, 77_322_240);
    assert_eq!(component(&small, ComponentId::RecurrentState), 309_288_960);
}

/// Context grows the KV cache of the attention layers only: doubling it adds exactly
/// `sequences × Δtokens × attention-layer bytes per token`, and the recurrent state stays put,
/// under every engine that keeps a growing cache.
#[test]
fn memory_grows_with_context_only_through_attention_layers() {
    for id in [
        "qwen3-next-80b-a3b-instruct",
        "falcon-h1-7b-instruct",
        "nemotron-h-8b-base-8k",
        "granite-4.0-h-tiny",
    ] {
        for engine in ["null", r#"{"llama_cpp":{}}"#, r#"{"transformers":{}}"#] {
            let short = serve(id, 8_192, 2, engine);
            let long = serve(id, 16_384, 2, engine);
            let state = component(&short, ComponentId::RecurrentState);
            assert!(state > 0, "{id} {engine}");
            assert_eq!(
                component(&long, ComponentId::RecurrentState),
                state,
                "{id} {engine}"
            );
            let grown =
                component(&long, ComponentId::KvCache) - component(&short, ComponentId::KvCache);
            // 8,192 more tokens for each of 2 sequences (llama.cpp: 2 × 8,192 more cells).
            assert_eq!(grown, 2 * 8_192 * short.kv_bytes_per_token, "{id} {engine}");
        }
        // Only the attention layers cache tokens.
        let a = &catalog::model(id).expect("in catalog").arch;
        let per_token = u64::from(a.self_attention_layers()) * a.kv_elements_per_token_layer(1) * 2;
        assert_eq!(
            serve(id, 8_192, 1, "null").kv_bytes_per_token,
            per_token,
            "{id}"
        );
    }
}

/// vLLM 0.10.2 serving Qwen3-Next-80B-A3B-Instruct on two H200 (bf16, `max_model_len` 262,144),
/// a public start-up log: "Setting attention block size to 544 tokens", "Padding mamba page size
/// by 1.49%", "Available KV cache memory: 44.59 GiB", "GPU KV cache size: 973,760 tokens",
/// "Maximum concurrency for 262,144 tokens per request: 14.77x".
#[test]
fn vllm_unified_pages_reproduce_the_qwen3_next_log() {
    let a = &catalog::model("qwen3-next-80b-a3b-instruct")
        .expect("in catalog")
        .arch;
    let bf16 = StateStorage {
        full_window: false,
        conv_bytes: 2,
        ssm_bytes: 2,
    };
    let p = HybridPages::new(a, 2, 16, bf16, Some(GpuArch::Hopper)).expect("hybrid");
    // One GPU's state of one DeltaNet layer: (2·16·128 + 32·128)/2 = 4,096 channels × 3 × 2 B =
    // 24,576 B plus 32/2 heads × 128 × 128 × 2 B = 524,288 B.
    assert_eq!(p.state_bytes, 548_864);
    // A token of one attention layer: 2 × 1 KV head × 256 × 2 B = 1,024 B; 16 · ⌈548,864 /
    // (16 · 1,024)⌉ = 544 tokens, a page of 557,056 B, the state padded by 1.49 %.
    assert_eq!(p.block_tokens, 544);
    assert_eq!(p.page_bytes, 557_056);
    let padding = (p.page_bytes - p.state_bytes) as f64 / p.state_bytes as f64 * 100.0;
    assert_eq!(format!("{padding:.2}"), "1.49");
    // 12 attention and 36 DeltaNet layers: groups of 12, one attention and three state groups.
    assert_eq!(
        (p.group_size, p.attention_groups, p.recurrent_groups),
        (12, 1, 3)
    );
    let pool = (44.59 * GIB as f64) as u64;
    let blocks = p.num_blocks(pool);
    assert_eq!(blocks, 7_162);
    assert_eq!(p.tokens(blocks), 973_760);
    let concurrency = blocks as f64 / p.blocks_per_request(262_144) as f64;
    assert_eq!(format!("{concurrency:.2}"), "14.77");
    // Each running request holds one page per state group in each of the 12 shared tensors.
    assert_eq!(p.state_bytes_for(1), 3 * 12 * 557_056);
}

/// The vLLM budget puts the running requests' states beside the keys and values, out of one pool,
/// and reports the pool's tokens as vLLM prints them.
#[test]
fn vllm_budget_splits_the_pool() {
    let e = serve(
        "qwen3-next-80b-a3b-instruct",
        65_536,
        8,
        r#"{"vllm":{"tensor_parallel_size":1}}"#,
    );
    let kv = component(&e, ComponentId::KvCache);
    let state = component(&e, ComponentId::RecurrentState);
    let a = &catalog::model("qwen3-next-80b-a3b-instruct")
        .expect("in catalog")
        .arch;
    let p = HybridPages::new(
        a,
        1,
        16,
        StateStorage {
            full_window: false,
            conv_bytes: 2,
            ssm_bytes: 2,
        },
        None,
    )
    .expect("hybrid");
    // 8 running sequences, 3 state groups × 12 tensors × one page each.
    assert_eq!(state, 8 * p.state_bytes_for(1));
    let pool = kv + state;
    assert_eq!(e.kv_cache_bytes, Some(kv));
    assert_eq!(e.recurrent_state_bytes, Some(state));
    assert_eq!(e.kv_cache_tokens, Some(p.tokens(p.num_blocks(pool))));
}

/// SGLang sizes a separate state pool: `⌊rest · 0.9 / 1.9 / per_req⌋` request slots, the SSM state
/// in fp32. Qwen3-Next on 2 GPUs: 36 layers × (4,096 channels × 3 × 2 B + 16 heads × 128 × 128 ×
/// 4 B) = 36 × 1,073,152 = 38,633,472 B a request.
#[test]
fn sglang_state_pool_per_request() {
    let a = &catalog::model("qwen3-next-80b-a3b-instruct")
        .expect("in catalog")
        .arch;
    let r = a.recurrent().expect("recurrent");
    let per_req = state_per_layer(&r, 2, STATE_STORAGE) * 36;
    assert_eq!(per_req, 38_633_472);
    let rest = 40 * GIB;
    let (slots, bytes) = mamba_slots(&Sglang::default(), per_req, rest);
    assert_eq!(
        slots,
        (rest as f64 * 0.9 / 1.9 / per_req as f64) as u64,
        "{slots}"
    );
    assert_eq!(bytes, slots * per_req);
    let fixed = Sglang {
        max_mamba_cache_size: Some(64),
        ..Sglang::default()
    };
    assert_eq!(mamba_slots(&fixed, per_req, rest), (64, 64 * per_req));
}

/// llama.cpp keeps one f32 row of `n_embd_r + n_embd_s` per sequence and recurrent layer.
/// Nemotron-H-8B, 4 parallel sequences: 24 × (3 × 10,240 + 128 × 8,192) × 4 B × 4 =
/// 24 × 1,079,296 × 16 = 414,449,664 B. Transformers keeps the whole convolution window in the
/// model dtype and DeltaNet's state in fp32: Qwen3-Next, one sequence, 36 × (8,192 × 4 × 2 B +
/// 32 × 128 × 128 × 4 B) = 36 × 2,162,688 = 77,856,768 B.
#[test]
fn llama_cpp_and_transformers_state_buffers() {
    let e = serve("nemotron-h-8b-base-8k", 4_096, 4, r#"{"llama_cpp":{}}"#);
    assert_eq!(component(&e, ComponentId::RecurrentState), 414_449_664);
    assert_eq!(e.recurrent_state_bytes, Some(414_449_664));
    let t = serve(
        "qwen3-next-80b-a3b-instruct",
        4_096,
        1,
        r#"{"transformers":{}}"#,
    );
    assert_eq!(component(&t, ComponentId::RecurrentState), 77_856_768);
}

/// A model without recurrent layers reports no state anywhere.
#[test]
fn dense_models_have_no_state() {
    for engine in [
        "null",
        r#"{"vllm":{}}"#,
        r#"{"sglang":{}}"#,
        r#"{"llama_cpp":{}}"#,
        r#"{"transformers":{}}"#,
    ] {
        let e = serve("llama-3.1-8b-instruct", 8_192, 4, engine);
        assert_eq!(component(&e, ComponentId::RecurrentState), 0, "{engine}");
        assert_eq!(e.state_bytes_per_sequence, 0);
        assert_eq!(e.recurrent_state_bytes, None);
    }
}

/// vLLM V0 allocates the states of `pad_for_cudagraph(max_num_seqs)` requests in its profile run
/// (`MambaCacheManager`): Nemotron-H-8B, `max_num_seqs` 100 → 104 captured, 104 × 51,806,208 B
/// (24 layers × 2,158,592 B in bf16); with `--enforce-eager` exactly 100. The KV cache then holds
/// the 4 attention layers' tokens only.
#[test]
fn vllm_v0_keeps_states_for_max_num_seqs() {
    let v0 = r#"{"vllm":{"version":"v0","max_num_seqs":100}}"#;
    let e = serve("nemotron-h-8b-base-8k", 8_192, 4, v0);
    assert_eq!(component(&e, ComponentId::RecurrentState), 104 * 51_806_208);
    let eager = r#"{"vllm":{"version":"v0","max_num_seqs":100,"enforce_eager":true}}"#;
    let e2 = serve("nemotron-h-8b-base-8k", 8_192, 4, eager);
    assert_eq!(
        component(&e2, ComponentId::RecurrentState),
        100 * 51_806_208
    );
    // 16-token blocks of 16,384 B a token (the attention layers).
    let kv = component(&e, ComponentId::KvCache);
    assert_eq!(e.kv_cache_tokens, Some(kv / (16 * 16_384) * 16));
}

/// The new engine settings are checked like the others.
#[test]
fn hybrid_engine_settings_are_validated() {
    for engine in [
        r#"{"vllm":{"mamba_ssm_cache_dtype":"fp8"}}"#,
        r#"{"vllm":{"mamba_cache_dtype":"half"}}"#,
        r#"{"sglang":{"mamba_full_memory_ratio":-1}}"#,
        r#"{"sglang":{"max_mamba_cache_size":0}}"#,
    ] {
        let json = format!(
            r#"{{"model":{{"catalog":"nemotron-h-8b-base-8k"}},
            "workload":{{"inference":{{"context_tokens":4096,"sequences":1}}}},
            "hardware":{{"gpu":"h100-sxm-80gb","count":1}},"engine":{engine}}}"#
        );
        let scenario: Scenario = serde_json::from_str(&json).expect("parses");
        assert!(
            matches!(
                estimate(&scenario),
                Err(vramfit_core::ScenarioError::InvalidFields { .. })
            ),
            "{engine}"
        );
    }
    // float32 SSM state in vLLM: the SSM part of each state doubles.
    let f32 = serve(
        "nemotron-h-8b-base-8k",
        8_192,
        4,
        r#"{"vllm":{"version":"v0","max_num_seqs":8,"mamba_ssm_cache_dtype":"float32"}}"#,
    );
    // 24 × (61,440 + 128 × 64 × 128 × 4 B) = 24 × 4,255,744 = 102,137,856 B a request.
    assert_eq!(
        component(&f32, ComponentId::RecurrentState),
        8 * 102_137_856
    );
}

/// A layout without attention (a pasted Nemotron-H pattern of Mamba-2 and MLP blocks only) keeps
/// no KV cache and still estimates under every engine.
#[test]
fn attention_free_layouts_estimate() {
    for engine in [
        "null",
        r#"{"vllm":{}}"#,
        r#"{"vllm":{"version":"v0"}}"#,
        r#"{"sglang":{}}"#,
        r#"{"llama_cpp":{}}"#,
        r#"{"transformers":{}}"#,
    ] {
        let json = format!(
            r#"{{"model":{{"hf_config":{{"model_type":"nemotron_h","hidden_size":256,
            "num_hidden_layers":4,"num_attention_heads":4,"num_key_value_heads":2,
            "intermediate_size":512,"vocab_size":1000,"mamba_num_heads":8,
            "mamba_head_dim":32,"hybrid_override_pattern":"M-M-"}}}},
            "workload":{{"inference":{{"context_tokens":4096,"sequences":2}}}},
            "hardware":{{"gpu":"rtx-4090","count":1}},"engine":{engine}}}"#
        );
        let scenario: Scenario = serde_json::from_str(&json).expect("parses");
        let e = estimate(&scenario).expect("estimates");
        assert_eq!(e.kv_bytes_per_token, 0, "{engine}");
        assert!(e.state_bytes_per_sequence > 0, "{engine}");
        assert!(component(&e, ComponentId::RecurrentState) > 0, "{engine}");
        // Starts, and serves both sequences (vLLM's default 0.9 claim may still eat headroom).
        assert!(
            !matches!(
                e.reason,
                VerdictReason::EngineWillNotStart { .. }
                    | VerdictReason::ConcurrencyBelowSequences { .. }
            ),
            "{engine}: {:?}",
            e.reason
        );
    }
}

/// A `qwen3_next` config without `layer_types` / `full_attention_interval` takes the family's
/// default interval (every 4th layer is full attention, Transformers' `Qwen3NextConfig`): of 48
/// layers, 12 keep a KV cache. The fuzzer found the exact-KV oracle assuming all 48.
#[test]
fn qwen3_next_without_a_layer_list_keeps_kv_in_every_fourth_layer() {
    let json = r#"{"model":{"hf_config":{"head_dim":256,"hidden_size":2048,"intermediate_size":5120,
        "model_type":"qwen3_next","moe_intermediate_size":512,"num_experts":512,"num_experts_per_tok":10,
        "num_hidden_layers":48,"num_attention_heads":16,"num_key_value_heads":2,
        "shared_expert_intermediate_size":512,"vocab_size":151936,"max_position_embeddings":262144}},
        "weights":"bf16","workload":{"inference":{"context_tokens":4096,"sequences":1}},
        "hardware":{"gpu_memory_gib":1024,"count":1}}"#;
    let s: Scenario = serde_json::from_str(json).expect("valid scenario");
    let e = estimate(&s).expect("estimates");
    // 12 attention layers × (K + V) × 2 KV heads × 256 × 4096 tokens × 2 bytes.
    assert_eq!(
        component(&e, ComponentId::KvCache),
        12 * 2 * 2 * 256 * 4096 * 2
    );
}
