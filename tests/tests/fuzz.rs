//! A seeded mutation fuzzer over everything a user can hand the core: scenario JSON (the CLI, the
//! golden files), a pasted `config.json`, URL queries (`query::from_pairs`) and pasted engine logs
//! (`measure::parse_measured`). Every input must end in an estimate or a typed error: no panic
//! (tests build with overflow checks, so a wrapping `+` or `*` panics too), no wrapped figure
//! (totals are re-summed in `u128`, the KV cache recomputed exactly, memory must not shrink when
//! context or sequences grow), and a figure at 2^64 never "fits".
//!
//! The PRNG is a std-only SplitMix64; a run is reproducible from its seed. The normal `cargo test`
//! runs a bounded number of inputs (`DEFAULT_ITERS`); a long run:
//! `VRAMFIT_FUZZ_ITERS=1000000 VRAMFIT_FUZZ_SEED=7 cargo test --release -p vramfit-tests --test fuzz -- --nocapture`
//! (it also prints the slowest estimate seen). A failure prints the input that caused it; add it
//! to `tests/fuzz/` as a regression case.

use serde_json::{json, Map, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};
use vramfit_core::bytes::SATURATED;
use vramfit_core::hf_config::{self, ConfigError};
use vramfit_core::limits::{Field, RangeError};
use vramfit_core::{
    catalog, estimate, measure, prepare, query, user_plan, ComponentId, Engine, Estimate,
    ModelArch, Plan, Scenario, ScenarioError, Split, Warning, Workload,
};
use vramfit_tests::repo_root;

/// Inputs per family in the normal test run (about 30–60 s in debug on two cores).
const DEFAULT_ITERS: u64 = 3000;

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, good enough to explore inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.next().is_multiple_of(one_in.max(1))
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// Numbers at the edges: powers of two and their neighbours, the accepted ceilings, the integer
/// widths, and a few floats.
fn interesting_number(rng: &mut Rng) -> Value {
    #[rustfmt::skip]
    const INTS: &[i64] = &[
        0, 1, 2, 3, 7, 8, 15, 16, 17, 63, 64, 100, 127, 128, 255, 256, 257, 512, 1000, 1023, 1024,
        1025, 2048, 4095, 4096, 8191, 8192, 16384, 32768, 65535, 65536, 65537, 100_000, 262_144,
        1 << 20, (1 << 24) - 1, 1 << 24, (1 << 24) + 1, 10_000_000, 10_000_001, (1 << 31) - 1,
        1 << 31, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 1 << 40, 1 << 53, 1 << 62, i64::MAX,
        -1, -2, -1024, i64::MIN,
    ];
    const FLOATS: &[f64] = &[
        0.5,
        1e-9,
        1.5,
        0.95,
        1e308,
        -0.0,
        99.99,
        4096.5,
        1.8446744073709552e19,
    ];
    match rng.below(10) {
        0 => json!(u64::MAX),
        1 => json!(*rng.pick(FLOATS)),
        2 => json!(rng.next() >> rng.below(64)),
        _ => json!(*rng.pick(INTS)),
    }
}

/// Words the inputs are made of: ids the catalogs know, format names, engine settings, and junk.
fn interesting_string(rng: &mut Rng) -> String {
    #[rustfmt::skip]
    const WORDS: &[&str] = &[
        "llama-3.1-8b-instruct", "llama-3.1-405b", "deepseek-v3", "qwen3-30b-a3b", "gpt-oss-20b",
        "gemma-3-27b-it", "meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct-AWQ",
        "rtx-4090", "h100-sxm-80gb", "h200", "a100-sxm-40gb", "m4-max-128gb", "bf16", "fp16",
        "fp32", "fp8", "fp8-block", "int4", "int8", "gptq-int4-g128", "gptq-int8-g0",
        "awq-int4-g64", "bnb-nf4-dq", "bnb-fp4", "bnb-int8", "mxfp4", "gguf-q4_k_m", "gguf-q2_k",
        "gguf-iq4_xs", "gguf-q8_0", "auto", "fp8_e4m3", "fp8_e5m2", "q4_0", "q8_0", "iq4_nl", "f32",
        "eager", "sdpa", "static", "dynamic", "v0", "v0-legacy", "v1", "lora", "qlora", "full",
        "all_linear", "query_value", "adamw", "adafactor", "paged_adamw8bit", "lion", "zero3",
        "hybrid", "ddp", "selective", "mixed_master", "amp_fp16", "flux1-dev", "wan21-t2v-14b",
        "hunyuanvideo", "sd15", "sdxl", "ltx-video", "t5_xxl", "umt5_xxl", "naive", "sequential",
        "model", "nf4", "gguf-q4-k-m", "persistent", "cache", "llama", "mistral", "qwen2",
        "qwen3_moe", "deepseek_v3", "gpt_oss", "llama4", "gemma3", "bert", "mllama", "llava_next",
        "full_attention", "sliding_attention", "noaux_tc", "lm_head", "model.layers.0.mlp",
        "layers.3.self_attn.q_proj", "layers", "", " ", "é€😀\u{0}", "1e999", "-5", "NaN", "null",
    ];
    let word = rng.pick(WORDS).to_string();
    match rng.below(12) {
        0 => word.repeat(1 + rng.below(300)),
        1 => format!("{word}{}", rng.next()),
        2 => {
            // Cut at a random character boundary.
            let cut = rng.below(word.chars().count() + 1);
            word.chars().take(cut).collect()
        }
        _ => word,
    }
}

/// Keys the schemas and the config reader know, for insertion.
#[rustfmt::skip]
const KEYS: &[&str] = &[
    "version", "model", "catalog", "hf_config", "weights", "kv_cache", "workload", "inference",
    "train", "generate_image", "generate_video", "custom", "context_tokens", "sequences",
    "prefill_chunk_tokens", "hardware", "gpu", "gpu_memory_gib", "count", "cuda_context_mib",
    "headroom_percent", "engine", "vllm", "sglang", "llama_cpp", "transformers",
    "unquantized_modules", "gpu_memory_utilization", "max_model_len", "max_num_seqs",
    "max_num_batched_tokens", "tensor_parallel_size", "kv_cache_dtype", "enforce_eager",
    "max_lora_rank", "max_loras", "mem_fraction_static", "context_length", "chunked_prefill_size",
    "tp_size", "max_running_requests", "n_ctx", "n_batch", "n_ubatch", "n_parallel", "flash_attn",
    "n_gpu_layers", "cache_type_k", "cache_type_v", "kv_unified", "server", "batch_size",
    "max_new_tokens", "attn_implementation", "cache_implementation", "method", "lora_rank",
    "lora_targets", "micro_batch", "sequence_length", "gradient_accumulation", "precision",
    "optimizer", "optimizer_in_backward", "checkpointing", "flash_attention", "compiled",
    "chunked_loss", "trainable_top_layers", "sharding", "hybrid_group", "tensor_parallel",
    "pipeline_parallel", "offload_optimizer", "offload_params", "grads_persist", "foreach", "autocast_gelu_fp32",
    "lora_dropout",
    "double_quant", "pipeline", "width", "height", "frames", "batch", "guidance", "attention",
    "offload", "vae_tiling", "vae_slicing", "drop_text_encoders", "denoiser_format",
    "text_encoder_format", "items", "name", "kind", "size_gib", "model_type", "hidden_size",
    "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
    "head_dim", "vocab_size", "tie_word_embeddings", "max_position_embeddings", "sliding_window",
    "layer_types", "sliding_window_pattern", "attention_chunk_size", "num_local_experts",
    "num_experts", "n_routed_experts", "num_experts_per_tok", "moe_intermediate_size",
    "n_shared_experts", "shared_expert_intermediate_size", "first_k_dense_replace",
    "interleave_moe_layer_step", "intermediate_size_mlp", "kv_lora_rank", "q_lora_rank",
    "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "topk_method", "text_config",
    "vision_config", "patch_size", "image_size", "depth", "embed_dim", "cross_attention_layers",
    "quantization_config", "quant_method", "llm_int8_skip_modules", "modules_to_not_convert",
];

/// A random scalar, array or object.
fn random_value(rng: &mut Rng, depth: u32) -> Value {
    match rng.below(if depth > 2 { 4 } else { 7 }) {
        0 | 1 => interesting_number(rng),
        2 => Value::String(interesting_string(rng)),
        3 => match rng.below(3) {
            0 => Value::Bool(true),
            1 => Value::Bool(false),
            _ => Value::Null,
        },
        4 => {
            let n = if rng.chance(8) { 300 } else { rng.below(4) };
            Value::Array((0..n).map(|_| random_value(rng, depth + 1)).collect())
        }
        _ => {
            let mut m = Map::new();
            for _ in 0..rng.below(4) {
                m.insert(rng.pick(KEYS).to_string(), random_value(rng, depth + 1));
            }
            Value::Object(m)
        }
    }
}

/// The number of nodes of `v`.
fn size(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(size).sum(),
        Value::Object(m) => m.values().map(size).sum(),
        _ => 0,
    }
}

/// One step from a node to a child.
enum Step {
    Index(usize),
    Key(String),
}

/// Finds the path to the `k`-th node of `v` in pre-order (`false` past the last node).
fn path_to(v: &Value, k: &mut usize, path: &mut Vec<Step>) -> bool {
    if *k == 0 {
        return true;
    }
    *k -= 1;
    match v {
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                path.push(Step::Index(i));
                if path_to(c, k, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        Value::Object(m) => {
            for (key, c) in m {
                path.push(Step::Key(key.clone()));
                if path_to(c, k, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        _ => false,
    }
}

/// The node at `path`.
fn at_path<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    let Some(step) = path.first() else {
        return v;
    };
    let present = match (step, &*v) {
        (Step::Index(i), Value::Array(a)) => *i < a.len(),
        (Step::Key(key), Value::Object(m)) => m.contains_key(key),
        _ => false,
    };
    if !present {
        return v;
    }
    match (step, v) {
        (Step::Index(i), Value::Array(a)) => at_path(&mut a[*i], &path[1..]),
        (Step::Key(key), Value::Object(m)) => at_path(m.get_mut(key).expect("present"), &path[1..]),
        (_, v) => v,
    }
}

/// The `k`-th node of `v` in pre-order (the root past the end).
fn node(v: &mut Value, k: usize) -> &mut Value {
    let mut path = Vec::new();
    let mut k = k;
    if !path_to(v, &mut k, &mut path) {
        path.clear();
    }
    at_path(v, &path)
}

/// One mutation at a random node; `donors` supplies subtrees for crossover.
fn mutate(v: &mut Value, rng: &mut Rng, donors: &[Value]) {
    let k = rng.below(size(v));
    let donor = rng.pick(donors).clone();
    let target = node(v, k);
    if rng.chance(12) {
        *target = random_value(rng, 0);
        return;
    }
    if rng.chance(10) {
        // Crossover: a random subtree of another seed.
        let mut d = donor;
        let j = rng.below(size(&d));
        *target = node(&mut d, j).clone();
        return;
    }
    match target {
        Value::Number(n) => {
            *target = match (rng.below(4), n.as_u64()) {
                (0, Some(x)) => json!(x.saturating_mul(2)),
                (1, Some(x)) => json!(x / 2),
                (2, Some(x)) => json!(x.saturating_add(1)),
                _ => interesting_number(rng),
            }
        }
        Value::String(_) => *target = Value::String(interesting_string(rng)),
        Value::Bool(b) => *b = !*b,
        Value::Null => *target = random_value(rng, 1),
        Value::Array(a) => match rng.below(4) {
            0 if !a.is_empty() => {
                let i = rng.below(a.len());
                a.remove(i);
            }
            1 if !a.is_empty() => {
                let e = a[rng.below(a.len())].clone();
                let n = if rng.chance(4) { 300 } else { 1 };
                a.extend(std::iter::repeat_n(e, n));
            }
            _ => a.push(random_value(rng, 1)),
        },
        Value::Object(m) => match rng.below(3) {
            0 if !m.is_empty() => {
                let key = m
                    .keys()
                    .nth(rng.below(m.len()))
                    .cloned()
                    .unwrap_or_default();
                m.remove(&key);
            }
            _ => {
                let value = if rng.chance(2) {
                    interesting_number(rng)
                } else {
                    random_value(rng, 1)
                };
                m.insert(rng.pick(KEYS).to_string(), value);
            }
        },
    }
}

/// A Hugging Face `config.json` for a catalog architecture (the keys the reader reads).
fn hf_config_of(a: &ModelArch) -> Value {
    let mut c = json!({
        "model_type": a.family.model_type(),
        "hidden_size": a.hidden, "intermediate_size": a.intermediate,
        "num_hidden_layers": a.layers, "num_attention_heads": a.heads,
        "num_key_value_heads": a.kv_heads, "head_dim": a.head_dim, "vocab_size": a.vocab,
        "tie_word_embeddings": a.tied_embeddings, "max_position_embeddings": a.max_position,
    });
    if let Some(m) = a.moe {
        c["n_routed_experts"] = json!(m.experts);
        c["num_experts_per_tok"] = json!(m.active);
        c["moe_intermediate_size"] = json!(m.expert_intermediate);
        c["shared_expert_intermediate_size"] = json!(m.shared_intermediate.max(1));
        c["first_k_dense_replace"] = json!(m.first_dense_layers);
        c["interleave_moe_layer_step"] = json!(m.moe_every);
    }
    if let Some(m) = a.mla {
        c["kv_lora_rank"] = json!(m.kv_lora_rank);
        c["q_lora_rank"] = json!(m.q_lora_rank);
        c["qk_nope_head_dim"] = json!(m.qk_nope_head_dim);
        c["qk_rope_head_dim"] = json!(m.qk_rope_head_dim);
        c["v_head_dim"] = json!(m.v_head_dim);
    }
    if let Some(w) = a.sliding_window {
        c["sliding_window"] = json!(w.window);
        c["sliding_window_pattern"] = json!(w.global_every);
    }
    if a.vision.is_some() {
        c["vision_config"] = json!({"num_hidden_layers": 24, "hidden_size": 1024,
            "intermediate_size": 4096, "patch_size": 14, "image_size": 336});
    }
    c
}

fn read_json_files(dir: &str) -> Vec<(String, Value)> {
    let path = repo_root().join(dir);
    let mut out: Vec<(String, Value)> = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && !p.to_string_lossy().ends_with(".expected.json")
        })
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            (
                name.unwrap_or_default(),
                serde_json::from_str(&text).expect("seed files are JSON"),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The seeds: golden scenarios, the regression cases, one scenario per workload and engine.
fn scenario_seeds() -> Vec<Value> {
    let mut seeds: Vec<Value> = read_json_files("tests/scenarios")
        .into_iter()
        .chain(read_json_files("tests/fuzz"))
        .map(|(_, v)| v)
        .collect();
    for engine in [
        json!({"vllm": {"max_lora_rank": 16, "max_loras": 4, "version": "v0"}}),
        json!({"sglang": {"kv_cache_dtype": "fp8_e4m3"}}),
        json!({"llama_cpp": {"n_gpu_layers": 20, "flash_attn": false, "kv_unified": true}}),
        json!({"transformers": {"cache_implementation": "static", "batch_size": 8}}),
    ] {
        seeds.push(
            json!({"model": {"catalog": "gemma-3-27b-it"}, "weights": "gguf-q4_k_m",
            "workload": {"inference": {"context_tokens": 65536, "sequences": 8}},
            "hardware": {"gpu": "rtx-4090", "count": 2}, "engine": engine}),
        );
    }
    seeds.push(
        json!({"model": {"catalog": "deepseek-v3"}, "weights": "fp8-block",
        "unquantized_modules": ["lm_head", "model.layers.0.mlp"],
        "workload": {"train": {"method": "lora", "micro_batch": 4, "sequence_length": 4096,
            "sharding": "hybrid", "tensor_parallel": 2, "pipeline_parallel": 2,
            "offload_optimizer": true, "trainable_top_layers": 4}},
        "hardware": {"gpu_memory_gib": 80, "count": 16, "cuda_context_mib": 500}}),
    );
    seeds.push(json!({"workload": {"custom": {"items": [
        {"name": "a", "kind": "persistent", "size_gib": 14.5},
        {"name": "b", "kind": "workspace", "size_gib": 0.5, "count": 1000}]}}}));
    seeds.push(
        json!({"workload": {"generate_image": {"pipeline": "sd35-large", "width": 2048,
        "height": 1024, "batch": 4, "attention": "naive", "offload": "sequential",
        "vae_tiling": true, "drop_text_encoders": ["t5_xxl"], "denoiser_format": "gguf-q4-k-m"}}}),
    );
    seeds
}

fn config_seeds() -> Vec<Value> {
    let mut seeds: Vec<Value> = catalog::models().map(|m| hf_config_of(&m.arch)).collect();
    let text = std::fs::read_to_string(repo_root().join("tests/calibration/configs.json"))
        .expect("configs.json");
    let calib: Value = serde_json::from_str(&text).expect("JSON");
    if let Some(m) = calib["configs"].as_object() {
        seeds.extend(m.values().cloned());
    }
    seeds.push(
        json!({"model_type": "mllama", "text_config": {"model_type": "mllama_text_model",
        "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 40,
        "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
        "cross_attention_layers": [3, 8, 13, 18, 23, 28, 33, 38]},
        "vision_config": {"num_hidden_layers": 32, "hidden_size": 1280, "image_size": 560},
        "quantization_config": {"quant_method": "bitsandbytes", "load_in_4bit": true,
            "llm_int8_skip_modules": ["lm_head", "vision_model"]}}),
    );
    seeds.push(json!({"model_type": "gemma3_text", "hidden_size": 2560,
        "intermediate_size": 10240, "num_hidden_layers": 34, "num_attention_heads": 8,
        "num_key_value_heads": 4, "head_dim": 256, "vocab_size": 262208,
        "sliding_window": 1024, "layer_types": ["sliding_attention", "full_attention"]}));
    seeds
}

const LOG_SEEDS: &[&str] = &[
    "INFO worker.py:101] Memory profiling takes 6.2 seconds\n\
     the current vLLM instance can use total_gpu_memory (79.19GiB) x gpu_memory_utilization (0.90) = 71.27GiB\n\
     model weights take 14.99GiB; non_torch_memory takes 0.07GiB; PyTorch activation peak memory takes 1.26GiB; the rest of the memory reserved for KV Cache is 54.95GiB.\n\
     INFO kv_cache_utils.py:716] GPU KV cache size: 450,192 tokens\n\
     INFO Maximum concurrency for 32,768 tokens per request: 13.74x\n\
     Loading model weights took 14.9888 GB\nAvailable KV cache memory: 3.79 GiB",
    "load_tensors:        CUDA0 model buffer size =  4403.49 MiB\n\
     load_tensors:   CPU_Mapped model buffer size =   281.81 MiB\n\
     llama_kv_cache:      CUDA0 KV buffer size =  1024.00 MiB\n\
     sched_reserve:      CUDA0 compute buffer size =   304.00 MiB\n\
     sched_reserve:  CUDA_Host compute buffer size =    15.01 MiB",
    "max_memory_allocated_gib: 17.203\nmax_memory_reserved_gib: 17.9\ndevice_used_gib: 18.6  # x",
];

/// Mutates pasted text line by line: huge numbers, unicode, cut lines, repeated lines.
fn mutate_text(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for _ in 0..1 + rng.below(6) {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let i = rng.below(lines.len());
        match rng.below(7) {
            0 => lines[i] = lines[i].replace(|c: char| c.is_ascii_digit(), "9"),
            1 => lines[i].push_str(&"9".repeat(400)),
            2 => {
                let cut = rng.below(lines[i].chars().count() + 1);
                lines[i] = lines[i].chars().take(cut).collect();
            }
            3 => lines[i] = lines[i].to_uppercase() + "é€😀 ",
            4 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            5 => lines[i] = lines[i].replace('.', ",").replace("GiB", "MiB"),
            _ => lines[i].insert_str(0, &interesting_string(rng)),
        }
    }
    lines.join(if rng.chance(3) { "\r\n" } else { "\n" })
}

/// What a run observed.
#[derive(Default)]
struct Stats {
    estimates: u64,
    errors: u64,
    saturated: u64,
    /// Estimates whose KV cache was recomputed exactly ([`check_kv_exactly`]).
    kv_checked: u64,
    /// Estimates whose growth was probed ([`check_monotone`]).
    monotone_checked: u64,
    /// The slowest inputs seen (time of one run), at most `KEEP_SLOWEST`.
    slowest: Vec<(Duration, Scenario)>,
}

/// Slowest inputs kept for re-timing.
const KEEP_SLOWEST: usize = 12;

impl Stats {
    fn timed(&mut self, took: Duration, s: &Scenario) {
        if self.slowest.len() < KEEP_SLOWEST || took > self.slowest[KEEP_SLOWEST - 1].0 {
            self.slowest.push((took, s.clone()));
            self.slowest.sort_by_key(|x| std::cmp::Reverse(x.0));
            self.slowest.truncate(KEEP_SLOWEST);
        }
    }

    /// The slowest estimate: each kept input re-timed, its best of five runs (a single time is
    /// at the mercy of the scheduler), the worst of those.
    fn slowest_estimate(&self) -> (Duration, String) {
        self.slowest
            .iter()
            .map(|(_, s)| {
                let best = (0..5)
                    .map(|_| {
                        let t = Instant::now();
                        let _ = estimate(s);
                        t.elapsed()
                    })
                    .min()
                    .unwrap_or_default();
                (best, as_json(s))
            })
            .max_by_key(|(t, _)| *t)
            .unwrap_or_default()
    }
}

fn as_json(s: &Scenario) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

/// Sum of `items` in `u128`, then as the saturating `u64` the core reports.
fn exact_sum(items: impl Iterator<Item = u64>) -> u64 {
    u64::try_from(items.map(u128::from).sum::<u128>()).unwrap_or(SATURATED)
}

/// Runs `s` through the estimate and every check; `Err` names what failed.
fn check(s: &Scenario, stats: &mut Stats) -> Result<(), String> {
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| estimate(s)))
        .map_err(|_| format!("estimate panicked on {}", as_json(s)))?;
    stats.timed(start.elapsed(), s);
    match result {
        Err(e) => {
            stats.errors += 1;
            serde_json::to_string(&e).map_err(|e| format!("error not serialisable: {e}"))?;
            Ok(())
        }
        Ok(e) => {
            stats.estimates += 1;
            check_estimate(s, &e, stats).map_err(|why| format!("{why} for {}", as_json(s)))?;
            catch_unwind(AssertUnwindSafe(|| {
                let _ = measure::comparable(&e);
                let _ = measure::pytorch_script(s);
                let _ = measure::vllm_command(s);
                let _ = measure::llama_server_command(s);
            }))
            .map_err(|_| format!("measure panicked on {}", as_json(s)))?;
            if check_monotone(s).map_err(|why| format!("{why} for {}", as_json(s)))? {
                stats.monotone_checked += 1;
            }
            Ok(())
        }
    }
}

fn check_estimate(s: &Scenario, e: &Estimate, stats: &mut Stats) -> Result<(), String> {
    if e.total_bytes != exact_sum(e.components.iter().map(|c| c.bytes)) {
        return Err("total_bytes is not the sum of the components".into());
    }
    let mut saturated = e.total_bytes == SATURATED;
    let plans = e.plan.iter().chain(&e.recommendation.single_cards);
    for p in plans {
        let per_gpu = exact_sum(p.per_gpu_components.iter().map(|c| c.bytes));
        if p.per_gpu_bytes != per_gpu {
            return Err("a plan's per-GPU bytes are not the sum of its components".into());
        }
        if p.per_gpu_bytes == SATURATED || p.host_bytes == SATURATED {
            saturated = true;
        }
        if p.verdict == vramfit_core::Verdict::Fits
            && (p.per_gpu_bytes > p.card.capacity_bytes || p.per_gpu_bytes == SATURATED)
        {
            return Err("a plan larger than its card fits".into());
        }
    }
    if let Some(p) = &e.plan {
        for c in &e.components {
            // A mixed machine's deployment is every card's own components, summed.
            let want = if p.per_card.is_empty() {
                let per_gpu = p.per_gpu_components.iter().find(|x| x.id == c.id);
                per_gpu.map_or(0, |x| {
                    u64::try_from(u128::from(x.bytes) * u128::from(p.count)).unwrap_or(SATURATED)
                })
            } else {
                exact_sum(
                    p.per_card
                        .iter()
                        .flat_map(|card| &card.components)
                        .filter(|x| x.id == c.id)
                        .map(|x| x.bytes),
                )
            };
            if c.bytes != want {
                return Err(format!("{:?} is not the cards' own, summed", c.id));
            }
        }
        if check_kv_exactly(s, e, p)? {
            stats.kv_checked += 1;
        }
    }
    if saturated {
        stats.saturated += 1;
        if e.fits {
            return Err("a saturated estimate fits".into());
        }
        if !e.warnings.contains(&Warning::Saturated) {
            return Err("a saturated estimate carries no Saturated warning".into());
        }
    }
    if e.warnings.contains(&Warning::Saturated) && e.fits {
        return Err("an estimate flagged Saturated fits".into());
    }
    if e.fits
        && e.plan
            .as_ref()
            .is_none_or(|p| p.per_gpu_bytes > p.card.capacity_bytes)
    {
        return Err("fits without a plan that holds it".into());
    }
    Ok(())
}

/// Engine-neutral serving without windows, cross-attention or recurrent layers: the KV cache recomputed in `u128`
/// from the architecture must equal the component (or both be past 2^64). `Ok(false)` where the
/// input is not one it checks (the run counts those that are).
fn check_kv_exactly(s: &Scenario, e: &Estimate, p: &Plan) -> Result<bool, String> {
    let (Workload::Inference(inf), None, Some(m), None) =
        (&s.workload, &s.engine, &e.model, &s.speculative)
    else {
        return Ok(false);
    };
    let a = &m.arch;
    // Hybrid models keep a KV cache in their attention layers only (which ones: the config's
    // layer list or its family's default interval); `crates/vramfit-core/tests/hybrid.rs` checks
    // their KV cache and state by hand from each config.
    if a.sliding_window.is_some() || a.vision.is_some() || a.hybrid.is_some() {
        return Ok(false);
    }
    let tp = match p.split {
        Split::TensorParallel => u128::from(p.count),
        _ => 1,
    };
    let per_layer = match a.mla {
        Some(x) => u128::from(x.kv_lora_rank) + u128::from(x.qk_rope_head_dim),
        None => 2 * u128::from(a.kv_heads).div_ceil(tp) * u128::from(a.head_dim),
    };
    let bits = u128::from(e.kv_cache_format.bits());
    let per_seq =
        (per_layer * u128::from(a.layers) * u128::from(inf.context_tokens) * bits).div_ceil(8);
    let want = per_seq * u128::from(p.sequences_per_replica);
    let want = u64::try_from(want).unwrap_or(SATURATED);
    let got = p
        .per_gpu_components
        .iter()
        .find(|c| c.id == ComponentId::KvCache)
        .map_or(0, |c| c.bytes);
    if got != want {
        return Err(format!("KV cache {got} B, recomputed {want} B"));
    }
    Ok(true)
}

/// For workloads whose plan is judged by its sum (not pre-allocating engines, not llama.cpp with
/// a fixed `n_ctx`): the per-GPU bytes of the plan never shrink when the context (sequence length)
/// or the sequences (micro-batch) grow, as crates/vramfit-core/README.md ("Fuzzing") states and
/// the inverse bisections rely on. `Ok(false)` where the input is not one it probes.
fn check_monotone(s: &Scenario) -> Result<bool, String> {
    match &s.engine {
        Some(Engine::Vllm(_) | Engine::Sglang(_)) => return Ok(false),
        // A fixed `n_ctx` is shared by the slots: more slots pad each less (llama.cpp's rule).
        Some(Engine::LlamaCpp(l)) if l.n_ctx.is_some() => return Ok(false),
        _ => {}
    }
    let (base_ctx, base_seqs) = match &s.workload {
        Workload::Inference(i) => (i.context_tokens, i.sequences),
        Workload::Train(t) => (t.sequence_length, t.micro_batch),
        _ => return Ok(false),
    };
    let Ok(prepared) = prepare(s) else {
        return Ok(false);
    };
    let Ok((Some(plan), _)) = user_plan(s, &prepared) else {
        return Ok(false);
    };
    let base = prepared.inputs(s);
    let at = |ctx: u64, seqs: u64| {
        let mut job = base;
        job.inputs.context_tokens = ctx;
        job.inputs.sequences = seqs;
        Plan::evaluate(&job, plan.card, plan.count, plan.split, s.headroom_percent).per_gpu_bytes
    };
    let (c, q) = (u64::from(base_ctx), u64::from(base_seqs));
    let here = at(c, q);
    if at(c * 2 + 1, q) < here || at(c, q * 2 + 1) < here {
        return Err("memory shrank when context or sequences grew".into());
    }
    Ok(true)
}

/// A pair list for `query::from_pairs`, its values mutated from the seeds.
fn random_pairs(rng: &mut Rng, seeds: &[Value], configs: &[Value]) -> Vec<(String, String)> {
    #[rustfmt::skip]
    const PARAMS: &[&str] = &[
        "model", "config", "weights", "kv", "ctx", "seqs", "chunk", "train", "image", "video",
        "custom", "gpu", "mem", "n", "cuda_ctx", "headroom", "engine", "unquantized", "lang",
        "junk",
    ];
    let mut pairs = Vec::new();
    for _ in 0..1 + rng.below(8) {
        let key = *rng.pick(PARAMS);
        let value = match key {
            "config" => {
                let mut c = rng.pick(configs).clone();
                if rng.chance(2) {
                    mutate(&mut c, rng, configs);
                }
                c.to_string()
            }
            "train" | "image" | "video" | "custom" | "engine" => {
                let seed = rng.pick(seeds);
                let sub = match key {
                    "engine" => seed["engine"].clone(),
                    _ => seed["workload"]
                        .as_object()
                        .and_then(|w| w.values().next().cloned())
                        .unwrap_or(Value::Null),
                };
                let mut sub = sub;
                if rng.chance(2) {
                    mutate(&mut sub, rng, seeds);
                }
                sub.to_string()
            }
            "unquantized" => {
                let n = if rng.chance(4) { 300 } else { rng.below(5) };
                Value::Array((0..n).map(|_| json!(interesting_string(rng))).collect()).to_string()
            }
            _ if rng.chance(2) => interesting_number(rng).to_string(),
            _ => interesting_string(rng),
        };
        pairs.push((key.to_string(), value));
    }
    pairs
}

/// Stops the run, naming the seed and the input.
fn fail(seed: u64, why: String) -> ! {
    panic!("fuzz (seed {seed}): {why}")
}

fn run(iters: u64, seed: u64) -> Stats {
    let mut rng = Rng(seed);
    let seeds = scenario_seeds();
    let configs = config_seeds();
    let mut stats = Stats::default();
    let fail = |why: String| -> ! { fail(seed, why) };
    for _ in 0..iters {
        // Scenario JSON, mutated as a tree and now and then as text.
        let mut v = rng.pick(&seeds).clone();
        for _ in 0..1 + rng.below(4) {
            mutate(&mut v, &mut rng, &seeds);
        }
        let mut text = v.to_string();
        if rng.chance(16) {
            text = mutate_text(&text, &mut rng);
        }
        let parsed = catch_unwind(|| serde_json::from_str::<Scenario>(&text))
            .unwrap_or_else(|_| fail(format!("parsing panicked on {text}")));
        if let Ok(s) = parsed {
            check(&s, &mut stats).unwrap_or_else(|why| fail(why));
        }

        // A pasted config.json, read and then estimated under a random engine.
        let mut c = rng.pick(&configs).clone();
        for _ in 0..1 + rng.below(3) {
            mutate(&mut c, &mut rng, &configs);
        }
        let read = catch_unwind(AssertUnwindSafe(|| {
            let _ = hf_config::quantization(&c);
            hf_config::parse_value(&c)
        }))
        .unwrap_or_else(|_| fail(format!("config reader panicked on {c}")));
        if read.is_ok() {
            let engine = rng.pick(&seeds)["engine"].clone();
            let most = if rng.chance(2) { 100_000 } else { 64 };
            let mut s = json!({"model": {"hf_config": c}, "weights": rng.pick(&[
                    "bf16", "gguf-q4_k_m", "bnb-nf4-dq", "fp8-block", "awq-int4-g128", "mxfp4"]),
                "workload": {"inference": {"context_tokens": rng.below(10_000_000) + 1,
                    "sequences": 1 + rng.below(most)}},
                "hardware": {"gpu": rng.pick(&["h200", "rtx-4090", "m4-max-128gb"]),
                    "count": 1 + rng.below(8)}});
            if !engine.is_null() {
                s["engine"] = engine;
            }
            if let Ok(s) = serde_json::from_value::<Scenario>(s) {
                check(&s, &mut stats).unwrap_or_else(|why| fail(why));
            }
        }

        // URL query pairs: whatever they hold, the scenario read back is valid.
        let pairs = random_pairs(&mut rng, &seeds, &configs);
        let (s, _) = catch_unwind(|| query::from_pairs(&pairs))
            .unwrap_or_else(|_| fail(format!("from_pairs panicked on {pairs:?}")));
        if !s.validate().is_empty() {
            fail(format!(
                "from_pairs returned an invalid scenario for {pairs:?}"
            ));
        }
        check(&s, &mut stats).unwrap_or_else(|why| fail(format!("{why} (from {pairs:?})")));

        // Pasted logs.
        let log_seed = *rng.pick(LOG_SEEDS);
        let log = mutate_text(log_seed, &mut rng);
        catch_unwind(|| measure::parse_measured(&log))
            .unwrap_or_else(|_| fail(format!("parse_measured panicked on {log:?}")));
    }
    stats
}

#[test]
fn fuzz_every_input_ends_in_an_estimate_or_a_typed_error() {
    let iters = env_u64("VRAMFIT_FUZZ_ITERS").unwrap_or(DEFAULT_ITERS);
    let seed = env_u64("VRAMFIT_FUZZ_SEED").unwrap_or(0x5EED_0012);
    let start = Instant::now();
    let stats = run(iters, seed);
    let elapsed = start.elapsed();
    let (slowest, input) = stats.slowest_estimate();
    println!(
        "fuzz: seed {seed}, {iters} rounds ({} estimates, {} typed errors, {} saturated) in {:.1} s; \
         slowest estimate {:.2} ms (best of 5, {} build): {input}",
        stats.estimates,
        stats.errors,
        stats.saturated,
        elapsed.as_secs_f64(),
        slowest.as_secs_f64() * 1e3,
        if cfg!(debug_assertions) { "debug" } else { "release" },
    );
    assert!(
        stats.estimates > iters,
        "the fuzzer reached too few estimates"
    );
    // The exact checks must keep reaching inputs they check: a generator that drifts away from
    // them would leave them passing on nothing.
    println!(
        "fuzz: KV cache recomputed exactly on {} estimates, growth probed on {}",
        stats.kv_checked, stats.monotone_checked
    );
    assert!(
        stats.kv_checked * MIN_CHECKED_SHARE >= stats.estimates,
        "the exact KV check reached {} of {} estimates",
        stats.kv_checked,
        stats.estimates
    );
    assert!(
        stats.monotone_checked * MIN_CHECKED_SHARE >= stats.estimates,
        "the growth probe reached {} of {} estimates",
        stats.monotone_checked,
        stats.estimates
    );
}

/// Each exact check must reach at least one estimate in this many.
const MIN_CHECKED_SHARE: u64 = 20;

/// Inputs whose arithmetic once overflowed, each with the outcome it must have now.
#[test]
fn regression_cases_from_issue_12() {
    let too_large = |key: &'static str, max: u64| -> Result<(), ScenarioError> {
        Err(ScenarioError::Config {
            error: ConfigError::TooLarge { key, max },
        })
    };
    let cases: Vec<(&str, Result<(), ScenarioError>)> = vec![
        (
            "vllm-block-division-by-zero.json",
            too_large("num_attention_heads", 1024),
        ),
        ("kv-cache-exactly-2-pow-64.json", Ok(())),
        ("transformers-100k-sequences-1m-context.json", Ok(())),
        (
            "shared-experts-u32-wrap.json",
            too_large("n_shared_experts", 256),
        ),
        ("video-naive-attention-max.json", Ok(())),
        ("training-activations-max.json", Ok(())),
        ("llama-cpp-cells-max.json", Ok(())),
        (
            "vision-tower-params-wrap.json",
            too_large("num_hidden_layers", 1024),
        ),
        ("layers-2-pow-24.json", too_large("num_hidden_layers", 1024)),
        ("layers-100k.json", too_large("num_hidden_layers", 1024)),
    ];
    let files = read_json_files("tests/fuzz");
    assert_eq!(
        files.len(),
        cases.len(),
        "every file in tests/fuzz/ has a case here"
    );
    let mut stats = Stats::default();
    for (name, want) in cases {
        let (_, v) = files
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("tests/fuzz/{name}"));
        let s: Scenario = serde_json::from_value(v.clone()).expect("a valid scenario");
        check(&s, &mut stats).unwrap_or_else(|why| panic!("{name}: {why}"));
        match (estimate(&s), want) {
            (Ok(e), Ok(())) => {
                // Each of these needs more than 2^64 bytes somewhere: flagged, and fits nowhere.
                assert!(!e.fits, "{name} fits");
                assert!(
                    e.warnings.contains(&Warning::Saturated),
                    "{name} not flagged"
                );
                assert!(
                    e.plan
                        .is_none_or(|p| p.verdict != vramfit_core::Verdict::Fits),
                    "{name}"
                );
            }
            (Err(got), Err(want)) => assert_eq!(got, want, "{name}"),
            (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
        }
    }

    // The 2^64-byte KV cache is reported at the limit on every card, never as 0.
    let (_, v) = files
        .iter()
        .find(|(n, _)| n == "kv-cache-exactly-2-pow-64.json")
        .expect("case");
    let s: Scenario = serde_json::from_value(v.clone()).expect("valid");
    let e = estimate(&s).expect("estimate");
    for p in &e.recommendation.single_cards {
        let kv = p
            .per_gpu_components
            .iter()
            .find(|c| c.id == ComponentId::KvCache);
        assert_eq!(kv.map(|c| c.bytes), Some(SATURATED));
    }

    // 50,000 unquantised modules: refused by validation before any work.
    let mut s = Scenario::example();
    s.unquantized_modules = (0..50_000)
        .map(|i| format!("model.layers.{}.mlp.experts.{i}", i % 126))
        .collect();
    let start = Instant::now();
    assert_eq!(
        estimate(&s).err(),
        Some(ScenarioError::InvalidFields {
            fields: vec![(
                Field::UnquantizedModules,
                RangeError::TooLarge { max: 256.0 }
            )]
        })
    );
    assert!(start.elapsed() < Duration::from_secs(1));

    // A link whose `n` falls back must still give a valid scenario (training's tensor_parallel
    // of 2 no longer fits on the one card left).
    let (s, notes) = query::from_pairs(&[
        ("n", "65"),
        (
            "train",
            r#"{"micro_batch":1,"sequence_length":2048,"tensor_parallel":2}"#,
        ),
    ]);
    assert!(s.validate().is_empty(), "{:?}", s.validate());
    let params: Vec<&str> = notes.iter().map(|n| n.param.as_str()).collect();
    assert_eq!(params, ["n", "train"]);
    assert!(estimate(&s).is_ok());
}
