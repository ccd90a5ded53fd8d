//! `vramfit inspect`: small safetensors and GGUF files written here (to Cargo's per-test temporary
//! folder), read by the binary; a multi-gigabyte sparse GGUF is read through its header only.

use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::Command;

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("inspect-{name}"))
}

fn write(name: &str, bytes: &[u8]) -> String {
    let path = tmp(name);
    std::fs::write(&path, bytes).expect("temporary file");
    path.to_string_lossy().into_owned()
}

/// Runs `vramfit inspect` on the paths: exit code, stdout JSON, stderr JSON.
fn run(paths: &[&str]) -> (i32, Value, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .arg("inspect")
        .args(paths)
        .output()
        .expect("the binary runs");
    let parse = |b: &[u8]| serde_json::from_slice(b).unwrap_or(Value::Null);
    (
        out.status.code().unwrap_or(-1),
        parse(&out.stdout),
        parse(&out.stderr),
    )
}

/// A safetensors file (offsets in order, zeroed data).
fn safetensors(entries: &[(&str, &str, &[u64], u64)]) -> Vec<u8> {
    let mut obj = serde_json::Map::new();
    let mut offset = 0;
    for (name, dtype, shape, elem_bytes) in entries {
        let n = shape.iter().product::<u64>() * elem_bytes;
        obj.insert(
            name.to_string(),
            json!({"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + n]}),
        );
        offset += n;
    }
    let mut header = Value::Object(obj).to_string().into_bytes();
    header.resize(header.len().next_multiple_of(8), b' ');
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend(header);
    out.resize(out.len() + offset as usize, 0);
    out
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

/// A GGUF v3 header (u32 and string metadata; tensors as name, `ne`, ggml type id, bytes), padded
/// to 32, and the file size its tensors need.
fn gguf_header(
    kv: &[(&str, Result<u32, &str>)],
    tensors: &[(&str, &[u64], u32, u64)],
) -> (Vec<u8>, u64) {
    let mut out = b"GGUF".to_vec();
    out.extend(3u32.to_le_bytes());
    out.extend((tensors.len() as u64).to_le_bytes());
    out.extend((kv.len() as u64).to_le_bytes());
    for (k, v) in kv {
        put_str(&mut out, k);
        match v {
            Ok(n) => {
                out.extend(4u32.to_le_bytes());
                out.extend(n.to_le_bytes());
            }
            Err(s) => {
                out.extend(8u32.to_le_bytes());
                put_str(&mut out, s);
            }
        }
    }
    let mut offset = 0u64;
    for (name, ne, ty, bytes) in tensors {
        put_str(&mut out, name);
        out.extend((ne.len() as u32).to_le_bytes());
        for d in *ne {
            out.extend(d.to_le_bytes());
        }
        out.extend(ty.to_le_bytes());
        out.extend(offset.to_le_bytes());
        offset += bytes.next_multiple_of(32);
    }
    out.resize(out.len().next_multiple_of(32), 0);
    let size = out.len() as u64 + offset;
    (out, size)
}

#[test]
fn reads_a_safetensors_file() {
    let file = write(
        "one.safetensors",
        &safetensors(&[
            ("model.embed_tokens.weight", "BF16", &[100, 64], 2),
            (
                "model.layers.0.self_attn.q_proj.weight",
                "F32",
                &[64, 64],
                4,
            ),
        ]),
    );
    let (code, out, _) = run(&[&file]);
    assert_eq!(code, 0);
    assert_eq!(out["format"], "safetensors");
    assert_eq!(out["tensor_count"], 2);
    assert_eq!(out["tensor_bytes"], 100 * 64 * 2 + 64 * 64 * 4);
    assert_eq!(out["params"], 100 * 64 + 64 * 64);
    assert_eq!(out["bytes_by_dtype"]["BF16"], 100 * 64 * 2);
    assert_eq!(out["arch"]["embedding_length"], 64);
}

#[test]
fn merges_shards_with_their_index() {
    let a = write(
        "model-00001-of-00002.safetensors",
        &safetensors(&[("a", "F16", &[8, 8], 2)]),
    );
    let b = write(
        "model-00002-of-00002.safetensors",
        &safetensors(&[("b", "F16", &[8, 4], 2)]),
    );
    let index = write(
        "model.safetensors.index.json",
        json!({"metadata": {"total_size": 192}, "weight_map": {
            "a": "inspect-model-00001-of-00002.safetensors",
            "b": "inspect-model-00002-of-00002.safetensors"}})
        .to_string()
        .as_bytes(),
    );
    let (code, out, err) = run(&[&a, &index, &b]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        (out["files"].clone(), out["tensor_bytes"].clone()),
        (json!(3), json!(192))
    );
    assert_eq!(out["index_total_size"], 192);
    // Without the second shard the index names a missing file.
    let (code, _, err) = run(&[&a, &index]);
    assert_eq!(code, 1);
    assert_eq!(err["error"]["kind"], "missing_shard");
}

/// A 4 GiB GGUF (sparse: only its header is written) is read through its header only.
#[test]
fn reads_only_the_header_of_a_large_gguf() {
    let (rows, cols) = (262_144u64, 4096u64); // f16: 2 GiB per tensor
    let bytes = rows * cols * 2;
    let (header, size) = gguf_header(
        &[
            ("general.architecture", Err("llama")),
            ("general.file_type", Ok(1)),
            ("llama.block_count", Ok(1)),
            ("llama.embedding_length", Ok(4096)),
        ],
        &[
            ("token_embd.weight", &[cols, rows], 1, bytes),
            ("output.weight", &[cols, rows], 1, bytes),
        ],
    );
    let path = tmp("large.gguf");
    let file = std::fs::File::create(&path).expect("temporary file");
    std::io::Write::write_all(&mut &file, &header).expect("header written");
    file.set_len(size).expect("sparse file");
    let path = path.to_string_lossy().into_owned();
    let (json, read) =
        vramfit_cli::inspect::inspect_paths(std::slice::from_ref(&path)).expect("a valid header");
    assert!(
        read <= vramfit_cli::inspect::FIRST_CHUNK,
        "read {read} bytes"
    );
    let out: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
    assert_eq!(out["tensor_bytes"], 2 * bytes);
    assert_eq!(out["file_bytes"], size);
    assert_eq!(out["gguf"]["version"], 3);
    let (code, out, _) = run(&[&path]);
    assert_eq!(code, 0);
    assert_eq!(out["bytes_by_dtype"]["f16"], 2 * bytes);
    // One byte short of the data and the last tensor is past the end.
    file.set_len(size - 1).expect("truncate");
    let (code, _, err) = run(&[&path]);
    assert_eq!(code, 1);
    assert_eq!(err["error"]["kind"], "tensor_past_end");
    assert_eq!(err["error"]["file"], "inspect-large.gguf");
    let _ = std::fs::remove_file(tmp("large.gguf"));
}

/// A header longer than the first chunk is read in growing chunks.
#[test]
fn grows_past_the_first_chunk() {
    let long = "x".repeat(3 << 20);
    let (header, size) = gguf_header(
        &[("general.architecture", Err("llama")), ("long", Err(&long))],
        &[("w", &[1 << 21], 0, 8 << 20)],
    );
    let mut file = header;
    file.resize(size as usize, 0);
    let path = write("long.gguf", &file);
    let (json, read) =
        vramfit_cli::inspect::inspect_paths(std::slice::from_ref(&path)).expect("valid");
    assert!(read >= 3 << 20 && read < size, "read {read} of {size}");
    assert!(json.contains("\"tensor_bytes\":8388608"), "{json}");
    let _ = std::fs::remove_file(tmp("long.gguf"));
}

#[test]
fn refuses_crafted_files_and_reports_io_errors() {
    // A metadata string claiming 2^63 bytes.
    let mut crafted = b"GGUF".to_vec();
    crafted.extend(3u32.to_le_bytes());
    crafted.extend(0u64.to_le_bytes());
    crafted.extend(1u64.to_le_bytes());
    crafted.extend((1u64 << 63).to_le_bytes());
    crafted.resize(64, 0);
    let path = write("crafted.gguf", &crafted);
    let (code, out, err) = run(&[&path]);
    assert_eq!((code, out), (1, Value::Null));
    assert_eq!(err["error"]["kind"], "length_past_end");
    assert_eq!(err["error"]["what"], "string");

    let missing = tmp("does-not-exist.gguf").to_string_lossy().into_owned();
    let (code, _, err) = run(&[&missing]);
    assert_eq!(code, 2);
    assert_eq!(err["error"]["kind"], "io");

    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .arg("inspect")
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("vramfit inspect FILE"));
}
