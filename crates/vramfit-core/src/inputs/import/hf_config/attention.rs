//! Attention variants beside plain multi-head attention: MLA ranks (DeepSeek V2/V3) and
//! sliding-window layers.

use super::keys::Keys;
use super::ConfigError;
use crate::inputs::model::{Family, Mla, SlidingWindow};
use serde_json::Value;

/// MLA ranks (`kv_lora_rank` present): DeepSeek V2/V3.
pub(super) fn read_mla(keys: &Keys) -> Result<Option<Mla>, ConfigError> {
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

/// Sliding-window layers: `layer_types` when the config lists them, else the family's pattern.
pub(super) fn read_sliding_window(
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
