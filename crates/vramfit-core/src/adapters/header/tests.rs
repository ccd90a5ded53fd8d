//! Header parsing: round trips of files written by the fixture writers, shards and splits, every
//! class of crafted file (each refused with its typed kind, fast), the published size of a real
//! GGUF, and seeded mutations of real headers through both parsers.

use super::fixtures::{put_str, safetensors, safetensors_raw, type_id, Gguf, Rng, Val};
use super::*;
use std::time::{Duration, Instant};

fn one(name: &str, bytes: &[u8]) -> Result<HeaderReport, HeaderError> {
    inspect(&[InputFile {
        name,
        bytes,
        size: bytes.len() as u64,
    }])
}

/// A small Llama-shaped GGUF: 2 blocks, hidden 256, every metadata value type, nested arrays.
fn small_gguf() -> Gguf {
    let mut g = Gguf::new()
        .kv("general.architecture", Val::Str("llama".into()))
        .kv("general.name", Val::Str("tiny".into()))
        .kv("general.alignment", Val::U32(32))
        .kv("general.file_type", Val::U32(15))
        .kv("llama.block_count", Val::U32(2))
        .kv("llama.context_length", Val::U64(4096))
        .kv("llama.embedding_length", Val::U32(256))
        .kv("llama.feed_forward_length", Val::U32(512))
        .kv("llama.attention.head_count", Val::U32(4))
        .kv(
            "llama.attention.head_count_kv",
            Val::Arr(4, vec![Val::U32(2), Val::U32(2)]),
        )
        .kv("llama.rope.freq_base", Val::F32(500_000.0))
        .kv("llama.attention.layer_norm_rms_epsilon", Val::F64(1e-5))
        .kv("test.u8", Val::U8(7))
        .kv("test.i8", Val::I8(-7))
        .kv("test.u16", Val::U16(700))
        .kv("test.i16", Val::I16(-700))
        .kv("test.i32", Val::I32(-70_000))
        .kv("test.i64", Val::I64(-7))
        .kv("test.bool", Val::Bool(true))
        .kv(
            "test.nested",
            Val::Arr(
                9,
                vec![
                    Val::Arr(8, vec![Val::Str("a".into()), Val::Str("bé".into())]),
                    Val::Arr(6, vec![Val::F32(1.5)]),
                ],
            ),
        )
        .kv(
            "tokenizer.ggml.tokens",
            Val::Arr(8, (0..300).map(|i| Val::Str(format!("t{i}"))).collect()),
        )
        .kv(
            "tokenizer.ggml.token_type",
            Val::Arr(5, vec![Val::I32(1); 300]),
        );
    g = g.tensor("token_embd.weight", &[256, 300], "q4_k");
    for b in 0..2 {
        for (n, ne, ty) in [
            ("attn_norm.weight", vec![256], "f32"),
            ("attn_q.weight", vec![256, 256], "q4_k"),
            ("attn_k.weight", vec![256, 128], "q4_k"),
            ("attn_v.weight", vec![256, 128], "q6_k"),
            ("attn_output.weight", vec![256, 256], "q4_k"),
            ("ffn_norm.weight", vec![256], "f32"),
            ("ffn_gate.weight", vec![256, 512], "q4_k"),
            ("ffn_up.weight", vec![256, 512], "q4_k"),
            ("ffn_down.weight", vec![512, 256], "q6_k"),
        ] {
            g = g.tensor(&format!("blk.{b}.{n}"), &ne, ty);
        }
    }
    // The last tensor's bytes are a multiple of 32: the file has no trailing padding.
    g.tensor("output.weight", &[256, 300], "q6_k")
        .tensor("output_norm.weight", &[256], "f32")
}

/// A small safetensors checkpoint (Qwen3-shaped names) with every dtype the format defines.
fn small_safetensors() -> Vec<u8> {
    let mut entries: Vec<(String, &str, Vec<u64>)> = vec![
        ("model.embed_tokens.weight".into(), "BF16", vec![300, 64]),
        ("lm_head.weight".into(), "BF16", vec![300, 64]),
        ("model.norm.weight".into(), "BF16", vec![64]),
    ];
    for l in 0..2 {
        let p = format!("model.layers.{l}.");
        for (n, s) in [
            ("self_attn.q_proj.weight", vec![64, 64]),
            ("self_attn.k_proj.weight", vec![32, 64]),
            ("self_attn.v_proj.weight", vec![32, 64]),
            ("self_attn.o_proj.weight", vec![64, 64]),
            ("self_attn.q_norm.weight", vec![16]),
            ("self_attn.k_norm.weight", vec![16]),
            ("mlp.gate_proj.weight", vec![128, 64]),
            ("mlp.up_proj.weight", vec![128, 64]),
            ("mlp.down_proj.weight", vec![64, 128]),
            ("input_layernorm.weight", vec![64]),
            ("post_attention_layernorm.weight", vec![64]),
        ] {
            entries.push((format!("{p}{n}"), "BF16", s));
        }
    }
    for (i, d) in [
        "BOOL",
        "U8",
        "I8",
        "U16",
        "I16",
        "F16",
        "U32",
        "I32",
        "F32",
        "U64",
        "I64",
        "F64",
        "C64",
        "F8_E4M3",
        "F8_E5M2",
        "F8_E8M0",
        "F8_E4M3FNUZ",
        "F8_E5M2FNUZ",
        "F4",
        "F6_E2M3",
        "F6_E3M2",
    ]
    .iter()
    .enumerate()
    {
        entries.push((format!("extra.{i}"), d, vec![2, 4]));
    }
    let refs: Vec<(&str, &str, &[u64])> = entries
        .iter()
        .map(|(n, d, s)| (n.as_str(), *d, s.as_slice()))
        .collect();
    safetensors(&refs, &[("format", "pt")])
}

#[test]
fn gguf_round_trip() {
    let g = small_gguf();
    let file = g.file();
    let r = one("tiny.gguf", &file).expect("valid file");
    assert_eq!(r.format, FileFormat::Gguf);
    assert_eq!(r.tensor_count, 21);
    let q4k = (256 * 300 + 2 * (256 * 256 * 2 + 256 * 128 + 2 * 256 * 512)) / 256 * 144;
    let q6k = (256 * 300 + 2 * (256 * 128 + 512 * 256)) / 256 * 210;
    let f32b = (2 * 2 * 256 + 256) * 4;
    assert_eq!(r.bytes_by_dtype.get("q4_k"), Some(&q4k));
    assert_eq!(r.bytes_by_dtype.get("q6_k"), Some(&q6k));
    assert_eq!(r.bytes_by_dtype.get("f32"), Some(&f32b));
    assert_eq!(r.tensor_bytes, q4k + q6k + f32b);
    assert_eq!(r.file_bytes, file.len() as u64);
    let a = &r.arch;
    assert_eq!(a.architecture.as_deref(), Some("llama"));
    assert_eq!((a.block_count, a.embedding_length), (Some(2), Some(256)));
    assert_eq!((a.head_count, a.head_count_kv), (Some(4), Some(2)));
    assert_eq!((a.vocab_size, a.tied_embeddings), (Some(300), Some(false)));
    assert_eq!(a.rope_freq_base, Some(500_000.0));
    let model = r.model.as_ref().expect("llama maps onto the core");
    assert_eq!(model["hf_config"]["num_key_value_heads"], 2);
    let check = r.weights_check.expect("Q4_K_M maps onto gguf-q4_k_m");
    assert_eq!(check.format.id(), "gguf-q4_k_m");
    assert_eq!(check.exact_bytes, r.tensor_bytes);
    let json = serde_json::to_value(&r.gguf).unwrap_or_default();
    assert_eq!(json["version"], 3);
    assert_eq!(json["alignment"], 32);
}

/// A reader that starts with 16 bytes and grows the prefix on `need_more` ends with the same
/// report as one given the whole file, without reading the tensor data.
#[test]
fn prefix_reading_grows_until_the_header_is_read() {
    for file in [small_gguf().file(), small_safetensors()] {
        let whole = one("m", &file).expect("valid");
        let mut have = 16usize;
        let mut rounds = 0;
        let r = loop {
            rounds += 1;
            let prefix = file.get(..have.min(file.len())).unwrap_or_default();
            match inspect(&[InputFile {
                name: "m",
                bytes: prefix,
                size: file.len() as u64,
            }]) {
                Err(HeaderError {
                    kind: ErrorKind::NeedMore { index: 0, bytes },
                    ..
                }) => have = (bytes as usize).max(have * 2),
                other => break other.expect("valid once the header is read"),
            }
        };
        assert_eq!(r, whole);
        assert!(rounds > 1 && (have as u64) < file.len() as u64 + 4096);
        assert!((have as u64) < r.header_bytes * 2 + 64, "read {have} bytes");
    }
}

#[test]
fn safetensors_round_trip_every_dtype() {
    let file = small_safetensors();
    let r = one("model.safetensors", &file).expect("valid");
    assert_eq!(r.format, FileFormat::Safetensors);
    // 8 elements each: F4 packs 2 per byte, F6 8 per 6 bytes, C64 8 bytes each.
    assert_eq!(r.bytes_by_dtype.get("F4"), Some(&4));
    assert_eq!(r.bytes_by_dtype.get("F6_E2M3"), Some(&6));
    assert_eq!(r.bytes_by_dtype.get("C64"), Some(&64));
    assert_eq!(r.bytes_by_dtype.get("BOOL"), Some(&8));
    assert_eq!(r.metadata.get("format").map(String::as_str), Some("pt"));
    assert_eq!(r.file_bytes, r.header_bytes + r.tensor_bytes);
    let a = &r.arch;
    assert_eq!(a.model_type.as_deref(), Some("qwen3"));
    assert_eq!((a.block_count, a.embedding_length), (Some(2), Some(64)));
    assert_eq!(
        (a.key_length, a.head_count, a.head_count_kv),
        (Some(16), Some(4), Some(2))
    );
    assert_eq!(
        (a.feed_forward_length, a.vocab_size),
        (Some(128), Some(300))
    );
    assert_eq!(a.tied_embeddings, Some(false));
    assert!(r.model.is_some(), "{:?}", r.model_unavailable);
    let check = r.weights_check.expect("bf16");
    // The core counts the model's own tensors; the file adds the 21 `extra.*` test tensors.
    let extra: u64 = r
        .bytes_by_dtype
        .iter()
        .filter(|(d, _)| d.as_str() != "BF16")
        .map(|(_, b)| b)
        .sum::<u64>();
    assert_eq!(check.estimated_bytes + extra, check.exact_bytes);
}

/// The scenario `model` a header yields is accepted by `estimate`.
#[test]
fn model_from_a_header_estimates() {
    let r = one("tiny.gguf", &small_gguf().file()).expect("valid");
    let scenario = serde_json::json!({
        "model": r.model, "weights": "gguf-q4_k_m",
        "workload": {"inference": {"context_tokens": 4096, "sequences": 1}}});
    let s: crate::Scenario = serde_json::from_value(scenario).expect("a scenario");
    let est = crate::estimate(&s).expect("estimates");
    assert!(est.total_bytes > 0);
}

fn shard_set() -> (Vec<u8>, Vec<u8>, String) {
    let a = safetensors(
        &[
            ("model.embed_tokens.weight", "BF16", &[100, 32]),
            ("model.layers.0.self_attn.q_proj.weight", "BF16", &[32, 32]),
        ],
        &[],
    );
    let b = safetensors(
        &[
            ("model.layers.0.self_attn.k_proj.weight", "BF16", &[16, 32]),
            ("lm_head.weight", "BF16", &[100, 32]),
        ],
        &[],
    );
    let index = r#"{"metadata": {"total_size": 15872}, "weight_map": {
        "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
        "model.layers.0.self_attn.q_proj.weight": "model-00001-of-00002.safetensors",
        "model.layers.0.self_attn.k_proj.weight": "model-00002-of-00002.safetensors",
        "lm_head.weight": "model-00002-of-00002.safetensors"}}"#
        .to_string();
    (a, b, index)
}

fn files<'a>(list: &'a [(&'a str, &'a [u8])]) -> Vec<InputFile<'a>> {
    list.iter()
        .map(|(name, bytes)| InputFile {
            name,
            bytes,
            size: bytes.len() as u64,
        })
        .collect()
}

#[test]
fn sharded_safetensors_merge_with_their_index() {
    let (a, b, index) = shard_set();
    let (na, nb) = (
        "dir/model-00001-of-00002.safetensors",
        "dir/model-00002-of-00002.safetensors",
    );
    let all = [
        (na, &a[..]),
        ("model.safetensors.index.json", index.as_bytes()),
        (nb, &b[..]),
    ];
    let r = inspect(&files(&all)).expect("a complete set");
    assert_eq!((r.files, r.tensor_count), (3, 4));
    assert_eq!(
        r.tensor_bytes,
        2 * (100 * 32 + 32 * 32 + 16 * 32 + 100 * 32)
    );
    assert_eq!(r.index_total_size, Some(r.tensor_bytes));
    // Without the index, the shards still merge.
    assert!(inspect(&files(&[(na, &a[..]), (nb, &b[..])])).is_ok());
    // A shard missing, or a tensor the index places elsewhere.
    let e = inspect(&files(&[(na, &a[..]), ("i.json", index.as_bytes())])).map(|_| ());
    assert!(matches!(
        e,
        Err(HeaderError {
            kind: ErrorKind::MissingShard { .. },
            ..
        })
    ));
    let moved = index.replace(
        "\"lm_head.weight\": \"model-00002",
        "\"lm_head.weight\": \"model-00001",
    );
    let e = inspect(&files(&[
        (na, &a[..]),
        (nb, &b[..]),
        ("i.json", moved.as_bytes()),
    ]));
    assert_eq!(
        e.map(|_| ()).map_err(|e| e.kind),
        Err(ErrorKind::IndexMismatch {
            tensor: "lm_head.weight".into()
        })
    );
    // The same tensor in two shards.
    let e = inspect(&files(&[(na, &a[..]), ("copy.safetensors", &a[..])]));
    assert!(matches!(
        e,
        Err(HeaderError {
            kind: ErrorKind::DuplicateTensor { .. },
            ..
        })
    ));
    let e = inspect(&files(&[
        ("i.json", index.as_bytes()),
        ("j.json", index.as_bytes()),
    ]));
    assert!(matches!(
        e,
        Err(HeaderError {
            kind: ErrorKind::SeveralIndexes,
            ..
        })
    ));
    let e = inspect(&files(&[
        (na, &a[..]),
        ("x.gguf", &small_gguf().file()[..]),
    ]));
    assert!(matches!(
        e,
        Err(HeaderError {
            kind: ErrorKind::MixedFormats,
            ..
        })
    ));
}

fn split(no: u16, count: u16, total: i32, tensors: &[(&str, &[u64])]) -> Vec<u8> {
    let mut g = Gguf::new()
        .kv("split.no", Val::U16(no))
        .kv("split.count", Val::U16(count))
        .kv("split.tensors.count", Val::I32(total));
    if no == 0 {
        g = g.kv("general.architecture", Val::Str("llama".into()));
    }
    for (n, ne) in tensors {
        g = g.tensor(n, ne, "f16");
    }
    g.file()
}

#[test]
fn gguf_splits_merge() {
    let s0 = split(0, 2, 3, &[("a", &[64, 2]), ("b", &[64])]);
    let s1 = split(1, 2, 3, &[("c", &[32, 4])]);
    let r = inspect(&files(&[
        ("m-00002-of-00002.gguf", &s1[..]),
        ("m-00001-of-00002.gguf", &s0[..]),
    ]))
    .expect("a complete split set");
    assert_eq!((r.tensor_count, r.tensor_bytes), (3, 2 * (128 + 64 + 128)));
    assert_eq!(r.gguf.as_ref().and_then(|g| g.split_count), Some(2));
    assert_eq!(r.arch.architecture.as_deref(), Some("llama"));
    let kind = |list: &[(&str, &[u8])]| inspect(&files(list)).map(|_| ()).map_err(|e| e.kind);
    assert_eq!(
        kind(&[("a", &s0[..])]),
        Err(ErrorKind::MissingSplit { no: 1 })
    );
    assert_eq!(
        kind(&[("a", &s0[..]), ("b", &s0[..])]),
        Err(ErrorKind::DuplicateSplit { no: 0 })
    );
    let wrong = split(1, 2, 4, &[("c", &[32, 4])]);
    assert_eq!(
        kind(&[("a", &s0[..]), ("b", &wrong[..])]),
        Err(ErrorKind::SplitTensorCount {
            expected: 4,
            found: 3
        })
    );
    let dup = split(1, 2, 3, &[("a", &[64, 2])]);
    assert_eq!(
        kind(&[("a", &s0[..]), ("b", &dup[..])]),
        Err(ErrorKind::DuplicateTensor { tensor: "a".into() })
    );
    let lone = small_gguf().file();
    assert_eq!(
        kind(&[("a", &lone[..]), ("b", &lone[..])]),
        Err(ErrorKind::NotOneSplitSet)
    );
}

// ---------------------------------------------------------------------------------------------
// Crafted files: one per class of malformed input.

/// GGUF header up to the counts.
fn gguf_start(version: u32, n_tensors: u64, n_kv: u64) -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend(version.to_le_bytes());
    out.extend(n_tensors.to_le_bytes());
    out.extend(n_kv.to_le_bytes());
    out
}

/// A GGUF with one tensor described by raw fields (name bytes, dims, type, offset), padded with
/// `data` zero bytes after the header.
fn gguf_tensor(
    kv: &[(&str, Val)],
    name: &[u8],
    ne: &[u64],
    ty: u32,
    offset: u64,
    data: usize,
) -> Vec<u8> {
    let mut out = gguf_start(3, 1, kv.len() as u64);
    for (k, v) in kv {
        let g = Gguf::new().kv(k, v.clone());
        let (h, _) = g.header();
        out.extend(h.get(24..).unwrap_or_default());
    }
    out.extend((name.len() as u64).to_le_bytes());
    out.extend(name);
    out.extend((ne.len() as u32).to_le_bytes());
    for d in ne {
        out.extend(d.to_le_bytes());
    }
    out.extend(ty.to_le_bytes());
    out.extend(offset.to_le_bytes());
    out.resize(out.len().next_multiple_of(32) + data, 0);
    out
}

/// A GGUF with one raw metadata entry (key bytes, type, payload).
fn gguf_kv_raw(key: &[u8], value_type: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = gguf_start(3, 0, 1);
    out.extend((key.len() as u64).to_le_bytes());
    out.extend(key);
    out.extend(value_type.to_le_bytes());
    out.extend(payload);
    out.resize(out.len() + 64, 0);
    out
}

fn array_header(elem: u32, n: u64) -> Vec<u8> {
    let mut v = elem.to_le_bytes().to_vec();
    v.extend(n.to_le_bytes());
    v
}

/// Every crafted class: a name, the file, and the kind it must get.
fn crafted() -> Vec<(&'static str, &'static str, Vec<u8>, ErrorKind)> {
    let t = |s: &str| s.to_string();
    let huge = 1u64 << 63;
    let st = |json: &str, data: u64| safetensors_raw(json, data);
    let mut nested = Vec::new();
    for _ in 0..MAX_ARRAY_DEPTH + 1 {
        nested.extend(array_header(9, 1));
    }
    nested.extend(array_header(0, 0));
    let mut big_st = (200_000_000u64).to_le_bytes().to_vec();
    big_st.extend(b"{}      ");
    let mut past_st = 1000u64.to_le_bytes().to_vec();
    past_st.extend(b"{}      ");
    let mut bad_utf8 = 8u64.to_le_bytes().to_vec();
    bad_utf8.extend(b"{\"\xff\":1} ");
    vec![
        (
            "gguf_version_1",
            "a.gguf",
            gguf_start(1, 0, 0),
            ErrorKind::UnsupportedVersion { version: 1 },
        ),
        (
            "gguf_version_big_endian",
            "a.gguf",
            gguf_start(3u32.swap_bytes(), 0, 0),
            ErrorKind::UnsupportedVersion {
                version: 3u32.swap_bytes(),
            },
        ),
        (
            "gguf_truncated_counts",
            "a.gguf",
            b"GGUF\x03\0\0\0\x01\0".to_vec(),
            ErrorKind::Truncated { at: 8 },
        ),
        (
            "gguf_tensor_count_2_63",
            "a.gguf",
            gguf_start(3, huge, 0),
            ErrorKind::LengthPastEnd {
                what: "tensor_count",
                length: huge,
            },
        ),
        (
            "gguf_kv_count_2_63",
            "a.gguf",
            gguf_start(3, 0, huge),
            ErrorKind::LengthPastEnd {
                what: "kv_count",
                length: huge,
            },
        ),
        (
            "gguf_key_length_2_63",
            "a.gguf",
            {
                let mut v = gguf_start(3, 0, 1);
                v.extend(huge.to_le_bytes());
                v.resize(64, 0);
                v
            },
            ErrorKind::LengthPastEnd {
                what: "string",
                length: huge,
            },
        ),
        (
            "gguf_string_value_2_63",
            "a.gguf",
            gguf_kv_raw(b"k", 8, &huge.to_le_bytes()),
            ErrorKind::LengthPastEnd {
                what: "string",
                length: huge,
            },
        ),
        (
            "gguf_array_length_2_63",
            "a.gguf",
            gguf_kv_raw(b"k", 9, &array_header(0, huge)),
            ErrorKind::LengthPastEnd {
                what: "array",
                length: huge,
            },
        ),
        (
            "gguf_string_array_2_63",
            "a.gguf",
            gguf_kv_raw(b"k", 9, &array_header(8, huge)),
            ErrorKind::LengthPastEnd {
                what: "array",
                length: huge,
            },
        ),
        (
            "gguf_u64_array_2_61",
            "a.gguf",
            gguf_kv_raw(b"k", 9, &array_header(10, 1 << 61)),
            ErrorKind::LengthPastEnd {
                what: "array",
                length: 1 << 61,
            },
        ),
        (
            "gguf_arrays_too_deep",
            "a.gguf",
            gguf_kv_raw(b"k", 9, &nested),
            ErrorKind::ArrayTooDeep { key: t("k") },
        ),
        (
            "gguf_unknown_value_type",
            "a.gguf",
            gguf_kv_raw(b"k", 13, &[0; 8]),
            ErrorKind::UnknownValueType {
                key: t("k"),
                value_type: 13,
            },
        ),
        (
            "gguf_unknown_array_type",
            "a.gguf",
            gguf_kv_raw(b"k", 9, &array_header(77, 1)),
            ErrorKind::UnknownValueType {
                key: t("k"),
                value_type: 77,
            },
        ),
        (
            "gguf_key_not_utf8",
            "a.gguf",
            gguf_kv_raw(b"\xc3\x28", 0, &[1]),
            ErrorKind::InvalidUtf8 { what: "key" },
        ),
        (
            "gguf_value_not_utf8",
            "a.gguf",
            gguf_kv_raw(b"k", 8, &{
                let mut v = 2u64.to_le_bytes().to_vec();
                v.extend(b"\xe2\x82");
                v
            }),
            ErrorKind::InvalidUtf8 { what: "value" },
        ),
        (
            "gguf_empty_key",
            "a.gguf",
            gguf_kv_raw(b"", 0, &[1]),
            ErrorKind::EmptyKey,
        ),
        (
            "gguf_duplicate_key",
            "a.gguf",
            Gguf::new().kv("k", Val::U8(1)).kv("k", Val::U8(2)).file(),
            ErrorKind::DuplicateKey { key: t("k") },
        ),
        (
            "gguf_alignment_zero",
            "a.gguf",
            Gguf::new().kv("general.alignment", Val::U32(0)).file(),
            ErrorKind::InvalidAlignment { alignment: Some(0) },
        ),
        (
            "gguf_alignment_not_power_of_two",
            "a.gguf",
            Gguf::new().kv("general.alignment", Val::U32(48)).file(),
            ErrorKind::InvalidAlignment {
                alignment: Some(48),
            },
        ),
        (
            "gguf_alignment_above_cap",
            "a.gguf",
            Gguf::new()
                .kv("general.alignment", Val::U32(1 << 30))
                .file(),
            ErrorKind::InvalidAlignment {
                alignment: Some(1 << 30),
            },
        ),
        (
            "gguf_alignment_not_u32",
            "a.gguf",
            Gguf::new().kv("general.alignment", Val::U64(32)).file(),
            ErrorKind::InvalidAlignment {
                alignment: Some(32),
            },
        ),
        (
            "gguf_tensor_name_not_utf8",
            "a.gguf",
            gguf_tensor(&[], b"\xff", &[32], 0, 0, 128),
            ErrorKind::InvalidUtf8 {
                what: "tensor_name",
            },
        ),
        (
            "gguf_five_dims",
            "a.gguf",
            gguf_tensor(&[], b"w", &[1, 1, 1, 1, 1], 0, 0, 64),
            ErrorKind::TooManyDims {
                tensor: t("w"),
                n_dims: 5,
            },
        ),
        (
            "gguf_zero_dim",
            "a.gguf",
            gguf_tensor(&[], b"w", &[32, 0], 0, 0, 64),
            ErrorKind::ZeroDimension { tensor: t("w") },
        ),
        (
            "gguf_element_overflow",
            "a.gguf",
            gguf_tensor(&[], b"w", &[1 << 32, 1 << 32], 0, 0, 64),
            ErrorKind::ElementCountOverflow { tensor: t("w") },
        ),
        (
            "gguf_byte_overflow",
            "a.gguf",
            gguf_tensor(&[], b"w", &[1 << 31, 1 << 31], 0, 0, 64),
            ErrorKind::ElementCountOverflow { tensor: t("w") },
        ),
        (
            "gguf_removed_type_q4_0_4_4",
            "a.gguf",
            gguf_tensor(&[], b"w", &[32], 31, 0, 64),
            ErrorKind::UnknownGgmlType {
                tensor: t("w"),
                type_id: 31,
            },
        ),
        (
            "gguf_unknown_type",
            "a.gguf",
            gguf_tensor(&[], b"w", &[32], 1000, 0, 64),
            ErrorKind::UnknownGgmlType {
                tensor: t("w"),
                type_id: 1000,
            },
        ),
        (
            "gguf_row_not_block_multiple",
            "a.gguf",
            gguf_tensor(&[], b"w", &[100, 2], type_id("q4_k"), 0, 4096),
            ErrorKind::RowNotBlockMultiple {
                tensor: t("w"),
                row: 100,
                block: 256,
            },
        ),
        (
            "gguf_offset_past_end",
            "a.gguf",
            gguf_tensor(&[], b"w", &[32], 0, 1 << 40, 128),
            ErrorKind::TensorPastEnd { tensor: t("w") },
        ),
        (
            "gguf_offset_wraps",
            "a.gguf",
            gguf_tensor(&[], b"w", &[32], 0, u64::MAX - 31, 128),
            ErrorKind::TensorPastEnd { tensor: t("w") },
        ),
        (
            "gguf_data_past_end",
            "a.gguf",
            gguf_tensor(&[], b"w", &[64], 0, 0, 128),
            ErrorKind::TensorPastEnd { tensor: t("w") },
        ),
        (
            "gguf_offset_unaligned",
            "a.gguf",
            gguf_tensor(&[], b"w", &[8], 0, 16, 128),
            ErrorKind::TensorUnaligned {
                tensor: t("w"),
                offset: 16,
                alignment: 32,
            },
        ),
        (
            "gguf_tensors_overlap",
            "a.gguf",
            {
                let mut f = Gguf::new()
                    .tensor("a", &[64], "f32")
                    .tensor("b", &[64], "f32")
                    .file();
                overlap(&mut f);
                f
            },
            ErrorKind::TensorsOverlap { tensor: t("b") },
        ),
        (
            "gguf_duplicate_tensor",
            "a.gguf",
            Gguf::new()
                .tensor("w", &[8], "f32")
                .tensor("w", &[8], "f32")
                .file(),
            ErrorKind::DuplicateTensor { tensor: t("w") },
        ),
        (
            "st_shorter_than_length",
            "m.safetensors",
            vec![1, 0, 0],
            ErrorKind::Truncated { at: 0 },
        ),
        (
            "st_header_above_100mb",
            "m.safetensors",
            big_st,
            ErrorKind::HeaderTooLarge { bytes: 200_000_000 },
        ),
        (
            "st_header_past_end",
            "m.safetensors",
            past_st,
            ErrorKind::LengthPastEnd {
                what: "header_length",
                length: 1000,
            },
        ),
        (
            "st_length_2_63",
            "m.safetensors",
            {
                let mut v = huge.to_le_bytes().to_vec();
                v.extend(b"{}");
                v
            },
            ErrorKind::HeaderTooLarge { bytes: huge },
        ),
        (
            "st_header_not_utf8",
            "m.safetensors",
            bad_utf8,
            ErrorKind::InvalidUtf8 { what: "header" },
        ),
        (
            "st_not_json",
            "m.safetensors",
            st("{\"a\": ", 0),
            ErrorKind::InvalidJson { line: 1, column: 8 },
        ),
        (
            "st_not_an_object",
            "m.safetensors",
            st("[1, 2]", 0),
            ErrorKind::InvalidJson { line: 1, column: 0 },
        ),
        (
            "st_unknown_dtype",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"F12","shape":[2],"data_offsets":[0,3]}}"#,
                3,
            ),
            ErrorKind::UnknownDtype {
                tensor: t("w"),
                dtype: t("F12"),
            },
        ),
        (
            "st_offsets_mismatch",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,15]}}"#,
                15,
            ),
            ErrorKind::OffsetsMismatch {
                tensor: t("w"),
                expected: 16,
                start: 0,
                end: 15,
            },
        ),
        (
            "st_offsets_reversed",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"U8","shape":[4],"data_offsets":[4,0]}}"#,
                4,
            ),
            ErrorKind::OffsetsMismatch {
                tensor: t("w"),
                expected: 4,
                start: 4,
                end: 0,
            },
        ),
        (
            "st_zero_dim",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"F32","shape":[0,4],"data_offsets":[0,0]}}"#,
                0,
            ),
            ErrorKind::ZeroDimension { tensor: t("w") },
        ),
        (
            "st_shape_overflow",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}}"#,
                4,
            ),
            ErrorKind::ElementCountOverflow { tensor: t("w") },
        ),
        (
            "st_bits_overflow",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"F64","shape":[4611686018427387903],"data_offsets":[0,4]}}"#,
                4,
            ),
            ErrorKind::ElementCountOverflow { tensor: t("w") },
        ),
        (
            "st_f4_odd_count",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}}"#,
                2,
            ),
            ErrorKind::SubByteMisaligned { tensor: t("w") },
        ),
        (
            "st_duplicate_tensor",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"w":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}"#,
                2,
            ),
            ErrorKind::DuplicateTensor { tensor: t("w") },
        ),
        (
            "st_duplicate_metadata_key",
            "m.safetensors",
            st(r#"{"__metadata__":{"a":"1","a":"2"}}"#, 0),
            ErrorKind::DuplicateKey { key: t("a") },
        ),
        (
            "st_gap",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}"#,
                2,
            ),
            ErrorKind::DataGap { tensor: t("w") },
        ),
        (
            "st_overlap",
            "m.safetensors",
            st(
                r#"{"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},"b":{"dtype":"U8","shape":[2],"data_offsets":[1,3]}}"#,
                3,
            ),
            ErrorKind::TensorsOverlap { tensor: t("b") },
        ),
        (
            "st_past_end",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"U8","shape":[9],"data_offsets":[0,9]}}"#,
                4,
            ),
            ErrorKind::TensorPastEnd { tensor: t("w") },
        ),
        (
            "st_offset_2_64",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"U8","shape":[1],"data_offsets":[18446744073709551615,0]}}"#,
                4,
            ),
            ErrorKind::OffsetsMismatch {
                tensor: t("w"),
                expected: 1,
                start: u64::MAX,
                end: 0,
            },
        ),
        (
            "st_incomplete_buffer",
            "m.safetensors",
            st(
                r#"{"w":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}}"#,
                5,
            ),
            ErrorKind::IncompleteBuffer {
                covered: 2,
                data: 5,
            },
        ),
        (
            "index_duplicate_tensor",
            "model.safetensors.index.json",
            br#"{"weight_map":{"w":"a","w":"b"}}"#.to_vec(),
            ErrorKind::DuplicateTensor { tensor: t("w") },
        ),
        (
            "index_not_utf8",
            "model.safetensors.index.json",
            b"{\"weight_map\":{\"\xff\":\"a\"}}".to_vec(),
            ErrorKind::InvalidUtf8 { what: "header" },
        ),
    ]
}

/// Rewrites the second tensor's offset of a two-tensor GGUF to the first's (0).
fn overlap(file: &mut [u8]) {
    // The second tensor info ends the header: name "b", n_dims, ne0, type, then its offset.
    let mut info = Vec::new();
    put_str(&mut info, "b");
    info.extend(1u32.to_le_bytes());
    info.extend(64u64.to_le_bytes());
    info.extend(0u32.to_le_bytes());
    if let Some(at) = file.windows(info.len()).position(|w| w == info.as_slice()) {
        let off = at + info.len();
        if let Some(slot) = file.get_mut(off..off + 8) {
            slot.copy_from_slice(&0u64.to_le_bytes());
        }
    }
}

fn check_case(name: &str) {
    let cases = crafted();
    let Some((_, file_name, bytes, want)) = cases.into_iter().find(|c| c.0 == name) else {
        panic!("no crafted case {name}");
    };
    let got = one(file_name, &bytes).map(|_| ()).map_err(|e| e.kind);
    assert_eq!(got, Err(want), "{name}");
    // The error serialises with its kind.
    let json = serde_json::to_value(one(file_name, &bytes).err()).unwrap_or_default();
    assert!(json["kind"].is_string(), "{name}: {json}");
    assert_eq!(json["file"], file_name);
}

macro_rules! refused {
    ($($case:ident),* $(,)?) => {
        $( #[test] fn $case() { check_case(stringify!($case)); } )*
        /// Every crafted case has its own test above.
        const CASE_NAMES: &[&str] = &[$(stringify!($case)),*];
    };
}

refused!(
    gguf_version_1,
    gguf_version_big_endian,
    gguf_truncated_counts,
    gguf_tensor_count_2_63,
    gguf_kv_count_2_63,
    gguf_key_length_2_63,
    gguf_string_value_2_63,
    gguf_array_length_2_63,
    gguf_string_array_2_63,
    gguf_u64_array_2_61,
    gguf_arrays_too_deep,
    gguf_unknown_value_type,
    gguf_unknown_array_type,
    gguf_key_not_utf8,
    gguf_value_not_utf8,
    gguf_empty_key,
    gguf_duplicate_key,
    gguf_alignment_zero,
    gguf_alignment_not_power_of_two,
    gguf_alignment_above_cap,
    gguf_alignment_not_u32,
    gguf_tensor_name_not_utf8,
    gguf_five_dims,
    gguf_zero_dim,
    gguf_element_overflow,
    gguf_byte_overflow,
    gguf_removed_type_q4_0_4_4,
    gguf_unknown_type,
    gguf_row_not_block_multiple,
    gguf_offset_past_end,
    gguf_offset_wraps,
    gguf_data_past_end,
    gguf_offset_unaligned,
    gguf_tensors_overlap,
    gguf_duplicate_tensor,
    st_shorter_than_length,
    st_header_above_100mb,
    st_header_past_end,
    st_length_2_63,
    st_header_not_utf8,
    st_not_json,
    st_not_an_object,
    st_unknown_dtype,
    st_offsets_mismatch,
    st_offsets_reversed,
    st_zero_dim,
    st_shape_overflow,
    st_bits_overflow,
    st_f4_odd_count,
    st_duplicate_tensor,
    st_duplicate_metadata_key,
    st_gap,
    st_overlap,
    st_past_end,
    st_offset_2_64,
    st_incomplete_buffer,
    index_duplicate_tensor,
    index_not_utf8,
);

#[test]
fn every_crafted_case_has_a_test() {
    let names: Vec<&str> = crafted().iter().map(|c| c.0).collect();
    assert_eq!(names, CASE_NAMES);
}

/// Each crafted file is refused in well under a millisecond (best of 5 runs, so a busy machine
/// does not fail the test), however large the counts and lengths it claims.
#[test]
fn crafted_files_are_refused_fast() {
    let mut slowest = (Duration::ZERO, "");
    for (name, file_name, bytes, _) in crafted() {
        let best = (0..5)
            .map(|_| {
                let t = Instant::now();
                let r = one(file_name, &bytes);
                let e = t.elapsed();
                assert!(r.is_err(), "{name}");
                e
            })
            .min()
            .unwrap_or_default();
        if best > slowest.0 {
            slowest = (best, name);
        }
        assert!(best < Duration::from_micros(500), "{name}: {best:?}");
    }
    eprintln!("slowest crafted refusal: {} in {:?}", slowest.1, slowest.0);
}

/// Cutting a valid file anywhere (and calling that the whole file) is refused, never accepted and
/// never answered with `need_more`: every cut inside the header and the first data bytes, then
/// every 997th byte of the data and its last 64 bytes.
#[test]
fn truncated_anywhere_is_refused() {
    for file in [small_gguf().file(), small_safetensors()] {
        let header = one("m", &file).map(|r| r.header_bytes).unwrap_or_default() as usize;
        assert!(header > 0);
        let cuts = (0..header + 64)
            .chain((header..file.len()).step_by(997))
            .chain(file.len().saturating_sub(64)..file.len());
        for cut in cuts {
            match one("m", file.get(..cut).unwrap_or_default()) {
                Ok(_) => panic!("accepted a file cut at {cut}"),
                Err(e) => assert!(!matches!(e.kind, ErrorKind::NeedMore { .. }), "cut {cut}"),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A real file's published size, from a synthesized header with its real tensor list.

/// Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf as published by bartowski (revision bf5b95e96dac, the
/// file `gguf.rs`'s own test reproduces): 4,920,739,232 bytes, 292 tensors. (4,920,734,016 B is
/// Ollama's `llama3.1:8b` blob of the same weights, whose metadata is 5,216 bytes shorter.)
const LLAMA31_8B_Q4KM_FILE: u64 = 4_920_739_232;
/// Where its data section starts: the metadata (mostly the tokenizer) and the tensor infos,
/// padded to 32 — the gap `gguf.rs`'s test measures between the file and its tensors.
const LLAMA31_8B_HEADER: u64 = 7_840_928;

/// The header: the real tensor list of Llama 3.1 8B (names, shapes, and the types llama.cpp's
/// quantiser gives each for Q4_K_M, from `gguf.rs`), real architecture keys, and a tokenizer of
/// 128,256 tokens and 280,147 merges whose strings are synthetic; the chat template's length is
/// set so the header ends where the published file's data starts.
fn llama31_8b_q4km() -> Gguf {
    use crate::inputs::gguf::{tensor_type_imatrix, GgufContext, GgufPreset, GgufTensor as T};
    let (layers, hidden, kv, ffn, vocab) = (32u32, 4096u64, 1024u64, 14_336u64, 128_256u64);
    let ctx = |layer, row_len| GgufContext {
        layer,
        n_layers: layers,
        n_gqa: 4,
        n_expert: 0,
        row_len,
    };
    let ty = |t, layer, row| tensor_type_imatrix(GgufPreset::Q4KM, t, &ctx(layer, row), true).id();
    let mut g = Gguf::new()
        .kv("general.architecture", Val::Str("llama".into()))
        .kv("general.type", Val::Str("model".into()))
        .kv(
            "general.name",
            Val::Str("Meta Llama 3.1 8B Instruct".into()),
        )
        .kv("llama.block_count", Val::U32(layers))
        .kv("llama.context_length", Val::U32(131_072))
        .kv("llama.embedding_length", Val::U32(4096))
        .kv("llama.feed_forward_length", Val::U32(14_336))
        .kv("llama.attention.head_count", Val::U32(32))
        .kv("llama.attention.head_count_kv", Val::U32(8))
        .kv("llama.rope.freq_base", Val::F32(500_000.0))
        .kv("llama.attention.layer_norm_rms_epsilon", Val::F32(1e-5))
        .kv("general.file_type", Val::U32(15))
        .kv("llama.vocab_size", Val::U32(128_256))
        .kv("llama.rope.dimension_count", Val::U32(128))
        .kv("tokenizer.ggml.model", Val::Str("gpt2".into()))
        .kv("tokenizer.ggml.pre", Val::Str("llama-bpe".into()))
        .kv(
            "tokenizer.ggml.tokens",
            Val::Arr(8, (0..vocab).map(|i| Val::Str(format!("{i:x}"))).collect()),
        )
        .kv(
            "tokenizer.ggml.token_type",
            Val::Arr(5, vec![Val::I32(1); vocab as usize]),
        )
        .kv(
            "tokenizer.ggml.merges",
            Val::Arr(
                8,
                (0..280_147u32)
                    .map(|i| Val::Str(format!("{} {}", i % 97, i % 89)))
                    .collect(),
            ),
        )
        .kv("tokenizer.ggml.bos_token_id", Val::U32(128_000))
        .kv("tokenizer.ggml.eos_token_id", Val::U32(128_009))
        .kv("general.quantization_version", Val::U32(2))
        .kv("tokenizer.chat_template", Val::Str(String::new()));
    g = g.tensor("rope_freqs.weight", &[64], "f32").tensor(
        "token_embd.weight",
        &[hidden, vocab],
        ty(T::TokenEmbd, 0, hidden),
    );
    for i in 0..layers {
        let b = format!("blk.{i}.");
        g = g
            .tensor(&format!("{b}attn_norm.weight"), &[hidden], "f32")
            .tensor(
                &format!("{b}attn_q.weight"),
                &[hidden, hidden],
                ty(T::AttnQ, i, hidden),
            )
            .tensor(
                &format!("{b}attn_k.weight"),
                &[hidden, kv],
                ty(T::AttnK, i, hidden),
            )
            .tensor(
                &format!("{b}attn_v.weight"),
                &[hidden, kv],
                ty(T::AttnV, i, hidden),
            )
            .tensor(
                &format!("{b}attn_output.weight"),
                &[hidden, hidden],
                ty(T::AttnOutput, i, hidden),
            )
            .tensor(&format!("{b}ffn_norm.weight"), &[hidden], "f32")
            .tensor(
                &format!("{b}ffn_gate.weight"),
                &[hidden, ffn],
                ty(T::FfnGate, i, hidden),
            )
            .tensor(
                &format!("{b}ffn_up.weight"),
                &[hidden, ffn],
                ty(T::FfnUp, i, hidden),
            )
            .tensor(
                &format!("{b}ffn_down.weight"),
                &[ffn, hidden],
                ty(T::FfnDown, i, ffn),
            );
    }
    g = g.tensor("output_norm.weight", &[hidden], "f32").tensor(
        "output.weight",
        &[hidden, vocab],
        ty(T::Output, 0, hidden),
    );
    // Fill the chat template so the header ends exactly at the published data offset.
    let (h, _) = g.header();
    let fill = LLAMA31_8B_HEADER.saturating_sub(h.len() as u64);
    if let Some((_, v)) =
        g.kv.iter_mut()
            .find(|(k, _)| k == "tokenizer.chat_template")
    {
        *v = Val::Str("x".repeat(fill as usize));
    }
    g
}

#[test]
fn llama31_8b_q4km_reproduces_the_published_file_size() {
    let g = llama31_8b_q4km();
    let (header, size) = g.header();
    assert_eq!(
        header.len() as u64,
        LLAMA31_8B_HEADER,
        "the synthesized header fits"
    );
    assert_eq!(size, LLAMA31_8B_Q4KM_FILE, "the writer's own layout");
    // Only the header is given; the size is the published file's.
    let read = |size| {
        inspect(&[InputFile {
            name: "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf",
            bytes: &header,
            size,
        }])
    };
    let t = Instant::now();
    let r = read(LLAMA31_8B_Q4KM_FILE).expect("the header of a published file");
    eprintln!(
        "Llama 3.1 8B Q4_K_M header ({} B) parsed in {:?}",
        header.len(),
        t.elapsed()
    );
    assert_eq!(r.tensor_count, 292);
    assert_eq!(r.header_bytes, LLAMA31_8B_HEADER);
    assert_eq!(r.header_bytes + r.tensor_bytes, LLAMA31_8B_Q4KM_FILE);
    assert_eq!(r.params, 8_030_261_312); // 8,030,261,248 + 64 rope frequencies
    let k = |d: &str| r.bytes_by_dtype.get(d).copied().unwrap_or_default();
    assert_eq!(k("q4_k") + k("q6_k") + k("f32"), r.tensor_bytes);
    assert_eq!(r.arch.vocab_size, Some(128_256));
    assert_eq!(r.arch.tied_embeddings, Some(false));
    // The last tensor ends at the file's last byte: one byte less and it is past the end.
    assert_eq!(
        read(LLAMA31_8B_Q4KM_FILE - 1)
            .map(|_| ())
            .map_err(|e| e.kind),
        Err(ErrorKind::TensorPastEnd {
            tensor: "output.weight".into()
        })
    );
    // The core's estimate from the architecture alone: every tensor but the 64 rope frequencies.
    let check = r.weights_check.expect("gguf-q4_k_m");
    assert_eq!(check.format.id(), "gguf-q4_k_m");
    assert_eq!(check.difference_bytes, -256);
    let model = r.model.expect("llama");
    let arch = crate::inputs::import::hf_config::parse_value(&model["hf_config"]).expect("config");
    assert_eq!(arch.param_count(), 8_030_261_248);
}

// ---------------------------------------------------------------------------------------------
// Seeded mutations of real headers.

/// One random mutation: bit flips, a truncation, a length-sized field overwritten with a huge or
/// random value, a splice from another seed, an insertion or a deletion.
fn mutate(rng: &mut Rng, file: &mut Vec<u8>, donors: &[Vec<u8>]) {
    const HUGE: [u64; 8] = [
        u64::MAX,
        1 << 63,
        1 << 32,
        u32::MAX as u64,
        100_000_001,
        0,
        1,
        (1 << 63) - 1,
    ];
    if file.is_empty() {
        file.push(0);
    }
    let len = file.len();
    match rng.below(7) {
        0 | 1 => {
            for _ in 0..=rng.below(4) {
                let at = rng.below(len);
                if let Some(b) = file.get_mut(at) {
                    *b ^= 1 << rng.below(8);
                }
            }
        }
        2 => file.truncate(rng.below(len)),
        3 => {
            let at = rng.below(len);
            let v = if rng.below(2) == 0 {
                HUGE[rng.below(HUGE.len())]
            } else {
                rng.next() >> rng.below(64)
            };
            let width = if rng.below(2) == 0 { 8 } else { 4 };
            let bytes = v.to_le_bytes();
            for (i, b) in bytes.iter().take(width).enumerate() {
                if let Some(slot) = file.get_mut(at + i) {
                    *slot = *b;
                }
            }
        }
        4 => {
            let donor = &donors[rng.below(donors.len())];
            let from = rng.below(donor.len());
            let n = rng.below(64).min(donor.len() - from);
            let at = rng.below(len);
            for i in 0..n {
                if let Some(slot) = file.get_mut(at + i) {
                    *slot = donor[from + i];
                }
            }
        }
        5 => {
            let at = rng.below(len);
            let n = rng.below(16) + 1;
            let junk: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            file.splice(at..at, junk);
        }
        _ => {
            let at = rng.below(len);
            let n = (rng.below(16) + 1).min(len - at);
            file.drain(at..at + n);
        }
    }
}

/// Small seeds (a few kilobytes each, so thousands of rounds stay fast): a GGUF with every value
/// type, nested arrays and several ggml types; a safetensors file with every dtype; a shard and
/// an index.
fn mutation_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let gguf = Gguf::new()
        .kv("general.architecture", Val::Str("llama".into()))
        .kv("general.alignment", Val::U32(32))
        .kv("general.file_type", Val::U32(7))
        .kv("llama.block_count", Val::U32(1))
        .kv("llama.embedding_length", Val::U32(32))
        .kv("llama.feed_forward_length", Val::U64(256))
        .kv("llama.attention.head_count", Val::U16(2))
        .kv(
            "llama.attention.head_count_kv",
            Val::Arr(4, vec![Val::U32(1)]),
        )
        .kv("llama.rope.freq_base", Val::F64(1e4))
        .kv("t.i8", Val::I8(-1))
        .kv("t.i16", Val::I16(-1))
        .kv("t.i64", Val::I64(-1))
        .kv("t.f32", Val::F32(0.5))
        .kv("t.bool", Val::Bool(false))
        .kv(
            "t.nested",
            Val::Arr(9, vec![Val::Arr(8, vec![Val::Str("x".into())])]),
        )
        .kv(
            "tokenizer.ggml.tokens",
            Val::Arr(8, (0..10).map(|i| Val::Str(format!("t{i}"))).collect()),
        )
        .kv(
            "tokenizer.ggml.token_type",
            Val::Arr(5, vec![Val::I32(1); 10]),
        )
        .tensor("token_embd.weight", &[32, 10], "q8_0")
        .tensor("blk.0.attn_q.weight", &[32, 32], "f16")
        .tensor("blk.0.ffn_down.weight", &[256, 1], "q4_k")
        .tensor("blk.0.x.weight", &[64, 1], "mxfp4")
        .tensor("output_norm.weight", &[32], "f32")
        .tensor("x.bf16", &[8], "bf16")
        .file();
    let dtypes = [
        "BOOL", "U8", "I8", "U16", "I16", "F16", "BF16", "U32", "I32", "F32", "U64", "I64", "F64",
        "C64", "F8_E4M3", "F8_E5M2", "F8_E8M0", "F4", "F6_E2M3", "F6_E3M2",
    ];
    let names: Vec<String> = dtypes
        .iter()
        .map(|d| format!("model.layers.0.{d}"))
        .collect();
    let mut entries: Vec<(&str, &str, &[u64])> = vec![
        ("model.embed_tokens.weight", "BF16", &[10, 8]),
        ("model.layers.0.self_attn.q_proj.weight", "BF16", &[8, 8]),
        ("model.layers.0.self_attn.k_proj.weight", "BF16", &[4, 8]),
        ("model.layers.0.mlp.gate_proj.weight", "BF16", &[16, 8]),
    ];
    for (n, d) in names.iter().zip(dtypes) {
        entries.push((n.as_str(), d, &[2, 4]));
    }
    let st = safetensors(&entries, &[("format", "pt")]);
    let (a, _, index) = shard_set();
    vec![
        ("m.gguf", gguf),
        ("m.safetensors", st),
        ("s.safetensors", a),
        ("model.safetensors.index.json", index.into_bytes()),
    ]
}

/// Thousands of mutations of real headers through both parsers (and the index reader): every
/// input ends in a report or a typed error, and a report never claims more tensor bytes than the
/// file holds.
#[test]
fn seeded_mutations_never_panic() {
    let seeds = mutation_seeds();
    for (name, seed) in &seeds {
        assert!(one(name, seed).is_ok() || name.ends_with(".json"), "{name}");
    }
    let donors: Vec<Vec<u8>> = seeds.iter().map(|(_, f)| f.clone()).collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut ok, mut refused, mut kinds) = (0u32, 0u32, std::collections::BTreeSet::new());
    let start = Instant::now();
    const ROUNDS: u32 = 24_000;
    for round in 0..ROUNDS {
        let (name, seed) = &seeds[(round as usize) % seeds.len()];
        let mut file = seed.clone();
        for _ in 0..=rng.below(3) {
            mutate(&mut rng, &mut file, &donors);
        }
        // Half the time only a prefix is given, with a larger claimed size.
        let extra = if rng.below(2) == 0 {
            0
        } else {
            rng.below(1 << 20) as u64
        };
        let cut = if extra == 0 {
            file.len()
        } else {
            rng.below(file.len() + 1)
        };
        let input = InputFile {
            name,
            bytes: file.get(..cut).unwrap_or_default(),
            size: file.len() as u64 + extra,
        };
        match inspect(&[input]) {
            Ok(r) => {
                ok += 1;
                assert!(r.tensor_bytes <= r.file_bytes, "round {round}");
                assert!(serde_json::to_string(&r).is_ok());
            }
            Err(e) => {
                refused += 1;
                let json = serde_json::to_value(&e).unwrap_or_default();
                let kind = json["kind"].as_str().map(str::to_string);
                assert!(kind.is_some(), "round {round}: {json}");
                kinds.extend(kind);
            }
        }
    }
    let elapsed = start.elapsed();
    eprintln!(
        "{ROUNDS} mutated headers in {elapsed:?}: {ok} accepted, {refused} refused, {} kinds: {kinds:?}",
        kinds.len()
    );
    assert!(
        ok > 100 && refused > 1000,
        "{ok} accepted, {refused} refused"
    );
    assert!(kinds.len() >= 15, "{kinds:?}");
}

/// Files that are no checkpoint at all (text, a PyTorch pickle) are "not recognised", not a
/// safetensors header of absurd length; each refusal class is what a page explains it by.
#[test]
fn other_files_are_not_recognized() {
    let pickle = [0x80u8, 0x02, b'c', b'_', b'_', b'b', b'u', b'i', b'l', b't'];
    for (name, bytes) in [
        ("notes.txt", &b"hello world, not a model"[..]),
        ("pytorch_model.bin", &pickle[..]),
    ] {
        let err = one(name, bytes).expect_err("refused");
        assert_eq!(err.kind, ErrorKind::NotRecognized, "{name}");
        assert_eq!(err.kind.class(), RefusalClass::NotRecognized);
    }
    assert_eq!(
        ErrorKind::Truncated { at: 3 }.class(),
        RefusalClass::Truncated
    );
    assert_eq!(
        ErrorKind::LengthPastEnd {
            what: "string",
            length: 1 << 63
        }
        .class(),
        RefusalClass::Malformed
    );
}
