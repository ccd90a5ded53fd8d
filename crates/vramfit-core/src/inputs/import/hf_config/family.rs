//! The family a `model_type` names (wrappers included) and `transformers`' defaults per family.

use crate::inputs::model::Family;

/// The family for a `model_type`, including the wrappers whose `text_config` holds a known family.
pub(super) fn family_of(model_type: &str) -> Option<Family> {
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
pub(super) fn family_defaults(family: Family) -> (bool, u32) {
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
