//! The architecture of a decoder-only transformer (dense or mixture-of-experts, with GQA/MQA or
//! MLA attention, sliding-window layers and an optional vision tower), and its exact parameter
//! count.
//!
//! `ModelArch` holds only what memory depends on. [`ModelArch::tensors`] lists every weight tensor
//! with its shape and layer; the parameter count is their sum, so the count, the quantised storage
//! (`format`) and the allocator rounding (`budget::reserve`) all read the same list.
//!
//! Shapes follow the Hugging Face `transformers` modelling files of each family
//! (`modeling_llama.py`, `modeling_mistral.py`, `modeling_qwen2.py`, `modeling_qwen3.py`,
//! `modeling_gemma2.py`, `modeling_gemma3.py`, `modeling_phi3.py`, `modeling_mixtral.py`,
//! `modeling_qwen3_moe.py`, `modeling_deepseek_v2.py` / `_v3.py`, `modeling_gpt_oss.py`,
//! `modeling_llama4.py`, `modeling_olmo2.py`, `modeling_glm4_moe.py`), as `[out, in]`
//! (rows × cols):
//! - embeddings `vocab × hidden`; an untied `lm_head` adds another `vocab × hidden`;
//! - attention: q `heads·head_dim × hidden`, k and v `kv_heads·head_dim × hidden`, o
//!   `hidden × heads·head_dim`; Qwen2 and GLM-4.5 add q/k/v biases, gpt-oss biases on q/k/v/o
//!   plus one "sink" logit per head; Qwen3 and Gemma 3 (and GLM-4.5 with `use_qk_norm`) add
//!   per-head q/k RMSNorm weights (`head_dim` each), OLMo 2 q/k RMSNorm weights over the whole
//!   projections (`heads·head_dim` and `kv_heads·head_dim`);
//! - MLA (DeepSeek V2/V3, `DeepseekV2Attention`): `q_a` `q_lora × hidden` + norm + `q_b`
//!   `heads·(nope+rope) × q_lora` (or one `q_proj` without a q LoRA rank), `kv_a`
//!   `(kv_lora + rope) × hidden` + norm, `kv_b` `heads·(nope + v) × kv_lora`, `o` `hidden × heads·v`;
//! - MLP: gated (gate, up `intermediate × hidden`, down `hidden × intermediate`);
//! - MoE layers: a router `experts × hidden` (+ bias for DeepSeek V3, GLM-4.5 and gpt-oss), every
//!   expert a gated MLP of `expert_intermediate` (+ biases for gpt-oss), shared experts as one
//!   gated MLP of `shared_intermediate`; all experts are resident in memory. The first
//!   `first_dense_layers` layers are dense (DeepSeek `first_k_dense_replace`); then every
//!   `moe_every`-th layer is MoE (Llama 4 Maverick `interleave_moe_layer_step = 2`);
//! - norms: two per layer, four for Gemma 2/3 (sandwich norms), plus the final norm;
//! - a vision tower (VLMs) is one block of `params` parameters, read from the checkpoint, of
//!   which `replicated` stay whole on every GPU under tensor parallelism.
//!
//! Phi-3 stores q/k/v fused as `qkv_proj` and gate/up as `gate_up_proj`: same element counts.
//!
//! Hybrid models ([`Hybrid`], `modeling_qwen3_next.py`, `modeling_falcon_h1.py`,
//! `modeling_nemotron_h.py`, `modeling_granitemoehybrid.py`) give each layer its mixers: attention,
//! a recurrent state layer (Mamba-2 or gated DeltaNet, shapes in [`hybrid`]), or both (Falcon-H1);
//! Nemotron-H's layers hold one block each (a Mamba-2 mixer, attention, or a non-gated ReLU² MLP
//! `up`/`down`, one norm). Qwen3-Next's attention projects a per-head output gate with the query
//! (`q_proj` twice as wide) and its shared expert has a one-row `shared_expert_gate`.

use serde::{Deserialize, Serialize};

pub mod hybrid;
mod tensor;

pub use hybrid::{Hybrid, LayerSet, Recurrent, RecurrentKind};
#[cfg(test)]
pub use tensor::under_any;
pub use tensor::{ModulePatterns, Split, Tensor, TensorKind};

/// The model family, as Hugging Face's `model_type` names it (the text model's, for VLMs).
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
    /// Mixtral (`mixtral`): sparse MoE, no shared expert.
    Mixtral,
    /// Qwen3 MoE (`qwen3_moe`): q/k norms, sparse MoE.
    Qwen3Moe,
    /// DeepSeek V2 / V2-Lite / Coder-V2 (`deepseek_v2`): MLA attention, shared experts.
    DeepseekV2,
    /// DeepSeek V3 / R1 (`deepseek_v3`): MLA attention, shared expert, router bias.
    DeepseekV3,
    /// gpt-oss (`gpt_oss`): biased attention with sinks, alternating sliding window, biased experts.
    GptOss,
    /// Llama 4 text (`llama4_text`): MoE with a shared expert, optionally interleaved with dense.
    Llama4,
    /// BERT encoders (`bert`, for fine-tuning budgets): learned positions, token types, LayerNorm
    /// with biases, biases on every linear, a plain GELU MLP, a pooler and a 2-label classifier.
    Bert,
    /// Qwen3-Next (`qwen3_next`; also Qwen3.5): gated DeltaNet layers with gated attention every
    /// `full_attention_interval`-th layer, q/k norms, MoE with a gated shared expert.
    Qwen3Next,
    /// Falcon-H1 (`falcon_h1`): attention and Mamba-2 side by side in every layer, dense MLP.
    FalconH1,
    /// Nemotron-H (`nemotron_h`): one block per layer (Mamba-2, attention, a ReLU² MLP, or for
    /// Nemotron 3 a MoE of ReLU² experts) from `hybrid_override_pattern`, one norm per layer.
    NemotronH,
    /// Granite 4.0-H (`granitemoehybrid`): Mamba-2 or attention per layer (`layer_types`), each
    /// followed by MoE experts and a shared MLP.
    GraniteMoeHybrid,
    /// OLMo 2 (`olmo2`): Llama-shaped, norms after attention and MLP (two per layer), and q/k
    /// RMSNorm over the whole projection (`q_norm` of `heads · head_dim`, `k_norm` of
    /// `kv_heads · head_dim`), not per head.
    Olmo2,
    /// GLM-4.5 / GLM-4.6 (`glm4_moe`): q/k/v biases, per-head q/k norms where `use_qk_norm`
    /// says so ([`ModelArch::qk_norm`]), leading dense layers (`first_k_dense_replace`), then MoE
    /// with a shared expert and a router bias (`e_score_correction_bias`).
    Glm4Moe,
    /// Gemma 3n text (`gemma3n_text`, in `gemma3n`): Gemma 3's layer (four norms, q/k norms)
    /// plus AltUp, LAuReL and per-layer embeddings ([`PerLayerInputs`]); its last
    /// `num_kv_shared_layers` layers reuse earlier layers' keys and values
    /// ([`ModelArch::kv_shared_layers`]).
    Gemma3n,
    /// Gemma 4 text (`gemma4_text`, in `gemma4`): Gemma 3's layer (four norms, per-head q/k
    /// norms) with a learned `layer_scalar` per layer, and full-attention layers of their own
    /// shape ([`GlobalAttention`]: `global_head_dim`, `num_global_key_value_heads`,
    /// `attention_k_eq_v`). The dense checkpoints without per-layer embeddings are modelled.
    Gemma4,
}

impl Family {
    /// Every family, in a fixed order.
    pub const ALL: [Family; 22] = [
        Family::Llama,
        Family::Mistral,
        Family::Qwen2,
        Family::Qwen3,
        Family::Gemma2,
        Family::Gemma3,
        Family::Phi3,
        Family::Mixtral,
        Family::Qwen3Moe,
        Family::DeepseekV2,
        Family::DeepseekV3,
        Family::GptOss,
        Family::Llama4,
        Family::Bert,
        Family::Qwen3Next,
        Family::FalconH1,
        Family::NemotronH,
        Family::GraniteMoeHybrid,
        Family::Olmo2,
        Family::Glm4Moe,
        Family::Gemma3n,
        Family::Gemma4,
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
            Family::Mixtral => "mixtral",
            Family::Qwen3Moe => "qwen3_moe",
            Family::DeepseekV2 => "deepseek_v2",
            Family::DeepseekV3 => "deepseek_v3",
            Family::GptOss => "gpt_oss",
            Family::Llama4 => "llama4_text",
            Family::Bert => "bert",
            Family::Qwen3Next => "qwen3_next",
            Family::FalconH1 => "falcon_h1",
            Family::NemotronH => "nemotron_h",
            Family::GraniteMoeHybrid => "granitemoehybrid",
            Family::Olmo2 => "olmo2",
            Family::Glm4Moe => "glm4_moe",
            Family::Gemma3n => "gemma3n_text",
            Family::Gemma4 => "gemma4_text",
        }
    }

    /// Whether q, k and v projections have a bias (Qwen2; GLM-4.5, whose released configs all
    /// say `attention_bias: true`, which `Glm4MoeAttention` gives q/k/v and not o).
    pub fn qkv_bias(self) -> bool {
        matches!(self, Family::Qwen2 | Family::Glm4Moe)
    }

    /// Whether q, k, v and o all have biases and each head a sink logit (gpt-oss).
    pub fn full_attention_bias(self) -> bool {
        matches!(self, Family::GptOss | Family::Bert)
    }

    /// Whether this is a BERT-style encoder (plain MLP with biases, LayerNorm, extra embeddings).
    pub fn is_encoder(self) -> bool {
        matches!(self, Family::Bert)
    }

    /// Whether each layer normalises queries and keys per head with learned weights.
    pub fn qk_norm(self) -> bool {
        matches!(
            self,
            Family::Qwen3
                | Family::Gemma3
                | Family::Gemma3n
                | Family::Gemma4
                | Family::Qwen3Moe
                | Family::Qwen3Next
        )
    }

    /// Whether each layer normalises the whole query and key projections with learned weights
    /// (OLMo 2 `Olmo2Attention`: `q_norm` of `heads · head_dim`, `k_norm` of `kv_heads · head_dim`;
    /// vLLM's `olmo2.py` gathers q and k across the tensor-parallel group before these norms, so
    /// every GPU keeps them whole).
    pub fn full_width_qk_norm(self) -> bool {
        matches!(self, Family::Olmo2)
    }

    /// Whether the attention's `q_proj` also projects a per-head output gate (Qwen3-Next
    /// `Qwen3NextAttention`: `num_attention_heads · head_dim · 2` rows).
    pub fn attention_output_gate(self) -> bool {
        matches!(self, Family::Qwen3Next)
    }

    /// Whether the dense MLP is gated (gate, up, down); Nemotron-H's is `up`/`down` with ReLU²
    /// (`NemotronHMLP`), BERT's a plain GELU MLP.
    pub fn gated_mlp(self) -> bool {
        !matches!(self, Family::NemotronH | Family::Bert)
    }

    /// Whether the shared expert has a one-row sigmoid gate (`shared_expert_gate`, Qwen3-Next).
    pub fn shared_expert_gate(self) -> bool {
        matches!(self, Family::Qwen3Next)
    }

    /// Whether each decoder layer ends with a learned one-element `layer_scalar` (Gemma 4's
    /// decoder layer: `nn.Parameter(torch.ones(1))`; llama.cpp `layer_output_scale`).
    pub fn layer_scalar(self) -> bool {
        matches!(self, Family::Gemma4)
    }

    /// RMSNorm weights per decoder layer.
    pub fn norms_per_layer(self) -> u64 {
        match self {
            Family::Gemma2 | Family::Gemma3 | Family::Gemma3n | Family::Gemma4 => 4,
            Family::NemotronH => 1,
            _ => 2,
        }
    }

    /// Whether the MLP intermediate stays alive through `down_proj` in vLLM's forward
    /// (`qwen2.py::Qwen2MLP.forward` keeps `gate_up`; `llama.py::LlamaMLP.forward` drops it).
    pub fn keeps_gate_up(self) -> bool {
        matches!(
            self,
            Family::Qwen2 | Family::Qwen3 | Family::Qwen3Moe | Family::Qwen3Next
        )
    }
}

/// Sliding-window attention: some layers attend only to the last `window` tokens and keep only
/// those in their KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlidingWindow {
    /// Tokens a local layer attends to.
    pub window: u32,
    /// Every `global_every`-th layer is global (Gemma 2, gpt-oss: 2; Gemma 3: 6); 0 = all layers
    /// local (Mistral 7B v0.1).
    pub global_every: u32,
}

/// Mixture of experts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moe {
    /// Routed experts per MoE layer (all resident in memory).
    pub experts: u32,
    /// Experts each token is routed to.
    pub active: u32,
    /// MLP width of one routed expert.
    pub expert_intermediate: u32,
    /// MLP width of the shared expert(s) together (0 = none).
    pub shared_intermediate: u32,
    /// Leading dense layers (DeepSeek `first_k_dense_replace`).
    pub first_dense_layers: u32,
    /// After those, every `moe_every`-th layer is MoE (1 = all).
    pub moe_every: u32,
    /// Whether the router has a bias (DeepSeek V3 `e_score_correction_bias`, gpt-oss).
    pub router_bias: bool,
    /// Whether experts have biases (gpt-oss).
    pub expert_bias: bool,
}

/// Multi-head latent attention (DeepSeek V2/V3): the cache holds one compressed latent per token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mla {
    /// Rank of the query compression (0 = a direct `q_proj`).
    pub q_lora_rank: u32,
    /// Rank of the key/value latent (what the cache stores).
    pub kv_lora_rank: u32,
    /// Per-head query/key width without rotary.
    pub qk_nope_head_dim: u32,
    /// Per-head rotary width (also cached once per token).
    pub qk_rope_head_dim: u32,
    /// Per-head value width.
    pub v_head_dim: u32,
}

/// A vision tower (VLMs): its parameters and what it adds to each sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vision {
    /// Parameters of the encoder and projector (and cross-attention layers for Llama 3.2 Vision).
    pub params: u64,
    /// Tokens one image becomes in the language model (its KV cost).
    pub tokens_per_image: u32,
    /// Decoder layers that cross-attend to the image instead of caching text (Llama 3.2 Vision).
    pub cross_attention_layers: u32,
    /// Of `params`, those every GPU of a tensor-parallel group keeps whole: patch and position
    /// tables held as plain parameters, LayerNorms, the biases of row-parallel projections and
    /// replicated projectors. The rest is split by the parallel linear layers vLLM builds the
    /// towers from (`clip.py`, `siglip.py`, `qwen2_5_vl.py`, `mllama.py`, `mllama4.py`); see
    /// each catalog entry. 0: the whole tower is split.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub replicated: u64,
    /// `vision_config.num_hidden_layers` as the config states it (0: the key is absent, e.g.
    /// Qwen2.5-VL, which names it `depth`). SGLang sizes its VLM memory reduction from it.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub config_layers: u32,
    /// `vision_config.hidden_size` as the config states it (0: absent).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub config_hidden: u32,
}

/// Per-layer embeddings (PLE) and, for Gemma 3n, the AltUp and LAuReL blocks
/// (`modeling_gemma3n.py`: `Gemma3nTextModel`, `Gemma3nTextDecoderLayer`, `Gemma3nTextAltUp`,
/// `Gemma3nTextLaurelBlock`). Tensors, with `h` = `hidden_size`, `p` = `hidden`, `L` = layers,
/// `n` = `altup_inputs`, `r` = `laurel_rank`:
/// - outside the layers: the PLE table `embed_tokens_per_layer` `vocab × L·p`,
///   `per_layer_model_projection` `L·p × h`, `per_layer_projection_norm` `p`; with AltUp,
///   `altup_projections` and `altup_unembed_projections`, `n − 1` matrices `h × h` each;
/// - in every layer: `per_layer_input_gate` `p × h`, `per_layer_projection` `h × p`,
///   `post_per_layer_input_norm` `h`; with AltUp `correct_output_scale` `h`, `correction_coefs`
///   `n × n`, `prediction_coefs` `n² × n`, `modality_router` `n × h`, `router_norm` `h`; with
///   LAuReL `linear_left` `r × h`, `linear_right` `h × r`, `post_laurel_norm` `h`.
///
/// Where engines keep the PLE table: vLLM (`gemma3n.py`: `embed_tokens_per_layer =
/// VocabParallelEmbedding(...)`, split by vocabulary rows under tensor parallelism) and
/// Transformers (a parameter of the module, moved with it) on the GPU; SGLang's Gemma 3n model was
/// not checked and is budgeted as vLLM; llama.cpp keeps
/// `per_layer_token_embd` in host memory like `token_embd` (`LLM_TENSOR_LAYER_INPUT`,
/// `llama-arch.cpp`; read lazily, `TENSOR_READ_LAZY` in `llama-model.cpp`), so it costs no VRAM
/// there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerLayerInputs {
    /// Width of one layer's embedding (`hidden_size_per_layer_input`).
    pub hidden: u32,
    /// Rows of the PLE table (`vocab_size_per_layer_input`).
    pub vocab: u32,
    /// AltUp streams (`altup_num_inputs`; 0 = no AltUp).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub altup_inputs: u32,
    /// LAuReL rank (`laurel_rank`; 0 = no LAuReL).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub laurel_rank: u32,
}

/// The full-attention (global) layers' own attention shape, where it differs from the sliding
/// layers' (Gemma 4: `global_head_dim`, `num_global_key_value_heads`, `attention_k_eq_v`). With it,
/// a global layer projects `heads × head_dim` queries, `kv_heads × head_dim` keys and, unless
/// `k_eq_v`, as many values (with `k_eq_v` the keys are used as values: no `v_proj`), and its
/// per-head q/k norms are `head_dim` wide. Its cache holds keys and values of
/// `kv_heads × head_dim` each per token — also with `k_eq_v`: Transformers passes the keys as
/// values to `Cache.update`, which stores both, and llama.cpp gives every non-MLA layer a V cache
/// (`llama-kv-cache.cpp`: `has_v = !is_mla`, `n_embd_v_gqa(il)` wide, or without flash attention
/// padded to the widest layer's); vLLM's and SGLang's Gemma 4 cache layouts were not checked and
/// are budgeted the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlobalAttention {
    /// Width of one head in a global layer (`global_head_dim`).
    pub head_dim: u32,
    /// KV heads of a global layer (`num_global_key_value_heads`).
    pub kv_heads: u32,
    /// Whether the global layers use their keys as values (`attention_k_eq_v`).
    pub k_eq_v: bool,
}

/// The Qwen3-VL vision tower (`Qwen3VLVisionModel`; Qwen3.5's is the same without DeepStack)
/// of `depth` blocks of width `w` (MLP `mlp`), the patch merger projecting to `out`, and
/// `deepstack` DeepStack mergers (`len(deepstack_visual_indexes)`), counted from the shapes of
/// `transformers`' `modeling_qwen3_vl.py`: patch Conv3d `w × 3·2·16·16` with bias (`1537·w`),
/// position table `2304·w` (`num_position_embeddings`), per block two LayerNorms, `qkv` and
/// `proj` with biases and the `fc1` / `fc2` MLP (`4·w² + 2·w·mlp + 9·w + mlp`); the merger a
/// LayerNorm over `w`, `linear_fc1` `4w → 4w` and `linear_fc2` `4w → out` with biases
/// (`2·w + 16·w² + 4·w + 4·w·out + out`); each DeepStack merger the same with its LayerNorm over
/// `4w` (`use_postshuffle_norm`: `8·w + 16·w² + 4·w + 4·w·out + out`). Under tensor parallelism
/// vLLM (`qwen3_vl.py`) splits `qkv`, `proj`, `fc1`, `fc2` and every merger's MLP; each GPU keeps
/// whole the patch embedding, the position table, per block the LayerNorms and the `proj` /
/// `fc2` biases (`6·w`), and every merger's LayerNorm and last bias. One 1024 × 1024 px image is
/// 1024 tokens (16 px patches, 2 × 2 merged).
pub(crate) const fn qwen3_vl_tower(
    depth: u64,
    w: u64,
    mlp: u64,
    out: u64,
    deepstack: u64,
) -> Vision {
    let block = 4 * w * w + 2 * w * mlp + 9 * w + mlp;
    let merger = 2 * w + 16 * w * w + 4 * w + 4 * w * out + out;
    let deepstack_merger = merger + 6 * w;
    Vision {
        params: 1537 * w + 2304 * w + depth * block + merger + deepstack * deepstack_merger,
        tokens_per_image: 1024,
        cross_attention_layers: 0,
        replicated: 1537 * w + 2304 * w + depth * 6 * w + 2 * w + out + deepstack * (8 * w + out),
        config_layers: depth as u32,
        config_hidden: w as u32,
    }
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

fn is_zero_u32(x: &u32) -> bool {
    *x == 0
}

/// Architecture numbers. All counts are per model (not per GPU).
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
    /// Dense MLP width (`intermediate_size`; Llama 4: `intermediate_size_mlp`).
    pub intermediate: u32,
    /// Vocabulary rows of the embedding (`vocab_size`).
    pub vocab: u32,
    /// Whether the output head reuses the embedding matrix (`tie_word_embeddings`).
    pub tied_embeddings: bool,
    /// Longest context the model was trained for (`max_position_embeddings`).
    pub max_position: u32,
    /// Sliding-window layers, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sliding_window: Option<SlidingWindow>,
    /// Mixture of experts, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moe: Option<Moe>,
    /// Latent attention, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mla: Option<Mla>,
    /// Vision tower, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vision: Option<Vision>,
    /// Recurrent state layers beside or instead of attention (hybrid models), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hybrid: Option<Hybrid>,
    /// Per-head q/k RMSNorm weights (`head_dim` each) where the config switches them on
    /// (GLM-4.5 `use_qk_norm`); the families that always have them say so through
    /// `Family::qk_norm` and leave this `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub qk_norm: bool,
    /// Multi-token-prediction layers the checkpoint ships after its decoder layers
    /// (`num_nextn_predict_layers` for GLM-4.5 and DeepSeek V3, `mtp_num_hidden_layers` for
    /// Qwen3-Next and Qwen3.5); 0 where the checkpoint has none or the config does not say.
    ///
    /// They are part of the checkpoint ([`ModelArch::checkpoint_param_count`]) but not of the
    /// served model ([`ModelArch::param_count`], which every weight budget reads): vLLM builds
    /// `num_hidden_layers` layers and its `load_weights` skips the MTP tensors (`glm4_moe.py`,
    /// `qwen3_next.py`, `deepseek_v2.py`: `get_spec_layer_idx_from_weight_name`); only the
    /// drafter of speculative decoding (`glm4_moe_mtp.py`, `qwen3_next_mtp.py`,
    /// `deepseek_mtp.py`, `--speculative-config '{"method": "mtp"}'`) loads them. SGLang
    /// likewise loads them only for its NEXTN / EAGLE draft worker, llama.cpp's converters drop
    /// them (or keep them as unused `nextn` blocks), and Transformers' modelling classes have no
    /// such module. Speculative decoding is not modelled, so these weights never enter a budget.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub mtp_layers: u32,
    /// The last `num_kv_shared_layers` decoder layers compute no keys and values of their own:
    /// each reads those of the last earlier layer of its kind (sliding or full), so they hold no
    /// cache. Transformers builds cache layers only for `layer_types[:-num_kv_shared_layers]`
    /// (`cache_utils.py`: "Some models have shared layers thus no cache is needed for them (e.g.
    /// Gemma3n)"); llama.cpp gives them no KV cells (`llama_hparams::has_kv`,
    /// `n_layer_kv_from_start`, and the `reuse` callback of `llama-model.cpp` pointing them at
    /// layer `n_layer_kv_from_start − 2` (sliding) or `− 1` (full)); vLLM builds their
    /// `Attention` with `kv_sharing_target_layer_name` and allocates them no KV pages (Gemma 3n,
    /// `gemma3n.py`). SGLang's handling was not checked; its pool is sized the same way. Their k/v
    /// projection weights are still in the checkpoint and the module (counted in
    /// [`ModelArch::param_count`]). 0: every layer caches.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub kv_shared_layers: u32,
    /// Per-layer embeddings with AltUp / LAuReL (Gemma 3n), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_layer_inputs: Option<PerLayerInputs>,
    /// The full-attention layers' own shape (Gemma 4), if it differs from the others'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_attention: Option<GlobalAttention>,
}

fn is_false(x: &bool) -> bool {
    !*x
}

impl ModelArch {
    /// A dense model with the given numbers and no MoE, MLA, sliding window or vision tower.
    #[allow(clippy::too_many_arguments)]
    pub const fn dense(
        family: Family,
        layers: u32,
        hidden: u32,
        heads: u32,
        kv_heads: u32,
        head_dim: u32,
        intermediate: u32,
        vocab: u32,
        tied_embeddings: bool,
        max_position: u32,
    ) -> ModelArch {
        ModelArch {
            family,
            layers,
            hidden,
            heads,
            kv_heads,
            head_dim,
            intermediate,
            vocab,
            tied_embeddings,
            max_position,
            sliding_window: None,
            moe: None,
            mla: None,
            vision: None,
            hybrid: None,
            qk_norm: false,
            mtp_layers: 0,
            kv_shared_layers: 0,
            per_layer_inputs: None,
            global_attention: None,
        }
    }

    /// The attention shape of decoder layer `i`: (head width, KV heads, whether it has a `v_proj`);
    /// a full-attention layer's own ([`ModelArch::global_attention`]) where the model has one.
    pub fn attention_shape(&self, i: u32) -> (u32, u32, bool) {
        match self.global_attention {
            Some(g) if !self.is_local_layer(i) => (g.head_dim, g.kv_heads, !g.k_eq_v),
            _ => (self.head_dim, self.kv_heads, true),
        }
    }

    /// Whether decoder layer `i` is a full-attention layer with its own shape
    /// ([`ModelArch::global_attention`]).
    pub fn is_shaped_global_layer(&self, i: u32) -> bool {
        self.global_attention.is_some() && !self.is_local_layer(i)
    }

    /// Whether decoder layer `i` has self-attention (every layer but a hybrid's recurrent-only
    /// and MLP-only layers).
    pub fn has_attention(&self, i: u32) -> bool {
        self.hybrid.is_none_or(|h| h.attention_layers.contains(i))
    }

    /// Whether decoder layer `i` runs a recurrent state mixer.
    pub fn has_recurrent(&self, i: u32) -> bool {
        self.hybrid.is_some_and(|h| h.recurrent_layers.contains(i))
    }

    /// Whether decoder layer `i` has an MLP or MoE block.
    pub fn has_mlp(&self, i: u32) -> bool {
        self.hybrid.is_none_or(|h| h.mlp_layers.contains(i))
    }

    /// What decides decoder layer `i`'s tensors besides its index: MoE, attention, recurrent,
    /// MLP and a global layer's own shape, one bit each. Layers with the same key hold tensors of the same shapes.
    pub fn layer_key(&self, i: u32) -> u8 {
        u8::from(self.is_moe_layer(i))
            | u8::from(self.has_attention(i)) << 1
            | u8::from(self.has_recurrent(i)) << 2
            | u8::from(self.has_mlp(i)) << 3
            | u8::from(self.is_shaped_global_layer(i)) << 4
    }

    /// The recurrent mixer, when the model has one.
    pub fn recurrent(&self) -> Option<Recurrent> {
        self.hybrid.map(|h| h.mixer)
    }

    /// How many of the decoder layers `lo..hi` keep a self-attention KV cache (counted): the
    /// first [`ModelArch::self_attention_layers`] layers, or a hybrid's attention layers.
    pub fn attention_layers_in(&self, lo: u32, hi: u32) -> u64 {
        match self.hybrid {
            Some(h) => h.attention_layers.count_in(lo, hi.min(self.layers)),
            None => {
                let hi = hi.min(self.self_attention_layers());
                u64::from(hi.saturating_sub(lo))
            }
        }
    }

    /// How many of the decoder layers `lo..hi` run a recurrent mixer (counted).
    pub fn recurrent_layers_in(&self, lo: u32, hi: u32) -> u64 {
        self.hybrid
            .map_or(0, |h| h.recurrent_layers.count_in(lo, hi.min(self.layers)))
    }

    /// Whether decoder layer `i` is a MoE layer (a hybrid's layers without an MLP block never
    /// are: Nemotron 3's Mamba-2 and attention layers).
    pub fn is_moe_layer(&self, i: u32) -> bool {
        match self.moe {
            Some(m) if i >= m.first_dense_layers && self.has_mlp(i) => {
                (i - m.first_dense_layers + 1).is_multiple_of(m.moe_every.max(1))
            }
            _ => false,
        }
    }

    /// How many of the decoder layers `lo..hi` are MoE layers (counted, not enumerated).
    pub fn moe_layers_in(&self, lo: u32, hi: u32) -> u64 {
        if self.hybrid.is_some() {
            // At most 1024 layers: enumerated, as the layout is a per-layer set.
            let hi = hi.min(self.layers);
            return (lo..hi).filter(|&i| self.is_moe_layer(i)).count() as u64;
        }
        match self.moe {
            Some(m) => {
                let (f, e) = (
                    u64::from(m.first_dense_layers),
                    u64::from(m.moe_every.max(1)),
                );
                let lo = u64::from(lo).max(f);
                let hi = u64::from(hi);
                // Layer i is MoE when j = i − f + 1 is a multiple of e: count those j in lo' − f + 1
                // ..hi − f + 1.
                if hi <= lo {
                    0
                } else {
                    multiples(lo - f + 1, hi - f + 1, e)
                }
            }
            None => 0,
        }
    }

    /// The first MoE layer at or after `lo` (below `layers`), if any.
    pub fn first_moe_layer_from(&self, lo: u32) -> Option<u32> {
        let m = self.moe?;
        if self.hybrid.is_some() {
            return (lo..self.layers).find(|&i| self.is_moe_layer(i));
        }
        let (f, e) = (
            u64::from(m.first_dense_layers),
            u64::from(m.moe_every.max(1)),
        );
        let j = (u64::from(lo).max(f) - f + 1).div_ceil(e) * e;
        u32::try_from(j + f - 1).ok().filter(|&i| i < self.layers)
    }

    /// The first dense (not MoE) layer at or after `lo` (below `layers`), if any.
    pub fn first_dense_layer_from(&self, lo: u32) -> Option<u32> {
        if self.hybrid.is_some() {
            return (lo..self.layers).find(|&i| !self.is_moe_layer(i));
        }
        let i = match self.moe {
            Some(m) if lo >= m.first_dense_layers && m.moe_every <= 1 => return None,
            // With MoE every e ≥ 2 layers, a MoE layer is followed by a dense one.
            Some(_) if self.is_moe_layer(lo) => lo.checked_add(1)?,
            _ => lo,
        };
        (i < self.layers).then_some(i)
    }

    /// How many of the self-attention layers `lo..hi` are sliding-window (local) layers (counted).
    pub fn local_layers_in(&self, lo: u32, hi: u32) -> u64 {
        let (lo, hi) = (u64::from(lo), u64::from(hi));
        let n = hi.saturating_sub(lo);
        match self.sliding_window {
            None => 0,
            Some(sw) if sw.global_every == 0 => n,
            // Layer i is global when i + 1 is a multiple of `global_every`.
            Some(sw) if hi > lo => n - multiples(lo + 1, hi + 1, u64::from(sw.global_every)),
            Some(_) => 0,
        }
    }

    /// Whether decoder layer `i` is a sliding-window (local) layer.
    pub fn is_local_layer(&self, i: u32) -> bool {
        match self.sliding_window {
            Some(sw) if sw.global_every == 0 => true,
            Some(sw) => !(i + 1).is_multiple_of(sw.global_every),
            None => false,
        }
    }

    /// Layers that cache text tokens (all but Llama 3.2 Vision's cross-attention layers and the
    /// KV-sharing layers at the end ([`ModelArch::kv_shared_layers`]); a hybrid model's attention
    /// layers). The caching layers are the first ones.
    pub fn self_attention_layers(&self) -> u32 {
        if let Some(h) = self.hybrid {
            // At most `layers` ≤ 1024 layers: the count fits.
            return u32::try_from(h.attention_layers.count_in(0, self.layers)).unwrap_or(u32::MAX);
        }
        self.layers
            .saturating_sub(
                self.vision
                    .map_or(0, |v| v.cross_attention_layers.min(self.layers)),
            )
            .saturating_sub(self.kv_shared_layers)
    }

    /// Cache elements one token adds to one layer on one GPU of a `tp`-way group:
    /// `2 · ⌈kv_heads / tp⌉ · head_dim`, or for MLA the latent plus the rotary key
    /// (`kv_lora_rank + qk_rope_head_dim`, not split by tensor parallelism).
    pub fn kv_elements_per_token_layer(&self, tp: u64) -> u64 {
        match self.mla {
            Some(m) => u64::from(m.kv_lora_rank) + u64::from(m.qk_rope_head_dim),
            None => crate::units::bytes::prod(&[
                2,
                u64::from(self.kv_heads).div_ceil(tp.max(1)),
                u64::from(self.head_dim),
            ]),
        }
    }

    /// Cache elements one token adds to one full-attention layer on one GPU of a `tp`-way group:
    /// `2 · ⌈kv_heads / tp⌉ · head_dim` of the global shape ([`ModelArch::global_attention`]),
    /// else [`ModelArch::kv_elements_per_token_layer`].
    pub fn kv_elements_per_token_global_layer(&self, tp: u64) -> u64 {
        match self.global_attention.filter(|_| self.mla.is_none()) {
            Some(g) => crate::units::bytes::prod(&[
                2,
                u64::from(g.kv_heads).div_ceil(tp.max(1)),
                u64::from(g.head_dim),
            ]),
            None => self.kv_elements_per_token_layer(tp),
        }
    }

    /// Key and value elements one more token adds once the context is past the sliding window:
    /// the global layers' only (`None` without local layers; 0 when every layer is local).
    pub fn kv_elements_per_token_past_window(&self) -> Option<u64> {
        let n = self.self_attention_layers();
        let local = self.local_layers_in(0, n);
        (local > 0).then(|| {
            crate::units::bytes::mul(
                u64::from(n) - local,
                self.kv_elements_per_token_global_layer(1),
            )
        })
    }

    /// Key and value elements stored per token across all caching layers (full context).
    pub fn kv_elements_per_token(&self) -> u64 {
        let n = self.self_attention_layers();
        let local = self.local_layers_in(0, n);
        crate::units::bytes::mul(
            u64::from(n) - local,
            self.kv_elements_per_token_global_layer(1),
        )
        .saturating_add(crate::units::bytes::mul(
            local,
            self.kv_elements_per_token_layer(1),
        ))
    }

    /// Whether `n` GPUs can split this model by tensor parallelism the way vLLM requires
    /// (`ModelConfig.verify_with_parallel_config`: query heads divisible by `n`; KV heads divisible by
    /// `n`, or `n` divisible by the KV heads, which are then replicated).
    /// A recurrent mixer needs its heads divisible by `n` (`divide(num_heads, tp)` in
    /// `mamba_utils.py`), DeltaNet its key heads too, and Mamba-2 its groups divisible or a single
    /// group (`MambaMixer2`).
    pub fn tensor_parallel_ok(&self, n: u32) -> bool {
        n >= 1
            && self.heads.is_multiple_of(n)
            && self
                .global_attention
                .is_none_or(|g| g.kv_heads.is_multiple_of(n) || n.is_multiple_of(g.kv_heads))
            && (self.mla.is_some()
                || self.kv_heads.is_multiple_of(n)
                || n.is_multiple_of(self.kv_heads))
            && self.recurrent().is_none_or(|r| {
                r.heads.is_multiple_of(n)
                    && match r.kind {
                        RecurrentKind::GatedDeltaNet => r.groups.is_multiple_of(n),
                        RecurrentKind::Mamba2 => r.groups.is_multiple_of(n) || r.groups == 1,
                    }
            })
    }
}

/// Multiples of `e` (≥ 1) in `a..b`, for `a ≥ 1`.
fn multiples(a: u64, b: u64, e: u64) -> u64 {
    let e = e.max(1);
    if b <= a {
        0
    } else {
        (b - 1) / e - (a - 1) / e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Llama 3.1 8B: 8,030,261,248 parameters (the figure vLLM's notes check the weights against).
    #[test]
    fn llama_3_1_8b_count_is_exact() {
        let arch = ModelArch::dense(
            Family::Llama,
            32,
            4096,
            32,
            8,
            128,
            14336,
            128256,
            false,
            131072,
        );
        assert_eq!(arch.param_count(), 8_030_261_248);
        assert_eq!(arch.kv_elements_per_token(), 2 * 32 * 8 * 128);
        assert!(arch.tensor_parallel_ok(8));
        assert!(!arch.tensor_parallel_ok(3));
    }

    #[test]
    fn bert_large_count_is_exact() {
        // BertForSequenceClassification (2 labels): 335,143,938 parameters (HF docs, model training anatomy).
        let a = ModelArch::dense(Family::Bert, 24, 1024, 16, 16, 64, 4096, 30522, true, 512);
        assert_eq!(a.param_count(), 335_143_938);
    }

    #[test]
    fn moe_layers_and_local_layers() {
        let mut a = ModelArch::dense(
            Family::Llama4,
            48,
            5120,
            40,
            8,
            128,
            16384,
            202048,
            false,
            1 << 20,
        );
        a.moe = Some(Moe {
            experts: 128,
            active: 1,
            expert_intermediate: 8192,
            shared_intermediate: 8192,
            first_dense_layers: 0,
            moe_every: 2,
            router_bias: false,
            expert_bias: false,
        });
        assert!(!a.is_moe_layer(0) && a.is_moe_layer(1) && !a.is_moe_layer(2));
        a.sliding_window = Some(SlidingWindow {
            window: 4096,
            global_every: 2,
        });
        assert!(a.is_local_layer(0) && !a.is_local_layer(1));
    }

    /// The counted forms agree with enumerating the layers, for every MoE and window pattern.
    #[test]
    fn counted_layer_runs_match_enumeration() {
        let mut a = ModelArch::dense(Family::Llama4, 23, 64, 4, 2, 16, 128, 100, false, 4096);
        for first in 0..5 {
            for every in 0..4 {
                for global_every in 0..5 {
                    a.moe = Some(Moe {
                        experts: 4,
                        active: 1,
                        expert_intermediate: 32,
                        shared_intermediate: 0,
                        first_dense_layers: first,
                        moe_every: every,
                        router_bias: false,
                        expert_bias: false,
                    });
                    a.sliding_window = Some(SlidingWindow {
                        window: 8,
                        global_every,
                    });
                    for lo in 0..=a.layers {
                        for hi in lo..=a.layers {
                            let moe = (lo..hi).filter(|&i| a.is_moe_layer(i)).count() as u64;
                            assert_eq!(a.moe_layers_in(lo, hi), moe, "{first} {every} {lo} {hi}");
                            let local = (lo..hi).filter(|&i| a.is_local_layer(i)).count() as u64;
                            assert_eq!(a.local_layers_in(lo, hi), local);
                        }
                        let first_moe = (lo..a.layers).find(|&i| a.is_moe_layer(i));
                        assert_eq!(
                            a.first_moe_layer_from(lo),
                            first_moe,
                            "{first} {every} {lo}"
                        );
                        let first_dense = (lo..a.layers).find(|&i| !a.is_moe_layer(i));
                        assert_eq!(a.first_dense_layer_from(lo), first_dense);
                    }
                }
            }
        }
        a.moe = None;
        a.sliding_window = None;
        assert_eq!(a.moe_layers_in(0, 23), 0);
        assert_eq!(a.first_moe_layer_from(0), None);
        assert_eq!(a.first_dense_layer_from(3), Some(3));
        assert_eq!(a.local_layers_in(0, 23), 0);
    }
}
