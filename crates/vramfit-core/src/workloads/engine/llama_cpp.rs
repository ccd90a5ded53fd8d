//! llama.cpp: model buffers per device, a KV buffer of `n_ctx` cells, a compute buffer sized by
//! `n_ubatch`, and what partial offload leaves in host RAM (traced in
//! llama.cpp's source).
//!
//! - **Placement** (`src/llama-model.cpp::load_tensors`, since #18148): `n_gpu_layers` counts the
//!   repeating layers plus one output layer; `i_gpu_start = max(n_layer + 1 − ngl, 0)` and layer
//!   `il ≥ i_gpu_start` is on a GPU, the output layer (`il = n_layer`) first. Layers are split over
//!   several GPUs in contiguous runs (equal cards: equal shares). `token_embd` always stays in host
//!   RAM; a tied embedding is loaded a second time as the output on the output device.
//! - **KV** (`src/llama-kv-cache.cpp`): per attention layer `cells × (n_embd_k_gqa·bytes(type_k) +
//!   n_embd_v_gqa·bytes(type_v))` on the layer's device; `cells = PAD(n_ctx, 256)` (unified) or
//!   `n_seq × PAD(PAD(n_ctx,256)/n_seq, 256)`; sliding-window layers
//!   `PAD(min(cells, n_swa·(unified ? n_seq : 1) + n_ubatch), 256)` per stream. Cache types: f16 2 B,
//!   q8_0 34/32, q4_0 18/32, q4_1 20/32, q5_0 22/32, q5_1 24/32, iq4_nl 18/32 (ggml blocks of 32).
//! - **Recurrent state** (hybrid models, `src/llama-memory-hybrid.cpp`: the KV cache above for the
//!   attention layers, a `llama_memory_recurrent` for the recurrent ones): per recurrent layer, on
//!   the layer's device, `r` of `n_embd_r() = (d_conv − 1)·(d_inner + 2·n_group·d_state)` and `s`
//!   of `n_embd_s() = d_state·d_inner` elements (`src/llama-hparams.cpp`) per row, `max(1,
//!   n_seq_max)` rows (`src/llama-memory-recurrent.cpp`, the constructor; one row per sequence,
//!   whatever the context), both f32 (`src/llama-model.cpp::create_memory` passes `GGML_TYPE_F32`
//!   for `type_r` and `type_s`). The log line is `RS buffer size`.
//! - **Compute buffer** (`src/llama-context.cpp::sched_reserve`): the peak of ggml's graph
//!   allocator over the worst-case ubatch graph, replayed node by node (`graph_alloc`) for the
//!   families whose graph it builds and estimated by phases for the rest (see
//!   [`compute_buffer_bytes`]), checked against llama.cpp's own reservation
//!   (`tests/traces/llama_cpp/`: every point exact). With
//!   pipeline parallelism (several GPUs, all layers offloaded) each GPU adds `3·(unit + mask)`; with
//!   the output layer on the CPU and `ub ≥ 32`, op offload stages `output.weight` in GPU 0's compute
//!   buffer.
//! - **Outside the buffers**: the CUDA context (as for PyTorch) and cuBLAS's workspace
//!   (`ggml-cuda/common.cuh`: 32 MiB Hopper+, 4 MiB otherwise).
//! - **Host RAM**: `token_embd`, the CPU layers and their KV, the output buffer `V·4·n_seq`, and the
//!   host compute buffer `unit + cells·ub·(FA ? 2 : 4)`.

pub mod graph_alloc;

use super::ratio;
use crate::budget::draft::Draft;
use crate::budget::kv_cache::{self, state_in_layers, StateStorage};
use crate::budget::Card;
use crate::budget::{components, BudgetInputs, Component, ComponentId};
use crate::budget::{GpuBudget, KvReport};
use crate::inputs::catalog::GpuArch;
use crate::units::bytes::{add, mul, prod, round_up, sum, MIB};
pub use graph_alloc::{GraphFamily, GraphMoe, GraphSpec};
use serde::{Deserialize, Serialize};

/// llama.cpp settings, named as its options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlamaCpp {
    /// `-c / n_ctx`: total cells (default: context × parallel sequences).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_ctx: Option<u32>,
    /// `-b / n_batch` (default 2048).
    #[serde(default = "default_batch")]
    pub n_batch: u32,
    /// `-ub / n_ubatch` (default 512).
    #[serde(default = "default_ubatch")]
    pub n_ubatch: u32,
    /// `-np / n_parallel` (default: the workload's sequences).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_parallel: Option<u32>,
    /// `-fa` flash attention (default on: `auto` resolves to on for CUDA).
    #[serde(default = "yes")]
    pub flash_attn: bool,
    /// `-ngl / n_gpu_layers` (default: all layers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_gpu_layers: Option<u32>,
    /// `-ctk` cache type for K.
    #[serde(default)]
    pub cache_type_k: CacheType,
    /// `-ctv` cache type for V (quantised V needs flash attention).
    #[serde(default)]
    pub cache_type_v: CacheType,
    /// `--kv-unified`: one cache shared by all slots.
    #[serde(default)]
    pub kv_unified: bool,
    /// `llama-server` (logits reserved for `n_parallel` rows) rather than `llama-cli`.
    #[serde(default = "yes")]
    pub server: bool,
    /// `--n-cpu-moe N`: the routed-expert tensors (`ffn_(gate|up|down)_exps`) of the first `N`
    /// layers stay in host RAM; attention, shared experts, routers and the KV cache stay on the
    /// GPU (llama.cpp PR #15077, b6089). A count past the layers means all of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_cpu_moe: Option<u32>,
    /// `--cpu-moe`: the routed experts of every layer in host RAM (wins over `n_cpu_moe`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub cpu_moe: bool,
    /// The host memory bandwidth a decode step reaches reading weights kept in host RAM, GB/s
    /// (default 60, `speed::HOST_BANDWIDTH_GB_S`). Only llama.cpp keeps weights there, so
    /// the setting lives with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_bandwidth_gb_s: Option<f64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl LlamaCpp {
    /// The layers, counted from the first, whose routed experts stay in host RAM
    /// (`--cpu-moe`: all; `--n-cpu-moe N`: the first `N`), at most `layers`.
    pub fn cpu_moe_layers(&self, layers: u32) -> u32 {
        if self.cpu_moe {
            layers
        } else {
            self.n_cpu_moe.unwrap_or(0).min(layers)
        }
    }
}

fn default_batch() -> u32 {
    2048
}
fn default_ubatch() -> u32 {
    512
}
fn yes() -> bool {
    true
}

impl Default for LlamaCpp {
    fn default() -> LlamaCpp {
        LlamaCpp {
            n_ctx: None,
            n_batch: default_batch(),
            n_ubatch: default_ubatch(),
            n_parallel: None,
            flash_attn: true,
            n_gpu_layers: None,
            cache_type_k: CacheType::F16,
            cache_type_v: CacheType::F16,
            kv_unified: false,
            server: true,
            n_cpu_moe: None,
            cpu_moe: false,
            host_bandwidth_gb_s: None,
        }
    }
}

/// A llama.cpp KV cache type (`-ctk` / `-ctv`, `ggml_type` names as `common/arg.cpp` accepts
/// them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CacheType {
    /// 16-bit float (the default).
    #[default]
    #[serde(rename = "f16")]
    F16,
    /// bfloat16.
    #[serde(rename = "bf16")]
    Bf16,
    /// 8-bit blocks of 32 with an f16 scale.
    #[serde(rename = "q8_0")]
    Q8_0,
    /// 5-bit blocks with scale and minimum.
    #[serde(rename = "q5_1")]
    Q5_1,
    /// 5-bit blocks with a scale.
    #[serde(rename = "q5_0")]
    Q5_0,
    /// 4-bit blocks with scale and minimum.
    #[serde(rename = "q4_1")]
    Q4_1,
    /// 4-bit blocks with a scale.
    #[serde(rename = "q4_0")]
    Q4_0,
    /// 4-bit non-linear blocks.
    #[serde(rename = "iq4_nl")]
    Iq4Nl,
    /// 32-bit float.
    #[serde(rename = "f32")]
    F32,
}

impl CacheType {
    /// Every type, in the order the page lists them (the default first, then by size).
    pub const ALL: [CacheType; 9] = [
        CacheType::F16,
        CacheType::Bf16,
        CacheType::Q8_0,
        CacheType::Q5_1,
        CacheType::Q5_0,
        CacheType::Q4_1,
        CacheType::Q4_0,
        CacheType::Iq4Nl,
        CacheType::F32,
    ];

    /// Its name, as the flag takes it.
    pub fn id(self) -> &'static str {
        match self {
            CacheType::F16 => "f16",
            CacheType::Bf16 => "bf16",
            CacheType::Q8_0 => "q8_0",
            CacheType::Q5_1 => "q5_1",
            CacheType::Q5_0 => "q5_0",
            CacheType::Q4_1 => "q4_1",
            CacheType::Q4_0 => "q4_0",
            CacheType::Iq4Nl => "iq4_nl",
            CacheType::F32 => "f32",
        }
    }

    /// The type of a name (`None` for an unknown one).
    pub fn from_id(id: &str) -> Option<CacheType> {
        CacheType::ALL.into_iter().find(|t| t.id() == id)
    }

    /// Bits per element: a block's bytes × 8 over its 32 elements for the quantised types
    /// (`ggml_type_size / ggml_blck_size`).
    pub fn bits(self) -> u64 {
        match self {
            CacheType::F32 => 32,
            CacheType::F16 | CacheType::Bf16 => 16,
            CacheType::Q8_0 => 34 * 8 / 32,
            CacheType::Q4_0 | CacheType::Iq4Nl => 18 * 8 / 32,
            CacheType::Q4_1 => 20 * 8 / 32,
            CacheType::Q5_0 => 22 * 8 / 32,
            CacheType::Q5_1 => 24 * 8 / 32,
        }
    }

    /// Whether it is a block-quantised type (quantised V needs flash attention).
    pub fn quantized(self) -> bool {
        self.bits() < 16
    }
}

fn pad256(x: u64) -> u64 {
    round_up(x.max(1), 256)
}

/// The shapes and settings that size llama.cpp's compute buffer (one ubatch graph).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputeShape {
    /// `n_embd`.
    pub hidden: u64,
    /// `n_head`.
    pub heads: u64,
    /// `n_head_kv`.
    pub kv_heads: u64,
    /// `n_embd_head_k`.
    pub head_dim: u64,
    /// `n_ff` (for MoE, the widest of the dense FFN and the active experts' total
    /// `n_ff_exp · n_expert_used`).
    pub n_ff: u64,
    /// `n_expert_used` for a MoE FFN, 0 for a dense one.
    pub experts_used: u64,
    /// `n_vocab`: the logits' width.
    pub vocab: u64,
    /// KV cells per stream (`n_kv` of the worst-case graph: the whole cache of one stream).
    pub cells_per_stream: u64,
    /// Cells per stream of the sliding-window cache, if the model has one (its own mask).
    pub swa_cells_per_stream: Option<u64>,
    /// `n_tokens` of the worst-case ubatch: `min(n_ubatch, n_batch, n_ctx)`.
    pub ubatch: u64,
    /// Output rows reserved: `min(ubatch, n_outputs_max)`, `n_outputs_max` defaulting to `n_batch`
    /// (`llama-cli`), `n_parallel` in `llama-server`.
    pub outputs: u64,
    /// `-fa`.
    pub flash_attn: bool,
    /// The layer structure, where llama.cpp's graph is replayed (`graph_alloc`); `None` keeps
    /// the formula.
    pub family: Option<GraphFamily>,
    /// `n_expert` (the router's width), for a MoE FFN.
    pub experts: u64,
    /// `n_ff_exp`, for a MoE FFN.
    pub expert_ff: u64,
    /// Decoder layers.
    pub layers: u64,
    /// KV streams (`n_seq_max`, 1 with `--kv-unified`).
    pub streams: u64,
    /// `n_seq_max` (`-np`): the reserved ubatch's token count is rounded up to a multiple of it
    /// (`llama_context::graph_reserve`).
    pub seqs: u64,
    /// `-ctk` is quantised.
    pub quantized_k: bool,
    /// `-ctv` is quantised.
    pub quantized_v: bool,
    /// The buffer type's alignment (CPU 32, CUDA 128).
    pub alignment: u64,
}

impl ComputeShape {
    /// The widths, experts, layers and graph family of `a` as llama.cpp builds its graph, for one
    /// sequence over one stream with an f16 cache and flash attention off; the caller sets the
    /// cells, ubatch, outputs and settings of its context.
    fn of_model(a: &crate::inputs::model::ModelArch) -> ComputeShape {
        ComputeShape {
            hidden: u64::from(a.hidden),
            heads: u64::from(a.heads),
            kv_heads: u64::from(a.kv_heads),
            head_dim: u64::from(a.head_dim),
            // A MoE FFN counts the active experts' width.
            n_ff: a.moe.map_or(u64::from(a.intermediate), |m| {
                u64::from(a.intermediate)
                    .max(mul(u64::from(m.expert_intermediate), u64::from(m.active)))
            }),
            experts_used: a.moe.map_or(0, |m| u64::from(m.active)),
            vocab: u64::from(a.vocab),
            cells_per_stream: 0,
            swa_cells_per_stream: None,
            ubatch: 1,
            outputs: 1,
            flash_attn: false,
            family: graph_family(a),
            experts: a.moe.map_or(0, |m| u64::from(m.experts)),
            expert_ff: a.moe.map_or(0, |m| u64::from(m.expert_intermediate)),
            layers: u64::from(a.layers),
            streams: 1,
            seqs: 1,
            quantized_k: false,
            quantized_v: false,
            // `ggml_backend_cuda_buffer_type_get_alignment`.
            alignment: 128,
        }
    }

    /// The replayable graph of this shape, if its family is one `graph_alloc` builds.
    pub fn graph_spec(&self) -> Option<GraphSpec> {
        let family = self.family?;
        let moe = if self.experts_used > 0 {
            if self.experts_used > graph_alloc::MAX_REPLAY_EXPERTS || self.experts == 0 {
                return None;
            }
            Some(GraphMoe {
                experts: self.experts,
                used: self.experts_used,
                expert_ff: self.expert_ff,
            })
        } else {
            None
        };
        Some(GraphSpec {
            family,
            moe,
            hidden: self.hidden,
            heads: self.heads,
            kv_heads: self.kv_heads,
            head_dim: self.head_dim,
            n_ff: self.n_ff,
            vocab: self.vocab,
            layers: self.layers,
            cells: self.cells_per_stream,
            swa_cells: self.swa_cells_per_stream.unwrap_or(self.cells_per_stream),
            // `graph_reserve`: "round to next multiple of n_seqs".
            tokens: round_up(self.ubatch.max(1), self.seqs.max(1)),
            streams: self.streams,
            outputs: self.outputs,
            flash_attn: self.flash_attn,
            quantized_k: self.quantized_k,
            quantized_v: self.quantized_v,
            with_output: self.vocab > 0 && self.outputs > 0,
            alignment: self.alignment,
        })
    }
}

/// llama.cpp's compute buffer: the high-water mark of `ggml_gallocr` (`ggml/src/ggml-alloc.c`) over
/// the worst-case graph that `llama_context::sched_reserve` reserves
/// (`n_tokens = min(n_ctx, n_ubatch)`, `n_outputs = min(n_tokens, n_outputs_max)`).
///
/// Where [`ComputeShape::family`] names a graph `graph_alloc` builds (Llama / Mistral / Mixtral,
/// Qwen2, Qwen3, Qwen3 MoE, Gemma 2, Gemma 3: see `graph_family`), the allocator is replayed over
/// that graph: every tensor's size, the in-place reuse and the best-fit placement with its holes, so
/// the figure is llama.cpp's own (all 1968 traced points to the logged 0.01 MiB). The replay is of the graph as
/// one backend allocates it (the traced CPU reservation); with CUDA the inputs stay in host memory
/// and are copied to the GPU at the start of its split (`ggml-backend.cpp`,
/// `ggml_backend_sched_split_graph`), which is not modelled.
///
/// Otherwise (latent attention, hybrids, Gemma 3n / 4, gpt-oss, shared experts, …) the max of
/// three phases, each the tensors alive at once (f32 activations, `unit(w) = w·ubatch·4`):
///
/// - **output**: the logits `n_vocab × n_outputs` f32 (`build_inp_out_ids` keeps `n_outputs` rows
///   in the last layer, then `output_norm` and `output`) plus two `n_embd` rows per token still held
///   (the embedding input and the last residual);
/// - **FFN** (every layer; the allocator frees a layer's intermediates before the next, so depth
///   does not matter): `ffn_gate`, `ffn_up` and the SwiGLU product, `3·unit(n_ff)`; the residual,
///   the normed input and the attention output, `3·unit(n_embd)`; and what the attention leaves:
///   with flash attention its `n_head·head_dim` output rows (`ggml_flash_attn_ext`,
///   `src/llama-graph.cpp::build_attn_mha`), without it the K and V rows (`2·unit(n_kv·head_dim)`).
///   A MoE FFN (`build_moe_ffn`) counts `n_ff_exp·n_expert_used` for `n_ff` (the `mul_mat_id`
///   gate, up and SwiGLU of the selected experts) and adds the down projection's output,
///   `n_embd × n_expert_used` rows per token before they are weighted and summed
///   (`ffn_moe_down`, the largest MoE tensor);
/// - **attention without flash attention**: the scores `kq = mul_mat(k, q)` of
///   `n_kv × n_tokens/n_stream × n_head × n_stream` f32, which `ggml_soft_max_ext` overwrites in
///   place (`ggml_op_can_inplace`), plus `unit(3·n_embd + 2·n_head·head_dim + 2·n_kv·head_dim)`
///   (residual, normed input, Q, K, V).
///
/// The KQ masks are inputs alive over the whole graph: `n_kv × n_tokens/n_stream × n_stream`
/// (`build_attn_inp_kq_mask`), f16 with flash attention, f32 without; a sliding-window model has a
/// second one over its window's cells. Per stream: `-np` slots without `--kv-unified` split the
/// cells, so the mask and scores scale with one stream's cells, not the total. The formula does
/// not see the allocator's holes: on the traced families it was up to 13 % off (Mistral Nemo,
/// whose `n_embd` differs from `n_head·head_dim`), which is what the replay removed.
pub fn compute_buffer_bytes(s: &ComputeShape) -> u64 {
    match s.graph_spec() {
        Some(spec) => replay_memo(&spec),
        None => phases_formula(s),
    }
}

/// Replays remembered per thread: an estimate evaluates the same few shapes over and over (every
/// card of the recommendation, every plan of a bisection at one context), each replay costs
/// about 10 µs, the formula nothing.
fn replay_memo(spec: &GraphSpec) -> u64 {
    use std::cell::RefCell;
    const SLOTS: usize = 64;
    thread_local! {
        static MEMO: RefCell<(Vec<(GraphSpec, u64)>, usize)> = const { RefCell::new((Vec::new(), 0)) };
    }
    MEMO.with(|m| {
        if let Some(&(_, bytes)) = m.borrow().0.iter().find(|(k, _)| k == spec) {
            return bytes;
        }
        let bytes = graph_alloc::compute_buffer(spec);
        let mut m = m.borrow_mut();
        let (slots, next) = &mut *m;
        if slots.len() < SLOTS {
            slots.push((*spec, bytes));
        } else {
            slots[*next] = (*spec, bytes);
            *next = (*next + 1) % SLOTS;
        }
        bytes
    })
}

/// The max-of-phases formula, for the families `graph_alloc` does not build.
fn phases_formula(s: &ComputeShape) -> u64 {
    let ub = s.ubatch;
    let unit = |w: u64| prod(&[w, ub, 4]);
    let q = mul(s.heads, s.head_dim);
    let kv = mul(s.kv_heads, s.head_dim);
    let mask_cells = add(s.cells_per_stream, s.swa_cells_per_stream.unwrap_or(0));
    let mask = prod(&[mask_cells, ub, if s.flash_attn { 2 } else { 4 }]);
    let output = add(prod(&[s.vocab, s.outputs, 4]), unit(mul(2, s.hidden)));
    let ffn = sum([
        mask,
        unit(mul(3, s.n_ff)),
        unit(mul(3, s.hidden)),
        if s.flash_attn {
            unit(q)
        } else {
            unit(mul(2, kv))
        },
        unit(mul(s.experts_used, s.hidden)),
    ]);
    let attention = if s.flash_attn {
        0
    } else {
        sum([
            prod(&[s.cells_per_stream, ub, s.heads, 4]),
            mask,
            unit(sum([mul(3, s.hidden), mul(2, q), mul(2, kv)])),
        ])
    };
    output.max(ffn).max(attention)
}

/// The layer structure `graph_alloc` replays for this model, if it builds exactly this one:
/// Llama / Mistral (`src/models/llama.cpp`, without a sliding window: llama.cpp's `llama`
/// architecture has none), Mixtral (the same file's MoE branch), Qwen2, Qwen3, Qwen3 MoE and
/// Gemma 2 (its window on even layers) and Gemma 3 (`src/models/gemma3.cpp`, its window on five
/// layers of six), text-only — Gemma 3 with its vision tower too: llama.cpp runs that tower from a
/// separate `mmproj` file (`tools/mtmd`), and the language model is the same `gemma3` graph.
/// Anything else — other families, vision-language models, latent attention, hybrid recurrent
/// layers, shared experts, leading dense layers, routers or experts with biases, per-layer
/// embeddings, Gemma 3n / 4, gpt-oss — keeps the formula.
fn graph_family(a: &crate::inputs::model::ModelArch) -> Option<GraphFamily> {
    use crate::inputs::model::Family;
    let plain = a.mla.is_none()
        && a.hybrid.is_none()
        && a.global_attention.is_none()
        && a.per_layer_inputs.is_none()
        && a.kv_shared_layers == 0
        && !a.qk_norm
        // Vision-language models are other llama.cpp architectures (`qwen2vl`, `qwen3vl` with
        // M-RoPE positions and DeepStack, `mllama` with cross-attention, `mistral3`, …); Gemma 3's
        // is `gemma3` with a separate `mmproj`.
        && (a.vision.is_none() || a.family == Family::Gemma3);
    let plain_moe = a.moe.is_none_or(|m| {
        m.shared_intermediate == 0
            && m.first_dense_layers == 0
            && m.moe_every <= 1
            && !m.router_bias
            && !m.expert_bias
            && m.active >= 1
            && m.experts >= m.active
    });
    if !plain || !plain_moe {
        return None;
    }
    match (a.family, a.moe.is_some(), a.sliding_window) {
        (Family::Llama | Family::Mistral, false, None) | (Family::Mixtral, true, None) => {
            Some(GraphFamily::Llama)
        }
        (Family::Qwen2, false, None) => Some(GraphFamily::Qwen2),
        (Family::Qwen3, false, None) | (Family::Qwen3Moe, true, None) => Some(GraphFamily::Qwen3),
        (Family::Gemma2, false, Some(w)) if w.global_every == 2 => Some(GraphFamily::Gemma2),
        (Family::Gemma3, false, Some(w)) if w.global_every == 6 => Some(GraphFamily::Gemma3),
        _ => None,
    }
}

/// The embedding rows of one ubatch (`n_embd × ubatch` f32), which a CUDA build keeps in its
/// host buffer: `token_embd` stays in host RAM, so `get_rows` runs in a first CPU split and its
/// output, with the graph's inputs, sits in `CUDA_Host` (`ggml_backend_sched_backend_id_from_cur`),
/// where the CPU replay holds them in the one buffer it has. On public single-GPU CUDA logs the
/// CUDA0 compute buffer is the replay less exactly this at the logits peak, and 4 MiB less again
/// at an older build's K·Q peak (tests/calibration/llama_cpp_cuda_buffers.md). Several cards pass
/// the residual between them, so only a single card gains it.
pub fn embedding_rows_on_host(hidden: u64, ubatch: u64) -> u64 {
    prod(&[hidden, ubatch, 4])
}

/// Flash attention over a quantised K or V cache converts the cache to F16 first; since ggml
/// `f64a9cc5` (llama.cpp #23907, June 2026) the CUDA backend reserves those copies in the compute
/// buffer (before, they came from its pool, outside the figure): `cells × n_embd_k_gqa × 2` for
/// a quantised K and the same for V, once per device (one layer at a time).
pub fn fa_f16_copies(
    a: &crate::inputs::model::ModelArch,
    cells: u64,
    quantized_k: bool,
    quantized_v: bool,
) -> u64 {
    let width = match a.mla {
        Some(m) => u64::from(m.kv_lora_rank) + u64::from(m.qk_rope_head_dim),
        None => mul(u64::from(a.kv_heads), u64::from(a.head_dim)),
    };
    let one = prod(&[cells, width, 2]);
    add(
        if quantized_k { one } else { 0 },
        if quantized_v && a.mla.is_none() {
            one
        } else {
            0
        },
    )
}

/// Each device's run of layers `[lo, hi)` under llama.cpp's default split by free memory: layer
/// `il` of the `ngl` offloaded (from `gpu_start`) goes to the first device whose cumulative share
/// of the free memory exceeds `(il − gpu_start) / ngl`. A device given no layer holds an empty run.
fn split_bounds(free: &[u64], gpu_start: u64, ngl: u64, n_layer: u64) -> Vec<(u64, u64)> {
    let total: f64 = free.iter().map(|&f| f as f64).sum::<f64>().max(1.0);
    let mut cumulative = Vec::with_capacity(free.len());
    let mut running = 0.0;
    for &f in free {
        running += f as f64 / total;
        cumulative.push(running);
    }
    let last = free.len().saturating_sub(1);
    let device_of = |il: u64| {
        let x = (il - gpu_start) as f64 / ngl.max(1) as f64;
        cumulative.iter().position(|&c| c > x).unwrap_or(last)
    };
    let mut bounds = vec![(n_layer, n_layer); free.len()];
    for il in gpu_start..n_layer {
        let (lo, hi) = &mut bounds[device_of(il)];
        if *lo == n_layer {
            *lo = il;
        }
        *hi = il + 1;
    }
    bounds
}

/// A draft model's buffers on each card under llama.cpp.
#[derive(Clone, Copy, Debug, Default)]
struct DraftBuffers {
    weights: u64,
    kv: u64,
    compute: u64,
}

/// `llama-server -md`: the draft model loads on the same cards (`-ngld` all layers, `-devd` the
/// main devices, split as the target) and every slot gets its own draft context
/// (`server_context::init`: `slot.ctx_dft = llama_init_from_model(model_dft, cparams_dft)`) of
/// `n_ctx / n_parallel` cells (`-cd` unset), one sequence, f16 cache (`-ctkd`/`-ctvd`), each with
/// its own compute buffer. Weights and caches are spread over the cards evenly; each card is
/// given every context's whole compute buffer (a layer split gives each card a graph of its own).
fn draft_buffers(d: &Draft, l: &LlamaCpp, n_ctx: u64, n_seq: u64, devices: u64) -> DraftBuffers {
    let a = &d.arch;
    let slot_ctx = pad256((n_ctx / n_seq.max(1)).max(1));
    let per_cell = kv_cache::per_sequence(a, 1, 1, 16);
    let kv = prod(&[per_cell, slot_ctx, n_seq]);
    let ub = u64::from(l.n_ubatch)
        .min(u64::from(l.n_batch))
        .min(slot_ctx)
        .max(1);
    let shape = ComputeShape {
        cells_per_stream: slot_ctx,
        ubatch: ub,
        outputs: ub,
        flash_attn: l.flash_attn,
        ..ComputeShape::of_model(a)
    };
    DraftBuffers {
        weights: d.weights_per_gpu(1).div_ceil(devices.max(1)),
        kv: kv.div_ceil(devices.max(1)),
        compute: mul(compute_buffer_bytes(&shape), n_seq),
    }
}

/// One GPU's budget (the fullest of the `devices` cards) under llama.cpp. Layers are placed as
/// runs: each device's weights come from the footprint's running sums and its KV from the counts
/// of global and local layers in its run, so the work does not grow with the depth.
pub fn llama_cpp_budget(l: &LlamaCpp, inp: &BudgetInputs, card: &Card) -> GpuBudget {
    layout(l, inp, card).0
}

/// Every card's components under llama.cpp, in device order (what `llama_cpp_budget` reports
/// for the fullest of them).
pub fn device_components(l: &LlamaCpp, inp: &BudgetInputs, card: &Card) -> Vec<Vec<Component>> {
    layout(l, inp, card).1
}

/// The device of each run of layers, and every device's total: runs of equal length for cards of
/// one kind; for a mixed machine llama.cpp's default split (`llama_model::load_tensors`): each
/// device's share is its free memory over the sum, and layer `il` goes to the first device whose
/// cumulative share exceeds `il / n_gpu_layers` (`std::upper_bound` over the cumulative splits).
/// The budget reported is the fullest device's: by bytes, or for a mixed machine by bytes over
/// its free memory.
fn layout(l: &LlamaCpp, inp: &BudgetInputs, card: &Card) -> (GpuBudget, Vec<Vec<Component>>) {
    let a = inp.arch;
    let devices = inp.tp();
    let n_layer = u64::from(a.layers);
    let n_seq = u64::from(
        l.n_parallel
            .unwrap_or(u32::try_from(inp.sequences).unwrap_or(u32::MAX)),
    )
    .max(1);
    let n_ctx = l.n_ctx.map_or(mul(inp.context_tokens, n_seq), u64::from);
    let ngl = l
        .n_gpu_layers
        .map_or(n_layer + 1, u64::from)
        .min(n_layer + 1);
    let gpu_start = n_layer + 1 - ngl;
    let output_on_gpu = ngl >= 1;
    let gpu_layers = n_layer - gpu_start.min(n_layer);
    // Contiguous runs of GPU layers per device; device d holds layers [start + d·share, …), the
    // last device whatever remains.
    let share = gpu_layers.div_ceil(devices).max(1);
    let free = inp
        .device_free
        .filter(|f| f.len() as u64 == devices && devices > 1);
    let bounds = free.map(|f| split_bounds(f, gpu_start, ngl, n_layer));
    let run = |d: u64| {
        if let Some(b) = &bounds {
            return b[d as usize];
        }
        let lo = gpu_start.saturating_add(d.saturating_mul(share));
        let hi = if d + 1 >= devices {
            n_layer
        } else {
            gpu_start.saturating_add((d + 1).saturating_mul(share))
        };
        (lo.min(n_layer), hi.min(n_layer))
    };

    // Weights per device and on the host.
    let fp = inp.footprint;
    let outer = fp.outer();
    let last = devices as usize - 1;
    // `--cpu-moe` / `--n-cpu-moe N`: the routed experts of layers 0..moe_end stay in host RAM
    // (the override patterns `blk.i.ffn_(up|down|gate)_exps` of `common/arg.cpp`); layers already
    // on the CPU (`-ngl`) hold theirs there anyway.
    let moe_end = u64::from(l.cpu_moe_layers(a.layers));
    let host_experts_in = |lo: u64, hi: u64| fp.expert_bytes(lo, hi.min(moe_end));
    let mut dev_weights: Vec<u64> = (0..devices)
        .map(|d| {
            let (lo, hi) = run(d);
            fp.layer_bytes(lo, hi)
                .saturating_sub(host_experts_in(lo, hi))
        })
        .collect();
    let host_experts = host_experts_in(gpu_start, n_layer);
    let mut host = sum([
        fp.layer_bytes(0, gpu_start),
        host_experts,
        outer.token_embd,
        outer.vision,
    ]);
    let output_weight = outer.output;
    if output_on_gpu {
        dev_weights[last] = sum([dev_weights[last], outer.other, output_weight]);
    } else {
        host = sum([host, outer.other, output_weight]);
    }

    // KV cells and bytes per layer.
    let cells = if l.kv_unified || n_seq == 1 {
        pad256(n_ctx)
    } else {
        mul(n_seq, pad256(pad256(n_ctx) / n_seq))
    };
    let ub = u64::from(l.n_ubatch)
        .min(u64::from(l.n_batch))
        .min(n_ctx)
        .max(1);
    let (bits_k, bits_v) = (l.cache_type_k.bits(), l.cache_type_v.bits());
    let per_cell_layer = match a.mla {
        Some(m) => (mul(
            u64::from(m.kv_lora_rank) + u64::from(m.qk_rope_head_dim),
            bits_k,
        ))
        .div_ceil(8),
        None => {
            let w = mul(u64::from(a.kv_heads), u64::from(a.head_dim));
            add(mul(w, bits_k).div_ceil(8), mul(w, bits_v).div_ceil(8))
        }
    };
    // Gemma 4's full-attention layers: their own KV heads and head width
    // (`llama_hparams::n_embd_k_gqa(il)` / `n_embd_v_gqa(il)`). Without flash attention the V
    // cache is transposed and every layer's V row is padded to the widest one
    // (`llama_kv_cache`: `v_trans ? n_embd_v_gqa_max() : n_embd_v_gqa(il)`, [TAG_V_CACHE_VARIABLE]).
    let (per_cell_layer, per_cell_global) = match a.global_attention.filter(|_| a.mla.is_none()) {
        Some(g) => {
            let local_w = mul(u64::from(a.kv_heads), u64::from(a.head_dim));
            let global_w = mul(u64::from(g.kv_heads), u64::from(g.head_dim));
            let max_w = local_w.max(global_w);
            let v_w = |w: u64| if l.flash_attn { w } else { max_w };
            let cell = |w: u64| add(mul(w, bits_k).div_ceil(8), mul(v_w(w), bits_v).div_ceil(8));
            (cell(local_w), cell(global_w))
        }
        None => (per_cell_layer, per_cell_layer),
    };
    let streams = if l.kv_unified { 1 } else { n_seq };
    let swa_cells = a.sliding_window.map_or(cells, |w| {
        let per_stream = add(
            mul(u64::from(w.window), if l.kv_unified { n_seq } else { 1 }),
            ub,
        );
        mul(pad256(per_stream.min(cells / streams)), streams).min(cells)
    });
    // KV of the self-attention layers lo..hi: global ones hold every cell, local ones the window.
    let n_sa = u64::from(a.self_attention_layers());
    let kv_of = |lo: u64, hi: u64| {
        let (lo, hi) = if a.hybrid.is_some() {
            (lo.min(n_layer), hi.min(n_layer))
        } else {
            (lo.min(n_sa), hi.min(n_sa))
        };
        if hi <= lo {
            return 0;
        }
        // Both bounds are below the layer count, a u32.
        let attention = a.attention_layers_in(lo as u32, hi as u32);
        let local = a.local_layers_in(lo as u32, hi as u32).min(attention);
        let global = attention - local;
        add(
            prod(&[global, cells, per_cell_global]),
            prod(&[local, swa_cells, per_cell_layer]),
        )
    };
    let dev_kv: Vec<u64> = (0..devices)
        .map(|d| {
            let (lo, hi) = run(d);
            kv_of(lo, hi)
        })
        .collect();
    let host_kv = kv_of(0, gpu_start);
    // Recurrent states: f32 rows, one per sequence, on the layer's device.
    let rs_storage = StateStorage {
        full_window: false,
        conv_bytes: 4,
        ssm_bytes: 4,
    };
    let rs_of = |lo: u64, hi: u64| {
        let (lo, hi) = (lo.min(n_layer) as u32, hi.min(n_layer) as u32);
        mul(state_in_layers(a, lo, hi, 1, rs_storage), n_seq)
    };
    let dev_rs: Vec<u64> = (0..devices)
        .map(|d| {
            let (lo, hi) = run(d);
            rs_of(lo, hi)
        })
        .collect();
    let host_rs = rs_of(0, gpu_start);

    // Compute buffer.
    let e = u64::from(a.hidden);
    let unit = prod(&[e, ub, 4]);
    let n_out = if l.server { n_seq.min(ub) } else { ub };
    let cells_per_stream = cells / streams;
    let shape = ComputeShape {
        cells_per_stream,
        swa_cells_per_stream: a.sliding_window.map(|_| swa_cells / streams),
        ubatch: ub,
        outputs: n_out,
        flash_attn: l.flash_attn,
        streams,
        seqs: n_seq,
        quantized_k: bits_k < 16,
        quantized_v: bits_v < 16,
        ..ComputeShape::of_model(a)
    };
    // The device holding the output layer has the logits phase; the others the layers' phases.
    let with_output = compute_buffer_bytes(&shape);
    let layers_only = compute_buffer_bytes(&ComputeShape {
        vocab: 0,
        outputs: 0,
        ..shape
    });
    let mask = prod(&[cells_per_stream, ub, if l.flash_attn { 2 } else { 4 }]);
    // Pipeline parallelism (its extra copies of the inputs) is off when tensors are overridden,
    // as `--cpu-moe` / `--n-cpu-moe` do (`llama_context`: no pipeline parallel with overrides).
    let pipeline = devices > 1 && ngl > n_layer && moe_end == 0;
    // A matrix product whose weight sits in host RAM runs on the GPU when its batch is at least
    // 32 rows (ggml-cuda's `offload_op`); the scheduler copies the weight into the GPU's compute
    // buffer, one weight per split (`ggml_backend_sched_split_graph` starts a new split at each
    // such weight, "so the memory of the previously offloaded weights can be reused"). The output
    // layer left on the CPU, or the largest expert tensor kept there, is that copy.
    let offloads = ub >= 32;
    let staged_output = if !output_on_gpu && offloads {
        output_weight
    } else {
        0
    };
    let staged_expert = if host_experts > 0 && offloads {
        fp.largest_expert_tensor()
    } else {
        0
    };
    let staged_output = staged_output.max(staged_expert);
    // What a CUDA device holds that the CPU replay does not, and the reverse.
    let on_host = if devices == 1 && output_on_gpu {
        embedding_rows_on_host(e, ub)
    } else {
        0
    };
    let f16_copies = if l.flash_attn {
        fa_f16_copies(a, cells, bits_k < 16, bits_v < 16)
    } else {
        0
    };
    let compute_of = |d: u64| {
        let last = d == devices - 1;
        let peak = if last && output_on_gpu {
            with_output.saturating_sub(on_host)
        } else {
            layers_only
        };
        let staged = if d == 0 { staged_output } else { 0 };
        let pp = if pipeline { mul(3, add(unit, mask)) } else { 0 };
        sum([peak, staged, pp, f16_copies])
    };
    let cublas = match card.arch {
        Some(GpuArch::Hopper | GpuArch::Blackwell) | None => 32 * MIB,
        _ => 4 * MIB,
    };
    let draft = inp.draft.map_or(DraftBuffers::default(), |dr| {
        draft_buffers(dr, l, n_ctx, n_seq, devices)
    });
    let device_components = |d: u64| {
        components(&[
            (ComponentId::Weights, dev_weights[d as usize]),
            (ComponentId::DraftWeights, draft.weights),
            (ComponentId::KvCache, dev_kv[d as usize]),
            (ComponentId::DraftKvCache, draft.kv),
            (ComponentId::RecurrentState, dev_rs[d as usize]),
            (ComponentId::Activations, compute_of(d)),
            (ComponentId::DraftActivations, draft.compute),
            (ComponentId::CudaContext, inp.cuda_context_bytes),
            (ComponentId::CublasWorkspace, cublas),
        ])
    };
    let per_device: Vec<Vec<Component>> = (0..devices).map(device_components).collect();
    let totals: Vec<u64> = per_device.iter().map(|c| crate::budget::total(c)).collect();
    // The fullest device: by bytes, or over its free memory on a mixed machine.
    let d = match free {
        Some(f) => (0..devices)
            .max_by(|&a, &b| {
                let fill = |i: u64| totals[i as usize] as f64 / f[i as usize].max(1) as f64;
                fill(a).total_cmp(&fill(b))
            })
            .unwrap_or(0),
        None => (0..devices)
            .max_by_key(|&i| totals[i as usize])
            .unwrap_or(0),
    };
    let kv_total = add(sum(dev_kv.iter().copied()), host_kv);
    let host_compute = add(unit, mask);
    let output_buffer = prod(&[u64::from(a.vocab), 4, n_seq]);
    let budget = GpuBudget {
        components: per_device[d as usize].clone(),
        report: Some(KvReport {
            kv_cache_bytes: kv_total,
            kv_cache_tokens: cells,
            max_concurrency: ratio(cells, (n_ctx / n_seq).max(1)),
            budget_bytes: None,
            state_bytes: add(sum(dev_rs.iter().copied()), host_rs),
            estimated_inside: 0,
        }),
        host_bytes: sum([host, host_kv, host_rs, host_compute, output_buffer]),
        failure: None,
        preallocates: false,
        phase: None,
    };
    (budget, per_device)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn family(id: &str) -> Option<GraphFamily> {
        graph_family(&crate::inputs::catalog::model(id).expect(id).arch)
    }

    /// The replay is used exactly for the graphs it builds; everything else keeps the formula.
    #[test]
    fn replayed_families() {
        assert_eq!(family("llama-3.1-8b-instruct"), Some(GraphFamily::Llama));
        assert_eq!(family("qwen3-30b-a3b"), Some(GraphFamily::Qwen3));
        assert_eq!(family("gemma-3-27b-it"), Some(GraphFamily::Gemma3));
        assert_eq!(family("gemma-3-1b-it"), Some(GraphFamily::Gemma3));
        for id in ["deepseek-v3", "gpt-oss-20b"] {
            assert_eq!(family(id), None, "{id}");
        }
        let vl: Vec<_> = crate::inputs::catalog::models()
            .filter(|m| {
                m.arch.vision.is_some()
                    && m.arch.family != crate::inputs::model::Family::Gemma3
                    && graph_family(&m.arch).is_some()
            })
            .map(|m| m.id)
            .collect();
        assert!(vl.is_empty(), "{vl:?}");
    }
}
