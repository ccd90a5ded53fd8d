//! The checkpoint's own storage: `quantization_config` read into a [`WeightFormat`] and the
//! modules it leaves unquantised.

use crate::inputs::format::WeightFormat;
use serde_json::Value;

/// The checkpoint's own storage, from `quantization_config` when the config has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantization {
    /// The weight format the checkpoint stores, when recognised.
    pub format: Option<WeightFormat>,
    /// Modules it leaves unquantised (`llm_int8_skip_modules`, `modules_to_not_convert`, `ignore`).
    pub unquantized_modules: Vec<String>,
}

/// Reads `quantization_config` (transformers' `BitsAndBytesConfig`, `GPTQConfig`, `AwqConfig`,
/// `FineGrainedFP8Config`, `Mxfp4Config`). `None` when the config has none.
pub fn quantization(value: &Value) -> Option<Quantization> {
    let q = value.get("quantization_config")?.as_object()?;
    let s = |k: &str| q.get(k).and_then(Value::as_str).unwrap_or_default();
    let b = |k: &str| q.get(k).and_then(Value::as_bool).unwrap_or(false);
    let n = |k: &str| q.get(k).and_then(Value::as_i64);
    let group = |g: Option<i64>| match g {
        Some(g) if g > 0 => u32::try_from(g).ok(),
        _ => Some(0),
    };
    let format = match s("quant_method") {
        "bitsandbytes" if b("load_in_4bit") => {
            let double_quant = b("bnb_4bit_use_double_quant");
            Some(if s("bnb_4bit_quant_type") == "fp4" {
                WeightFormat::BnbFp4 { double_quant }
            } else {
                WeightFormat::BnbNf4 { double_quant }
            })
        }
        "bitsandbytes" if b("load_in_8bit") => Some(WeightFormat::BnbInt8),
        "gptq" => match (n("bits"), group(n("group_size"))) {
            (Some(bits @ (4 | 8)), Some(group)) => Some(WeightFormat::Gptq {
                bits: bits as u8,
                group,
            }),
            _ => None,
        },
        "awq" => group(n("group_size")).map(|group| WeightFormat::Awq { group }),
        "fp8" if q.contains_key("weight_block_size") => Some(WeightFormat::Fp8Block),
        "fp8" => Some(WeightFormat::Fp8),
        "mxfp4" => Some(WeightFormat::Mxfp4),
        _ => None,
    };
    let unquantized_modules = ["llm_int8_skip_modules", "modules_to_not_convert", "ignore"]
        .iter()
        .filter_map(|k| q.get(*k).and_then(Value::as_array))
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    Some(Quantization {
        format,
        unquantized_modules,
    })
}
