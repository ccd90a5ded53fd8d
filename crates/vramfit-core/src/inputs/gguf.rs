//! Exact storage of GGUF files as `llama-quantize` writes them.
//!
//! **Bytes of one tensor**: `ceil(elements / blck_size) * type_size`, where
//! `blck_size` / `type_size` are the ggml type traits (`ggml/src/ggml.c`,
//! table `type_traits[]`, `.type_size = sizeof(block_*)`) and the block structs
//! are in `ggml/src/ggml-common.h` (e.g. `block_q4_K` = 2+2 B scales + 12 B
//! sub-scales + 128 B quants = 144 B per `QK_K` = 256 elements = 4.5 bpw). Rows are
//! whole blocks (`ggml_row_size`), so for valid shapes the ceiling is exact.
//! The file adds a metadata header (≈ 7.8 MB for Llama 3 tokenizers) and pads
//! each tensor to 32 B (`GGUF_DEFAULT_ALIGNMENT`).
//!
//! **Type per tensor**: reproduced from ggml-org/llama.cpp `src/llama-quant.cpp`
//! (commit 007dbbf3fd17, read 2026):
//! - `tensor_allows_quantization`: only ≥ 2-D tensors named `*weight` are
//!   quantised, never `*_norm.weight` or the MoE router `ffn_gate_inp.weight`.
//!   Those keep the converter's type, which is F32 (`convert_hf_to_gguf.py`,
//!   `ModelBase.prepare_tensors`: 1-D, `_norm.weight`, `FFN_GATE_INP` and
//!   non-`.weight` tensors → F32).
//! - `llama_ftype_get_default_type`: preset → base type (Q4_K_M → Q4_K, …).
//!   F16/BF16 are not quantised types, so no per-tensor rule applies to them
//!   (`llama_tensor_get_type`: rules only `if ggml_is_quantized(default_type)`).
//! - `llama_tensor_get_type_impl`, per category (`tensor_get_category`):
//!   - `output.weight`: Q8_0 if `ne0 % blck(base) != 0`; else Q8_0 stays Q8_0
//!     and every other base (Q4_0 included) becomes Q6_K.
//!   - `token_embd` (untied): base type for every preset here. A *tied*
//!     embedding is quantised like `output` — pass [`GgufTensor::Output`].
//!   - attn_v, attn_qkv, attn_kv_b (`category_is_attn_v`): Q2_K → Q4_K if
//!     `n_gqa >= 4` else Q3_K; Q3_K_M → Q5_K for the first 2, then Q4_K;
//!     Q3_K_L → Q5_K; IQ4_XS with `n_gqa >= 4` → Q5_K; Q4_K_M/Q5_K_M → Q6_K
//!     where `use_more_bits`; Q4_K_S → Q5_K for the first 4. Then for
//!     `LLM_TYPE_70B` Q3_K/Q4_K → Q5_K; then `n_expert == 8` → Q8_0.
//!   - attn_k: `n_expert == 8` → Q8_0.
//!   - ffn_down (also `_exps`, `_shexp`): Q2_K → Q3_K; Q3_K_M → Q5_K if
//!     `i < n/16` else Q4_K; Q3_K_L → Q5_K; Q4_K_M/Q5_K_M → Q6_K where
//!     `use_more_bits`; IQ4_XS without imatrix → Q5_K if `i < n/8`; Q4_K_S →
//!     Q5_K if `i < n/8`; Q4_0 with imatrix → Q4_1 if `i < n/8`.
//!   - attn_output: `n_expert == 8` → Q5_K for Q2_K, Q3_K_S, Q3_K_M, Q4_K_S,
//!     Q4_K_M, IQ4_XS; otherwise Q2_K → Q3_K, Q3_K_M → Q4_K, Q3_K_L → Q5_K.
//!   - `use_more_bits(i, n) = i < n/8 || i >= 7n/8 || (i - n/8) % 3 == 2`.
//! - `tensor_type_fallback`: if `ne0 % blck(type) != 0`, IQ1/IQ2/IQ3/IQ4_XS →
//!   IQ4_NL, Q2_K/Q3_K → Q4_0, Q4_K → Q5_0, Q5_K → Q5_1, Q6_K → Q8_0; if that
//!   still does not divide `ne0`, F16. (For types with no fallback llama.cpp
//!   aborts; we answer F16.)
//!
//! Layer index: llama.cpp counts attn_v-like tensors (`i_attention_wv`, tensors
//! sorted by layer in `llama-model-loader.h` `weight_name_comparer`) and
//! ffn_down tensors (`i_ffn_down`, or the `blk.N.` number when `n_expert > 1`);
//! with one attention and one FFN per block both are [`GgufContext::layer`].
//! Not modelled: Falcon-specific branches, user overrides (`--pure`,
//! `--tensor-type`, `--output-tensor-type`, `--token-embedding-type`).
//! `LLM_TYPE_70B` is inferred as `n_layers == 80 && n_gqa > 1`, as
//! `llama_quant_model_from_metadata` does for Llama (Qwen2/Deci also map 80
//! layers to 70B in `llama-model.cpp`). attn_qkv goes through the attn_v branch
//! because `category_is_attn_v` matches first (its own later branch is unreachable).
//!
//! Checked in the tests: published Llama-3.1-8B (8 presets), Llama-3.2-3B (tied)
//! and Llama-3.x-70B files are reproduced to the byte, less a constant ≈ 7.8 MB header.

use serde::{Deserialize, Serialize};

/// Declares a fieldless enum whose variants each carry one row of a constant
/// table (reached through the private `row()`), one line per variant.
macro_rules! table_enum {
    ($(#[$m:meta])* pub enum $name:ident: $row:ty { $($v:ident => $val:expr, $doc:literal;)* }) => {
        $(#[$m])*
        pub enum $name { $(#[doc = $doc] $v,)* }
        impl $name {
            /// This variant's row of the table.
            const fn row(self) -> $row { match self { $(Self::$v => $val,)* } }
        }
    };
}

table_enum! {
    /// A ggml tensor type. Row: `(type_name, blck_size, type_size)` from ggml's `type_traits[]`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum GgmlType: (&'static str, u64, u64) {
        F32 => ("f32", 1, 4), "IEEE float32.";
        F16 => ("f16", 1, 2), "IEEE float16.";
        Bf16 => ("bf16", 1, 2), "bfloat16.";
        Q8_0 => ("q8_0", 32, 34), "8-bit, blocks of 32 with an f16 scale (8.5 bpw).";
        Q6K => ("q6_k", 256, 210), "6-bit k-quant (6.5625 bpw).";
        Q5K => ("q5_k", 256, 176), "5-bit k-quant (5.5 bpw).";
        Q4K => ("q4_k", 256, 144), "4-bit k-quant (4.5 bpw).";
        Q3K => ("q3_k", 256, 110), "3-bit k-quant (3.4375 bpw).";
        Q2K => ("q2_k", 256, 84), "2-bit k-quant (2.625 bpw).";
        Q4_0 => ("q4_0", 32, 18), "Legacy 4-bit, scale only (4.5 bpw).";
        Q4_1 => ("q4_1", 32, 20), "Legacy 4-bit, scale and min (5 bpw).";
        Q5_0 => ("q5_0", 32, 22), "Legacy 5-bit, scale only (5.5 bpw).";
        Q5_1 => ("q5_1", 32, 24), "Legacy 5-bit, scale and min (6 bpw).";
        Iq4Xs => ("iq4_xs", 256, 136), "Non-linear 4-bit i-quant (4.25 bpw).";
        Iq4Nl => ("iq4_nl", 32, 18), "Non-linear 4-bit, blocks of 32 (4.5 bpw).";
        Iq3Xxs => ("iq3_xxs", 256, 98), "3-bit i-quant (3.0625 bpw).";
        Iq3S => ("iq3_s", 256, 110), "3-bit i-quant (3.4375 bpw).";
        Iq2Xxs => ("iq2_xxs", 256, 66), "2-bit i-quant (2.0625 bpw).";
        Iq2Xs => ("iq2_xs", 256, 74), "2-bit i-quant (2.3125 bpw).";
        Iq2S => ("iq2_s", 256, 82), "2-bit i-quant (2.5625 bpw).";
        Iq1S => ("iq1_s", 256, 50), "1-bit i-quant (1.5625 bpw).";
        Mxfp4 => ("mxfp4", 32, 17), "OCP microscaling FP4, E8M0 scale per 32 (4.25 bpw).";
    }
}

impl GgmlType {
    /// Elements per block (`blck_size`): 256 for k- and most i-quants, 32 for
    /// legacy quants, IQ4_NL and MXFP4, 1 for floats.
    pub fn block_elems(self) -> u64 {
        self.row().1
    }

    /// Bytes per block (`type_size`), e.g. 144 for Q4_K, 34 for Q8_0.
    pub fn block_bytes(self) -> u64 {
        self.row().2
    }

    /// Bytes for `elements` values in whole blocks:
    /// `ceil(elements / block_elems) * block_bytes`.
    pub fn bytes_for(self, elements: u64) -> u64 {
        elements
            .div_ceil(self.block_elems())
            .saturating_mul(self.block_bytes())
    }

    /// Lower-case ggml type name ("q4_k", "q8_0", "iq4_xs", …); also its serde name.
    pub fn id(self) -> &'static str {
        self.row().0
    }

    /// Whether ggml counts this as a quantised (block) type.
    fn is_quantized(self) -> bool {
        self.block_elems() > 1
    }
}

table_enum! {
    /// A quantisation preset as `llama-quantize` names it (`Q4_K_M`, the file-name suffix users
    /// see): the rule that picks a [`GgmlType`] for each tensor of a model.
    ///
    /// It is not a storage format by itself but the payload of `WeightFormat::Gguf`, which costs
    /// it tensor by tensor; `PipelinePartFormat`'s GGUF entries are flat rates of one type instead.
    /// Row: `(name, base type from llama_ftype_get_default_type)`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum GgufPreset: (&'static str, GgmlType) {
        F16 => ("f16", GgmlType::F16), "`F16`: every quantisable tensor in float16.";
        Bf16 => ("bf16", GgmlType::Bf16), "`BF16`: every quantisable tensor in bfloat16.";
        Q8_0 => ("q8_0", GgmlType::Q8_0), "`Q8_0`: Q8_0 throughout.";
        Q6K => ("q6_k", GgmlType::Q6K), "`Q6_K`: Q6_K throughout.";
        Q5KM => ("q5_k_m", GgmlType::Q5K), "`Q5_K_M`: Q5_K, Q6_K for half of attn_v / ffn_down.";
        Q5KS => ("q5_k_s", GgmlType::Q5K), "`Q5_K_S`: Q5_K, Q6_K output.";
        Q4KM => ("q4_k_m", GgmlType::Q4K), "`Q4_K_M`: Q4_K, Q6_K for half of attn_v / ffn_down.";
        Q4KS => ("q4_k_s", GgmlType::Q4K), "`Q4_K_S`: Q4_K, Q5_K for the first attn_v / ffn_down.";
        Q4_0 => ("q4_0", GgmlType::Q4_0), "`Q4_0`: legacy Q4_0, Q6_K output.";
        Q3KL => ("q3_k_l", GgmlType::Q3K), "`Q3_K_L`: Q3_K, Q5_K attn_v, attn_output, ffn_down.";
        Q3KM => ("q3_k_m", GgmlType::Q3K), "`Q3_K_M`: Q3_K, Q4_K+ attn_v, attn_output, ffn_down.";
        Q3KS => ("q3_k_s", GgmlType::Q3K), "`Q3_K_S`: Q3_K, Q6_K output.";
        Q2K => ("q2_k", GgmlType::Q2K), "`Q2_K`: Q2_K, Q3_K/Q4_K attn_v, attn_output, ffn_down.";
        Iq4Xs => ("iq4_xs", GgmlType::Iq4Xs), "`IQ4_XS`: IQ4_XS, Q5_K attn_v when GQA >= 4.";
    }
}

impl GgufPreset {
    /// Every preset, largest file first.
    pub const ALL: [GgufPreset; 14] = [
        Self::F16,
        Self::Bf16,
        Self::Q8_0,
        Self::Q6K,
        Self::Q5KM,
        Self::Q5KS,
        Self::Q4KM,
        Self::Q4KS,
        Self::Q4_0,
        Self::Iq4Xs,
        Self::Q3KL,
        Self::Q3KM,
        Self::Q3KS,
        Self::Q2K,
    ];

    /// Lower-case preset name ("q4_k_m", "q8_0", "iq4_xs", …); also its serde name.
    pub fn id(self) -> &'static str {
        self.row().0
    }

    /// Parses a preset name, ignoring case and surrounding space ("Q4_K_M", "q4_k_m").
    pub fn from_id(s: &str) -> Option<GgufPreset> {
        let s = s.trim();
        Self::ALL
            .into_iter()
            .find(|p| p.id().eq_ignore_ascii_case(s))
    }

    /// The type most tensors get (`llama_ftype_get_default_type`).
    pub fn base_type(self) -> GgmlType {
        self.row().1
    }
}

/// What a tensor is, in GGUF naming.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GgufTensor {
    /// `token_embd.weight` (untied; a tied embedding is quantised as [`Self::Output`]).
    TokenEmbd,
    /// `output.weight`, the LM head.
    Output,
    /// `attn_q.weight`.
    AttnQ,
    /// `attn_k.weight`.
    AttnK,
    /// `attn_v.weight`.
    AttnV,
    /// `attn_output.weight`.
    AttnOutput,
    /// `attn_kv_a_mqa.weight` (MLA down-projection).
    AttnKvA,
    /// `attn_kv_b.weight` (MLA up-projection; treated like attn_v).
    AttnKvB,
    /// `attn_q_a.weight` (MLA).
    AttnQA,
    /// `attn_q_b.weight` (MLA).
    AttnQB,
    /// `ffn_gate.weight`.
    FfnGate,
    /// `ffn_up.weight`.
    FfnUp,
    /// `ffn_down.weight`.
    FfnDown,
    /// `ffn_gate_exps.weight` (routed experts, 3-D).
    FfnGateExps,
    /// `ffn_up_exps.weight`.
    FfnUpExps,
    /// `ffn_down_exps.weight`.
    FfnDownExps,
    /// `ffn_gate_shexp.weight` (shared expert).
    FfnGateShexp,
    /// `ffn_up_shexp.weight`.
    FfnUpShexp,
    /// `ffn_down_shexp.weight`.
    FfnDownShexp,
    /// `ffn_gate_inp.weight`, the MoE router: never quantised.
    Router,
    /// Any `*_norm.weight`: 1-D, never quantised.
    Norm,
    /// Any `*.bias`: never quantised.
    Bias,
}

/// Where the tensor sits, for the per-layer rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GgufContext {
    /// Block index (0-based).
    pub layer: u32,
    /// Number of blocks.
    pub n_layers: u32,
    /// Query heads per KV head (`n_head / n_head_kv`).
    pub n_gqa: u32,
    /// Routed experts; 0 for dense models.
    pub n_expert: u32,
    /// `ne0`: elements per row (input features).
    pub row_len: u64,
}

/// The ggml type llama.cpp stores this tensor in for `preset`, quantised
/// without an importance matrix (plain `llama-quantize`).
pub fn tensor_type(preset: GgufPreset, tensor: GgufTensor, ctx: &GgufContext) -> GgmlType {
    tensor_type_imatrix(preset, tensor, ctx, false)
}

/// Like [`tensor_type`], saying whether an importance matrix was used
/// (`--imatrix`, as most published Hugging Face quants are made). It changes
/// only the first `n/8` ffn_down layers: IQ4_XS keeps IQ4_XS instead of Q5_K,
/// Q4_0 gets Q4_1 instead of Q4_0.
pub fn tensor_type_imatrix(
    preset: GgufPreset,
    tensor: GgufTensor,
    ctx: &GgufContext,
    imatrix: bool,
) -> GgmlType {
    use GgufTensor::{Bias, Norm, Router};
    if matches!(tensor, Router | Norm | Bias) {
        return GgmlType::F32;
    }
    let base = preset.base_type();
    if !base.is_quantized() {
        return base;
    }
    fallback(preset_rule(preset, tensor, ctx, imatrix), ctx.row_len)
}

/// What the per-layer rules read of a block's position: two blocks of one model with the same
/// class get the same type for every tensor, so a model's blocks are costed once per class.
pub fn layer_class(layer: u32, n_layers: u32) -> u8 {
    let (i, n) = (u64::from(layer), u64::from(n_layers));
    u8::from(use_more_bits(i, n))
        | u8::from(i < 2) << 1
        | u8::from(i < 4) << 2
        | u8::from(i < n / 16) << 3
        | u8::from(i < n / 8) << 4
}

/// `use_more_bits` from `llama_tensor_get_type_impl`.
fn use_more_bits(i: u64, n: u64) -> bool {
    i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2
}

/// `llama_tensor_get_type_impl`, restricted to the presets of [`GgufPreset`].
fn preset_rule(p: GgufPreset, tensor: GgufTensor, ctx: &GgufContext, imatrix: bool) -> GgmlType {
    use GgmlType as G;
    use GgufPreset as P;
    use GgufTensor as T;
    let base = p.base_type();
    let (i, n) = (u64::from(ctx.layer), u64::from(ctx.n_layers));
    let more = use_more_bits(i, n);
    let moe8 = ctx.n_expert == 8;
    match tensor {
        T::Output if !ctx.row_len.is_multiple_of(base.block_elems()) || base == G::Q8_0 => G::Q8_0,
        T::Output => G::Q6K,
        T::AttnV | T::AttnKvB => {
            let mut t = match p {
                P::Q2K if ctx.n_gqa >= 4 => G::Q4K,
                P::Q2K => G::Q3K,
                P::Q3KM if i < 2 => G::Q5K,
                P::Q3KM => G::Q4K,
                P::Q3KL => G::Q5K,
                P::Iq4Xs if ctx.n_gqa >= 4 => G::Q5K,
                P::Q4KM | P::Q5KM if more => G::Q6K,
                P::Q4KS if i < 4 => G::Q5K,
                _ => base,
            };
            // LLM_TYPE_70B: 8 heads share attn_v, so it is cheap to widen.
            if ctx.n_layers == 80 && ctx.n_gqa > 1 && matches!(t, G::Q3K | G::Q4K) {
                t = G::Q5K;
            }
            if moe8 {
                t = G::Q8_0;
            }
            t
        }
        T::AttnK if moe8 => G::Q8_0,
        T::FfnDown | T::FfnDownExps | T::FfnDownShexp => match p {
            P::Q2K => G::Q3K,
            P::Q3KM if i < n / 16 => G::Q5K,
            P::Q3KM => G::Q4K,
            P::Q3KL => G::Q5K,
            P::Q4KM | P::Q5KM if more => G::Q6K,
            P::Iq4Xs if i < n / 8 && !imatrix => G::Q5K,
            P::Q4KS if i < n / 8 => G::Q5K,
            P::Q4_0 if i < n / 8 && imatrix => G::Q4_1,
            _ => base,
        },
        T::AttnOutput if moe8 => match p {
            P::Q2K | P::Q3KS | P::Q3KM | P::Q4KS | P::Q4KM | P::Iq4Xs => G::Q5K,
            _ => base,
        },
        T::AttnOutput => match p {
            P::Q2K => G::Q3K,
            P::Q3KM => G::Q4K,
            P::Q3KL => G::Q5K,
            _ => base,
        },
        _ => base,
    }
}

/// `tensor_type_fallback`: a type whose block does not divide the row.
fn fallback(t: GgmlType, row_len: u64) -> GgmlType {
    use GgmlType as G;
    if row_len.is_multiple_of(t.block_elems()) {
        return t;
    }
    let alt = match t {
        G::Iq1S | G::Iq2Xxs | G::Iq2Xs | G::Iq2S | G::Iq3Xxs | G::Iq3S | G::Iq4Xs => G::Iq4Nl,
        G::Q2K | G::Q3K => G::Q4_0,
        G::Q4K => G::Q5_0,
        G::Q5K => G::Q5_1,
        G::Q6K => G::Q8_0,
        _ => return G::F16,
    };
    if row_len.is_multiple_of(alt.block_elems()) {
        alt
    } else {
        G::F16
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GgmlType as G;
    use GgufPreset as P;
    use GgufTensor as T;

    /// Context: layer, layers, GQA ratio, experts, row length.
    fn cx(layer: u32, n_layers: u32, n_gqa: u32, n_expert: u32, row_len: u64) -> GgufContext {
        GgufContext {
            layer,
            n_layers,
            n_gqa,
            n_expert,
            row_len,
        }
    }

    #[test]
    fn block_sizes_match_ggml() {
        let b = |t: G| (t.block_elems(), t.block_bytes());
        assert_eq!(
            [b(G::Q4K), b(G::Q6K), b(G::Q5K)],
            [(256, 144), (256, 210), (256, 176)]
        );
        assert_eq!(
            [b(G::Q3K), b(G::Q2K), b(G::Iq4Xs)],
            [(256, 110), (256, 84), (256, 136)]
        );
        assert_eq!(
            [b(G::Q8_0), b(G::Q4_0), b(G::F16)],
            [(32, 34), (32, 18), (1, 2)]
        );
        assert_eq!(G::Q4K.block_bytes() * 8 * 2, 9 * G::Q4K.block_elems()); // 4.5 bpw
        assert_eq!(G::Q4K.bytes_for(257), 288);
        assert_eq!(G::Q8_0.bytes_for(0), 0);
    }

    #[test]
    fn ids_parse_and_serialise() {
        for p in P::ALL {
            assert_eq!(P::from_id(&p.id().to_uppercase()), Some(p));
            let json = serde_json::to_string(&p).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", p.id()));
            let t = serde_json::to_string(&p.base_type()).unwrap_or_default();
            assert_eq!(t, format!("\"{}\"", p.base_type().id()));
        }
        assert_eq!(P::from_id(" Q4_K_M "), Some(P::Q4KM));
        assert_eq!(P::from_id("q4_k"), None);
    }

    /// Llama-3 dense model (vocab 128256, 8 KV heads): every tensor's bytes summed.
    /// A tied embedding is one tensor, quantised by the `output` rule.
    fn llama_bytes(p: P, imatrix: bool, tied: bool, n_layers: u32, hidden: u64, ffn: u64) -> u64 {
        let (kv, vocab) = (1024, 128_256); // 8 KV heads x 128
        let c = cx(0, n_layers, (hidden / kv) as u32, 0, hidden);
        let ty = |t, c: &GgufContext| tensor_type_imatrix(p, t, c, imatrix);
        // rope_freqs (64 x F32) + output_norm + output (+ token_embd when untied).
        let mut total = 64 * 4 + hidden * 4 + ty(T::Output, &c).bytes_for(hidden * vocab);
        if !tied {
            total += ty(T::TokenEmbd, &c).bytes_for(hidden * vocab);
        }
        for layer in 0..n_layers {
            let c = GgufContext { layer, ..c };
            let down = GgufContext { row_len: ffn, ..c };
            total += ty(T::AttnQ, &c).bytes_for(hidden * hidden)
                + ty(T::AttnK, &c).bytes_for(hidden * kv)
                + ty(T::AttnV, &c).bytes_for(hidden * kv)
                + ty(T::AttnOutput, &c).bytes_for(hidden * hidden)
                + ty(T::FfnGate, &c).bytes_for(hidden * ffn)
                + ty(T::FfnUp, &c).bytes_for(hidden * ffn)
                + ty(T::FfnDown, &down).bytes_for(hidden * ffn)
                + 2 * ty(T::Norm, &c).bytes_for(hidden);
        }
        total
    }

    /// Meta-Llama-3.1-8B-Instruct (32 layers, hidden 4096, 32/8 heads, ffn 14336).
    /// Published bytes: bartowski/Meta-Llama-3.1-8B-Instruct-GGUF, revision
    /// bf5b95e96dac (README: Q8_0 8.54GB, Q6_K 6.60GB, Q5_K_M 5.73GB, Q4_K_M 4.92GB,
    /// Q4_0 4.66GB, Q3_K_M 4.02GB, Q2_K 3.18GB, IQ4_XS 4.45GB), made with an imatrix.
    /// That revision's 4.66GB Q4_0 file is Q4_0_4_4: the same Q4_0 blocks, but its
    /// ftype is not Q4_0, so the imatrix Q4_1 ffn_down rule did not fire.
    #[test]
    fn llama31_8b_matches_published_files() {
        const HEADER: u64 = 7_840_928; // GGUF metadata (tokenizer); identical in every file
        let published = [
            (P::Q8_0, 8_540_775_840, true),
            (P::Q6K, 6_596_011_424, true),
            (P::Q5KM, 5_732_992_416, true),
            (P::Q4KM, 4_920_739_232, true),
            (P::Q4_0, 4_661_216_672, false),
            (P::Q3KM, 4_018_922_912, true),
            (P::Q2K, 3_179_136_416, true),
            (P::Iq4Xs, 4_447_667_616, true),
        ];
        for (p, bytes, imatrix) in published {
            let exact = llama_bytes(p, imatrix, false, 32, 4096, 14_336);
            assert_eq!(exact + HEADER, bytes, "{}", p.id());
            let plain = llama_bytes(p, false, false, 32, 4096, 14_336) as f64;
            let err = (plain - bytes as f64).abs() / bytes as f64;
            assert!(err < 0.01, "{}: {plain} vs {bytes}", p.id());
        }
    }

    /// Llama-3.x-70B (80 layers, hidden 8192, ffn 28672) Q4_K_M is published at
    /// 42,520,398,816 B (Llama-3.3-70B-Instruct-Q4_K_M.gguf; bartowski's 3.1-70B
    /// README: 42.52GB). Without the LLM_TYPE_70B attn_v rule we would be 50 MB short.
    #[test]
    fn llama_70b_widens_attn_v() {
        let gap =
            42_520_398_816_u64.saturating_sub(llama_bytes(P::Q4KM, true, false, 80, 8192, 28_672));
        assert!(gap > 7_000_000 && gap < 9_000_000, "header gap {gap}");
        assert_eq!(
            tensor_type(P::Q4KM, T::AttnV, &cx(40, 80, 8, 0, 8192)),
            G::Q5K
        );
    }

    /// Llama-3.2-3B-Instruct (28 layers, hidden 3072, 24/8 heads, ffn 8192, tied
    /// embeddings): bartowski's Q4_K_M is 2,019,377,696 B and Q8_0 3,421,899,296 B.
    /// The tied token_embd is Q6_K in Q4_K_M; as Q4_K we would be 109 MB short.
    #[test]
    fn llama32_3b_tied_embedding_uses_output_rule() {
        for (p, bytes) in [(P::Q4KM, 2_019_377_696_u64), (P::Q8_0, 3_421_899_296)] {
            let gap = bytes.saturating_sub(llama_bytes(p, true, true, 28, 3072, 8192));
            assert!(
                gap > 7_000_000 && gap < 9_000_000,
                "{}: header gap {gap}",
                p.id()
            );
        }
    }

    #[test]
    fn unquantised_tensors_and_float_presets() {
        let c = cx(0, 32, 4, 0, 4096);
        for p in P::ALL {
            for t in [T::Norm, T::Bias, T::Router] {
                assert_eq!(tensor_type(p, t, &c), G::F32, "{}", p.id());
            }
        }
        assert_eq!(tensor_type(P::F16, T::Output, &c), G::F16);
        assert_eq!(tensor_type(P::Bf16, T::FfnDown, &c), G::Bf16);
        assert_eq!(tensor_type(P::Q4_0, T::Output, &c), G::Q6K);
        assert_eq!(tensor_type(P::Q8_0, T::Output, &c), G::Q8_0);
        assert_eq!(tensor_type(P::Q4KM, T::TokenEmbd, &c), G::Q4K);
    }

    #[test]
    fn per_layer_rules() {
        let down = |p, i| tensor_type(p, T::FfnDown, &cx(i, 32, 4, 0, 14_336));
        let more: Vec<u32> = (0..32).filter(|&i| down(P::Q4KM, i) == G::Q6K).collect();
        assert_eq!(
            more,
            [0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31]
        );
        assert_eq!([down(P::Q3KM, 1), down(P::Q3KM, 2)], [G::Q5K, G::Q4K]);
        assert_eq!(
            [down(P::Q4KS, 3), down(P::Q4KS, 4), down(P::Q2K, 9)],
            [G::Q5K, G::Q4K, G::Q3K]
        );
        let v = |p, i, gqa| tensor_type(p, T::AttnV, &cx(i, 32, gqa, 0, 4096));
        assert_eq!([v(P::Q3KM, 1, 4), v(P::Q3KM, 2, 4)], [G::Q5K, G::Q4K]);
        assert_eq!([v(P::Q4KS, 3, 4), v(P::Q4KS, 4, 4)], [G::Q5K, G::Q4K]);
        assert_eq!([v(P::Q2K, 9, 4), v(P::Q2K, 9, 1)], [G::Q4K, G::Q3K]);
        assert_eq!([v(P::Iq4Xs, 9, 4), v(P::Iq4Xs, 9, 2)], [G::Q5K, G::Iq4Xs]);
        // Mixtral-style 8 experts; expert and shared tensors follow their layer.
        let moe = cx(6, 32, 4, 8, 4096);
        assert_eq!(tensor_type(P::Q4KM, T::AttnV, &moe), G::Q8_0);
        assert_eq!(tensor_type(P::Q4KM, T::AttnK, &moe), G::Q8_0);
        assert_eq!(tensor_type(P::Q4KM, T::AttnOutput, &moe), G::Q5K);
        assert_eq!(tensor_type(P::Q3KL, T::AttnOutput, &moe), G::Q3K);
        assert_eq!(tensor_type(P::Q4KM, T::FfnDownExps, &moe), G::Q6K);
        assert_eq!(tensor_type(P::Q2K, T::FfnDownShexp, &moe), G::Q3K);
        assert_eq!(tensor_type(P::Q4KM, T::FfnUpExps, &moe), G::Q4K);
        // An imatrix changes only the first n/8 ffn_down layers.
        let d0 = cx(0, 32, 4, 0, 14_336);
        assert_eq!(
            tensor_type_imatrix(P::Iq4Xs, T::FfnDown, &d0, true),
            G::Iq4Xs
        );
        assert_eq!(tensor_type_imatrix(P::Q4_0, T::FfnDown, &d0, true), G::Q4_1);
    }

    /// gpt-oss: hidden 2880 is not a multiple of 256, so k-quants fall back.
    #[test]
    fn row_of_2880_falls_back() {
        let c = cx(10, 24, 8, 32, 2880);
        let q = |p, t| tensor_type(p, t, &c);
        assert_eq!(
            [q(P::Q4KM, T::FfnUpExps), q(P::Q4KM, T::TokenEmbd)],
            [G::Q5_0, G::Q5_0]
        );
        assert_eq!(
            [q(P::Q4KM, T::Output), q(P::Q5KS, T::AttnQ)],
            [G::Q8_0, G::Q5_1]
        );
        assert_eq!(
            [q(P::Q6K, T::AttnQ), q(P::Q3KS, T::AttnQ)],
            [G::Q8_0, G::Q4_0]
        );
        assert_eq!(
            [q(P::Iq4Xs, T::AttnQ), q(P::Q8_0, T::AttnQ)],
            [G::Iq4Nl, G::Q8_0]
        );
        let odd = cx(10, 24, 8, 32, 2881);
        assert_eq!(tensor_type(P::Q4KM, T::AttnQ, &odd), G::F16);
        assert_eq!(tensor_type(P::Q8_0, T::AttnQ, &odd), G::F16);
    }

    /// Blocks of one class get one type per tensor, for every preset, tensor and model depth.
    #[test]
    fn layer_class_decides_the_per_layer_rules() {
        let tensors = [
            T::TokenEmbd,
            T::Output,
            T::AttnQ,
            T::AttnK,
            T::AttnV,
            T::AttnOutput,
            T::AttnKvA,
            T::AttnKvB,
            T::AttnQA,
            T::AttnQB,
            T::FfnGate,
            T::FfnUp,
            T::FfnDown,
            T::FfnGateExps,
            T::FfnUpExps,
            T::FfnDownExps,
            T::FfnGateShexp,
            T::FfnUpShexp,
            T::FfnDownShexp,
            T::Router,
            T::Norm,
            T::Bias,
        ];
        for n in 1..130u32 {
            let mut seen: Vec<(u8, Vec<GgmlType>)> = Vec::new();
            for i in 0..n {
                let types: Vec<GgmlType> = P::ALL
                    .iter()
                    .flat_map(|&p| {
                        tensors.iter().flat_map(move |&t| {
                            [(4, 0), (8, 8), (1, 8)]
                                .into_iter()
                                .flat_map(move |(gqa, e)| {
                                    [false, true].into_iter().map(move |im| {
                                        tensor_type_imatrix(p, t, &cx(i, n, gqa, e, 4096), im)
                                    })
                                })
                        })
                    })
                    .collect();
                let class = layer_class(i, n);
                match seen.iter().find(|(c, _)| *c == class) {
                    Some((_, t)) => assert_eq!(*t, types, "layer {i} of {n}"),
                    None => seen.push((class, types)),
                }
            }
        }
    }
}
