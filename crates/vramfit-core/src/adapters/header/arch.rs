//! The architecture a header describes: read from GGUF metadata, or inferred from safetensors
//! tensor names and shapes; and, where it maps onto the core's families, a Hugging Face
//! `config.json`-shaped object the importer (`import::hf_config`) reads into a `ModelArch`.
//!
//! GGUF keys (`gguf-py/gguf/constants.py`, `Keys.LLM` / `Keys.Attention` / `Keys.Rope`, with
//! `{arch}` = `general.architecture`): `{arch}.block_count`, `.context_length`,
//! `.embedding_length`, `.feed_forward_length`, `.expert_count`, `.expert_used_count`,
//! `.expert_feed_forward_length`, `.expert_shared_count`, `.expert_shared_feed_forward_length`,
//! `.leading_dense_block_count`, `.vocab_size`, `.attention.head_count`, `.head_count_kv`,
//! `.key_length`, `.value_length`, `.sliding_window`, `.sliding_window_pattern`,
//! `.rope.dimension_count`, `.rope.freq_base`, `.rope.scaling.type`, `.rope.scaling.factor`; the
//! vocabulary is the length of `tokenizer.ggml.tokens`. Head counts stored per layer (arrays) give
//! their largest value. An untied model has an `output.weight` tensor (llama.cpp
//! `llama-model.cpp` falls back to `token_embd` when it is absent).
//!
//! safetensors names follow `transformers`' modelling files: `model.layers.N.` (also under
//! `language_model.`), `embed_tokens` `[vocab, hidden]`, `self_attn.{q,k}_proj` `[width, hidden]`,
//! `mlp.gate_proj` `[intermediate, hidden]`, Phi-3's fused `qkv_proj` / `gate_up_proj`, per-head
//! `q_norm` `[head_dim]` (Qwen3, Gemma 3), Gemma's `pre_feedforward_layernorm`, experts as
//! `mlp.experts.E.` (Qwen3-MoE) or `block_sparse_moe.experts.E.w1` (Mixtral). Vision and audio
//! towers are left out. Shapes do not give the head width; without a `q_norm` it is assumed (128,
//! else 64) — weights and KV cache per token depend only on the widths, so the assumption moves
//! neither — and the context length and sliding window are unknown: such values are listed in
//! `assumed`.

use super::gguf_file::Meta;
use super::FileTensor;
use serde::Serialize;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// What the header says about the architecture. Every field is optional: a header holds what
/// its writer put there.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ArchInfo {
    /// Where the numbers come from: `gguf_metadata` or `tensor_shapes`.
    pub source: &'static str,
    /// GGUF `general.architecture` (`llama`, `qwen2`, `gemma3`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
    /// The Hugging Face `model_type` it maps to, when it maps onto a family the core models.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_type: Option<String>,
    /// GGUF `general.name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Decoder layers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_count: Option<u64>,
    /// Residual width.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub embedding_length: Option<u64>,
    /// Dense MLP width.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feed_forward_length: Option<u64>,
    /// Query heads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_count: Option<u64>,
    /// Key/value heads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_count_kv: Option<u64>,
    /// Key width per head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_length: Option<u64>,
    /// Value width per head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_length: Option<u64>,
    /// Query projection width (`heads × head_dim`), from shapes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub q_width: Option<u64>,
    /// Key (or value) projection width (`kv_heads × head_dim`), from shapes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_width: Option<u64>,
    /// Trained context length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context_length: Option<u64>,
    /// Vocabulary rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vocab_size: Option<u64>,
    /// Whether the output head reuses the token embedding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tied_embeddings: Option<bool>,
    /// Routed experts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expert_count: Option<u64>,
    /// Experts per token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expert_used_count: Option<u64>,
    /// MLP width of one routed expert.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expert_feed_forward_length: Option<u64>,
    /// Shared experts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expert_shared_count: Option<u64>,
    /// MLP width of the shared expert(s).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expert_shared_feed_forward_length: Option<u64>,
    /// Leading dense layers of a MoE model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leading_dense_block_count: Option<u64>,
    /// Rotary dimensions per head.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rope_dimension_count: Option<u64>,
    /// Rotary base frequency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rope_freq_base: Option<f64>,
    /// Rotary scaling type (`linear`, `yarn`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rope_scaling_type: Option<String>,
    /// Rotary scaling factor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rope_scaling_factor: Option<f64>,
    /// Sliding-window size of local layers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sliding_window: Option<u64>,
    /// Every n-th layer is global.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sliding_window_pattern: Option<u64>,
    /// GGUF `general.file_type` (llama.cpp `llama_ftype`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_type: Option<u64>,
    /// Values not in the header that were assumed (`head_dim`, `context_length`,
    /// `sliding_window`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<&'static str>,
}

/// From GGUF metadata (and the tensor list, for the vocabulary and tied embeddings).
pub(crate) fn from_gguf(kv: &BTreeMap<String, Meta>, tensors: &[&FileTensor]) -> ArchInfo {
    let s = |k: &str| match kv.get(k) {
        Some(Meta::Str(s)) => Some(s.clone()),
        _ => None,
    };
    let architecture = s("general.architecture");
    let a = architecture.clone().unwrap_or_default();
    let get = |suffix: &str| kv.get(&format!("{a}.{suffix}"));
    let n = |suffix: &str| get(suffix).and_then(Meta::as_u64);
    let f = |suffix: &str| get(suffix).and_then(Meta::as_f64);
    let find = |name: &str| tensors.iter().find(|t| t.name == name);
    let vocab = match kv.get("tokenizer.ggml.tokens") {
        Some(Meta::Array { len, .. }) => Some(*len),
        _ => n("vocab_size")
            .or_else(|| find("token_embd.weight").and_then(|t| t.shape.first().copied())),
    };
    let tied = find("token_embd.weight").map(|_| find("output.weight").is_none());
    let expert_count = n("expert_count").filter(|&e| e > 0);
    let model_type = match a.as_str() {
        "llama" if expert_count.is_some_and(|e| e > 1) => Some("mixtral"),
        "llama" => Some("llama"),
        "qwen2" => Some("qwen2"),
        "qwen3" => Some("qwen3"),
        "qwen3moe" => Some("qwen3_moe"),
        "gemma2" => Some("gemma2"),
        "gemma3" => Some("gemma3_text"),
        "phi3" => Some("phi3"),
        _ => None,
    };
    ArchInfo {
        source: "gguf_metadata",
        architecture,
        model_type: model_type.map(str::to_string),
        name: s("general.name"),
        block_count: n("block_count"),
        embedding_length: n("embedding_length"),
        feed_forward_length: n("feed_forward_length"),
        head_count: n("attention.head_count"),
        head_count_kv: n("attention.head_count_kv"),
        key_length: n("attention.key_length"),
        value_length: n("attention.value_length"),
        context_length: n("context_length"),
        vocab_size: vocab,
        tied_embeddings: tied,
        expert_count,
        expert_used_count: n("expert_used_count"),
        expert_feed_forward_length: n("expert_feed_forward_length"),
        expert_shared_count: n("expert_shared_count"),
        expert_shared_feed_forward_length: n("expert_shared_feed_forward_length"),
        leading_dense_block_count: n("leading_dense_block_count"),
        rope_dimension_count: n("rope.dimension_count"),
        rope_freq_base: f("rope.freq_base"),
        rope_scaling_type: match get("rope.scaling.type") {
            Some(Meta::Str(s)) => Some(s.clone()),
            _ => None,
        },
        rope_scaling_factor: f("rope.scaling.factor"),
        sliding_window: n("attention.sliding_window"),
        sliding_window_pattern: n("attention.sliding_window_pattern"),
        file_type: kv.get("general.file_type").and_then(Meta::as_u64),
        ..ArchInfo::default()
    }
}

/// The decoder layer a tensor name belongs to (`…layers.N.…`), with the rest of the name.
fn layer_of(name: &str) -> Option<(u64, &str)> {
    let at = name.rfind("layers.")?;
    let rest = name.get(at + "layers.".len()..)?;
    let (digits, tail) = rest.split_once('.')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().ok()?, tail))
}

/// The routed-expert index in a layer-relative name (`mlp.experts.E.…`,
/// `block_sparse_moe.experts.E.…`).
fn expert_of(tail: &str) -> Option<u64> {
    let at = tail.find("experts.")?;
    let rest = tail.get(at + "experts.".len()..)?;
    let (digits, _) = rest.split_once('.')?;
    digits.parse().ok()
}

/// Inferred from safetensors tensor names and shapes.
pub(crate) fn from_tensor_names(tensors: &[&FileTensor]) -> ArchInfo {
    const OTHER_TOWERS: [&str; 6] = [
        "vision",
        "visual",
        "multi_modal_projector",
        "mm_projector",
        "audio",
        "image_newline",
    ];
    let text: Vec<&FileTensor> = tensors
        .iter()
        .copied()
        .filter(|t| !OTHER_TOWERS.iter().any(|w| t.name.contains(w)))
        .collect();
    let layers = text
        .iter()
        .filter_map(|t| layer_of(&t.name))
        .map(|(i, _)| i)
        .max()
        .map(|m| m + 1);
    // Layer 0's tensors, by their name inside the layer.
    let first: BTreeMap<&str, &FileTensor> = text
        .iter()
        .filter_map(|t| match layer_of(&t.name) {
            Some((0, tail)) => Some((tail, *t)),
            _ => None,
        })
        .collect();
    let rows = |tail: &str| first.get(tail).and_then(|t| t.shape.first().copied());
    let embed = text
        .iter()
        .find(|t| t.name.ends_with("embed_tokens.weight") && t.shape.len() == 2);
    let (vocab, hidden) = match embed.map(|t| t.shape.as_slice()) {
        Some([v, h]) => (Some(*v), Some(*h)),
        _ => (None, None),
    };
    let lm_head = text.iter().any(|t| t.name.ends_with("lm_head.weight"));
    let experts = first
        .keys()
        .filter_map(|tail| expert_of(tail))
        .max()
        .map(|m| m + 1);
    let mixtral = first.keys().any(|k| k.starts_with("block_sparse_moe."));
    let head_norm = rows("self_attn.q_norm.weight");
    let gemma = first.contains_key("pre_feedforward_layernorm.weight");
    let fused = rows("self_attn.qkv_proj.weight");
    let (q_width, kv_width) = match (fused, hidden) {
        (Some(qkv), Some(h)) => (Some(h), qkv.checked_sub(h).map(|r| r / 2)),
        _ => (
            rows("self_attn.q_proj.weight"),
            rows("self_attn.k_proj.weight"),
        ),
    };
    let intermediate =
        rows("mlp.gate_proj.weight").or_else(|| rows("mlp.gate_up_proj.weight").map(|r| r / 2));
    let expert_width = rows("mlp.experts.0.gate_proj.weight")
        .or_else(|| rows("block_sparse_moe.experts.0.w1.weight"));
    let model_type = if mixtral {
        Some("mixtral")
    } else if experts.is_some() {
        head_norm.map(|_| "qwen3_moe")
    } else if fused.is_some() {
        Some("phi3")
    } else if gemma {
        Some(if head_norm.is_some() {
            "gemma3_text"
        } else {
            "gemma2"
        })
    } else if head_norm.is_some() {
        Some("qwen3")
    } else if first.contains_key("self_attn.q_proj.bias") {
        Some("qwen2")
    } else if q_width.is_some() && intermediate.is_some() {
        Some("llama")
    } else {
        None
    };
    let mut assumed = Vec::new();
    let head_dim = head_norm.or_else(|| {
        let (q, kv) = (q_width?, kv_width?);
        let d = [128, 64].into_iter().find(|d| q % d == 0 && kv % d == 0)?;
        assumed.push("head_dim");
        Some(d)
    });
    if model_type.is_some() {
        assumed.push("context_length");
        if gemma {
            assumed.push("sliding_window");
        }
    }
    let per_head = |w: Option<u64>| Some(w? / head_dim.filter(|&d| d > 0)?);
    ArchInfo {
        source: "tensor_shapes",
        model_type: model_type.map(str::to_string),
        block_count: layers,
        embedding_length: hidden,
        feed_forward_length: intermediate.or(expert_width),
        head_count: per_head(q_width),
        head_count_kv: per_head(kv_width),
        key_length: head_dim,
        q_width,
        kv_width,
        vocab_size: vocab,
        tied_embeddings: embed.map(|_| !lm_head),
        expert_count: experts,
        expert_feed_forward_length: expert_width,
        assumed,
        ..ArchInfo::default()
    }
}

/// A `config.json`-shaped object for [`crate::inputs::import::hf_config`], when the architecture maps onto
/// a family the core models and the header gave the numbers it needs.
pub(crate) fn hf_config(arch: &ArchInfo) -> Option<Value> {
    let model_type = arch.model_type.as_deref()?;
    let mut m = Map::new();
    let mut put = |k: &str, v: Option<u64>| {
        if let Some(v) = v {
            m.insert(k.to_string(), json!(v));
        }
    };
    put("num_hidden_layers", arch.block_count);
    put("hidden_size", arch.embedding_length);
    put("intermediate_size", arch.feed_forward_length);
    put("num_attention_heads", arch.head_count);
    put("num_key_value_heads", arch.head_count_kv);
    put("head_dim", arch.key_length);
    put("vocab_size", arch.vocab_size);
    put("max_position_embeddings", arch.context_length);
    if matches!(model_type, "gemma2" | "gemma3_text") {
        put("sliding_window", arch.sliding_window);
        put("sliding_window_pattern", arch.sliding_window_pattern);
    }
    if let Some(e) = arch.expert_count.filter(|&e| e > 1) {
        let key = if model_type == "mixtral" {
            "num_local_experts"
        } else {
            "num_experts"
        };
        put(key, Some(e));
        put("num_experts_per_tok", arch.expert_used_count);
        put("moe_intermediate_size", arch.expert_feed_forward_length);
    }
    m.insert("model_type".into(), json!(model_type));
    if let Some(tied) = arch.tied_embeddings {
        m.insert("tie_word_embeddings".into(), json!(tied));
    }
    if let Some(theta) = arch.rope_freq_base {
        m.insert("rope_theta".into(), json!(theta));
    }
    Some(Value::Object(m))
}
