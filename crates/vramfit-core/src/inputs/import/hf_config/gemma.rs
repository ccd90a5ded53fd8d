//! The Gemma 4 and Gemma 3n keys: Gemma 4's full-attention shape (and the blocks it refuses),
//! Gemma 3n's per-layer MLP width, shared KV layers, per-layer embeddings, AltUp and LAuReL.

use super::keys::{ceiling, flag, Keys};
use super::ConfigError;
use crate::inputs::model::{Family, GlobalAttention, PerLayerInputs};
use serde_json::Value;

/// Gemma 4's full-attention shape (`crate::inputs::model::GlobalAttention`); refuses the Gemma 4 blocks
/// this version does not model (see the module doc).
pub(super) fn read_global_attention(
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
pub(super) fn per_layer_width(keys: &Keys, layers: u32) -> Result<u32, ConfigError> {
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
pub(super) fn read_kv_shared_layers(
    keys: &Keys,
    family: Family,
    layers: u32,
) -> Result<u32, ConfigError> {
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

/// Gemma 3n's per-layer embeddings, AltUp and LAuReL (`crate::inputs::model::PerLayerInputs`).
pub(super) fn read_per_layer_inputs(
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
