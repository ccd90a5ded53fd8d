//! The element format of the KV cache (the scenario's `kv_cache`), with its storage per element.
//!
//! Storage is kept in bits so that 4-bit formats stay exact: `n` int4 elements take `n / 2`
//! bytes (packed two per byte, rounded up). The weights have their own type,
//! [`crate::inputs::format::WeightFormat`], because a checkpoint's storage is not one width per element.

use serde::{Deserialize, Serialize};

/// The format each element of the KV cache is stored in: one nominal bit width, no metadata.
///
/// Unlike [`WeightFormat`](crate::inputs::format::WeightFormat) (a checkpoint's storage scheme, costed
/// tensor by tensor with its quantisation scales) and `PipelinePartFormat` (a diffusion part's
/// storage), it only says how wide one cached key or value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KvCacheFormat {
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

impl KvCacheFormat {
    /// Every format, widest first.
    pub const ALL: [KvCacheFormat; 6] = [
        KvCacheFormat::Fp32,
        KvCacheFormat::Bf16,
        KvCacheFormat::Fp16,
        KvCacheFormat::Fp8,
        KvCacheFormat::Int8,
        KvCacheFormat::Int4,
    ];

    /// Bits per element.
    pub fn bits(self) -> u64 {
        match self {
            KvCacheFormat::Fp32 => 32,
            KvCacheFormat::Bf16 | KvCacheFormat::Fp16 => 16,
            KvCacheFormat::Fp8 | KvCacheFormat::Int8 => 8,
            KvCacheFormat::Int4 => 4,
        }
    }

    /// Bytes for `n` elements, rounded up to whole bytes.
    pub fn bytes_for(self, n: u64) -> u64 {
        (n * self.bits()).div_ceil(8)
    }

    /// The scenario name (`"bf16"`…), as used in URLs and JSON.
    pub fn id(self) -> &'static str {
        match self {
            KvCacheFormat::Fp32 => "fp32",
            KvCacheFormat::Bf16 => "bf16",
            KvCacheFormat::Fp16 => "fp16",
            KvCacheFormat::Fp8 => "fp8",
            KvCacheFormat::Int8 => "int8",
            KvCacheFormat::Int4 => "int4",
        }
    }

    /// Parses a scenario name.
    pub fn from_id(s: &str) -> Option<KvCacheFormat> {
        KvCacheFormat::ALL.into_iter().find(|p| p.id() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage() {
        assert_eq!(KvCacheFormat::Int4.bytes_for(3), 2);
        assert_eq!(KvCacheFormat::Bf16.bytes_for(7_000_000_000), 14_000_000_000);
        for p in KvCacheFormat::ALL {
            assert_eq!(KvCacheFormat::from_id(p.id()), Some(p));
        }
    }
}
