//! The architecture of a dense decoder-only transformer, and its exact parameter count.
//!
//! `ModelArch` holds only what memory depends on. Every weight tensor the architecture has is listed
//! by [`ModelArch::tensors`]; the parameter count is their sum, so the count and the per-tensor
//! allocator rounding (see `budget::reserve`) can never disagree.
//!
//! Tensor shapes follow the Hugging Face `transformers` modelling files of each family
//! (`modeling_llama.py`, `modeling_mistral.py`, `modeling_qwen2.py`, `modeling_qwen3.py`,
//! `modeling_gemma2.py`, `modeling_gemma3.py`, `modeling_phi3.py`):
//! - embeddings `vocab × hidden`; an untied `lm_head` adds another `vocab × hidden`;
//! - attention: q `hidden × heads·head_dim`, k and v `hidden × kv_heads·head_dim` (GQA / MQA),
//!   o `heads·head_dim × hidden`; Qwen2 adds q/k/v biases; Qwen3 and Gemma 3 add per-head q/k RMSNorm
//!   weights (`head_dim` each);
//! - MLP: gated (gate, up, down: `3 · hidden · intermediate`) or plain (up, down: `2 · …`);
//! - norms: two per layer (Llama, Mistral, Qwen, Phi-3) or four (Gemma 2/3 sandwich norms), plus the
//!   final norm. RMSNorm has a weight only; LayerNorm a weight and a bias.
//!
//! Phi-3 stores q/k/v fused as `qkv_proj` and gate/up as `gate_up_proj`: same element counts.

use serde::{Deserialize, Serialize};

/// The model family, as Hugging Face's `model_type` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Llama 2 / 3.x (`llama`).
    Llama,
    /// Mistral 7B, Mistral Small (`mistral`).
    Mistral,
    /// Qwen2 / Qwen2.5 (`qwen2`): q/k/v projections carry biases.
    Qwen2,
    /// Qwen3 dense (`qwen3`): per-head q/k RMSNorm, no biases.
    Qwen3,
    /// Gemma 2 (`gemma2`): four norms per layer, tied embeddings.
    Gemma2,
    /// Gemma 3 text (`gemma3_text`): as Gemma 2 plus q/k norms.
    Gemma3,
    /// Phi-3 / Phi-4 (`phi3`): fused qkv and gate_up projections.
    Phi3,
}

impl Family {
    /// Every family, in a fixed order.
    pub const ALL: [Family; 7] = [
        Family::Llama,
        Family::Mistral,
        Family::Qwen2,
        Family::Qwen3,
        Family::Gemma2,
        Family::Gemma3,
        Family::Phi3,
    ];

    /// Hugging Face `model_type` string of the family.
    pub fn model_type(self) -> &'static str {
        match self {
            Family::Llama => "llama",
            Family::Mistral => "mistral",
            Family::Qwen2 => "qwen2",
            Family::Qwen3 => "qwen3",
            Family::Gemma2 => "gemma2",
            Family::Gemma3 => "gemma3_text",
            Family::Phi3 => "phi3",
        }
    }

    /// Whether q, k and v projections have a bias (Qwen2 family).
    pub fn qkv_bias(self) -> bool {
        matches!(self, Family::Qwen2)
    }

    /// Whether each layer normalises queries and keys per head (Qwen3, Gemma 3).
    pub fn qk_norm(self) -> bool {
        matches!(self, Family::Qwen3 | Family::Gemma3)
    }

    /// RMSNorm weights per decoder layer.
    pub fn norms_per_layer(self) -> u64 {
        match self {
            Family::Gemma2 | Family::Gemma3 => 4,
            _ => 2,
        }
    }
}

/// Architecture numbers of a dense decoder. All counts are per model (not per GPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelArch {
    /// Family (decides biases, q/k norms and norms per layer).
    pub family: Family,
    /// Decoder layers (`num_hidden_layers`).
    pub layers: u32,
    /// Residual width (`hidden_size`).
    pub hidden: u32,
    /// Query heads (`num_attention_heads`).
    pub heads: u32,
    /// Key/value heads (`num_key_value_heads`; equal to `heads` without GQA, 1 for MQA).
    pub kv_heads: u32,
    /// Width of one head (`head_dim`, else `hidden / heads`).
    pub head_dim: u32,
    /// MLP width (`intermediate_size`).
    pub intermediate: u32,
    /// Vocabulary rows of the embedding (`vocab_size`).
    pub vocab: u32,
    /// Whether the output head reuses the embedding matrix (`tie_word_embeddings`).
    pub tied_embeddings: bool,
    /// Longest context the model was trained for (`max_position_embeddings`).
    pub max_position: u32,
}

/// What a weight tensor is, so that quantisation (a later layer) can treat it by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorRole {
    /// Token embedding (kept 16-bit by most quantisers).
    Embedding,
    /// Output head, when untied.
    LmHead,
    /// A linear projection inside a layer (attention or MLP): what quantisers compress.
    Linear,
    /// A bias vector.
    Bias,
    /// A norm weight.
    Norm,
}

/// How tensor parallelism splits a tensor (Megatron-style, as vLLM's parallel linear layers do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Rows or columns divided among the GPUs.
    ByGpu,
    /// Divided by KV head; replicated when there are fewer KV heads than GPUs.
    ByKvHead,
    /// A full copy on every GPU (norms).
    Replicated,
}

/// One weight tensor: its role and element count. Repeated `count` times (once per layer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tensor {
    /// What the tensor is.
    pub role: TensorRole,
    /// How tensor parallelism splits it.
    pub split: Split,
    /// Elements in one instance.
    pub numel: u64,
    /// Instances in the model (layers for per-layer tensors, 1 otherwise).
    pub count: u64,
}

impl ModelArch {
    /// Every weight tensor of the model with its element count, in load order.
    pub fn tensors(&self) -> Vec<Tensor> {
        let h = u64::from(self.hidden);
        let q = u64::from(self.heads) * u64::from(self.head_dim);
        let kv = u64::from(self.kv_heads) * u64::from(self.head_dim);
        let i = u64::from(self.intermediate);
        let l = u64::from(self.layers);
        let fam = self.family;
        let t = |role, numel, count| Tensor {
            role,
            split: if role == TensorRole::Norm {
                Split::Replicated
            } else {
                Split::ByGpu
            },
            numel,
            count,
        };
        let kv_proj = |numel| Tensor {
            role: TensorRole::Linear,
            split: Split::ByKvHead,
            numel,
            count: l,
        };
        let mut out = vec![t(TensorRole::Embedding, u64::from(self.vocab) * h, 1)];
        out.push(t(TensorRole::Linear, h * q, l)); // q_proj
        out.push(kv_proj(h * kv)); // k_proj
        out.push(kv_proj(h * kv)); // v_proj
        out.push(t(TensorRole::Linear, q * h, l)); // o_proj
        if fam.qkv_bias() {
            out.push(t(TensorRole::Bias, q + 2 * kv, l));
        }
        if fam.qk_norm() {
            out.push(t(TensorRole::Norm, 2 * u64::from(self.head_dim), l));
        }
        out.push(t(TensorRole::Linear, h * i, l)); // gate_proj
        out.push(t(TensorRole::Linear, h * i, l)); // up_proj
        out.push(t(TensorRole::Linear, i * h, l)); // down_proj
        out.push(t(TensorRole::Norm, h, l * fam.norms_per_layer()));
        out.push(t(TensorRole::Norm, h, 1)); // final norm
        if !self.tied_embeddings {
            out.push(t(TensorRole::LmHead, u64::from(self.vocab) * h, 1));
        }
        out
    }

    /// Exact parameter count (the sum of all tensors).
    pub fn param_count(&self) -> u64 {
        self.tensors().iter().map(|t| t.numel * t.count).sum()
    }

    /// Key and value elements stored per token across all layers (`2 · layers · kv_heads · head_dim`).
    pub fn kv_elements_per_token(&self) -> u64 {
        2 * u64::from(self.layers) * u64::from(self.kv_heads) * u64::from(self.head_dim)
    }

    /// Whether `n` GPUs can split this model by tensor parallelism the way vLLM requires
    /// (`ModelConfig.verify_with_parallel_config`: query heads divisible by `n`; KV heads divisible by
    /// `n`, or `n` divisible by the KV heads, which are then replicated).
    pub fn tensor_parallel_ok(&self, n: u32) -> bool {
        n >= 1
            && self.heads.is_multiple_of(n)
            && (self.kv_heads.is_multiple_of(n) || n.is_multiple_of(self.kv_heads))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Llama 3.1 8B: 8,030,261,248 parameters (the figure vLLM's notes check the weights against).
    #[test]
    fn llama_3_1_8b_count_is_exact() {
        let arch = ModelArch {
            family: Family::Llama,
            layers: 32,
            hidden: 4096,
            heads: 32,
            kv_heads: 8,
            head_dim: 128,
            intermediate: 14336,
            vocab: 128256,
            tied_embeddings: false,
            max_position: 131072,
        };
        assert_eq!(arch.param_count(), 8_030_261_248);
        assert_eq!(arch.kv_elements_per_token(), 2 * 32 * 8 * 128);
        assert!(arch.tensor_parallel_ok(8));
        assert!(!arch.tensor_parallel_ok(3));
    }
}
