//! Every ggml tensor type a GGUF file can name, by its on-disk id, with its block size (elements per
//! block) and type size (bytes per block).
//!
//! Source: ggml-org/llama.cpp `ggml/include/ggml.h` (`enum ggml_type`) and `ggml/src/ggml.c`
//! (`type_traits[]`: `.blck_size`, `.type_size = sizeof(block_*)`), cross-checked against
//! `gguf-py/gguf/constants.py` (`GGMLQuantizationType`, `GGML_QUANT_SIZES`, read at commit
//! 0024aa7417ef, which adds NVFP4 = 40 and Q1_0 = 41 after MXFP4 = 39). Ids 4 and 5 (Q4_2, Q4_3)
//! predate GGUF; 31–33 (Q4_0_4_4, Q4_0_4_8, Q4_0_8_8) and 36–38 (IQ4_NL_4_4 …) were removed from
//! GGUF files (`ggml.h`: "support has been removed from gguf files"; `gguf.cpp` refuses a type whose
//! block size is 0), so they are unknown here too.
//!
//! A tensor's bytes are `elements / blck_size × type_size`; `gguf.cpp` requires the row length
//! `ne[0]` to be a multiple of `blck_size`, so the division is exact.

/// One ggml type: `(id, name, blck_size, type_size)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GgmlTypeInfo {
    /// The id stored in a GGUF tensor info.
    pub id: u32,
    /// ggml's lower-case name (`ggml_type_name`): "f32", "q4_k", "iq4_xs", ….
    pub name: &'static str,
    /// Elements per block.
    pub block_elems: u64,
    /// Bytes per block.
    pub block_bytes: u64,
}

/// The table, in id order.
pub const GGML_TYPES: [GgmlTypeInfo; 34] = [
    t(0, "f32", 1, 4),
    t(1, "f16", 1, 2),
    t(2, "q4_0", 32, 18),
    t(3, "q4_1", 32, 20),
    t(6, "q5_0", 32, 22),
    t(7, "q5_1", 32, 24),
    t(8, "q8_0", 32, 34),
    t(9, "q8_1", 32, 36),
    t(10, "q2_k", 256, 84),
    t(11, "q3_k", 256, 110),
    t(12, "q4_k", 256, 144),
    t(13, "q5_k", 256, 176),
    t(14, "q6_k", 256, 210),
    t(15, "q8_k", 256, 292),
    t(16, "iq2_xxs", 256, 66),
    t(17, "iq2_xs", 256, 74),
    t(18, "iq3_xxs", 256, 98),
    t(19, "iq1_s", 256, 50),
    t(20, "iq4_nl", 32, 18),
    t(21, "iq3_s", 256, 110),
    t(22, "iq2_s", 256, 82),
    t(23, "iq4_xs", 256, 136),
    t(24, "i8", 1, 1),
    t(25, "i16", 1, 2),
    t(26, "i32", 1, 4),
    t(27, "i64", 1, 8),
    t(28, "f64", 1, 8),
    t(29, "iq1_m", 256, 56),
    t(30, "bf16", 1, 2),
    t(34, "tq1_0", 256, 54),
    t(35, "tq2_0", 256, 66),
    t(39, "mxfp4", 32, 17),
    t(40, "nvfp4", 64, 36),
    t(41, "q1_0", 128, 18),
];

const fn t(id: u32, name: &'static str, block_elems: u64, block_bytes: u64) -> GgmlTypeInfo {
    GgmlTypeInfo {
        id,
        name,
        block_elems,
        block_bytes,
    }
}

/// The type with this on-disk id, or `None` for ids ggml does not define (or removed).
pub fn ggml_type(id: u32) -> Option<GgmlTypeInfo> {
    GGML_TYPES.iter().copied().find(|t| t.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::gguf::GgmlType;

    /// The block structs of `ggml-common.h`, summed field by field (QK_K = 256), as gguf-py writes
    /// them in `GGML_QUANT_SIZES`.
    #[test]
    fn sizes_follow_the_block_structs() {
        const QK_K: u64 = 256;
        let size = |id| ggml_type(id).map(|t| (t.block_elems, t.block_bytes));
        assert_eq!(size(10), Some((256, 2 + 2 + QK_K / 16 + QK_K / 4))); // q2_K
        assert_eq!(size(11), Some((256, 2 + QK_K / 4 + QK_K / 8 + 12))); // q3_K
        assert_eq!(size(12), Some((256, 2 + 2 + QK_K / 2 + 12))); // q4_K
        assert_eq!(size(13), Some((256, 2 + 2 + QK_K / 2 + QK_K / 8 + 12))); // q5_K
        assert_eq!(size(14), Some((256, 2 + QK_K / 2 + QK_K / 4 + QK_K / 16))); // q6_K
        assert_eq!(size(15), Some((256, 4 + QK_K + QK_K / 8))); // q8_K
        assert_eq!(size(16), Some((256, 2 + QK_K / 4))); // iq2_xxs
        assert_eq!(size(17), Some((256, 2 + QK_K / 4 + QK_K / 32))); // iq2_xs
        assert_eq!(size(18), Some((256, 2 + QK_K / 4 + QK_K / 8))); // iq3_xxs
        assert_eq!(size(19), Some((256, 2 + QK_K / 8 + QK_K / 16))); // iq1_s
        assert_eq!(
            size(21),
            Some((256, 2 + QK_K / 4 + QK_K / 8 + QK_K / 32 + 4))
        ); // iq3_s
        assert_eq!(size(22), Some((256, 2 + QK_K / 4 + QK_K / 16))); // iq2_s
        assert_eq!(size(23), Some((256, 2 + 2 + QK_K / 2 + QK_K / 64))); // iq4_xs
        assert_eq!(size(29), Some((256, QK_K / 8 + QK_K / 16 + QK_K / 32))); // iq1_m
        assert_eq!(size(34), Some((256, 2 + 4 * 13))); // tq1_0
        assert_eq!(size(35), Some((256, 2 + 64))); // tq2_0
        assert_eq!(size(39), Some((32, 1 + 16))); // mxfp4
        assert_eq!(size(40), Some((64, 4 + 32))); // nvfp4
        assert_eq!(size(41), Some((128, 2 + 16))); // q1_0
        for removed in [4, 5, 31, 32, 33, 36, 37, 38, 42, u32::MAX] {
            assert_eq!(ggml_type(removed), None, "{removed}");
        }
        // Ids are unique and increasing.
        assert!(GGML_TYPES.windows(2).all(|w| w[0].id < w[1].id));
    }

    /// The core's own ggml table (`gguf.rs`) agrees with this one on every type both name.
    #[test]
    fn agrees_with_the_core_table() {
        let core = [
            GgmlType::F32,
            GgmlType::F16,
            GgmlType::Bf16,
            GgmlType::Q8_0,
            GgmlType::Q6K,
            GgmlType::Q5K,
            GgmlType::Q4K,
            GgmlType::Q3K,
            GgmlType::Q2K,
            GgmlType::Q4_0,
            GgmlType::Q4_1,
            GgmlType::Q5_0,
            GgmlType::Q5_1,
            GgmlType::Iq4Xs,
            GgmlType::Iq4Nl,
            GgmlType::Iq3Xxs,
            GgmlType::Iq3S,
            GgmlType::Iq2Xxs,
            GgmlType::Iq2Xs,
            GgmlType::Iq2S,
            GgmlType::Iq1S,
            GgmlType::Mxfp4,
        ];
        for c in core {
            let t = GGML_TYPES.iter().find(|t| t.name == c.id());
            assert_eq!(
                t.map(|t| (t.block_elems, t.block_bytes)),
                Some((c.block_elems(), c.block_bytes())),
                "{}",
                c.id()
            );
        }
    }
}
