//! Speculative decoding's proposer, resolved: a draft model (its own architecture and weights)
//! or the target's multi-token-prediction (MTP) layers, and the bytes each engine places beside
//! the target's: the proposer's weights, its KV cache for the same tokens, and under llama.cpp
//! its own compute buffer (see each engine's budget).
//!
//! The MTP layers are those the checkpoint ships and the served model otherwise never loads
//! ([`ModelArch::mtp_param_count`]); each is one decoder layer shaped as the last (vLLM
//! `deepseek_mtp.py`, `glm4_moe_mtp.py`, `qwen3_next_mtp.py`), stored like the model's other
//! layers, with one attention layer's KV cache per token.

use super::Footprint;
use crate::inputs::format::WeightFormat;
use crate::inputs::model::ModelArch;
use crate::units::bytes::{from_u128, mul};
use serde::{Deserialize, Serialize};

/// How the proposals are made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpeculativeMethod {
    /// A smaller model with the target's vocabulary (vLLM `--speculative-config {"model": …}`,
    /// SGLang `--speculative-draft-model-path`, llama.cpp `-md`, Transformers `assistant_model`).
    #[default]
    DraftModel,
    /// The model's own multi-token-prediction layers (vLLM `{"method": "mtp"}`, SGLang
    /// `--speculative-algorithm NEXTN`).
    Mtp,
}

impl SpeculativeMethod {
    /// Whether this is the default (left out of links and JSON).
    pub fn is_default(&self) -> bool {
        *self == SpeculativeMethod::DraftModel
    }
}

/// Acceptance rate per proposed token assumed for a draft model: the middle of the 0.5–0.9 that
/// Leviathan et al. (2023, "Fast Inference from Transformers via Speculative Decoding", table 3)
/// measured over their model pairs.
pub const DRAFT_ACCEPTANCE: f64 = 0.7;
/// Acceptance rate assumed for MTP layers: DeepSeek-V3's technical report (section 5.4.3) gives
/// 85–90 % for the second token its MTP module predicts.
pub const MTP_ACCEPTANCE: f64 = 0.85;

/// The proposer an estimate places beside the target.
#[derive(Clone, Debug)]
pub struct Draft {
    /// How the proposals are made.
    pub method: SpeculativeMethod,
    /// The proposer's architecture: the draft model's, or for MTP the target's last layer as a
    /// one-stack model of `mtp_layers` full-attention layers.
    pub arch: ModelArch,
    /// Tokens proposed per step (`num_speculative_tokens`, `--draft-max`).
    pub num_tokens: u32,
    /// Acceptance rate per proposed token.
    pub acceptance: f64,
    /// The draft model's weights per tensor-parallel size (`None` for MTP).
    footprint: Option<Footprint>,
    /// Whole-model bytes of the MTP layers (0 for a draft model).
    mtp_bytes: u64,
}

impl Draft {
    /// A draft model of `arch` stored as `format`, prepared for the tensor-parallel sizes `tps`.
    pub fn model(
        arch: &ModelArch,
        format: WeightFormat,
        tps: &[u64],
        num_tokens: u32,
        acceptance: Option<f64>,
    ) -> Draft {
        Draft {
            method: SpeculativeMethod::DraftModel,
            arch: *arch,
            num_tokens,
            acceptance: acceptance.unwrap_or(DRAFT_ACCEPTANCE),
            footprint: Some(Footprint::new(arch, format, tps, &[])),
            mtp_bytes: 0,
        }
    }

    /// The MTP layers of `target`, stored as the target's other layers are in `footprint`
    /// (bytes per parameter of the whole model); `None` when the model ships none.
    pub fn mtp(
        target: &ModelArch,
        footprint: &Footprint,
        num_tokens: u32,
        acceptance: Option<f64>,
    ) -> Option<Draft> {
        if target.mtp_layers == 0 {
            return None;
        }
        let params = target.param_count().max(1);
        let whole = footprint.get(1).0;
        let mtp_bytes = from_u128(
            u128::from(target.mtp_param_count()) * u128::from(whole) / u128::from(params),
        );
        // One full-attention stack of `mtp_layers` layers shaped as the target's (hybrid
        // models' MTP layers use full attention; no sliding window in the released layouts).
        let mut arch = *target;
        arch.layers = target.mtp_layers;
        arch.mtp_layers = 0;
        arch.hybrid = None;
        arch.sliding_window = None;
        Some(Draft {
            method: SpeculativeMethod::Mtp,
            arch,
            num_tokens,
            acceptance: acceptance.unwrap_or(MTP_ACCEPTANCE),
            footprint: None,
            mtp_bytes,
        })
    }

    /// The proposer's weights on one GPU of a `tp`-way group (sharded as the target's layers).
    pub fn weights_per_gpu(&self, tp: u64) -> u64 {
        match &self.footprint {
            Some(f) => {
                let (w, _) = f.get(tp);
                if w > 0 {
                    w
                } else {
                    f.get(1).0 / tp.max(1)
                }
            }
            None => self.mtp_bytes / tp.max(1),
        }
    }

    /// The proposer's KV cache per token on one GPU of a `tp`-way group, at `bits` per element.
    pub fn kv_per_token(&self, tp: u64, bits: u64) -> u64 {
        super::kv_cache::per_sequence(&self.arch, 1, tp, bits)
    }

    /// The proposer's KV cache for `tokens` cached tokens on one GPU.
    pub fn kv_bytes(&self, tokens: u64, tp: u64, bits: u64) -> u64 {
        mul(self.kv_per_token(tp, bits), tokens)
    }

    /// Accepted tokens a verification step yields on average with `k` proposals accepted each at
    /// rate `a`: `(1 − a^(k+1)) / (1 − a)` (the expected run of accepted proposals plus the
    /// target's own token; Leviathan et al. 2023, equation 1).
    pub fn tokens_per_step(&self) -> f64 {
        let a = self.acceptance.clamp(0.0, 0.999);
        let k = f64::from(self.num_tokens);
        (1.0 - a.powf(k + 1.0)) / (1.0 - a)
    }
}
