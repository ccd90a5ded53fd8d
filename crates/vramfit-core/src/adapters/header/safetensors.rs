//! safetensors header reader, and the sharded form's `model.safetensors.index.json`.
//!
//! Layout (huggingface/safetensors `README.md` "Format", `safetensors/src/tensor.rs`
//! `SafeTensors::read_metadata` and `Metadata::validate`): `u64` little-endian header length `N` ·
//! `N` bytes of UTF-8 JSON · the data buffer. The JSON maps each tensor name to
//! `{"dtype", "shape", "data_offsets": [begin, end]}` (offsets relative to the data buffer) and
//! may hold `"__metadata__"`: a string → string map. Checks, as the reference reader makes them:
//! `N` ≤ 100,000,000 (`MAX_HEADER_SIZE`); each tensor's `end − begin` equals
//! `Π shape × bits(dtype) / 8`, with sub-byte dtypes (F4, F6) ending on a byte; sorted by offset,
//! the tensors tile the buffer from 0 to its end with no gap or overlap. Dtypes and their bits are
//! `Dtype::bitsize`: BOOL, U8, I8, F8_E5M2, F8_E4M3, F8_E8M0, F8_E4M3FNUZ, F8_E5M2FNUZ 8; F4 4;
//! F6_E2M3, F6_E3M2 6; U16, I16, F16, BF16 16; U32, I32, F32 32; U64, I64, F64, C64 64.
//!
//! Stricter than the reference reader: a duplicate key (which JSON-to-map parsing would silently
//! drop) and a zero dimension are refused. The index file (written by transformers'
//! `save_pretrained`, `modeling_utils.py`) is `{"metadata": {"total_size": …}, "weight_map":
//! {tensor: shard file}}`.

use super::error::{clip, ErrorKind};
use super::FileTensor;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::marker::PhantomData;

/// safetensors' `MAX_HEADER_SIZE`.
pub(crate) const MAX_HEADER_BYTES: u64 = 100_000_000;
/// Largest index file read (its weight map has one line per tensor).
pub(crate) const MAX_INDEX_BYTES: u64 = 100_000_000;

/// Bits per element of a safetensors dtype.
pub(crate) fn dtype_bits(dtype: &str) -> Option<u64> {
    Some(match dtype {
        "F4" => 4,
        "F6_E2M3" | "F6_E3M2" => 6,
        "BOOL" | "U8" | "I8" | "F8_E5M2" | "F8_E4M3" | "F8_E8M0" | "F8_E4M3FNUZ"
        | "F8_E5M2FNUZ" => 8,
        "U16" | "I16" | "F16" | "BF16" => 16,
        "U32" | "I32" | "F32" => 32,
        "U64" | "I64" | "F64" | "C64" => 64,
        _ => return None,
    })
}

/// One parsed safetensors header.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SafetensorsFile {
    /// `8 + N`: where the data buffer starts.
    pub header_bytes: u64,
    /// Tensors in offset order, with absolute file offsets.
    pub tensors: Vec<FileTensor>,
    /// `__metadata__`.
    pub metadata: BTreeMap<String, String>,
}

/// A parsed `model.safetensors.index.json`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Index {
    /// Tensor → shard file name.
    pub weight_map: BTreeMap<String, String>,
    /// `metadata.total_size`, when present.
    pub total_size: Option<u64>,
}

/// A JSON object read as ordered entries, remembering the first repeated key.
struct DupMap<V> {
    entries: Vec<(String, V)>,
    duplicate: Option<String>,
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for DupMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V_<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for V_<V> {
            type Value = DupMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut seen = BTreeSet::new();
                let mut out = DupMap {
                    entries: Vec::new(),
                    duplicate: None,
                };
                while let Some(key) = map.next_key::<String>()? {
                    let value = map.next_value::<V>()?;
                    if !seen.insert(key.clone()) && out.duplicate.is_none() {
                        out.duplicate = Some(key);
                        continue;
                    }
                    out.entries.push((key, value));
                }
                Ok(out)
            }
        }
        d.deserialize_map(V_(PhantomData))
    }
}

/// One tensor entry as written.
#[derive(serde::Deserialize)]
struct RawEntry {
    dtype: String,
    shape: Vec<u64>,
    data_offsets: (u64, u64),
}

/// A header value: `__metadata__` or a tensor entry, told apart by the key.
enum HeaderValue {
    Metadata(DupMap<String>),
    Tensor(RawEntry),
}

/// The header object.
struct RawHeader {
    entries: Vec<(String, HeaderValue)>,
    duplicate: Option<String>,
}

impl<'de> Deserialize<'de> for RawHeader {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V_;
        impl<'de> Visitor<'de> for V_ {
            type Value = RawHeader;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a safetensors header object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawHeader, A::Error> {
                let mut seen = BTreeSet::new();
                let mut out = RawHeader {
                    entries: Vec::new(),
                    duplicate: None,
                };
                while let Some(key) = map.next_key::<String>()? {
                    let value = if key == "__metadata__" {
                        HeaderValue::Metadata(map.next_value()?)
                    } else {
                        HeaderValue::Tensor(map.next_value()?)
                    };
                    if !seen.insert(key.clone()) {
                        out.duplicate.get_or_insert(key);
                        continue;
                    }
                    out.entries.push((key, value));
                }
                Ok(out)
            }
        }
        d.deserialize_map(V_)
    }
}

fn json_error(e: &serde_json::Error) -> ErrorKind {
    ErrorKind::InvalidJson {
        line: e.line(),
        column: e.column(),
    }
}

/// Parses the safetensors header in `buf`, the first bytes of a file of `size` bytes (`size` below
/// `buf.len()` counts as `buf.len()`).
pub(crate) fn parse(buf: &[u8], size: u64, index: usize) -> Result<SafetensorsFile, ErrorKind> {
    let size = size.max(buf.len() as u64);
    if size < 8 {
        return Err(ErrorKind::Truncated { at: 0 });
    }
    let Some(len) = buf.get(..8).and_then(|b| <[u8; 8]>::try_from(b).ok()) else {
        return Err(ErrorKind::NeedMore { index, bytes: 8 });
    };
    let n = u64::from_le_bytes(len);
    if n > MAX_HEADER_BYTES {
        return Err(ErrorKind::HeaderTooLarge { bytes: n });
    }
    let header_bytes = 8 + n;
    if header_bytes > size {
        return Err(ErrorKind::LengthPastEnd {
            what: "header_length",
            length: n,
        });
    }
    let Some(json) = usize::try_from(header_bytes)
        .ok()
        .and_then(|end| buf.get(8..end))
    else {
        return Err(ErrorKind::NeedMore {
            index,
            bytes: header_bytes,
        });
    };
    let text = std::str::from_utf8(json).map_err(|_| ErrorKind::InvalidUtf8 { what: "header" })?;
    let raw: RawHeader = serde_json::from_str(text).map_err(|e| json_error(&e))?;
    if let Some(key) = raw.duplicate {
        return Err(ErrorKind::DuplicateTensor { tensor: clip(&key) });
    }
    let mut metadata = BTreeMap::new();
    let mut tensors = Vec::new();
    for (name, value) in raw.entries {
        match value {
            HeaderValue::Metadata(m) => {
                if let Some(key) = m.duplicate {
                    return Err(ErrorKind::DuplicateKey { key: clip(&key) });
                }
                metadata.extend(m.entries);
            }
            HeaderValue::Tensor(e) => tensors.push(tensor(name, e)?),
        }
    }
    tensors.sort_by_key(|t| (t.start, t.bytes));
    let data = size - header_bytes;
    let mut covered = 0u64;
    for t in &mut tensors {
        if t.start > covered {
            return Err(ErrorKind::DataGap {
                tensor: clip(&t.name),
            });
        }
        if t.start < covered {
            return Err(ErrorKind::TensorsOverlap {
                tensor: clip(&t.name),
            });
        }
        covered = t.start + t.bytes;
        if covered > data {
            return Err(ErrorKind::TensorPastEnd {
                tensor: clip(&t.name),
            });
        }
        t.start += header_bytes;
    }
    if covered != data {
        return Err(ErrorKind::IncompleteBuffer { covered, data });
    }
    Ok(SafetensorsFile {
        header_bytes,
        tensors,
        metadata,
    })
}

/// One entry → a tensor with its offset relative to the data buffer.
fn tensor(name: String, e: RawEntry) -> Result<FileTensor, ErrorKind> {
    let Some(bits) = dtype_bits(&e.dtype) else {
        return Err(ErrorKind::UnknownDtype {
            tensor: clip(&name),
            dtype: e.dtype.chars().take(32).collect(),
        });
    };
    if e.shape.contains(&0) {
        return Err(ErrorKind::ZeroDimension {
            tensor: clip(&name),
        });
    }
    let overflow = || ErrorKind::ElementCountOverflow {
        tensor: clip(&name),
    };
    let elements = e
        .shape
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        .filter(|&n| n <= i64::MAX as u64)
        .ok_or_else(overflow)?;
    let total_bits = elements.checked_mul(bits).ok_or_else(overflow)?;
    if total_bits % 8 != 0 {
        return Err(ErrorKind::SubByteMisaligned {
            tensor: clip(&name),
        });
    }
    let bytes = total_bits / 8;
    let (start, end) = e.data_offsets;
    if end.checked_sub(start) != Some(bytes) {
        return Err(ErrorKind::OffsetsMismatch {
            tensor: clip(&name),
            expected: bytes,
            start,
            end,
        });
    }
    Ok(FileTensor {
        name,
        shape: e.shape,
        dtype: e.dtype,
        elements,
        bytes,
        start,
    })
}

/// The index file, read whole.
#[derive(serde::Deserialize)]
struct RawIndex {
    #[serde(default)]
    metadata: Option<RawIndexMetadata>,
    weight_map: DupMap<String>,
}

#[derive(serde::Deserialize)]
struct RawIndexMetadata {
    #[serde(default)]
    total_size: Option<serde_json::Value>,
}

/// Parses a `model.safetensors.index.json` (it must be given whole: `buf.len() == size`).
pub(crate) fn parse_index(buf: &[u8], size: u64, index: usize) -> Result<Index, ErrorKind> {
    let size = size.max(buf.len() as u64);
    if size > MAX_INDEX_BYTES {
        return Err(ErrorKind::HeaderTooLarge { bytes: size });
    }
    if (buf.len() as u64) < size {
        return Err(ErrorKind::NeedMore { index, bytes: size });
    }
    let text = std::str::from_utf8(buf).map_err(|_| ErrorKind::InvalidUtf8 { what: "header" })?;
    // A model's config.json (dropped beside or instead of its weights) is said to be one.
    if let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(text) {
        if !o.contains_key("weight_map")
            && (o.contains_key("model_type") || o.contains_key("architectures"))
        {
            return Err(ErrorKind::ModelConfig);
        }
    }
    let raw: RawIndex = serde_json::from_str(text).map_err(|e| json_error(&e))?;
    if let Some(key) = raw.weight_map.duplicate {
        return Err(ErrorKind::DuplicateTensor { tensor: clip(&key) });
    }
    let total_size = raw
        .metadata
        .and_then(|m| m.total_size)
        .and_then(|v| v.as_u64().or_else(|| v.as_f64().map(|f| f as u64)));
    Ok(Index {
        weight_map: raw.weight_map.entries.into_iter().collect(),
        total_size,
    })
}
