//! Catalog checks: every model's computed parameter count matches its published count within
//! 0.5 %; ids are unique kebab-case; every model has Hugging Face repo ids that resolve to it; the
//! GPU catalog spans 8 GB to 288 GB from three vendors, each card's memory observed or derived
//! (and said so); unified-memory machines stay out of the recommender's list; a scenario may name
//! its model by repo id.

use vramfit_core::catalog::{self, Vendor, GPUS, UNIFIED_MEMORY};

fn is_kebab(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
}

#[test]
fn every_model_count_matches_its_card() {
    let n = catalog::models().count();
    assert!(n >= 100, "only {n} models");
    let mut bad = Vec::new();
    for m in catalog::models() {
        let computed = m.compared_params() as f64;
        let published = m.published_params as f64;
        let dev = (computed - published).abs() / published;
        if dev > 0.005 {
            bad.push(format!(
                "{}: computed {computed} vs published {published} ({:.2} %)",
                m.id,
                dev * 100.0
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "counts off by more than 0.5 %:\n{}",
        bad.join("\n")
    );
}

#[test]
fn ids_are_unique_and_kebab_case() {
    let mut ids: Vec<&str> = catalog::models()
        .map(|m| m.id)
        .chain(catalog::all_gpus().map(|g| g.id))
        .collect();
    assert!(ids.iter().all(|id| is_kebab(id)), "{ids:?}");
    ids.sort_unstable();
    let before = ids.len();
    ids.dedup();
    assert_eq!(before, ids.len(), "duplicate ids");
}

#[test]
fn gpu_catalog_covers_the_range() {
    assert!(GPUS.len() >= 80, "only {} GPUs", GPUS.len());
    let min = GPUS.iter().map(|g| g.marketed_gb).min().unwrap_or(0);
    let max = GPUS.iter().map(|g| g.marketed_gb).max().unwrap_or(0);
    assert!(min <= 8 && max >= 288, "{min}..{max} GB");
    for vendor in [Vendor::Nvidia, Vendor::Amd, Vendor::Intel] {
        assert!(GPUS.iter().any(|g| g.vendor == vendor), "{vendor:?}");
    }
    assert!(GPUS.iter().all(|g| !g.unified));
    // Sorted ascending by reported memory: the recommender relies on it.
    assert!(GPUS
        .windows(2)
        .all(|w| w[0].reported_mib <= w[1].reported_mib));
    // Reported memory never exceeds the marketed capacity read as GiB.
    for g in GPUS {
        assert!(
            g.reported_mib <= u64::from(g.marketed_gb) * 1024,
            "{}",
            g.id
        );
        assert!(
            g.reported_mib * 100 >= u64::from(g.marketed_gb) * 1024 * 85,
            "{}",
            g.id
        );
    }
}

#[test]
fn every_card_says_whether_its_memory_is_observed_or_derived() {
    for g in catalog::all_gpus() {
        assert!(
            g.source.starts_with("observed: ") || g.source.starts_with("derived: "),
            "{}: {}",
            g.id,
            g.source
        );
        assert!(g.bandwidth_gb_s > 0 && g.marketed_gb > 0, "{}", g.id);
    }
}

#[test]
fn unified_memory_machines_are_apart_and_bounded_by_their_ram() {
    assert!(UNIFIED_MEMORY.len() >= 30);
    for g in UNIFIED_MEMORY {
        assert!(g.unified, "{}", g.id);
        let ram_mib = u64::from(g.marketed_gb) * 1024;
        // The GPU may hold at most the RAM and, by default, at least 2/3 of it.
        assert!(g.reported_mib <= ram_mib, "{}", g.id);
        assert!(g.reported_mib * 3 >= ram_mib * 2 - 3, "{}", g.id);
        assert_eq!(catalog::gpu(g.id).map(|x| x.id), Some(g.id));
    }
    // Apple: the macOS default wired limit, 2/3 of RAM up to 36 GB and 3/4 above.
    for g in UNIFIED_MEMORY.iter().filter(|g| g.vendor == Vendor::Apple) {
        let ram_mib = u64::from(g.marketed_gb) * 1024;
        let limit = if g.marketed_gb <= 36 {
            ram_mib * 2 / 3
        } else {
            ram_mib * 3 / 4
        };
        assert_eq!(g.reported_mib, limit, "{}", g.id);
    }
}

#[test]
fn every_model_has_repo_ids_that_resolve_to_it() {
    let mut seen: Vec<String> = Vec::new();
    for m in catalog::models() {
        for r in m.repo_ids() {
            let (org, name) = r.split_once('/').unwrap_or(("", ""));
            assert!(
                !org.is_empty() && !name.is_empty() && !name.contains('/'),
                "{}: {r}",
                m.id
            );
            seen.push(r.to_ascii_lowercase());
            let hit = catalog::lookup(r).map(|h| (h.model.id, h.format));
            assert_eq!(hit.map(|h| h.0), Some(m.id), "{r}");
            assert!(hit.is_some_and(|h| h.1.is_none()), "{r}");
            let upper = r.to_ascii_uppercase();
            assert_eq!(catalog::lookup(&upper).map(|h| h.model.id), Some(m.id));
        }
    }
    let n = seen.len();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(n, seen.len(), "a repo id names two entries");
}

#[test]
fn base_and_instruct_checkpoints_are_separate_entries() {
    for (base, instruct) in [
        ("llama-3.1-8b", "llama-3.1-8b-instruct"),
        ("llama-3.1-70b", "llama-3.1-70b-instruct"),
        ("qwen2.5-7b", "qwen2.5-7b-instruct"),
        ("qwen3-8b-base", "qwen3-8b"),
        ("mistral-7b-v0.3", "mistral-7b-instruct-v0.3"),
        ("gemma-3-27b-pt", "gemma-3-27b-it"),
        ("mixtral-8x7b-v0.1", "mixtral-8x7b-instruct"),
        ("smollm3-3b-base", "smollm3-3b"),
        ("olmo-2-1124-7b", "olmo-2-1124-7b-instruct"),
        ("olmo-2-1124-13b", "olmo-2-1124-13b-instruct"),
    ] {
        let (b, i) = (catalog::model(base), catalog::model(instruct));
        assert!(b.is_some() && i.is_some(), "{base} / {instruct}");
        assert_ne!(b.map(|m| m.hf_repo), i.map(|m| m.hf_repo));
    }
}

#[test]
fn a_scenario_can_name_its_model_by_repo_id() {
    let scenario = |model: &str| -> vramfit_core::Scenario {
        serde_json::from_value(serde_json::json!({
            "model": {"catalog": model},
            "weights": "awq-int4-g128",
            "workload": {"inference": {"context_tokens": 4096, "sequences": 1}},
            "hardware": {"gpu": "rtx-4090", "count": 1}
        }))
        .expect("scenario")
    };
    let by_id = vramfit_core::estimate(&scenario("qwen2.5-7b-instruct")).expect("estimate");
    for repo in [
        "Qwen/Qwen2.5-7B-Instruct",
        "qwen/qwen2.5-7b-instruct",
        "Qwen/Qwen2.5-7B-Instruct-AWQ",
    ] {
        let by_repo = vramfit_core::estimate(&scenario(repo)).expect("estimate");
        assert_eq!(by_repo.total_bytes, by_id.total_bytes, "{repo}");
        assert_eq!(
            serde_json::to_value(&by_repo.model).expect("json"),
            serde_json::to_value(&by_id.model).expect("json"),
            "{repo}"
        );
    }
    assert!(vramfit_core::estimate(&scenario("nobody/Nothing-7B")).is_err());
}

#[test]
fn unified_machines_can_be_chosen_by_id() {
    let s: vramfit_core::Scenario = serde_json::from_value(serde_json::json!({
        "model": {"catalog": "llama-3.1-8b-instruct"},
        "weights": "gguf-q4_k_m",
        "workload": {"inference": {"context_tokens": 8192, "sequences": 1}},
        "hardware": {"gpu": "apple-m4-max-128gb", "count": 1}
    }))
    .expect("scenario");
    let e = vramfit_core::estimate(&s).expect("estimate");
    assert!(e.fits);
}

/// Intel Gaudi HPUs sit in their own list: picked by id, bounded by their HBM like the discrete
/// cards, never walked by the recommender; the AMD APUs are unified-memory machines.
#[test]
fn hpus_and_amd_apus_are_apart_and_chosen_by_id() {
    use vramfit_core::catalog::HPUS;
    assert_eq!(
        HPUS.iter().map(|g| g.id).collect::<Vec<_>>(),
        ["gaudi2", "gaudi3"]
    );
    for g in HPUS {
        assert!(!g.unified && g.vendor == Vendor::Intel, "{}", g.id);
        assert!(!GPUS.iter().any(|x| x.id == g.id), "{}", g.id);
        let hbm = u64::from(g.marketed_gb) * 1024;
        assert!(
            g.reported_mib <= hbm && g.reported_mib * 100 >= hbm * 85,
            "{}",
            g.id
        );
    }
    for id in ["mi300a", "ryzen-ai-max-395-128gb"] {
        let g = catalog::gpu(id).expect("in catalog");
        assert!(
            g.unified && UNIFIED_MEMORY.iter().any(|x| x.id == id),
            "{id}"
        );
        assert_eq!(g.reported_mib, 96 * 1024, "{id}");
    }
    let s: vramfit_core::Scenario = serde_json::from_value(serde_json::json!({
        "model": {"catalog": "llama-3.1-8b-instruct"},
        "workload": {"inference": {"context_tokens": 8192, "sequences": 4}},
        "hardware": {"gpu": "gaudi2", "count": 1}
    }))
    .expect("scenario");
    let e = vramfit_core::estimate(&s).expect("estimate");
    assert!(e.fits);
    assert_eq!(
        e.plan.map(|p| p.card.capacity_bytes),
        Some(96_891 * 1024 * 1024)
    );
}

/// The config.json ceilings (`limits::arch`) lie far above every catalog model.
#[test]
fn catalog_models_lie_within_the_config_ceilings() {
    use vramfit_core::limits::arch;
    for m in vramfit_core::catalog::models() {
        let a = &m.arch;
        let within = |v: u32, max: u32| v <= max / 4;
        assert!(within(a.layers, arch::LAYERS), "{}", m.id);
        assert!(within(a.hidden, arch::HIDDEN), "{}", m.id);
        assert!(within(a.intermediate, arch::INTERMEDIATE), "{}", m.id);
        assert!(
            within(a.heads, arch::HEADS) && within(a.kv_heads, arch::HEADS),
            "{}",
            m.id
        );
        assert!(within(a.head_dim, arch::HEAD_DIM), "{}", m.id);
        assert!(within(a.vocab, arch::VOCAB), "{}", m.id);
        assert!(a.max_position <= arch::TOKENS, "{}", m.id);
        if let Some(moe) = a.moe {
            assert!(within(moe.experts, arch::EXPERTS), "{}", m.id);
            assert!(
                within(moe.expert_intermediate, arch::INTERMEDIATE),
                "{}",
                m.id
            );
        }
    }
}

/// The new entries' architectures are what the config reader makes of their real `config.json`
/// (SmolLM3 read as Llama; OLMo 2's verbatim config).
#[test]
fn smollm3_and_olmo2_entries_match_their_configs() {
    let no_rope: Vec<u8> = (0..36).map(|i| u8::from((i + 1) % 4 != 0)).collect();
    let smollm3 = serde_json::json!({
        "architectures": ["SmolLM3ForCausalLM"], "attention_bias": false,
        "hidden_size": 2048, "intermediate_size": 11008, "max_position_embeddings": 65536,
        "mlp_bias": false, "model_type": "smollm3", "no_rope_layer_interval": 4,
        "no_rope_layers": no_rope, "num_attention_heads": 16, "num_hidden_layers": 36,
        "num_key_value_heads": 4, "rope_theta": 5000000.0, "sliding_window": null,
        "tie_word_embeddings": true, "use_sliding_window": false, "vocab_size": 128256
    });
    let olmo2 = serde_json::json!({
        "architectures": ["Olmo2ForCausalLM"], "attention_bias": false, "hidden_size": 5120,
        "intermediate_size": 13824, "max_position_embeddings": 4096, "model_type": "olmo2",
        "num_attention_heads": 40, "num_hidden_layers": 40, "num_key_value_heads": 40,
        "rms_norm_eps": 1e-06, "rope_theta": 500000, "tie_word_embeddings": false,
        "vocab_size": 100352
    });
    for (config, ids) in [
        (smollm3, ["smollm3-3b", "smollm3-3b-base"]),
        (olmo2, ["olmo-2-1124-13b", "olmo-2-1124-13b-instruct"]),
    ] {
        let arch = vramfit_core::hf_config::parse_value(&config).expect("valid config");
        for id in ids {
            assert_eq!(catalog::model(id).map(|m| m.arch), Some(arch), "{id}");
        }
    }
}

/// The GLM-4.5 entries are what `hf_config` reads from their configs (GLM-4.5-Air's verbatim,
/// GLM-4.5's keys), MTP layer included; the served weights leave the MTP layer out (bf16: two
/// bytes per served parameter), and the KV cache is 46 layers × 2 × 8 KV heads × 128 × 2 B =
/// 188,416 B a token for the Air, 92 × 4,096 = 376,832 B for GLM-4.5. Pre-quantised uploads
/// resolve to the entries.
#[test]
fn glm_entries_match_their_configs_and_serve_without_the_mtp_layer() {
    let air = serde_json::json!({
        "architectures": ["Glm4MoeForCausalLM"], "attention_bias": true, "first_k_dense_replace": 1,
        "head_dim": 128, "hidden_size": 4096, "intermediate_size": 10944,
        "max_position_embeddings": 131072, "model_type": "glm4_moe", "moe_intermediate_size": 1408,
        "n_group": 1, "n_routed_experts": 128, "n_shared_experts": 1, "num_attention_heads": 96,
        "num_experts_per_tok": 8, "num_hidden_layers": 46, "num_key_value_heads": 8,
        "num_nextn_predict_layers": 1, "partial_rotary_factor": 0.5, "tie_word_embeddings": false,
        "topk_group": 1, "use_qk_norm": false, "vocab_size": 151552
    });
    let mut full = air.clone();
    for (k, v) in [
        ("first_k_dense_replace", 3),
        ("hidden_size", 5120),
        ("intermediate_size", 12288),
        ("moe_intermediate_size", 1536),
        ("n_routed_experts", 160),
        ("num_hidden_layers", 92),
    ] {
        full[k] = serde_json::json!(v);
    }
    full["use_qk_norm"] = serde_json::json!(true);
    let mut six = full.clone();
    six["max_position_embeddings"] = serde_json::json!(202752);
    for (config, ids, kv) in [
        (air, &["glm-4.5-air", "glm-4.5-air-base"][..], 188_416),
        (full, &["glm-4.5", "glm-4.5-base"][..], 376_832),
        (six, &["glm-4.6"][..], 376_832),
    ] {
        let arch = vramfit_core::hf_config::parse_value(&config).expect("valid config");
        assert_eq!(arch.mtp_layers, 1);
        for id in ids {
            assert_eq!(catalog::model(id).map(|m| m.arch), Some(arch), "{id}");
        }
        let json = format!(
            r#"{{"model":{{"catalog":"{}"}},"weights":"bf16",
            "workload":{{"inference":{{"context_tokens":4096,"sequences":1}}}},
            "hardware":{{"gpu_memory_gib":1024,"count":1}}}}"#,
            ids[0]
        );
        let scenario: vramfit_core::Scenario = serde_json::from_str(&json).expect("scenario");
        let e = vramfit_core::estimate(&scenario).expect("estimates");
        assert_eq!(e.kv_bytes_per_token, kv, "{}", ids[0]);
        let weights = e
            .components
            .iter()
            .find(|c| c.id == vramfit_core::ComponentId::Weights)
            .map_or(0, |c| c.bytes);
        assert!(weights >= 2 * arch.param_count(), "{}", ids[0]);
        assert!(weights < 2 * arch.checkpoint_param_count(), "{}", ids[0]);
    }
    for (repo, id, quantised) in [
        ("zai-org/GLM-4.5-Air-FP8", "glm-4.5-air", true),
        ("zai-org/glm-4.6", "glm-4.6", false),
        ("Qwen/Qwen3.5-35B-A3B-FP8", "qwen3.5-35b-a3b", true),
        ("unsloth/Qwen3.5-27B-GGUF:Q4_K_M", "qwen3.5-27b", true),
    ] {
        let hit = catalog::lookup(repo).map(|h| (h.model.id, h.format.is_some()));
        assert_eq!(hit, Some((id, quantised)), "{repo}");
    }
}

/// Nemotron 3 Nano's entry is what `hf_config` reads from its config keys (`nemotron_h` with `E`
/// MoE blocks in `hybrid_override_pattern`); a pattern mixing dense `-` and MoE `E` blocks, or
/// `E` blocks without experts, is refused naming the key.
#[test]
fn nemotron_3_entry_matches_its_config() {
    let config = serde_json::json!({
        "architectures": ["NemotronHForCausalLM"], "model_type": "nemotron_h",
        "hidden_size": 2688, "num_hidden_layers": 52, "vocab_size": 131072,
        "num_attention_heads": 32, "num_key_value_heads": 2, "head_dim": 128,
        "intermediate_size": 1856, "max_position_embeddings": 1048576,
        "tie_word_embeddings": false,
        "hybrid_override_pattern": "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME",
        "mamba_num_heads": 64, "mamba_head_dim": 64, "ssm_state_size": 128, "n_groups": 8,
        "conv_kernel": 4, "use_conv_bias": true, "use_bias": false,
        "n_routed_experts": 128, "num_experts_per_tok": 6, "moe_intermediate_size": 1856,
        "moe_shared_expert_intermediate_size": 3712, "n_shared_experts": 1
    });
    let arch = vramfit_core::hf_config::parse_value(&config).expect("valid config");
    assert_eq!(
        catalog::model("nemotron-3-nano-30b-a3b").map(|m| m.arch),
        Some(arch)
    );
    let mut mixed = config.clone();
    mixed["hybrid_override_pattern"] =
        serde_json::json!("MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEM-");
    let mut no_experts = config.clone();
    no_experts
        .as_object_mut()
        .expect("object")
        .remove("n_routed_experts");
    for bad in [mixed, no_experts] {
        assert!(matches!(
            vramfit_core::hf_config::parse_value(&bad),
            Err(vramfit_core::hf_config::ConfigError::InvalidValue {
                key: "hybrid_override_pattern"
            })
        ));
    }
}

/// Granite 4.0 Micro: a `granitemoehybrid` config whose layers are all attention and which has no
/// experts reads as a dense model (no recurrent layer, no state) and counts its checkpoint exactly:
/// embeddings 100,352 × 2560 (tied) + 40 × (q, o 2560² each, k, v 512 × 2560 each, MLP 3 × 8192 ×
/// 2560, two norms) + the final norm = 3,402,836,480.
#[test]
fn granite_4_micro_is_dense_and_exact() {
    let config = serde_json::json!({
        "architectures": ["GraniteMoeHybridForCausalLM"], "model_type": "granitemoehybrid",
        "hidden_size": 2560, "num_hidden_layers": 40, "num_attention_heads": 40,
        "num_key_value_heads": 8, "intermediate_size": 8192, "shared_intermediate_size": 8192,
        "num_local_experts": 0, "vocab_size": 100352, "tie_word_embeddings": true,
        "max_position_embeddings": 131072, "layer_types": vec!["attention"; 40],
        "mamba_n_heads": 128, "mamba_d_head": 64, "mamba_d_state": 128, "mamba_n_groups": 1,
        "mamba_d_conv": 4, "mamba_expand": 2
    });
    let arch = vramfit_core::hf_config::parse_value(&config).expect("valid config");
    let m = catalog::model("granite-4.0-micro").expect("in catalog");
    assert_eq!(m.arch, arch);
    assert!(arch.hybrid.is_none());
    assert_eq!(arch.param_count(), 3_402_836_480);
    assert_eq!(m.published_params, 3_402_836_480);
}

/// The Qwen3-VL entries are what `hf_config` reads from their `config.json` (`qwen3_vl`: the
/// Qwen3 text model in `text_config`, the tower with its DeepStack mergers in `vision_config`;
/// the 4B's keys as `Qwen/Qwen3-VL-4B-Instruct` publishes them, the 8B's from its published
/// values), exact to the published totals; the KV cache is the text model's alone (DeepStack adds
/// no cache); the repo ids resolve whatever their case, a `-FP8` upload to its base with a format.
/// A `qwen3_vl_moe` wrapper reads its text model as Qwen3 MoE.
#[test]
fn qwen3_vl_entries_match_their_configs() {
    let vision = |depth: u32, width: u32, mlp: u32, out: u32, deepstack: &[u32]| {
        serde_json::json!({"deepstack_visual_indexes": deepstack, "depth": depth,
            "hidden_act": "gelu_pytorch_tanh", "hidden_size": width, "in_channels": 3,
            "intermediate_size": mlp, "model_type": "qwen3_vl", "num_heads": 16,
            "num_position_embeddings": 2304, "out_hidden_size": out, "patch_size": 16,
            "spatial_merge_size": 2, "temporal_patch_size": 2})
    };
    let text = |hidden: u32, intermediate: u32, tied: bool| {
        serde_json::json!({"model_type": "qwen3_vl_text", "hidden_size": hidden,
            "intermediate_size": intermediate, "num_hidden_layers": 36,
            "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
            "max_position_embeddings": 262144, "vocab_size": 151936,
            "tie_word_embeddings": tied})
    };
    let config = |text: serde_json::Value, vision: serde_json::Value, tied: bool| {
        serde_json::json!({"architectures": ["Qwen3VLForConditionalGeneration"],
            "model_type": "qwen3_vl", "text_config": text, "vision_config": vision,
            "tie_word_embeddings": tied})
    };
    let four = config(
        text(2560, 9728, true),
        vision(24, 1024, 4096, 2560, &[5, 11, 17]),
        true,
    );
    let eight = config(
        text(4096, 12288, false),
        vision(27, 1152, 4304, 4096, &[8, 16, 24]),
        false,
    );
    // KV per token in bf16, by hand: 36 layers × (K + V) × 8 KV heads × 128 × 2 bytes = 147,456.
    for (config, ids, total) in [
        (
            four,
            ["qwen3-vl-4b-instruct", "qwen3-vl-4b-thinking"],
            4_437_815_808,
        ),
        (
            eight,
            ["qwen3-vl-8b-instruct", "qwen3-vl-8b-thinking"],
            8_767_123_696,
        ),
    ] {
        let arch = vramfit_core::hf_config::parse_value(&config).expect("valid config");
        assert_eq!(arch.param_count(), total, "{}", ids[0]);
        for id in ids {
            let m = catalog::model(id).expect("in catalog");
            assert_eq!(m.arch, arch, "{id}");
            assert_eq!(m.published_params, total, "{id}");
        }
        let json = format!(
            r#"{{"model":{{"catalog":"{}"}},"weights":"bf16",
            "workload":{{"inference":{{"context_tokens":4096,"sequences":1}}}},
            "hardware":{{"gpu_memory_gib":80,"count":1}}}}"#,
            ids[0]
        );
        let scenario: vramfit_core::Scenario = serde_json::from_str(&json).expect("scenario");
        let e = vramfit_core::estimate(&scenario).expect("estimates");
        assert_eq!(e.kv_bytes_per_token, 147_456, "{}", ids[0]);
    }
    for (repo, id, quantised) in [
        ("Qwen/Qwen3-VL-8B-Instruct", "qwen3-vl-8b-instruct", false),
        ("qwen/qwen3-vl-4b-thinking", "qwen3-vl-4b-thinking", false),
        ("QWEN/QWEN3-VL-4B-INSTRUCT", "qwen3-vl-4b-instruct", false),
        (
            "Qwen/Qwen3-VL-8B-Instruct-FP8",
            "qwen3-vl-8b-instruct",
            true,
        ),
        (
            "qwen/qwen3-vl-8b-thinking-fp8",
            "qwen3-vl-8b-thinking",
            true,
        ),
    ] {
        let hit = catalog::lookup(repo).map(|h| (h.model.id, h.format.is_some()));
        assert_eq!(hit, Some((id, quantised)), "{repo}");
    }
    // A `qwen3_vl_moe` wrapper around Qwen3-30B-A3B's text shapes reads as that model plus a tower.
    let moe_text = catalog::model("qwen3-30b-a3b").expect("in catalog").arch;
    let wrapped = serde_json::json!({"model_type": "qwen3_vl_moe",
        "text_config": {"model_type": "qwen3_vl_moe_text", "hidden_size": 2048,
            "num_hidden_layers": 48, "num_attention_heads": 32, "num_key_value_heads": 4,
            "head_dim": 128, "intermediate_size": 6144, "moe_intermediate_size": 768,
            "num_experts": 128, "num_experts_per_tok": 8, "vocab_size": 151936,
            "max_position_embeddings": moe_text.max_position,
            "tie_word_embeddings": false},
        "vision_config": vision(27, 1152, 4304, 2048, &[8, 16, 24])});
    let arch = vramfit_core::hf_config::parse_value(&wrapped).expect("valid config");
    assert_eq!(arch.vision.map(|v| v.tokens_per_image), Some(1024));
    assert_eq!(
        vramfit_core::ModelArch {
            vision: None,
            ..arch
        },
        moe_text
    );
    // Other patch geometry is refused, naming the key.
    let mut odd = wrapped.clone();
    odd["vision_config"]["patch_size"] = serde_json::json!(14);
    assert!(vramfit_core::hf_config::parse_value(&odd).is_err());
}
