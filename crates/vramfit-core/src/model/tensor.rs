//! Weight tensors: what each is, how tensor parallelism splits it, and the per-layer list of an
//! architecture ([`ModelArch::tensors`]) whose sum is the exact parameter count. The shapes follow
//! the Hugging Face modelling files listed in the parent module's documentation.

use super::{Family, ModelArch};

/// What a weight tensor is (names follow GGUF's, which quantisers key their rules on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensorKind {
    /// Token embedding.
    TokenEmbd,
    /// Output head (untied).
    Output,
    /// Query projection.
    AttnQ,
    /// Key projection.
    AttnK,
    /// Value projection.
    AttnV,
    /// Attention output projection.
    AttnOutput,
    /// MLA query down-projection.
    AttnQA,
    /// MLA query up-projection.
    AttnQB,
    /// MLA key/value down-projection (latent + rope key).
    AttnKvA,
    /// MLA key/value up-projection.
    AttnKvB,
    /// Dense MLP gate.
    FfnGate,
    /// Dense MLP up.
    FfnUp,
    /// Dense MLP down.
    FfnDown,
    /// Routed experts' gates.
    FfnGateExps,
    /// Routed experts' ups.
    FfnUpExps,
    /// Routed experts' downs.
    FfnDownExps,
    /// Shared expert gate.
    FfnGateShexp,
    /// Shared expert up.
    FfnUpShexp,
    /// Shared expert down.
    FfnDownShexp,
    /// MoE router.
    Router,
    /// A norm weight.
    Norm,
    /// A bias vector (or gpt-oss sinks).
    Bias,
    /// The vision tower, as one block.
    Vision,
}

impl TensorKind {
    /// Whether weight quantisers (GPTQ, AWQ, bitsandbytes, FP8, GGUF k-quants) compress this tensor:
    /// the linear projections of the layers. Embeddings, the head, routers, norms, biases and the
    /// vision tower keep their 16-bit storage in GPTQ/AWQ/bnb/FP8 checkpoints.
    pub fn is_layer_linear(self) -> bool {
        !matches!(
            self,
            TensorKind::TokenEmbd
                | TensorKind::Output
                | TensorKind::Router
                | TensorKind::Norm
                | TensorKind::Bias
                | TensorKind::Vision
        )
    }

    /// Whether this is a routed-expert tensor.
    pub fn is_expert(self) -> bool {
        matches!(
            self,
            TensorKind::FfnGateExps | TensorKind::FfnUpExps | TensorKind::FfnDownExps
        )
    }
}

/// How tensor parallelism splits a tensor (Megatron-style, as vLLM's parallel linear layers do).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Rows or columns divided among the GPUs.
    ByGpu,
    /// Divided by KV head; replicated when there are fewer KV heads than GPUs.
    ByKvHead,
    /// A full copy on every GPU (norms, routers, MLA down-projections).
    Replicated,
    /// Rows of three kinds stored as one tensor (the biases of an attention or MLP block, a
    /// vision tower): `kv_rows` split by KV head (K and V biases), `replicated_rows` kept whole
    /// on every GPU (the bias of a `RowParallelLinear` is not split, `linear.py`; norms and
    /// position tables of a vision tower), the rest divided among the GPUs.
    Mixed {
        /// Rows split by KV head.
        kv_rows: u64,
        /// Rows every GPU keeps whole.
        replicated_rows: u64,
    },
}

/// One weight tensor (`rows × cols`, `cols` = input features), repeated `count` times (experts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tensor {
    /// What the tensor is.
    pub kind: TensorKind,
    /// How tensor parallelism splits it.
    pub split: Split,
    /// Output features.
    pub rows: u64,
    /// Input features (row length).
    pub cols: u64,
    /// Identical instances (routed experts), else 1.
    pub count: u64,
    /// Decoder layer, for per-layer tensors.
    pub layer: Option<u32>,
}

impl Tensor {
    /// Elements of all instances.
    pub fn numel(&self) -> u64 {
        self.rows * self.cols * self.count
    }

    /// The module path in Hugging Face naming without the `model.` prefix
    /// (`layers.3.self_attn.q_proj`, `layers.3.mlp.experts`, `embed_tokens`, `lm_head`), as
    /// quantisation configs list modules to skip.
    pub fn module_path(&self) -> String {
        let leaf = match self.kind {
            TensorKind::TokenEmbd => return "embed_tokens".into(),
            TensorKind::Output => return "lm_head".into(),
            TensorKind::Vision => return "vision_tower".into(),
            TensorKind::AttnQ => "self_attn.q_proj",
            TensorKind::AttnK => "self_attn.k_proj",
            TensorKind::AttnV => "self_attn.v_proj",
            TensorKind::AttnOutput => "self_attn.o_proj",
            TensorKind::AttnQA => "self_attn.q_a_proj",
            TensorKind::AttnQB => "self_attn.q_b_proj",
            TensorKind::AttnKvA => "self_attn.kv_a_proj_with_mqa",
            TensorKind::AttnKvB => "self_attn.kv_b_proj",
            TensorKind::FfnGate => "mlp.gate_proj",
            TensorKind::FfnUp => "mlp.up_proj",
            TensorKind::FfnDown => "mlp.down_proj",
            TensorKind::FfnGateExps | TensorKind::FfnUpExps | TensorKind::FfnDownExps => {
                "mlp.experts"
            }
            TensorKind::FfnGateShexp | TensorKind::FfnUpShexp | TensorKind::FfnDownShexp => {
                "mlp.shared_experts"
            }
            TensorKind::Router => "mlp.gate",
            TensorKind::Norm => "norm",
            TensorKind::Bias => "bias",
        };
        match self.layer {
            Some(i) => format!("layers.{i}.{leaf}"),
            None => leaf.into(),
        }
    }
}

/// Whether `path` falls under one of `patterns` (module paths as quantisation configs list them,
/// with or without the `model.` / `model.language_model.` prefix), matched on whole components.
pub fn under_any(path: &str, patterns: &[String]) -> bool {
    patterns.iter().any(|p| {
        let p = p
            .trim()
            .trim_start_matches("model.language_model.")
            .trim_start_matches("model.");
        !p.is_empty() && (path == p || path.starts_with(&format!("{p}.")))
    })
}

impl ModelArch {
    /// Every weight tensor, in load order.
    pub fn tensors(&self) -> Vec<Tensor> {
        let h = u64::from(self.hidden);
        let v = u64::from(self.vocab);
        let t = |kind, split, rows, cols, layer| Tensor {
            kind,
            split,
            rows,
            cols,
            count: 1,
            layer,
        };
        let mut out = vec![t(TensorKind::TokenEmbd, Split::ByGpu, v, h, None)];
        if self.family.is_encoder() {
            // Positions, two token types, and the embedding LayerNorm (weight + bias).
            out.push(t(
                TensorKind::Bias,
                Split::Replicated,
                u64::from(self.max_position) + 2,
                h,
                None,
            ));
            out.push(t(TensorKind::Norm, Split::Replicated, 2 * h, 1, None));
        }
        for i in 0..self.layers {
            self.push_layer(&mut out, i);
        }
        if self.family.is_encoder() {
            // Pooler (dense + bias) and a 2-label classification head.
            out.push(t(TensorKind::Output, Split::Replicated, h + 1, h, None));
            out.push(t(TensorKind::Output, Split::Replicated, 2, h + 1, None));
        } else {
            out.push(t(TensorKind::Norm, Split::Replicated, h, 1, None));
        }
        if !self.tied_embeddings {
            out.push(t(TensorKind::Output, Split::ByGpu, v, h, None));
        }
        if let Some(vis) = self.vision {
            out.push(t(
                TensorKind::Vision,
                Split::Mixed {
                    kv_rows: 0,
                    replicated_rows: vis.replicated.min(vis.params),
                },
                vis.params,
                1,
                None,
            ));
        }
        out
    }

    fn push_layer(&self, out: &mut Vec<Tensor>, i: u32) {
        let h = u64::from(self.hidden);
        let hd = u64::from(self.head_dim);
        let q = u64::from(self.heads) * hd;
        let kv = u64::from(self.kv_heads) * hd;
        let fam = self.family;
        let layer = Some(i);
        let mut add = |kind, split, rows: u64, cols: u64, count: u64| {
            if rows * cols * count > 0 {
                out.push(Tensor {
                    kind,
                    split,
                    rows,
                    cols,
                    count,
                    layer,
                });
            }
        };
        use Split::{ByGpu, ByKvHead, Mixed, Replicated};
        use TensorKind as K;
        match self.mla {
            Some(m) => {
                let heads = u64::from(self.heads);
                let qk = u64::from(m.qk_nope_head_dim) + u64::from(m.qk_rope_head_dim);
                if m.q_lora_rank > 0 {
                    let r = u64::from(m.q_lora_rank);
                    add(K::AttnQA, Replicated, r, h, 1);
                    add(K::Norm, Replicated, r, 1, 1);
                    add(K::AttnQB, ByGpu, heads * qk, r, 1);
                } else {
                    add(K::AttnQ, ByGpu, heads * qk, h, 1);
                }
                let lat = u64::from(m.kv_lora_rank);
                add(
                    K::AttnKvA,
                    Replicated,
                    lat + u64::from(m.qk_rope_head_dim),
                    h,
                    1,
                );
                add(K::Norm, Replicated, lat, 1, 1);
                let nope_v = u64::from(m.qk_nope_head_dim) + u64::from(m.v_head_dim);
                add(K::AttnKvB, ByGpu, heads * nope_v, lat, 1);
                add(K::AttnOutput, ByGpu, h, heads * u64::from(m.v_head_dim), 1);
            }
            None => {
                add(K::AttnQ, ByGpu, q, h, 1);
                add(K::AttnK, ByKvHead, kv, h, 1);
                add(K::AttnV, ByKvHead, kv, h, 1);
                add(K::AttnOutput, ByGpu, h, q, 1);
                // q/k/v biases follow their projections (`QKVParallelLinear`); the o bias belongs
                // to a `RowParallelLinear` and stays whole on every GPU.
                let kv_bias = Mixed {
                    kv_rows: 2 * kv,
                    replicated_rows: 0,
                };
                if fam.qkv_bias() {
                    add(K::Bias, kv_bias, q + 2 * kv, 1, 1);
                }
                if fam.full_attention_bias() {
                    // gpt-oss adds one learned sink logit per head, split with the heads
                    // (`gpt_oss.py::OAIAttention.sinks`: `num_attention_heads // tp_size`).
                    let sinks = if fam == Family::GptOss {
                        u64::from(self.heads)
                    } else {
                        0
                    };
                    let split = Mixed {
                        kv_rows: 2 * kv,
                        replicated_rows: h,
                    };
                    add(K::Bias, split, q + 2 * kv + h + sinks, 1, 1);
                }
                if fam.qk_norm() {
                    add(K::Norm, Replicated, 2 * hd, 1, 1);
                }
            }
        }
        match self.moe.filter(|_| self.is_moe_layer(i)) {
            Some(m) => {
                let e = u64::from(m.experts);
                let ie = u64::from(m.expert_intermediate);
                add(K::Router, Replicated, e, h, 1);
                if m.router_bias {
                    add(K::Bias, Replicated, e, 1, 1);
                }
                add(K::FfnGateExps, ByGpu, ie, h, e);
                add(K::FfnUpExps, ByGpu, ie, h, e);
                add(K::FfnDownExps, ByGpu, h, ie, e);
                if m.expert_bias {
                    // `w13_bias` is split with the intermediate; `w2_bias` has the hidden width
                    // on every GPU (`mxfp4.py::Mxfp4MoEMethod.create_weights`).
                    let split = Mixed {
                        kv_rows: 0,
                        replicated_rows: h,
                    };
                    add(K::Bias, split, 2 * ie + h, 1, e);
                }
                let is = u64::from(m.shared_intermediate);
                add(K::FfnGateShexp, ByGpu, is, h, 1);
                add(K::FfnUpShexp, ByGpu, is, h, 1);
                add(K::FfnDownShexp, ByGpu, h, is, 1);
            }
            None if fam.is_encoder() => {
                let im = u64::from(self.intermediate);
                add(K::FfnUp, ByGpu, im, h, 1);
                add(K::FfnDown, ByGpu, h, im, 1);
                let split = Mixed {
                    kv_rows: 0,
                    replicated_rows: h,
                };
                add(K::Bias, split, im + h, 1, 1);
            }
            None => {
                let im = u64::from(self.intermediate);
                add(K::FfnGate, ByGpu, im, h, 1);
                add(K::FfnUp, ByGpu, im, h, 1);
                add(K::FfnDown, ByGpu, h, im, 1);
            }
        }
        // LayerNorm (encoders) has a bias beside each weight.
        let norm_width = if fam.is_encoder() { 2 * h } else { h };
        add(K::Norm, Replicated, norm_width, 1, fam.norms_per_layer());
    }

    /// Exact parameter count (the sum of all tensors).
    pub fn param_count(&self) -> u64 {
        self.tensors().iter().map(Tensor::numel).sum()
    }
}
