//! A Hugging Face `config.json` → [`ModelArch`].
//!
//! Reads the keys `transformers`' configuration classes define (`LlamaConfig`, `MistralConfig`,
//! `Qwen2Config`, `Qwen3Config`, `Gemma2Config`, `Gemma3TextConfig`, `Phi3Config`). Vision-language
//! wrappers (`llava_next`, `gemma3`, …) nest the language model under `text_config`: that object is
//! read, with the wrapper's keys as fallback. Unknown keys are ignored. A missing key that has no
//! default in `transformers` is an error naming the key; where `transformers` has a default, it is
//! used (`num_key_value_heads` = heads, `head_dim` = hidden / heads, `tie_word_embeddings` and
//! `max_position_embeddings` per family). Mixture-of-experts keys (`num_local_experts` /
//! `num_experts` / `n_routed_experts`, `moe_intermediate_size`, `n_shared_experts`,
//! `first_k_dense_replace`, `interleave_moe_layer_step`), MLA ranks (`kv_lora_rank`, …), sliding
//! windows (`sliding_window`, `layer_types`, `sliding_window_pattern`, Llama 4's
//! `attention_chunk_size`) and a `vision_config` are read where present.
//!
//! Every count is checked against a ceiling far above any released model
//! (`crate::limits::arch`): a larger value is refused with [`ConfigError::TooLarge`], so a pasted
//! config can neither make an estimate slow (work grows with layers and experts) nor push a size
//! past what the byte arithmetic represents exactly.

use crate::bytes::{add, prod, sum};
use crate::format::WeightFormat;
use crate::limits::arch;
use crate::model::{Family, Mla, ModelArch, Moe, SlidingWindow, Vision};
use serde::Serialize;
use serde_json::{Map, Value};

/// Why a `config.json` could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ConfigError {
    /// Not JSON at all; where the parser stopped.
    NotJson {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// JSON, but not an object.
    NotAnObject,
    /// A required key is absent.
    MissingKey {
        /// The key.
        key: &'static str,
    },
    /// A key has the wrong type or an impossible value (zero, negative, not a whole number).
    InvalidValue {
        /// The key.
        key: &'static str,
    },
    /// A key is larger than any real model's (the ceilings of `crate::limits::arch`).
    TooLarge {
        /// The key.
        key: &'static str,
        /// The largest value accepted.
        max: u64,
    },
    /// `model_type` names a family this version does not model.
    UnsupportedModelType {
        /// What the file says.
        model_type: String,
    },
    /// `hidden_size` is not a multiple of the heads and no `head_dim` is given, or the KV heads do
    /// not divide the query heads.
    InconsistentHeads,
}

/// The checkpoint's own storage, from `quantization_config` when the config has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantization {
    /// The weight format the checkpoint stores, when recognised.
    pub format: Option<WeightFormat>,
    /// Modules it leaves unquantised (`llm_int8_skip_modules`, `modules_to_not_convert`, `ignore`).
    pub unquantized_modules: Vec<String>,
}

/// Reads `quantization_config` (transformers' `BitsAndBytesConfig`, `GPTQConfig`, `AwqConfig`,
/// `FineGrainedFP8Config`, `Mxfp4Config`). `None` when the config has none.
pub fn quantization(value: &Value) -> Option<Quantization> {
    let q = value.get("quantization_config")?.as_object()?;
    let s = |k: &str| q.get(k).and_then(Value::as_str).unwrap_or_default();
    let b = |k: &str| q.get(k).and_then(Value::as_bool).unwrap_or(false);
    let n = |k: &str| q.get(k).and_then(Value::as_i64);
    let group = |g: Option<i64>| match g {
        Some(g) if g > 0 => u32::try_from(g).ok(),
        _ => Some(0),
    };
    let format = match s("quant_method") {
        "bitsandbytes" if b("load_in_4bit") => {
            let double_quant = b("bnb_4bit_use_double_quant");
            Some(if s("bnb_4bit_quant_type") == "fp4" {
                WeightFormat::BnbFp4 { double_quant }
            } else {
                WeightFormat::BnbNf4 { double_quant }
            })
        }
        "bitsandbytes" if b("load_in_8bit") => Some(WeightFormat::BnbInt8),
        "gptq" => match (n("bits"), group(n("group_size"))) {
            (Some(bits @ (4 | 8)), Some(group)) => Some(WeightFormat::Gptq {
                bits: bits as u8,
                group,
            }),
            _ => None,
        },
        "awq" => group(n("group_size")).map(|group| WeightFormat::Awq { group }),
        "fp8" if q.contains_key("weight_block_size") => Some(WeightFormat::Fp8Block),
        "fp8" => Some(WeightFormat::Fp8),
        "mxfp4" => Some(WeightFormat::Mxfp4),
        _ => None,
    };
    let unquantized_modules = ["llm_int8_skip_modules", "modules_to_not_convert", "ignore"]
        .iter()
        .filter_map(|k| q.get(*k).and_then(Value::as_array))
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    Some(Quantization {
        format,
        unquantized_modules,
    })
}

/// Reads an already-parsed `config.json`.
pub fn parse_value(value: &Value) -> Result<ModelArch, ConfigError> {
    let outer = value.as_object().ok_or(ConfigError::NotAnObject)?;
    let inner = outer.get("text_config").and_then(Value::as_object);
    let keys = Keys { inner, outer };
    let model_type = match keys.get("model_type") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(ConfigError::InvalidValue { key: "model_type" }),
        None => return Err(ConfigError::MissingKey { key: "model_type" }),
    };
    let family = family_of(&model_type).ok_or(ConfigError::UnsupportedModelType {
        model_type: model_type.clone(),
    })?;
    let layers = keys.count("num_hidden_layers")?;
    let hidden = keys.count("hidden_size")?;
    let heads = keys.count("num_attention_heads")?;
    let kv_heads = keys.optional_count("num_key_value_heads")?.unwrap_or(heads);
    let head_dim = match keys.optional_count("head_dim")? {
        Some(d) => d,
        None if hidden % heads == 0 => hidden / heads,
        None => return Err(ConfigError::InconsistentHeads),
    };
    if heads % kv_heads != 0 {
        return Err(ConfigError::InconsistentHeads);
    }
    let (default_tied, default_max_position) = family_defaults(family);
    let tied_embeddings = match keys.get("tie_word_embeddings") {
        None | Some(Value::Null) => default_tied,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(ConfigError::InvalidValue {
                key: "tie_word_embeddings",
            })
        }
    };
    let mla = read_mla(&keys)?;
    let head_dim = mla.map_or(head_dim, |m| m.qk_nope_head_dim + m.qk_rope_head_dim);
    let moe = read_moe(&keys, family)?;
    let intermediate = match (keys.optional_count("intermediate_size_mlp")?, moe) {
        (Some(i), _) => i,
        (None, Some(m)) => keys
            .optional_count("intermediate_size")?
            .unwrap_or(m.expert_intermediate),
        (None, None) => keys.count("intermediate_size")?,
    };
    let vision = read_vision(outer, &keys, hidden, &model_type)?;
    Ok(ModelArch {
        family,
        layers,
        hidden,
        heads,
        kv_heads,
        head_dim,
        intermediate,
        vocab: keys.count("vocab_size")?,
        tied_embeddings,
        max_position: keys
            .optional_count("max_position_embeddings")?
            .unwrap_or(default_max_position),
        sliding_window: read_sliding_window(&keys, family, layers)?,
        moe,
        mla,
        vision,
    })
}

/// MLA ranks (`kv_lora_rank` present): DeepSeek V2/V3.
fn read_mla(keys: &Keys) -> Result<Option<Mla>, ConfigError> {
    let Some(kv_lora_rank) = keys.optional_count("kv_lora_rank")? else {
        return Ok(None);
    };
    Ok(Some(Mla {
        q_lora_rank: keys.optional_count("q_lora_rank")?.unwrap_or(0),
        kv_lora_rank,
        qk_nope_head_dim: keys.count("qk_nope_head_dim")?,
        qk_rope_head_dim: keys.count("qk_rope_head_dim")?,
        v_head_dim: keys.count("v_head_dim")?,
    }))
}

/// Mixture-of-experts keys, under each family's names.
fn read_moe(keys: &Keys, family: Family) -> Result<Option<Moe>, ConfigError> {
    let experts =
        match keys.first_count(&["num_local_experts", "num_experts", "n_routed_experts"])? {
            Some(e) if e > 1 => e,
            _ => return Ok(None),
        };
    let active = keys
        .first_count(&["num_experts_per_tok", "experts_per_token"])?
        .ok_or(ConfigError::MissingKey {
            key: "num_experts_per_tok",
        })?;
    let expert_intermediate = match keys.optional_count("moe_intermediate_size")? {
        Some(i) => i,
        None => keys.count("intermediate_size")?,
    };
    let shared_intermediate = match family {
        Family::Llama4 => expert_intermediate,
        _ => match keys.optional_count("shared_expert_intermediate_size")? {
            Some(s) => s,
            None => {
                let n = keys.optional_count("n_shared_experts")?.unwrap_or(0);
                // At most 256 × 262,144 = 2^26 by the ceilings; checked all the same.
                u32::try_from(u64::from(n) * u64::from(expert_intermediate)).map_err(|_| {
                    ConfigError::TooLarge {
                        key: "n_shared_experts",
                        max: u64::from(arch::SHARED_EXPERTS),
                    }
                })?
            }
        },
    };
    Ok(Some(Moe {
        experts,
        active,
        expert_intermediate,
        shared_intermediate,
        first_dense_layers: keys.optional_count("first_k_dense_replace")?.unwrap_or(0),
        moe_every: keys
            .first_count(&[
                "interleave_moe_layer_step",
                "moe_layer_freq",
                "decoder_sparse_step",
            ])?
            .unwrap_or(1),
        router_bias: family == Family::GptOss
            || keys.get("topk_method").and_then(Value::as_str) == Some("noaux_tc"),
        expert_bias: family == Family::GptOss,
    }))
}

/// Sliding-window layers: `layer_types` when the config lists them, else the family's pattern.
fn read_sliding_window(
    keys: &Keys,
    family: Family,
    layers: u32,
) -> Result<Option<SlidingWindow>, ConfigError> {
    let window = match family {
        Family::Llama4 => keys.optional_count("attention_chunk_size")?,
        Family::Qwen2 | Family::Qwen3 | Family::Qwen3Moe => None,
        _ => keys.optional_count("sliding_window")?,
    };
    let Some(window) = window else {
        return Ok(None);
    };
    if let Some(types) = keys.get("layer_types").and_then(Value::as_array) {
        let global = types
            .iter()
            .filter(|t| t.as_str() == Some("full_attention"))
            .count();
        let global = u32::try_from(global).unwrap_or(u32::MAX);
        let global_every = layers.checked_div(global).unwrap_or(0);
        return Ok(Some(SlidingWindow {
            window,
            global_every,
        }));
    }
    let global_every = match family {
        Family::Gemma2 | Family::GptOss => 2,
        Family::Gemma3 => keys.optional_count("sliding_window_pattern")?.unwrap_or(6),
        Family::Llama4 => 4,
        _ => 0,
    };
    Ok(Some(SlidingWindow {
        window,
        global_every,
    }))
}

/// A vision tower from `vision_config`, counted as a ViT (per layer: attention `4h² + 4h`, MLP
/// `2hi + h + i`, two LayerNorms `4h`; patch embedding `3p²h`; positions; a two-layer projector to
/// the text width). Catalog entries carry the checkpoint's exact count instead. Under tensor
/// parallelism the tower is placed as vLLM's CLIP (`clip.py`) and LLaVA projector
/// (`llava.py::LlavaMultiModalProjector`) are: each GPU keeps whole the patch embedding, the
/// position table, per layer the LayerNorms and the biases of the row-parallel `out_proj` and
/// `fc2` (`6h`), and the projector's last bias; the rest is split.
fn read_vision(
    outer: &Map<String, Value>,
    keys: &Keys,
    text_hidden: u32,
    model_type: &str,
) -> Result<Option<Vision>, ConfigError> {
    let Some(v) = outer.get("vision_config").and_then(Value::as_object) else {
        return Ok(None);
    };
    let vk = Keys {
        inner: None,
        outer: v,
    };
    let layers = u64::from(
        vk.first_count(&["num_hidden_layers", "depth"])?
            .unwrap_or(24),
    );
    let h = u64::from(
        vk.first_count(&["hidden_size", "embed_dim"])?
            .unwrap_or(1024),
    );
    let i = u64::from(
        vk.optional_count("intermediate_size")?
            .unwrap_or(4 * h as u32),
    );
    let patch = u64::from(vk.optional_count("patch_size")?.unwrap_or(14));
    let image = u64::from(vk.optional_count("image_size")?.unwrap_or(336));
    let t = u64::from(text_hidden);
    let side = image / patch.max(1);
    let positions = side * side;
    let per_layer = sum([prod(&[4, h, h]), 4 * h, prod(&[2, h, i]), h, i, 4 * h]);
    let params = sum([
        prod(&[layers, per_layer]),
        prod(&[3, patch, patch, h]),
        prod(&[add(positions, 1), h]),
        prod(&[h, t]),
        t,
        prod(&[t, t]),
        t,
    ]);
    let replicated = (3u64.saturating_mul(patch).saturating_mul(patch))
        .saturating_add(positions.saturating_add(1))
        .saturating_add(layers.saturating_mul(6))
        .saturating_mul(h)
        .saturating_add(t);
    let tokens = if model_type.starts_with("llava_next") {
        add(prod(&[positions, 5]), 48)
    } else {
        positions
    };
    let cross = match keys.get("cross_attention_layers").and_then(Value::as_array) {
        None => 0,
        Some(a) => u32::try_from(a.len())
            .ok()
            .filter(|&n| n <= arch::LAYERS)
            .ok_or(ConfigError::TooLarge {
                key: "cross_attention_layers",
                max: u64::from(arch::LAYERS),
            })?,
    };
    Ok(Some(Vision {
        params,
        tokens_per_image: u32::try_from(tokens).unwrap_or(u32::MAX),
        cross_attention_layers: cross,
        replicated: replicated.min(params),
        config_layers: vk.optional_count("num_hidden_layers")?.unwrap_or(0),
        config_hidden: vk.optional_count("hidden_size")?.unwrap_or(0),
    }))
}

/// The family for a `model_type`, including the wrappers whose `text_config` holds a known family.
fn family_of(model_type: &str) -> Option<Family> {
    match model_type {
        "gemma3" => Some(Family::Gemma3),
        "qwen2_vl" | "qwen2_5_vl" | "qwen2_5_vl_text" | "qwen2_vl_text" => Some(Family::Qwen2),
        "llama4" => Some(Family::Llama4),
        "mllama" | "mllama_text_model" => Some(Family::Llama),
        "kimi_k2" => Some(Family::DeepseekV3),
        other => Family::ALL.into_iter().find(|f| f.model_type() == other),
    }
}

/// `transformers` defaults for `tie_word_embeddings` and `max_position_embeddings` per family
/// (the configuration classes' `__init__` signatures).
fn family_defaults(family: Family) -> (bool, u32) {
    match family {
        Family::Llama => (false, 2048),
        Family::Mistral => (false, 4096 * 32),
        Family::Qwen2 | Family::Qwen3 => (false, 32768),
        Family::Gemma2 => (true, 8192),
        Family::Gemma3 => (true, 131072),
        Family::Phi3 => (false, 4096),
        Family::Mixtral => (false, 4096 * 32),
        Family::Qwen3Moe => (false, 32768),
        Family::DeepseekV2 | Family::DeepseekV3 => (false, 2048),
        Family::GptOss => (false, 131072),
        Family::Llama4 => (false, 4096 * 32),
        Family::Bert => (true, 512),
    }
}

/// Key lookup: `text_config` first, then the top level.
struct Keys<'a> {
    inner: Option<&'a Map<String, Value>>,
    outer: &'a Map<String, Value>,
}

/// The largest value accepted for `key` (`crate::limits::arch`; token counts for any other key).
fn ceiling(key: &str) -> u32 {
    match key {
        "num_hidden_layers"
        | "depth"
        | "first_k_dense_replace"
        | "interleave_moe_layer_step"
        | "moe_layer_freq"
        | "decoder_sparse_step"
        | "sliding_window_pattern" => arch::LAYERS,
        "hidden_size" | "embed_dim" => arch::HIDDEN,
        "intermediate_size"
        | "intermediate_size_mlp"
        | "moe_intermediate_size"
        | "shared_expert_intermediate_size" => arch::INTERMEDIATE,
        "num_attention_heads" | "num_key_value_heads" => arch::HEADS,
        "head_dim" | "qk_nope_head_dim" | "qk_rope_head_dim" | "v_head_dim" => arch::HEAD_DIM,
        "vocab_size" => arch::VOCAB,
        "num_local_experts"
        | "num_experts"
        | "n_routed_experts"
        | "num_experts_per_tok"
        | "experts_per_token" => arch::EXPERTS,
        "n_shared_experts" => arch::SHARED_EXPERTS,
        "kv_lora_rank" | "q_lora_rank" => arch::LORA_RANK,
        "image_size" => arch::IMAGE_SIZE,
        "patch_size" => arch::PATCH,
        _ => arch::TOKENS,
    }
}

impl Keys<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.inner
            .and_then(|m| m.get(key))
            .or_else(|| self.outer.get(key))
    }

    fn optional_count(&self, key: &'static str) -> Result<Option<u32>, ConfigError> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => {
                let max = ceiling(key);
                match v.as_u64() {
                    Some(0) | None => Err(ConfigError::InvalidValue { key }),
                    Some(n) if n > u64::from(max) => Err(ConfigError::TooLarge {
                        key,
                        max: u64::from(max),
                    }),
                    Some(n) => u32::try_from(n)
                        .map(Some)
                        .map_err(|_| ConfigError::InvalidValue { key }),
                }
            }
        }
    }

    /// The first of several synonymous keys that is present.
    fn first_count(&self, names: &[&'static str]) -> Result<Option<u32>, ConfigError> {
        for &name in names {
            if let Some(v) = self.optional_count(name)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    fn count(&self, key: &'static str) -> Result<u32, ConfigError> {
        self.optional_count(key)?
            .ok_or(ConfigError::MissingKey { key })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses `config.json` text as the web app does before calling `parse_value`.
    fn parse_str(text: &str) -> Result<ModelArch, ConfigError> {
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

    /// Counts past the ceilings of `crate::limits::arch` are refused by name, at the ceiling they
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
}
