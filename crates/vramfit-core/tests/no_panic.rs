//! Hostile input never panics (a panic in wasm kills the page): random and absurd values for every
//! workload go through validation and, when valid, through the estimate.

use proptest::prelude::*;
use vramfit_core::{estimate, Scenario};

fn run(json: serde_json::Value) {
    if let Ok(s) = serde_json::from_value::<Scenario>(json) {
        let _ = estimate(&s);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn training_values(mb in 0u32..100_000, seq in 0u32..20_000_000, rank in 0u32..100_000, tp in 0u32..100, pp in 0u32..100, n in 0u32..100) {
        run(serde_json::json!({
            "model": {"catalog": "qwen3-30b-a3b"},
            "workload": {"train": {"method": "qlora", "micro_batch": mb, "sequence_length": seq, "lora_rank": rank,
                "tensor_parallel": tp, "pipeline_parallel": pp, "sharding": "hybrid", "checkpointing": "full"}},
            "hardware": {"gpu": "h100-sxm-80gb", "count": n}
        }));
    }

    #[test]
    fn generation_values(w in 0u32..20_000, h in 0u32..20_000, frames in 0u32..3000, batch in 0u32..200, p in 0usize..18) {
        let pipes = ["sd15", "sdxl", "sdxl-refiner", "sd3-medium", "sd35-medium", "sd35-large", "flux1-dev", "flux1-schnell", "flux1-kontext-dev", "qwen-image",
            "wan21-t2v-1.3b", "wan21-t2v-14b", "wan22-t2v-a14b", "wan22-ti2v-5b", "hunyuanvideo", "cogvideox-2b", "cogvideox-5b", "ltx-video"];
        for kind in ["generate_image", "generate_video"] {
            run(serde_json::json!({
                "workload": {kind: {"pipeline": pipes[p], "width": w, "height": h, "frames": frames, "batch": batch,
                    "attention": "naive", "offload": "sequential", "vae_tiling": true}}
            }));
        }
    }

    #[test]
    fn serving_values(ctx in 0u32..20_000_000, seqs in 0u32..200_000, util in -1.0f64..2.0, ngl in 0u32..300, ub in 0u32..100_000) {
        for engine in [
            serde_json::json!({"vllm": {"gpu_memory_utilization": util, "max_num_seqs": seqs}}),
            serde_json::json!({"sglang": {"mem_fraction_static": util}}),
            serde_json::json!({"llama_cpp": {"n_gpu_layers": ngl, "n_ubatch": ub, "cache_type_k": "q4_0"}}),
            serde_json::json!({"transformers": {"max_new_tokens": ub}}),
        ] {
            run(serde_json::json!({
                "model": {"catalog": "deepseek-v3"}, "weights": "gguf-q2_k",
                "workload": {"inference": {"context_tokens": ctx, "sequences": seqs}},
                "hardware": {"gpu_memory_gib": 0.5 + util.abs() * 200.0, "count": 3},
                "engine": engine
            }));
        }
    }

    #[test]
    fn custom_values(size in -10.0f64..1e7, count in 0u64..u64::MAX) {
        run(serde_json::json!({"workload": {"custom": {"items": [{"kind": "cache", "size_gib": size, "count": count}]}}}));
    }
}
