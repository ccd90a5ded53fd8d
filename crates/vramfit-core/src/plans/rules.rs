//! The seeds' rules of thumb, shown beside the detailed estimate so users see where they mislead.
//!
//! - Weights only: parameters × bytes per parameter (FP16 = 2, INT8 = 1, 4-bit = 0.5).
//! - Inference: ≈ 2 GB per billion parameters at FP16 plus ≈ 20 % for short contexts — i.e. the
//!   weights × 1.2, at the chosen format's nominal bytes.

use crate::inputs::format::WeightFormat;
use crate::units::bytes::{div, from_u128, mul};
use serde::Serialize;

/// Rule-of-thumb figures for a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RulesOfThumb {
    /// Parameters × nominal bytes.
    pub weights_only_bytes: u64,
    /// Weights + 20 %.
    pub inference_bytes: u64,
}

/// Rules of thumb for `params` parameters stored as `format`.
pub fn rules_of_thumb(params: u64, format: WeightFormat) -> RulesOfThumb {
    let weights_only_bytes =
        from_u128((u128::from(params) * u128::from(format.nominal_bits())).div_ceil(8));
    RulesOfThumb {
        weights_only_bytes,
        inference_bytes: mul(div(weights_only_bytes, 5), 6),
    }
}
