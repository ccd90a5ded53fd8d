//! Key lookup in a `config.json` (`text_config` first, then the top level), each count checked
//! against its ceiling (`crate::units::limits::arch`), and boolean keys with their defaults.

use super::ConfigError;
use crate::units::limits::arch;
use serde_json::{Map, Value};

/// Key lookup: `text_config` first, then the top level.
pub(super) struct Keys<'a> {
    pub(super) inner: Option<&'a Map<String, Value>>,
    pub(super) outer: &'a Map<String, Value>,
}

/// The largest value accepted for `key` (`crate::units::limits::arch`; token counts for any other key).
pub(super) fn ceiling(key: &str) -> u32 {
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
    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        self.inner
            .and_then(|m| m.get(key))
            .or_else(|| self.outer.get(key))
    }

    pub(super) fn optional_count(&self, key: &'static str) -> Result<Option<u32>, ConfigError> {
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
    pub(super) fn first_count(&self, names: &[&'static str]) -> Result<Option<u32>, ConfigError> {
        for &name in names {
            if let Some(v) = self.optional_count(name)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    pub(super) fn count(&self, key: &'static str) -> Result<u32, ConfigError> {
        self.optional_count(key)?
            .ok_or(ConfigError::MissingKey { key })
    }
}

/// A boolean key with its default.
pub(super) fn flag(keys: &Keys, key: &'static str, default: bool) -> Result<bool, ConfigError> {
    match keys.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(ConfigError::InvalidValue { key }),
    }
}
