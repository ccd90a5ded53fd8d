//! Weight tensors: what each is, how tensor parallelism splits it, and the per-layer list of an
//! architecture ([`ModelArch::tensors`]) whose sum is the exact parameter count. The shapes follow
//! the Hugging Face modelling files listed in the parent module's documentation.
//!
//! Budgets never walk every layer: decoder layers come in a few kinds (dense and MoE; for hybrid
//! models also by mixer, [`ModelArch::layer_key`]) with identical tensors, so
//! [`ModelArch::layer_kinds`] gives each kind once with its count, and the tensors outside the
//! layers come from [`ModelArch::outer_tensors`]. [`ModulePatterns`] answers
//! which tensors a checkpoint's `unquantized_modules` cover without building a path string.

use super::{Family, ModelArch, Recurrent, RecurrentKind};
use crate::units::bytes::{mul, prod, sum};
use std::collections::BTreeMap;

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
    /// A recurrent mixer's input projection (Mamba-2 `in_proj`; DeltaNet `in_proj_qkvz` with
    /// `in_proj_ba`; GGUF `ssm_in`).
    SsmIn,
    /// A recurrent mixer's depthwise convolution (`conv1d`; GGUF `ssm_conv1d`, kept in f32).
    SsmConv,
    /// A recurrent mixer's output projection (`out_proj`; GGUF `ssm_out`).
    SsmOut,
    /// A recurrent mixer's per-head vectors (`A_log`, `D`, `dt_bias`; GGUF `ssm_a`, `ssm_d`,
    /// `ssm_dt.bias`).
    SsmHead,
    /// The per-layer embedding table (Gemma 3n `embed_tokens_per_layer`; GGUF
    /// `per_layer_token_embd`): an embedding, kept 16-bit by weight quantisers and in host memory
    /// by llama.cpp ([`crate::inputs::model::PerLayerInputs`]).
    PerLayerEmbd,
    /// The other linear projections of per-layer embeddings, AltUp and LAuReL
    /// (`per_layer_model_projection`, `per_layer_input_gate`, `per_layer_projection`,
    /// `altup_projections`, `laurel.linear_left` / `linear_right`).
    PerLayerProj,
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
                | TensorKind::SsmConv
                | TensorKind::SsmHead
                | TensorKind::PerLayerEmbd
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
    /// Elements of all instances (saturating).
    pub fn numel(&self) -> u64 {
        prod(&[self.rows, self.cols, self.count])
    }

    /// The module path in Hugging Face naming without the `model.` prefix
    /// (`layers.3.self_attn.q_proj`, `layers.3.mlp.experts`, `embed_tokens`, `lm_head`), as
    /// quantisation configs list modules to skip.
    pub fn module_path(&self) -> String {
        let leaf = self.leaf();
        match self.layer {
            Some(i) if !self.is_outer_kind() => format!("layers.{i}.{leaf}"),
            _ => leaf.into(),
        }
    }

    /// Whether the kind is named without its layer (embedding, head, vision tower).
    fn is_outer_kind(&self) -> bool {
        matches!(
            self.kind,
            TensorKind::TokenEmbd
                | TensorKind::Output
                | TensorKind::Vision
                | TensorKind::PerLayerEmbd
        )
    }

    /// The last part of [`Tensor::module_path`]: the whole path for the embedding, head and
    /// vision tower, the part after `layers.N.` for layer tensors.
    fn leaf(&self) -> &'static str {
        match self.kind {
            TensorKind::TokenEmbd => "embed_tokens",
            TensorKind::Output => "lm_head",
            TensorKind::Vision => "vision_tower",
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
            TensorKind::SsmIn => "mamba.in_proj",
            TensorKind::SsmConv => "mamba.conv1d",
            TensorKind::SsmOut => "mamba.out_proj",
            TensorKind::SsmHead => "mamba.A_log",
            TensorKind::PerLayerEmbd => "embed_tokens_per_layer",
            TensorKind::PerLayerProj if self.layer.is_none() => "per_layer_model_projection",
            TensorKind::PerLayerProj => "per_layer_projection",
        }
    }
}

/// Whether `path` falls under one of `patterns` (module paths as quantisation configs list them,
/// with or without the `model.` / `model.language_model.` prefix), matched on whole components:
/// the path-by-path reference the tests check [`ModulePatterns::covers`] against.
#[cfg(test)]
pub fn under_any(path: &str, patterns: &[String]) -> bool {
    patterns.iter().any(|p| {
        let p = p
            .trim()
            .trim_start_matches("model.language_model.")
            .trim_start_matches("model.");
        !p.is_empty() && (path == p || path.starts_with(&format!("{p}.")))
    })
}

/// A checkpoint's unquantised modules (`unquantized_modules`), parsed once: [`ModulePatterns::covers`]
/// answers `under_any` for a tensor without building its path, and [`ModulePatterns::names_layer`]
/// says which layers a pattern singles out (those are costed one by one; every other layer is
/// costed once per kind).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModulePatterns {
    /// Patterns that can only name a tensor outside the layers (`lm_head`, `embed_tokens`, …).
    outer: Vec<String>,
    /// Whether one pattern is `layers` itself (every layer tensor).
    all_layers: bool,
    /// Per layer: what follows `layers.N` in each pattern naming it (`""` = the whole layer,
    /// `".mlp"`, `".self_attn.q_proj"`, …).
    by_layer: BTreeMap<u32, Vec<String>>,
}

impl ModulePatterns {
    /// Parses module paths as quantisation configs list them (with or without the `model.` /
    /// `model.language_model.` prefix).
    pub fn new(patterns: &[String]) -> ModulePatterns {
        let mut out = ModulePatterns::default();
        for p in patterns {
            let p = normalise(p);
            if p.is_empty() {
                continue;
            }
            if p == "layers" {
                out.all_layers = true;
            } else if let Some(rest) = p.strip_prefix("layers.") {
                let digits = rest.split('.').next().unwrap_or("");
                // A layer path carries the index in decimal without leading zeros.
                let canonical = !digits.is_empty()
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && (digits.len() == 1 || !digits.starts_with('0'));
                if let Some(i) = digits.parse::<u32>().ok().filter(|_| canonical) {
                    out.by_layer
                        .entry(i)
                        .or_default()
                        .push(rest[digits.len()..].to_string());
                }
            } else {
                out.outer.push(p.to_string());
            }
        }
        out
    }

    /// Whether no pattern can cover anything.
    pub fn is_empty(&self) -> bool {
        self.outer.is_empty() && !self.all_layers && self.by_layer.is_empty()
    }

    /// Whether a pattern names layer `i` by its index.
    pub fn names_layer(&self, i: u32) -> bool {
        self.by_layer.contains_key(&i)
    }

    /// Whether a pattern names some layer by its index.
    pub fn names_any_layer(&self) -> bool {
        !self.by_layer.is_empty()
    }

    /// Whether `t` falls under one of the patterns (the rule of `under_any`).
    pub fn covers(&self, t: &Tensor) -> bool {
        let leaf = t.leaf();
        match t.layer {
            Some(i) if !t.is_outer_kind() => {
                self.all_layers
                    || self.by_layer.get(&i).is_some_and(|rests| {
                        rests.iter().any(|r| {
                            r.is_empty()
                                || r.strip_prefix('.').is_some_and(|q| {
                                    leaf == q
                                        || (leaf.starts_with(q) && leaf[q.len()..].starts_with('.'))
                                })
                        })
                    })
            }
            // A path without dots equals the pattern or does not fall under it.
            _ => self.outer.iter().any(|p| p == leaf),
        }
    }
}

fn normalise(p: &str) -> &str {
    p.trim()
        .trim_start_matches("model.language_model.")
        .trim_start_matches("model.")
}

/// The tensors of one recurrent mixer (shapes in `model::hybrid`). Tensor parallelism splits the
/// projections, the convolution and the per-head vectors with the heads (vLLM `MambaMixer2`,
/// `Qwen3NextGatedDeltaNet`: column-parallel `in_proj`, row-parallel `out_proj`); DeltaNet's norm
/// of one head's width is whole on every GPU, as is the bias of the row-parallel `out_proj`.
fn push_recurrent(add: &mut impl FnMut(TensorKind, Split, u64, u64, u64), r: &Recurrent, h: u64) {
    use Split::{ByGpu, Mixed, Replicated};
    use TensorKind as K;
    let inner = r.inner();
    let heads = u64::from(r.heads);
    let conv_dim = r.conv_dim();
    let (head_rows, per_head) = match r.kind {
        // dt (Mamba-2) or b and a (DeltaNet) per head in the input projection; A_log, D and
        // dt_bias (Mamba-2) or A_log and dt_bias (DeltaNet) as vectors.
        RecurrentKind::Mamba2 => (heads, 3),
        RecurrentKind::GatedDeltaNet => (2 * heads, 2),
    };
    let in_rows = 2 * inner + r.group_width() + head_rows;
    add(K::SsmIn, ByGpu, in_rows, h, 1);
    add(K::SsmConv, ByGpu, conv_dim, u64::from(r.conv_kernel), 1);
    if r.conv_bias {
        add(K::Bias, ByGpu, conv_dim, 1, 1);
    }
    add(K::SsmHead, ByGpu, heads, 1, per_head);
    if r.norm {
        match r.kind {
            RecurrentKind::Mamba2 => add(K::Norm, ByGpu, inner, 1, 1),
            RecurrentKind::GatedDeltaNet => add(K::Norm, Replicated, u64::from(r.head_dim), 1, 1),
        }
    }
    add(K::SsmOut, ByGpu, h, inner, 1);
    if r.proj_bias {
        let split = Mixed {
            kv_rows: 0,
            replicated_rows: h,
        };
        add(K::Bias, split, in_rows + h, 1, 1);
    }
}

impl ModelArch {
    /// Every weight tensor, in load order. This walks every layer: budgets use
    /// [`ModelArch::outer_tensors`] and [`ModelArch::layer_kinds`] instead.
    pub fn tensors(&self) -> Vec<Tensor> {
        let (mut out, after) = self.outer_tensors();
        let embeddings = out.len();
        let mut layers = Vec::new();
        for i in 0..self.layers {
            layers.extend(self.layer_tensors(i));
        }
        out.splice(embeddings..embeddings, layers);
        out.extend(after);
        out
    }

    /// The tensors of decoder layer `i`, in load order.
    pub fn layer_tensors(&self, i: u32) -> Vec<Tensor> {
        let mut out = Vec::with_capacity(24);
        self.push_layer(&mut out, i);
        out
    }

    /// The decoder layers `lo..hi` by kind: for the dense and the MoE layers present, a
    /// representative layer and how many layers of the range share its tensors (they differ only
    /// in their index).
    pub fn layer_kinds(&self, lo: u32, hi: u32) -> Vec<(u32, u64)> {
        let hi = hi.min(self.layers);
        if hi <= lo {
            return Vec::new();
        }
        if self.hybrid.is_some() || self.global_attention.is_some() {
            // Mixers (or a global layer's shape) vary layer by layer: one look-up per layer (at
            // most 1024), one entry per key.
            let mut out: Vec<(u32, u64)> = Vec::with_capacity(4);
            let mut keys: Vec<u8> = Vec::with_capacity(4);
            for i in lo..hi {
                let key = self.layer_key(i);
                match keys.iter().position(|&k| k == key) {
                    Some(j) => out[j].1 += 1,
                    None => {
                        keys.push(key);
                        out.push((i, 1));
                    }
                }
            }
            return out;
        }
        let moe = self.moe_layers_in(lo, hi);
        let dense = u64::from(hi - lo) - moe;
        let mut out = Vec::with_capacity(2);
        if let Some(i) = self.first_dense_layer_from(lo).filter(|_| dense > 0) {
            out.push((i, dense));
        }
        if let Some(i) = self.first_moe_layer_from(lo).filter(|_| moe > 0) {
            out.push((i, moe));
        }
        out
    }

    /// The tensors outside the decoder layers: (loaded before them, loaded after them).
    pub fn outer_tensors(&self) -> (Vec<Tensor>, Vec<Tensor>) {
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
        let mut before = vec![t(TensorKind::TokenEmbd, Split::ByGpu, v, h, None)];
        if let Some(p) = self.per_layer_inputs {
            // vLLM `gemma3n.py`: the table is a `VocabParallelEmbedding`, the model projection and
            // the AltUp (un)embedding projections `ColumnParallelLinear`s (split), the norm whole.
            let width = u64::from(self.layers) * u64::from(p.hidden);
            before.push(t(
                TensorKind::PerLayerEmbd,
                Split::ByGpu,
                u64::from(p.vocab),
                width,
                None,
            ));
            before.push(t(TensorKind::PerLayerProj, Split::ByGpu, width, h, None));
            before.push(t(
                TensorKind::Norm,
                Split::Replicated,
                u64::from(p.hidden),
                1,
                None,
            ));
            let streams = u64::from(p.altup_inputs.saturating_sub(1));
            if streams > 0 {
                before.push(Tensor {
                    count: 2 * streams,
                    ..t(TensorKind::PerLayerProj, Split::ByGpu, h, h, None)
                });
            }
        }
        if self.family.is_encoder() {
            // Positions, two token types, and the embedding LayerNorm (weight + bias).
            before.push(t(
                TensorKind::Bias,
                Split::Replicated,
                u64::from(self.max_position) + 2,
                h,
                None,
            ));
            before.push(t(TensorKind::Norm, Split::Replicated, 2 * h, 1, None));
        }
        let mut out = Vec::new();
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
        (before, out)
    }

    fn push_layer(&self, out: &mut Vec<Tensor>, i: u32) {
        let h = u64::from(self.hidden);
        let (head_dim, kv_heads, has_v) = self.attention_shape(i);
        let hd = u64::from(head_dim);
        let q = u64::from(self.heads) * hd;
        let kv = u64::from(kv_heads) * hd;
        let fam = self.family;
        let layer = Some(i);
        let attention = self.has_attention(i);
        let mut add = |kind, split, rows: u64, cols: u64, count: u64| {
            if prod(&[rows, cols, count]) > 0 {
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
        match self.mla.filter(|_| attention) {
            _ if !attention => {}
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
                // Qwen3-Next's query projection also yields the per-head output gate.
                let q_rows = if fam.attention_output_gate() {
                    2 * q
                } else {
                    q
                };
                add(K::AttnQ, ByGpu, q_rows, h, 1);
                add(K::AttnK, ByKvHead, kv, h, 1);
                // Gemma 4's global layers with `attention_k_eq_v` have no `v_proj`.
                if has_v {
                    add(K::AttnV, ByKvHead, kv, h, 1);
                }
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
                if fam.qk_norm() || self.qk_norm {
                    add(K::Norm, Replicated, 2 * hd, 1, 1);
                }
                if fam.full_width_qk_norm() {
                    add(K::Norm, Replicated, q + kv, 1, 1);
                }
            }
        }
        if let Some(r) = self.recurrent().filter(|_| self.has_recurrent(i)) {
            push_recurrent(&mut add, &r, h);
        }
        match self.moe.filter(|_| self.is_moe_layer(i)) {
            _ if !self.has_mlp(i) => {}
            Some(m) => {
                let e = u64::from(m.experts);
                let ie = u64::from(m.expert_intermediate);
                add(K::Router, Replicated, e, h, 1);
                if m.router_bias {
                    add(K::Bias, Replicated, e, 1, 1);
                }
                // Nemotron 3's experts are ReLU² MLPs without a gate (`NemotronHMLP`).
                if fam.gated_mlp() {
                    add(K::FfnGateExps, ByGpu, ie, h, e);
                }
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
                if fam.gated_mlp() {
                    add(K::FfnGateShexp, ByGpu, is, h, 1);
                }
                add(K::FfnUpShexp, ByGpu, is, h, 1);
                add(K::FfnDownShexp, ByGpu, h, is, 1);
                if fam.shared_expert_gate() && is > 0 {
                    // `shared_expert_gate`: hidden → 1, replicated (`qwen3_next.py`).
                    add(K::Router, Replicated, 1, h, 1);
                }
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
                if fam.gated_mlp() {
                    add(K::FfnGate, ByGpu, im, h, 1);
                }
                add(K::FfnUp, ByGpu, im, h, 1);
                add(K::FfnDown, ByGpu, h, im, 1);
            }
        }
        if let Some(p) = self.per_layer_inputs {
            let ph = u64::from(p.hidden);
            // vLLM `gemma3n.py::Gemma3nDecoderLayer`: `per_layer_input_gate` and
            // `per_layer_projection` are `ReplicatedLinear`s; `post_per_layer_input_norm`.
            add(K::PerLayerProj, Replicated, ph, h, 1);
            add(K::PerLayerProj, Replicated, h, ph, 1);
            add(K::Norm, Replicated, h, 1, 1);
            let n = u64::from(p.altup_inputs);
            if n > 0 {
                // `Gemma3nAltUp`: `correction_coefs` n×n, `prediction_coefs` n²×n and
                // `modality_router` n×h are `ReplicatedLinear`s; `router_norm` and
                // `correct_output_scale` are h-wide vectors.
                add(K::Router, Replicated, n + n * n, n, 1);
                add(K::Router, Replicated, n, h, 1);
                add(K::Norm, Replicated, 2 * h, 1, 1);
            }
            let r = u64::from(p.laurel_rank);
            if r > 0 {
                // `Gemma3nLaurelBlock`: column-parallel `linear_left` r×h, row-parallel
                // `linear_right` h×r, `post_laurel_norm` h.
                add(K::PerLayerProj, ByGpu, r, h, 1);
                add(K::PerLayerProj, ByGpu, h, r, 1);
                add(K::Norm, Replicated, h, 1, 1);
            }
        }
        if fam.layer_scalar() {
            add(K::Norm, Replicated, 1, 1, 1);
        }
        // LayerNorm (encoders) has a bias beside each weight.
        let norm_width = if fam.is_encoder() { 2 * h } else { h };
        add(K::Norm, Replicated, norm_width, 1, fam.norms_per_layer());
    }

    /// Exact parameter count (the sum of all tensors; saturating), each layer kind counted once.
    pub fn param_count(&self) -> u64 {
        let (before, after) = self.outer_tensors();
        let outer = sum(before.iter().chain(&after).map(Tensor::numel));
        let layers = sum(self
            .layer_kinds(0, self.layers)
            .into_iter()
            .map(|(i, n)| mul(sum(self.layer_tensors(i).iter().map(Tensor::numel)), n)));
        outer.saturating_add(layers)
    }

    /// Parameters one token's forward pass multiplies with, which a decode step reads: every
    /// tensor but the token embedding (one row is looked up; kept when tied, since it is then
    /// the output head), the per-layer embedding table (a lookup in host memory) and the vision
    /// tower, with each MoE layer's routed experts counted `active / experts` (the router picks
    /// `active` of them per token). What prefill FLOPs (`2 × this × tokens`) and the speed model
    /// build on.
    pub fn active_param_count(&self) -> u64 {
        let (before, after) = self.outer_tensors();
        let read = |t: &Tensor| match t.kind {
            TensorKind::TokenEmbd => self.tied_embeddings,
            TensorKind::PerLayerEmbd | TensorKind::Vision => false,
            _ => true,
        };
        let outer = sum(before
            .iter()
            .chain(&after)
            .filter(|t| read(t))
            .map(Tensor::numel));
        let (active, experts) = self.moe.map_or((1, 1), |m| {
            (u64::from(m.active), u64::from(m.experts.max(1)))
        });
        let layer = |i: u32| {
            sum(self.layer_tensors(i).iter().filter(|t| read(t)).map(|t| {
                if t.kind.is_expert() {
                    t.numel() / experts * active.min(experts)
                } else {
                    t.numel()
                }
            }))
        };
        let layers = sum(self
            .layer_kinds(0, self.layers)
            .into_iter()
            .map(|(i, n)| mul(layer(i), n)));
        outer.saturating_add(layers)
    }

    /// Parameters of every routed expert of every MoE layer (0 for a dense model).
    pub fn routed_expert_param_count(&self) -> u64 {
        sum(self.layer_kinds(0, self.layers).into_iter().map(|(i, n)| {
            let experts = sum(self
                .layer_tensors(i)
                .iter()
                .filter(|t| t.kind.is_expert())
                .map(Tensor::numel));
            mul(experts, n)
        }))
    }

    /// Parameters of the checkpoint's multi-token-prediction layers ([`ModelArch::mtp_layers`]),
    /// which the served model does not load. Each is one more decoder layer shaped as the last
    /// one (attention with the MoE or MLP block; for hybrids a full-attention layer, which the
    /// last layer is in every released layout) plus
    /// - the projection of the concatenated embedding and hidden state back to the width
    ///   (`eh_proj` / `fc`, `hidden × 2·hidden`, no bias) and its two input RMSNorms
    ///   (`enorm`/`hnorm`; `pre_fc_norm_embedding`/`pre_fc_norm_hidden`) and one output norm
    ///   (`shared_head.norm`; `norm`): `2·hidden² + 3·hidden`
    ///   (`transformers`' DeepSeek-V3 / GLM-4.5 checkpoints, vLLM `deepseek_mtp.py`,
    ///   `glm4_moe_mtp.py`, `qwen3_next_mtp.py`);
    /// - for DeepSeek V3 and GLM-4.5, a copy of the embedding and of the output head stored with
    ///   the layer (`model.layers.N.embed_tokens`, `model.layers.N.shared_head.head`;
    ///   `2·vocab·hidden`). Qwen3-Next / Qwen3.5 share the main model's (`qwen3_next_mtp.py`
    ///   builds its own only for loading, the checkpoint holds `mtp.fc`, `mtp.layers.0.*`,
    ///   `mtp.norm` and the two pre-norms).
    pub fn mtp_param_count(&self) -> u64 {
        if self.mtp_layers == 0 || self.layers == 0 {
            return 0;
        }
        let h = u64::from(self.hidden);
        let layer = sum(self
            .layer_tensors(self.layers - 1)
            .iter()
            .map(Tensor::numel));
        let copies = match self.family {
            Family::DeepseekV3 | Family::Glm4Moe => prod(&[2, u64::from(self.vocab), h]),
            _ => 0,
        };
        let one = sum([layer, prod(&[2, h, h]), mul(3, h), copies]);
        mul(one, u64::from(self.mtp_layers))
    }

    /// Parameters the checkpoint files hold: the served model ([`ModelArch::param_count`]) plus
    /// the multi-token-prediction layers ([`ModelArch::mtp_param_count`]). The Hugging Face
    /// model page's safetensors total counts these.
    pub fn checkpoint_param_count(&self) -> u64 {
        self.param_count().saturating_add(self.mtp_param_count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::model::{Hybrid, LayerSet, Mla, Moe, Recurrent, RecurrentKind, Vision};

    fn archs() -> Vec<ModelArch> {
        let dense = ModelArch::dense(Family::Qwen3, 14, 64, 8, 2, 16, 128, 1000, false, 4096);
        let mut moe = ModelArch::dense(Family::DeepseekV3, 13, 64, 8, 8, 24, 128, 1000, true, 4096);
        moe.moe = Some(Moe {
            experts: 8,
            active: 2,
            expert_intermediate: 32,
            shared_intermediate: 32,
            first_dense_layers: 3,
            moe_every: 2,
            router_bias: true,
            expert_bias: false,
        });
        moe.mla = Some(Mla {
            q_lora_rank: 16,
            kv_lora_rank: 16,
            qk_nope_head_dim: 16,
            qk_rope_head_dim: 8,
            v_head_dim: 16,
        });
        moe.vision = Some(Vision {
            params: 12345,
            tokens_per_image: 64,
            cross_attention_layers: 0,
            replicated: 345,
            config_layers: 2,
            config_hidden: 64,
        });
        let bert = ModelArch::dense(Family::Bert, 5, 64, 4, 4, 16, 256, 500, true, 512);
        // Nemotron-H-like: one block per layer, from a pattern.
        let pattern = "M-M*-MM-*M-";
        let mut nemo = ModelArch::dense(Family::NemotronH, 11, 64, 4, 2, 16, 96, 300, false, 4096);
        nemo.hybrid = Some(Hybrid {
            mixer: Recurrent {
                kind: RecurrentKind::Mamba2,
                heads: 8,
                head_dim: 16,
                state: 8,
                groups: 2,
                conv_kernel: 4,
                conv_bias: true,
                proj_bias: true,
                norm: true,
                ssm_f32: false,
            },
            recurrent_layers: LayerSet::from_pattern(pattern, b'M'),
            attention_layers: LayerSet::from_pattern(pattern, b'*'),
            mlp_layers: LayerSet::from_pattern(pattern, b'-'),
        });
        // Qwen3-Next-like: DeltaNet with attention every 4th layer, MoE everywhere.
        let mut next = ModelArch::dense(Family::Qwen3Next, 9, 64, 4, 2, 16, 96, 300, false, 4096);
        next.moe = Some(Moe {
            experts: 4,
            active: 2,
            expert_intermediate: 32,
            shared_intermediate: 32,
            first_dense_layers: 0,
            moe_every: 1,
            router_bias: false,
            expert_bias: false,
        });
        let attention = LayerSet::every(9, 4, 3);
        next.hybrid = Some(Hybrid {
            mixer: Recurrent {
                kind: RecurrentKind::GatedDeltaNet,
                heads: 4,
                head_dim: 16,
                state: 16,
                groups: 2,
                conv_kernel: 4,
                conv_bias: false,
                proj_bias: false,
                norm: true,
                ssm_f32: false,
            },
            recurrent_layers: LayerSet::first(9).without(attention),
            attention_layers: attention,
            mlp_layers: LayerSet::first(9),
        });
        // Gemma 4-like: every third layer global, with its own head width and KV heads and no
        // `v_proj`.
        let mut g4 = ModelArch::dense(Family::Gemma4, 8, 64, 4, 2, 16, 96, 300, true, 4096);
        g4.sliding_window = Some(crate::inputs::model::SlidingWindow {
            window: 8,
            global_every: 3,
        });
        g4.global_attention = Some(crate::inputs::model::GlobalAttention {
            head_dim: 32,
            kv_heads: 1,
            k_eq_v: true,
        });
        vec![dense, moe, bert, nemo, next, g4]
    }

    #[test]
    fn kinds_and_outer_tensors_rebuild_the_full_list() {
        for a in archs() {
            let all = a.tensors();
            let by_enumeration: u64 = all.iter().map(Tensor::numel).sum();
            assert_eq!(a.param_count(), by_enumeration);
            for lo in 0..=a.layers {
                for hi in lo..=a.layers {
                    let kinds = a.layer_kinds(lo, hi);
                    assert_eq!(kinds.iter().map(|k| k.1).sum::<u64>(), u64::from(hi - lo));
                    for (rep, _) in kinds {
                        // Every layer of the kind has the representative's shapes.
                        for i in lo..hi {
                            if a.layer_key(i) == a.layer_key(rep) {
                                let strip = |v: Vec<Tensor>| {
                                    v.into_iter()
                                        .map(|t| Tensor { layer: None, ..t })
                                        .collect::<Vec<_>>()
                                };
                                assert_eq!(strip(a.layer_tensors(i)), strip(a.layer_tensors(rep)));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn parsed_patterns_cover_what_under_any_covers() {
        let fragments = [
            "layers",
            "layers.0",
            "layers.1",
            "layers.01",
            "layers.12",
            "layers.3.mlp",
            "layers.3.mlp.experts",
            "layers.4.self_attn",
            "layers.4.self_attn.q",
            "layers.4.",
            "layers.x",
            "lm_head",
            "embed_tokens",
            "vision_tower",
            "norm",
            "bias",
            "mlp",
            "layers.5.norm",
            "layers.5.bias",
            "layers.6.mlp.gate",
            "layers.6.mlp.gate_proj",
            "layers.7.self_attn.kv_a_proj_with_mqa",
            "",
            "  model.layers.2  ",
            "model.language_model.lm_head",
            "model.model.layers.8",
            "layers.+3",
        ];
        for a in archs() {
            let tensors = a.tensors();
            for (k, _) in fragments.iter().enumerate() {
                for width in 1..4 {
                    let patterns: Vec<String> = fragments
                        .iter()
                        .cycle()
                        .skip(k)
                        .step_by(width)
                        .take(3)
                        .map(|s| s.to_string())
                        .collect();
                    let parsed = ModulePatterns::new(&patterns);
                    for t in &tensors {
                        assert_eq!(
                            parsed.covers(t),
                            under_any(&t.module_path(), &patterns),
                            "{patterns:?} {}",
                            t.module_path()
                        );
                    }
                }
            }
        }
    }
}
