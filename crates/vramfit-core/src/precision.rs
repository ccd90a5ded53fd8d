//! Numeric formats of weights and of the KV cache, with their storage per element.
//!
//! These are the nominal formats (issue: real quantised layouts — GPTQ/AWQ groups, bitsandbytes,
//! GGUF — come in a later layer). Storage is kept in bits so that 4-bit formats stay exact: an
//! int4 tensor of `n` elements takes `n / 2` bytes (packed two per byte, rounded up).

use serde::{Deserialize, Serialize};

/// A storage format for one element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// IEEE float32: 4 bytes.
    Fp32,
    /// bfloat16: 2 bytes.
    Bf16,
    /// IEEE float16: 2 bytes.
    Fp16,
    /// float8 (e4m3 / e5m2): 1 byte.
    Fp8,
    /// 8-bit integer: 1 byte.
    Int8,
    /// 4-bit integer, two per byte.
    Int4,
}

impl Precision {
    /// Every format, widest first.
    pub const ALL: [Precision; 6] = [
        Precision::Fp32,
        Precision::Bf16,
        Precision::Fp16,
        Precision::Fp8,
        Precision::Int8,
        Precision::Int4,
    ];

    /// Bits per element.
    pub fn bits(self) -> u64 {
        match self {
            Precision::Fp32 => 32,
            Precision::Bf16 | Precision::Fp16 => 16,
            Precision::Fp8 | Precision::Int8 => 8,
            Precision::Int4 => 4,
        }
    }

    /// Bytes for `n` elements, rounded up to whole bytes.
    pub fn bytes_for(self, n: u64) -> u64 {
        (n * self.bits()).div_ceil(8)
    }

    /// The scenario name (`"bf16"`…), as used in URLs and JSON.
    pub fn id(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Bf16 => "bf16",
            Precision::Fp16 => "fp16",
            Precision::Fp8 => "fp8",
            Precision::Int8 => "int8",
            Precision::Int4 => "int4",
        }
    }

    /// Parses a scenario name.
    pub fn from_id(s: &str) -> Option<Precision> {
        Precision::ALL.into_iter().find(|p| p.id() == s)
    }

    /// The format activations are computed in when weights are stored in `self`: weight-only
    /// quantised formats dequantise to 16-bit for the matmuls; fp32 models run in fp32.
    pub fn compute(self) -> Precision {
        match self {
            Precision::Fp32 => Precision::Fp32,
            Precision::Fp16 => Precision::Fp16,
            _ => Precision::Bf16,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage() {
        assert_eq!(Precision::Int4.bytes_for(3), 2);
        assert_eq!(Precision::Bf16.bytes_for(7_000_000_000), 14_000_000_000);
        for p in Precision::ALL {
            assert_eq!(Precision::from_id(p.id()), Some(p));
        }
    }
}
