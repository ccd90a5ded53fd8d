//! Test-only writers of small, spec-following safetensors and GGUF files (layouts as in
//! `gguf_file.rs` / `safetensors.rs`), and a seeded xorshift generator for the mutation tests.

use super::ggml_types::GGML_TYPES;

/// A GGUF metadata value to write.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    F32(f32),
    Bool(bool),
    Str(String),
    U64(u64),
    I64(i64),
    F64(f64),
    /// Element type id and elements (written without their own type ids).
    Arr(u32, Vec<Val>),
}

impl Val {
    fn type_id(&self) -> u32 {
        match self {
            Val::U8(_) => 0,
            Val::I8(_) => 1,
            Val::U16(_) => 2,
            Val::I16(_) => 3,
            Val::U32(_) => 4,
            Val::I32(_) => 5,
            Val::F32(_) => 6,
            Val::Bool(_) => 7,
            Val::Str(_) => 8,
            Val::Arr(..) => 9,
            Val::U64(_) => 10,
            Val::I64(_) => 11,
            Val::F64(_) => 12,
        }
    }

    fn put(&self, out: &mut Vec<u8>) {
        match self {
            Val::U8(v) => out.push(*v),
            Val::I8(v) => out.extend(v.to_le_bytes()),
            Val::U16(v) => out.extend(v.to_le_bytes()),
            Val::I16(v) => out.extend(v.to_le_bytes()),
            Val::U32(v) => out.extend(v.to_le_bytes()),
            Val::I32(v) => out.extend(v.to_le_bytes()),
            Val::F32(v) => out.extend(v.to_le_bytes()),
            Val::Bool(v) => out.push(u8::from(*v)),
            Val::Str(s) => put_str(out, s),
            Val::U64(v) => out.extend(v.to_le_bytes()),
            Val::I64(v) => out.extend(v.to_le_bytes()),
            Val::F64(v) => out.extend(v.to_le_bytes()),
            Val::Arr(elem, items) => {
                out.extend(elem.to_le_bytes());
                out.extend((items.len() as u64).to_le_bytes());
                for i in items {
                    i.put(out);
                }
            }
        }
    }
}

/// A GGUF string: `u64` length + bytes.
pub(crate) fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

/// The ggml type id for a type name.
pub(crate) fn type_id(name: &str) -> u32 {
    GGML_TYPES
        .iter()
        .find(|t| t.name == name)
        .map_or(u32::MAX, |t| t.id)
}

/// A GGUF file description.
#[derive(Clone, Debug)]
pub(crate) struct Gguf {
    pub version: u32,
    pub kv: Vec<(String, Val)>,
    /// Name, `ne` (fastest dimension first), ggml type id.
    pub tensors: Vec<(String, Vec<u64>, u32)>,
    pub alignment: u64,
}

impl Gguf {
    pub(crate) fn new() -> Gguf {
        Gguf {
            version: 3,
            kv: Vec::new(),
            tensors: Vec::new(),
            alignment: 32,
        }
    }

    pub(crate) fn kv(mut self, key: &str, v: Val) -> Gguf {
        self.kv.push((key.to_string(), v));
        self
    }

    pub(crate) fn tensor(mut self, name: &str, ne: &[u64], ty: &str) -> Gguf {
        self.tensors
            .push((name.to_string(), ne.to_vec(), type_id(ty)));
        self
    }

    /// Bytes of a tensor's data.
    fn data_bytes(ne: &[u64], ty: u32) -> u64 {
        let t = GGML_TYPES.iter().find(|t| t.id == ty);
        let n: u64 = ne.iter().product();
        t.map_or(0, |t| n / t.block_elems * t.block_bytes)
    }

    /// The header (padded to the alignment when there are tensors) and the total file size.
    pub(crate) fn header(&self) -> (Vec<u8>, u64) {
        let mut out = b"GGUF".to_vec();
        out.extend(self.version.to_le_bytes());
        out.extend((self.tensors.len() as u64).to_le_bytes());
        out.extend((self.kv.len() as u64).to_le_bytes());
        for (k, v) in &self.kv {
            put_str(&mut out, k);
            out.extend(v.type_id().to_le_bytes());
            v.put(&mut out);
        }
        let mut offset = 0u64;
        for (name, ne, ty) in &self.tensors {
            put_str(&mut out, name);
            out.extend((ne.len() as u32).to_le_bytes());
            for d in ne {
                out.extend(d.to_le_bytes());
            }
            out.extend(ty.to_le_bytes());
            out.extend(offset.to_le_bytes());
            offset += Self::data_bytes(ne, *ty).next_multiple_of(self.alignment);
        }
        if !self.tensors.is_empty() {
            out.resize(
                (out.len() as u64).next_multiple_of(self.alignment) as usize,
                0,
            );
        }
        let size = out.len() as u64 + offset;
        (out, size)
    }

    /// The whole file, tensor data zeroed (small tensors only).
    pub(crate) fn file(&self) -> Vec<u8> {
        let (mut out, size) = self.header();
        out.resize(size as usize, 0);
        out
    }
}

/// A safetensors file from `(name, dtype, shape)` entries, offsets in order, zeroed data, the JSON
/// padded with spaces to a multiple of 8 (as `safetensors.serialize` does).
pub(crate) fn safetensors(entries: &[(&str, &str, &[u64])], metadata: &[(&str, &str)]) -> Vec<u8> {
    let mut obj = serde_json::Map::new();
    if !metadata.is_empty() {
        let m: serde_json::Map<String, serde_json::Value> = metadata
            .iter()
            .map(|(k, v)| (k.to_string(), serde_json::json!(v)))
            .collect();
        obj.insert("__metadata__".into(), serde_json::Value::Object(m));
    }
    let mut offset = 0u64;
    for (name, dtype, shape) in entries {
        let bits = super::safetensors::dtype_bits(dtype).unwrap_or(8);
        let bytes = shape.iter().product::<u64>() * bits / 8;
        obj.insert(
            name.to_string(),
            serde_json::json!({"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + bytes]}),
        );
        offset += bytes;
    }
    let json = serde_json::Value::Object(obj).to_string();
    safetensors_raw(&json, offset)
}

/// A safetensors file from header text and a data length (zeroed data).
pub(crate) fn safetensors_raw(json: &str, data: u64) -> Vec<u8> {
    let mut header = json.as_bytes().to_vec();
    header.resize(header.len().next_multiple_of(8), b' ');
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend(header);
    out.resize(out.len() + data as usize, 0);
    out
}

/// xorshift64* (Vigna 2016): a small seeded generator, std only.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
