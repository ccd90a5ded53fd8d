//! Weight formats with their real storage: what the checkpoint (and the loader) actually holds per
//! tensor, not a nominal bit width.
//!
//! Per linear tensor of `rows × cols` (`cols` = input features, grouped along the input), `n`
//! elements, `g` the group size:
//! - **bf16 / fp16 / fp32**: `n × 2 / 2 / 4`.
//! - **FP8, per-tensor** (`compressed-tensors` / ModelOpt `float8_e4m3fn`): `n` bytes + fp32
//!   `weight_scale` and `input_scale` (vLLM `fp8.py::Fp8LinearMethod.create_weights`).
//! - **FP8, block-wise** (DeepSeek V3, Qwen3-FP8: `weight_block_size = [128, 128]`): `n` +
//!   `⌈rows/128⌉·⌈cols/128⌉` fp32 `weight_scale_inv`.
//! - **GPTQ** b-bit (AutoGPTQ / `gptq.py::GPTQLinearMethod.create_weights`): `qweight` `n·b/8`,
//!   `qzeros` `(cols/g)·rows·b/8`, fp16 `scales` `(cols/g)·rows·2`, int32 `g_idx` `cols·4`.
//! - **AWQ** 4-bit (`awq.py::AWQLinearMethod.create_weights`): `qweight` `n/2`, `qzeros`
//!   `(cols/g)·rows/2`, fp16 `scales` `(cols/g)·rows·2`.
//! - **bitsandbytes int8** (LLM.int8): int8 weight `n` + fp32 row scale `SCB` `rows·4`.
//! - **bitsandbytes 4-bit NF4 / FP4** (`bitsandbytes.functional.quantize_4bit`, block 64): packed
//!   `n/2` + per block an fp32 `absmax` (`n/64·4`); with double quantisation the absmax become
//!   uint8 (`n/64`) with an fp32 scale per 256 blocks and a 256-entry fp32 code per tensor.
//! - **MXFP4** (gpt-oss experts, OCP microscaling): 4-bit values + one 8-bit scale per 32: `n/2 + n/32`.
//! - **GGUF** presets: each tensor in the ggml type llama.cpp's quantiser picks without an
//!   importance matrix (`gguf.rs`; within 0.7 % of published files either way).
//! - **int8 / int4 nominal**: `n` / `n/2`, no metadata — the articles' "bytes per parameter".
//!
//! What stays unquantised: GPTQ, AWQ, bitsandbytes and FP8 checkpoints keep embeddings, the output
//! head, routers, norms, biases and the vision tower in 16 bit (their `modules_to_not_convert` /
//! `llm_int8_skip_modules` / `ignore` lists; embeddings are not `nn.Linear`). MXFP4 checkpoints
//! (gpt-oss) quantise only the routed experts. GGUF quantises the embedding and the head too and
//! keeps 1-D tensors in f32.

use crate::inputs::gguf::{self, GgufContext, GgufPreset, GgufTensor};
use crate::inputs::model::{ModelArch, Tensor, TensorKind};
use crate::units::bytes::{add, div_ceil, mul, prod, sum};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How a language model's checkpoint stores its weights (the scenario's `weights`): a scheme
/// costed tensor by tensor, with its quantisation metadata and the tensors it leaves unquantised.
///
/// Unlike [`KvCacheFormat`](crate::inputs::kv_format::KvCacheFormat) (one width per KV cache element) and
/// `PipelinePartFormat` (one flat rate per diffusion part), it is a layout; a
/// `GgufPreset` is one of its kinds (`Gguf`), not a format of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeightFormat {
    /// float32.
    Fp32,
    /// bfloat16.
    Bf16,
    /// float16.
    Fp16,
    /// FP8 e4m3 with one scale per tensor.
    Fp8,
    /// FP8 e4m3 with 128 × 128 block scales.
    Fp8Block,
    /// Nominal 8-bit integers, no metadata.
    Int8,
    /// Nominal 4-bit integers, no metadata.
    Int4,
    /// GPTQ with `bits` (4 or 8) and input-group size (0 = one group per row).
    Gptq {
        /// Bits per weight.
        bits: u8,
        /// Group size along the input.
        group: u32,
    },
    /// AWQ 4-bit with input-group size.
    Awq {
        /// Group size along the input.
        group: u32,
    },
    /// bitsandbytes LLM.int8.
    BnbInt8,
    /// bitsandbytes 4-bit NF4.
    BnbNf4 {
        /// Double quantisation of the absmax.
        double_quant: bool,
    },
    /// bitsandbytes 4-bit FP4.
    BnbFp4 {
        /// Double quantisation of the absmax.
        double_quant: bool,
    },
    /// MXFP4 routed experts, bf16 elsewhere (gpt-oss).
    Mxfp4,
    /// A GGUF quantisation preset.
    Gguf(GgufPreset),
}

/// The formats offered in pickers (GGUF presets follow from [`GgufPreset::ALL`]).
pub const COMMON: [WeightFormat; 16] = [
    WeightFormat::Bf16,
    WeightFormat::Fp16,
    WeightFormat::Fp32,
    WeightFormat::Fp8,
    WeightFormat::Fp8Block,
    WeightFormat::Int8,
    WeightFormat::Int4,
    WeightFormat::Gptq {
        bits: 4,
        group: 128,
    },
    WeightFormat::Gptq {
        bits: 8,
        group: 128,
    },
    WeightFormat::Awq { group: 128 },
    WeightFormat::BnbInt8,
    WeightFormat::BnbNf4 {
        double_quant: false,
    },
    WeightFormat::BnbNf4 { double_quant: true },
    WeightFormat::BnbFp4 {
        double_quant: false,
    },
    WeightFormat::BnbFp4 { double_quant: true },
    WeightFormat::Mxfp4,
];

impl WeightFormat {
    /// Every format a picker offers: `COMMON` then the GGUF presets.
    pub fn all() -> Vec<WeightFormat> {
        COMMON
            .into_iter()
            .chain(GgufPreset::ALL.into_iter().map(WeightFormat::Gguf))
            .collect()
    }

    /// The scenario name: `bf16`, `fp8-block`, `gptq-int4-g128`, `awq-int4-g128`, `bnb-nf4-dq`,
    /// `gguf-q4_k_m`, ….
    pub fn id(self) -> String {
        match self {
            WeightFormat::Fp32 => "fp32".into(),
            WeightFormat::Bf16 => "bf16".into(),
            WeightFormat::Fp16 => "fp16".into(),
            WeightFormat::Fp8 => "fp8".into(),
            WeightFormat::Fp8Block => "fp8-block".into(),
            WeightFormat::Int8 => "int8".into(),
            WeightFormat::Int4 => "int4".into(),
            WeightFormat::Gptq { bits, group } => format!("gptq-int{bits}-g{group}"),
            WeightFormat::Awq { group } => format!("awq-int4-g{group}"),
            WeightFormat::BnbInt8 => "bnb-int8".into(),
            WeightFormat::BnbNf4 { double_quant } => {
                format!("bnb-nf4{}", if double_quant { "-dq" } else { "" })
            }
            WeightFormat::BnbFp4 { double_quant } => {
                format!("bnb-fp4{}", if double_quant { "-dq" } else { "" })
            }
            WeightFormat::Mxfp4 => "mxfp4".into(),
            WeightFormat::Gguf(p) => format!("gguf-{}", p.id()),
        }
    }

    /// Parses a scenario name (case-insensitive). Group sizes 32, 64, 128 and 0 (per row) are accepted.
    pub fn from_id(s: &str) -> Option<WeightFormat> {
        let s = s.trim().to_ascii_lowercase();
        if let Some(p) = s.strip_prefix("gguf-") {
            return GgufPreset::from_id(p).map(WeightFormat::Gguf);
        }
        let group = |g: &str| {
            g.parse::<u32>()
                .ok()
                .filter(|g| matches!(g, 0 | 32 | 64 | 128))
        };
        if let Some(rest) = s.strip_prefix("gptq-int") {
            let (bits, g) = rest.split_once("-g")?;
            let bits = bits.parse::<u8>().ok().filter(|b| matches!(b, 4 | 8))?;
            return Some(WeightFormat::Gptq {
                bits,
                group: group(g)?,
            });
        }
        if let Some(g) = s.strip_prefix("awq-int4-g") {
            return Some(WeightFormat::Awq { group: group(g)? });
        }
        Some(match s.as_str() {
            "fp32" => WeightFormat::Fp32,
            "bf16" => WeightFormat::Bf16,
            "fp16" => WeightFormat::Fp16,
            "fp8" => WeightFormat::Fp8,
            "fp8-block" => WeightFormat::Fp8Block,
            "int8" => WeightFormat::Int8,
            "int4" => WeightFormat::Int4,
            "bnb-int8" => WeightFormat::BnbInt8,
            "bnb-nf4" => WeightFormat::BnbNf4 {
                double_quant: false,
            },
            "bnb-nf4-dq" => WeightFormat::BnbNf4 { double_quant: true },
            "bnb-fp4" => WeightFormat::BnbFp4 {
                double_quant: false,
            },
            "bnb-fp4-dq" => WeightFormat::BnbFp4 { double_quant: true },
            "mxfp4" => WeightFormat::Mxfp4,
            _ => return None,
        })
    }

    /// Bytes per element of the activations computed with these weights: quantised formats
    /// dequantise to 16-bit for the matmuls; fp32 models run in fp32.
    pub fn compute_bytes(self) -> u64 {
        match self {
            WeightFormat::Fp32 => 4,
            _ => 2,
        }
    }

    /// Whether the format is a lossy quantisation (warn: check quality).
    pub fn is_quantized(self) -> bool {
        !matches!(
            self,
            WeightFormat::Fp32 | WeightFormat::Bf16 | WeightFormat::Fp16
        ) && !matches!(self, WeightFormat::Gguf(GgufPreset::F16 | GgufPreset::Bf16))
    }

    /// Nominal bits per parameter, for the rules of thumb (what the articles multiply by).
    pub fn nominal_bits(self) -> u64 {
        match self {
            WeightFormat::Fp32 => 32,
            WeightFormat::Bf16 | WeightFormat::Fp16 => 16,
            WeightFormat::Fp8
            | WeightFormat::Fp8Block
            | WeightFormat::Int8
            | WeightFormat::BnbInt8 => 8,
            WeightFormat::Gptq { bits, .. } => u64::from(bits),
            WeightFormat::Gguf(p) => match p {
                GgufPreset::F16 | GgufPreset::Bf16 => 16,
                GgufPreset::Q8_0 => 8,
                GgufPreset::Q6K => 6,
                GgufPreset::Q5KM | GgufPreset::Q5KS => 5,
                GgufPreset::Q3KL | GgufPreset::Q3KM | GgufPreset::Q3KS => 3,
                GgufPreset::Q2K => 2,
                _ => 4,
            },
            _ => 4,
        }
    }

    /// Bytes of one tensor (all its instances) stored in this format, saturating. `arch` gives
    /// the context GGUF's per-layer rules need.
    pub fn tensor_bytes(self, t: &Tensor, arch: &ModelArch) -> u64 {
        let n = t.numel();
        let (rows, cols, count) = (t.rows, t.cols, t.count);
        let sixteen = match self {
            WeightFormat::Fp32 => mul(4, n),
            _ => mul(2, n),
        };
        if let WeightFormat::Gguf(preset) = self {
            let ty = gguf::tensor_type(preset, gguf_kind(t.kind, arch), &gguf_context(t, arch));
            return mul(ty.bytes_for(mul(rows, cols)), count);
        }
        let quantised =
            t.kind.is_layer_linear() && (self != WeightFormat::Mxfp4 || t.kind.is_expert());
        if !quantised {
            return sixteen;
        }
        let groups = |g: u32| {
            if g == 0 {
                1
            } else {
                cols.div_ceil(u64::from(g))
            }
        };
        match self {
            WeightFormat::Fp32 | WeightFormat::Bf16 | WeightFormat::Fp16 => sixteen,
            WeightFormat::Fp8 => add(n, mul(8, count)),
            WeightFormat::Fp8Block => {
                add(n, prod(&[rows.div_ceil(128), cols.div_ceil(128), 4, count]))
            }
            WeightFormat::Int8 => n,
            WeightFormat::Int4 => div_ceil(n, 2),
            WeightFormat::Gptq { bits, group } => {
                let b = u64::from(bits);
                let gs = groups(group);
                sum([
                    div_ceil(mul(n, b), 8),
                    div_ceil(prod(&[gs, rows, b]), 8),
                    prod(&[gs, rows, 2]),
                    prod(&[cols, 4, count]),
                ])
            }
            WeightFormat::Awq { group } => {
                let gs = mul(groups(group), count);
                sum([
                    div_ceil(n, 2),
                    div_ceil(mul(gs, rows), 2),
                    prod(&[gs, rows, 2]),
                ])
            }
            WeightFormat::BnbInt8 => add(n, prod(&[rows, 4, count])),
            WeightFormat::BnbNf4 { double_quant } | WeightFormat::BnbFp4 { double_quant } => {
                let per = mul(rows, cols);
                let blocks = div_ceil(per, 64);
                let absmax = if double_quant {
                    sum([blocks, mul(div_ceil(blocks, 256), 4), 256 * 4])
                } else {
                    mul(blocks, 4)
                };
                mul(add(div_ceil(per, 2), absmax), count)
            }
            WeightFormat::Mxfp4 => add(div_ceil(n, 2), div_ceil(n, 32)),
            WeightFormat::Gguf(_) => sixteen,
        }
    }
}

/// GGUF's name for a tensor. A tied embedding is also the output, and llama.cpp quantises it with
/// the output's rule (`llama_tensor_get_type`: `token_embd` when no `output.weight` exists).
fn gguf_kind(kind: TensorKind, arch: &ModelArch) -> GgufTensor {
    match kind {
        TensorKind::TokenEmbd if arch.tied_embeddings => GgufTensor::Output,
        TensorKind::TokenEmbd => GgufTensor::TokenEmbd,
        TensorKind::Output => GgufTensor::Output,
        TensorKind::AttnQ => GgufTensor::AttnQ,
        TensorKind::AttnK => GgufTensor::AttnK,
        TensorKind::AttnV => GgufTensor::AttnV,
        TensorKind::AttnOutput => GgufTensor::AttnOutput,
        TensorKind::AttnQA => GgufTensor::AttnQA,
        TensorKind::AttnQB => GgufTensor::AttnQB,
        TensorKind::AttnKvA => GgufTensor::AttnKvA,
        TensorKind::AttnKvB => GgufTensor::AttnKvB,
        TensorKind::FfnGate => GgufTensor::FfnGate,
        TensorKind::FfnUp => GgufTensor::FfnUp,
        TensorKind::FfnDown => GgufTensor::FfnDown,
        TensorKind::FfnGateExps => GgufTensor::FfnGateExps,
        TensorKind::FfnUpExps => GgufTensor::FfnUpExps,
        TensorKind::FfnDownExps => GgufTensor::FfnDownExps,
        TensorKind::FfnGateShexp => GgufTensor::FfnGateShexp,
        TensorKind::FfnUpShexp => GgufTensor::FfnUpShexp,
        TensorKind::FfnDownShexp => GgufTensor::FfnDownShexp,
        TensorKind::Router => GgufTensor::Router,
        TensorKind::Norm => GgufTensor::Norm,
        TensorKind::Bias | TensorKind::Vision => GgufTensor::Bias,
        // No rule of `llama_tensor_get_type` names `ssm_in` / `ssm_out`: the preset's base type,
        // as for `ffn_up`. `ssm_conv1d` and the per-head vectors stay f32 (`llama-quantize` skips
        // `ssm_conv1d.weight`; 1-D tensors are never quantised).
        TensorKind::SsmIn | TensorKind::SsmOut => GgufTensor::FfnUp,
        TensorKind::SsmConv | TensorKind::SsmHead => GgufTensor::Norm,
        // `per_layer_token_embd` and the per-layer / AltUp / LAuReL projections are named by no
        // rule of `llama_tensor_get_type` here: the preset's base type, as for `ffn_up`.
        TensorKind::PerLayerEmbd | TensorKind::PerLayerProj => GgufTensor::FfnUp,
    }
}

fn gguf_context(t: &Tensor, arch: &ModelArch) -> GgufContext {
    GgufContext {
        layer: t.layer.unwrap_or(0),
        n_layers: arch.layers,
        n_gqa: arch.heads / arch.kv_heads.max(1),
        n_expert: arch.moe.map_or(0, |m| m.experts),
        row_len: t.cols,
    }
}

impl Serialize for WeightFormat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.id())
    }
}

impl<'de> Deserialize<'de> for WeightFormat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        WeightFormat::from_id(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown weight format `{s}` (e.g. bf16, fp8, gptq-int4-g128, awq-int4-g128, bnb-nf4-dq, gguf-q4_k_m)"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for f in WeightFormat::all() {
            assert_eq!(WeightFormat::from_id(&f.id()), Some(f), "{}", f.id());
        }
        assert_eq!(
            WeightFormat::from_id("GGUF-Q4_K_M"),
            Some(WeightFormat::Gguf(GgufPreset::Q4KM))
        );
        assert_eq!(WeightFormat::from_id("gptq-int3-g128"), None);
        assert_eq!(WeightFormat::from_id("nonsense"), None);
    }

    #[test]
    fn storage_of_one_linear() {
        let arch = ModelArch::dense(
            crate::inputs::model::Family::Llama,
            1,
            4096,
            32,
            8,
            128,
            14336,
            1000,
            false,
            4096,
        );
        let t = Tensor {
            kind: TensorKind::FfnUp,
            split: crate::inputs::model::Split::ByGpu,
            rows: 14336,
            cols: 4096,
            count: 1,
            layer: Some(0),
        };
        let n = 14336 * 4096;
        assert_eq!(WeightFormat::Bf16.tensor_bytes(&t, &arch), 2 * n);
        // AWQ g128: n/2 + zeros (32·14336)/2 + scales 32·14336·2.
        assert_eq!(
            WeightFormat::Awq { group: 128 }.tensor_bytes(&t, &arch),
            n / 2 + 32 * 14336 / 2 + 32 * 14336 * 2
        );
        // NF4 without double quant: n/2 + n/64 · 4 → 4.5 bits per weight.
        assert_eq!(
            WeightFormat::BnbNf4 {
                double_quant: false
            }
            .tensor_bytes(&t, &arch),
            n / 2 + n / 16
        );
        let emb = Tensor {
            kind: TensorKind::TokenEmbd,
            ..t
        };
        assert_eq!(WeightFormat::Int4.tensor_bytes(&emb, &arch), 2 * n);
    }
}
