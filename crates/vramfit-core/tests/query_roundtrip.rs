//! Links reproduce the view: every valid scenario survives `query::to_pairs` → `query::from_pairs`
//! field for field, with no note; and whatever a link holds, `from_pairs` returns a scenario that
//! validates (a fallback that invalidates another field is followed by that field's fallback).

use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use serde_json::{json, Value};
use std::cell::Cell;
use vramfit_core::query::{from_pairs, to_pairs};
use vramfit_core::{catalog, KvCacheFormat, Scenario, WeightFormat, PIPELINES};

/// A Hugging Face config.json the reader accepts.
fn config(i: usize) -> Value {
    [
        json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
            "vocab_size": 128256, "rope_scaling": {"factor": 8.0}, "torch_dtype": "bfloat16"}),
        json!({"model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144,
            "num_hidden_layers": 48, "num_attention_heads": 32, "num_key_value_heads": 4,
            "head_dim": 128, "vocab_size": 151936, "num_experts": 128, "num_experts_per_tok": 8,
            "moe_intermediate_size": 768, "quantization_config": {"quant_method": "fp8",
            "weight_block_size": [128, 128], "modules_to_not_convert": ["lm_head"]}}),
    ][i % 2]
        .clone()
}

/// `n / div` as a person types it: a short decimal (serde_json reads a 17-digit float to within
/// an ulp only, and the UI's numbers come from typed text).
fn typed(n: u32, div: u32) -> f64 {
    f64::from(n) / f64::from(div)
}

/// The `i`-th of `items`, wrapping around.
fn one<'a>(items: &[&'a str], i: u32) -> &'a str {
    items[i as usize % items.len()]
}

fn engine(kind: usize, x: &[u32; 6], flags: [bool; 3]) -> Value {
    let [a, b, c, d, e, f] = *x;
    match kind {
        0 => Value::Null,
        1 => json!({"vllm": {"gpu_memory_utilization": typed(50 + a % 951, 1000),
            "max_model_len": 16 + a % 100_000, "max_num_seqs": 1 + b % 1000,
            "tensor_parallel_size": 1 + c % 8, "kv_cache_dtype": one(&["auto", "fp8"], d),
            "version": one(&["v1", "v0", "v0-legacy"], e), "enforce_eager": flags[0],
            "max_lora_rank": 8 + f % 64, "max_loras": 1 + a % 4}}),
        2 => json!({"sglang": {"mem_fraction_static": typed(50 + a % 951, 1000),
            "context_length": 16 + a % 100_000, "chunked_prefill_size": 16 + b % 10_000,
            "tp_size": 1 + c % 4, "kv_cache_dtype": "fp8_e4m3", "max_running_requests": 1 + d % 512}}),
        3 => json!({"llama_cpp": {"n_ctx": 1 + a % 1_000_000, "n_batch": 1 + b % 4096,
            "n_ubatch": 1 + c % 4096, "n_parallel": 1 + d % 64, "flash_attn": true,
            "n_gpu_layers": e % 200, "cache_type_k": one(&["f16", "q8_0", "q4_0"], f),
            "cache_type_v": "q8_0", "kv_unified": flags[1], "server": flags[2]}}),
        _ => json!({"transformers": {"batch_size": 1 + a % 64, "max_new_tokens": 1 + b % 4096,
            "attn_implementation": one(&["sdpa", "eager", "flash_attention_2"], c),
            "cache_implementation": one(&["dynamic", "static"], d)}}),
    }
}

fn workload(kind: usize, x: &[u32; 6], flags: [bool; 3]) -> Value {
    let [a, b, c, d, e, f] = *x;
    match kind {
        0 => json!({"inference": {"context_tokens": 1 + a % 10_000_000,
            "sequences": 1 + b % 100_000, "prefill_chunk_tokens": 16 + c % 1_000_000}}),
        1 => json!({"train": {"method": one(&["full", "lora", "qlora"], a),
            "lora_rank": 1 + b % 256, "lora_targets": one(&["query_value", "all_linear"], c),
            "double_quant": flags[0], "micro_batch": 1 + d % 64, "sequence_length": 1 + e % 32768,
            "gradient_accumulation": 1 + f % 16,
            "precision": one(&["fp32", "amp_fp16", "amp_bf16", "mixed_master", "bf16"], a),
            "optimizer": one(&["adamw", "adamw8bit", "adafactor", "sgd", "lion"], b),
            "checkpointing": one(&["none", "selective", "full"], c),
            "flash_attention": flags[1], "compiled": flags[2], "trainable_top_layers": 1 + d % 8,
            "sharding": one(&["ddp", "zero1", "zero2", "zero3", "hybrid"], e),
            "hybrid_group": 1 + f % 8, "offload_optimizer": flags[0]}}),
        2 | 3 => {
            let video = kind == 3;
            let candidates: Vec<_> = PIPELINES.iter().filter(|p| p.video == video).collect();
            let p = candidates[a as usize % candidates.len()];
            let side = 64 * (4 + b % 28);
            let mut g = json!({"pipeline": p.id, "width": side, "height": 64 * (4 + c % 28),
                "batch": 1 + d % 4, "guidance": flags[0], "attention": one(&["sdpa", "naive"], e),
                "offload": one(&["none", "model", "sequential"], f), "vae_tiling": flags[1],
                "vae_slicing": flags[2], "denoiser_format": one(&["fp8", "bf16", "nf4"], a)});
            if video {
                g["frames"] = json!(1 + p.temporal_factor * (1 + e % 20));
                json!({"generate_video": g})
            } else {
                json!({"generate_image": g})
            }
        }
        _ => json!({"custom": {"items": (0..a % 5).map(|i| json!({
            "name": format!("item é{i}"), "kind": one(&["persistent", "intermediate", "cache", "workspace"], b + i),
            "size_gib": typed(i * 1000 + c % 100_000, 100), "count": 1 + u64::from(c % 1000)})).collect::<Vec<_>>()}}),
    }
}

prop_compose! {
    fn scenarios()(
        model in 0usize..4, pick in 0usize..1000, weights in 0usize..64, kv in 0usize..8,
        unquantized in proptest::collection::vec("[a-z0-9._é]{0,24}", 0..4),
        work in 0usize..5, eng in 0usize..5, x in any::<[u32; 6]>(),
        millis in 0u32..1000, flags in any::<[bool; 3]>(), hw in 0usize..3, count in 1u32..=64,
        cuda in proptest::option::of(0u32..100_000), headroom in 5u32..=50,
    ) -> Option<Scenario> {
        let models: Vec<_> = catalog::models().collect();
        let m = models[pick % models.len()];
        let workload = workload(work, &x, flags);
        let llm = work <= 1;
        let model = match model {
            0 if !llm => Value::Null,
            0 | 1 => json!({"catalog": m.id}),
            2 => json!({"catalog": m.hf_repo}),
            _ => json!({"hf_config": config(pick)}),
        };
        let formats = WeightFormat::all();
        let mut s = json!({"model": model, "weights": formats[weights % formats.len()].id(),
            "unquantized_modules": unquantized, "workload": workload,
            "headroom_percent": headroom});
        if kv < KvCacheFormat::ALL.len() {
            s["kv_cache"] = json!(KvCacheFormat::ALL[kv].id());
        }
        let gpus: Vec<_> = catalog::all_gpus().collect();
        s["hardware"] = match hw {
            0 => json!({"gpu": gpus[pick % gpus.len()].id, "count": count}),
            1 => json!({"gpu_memory_gib": typed(1000 + millis * 4095, 1000), "count": count}),
            _ => json!({"count": count}),
        };
        if let Some(mib) = cuda {
            s["hardware"]["cuda_context_mib"] = json!(mib);
        }
        let e = engine(eng, &x, flags);
        if llm && work == 0 && !e.is_null() {
            s["engine"] = e;
        }
        // A workload without a language model has no model, weights or KV cache of one: its
        // link carries none (an image link once carried an LLM's `model=` and `weights=`).
        if !llm {
            if let Some(o) = s.as_object_mut() {
                o.remove("model");
                o.remove("kv_cache");
                o.remove("unquantized_modules");
                o.insert("weights".into(), json!("bf16"));
            }
        }
        if s["model"].is_null() {
            s.as_object_mut().map(|o| o.remove("model"));
        }
        serde_json::from_value::<Scenario>(s).ok().filter(|s| s.validate().is_empty())
    }
}

/// Every generated scenario that validates survives its link. A generated scenario that does not
/// validate is skipped, so the valid ones are counted: at least half the cases must be valid, or
/// a generator (or a validation) gone wrong would pass by checking nothing.
#[test]
fn every_field_survives_a_link() {
    const CASES: u32 = 400;
    let mut config = ProptestConfig::with_cases(CASES);
    config.source_file = Some(file!());
    config.test_name = Some(concat!(module_path!(), "::every_field_survives_a_link"));
    let mut runner = TestRunner::new(config);
    let valid = Cell::new(0u32);
    let result = runner.run(&scenarios(), |s| {
        let Some(s) = s else { return Ok(()) };
        valid.set(valid.get() + 1);
        let pairs = to_pairs(&s);
        let (back, notes) = from_pairs(&pairs);
        prop_assert!(notes.is_empty(), "notes {:?} for {:?}", notes, pairs);
        prop_assert_eq!(back, s);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}\n{runner}");
    }
    println!("{} of {CASES} generated scenarios valid", valid.get());
    assert!(
        2 * valid.get() >= CASES,
        "only {} of {CASES} generated scenarios valid",
        valid.get()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn any_link_reads_as_a_valid_scenario(
        keys in proptest::collection::vec(0usize..20, 0..8),
        values in proptest::collection::vec(".{0,12}|[0-9]{1,12}|-[0-9]{1,3}", 8),
    ) {
        const PARAMS: [&str; 20] = ["model", "config", "weights", "kv", "ctx", "seqs", "chunk",
            "train", "image", "video", "custom", "gpu", "mem", "n", "cuda_ctx", "headroom",
            "engine", "unquantized", "lang", "x"];
        let pairs: Vec<(&str, &str)> = keys.iter().zip(&values)
            .map(|(&k, v)| (PARAMS[k], v.as_str())).collect();
        let (s, _) = from_pairs(&pairs);
        prop_assert!(s.validate().is_empty());
        prop_assert!(s.model.is_some() || !s.workload.needs_model());
    }
}

#[test]
fn a_fallen_back_count_revalidates_the_training_run() {
    let train =
        r#"{"micro_batch":1,"sequence_length":2048,"tensor_parallel":4,"pipeline_parallel":2}"#;
    for n in ["65", "0", "-3", "x"] {
        let (s, notes) = from_pairs(&[("n", n), ("train", train)]);
        assert!(s.validate().is_empty(), "n={n}: {:?}", s.validate());
        assert!(notes.iter().any(|q| q.param == "n"), "n={n}");
        assert!(notes.iter().any(|q| q.param == "train"), "n={n}");
    }
    // The link of a scenario without a model keeps it without one.
    let mut s = Scenario::example();
    s.workload = vramfit_core::Workload::Custom(Default::default());
    s.model = None;
    let (back, notes) = from_pairs(&to_pairs(&s));
    assert!(notes.is_empty());
    assert_eq!(back, s);
}

/// A bad workload link keeps its workload: `?image={"pipeline":"flux1-dev","width":100000}`
/// became "Serve an LLM"; now the width takes its starting value and the note names the field.
#[test]
fn a_bad_generation_field_keeps_the_workload() {
    let (s, notes) = from_pairs(&[(
        "image",
        r#"{"pipeline":"flux1-dev","width":100000,"height":1024}"#,
    )]);
    let vramfit_core::Workload::GenerateImage(g) = &s.workload else {
        panic!("still image generation: {:?}", s.workload)
    };
    assert_eq!(g.pipeline, "flux1-dev");
    assert!(notes.iter().any(|n| n.param == "image.width"), "{notes:?}");
    // A video link with an unusable config stays a video link.
    let (s, notes) = from_pairs(&[
        (
            "video",
            r#"{"pipeline":"wan21-t2v-1.3b","width":832,"height":480,"frames":81}"#,
        ),
        ("config", "{\"architectures\":[\"Nope\"]}"),
    ]);
    assert!(
        matches!(s.workload, vramfit_core::Workload::GenerateVideo(_)),
        "{:?}",
        s.workload
    );
    assert!(notes.iter().any(|n| n.param == "config"), "{notes:?}");
    // A training link with an out-of-range setting stays training.
    let (s, notes) = from_pairs(&[(
        "train",
        r#"{"method":"lora","micro_batch":0,"sequence_length":2048}"#,
    )]);
    assert!(
        matches!(s.workload, vramfit_core::Workload::Train(_)),
        "{:?}",
        s.workload
    );
    assert!(!notes.is_empty());
}
