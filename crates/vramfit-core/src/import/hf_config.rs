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
//! Hybrid models (`crate::model::Hybrid`) name their layer layout and recurrent dimensions per
//! family (the `transformers` configuration classes, defaults where the key is absent):
//! - Qwen3-Next / Qwen3.5 (`Qwen3NextConfig`, `Qwen3_5TextConfig`): `layer_types`
//!   (`linear_attention` / `full_attention`) or every `full_attention_interval`-th layer (4);
//!   gated DeltaNet `linear_num_value_heads` (32), `linear_value_head_dim` (128),
//!   `linear_key_head_dim` (128), `linear_num_key_heads` (16), `linear_conv_kernel_dim` (4), and
//!   Qwen3.5's `mamba_ssm_dtype`;
//! - Nemotron-H (`NemotronHConfig`): `hybrid_override_pattern` (`M` Mamba-2, `*` attention, `-`
//!   MLP, one character per layer) or `layers_block_type`; `mamba_num_heads`, `mamba_head_dim`,
//!   `ssm_state_size`, `n_groups`, `conv_kernel`, `use_conv_bias`, `use_bias`,
//!   `mamba_ssm_cache_dtype`, `attention_head_dim`;
//! - Granite 4.0-H (`GraniteMoeHybridConfig`): `layer_types` / `layers_block_type` (`mamba` /
//!   `attention`), `mamba_n_heads`, `mamba_d_head`, `mamba_d_state`, `mamba_n_groups`,
//!   `mamba_d_conv`, `mamba_expand`, `mamba_conv_bias`, `mamba_proj_bias`, and
//!   `shared_intermediate_size` (the shared MLP; the whole MLP without experts);
//! - Falcon-H1 (`FalconH1Config`): attention and Mamba-2 in every layer (`attn_layer_indices` when
//!   listed), `mamba_n_heads`, `mamba_d_head`, `mamba_d_ssm` or `mamba_expand`, `mamba_d_state`,
//!   `mamba_n_groups`, `mamba_d_conv`, `mamba_conv_bias`, `mamba_proj_bias`, `mamba_rms_norm`.
//!
//! SmolLM3 (`smollm3`) is read as Llama: its `no_rope_layers` only leave the rotary embedding out
//! of some layers, which holds no weights and no cache. OLMo 2 (`olmo2`) has the Llama keys.
//!
//! GLM-4.5 / GLM-4.6 (`glm4_moe`, `Glm4MoeConfig`) add `use_qk_norm` (per-head q/k norms,
//! default off) to the DeepSeek-style MoE keys (`n_routed_experts`, `n_shared_experts`,
//! `moe_intermediate_size`, `first_k_dense_replace`); the router always has its
//! `e_score_correction_bias`. Keys with no memory effect are ignored: `partial_rotary_factor`
//! (the rotary embedding holds no weights and the cache keeps whole keys), `n_group` /
//! `topk_group` (routing only). `num_nextn_predict_layers` (and Qwen3-Next / Qwen3.5's
//! `mtp_num_hidden_layers`) is read into `ModelArch::mtp_layers`, which only the checkpoint count
//! includes: the multi-token-prediction layer the checkpoint carries after the last decoder layer
//! is not part of the model vLLM serves
//! (`glm4_moe.py`: `Glm4MoeModel` builds `num_hidden_layers` layers and its `load_weights` drops
//! those tensors through `skip_spec_layers`; only the MTP drafter of speculative decoding,
//! `glm4_moe_mtp.py`, loads them).
//!
//! Nemotron 3 (`nemotron_h` with `E` / `moe` blocks in its pattern) adds the MoE keys
//! `n_routed_experts`, `num_experts_per_tok`, `moe_intermediate_size` and
//! `moe_shared_expert_intermediate_size`; its router has an `e_score_correction_bias`
//! (`NemotronHTopkRouter`), its experts and shared expert are ReLU² MLPs of `up` and `down`.
//!
//! Gemma 3n (`gemma3n` wrapping `gemma3n_text`, `Gemma3nTextConfig`) adds the per-layer
//! embeddings and AltUp / LAuReL (`crate::model::PerLayerInputs`): `hidden_size_per_layer_input`,
//! `vocab_size_per_layer_input`, `altup_num_inputs`, `laurel_rank`, and
//! `num_kv_shared_layers` (`ModelArch::kv_shared_layers`), all required; `intermediate_size` is a
//! per-layer list there, read when all its entries are equal (the released E2B and E4B configs;
//! a MatFormer slice with mixed widths is an `InvalidValue`). Its `vision_config` (MobileNet-V5)
//! and `audio_config` are not read: the text model is what is estimated, as vLLM's
//! `Gemma3nForCausalLM` loads it (`load_weights` skips `vision_tower.`, `audio_tower.`,
//! `embed_vision.`, `embed_audio.`).
//!
//! Gemma 4 (`gemma4` wrapping `gemma4_text`) is read for its dense checkpoints without
//! per-layer embeddings (31B): `global_head_dim` and `num_global_key_value_heads` (default: the
//! sliding layers' `head_dim` and `num_key_value_heads`) and `attention_k_eq_v` give the
//! full-attention layers their own shape (`crate::model::GlobalAttention`). A config with
//! `enable_moe_block` (26B-A4B), per-layer embeddings (`hidden_size_per_layer_input` > 0: E2B,
//! E4B), `num_kv_shared_layers` > 0 or `use_double_wide_mlp` is an `InvalidValue` naming the key:
//! those blocks are not modelled for Gemma 4. Its `vision_config` / `audio_config` are not read
//! (the text model is estimated).
//!
//! A layer list whose length is not `num_hidden_layers`, or names a block this version does not
//! model (a Nemotron-H pattern mixing dense `-` and MoE `E` blocks), is an `InvalidValue` naming the
//! key.
//!
//! Every count is checked against a ceiling far above any released model
//! (`crate::limits::arch`): a larger value is refused with [`ConfigError::TooLarge`], so a pasted
//! config can neither make an estimate slow (work grows with layers and experts) nor push a size
//! past what the byte arithmetic represents exactly.

use crate::bytes::{add, prod, sum};
use crate::format::WeightFormat;
use crate::limits::arch;
use crate::model::{
    Family, GlobalAttention, Hybrid, LayerSet, Mla, ModelArch, Moe, PerLayerInputs, Recurrent,
    RecurrentKind, SlidingWindow, Vision,
};
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

/// Most entries an array or object of a pasted config keeps in a scenario; past it the entry is
/// dropped. Nothing the reader uses comes close (per-layer lists are at most 1024 long, the layer
/// ceiling); what does is what a config may carry beside the architecture (`id2label` maps,
/// tokenizer tables), which every copy of the scenario — one per fix tried — would otherwise
/// carry too.
pub const MAX_CONFIG_ENTRIES: usize = 4096;

/// `value` without the arrays and objects the reader never needs (more than
/// [`MAX_CONFIG_ENTRIES`] entries), at any depth.
pub fn compact(value: &Value) -> Value {
    match value {
        Value::Array(a) => Value::Array(a.iter().map(compact).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(_, v)| match v {
                    Value::Array(a) => a.len() <= MAX_CONFIG_ENTRIES,
                    Value::Object(m) => m.len() <= MAX_CONFIG_ENTRIES,
                    _ => true,
                })
                .map(|(k, v)| (k.clone(), compact(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether [`compact`] would drop anything from `value`.
pub fn needs_compacting(value: &Value) -> bool {
    match value {
        Value::Array(a) => a.len() > MAX_CONFIG_ENTRIES || a.iter().any(needs_compacting),
        Value::Object(o) => o.len() > MAX_CONFIG_ENTRIES || o.values().any(needs_compacting),
        _ => false,
    }
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
    let head_dim = match keys.first_count(&["head_dim", "attention_head_dim"])? {
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
        // Granite 4.0-H without experts: the shared MLP is the whole MLP.
        (None, None) if family == Family::GraniteMoeHybrid => {
            match keys.optional_count("shared_intermediate_size")? {
                Some(i) => i,
                None => keys.count("intermediate_size")?,
            }
        }
        (None, None) if family == Family::Gemma3n => per_layer_width(&keys, layers)?,
        (None, None) => keys.count("intermediate_size")?,
    };
    let global_attention = read_global_attention(&keys, family, head_dim, kv_heads)?;
    let vision = if matches!(family, Family::Gemma3n | Family::Gemma4) {
        None
    } else {
        read_vision(outer, &keys, hidden, &model_type)?
    };
    let hybrid = read_hybrid(&keys, family, layers, hidden)?;
    let sliding_window = match hybrid {
        Some(_) => None,
        None => read_sliding_window(&keys, family, layers)?,
    };
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
        sliding_window,
        moe,
        mla,
        vision,
        hybrid,
        qk_norm: family == Family::Glm4Moe && flag(&keys, "use_qk_norm", false)?,
        mtp_layers: read_mtp_layers(&keys, family)?,
        kv_shared_layers: read_kv_shared_layers(&keys, family, layers)?,
        per_layer_inputs: read_per_layer_inputs(&keys, family)?,
        global_attention,
    })
}

/// Gemma 4's full-attention shape (`crate::model::GlobalAttention`); refuses the Gemma 4 blocks
/// this version does not model (see the module doc).
fn read_global_attention(
    keys: &Keys,
    family: Family,
    head_dim: u32,
    kv_heads: u32,
) -> Result<Option<GlobalAttention>, ConfigError> {
    if family != Family::Gemma4 {
        return Ok(None);
    }
    if flag(keys, "enable_moe_block", false)? {
        return Err(ConfigError::InvalidValue {
            key: "enable_moe_block",
        });
    }
    if flag(keys, "use_double_wide_mlp", false)? {
        return Err(ConfigError::InvalidValue {
            key: "use_double_wide_mlp",
        });
    }
    for key in ["hidden_size_per_layer_input", "num_kv_shared_layers"] {
        match keys.get(key) {
            None | Some(Value::Null) => {}
            Some(v) if v.as_u64() == Some(0) => {}
            Some(_) => return Err(ConfigError::InvalidValue { key }),
        }
    }
    let global_kv = keys.optional_count("num_global_key_value_heads")?;
    let global = GlobalAttention {
        head_dim: keys.optional_count("global_head_dim")?.unwrap_or(head_dim),
        kv_heads: global_kv.unwrap_or(kv_heads),
        k_eq_v: flag(keys, "attention_k_eq_v", false)?,
    };
    Ok(Some(global))
}

/// Gemma 3n's `intermediate_size`: one width, or a per-layer list of `layers` equal widths.
fn per_layer_width(keys: &Keys, layers: u32) -> Result<u32, ConfigError> {
    const KEY: &str = "intermediate_size";
    let Some(list) = keys.get(KEY).and_then(Value::as_array) else {
        return keys.count(KEY);
    };
    let first = list.first().and_then(Value::as_u64);
    let same = list.len() == layers as usize && list.iter().all(|v| v.as_u64() == first);
    match first {
        Some(w) if same && w > 0 && w <= u64::from(ceiling(KEY)) => {
            u32::try_from(w).map_err(|_| ConfigError::InvalidValue { key: KEY })
        }
        _ => Err(ConfigError::InvalidValue { key: KEY }),
    }
}

/// `num_kv_shared_layers` (Gemma 3n): the last layers that reuse earlier layers' keys and values;
/// 0 when absent, 0 or for other families. At most `layers`.
fn read_kv_shared_layers(keys: &Keys, family: Family, layers: u32) -> Result<u32, ConfigError> {
    const KEY: &str = "num_kv_shared_layers";
    if family != Family::Gemma3n {
        return Ok(0);
    }
    match keys.get(KEY) {
        None | Some(Value::Null) => Err(ConfigError::MissingKey { key: KEY }),
        Some(v) => match v.as_u64() {
            Some(n) if n <= u64::from(layers) => Ok(n as u32),
            Some(_) => Err(ConfigError::TooLarge {
                key: KEY,
                max: u64::from(layers),
            }),
            None => Err(ConfigError::InvalidValue { key: KEY }),
        },
    }
}

/// Gemma 3n's per-layer embeddings, AltUp and LAuReL (`crate::model::PerLayerInputs`).
fn read_per_layer_inputs(
    keys: &Keys,
    family: Family,
) -> Result<Option<PerLayerInputs>, ConfigError> {
    if family != Family::Gemma3n {
        return Ok(None);
    }
    Ok(Some(PerLayerInputs {
        hidden: keys.count("hidden_size_per_layer_input")?,
        vocab: keys.count("vocab_size_per_layer_input")?,
        altup_inputs: keys.count("altup_num_inputs")?,
        laurel_rank: keys.count("laurel_rank")?,
    }))
}

/// The checkpoint's multi-token-prediction layers (`crate::model::ModelArch::mtp_layers`):
/// `num_nextn_predict_layers` (DeepSeek V3, GLM-4.5) or `mtp_num_hidden_layers` (Qwen3-Next,
/// Qwen3.5); 0 when absent or for other families. They never enter the served model's count.
fn read_mtp_layers(keys: &Keys, family: Family) -> Result<u32, ConfigError> {
    let key = match family {
        Family::DeepseekV3 | Family::Glm4Moe => "num_nextn_predict_layers",
        Family::Qwen3Next => "mtp_num_hidden_layers",
        _ => return Ok(0),
    };
    match keys.get(key) {
        None | Some(Value::Null) => Ok(0),
        Some(v) => match v.as_u64() {
            Some(n) if n > u64::from(arch::LAYERS) => Err(ConfigError::TooLarge {
                key,
                max: u64::from(arch::LAYERS),
            }),
            Some(n) => u32::try_from(n).map_err(|_| ConfigError::InvalidValue { key }),
            None => Err(ConfigError::InvalidValue { key }),
        },
    }
}

/// One layer's blocks in a hybrid layout: (recurrent, attention, MLP).
type LayerBlocks = (bool, bool, bool);

/// A per-layer list (`layer_types`, `layers_block_type`) of exactly `layers` known names.
fn layer_list(
    keys: &Keys,
    key: &'static str,
    layers: u32,
    block: impl Fn(&str) -> Option<LayerBlocks>,
) -> Result<Option<(LayerSet, LayerSet, LayerSet)>, ConfigError> {
    let Some(v) = keys.get(key).filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let list = v.as_array().ok_or(ConfigError::InvalidValue { key })?;
    if list.len() != layers as usize {
        return Err(ConfigError::InvalidValue { key });
    }
    let mut sets = (LayerSet::EMPTY, LayerSet::EMPTY, LayerSet::EMPTY);
    for (i, item) in list.iter().enumerate() {
        let (rec, attn, mlp) = item
            .as_str()
            .and_then(&block)
            .ok_or(ConfigError::InvalidValue { key })?;
        // `i` < `layers` ≤ the layer ceiling: it fits.
        let i = i as u32;
        if rec {
            sets.0 = sets.0.with(i);
        }
        if attn {
            sets.1 = sets.1.with(i);
        }
        if mlp {
            sets.2 = sets.2.with(i);
        }
    }
    Ok(Some(sets))
}

/// A boolean key with its default.
fn flag(keys: &Keys, key: &'static str, default: bool) -> Result<bool, ConfigError> {
    match keys.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ConfigError::InvalidValue { key }),
    }
}

/// Whether a dtype key says `float32`.
fn says_f32(keys: &Keys, key: &str) -> bool {
    keys.get(key).and_then(Value::as_str) == Some("float32")
}

/// A Mamba-2 mixer from the Granite / Falcon-H1 key names (`mamba_*`): the head width from
/// `mamba_d_head`, else the inner width (`mamba_d_ssm`, else `mamba_expand · hidden`) over the
/// heads.
fn mamba_keys(keys: &Keys, hidden: u32, norm: bool) -> Result<Recurrent, ConfigError> {
    let heads = keys.count("mamba_n_heads")?;
    let head_dim = match keys.optional_count("mamba_d_head")? {
        Some(d) => d,
        None => {
            let inner = match keys.optional_count("mamba_d_ssm")? {
                Some(i) => u64::from(i),
                None => {
                    let expand = keys.optional_count("mamba_expand")?.unwrap_or(2);
                    u64::from(expand) * u64::from(hidden)
                }
            };
            u32::try_from(inner / u64::from(heads))
                .ok()
                .filter(|&d| d > 0 && inner.is_multiple_of(u64::from(heads)))
                .ok_or(ConfigError::InvalidValue {
                    key: "mamba_d_head",
                })?
        }
    };
    Ok(Recurrent {
        kind: RecurrentKind::Mamba2,
        heads,
        head_dim,
        state: keys.optional_count("mamba_d_state")?.unwrap_or(256),
        groups: keys.optional_count("mamba_n_groups")?.unwrap_or(1),
        conv_kernel: keys.optional_count("mamba_d_conv")?.unwrap_or(4),
        conv_bias: flag(keys, "mamba_conv_bias", true)?,
        proj_bias: flag(keys, "mamba_proj_bias", false)?,
        norm,
        ssm_f32: false,
    })
}

/// The hybrid layout and recurrent mixer of the hybrid families (see the module doc); `None` for
/// every other family.
fn read_hybrid(
    keys: &Keys,
    family: Family,
    layers: u32,
    hidden: u32,
) -> Result<Option<Hybrid>, ConfigError> {
    let all = LayerSet::first(layers);
    let (mixer, (recurrent_layers, attention_layers, mlp_layers)) = match family {
        Family::Qwen3Next => {
            let sets = match layer_list(keys, "layer_types", layers, |t| match t {
                "linear_attention" => Some((true, false, true)),
                "full_attention" => Some((false, true, true)),
                _ => None,
            })? {
                Some(sets) => sets,
                None => {
                    let every = keys.optional_count("full_attention_interval")?.unwrap_or(4);
                    let attention = LayerSet::every(layers, every, every - 1);
                    (all.without(attention), attention, all)
                }
            };
            let mixer = Recurrent {
                kind: RecurrentKind::GatedDeltaNet,
                heads: keys.optional_count("linear_num_value_heads")?.unwrap_or(32),
                head_dim: keys.optional_count("linear_value_head_dim")?.unwrap_or(128),
                state: keys.optional_count("linear_key_head_dim")?.unwrap_or(128),
                groups: keys.optional_count("linear_num_key_heads")?.unwrap_or(16),
                conv_kernel: keys.optional_count("linear_conv_kernel_dim")?.unwrap_or(4),
                conv_bias: false,
                proj_bias: false,
                norm: true,
                ssm_f32: says_f32(keys, "mamba_ssm_dtype"),
            };
            (mixer, sets)
        }
        Family::NemotronH => {
            // `E` / `moe` (Nemotron 3): a MoE block. A model has either MoE blocks (the MoE keys
            // present) or dense `-` MLP blocks: a mix of both is not modelled.
            let moe = keys
                .get("n_routed_experts")
                .and_then(Value::as_u64)
                .is_some_and(|e| e > 1);
            let block = |c: &str| match c {
                "M" | "mamba" => Some((true, false, false)),
                "*" | "attention" => Some((false, true, false)),
                "-" | "mlp" if !moe => Some((false, false, true)),
                "E" | "moe" if moe => Some((false, false, true)),
                _ => None,
            };
            let sets = match layer_list(keys, "layers_block_type", layers, block)? {
                Some(sets) => sets,
                None => {
                    let key = "hybrid_override_pattern";
                    let pattern = match keys.get(key) {
                        Some(Value::String(p)) => p,
                        Some(_) => return Err(ConfigError::InvalidValue { key }),
                        None => return Err(ConfigError::MissingKey { key }),
                    };
                    let mlp = if moe { b'E' } else { b'-' };
                    if pattern.len() != layers as usize
                        || !pattern.bytes().all(|b| b == b'M' || b == b'*' || b == mlp)
                    {
                        return Err(ConfigError::InvalidValue { key });
                    }
                    (
                        LayerSet::from_pattern(pattern, b'M'),
                        LayerSet::from_pattern(pattern, b'*'),
                        LayerSet::from_pattern(pattern, mlp),
                    )
                }
            };
            let mixer = Recurrent {
                kind: RecurrentKind::Mamba2,
                heads: keys.count("mamba_num_heads")?,
                head_dim: keys.count("mamba_head_dim")?,
                state: keys.optional_count("ssm_state_size")?.unwrap_or(128),
                groups: keys.optional_count("n_groups")?.unwrap_or(8),
                conv_kernel: keys.optional_count("conv_kernel")?.unwrap_or(4),
                conv_bias: flag(keys, "use_conv_bias", true)?,
                proj_bias: flag(keys, "use_bias", false)?,
                norm: true,
                ssm_f32: says_f32(keys, "mamba_ssm_cache_dtype"),
            };
            (mixer, sets)
        }
        Family::GraniteMoeHybrid => {
            let block = |t: &str| match t {
                "mamba" => Some((true, false, true)),
                "attention" => Some((false, true, true)),
                _ => None,
            };
            let sets = match layer_list(keys, "layer_types", layers, block)? {
                Some(sets) => Some(sets),
                None => layer_list(keys, "layers_block_type", layers, block)?,
            };
            // Without a layer list every layer is attention: a plain Granite MoE.
            let Some(sets) = sets else {
                return Ok(None);
            };
            (mamba_keys(keys, hidden, true)?, sets)
        }
        Family::FalconH1 => {
            let attention = match keys.get("attn_layer_indices") {
                None | Some(Value::Null) => all,
                Some(Value::Array(list)) => {
                    let mut set = LayerSet::EMPTY;
                    for v in list {
                        let i = v.as_u64().filter(|&i| i < u64::from(layers)).ok_or(
                            ConfigError::InvalidValue {
                                key: "attn_layer_indices",
                            },
                        )?;
                        // Below `layers`, a u32.
                        set = set.with(i as u32);
                    }
                    set
                }
                Some(_) => {
                    return Err(ConfigError::InvalidValue {
                        key: "attn_layer_indices",
                    })
                }
            };
            let norm = flag(keys, "mamba_rms_norm", false)?;
            (mamba_keys(keys, hidden, norm)?, (all, attention, all))
        }
        _ => return Ok(None),
    };
    if recurrent_layers.is_empty() {
        return Ok(None);
    }
    Ok(Some(Hybrid {
        mixer,
        recurrent_layers,
        attention_layers,
        mlp_layers,
    }))
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
    // Zero experts says "dense" (Granite 4.0-H-Micro: `num_local_experts: 0`).
    let zero = |k: &str| keys.get(k).and_then(Value::as_u64) == Some(0);
    if ["num_local_experts", "num_experts", "n_routed_experts"]
        .into_iter()
        .any(zero)
    {
        return Ok(None);
    }
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
        _ => match keys.first_count(&[
            "shared_expert_intermediate_size",
            "shared_intermediate_size",
            "moe_shared_expert_intermediate_size",
        ])? {
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
        router_bias: matches!(family, Family::GptOss | Family::Glm4Moe | Family::NemotronH)
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
    if model_type.starts_with("qwen3_vl") {
        return read_qwen3_vl_vision(&vk, text_hidden).map(Some);
    }
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

/// A Qwen3-VL tower (`qwen3_vl`, `qwen3_vl_moe`), counted exactly as the catalog counts it
/// ([`crate::model::qwen3_vl_tower`]): `depth` blocks of `hidden_size` (MLP `intermediate_size`),
/// the merger to `out_hidden_size` (else the text width) and one DeepStack merger per
/// `deepstack_visual_indexes` entry. The shapes assume the published 16 px patches, 2 × 2 merge
/// and 2304 positions; other values are refused naming the key.
fn read_qwen3_vl_vision(vk: &Keys, text_hidden: u32) -> Result<Vision, ConfigError> {
    for (key, expected) in [
        ("patch_size", 16),
        ("temporal_patch_size", 2),
        ("spatial_merge_size", 2),
        ("num_position_embeddings", 2304),
        ("in_channels", 3),
    ] {
        if vk.optional_count(key)?.is_some_and(|v| v != expected) {
            return Err(ConfigError::InvalidValue { key });
        }
    }
    let depth = vk.optional_count("depth")?.unwrap_or(27);
    let width = vk.optional_count("hidden_size")?.unwrap_or(1152);
    let mlp = vk.optional_count("intermediate_size")?.unwrap_or(4304);
    let out = vk.optional_count("out_hidden_size")?.unwrap_or(text_hidden);
    let deepstack = match vk.get("deepstack_visual_indexes") {
        None => 3,
        Some(Value::Array(a)) => a.len(),
        Some(_) => {
            return Err(ConfigError::InvalidValue {
                key: "deepstack_visual_indexes",
            })
        }
    };
    if u64::try_from(deepstack).unwrap_or(u64::MAX) > u64::from(depth) {
        return Err(ConfigError::InvalidValue {
            key: "deepstack_visual_indexes",
        });
    }
    Ok(crate::model::qwen3_vl_tower(
        u64::from(depth),
        u64::from(width),
        u64::from(mlp),
        u64::from(out),
        deepstack as u64,
    ))
}

/// The family for a `model_type`, including the wrappers whose `text_config` holds a known family.
fn family_of(model_type: &str) -> Option<Family> {
    match model_type {
        "gemma3" => Some(Family::Gemma3),
        "gemma3n" => Some(Family::Gemma3n),
        "gemma4" => Some(Family::Gemma4),
        "qwen2_vl" | "qwen2_5_vl" | "qwen2_5_vl_text" | "qwen2_vl_text" => Some(Family::Qwen2),
        "llama4" => Some(Family::Llama4),
        "mllama" | "mllama_text_model" => Some(Family::Llama),
        "kimi_k2" => Some(Family::DeepseekV3),
        // SmolLM3 (`SmolLM3ForCausalLM`) has Llama's tensors; its NoPE layers (`no_rope_layers`)
        // only skip the rotary embedding, which holds no weights and no cache.
        "smollm3" => Some(Family::Llama),
        "qwen3_5" | "qwen3_5_text" | "qwen3_5_moe" | "qwen3_5_moe_text" => Some(Family::Qwen3Next),
        "qwen3_vl" | "qwen3_vl_text" => Some(Family::Qwen3),
        "qwen3_vl_moe" | "qwen3_vl_moe_text" => Some(Family::Qwen3Moe),
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
        Family::Qwen3Next => (false, 32768),
        Family::FalconH1 => (false, 8192),
        Family::NemotronH => (false, 4096),
        Family::GraniteMoeHybrid => (false, 2048),
        Family::Olmo2 => (false, 2048),
        Family::Glm4Moe => (false, 131072),
        Family::Gemma3n => (true, 32768),
        Family::Gemma4 => (true, 262144),
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
        "hidden_size"
        | "embed_dim"
        | "hidden_size_per_layer_input"
        | "laurel_rank"
        | "out_hidden_size" => arch::HIDDEN,
        "vocab_size_per_layer_input" => arch::VOCAB,
        "altup_num_inputs" => arch::HEADS,
        "intermediate_size"
        | "intermediate_size_mlp"
        | "moe_intermediate_size"
        | "shared_expert_intermediate_size"
        | "moe_shared_expert_intermediate_size" => arch::INTERMEDIATE,
        "num_attention_heads" | "num_key_value_heads" | "num_global_key_value_heads" => arch::HEADS,
        "head_dim" | "global_head_dim" | "qk_nope_head_dim" | "qk_rope_head_dim" | "v_head_dim" => {
            arch::HEAD_DIM
        }
        "vocab_size" => arch::VOCAB,
        "num_local_experts"
        | "num_experts"
        | "n_routed_experts"
        | "num_experts_per_tok"
        | "experts_per_token" => arch::EXPERTS,
        "n_shared_experts" => arch::SHARED_EXPERTS,
        "kv_lora_rank" | "q_lora_rank" => arch::LORA_RANK,
        "full_attention_interval" => arch::LAYERS,
        "linear_num_value_heads"
        | "linear_num_key_heads"
        | "mamba_n_heads"
        | "mamba_num_heads"
        | "mamba_n_groups"
        | "n_groups" => arch::HEADS,
        "linear_value_head_dim" | "mamba_d_head" | "mamba_head_dim" | "attention_head_dim" => {
            arch::HEAD_DIM
        }
        "linear_key_head_dim" | "mamba_d_state" | "ssm_state_size" => arch::SSM_STATE,
        "linear_conv_kernel_dim" | "mamba_d_conv" | "conv_kernel" => arch::CONV_KERNEL,
        "mamba_expand" => arch::EXPAND,
        "mamba_d_ssm" | "shared_intermediate_size" => arch::INTERMEDIATE,
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

    /// `Qwen/Qwen3-Next-80B-A3B-Instruct`'s `config.json` (the keys that size it).
    const QWEN3_NEXT_80B: &str = r#"{"architectures":["Qwen3NextForCausalLM"],
        "model_type":"qwen3_next","hidden_size":2048,"intermediate_size":5120,
        "num_hidden_layers":48,"num_attention_heads":16,"num_key_value_heads":2,"head_dim":256,
        "vocab_size":151936,"max_position_embeddings":262144,"tie_word_embeddings":false,
        "num_experts":512,"num_experts_per_tok":10,"moe_intermediate_size":512,
        "shared_expert_intermediate_size":512,"decoder_sparse_step":1,"mlp_only_layers":[],
        "full_attention_interval":4,"linear_num_key_heads":16,"linear_num_value_heads":32,
        "linear_key_head_dim":128,"linear_value_head_dim":128,"linear_conv_kernel_dim":4,
        "partial_rotary_factor":0.25,"rope_theta":10000000}"#;

    /// `nvidia/Nemotron-H-8B-Base-8K`'s `config.json` (the keys that size it).
    const NEMOTRON_H_8B: &str = r#"{"architectures":["NemotronHForCausalLM"],
        "model_type":"nemotron_h","hidden_size":4096,"intermediate_size":21504,
        "num_hidden_layers":52,"num_attention_heads":32,"num_key_value_heads":8,
        "attention_head_dim":128,"vocab_size":131072,"max_position_embeddings":8192,
        "tie_word_embeddings":false,"mamba_num_heads":128,"mamba_head_dim":64,
        "ssm_state_size":128,"n_groups":8,"conv_kernel":4,"expand":2,"use_bias":false,
        "use_conv_bias":true,"mlp_hidden_act":"relu2",
        "hybrid_override_pattern":"M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-"}"#;

    #[test]
    fn reads_qwen3_next_layer_layout() {
        let a = parse_str(QWEN3_NEXT_80B).expect("valid config");
        assert_eq!(a.family, Family::Qwen3Next);
        let h = a.hybrid.expect("hybrid");
        assert_eq!(h.mixer.kind, RecurrentKind::GatedDeltaNet);
        assert_eq!((h.mixer.heads, h.mixer.head_dim), (32, 128));
        assert_eq!((h.mixer.state, h.mixer.groups), (128, 16));
        // Every 4th layer (3, 7, …, 47) is full attention: 12 of 48.
        assert_eq!(a.self_attention_layers(), 12);
        assert!(a.has_attention(3) && !a.has_attention(0) && a.has_recurrent(0));
        assert_eq!(a.recurrent_layers_in(0, 48), 36);
        assert!(a.sliding_window.is_none());
        // `mtp_num_hidden_layers` is read where given (0 otherwise), a bad value refused.
        let mut v: Value = serde_json::from_str(QWEN3_NEXT_80B).expect("JSON");
        v["mtp_num_hidden_layers"] = serde_json::json!(1);
        let with_mtp = parse_value(&v).expect("valid config");
        assert_eq!(with_mtp.mtp_layers, 1);
        assert_eq!(with_mtp.param_count(), a.param_count());
        v["mtp_num_hidden_layers"] = serde_json::json!(5000);
        assert!(matches!(
            parse_value(&v),
            Err(ConfigError::TooLarge {
                key: "mtp_num_hidden_layers",
                ..
            })
        ));
        // The same layout from `layer_types`.
        let mut v: Value = serde_json::from_str(QWEN3_NEXT_80B).expect("JSON");
        let types: Vec<&str> = (0..48)
            .map(|i| {
                if i % 4 == 3 {
                    "full_attention"
                } else {
                    "linear_attention"
                }
            })
            .collect();
        v["layer_types"] = serde_json::json!(types);
        v["full_attention_interval"] = serde_json::json!(8);
        assert_eq!(parse_value(&v), Ok(a));
        // Qwen3.5 wraps the text model and names an fp32 SSM state.
        let wrapped = serde_json::json!({"model_type": "qwen3_5_moe",
            "text_config": {"model_type": "qwen3_5_moe_text", "hidden_size": 2048,
            "num_hidden_layers": 40, "num_attention_heads": 16, "num_key_value_heads": 2,
            "head_dim": 256, "vocab_size": 248320, "num_experts": 256,
            "num_experts_per_tok": 8, "moe_intermediate_size": 512,
            "shared_expert_intermediate_size": 512, "mamba_ssm_dtype": "float32"}});
        let q35 = parse_value(&wrapped).expect("valid Qwen3.5 config");
        assert_eq!(q35.self_attention_layers(), 10);
        assert!(q35.recurrent().is_some_and(|r| r.ssm_f32));
    }

    #[test]
    fn reads_nemotron_h_granite_and_falcon_h1() {
        let a = parse_str(NEMOTRON_H_8B).expect("valid config");
        let h = a.hybrid.expect("hybrid");
        assert_eq!(
            (h.recurrent_layers.len(), h.attention_layers.len()),
            (24, 4)
        );
        assert_eq!(h.mlp_layers.len(), 24);
        assert_eq!(a.head_dim, 128);
        // 131,072 × 4096 × 2 + norm; 24 Mamba-2 layers of 109,640,064 (in_proj 18,560 × 4096,
        // conv 10,240 × 4 + bias, 3 × 128 per-head, norm 8192, out_proj 4096 × 8192, layer norm
        // 4096); 4 attention layers of 41,947,136; 24 MLP layers of 176,164,864.
        assert_eq!(
            a.param_count(),
            1_073_745_920 + 24 * 109_640_064 + 4 * 41_947_136 + 24 * 176_164_864
        );
        // The same layout as a block list.
        let mut v: Value = serde_json::from_str(NEMOTRON_H_8B).expect("JSON");
        let pattern = v["hybrid_override_pattern"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let blocks: Vec<&str> = pattern
            .chars()
            .map(|c| match c {
                'M' => "mamba",
                '*' => "attention",
                _ => "mlp",
            })
            .collect();
        v["layers_block_type"] = serde_json::json!(blocks);
        assert_eq!(parse_value(&v), Ok(a));

        let granite = serde_json::json!({"model_type": "granitemoehybrid", "hidden_size": 64,
            "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2,
            "vocab_size": 100, "intermediate_size": 32, "shared_intermediate_size": 48,
            "num_local_experts": 8, "num_experts_per_tok": 2,
            "layer_types": ["mamba", "mamba", "attention", "mamba"], "mamba_n_heads": 8,
            "mamba_d_head": 16, "mamba_d_state": 16, "mamba_n_groups": 1, "mamba_d_conv": 4});
        let g = parse_value(&granite).expect("valid Granite config");
        assert_eq!(g.self_attention_layers(), 1);
        assert_eq!(g.moe.map(|m| m.shared_intermediate), Some(48));
        assert!(g.has_mlp(0) && g.has_mlp(2));
        // Without experts (H-Micro) the shared MLP is the MLP.
        let mut dense = granite.clone();
        dense["num_local_experts"] = serde_json::json!(0);
        assert_eq!(parse_value(&dense).map(|a| a.intermediate), Ok(48));

        let falcon = serde_json::json!({"model_type": "falcon_h1", "hidden_size": 64,
            "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 2,
            "head_dim": 16, "vocab_size": 100, "intermediate_size": 96, "mamba_n_heads": 4,
            "mamba_d_ssm": 128, "mamba_d_state": 16, "mamba_n_groups": 1, "mamba_d_conv": 4,
            "attn_layer_indices": null});
        let f = parse_value(&falcon).expect("valid Falcon-H1 config");
        let fh = f.hybrid.expect("hybrid");
        // Attention and Mamba-2 in every layer; the head width from mamba_d_ssm / heads.
        assert_eq!(
            (f.self_attention_layers(), fh.recurrent_layers.len()),
            (3, 3)
        );
        assert_eq!(fh.mixer.head_dim, 32);
        assert!(!fh.mixer.norm && fh.mixer.conv_bias);
    }

    /// Hybrid keys are read with the same hardening as the rest: wrong lengths and unknown blocks
    /// name their key, counts past the ceilings are refused, nothing panics.
    #[test]
    fn hybrid_keys_are_checked() {
        let with = |text: &str, key: &str, value: Value| {
            let mut v: Value = serde_json::from_str(text).expect("JSON");
            v[key] = value;
            parse_value(&v)
        };
        let invalid = |key| Err(ConfigError::InvalidValue { key });
        assert_eq!(
            with(
                NEMOTRON_H_8B,
                "hybrid_override_pattern",
                serde_json::json!("M-*")
            ),
            invalid("hybrid_override_pattern")
        );
        let moe_pattern = "MEM*EMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EME";
        assert_eq!(moe_pattern.len(), 52);
        assert_eq!(
            with(
                NEMOTRON_H_8B,
                "hybrid_override_pattern",
                serde_json::json!(moe_pattern)
            ),
            invalid("hybrid_override_pattern")
        );
        assert_eq!(
            with(
                NEMOTRON_H_8B,
                "hybrid_override_pattern",
                serde_json::json!(7)
            ),
            invalid("hybrid_override_pattern")
        );
        assert_eq!(
            with(
                QWEN3_NEXT_80B,
                "layer_types",
                serde_json::json!(["full_attention"])
            ),
            invalid("layer_types")
        );
        assert_eq!(
            with(
                QWEN3_NEXT_80B,
                "full_attention_interval",
                serde_json::json!(0)
            ),
            invalid("full_attention_interval")
        );
        for (key, max) in [
            ("linear_num_value_heads", 1024),
            ("linear_key_head_dim", 4096),
            ("linear_conv_kernel_dim", 64),
            ("full_attention_interval", 1024),
        ] {
            assert_eq!(
                with(QWEN3_NEXT_80B, key, serde_json::json!(max + 1)),
                Err(ConfigError::TooLarge { key, max }),
                "{key}"
            );
        }
        for (key, max) in [("mamba_num_heads", 1024), ("ssm_state_size", 4096)] {
            assert_eq!(
                with(NEMOTRON_H_8B, key, serde_json::json!(u64::MAX)),
                Err(ConfigError::TooLarge { key, max }),
                "{key}"
            );
        }
        // At every ceiling at once the counts stay exact and nothing wraps.
        let mut big: Value = serde_json::from_str(QWEN3_NEXT_80B).expect("JSON");
        for (k, v) in [
            ("num_hidden_layers", 1024),
            ("hidden_size", 65_536),
            ("linear_num_value_heads", 1024),
            ("linear_value_head_dim", 4096),
            ("linear_key_head_dim", 4096),
            ("linear_num_key_heads", 1024),
            ("linear_conv_kernel_dim", 64),
            ("full_attention_interval", 1),
        ] {
            big[k] = serde_json::json!(v);
        }
        let a = parse_value(&big).expect("at the ceilings");
        assert!(a.param_count() > 0);
        assert_eq!(a.recurrent_layers_in(0, 1024), 0);
        big["full_attention_interval"] = serde_json::json!(1024);
        let a = parse_value(&big).expect("at the ceilings");
        assert_eq!(a.recurrent_layers_in(0, 1024), 1023);
        let count = a.param_count();
        assert!(
            count > 1 << 40 && count < crate::bytes::SATURATED,
            "{count}"
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
            .filter(|t| t.kind == crate::model::TensorKind::Norm)
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
}
