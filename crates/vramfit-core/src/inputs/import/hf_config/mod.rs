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
//! Hybrid models (`crate::inputs::model::Hybrid`) name their layer layout and recurrent dimensions per
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
//! embeddings and AltUp / LAuReL (`crate::inputs::model::PerLayerInputs`): `hidden_size_per_layer_input`,
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
//! full-attention layers their own shape (`crate::inputs::model::GlobalAttention`). A config with
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
//! (`crate::units::limits::arch`): a larger value is refused with [`ConfigError::TooLarge`], so a pasted
//! config can neither make an estimate slow (work grows with layers and experts) nor push a size
//! past what the byte arithmetic represents exactly.

mod attention;
mod compact;
mod family;
mod gemma;
mod hybrid;
mod keys;
mod moe;
mod quantization;
#[cfg(test)]
mod tests;
mod vision;

pub use self::compact::{compact, needs_compacting, MAX_CONFIG_ENTRIES};
pub use self::quantization::{quantization, Quantization};

use self::attention::{read_mla, read_sliding_window};
use self::family::{family_defaults, family_of};
use self::gemma::{
    per_layer_width, read_global_attention, read_kv_shared_layers, read_per_layer_inputs,
};
use self::hybrid::read_hybrid;
use self::keys::{flag, Keys};
use self::moe::read_moe;
use self::vision::read_vision;
use crate::inputs::model::{Family, ModelArch};
use crate::units::limits::arch;
use serde::Serialize;
use serde_json::Value;

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
    /// A key is larger than any real model's (the ceilings of `crate::units::limits::arch`).
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
    /// A mixture of experts routes each token to more experts than it has (or to none).
    ExpertsPerToken {
        /// `num_experts_per_tok`.
        active: u32,
        /// The experts.
        experts: u32,
    },
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

/// The checkpoint's multi-token-prediction layers (`crate::inputs::model::ModelArch::mtp_layers`):
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
