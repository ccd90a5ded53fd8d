//! GGUF v2/v3 header reader: magic, version, counts, typed metadata, tensor infos, alignment.
//!
//! Layout (ggml-org/ggml `docs/gguf.md`; llama.cpp `ggml/include/gguf.h`, `ggml/src/gguf.cpp`
//! `gguf_init_from_reader`), all little-endian:
//! `"GGUF"` · `u32 version` · `u64 tensor_count` · `u64 kv_count` · kv × (`string key` · `u32 type` ·
//! value) · tensor × (`string name` · `u32 n_dims` · `u64 ne[n_dims]` · `u32 ggml_type` ·
//! `u64 offset`) · padding to `general.alignment` (default 32) · tensor data. A string is
//! `u64 len` then UTF-8 bytes; an array is `u32 element type` · `u64 n` · n values. Value types:
//! 0 u8, 1 i8, 2 u16, 3 i16, 4 u32, 5 i32, 6 f32, 7 bool, 8 string, 9 array, 10 u64, 11 i64,
//! 12 f64. Version 1 (32-bit counts) is refused, as llama.cpp does.
//!
//! Nothing is allocated from a count read from the file: every count and length is first checked
//! against what is left of the file (each element takes at least its minimum encoded size), and
//! collections grow only as elements are actually read.

use super::error::{clip, ErrorKind};
use super::ggml_types::ggml_type;
use super::{FileTensor, MAX_ALIGNMENT, MAX_ARRAY_DEPTH, MAX_GGUF_HEADER_BYTES};
use std::collections::{BTreeMap, BTreeSet};

/// `GGUF_DEFAULT_ALIGNMENT`.
const DEFAULT_ALIGNMENT: u64 = 32;
/// Numeric array elements kept per array (per-layer head counts and the like); longer arrays keep
/// only their length.
const KEEP_ITEMS: u64 = 4096;

/// A metadata value, as far as the reader keeps it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Meta {
    /// Any integer type.
    Int(i128),
    /// f32 or f64.
    Float(f64),
    /// bool.
    Bool(bool),
    /// string.
    Str(String),
    /// An array: its length, and its elements when numeric/bool and at most [`KEEP_ITEMS`].
    Array { len: u64, items: Vec<Meta> },
}

impl Meta {
    /// A non-negative integer (for arrays, e.g. per-layer head counts: the largest element).
    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Meta::Int(v) => u64::try_from(*v).ok(),
            Meta::Array { items, .. } => items.iter().filter_map(Meta::as_u64).max(),
            _ => None,
        }
    }

    /// A float (integers converted).
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Meta::Float(v) => Some(*v),
            Meta::Int(v) => Some(*v as f64),
            _ => None,
        }
    }
}

/// One parsed GGUF header.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GgufFile {
    /// 2 or 3.
    pub version: u32,
    /// `general.alignment` or 32.
    pub alignment: u64,
    /// Metadata by key.
    pub kv: BTreeMap<String, Meta>,
    /// Tensors in file order.
    pub tensors: Vec<FileTensor>,
    /// Where the data section starts (the header's size, padded).
    pub data_start: u64,
}

/// Bounds-checked little-endian reads over a prefix of a file of `size` bytes.
struct Reader<'a> {
    buf: &'a [u8],
    pos: u64,
    size: u64,
    index: usize,
}

impl<'a> Reader<'a> {
    /// Bytes left in the file (not only in the prefix).
    fn left(&self) -> u64 {
        self.size.saturating_sub(self.pos)
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8], ErrorKind> {
        let end = match self.pos.checked_add(n) {
            Some(end) if end <= self.size => end,
            _ => return Err(ErrorKind::Truncated { at: self.pos }),
        };
        if end > MAX_GGUF_HEADER_BYTES {
            return Err(ErrorKind::HeaderTooLarge { bytes: end });
        }
        if end > self.buf.len() as u64 {
            return Err(ErrorKind::NeedMore {
                index: self.index,
                bytes: end,
            });
        }
        let (Ok(start), Ok(stop)) = (usize::try_from(self.pos), usize::try_from(end)) else {
            return Err(ErrorKind::HeaderTooLarge { bytes: end });
        };
        let out = self
            .buf
            .get(start..stop)
            .ok_or(ErrorKind::Truncated { at: self.pos })?;
        self.pos = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], ErrorKind> {
        let at = self.pos;
        self.take(N as u64)?
            .try_into()
            .map_err(|_| ErrorKind::Truncated { at })
    }

    fn u32(&mut self) -> Result<u32, ErrorKind> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, ErrorKind> {
        self.array().map(u64::from_le_bytes)
    }

    /// Checks that `n` elements of at least `min_each` bytes can fit in the rest of the file.
    fn check_count(&self, n: u64, min_each: u64, what: &'static str) -> Result<(), ErrorKind> {
        match n.checked_mul(min_each) {
            Some(b) if b <= self.left() => Ok(()),
            _ => Err(ErrorKind::LengthPastEnd { what, length: n }),
        }
    }

    fn string(&mut self, what: &'static str) -> Result<String, ErrorKind> {
        let len = self.u64()?;
        self.check_count(len, 1, "string")?;
        let bytes = self.take(len)?;
        std::str::from_utf8(bytes)
            .map(str::to_string)
            .map_err(|_| ErrorKind::InvalidUtf8 { what })
    }

    /// Skips a string, checking its UTF-8.
    fn skip_string(&mut self) -> Result<(), ErrorKind> {
        let len = self.u64()?;
        self.check_count(len, 1, "string")?;
        let bytes = self.take(len)?;
        std::str::from_utf8(bytes)
            .map(|_| ())
            .map_err(|_| ErrorKind::InvalidUtf8 { what: "value" })
    }
}

/// Encoded size of a fixed-size value type (`None` for string, array and unknown types).
fn fixed_size(value_type: u32) -> Option<u64> {
    match value_type {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        _ => None,
    }
}

/// Decodes one fixed-size value.
fn decode_fixed(value_type: u32, b: &[u8]) -> Option<Meta> {
    let mut a = [0u8; 8];
    a.get_mut(..b.len())?.copy_from_slice(b);
    let [b0, b1, b2, b3, ..] = a;
    Some(match value_type {
        0 => Meta::Int(i128::from(b0)),
        1 => Meta::Int(i128::from(b0 as i8)),
        2 => Meta::Int(i128::from(u16::from_le_bytes([b0, b1]))),
        3 => Meta::Int(i128::from(i16::from_le_bytes([b0, b1]))),
        4 => Meta::Int(i128::from(u32::from_le_bytes([b0, b1, b2, b3]))),
        5 => Meta::Int(i128::from(i32::from_le_bytes([b0, b1, b2, b3]))),
        6 => Meta::Float(f64::from(f32::from_le_bytes([b0, b1, b2, b3]))),
        7 => Meta::Bool(b0 != 0),
        10 => Meta::Int(i128::from(u64::from_le_bytes(a))),
        11 => Meta::Int(i128::from(i64::from_le_bytes(a))),
        12 => Meta::Float(f64::from_le_bytes(a)),
        _ => return None,
    })
}

/// Reads one value of `value_type`; `depth` is the array nesting so far.
fn read_value(r: &mut Reader, value_type: u32, key: &str, depth: u32) -> Result<Meta, ErrorKind> {
    if let Some(size) = fixed_size(value_type) {
        let b = r.take(size)?;
        return decode_fixed(value_type, b).ok_or(ErrorKind::Truncated { at: r.pos });
    }
    match value_type {
        8 => r.string("value").map(Meta::Str),
        9 => {
            if depth >= MAX_ARRAY_DEPTH {
                return Err(ErrorKind::ArrayTooDeep { key: clip(key) });
            }
            let elem = r.u32()?;
            let n = r.u64()?;
            if let Some(size) = fixed_size(elem) {
                r.check_count(n, size, "array")?;
                let bytes = r.take(n * size)?;
                let mut items = Vec::new();
                if n <= KEEP_ITEMS {
                    for chunk in bytes.chunks_exact(usize::try_from(size).unwrap_or(1)) {
                        items.extend(decode_fixed(elem, chunk));
                    }
                }
                return Ok(Meta::Array { len: n, items });
            }
            match elem {
                8 => {
                    r.check_count(n, 8, "array")?;
                    for _ in 0..n {
                        r.skip_string()?;
                    }
                }
                9 => {
                    // Each nested array takes at least its type and length (12 bytes).
                    r.check_count(n, 12, "array")?;
                    for _ in 0..n {
                        read_value(r, 9, key, depth + 1)?;
                    }
                }
                other => {
                    return Err(ErrorKind::UnknownValueType {
                        key: clip(key),
                        value_type: other,
                    })
                }
            }
            Ok(Meta::Array {
                len: n,
                items: Vec::new(),
            })
        }
        other => Err(ErrorKind::UnknownValueType {
            key: clip(key),
            value_type: other,
        }),
    }
}

/// Parses the GGUF header in `buf`, the first bytes of a file of `size` bytes (`size` below
/// `buf.len()` counts as `buf.len()`). `index` is the file's position among the inputs, for
/// [`ErrorKind::NeedMore`].
pub(crate) fn parse(buf: &[u8], size: u64, index: usize) -> Result<GgufFile, ErrorKind> {
    let mut r = Reader {
        buf,
        pos: 0,
        size: size.max(buf.len() as u64),
        index,
    };
    if r.take(4)? != b"GGUF" {
        return Err(ErrorKind::NotRecognized);
    }
    let version = r.u32()?;
    if !(2..=3).contains(&version) {
        return Err(ErrorKind::UnsupportedVersion { version });
    }
    let n_tensors = r.u64()?;
    let n_kv = r.u64()?;
    // A key is at least 8 + 1 bytes, its type 4, its value 1; a tensor info at least
    // 8 (name length) + 4 (n_dims) + 4 (type) + 8 (offset).
    r.check_count(n_kv, 14, "kv_count")?;
    r.check_count(n_tensors, 24, "tensor_count")?;

    let mut kv = BTreeMap::new();
    for _ in 0..n_kv {
        let key = r.string("key")?;
        if key.is_empty() {
            return Err(ErrorKind::EmptyKey);
        }
        if kv.contains_key(&key) {
            return Err(ErrorKind::DuplicateKey { key: clip(&key) });
        }
        let value_type = r.u32()?;
        let value = read_value(&mut r, value_type, &key, 0)?;
        if key == "general.alignment" {
            let alignment = value.as_u64();
            let ok = value_type == 4
                && alignment.is_some_and(|a| a.is_power_of_two() && a <= MAX_ALIGNMENT);
            if !ok {
                return Err(ErrorKind::InvalidAlignment { alignment });
            }
        }
        kv.insert(key, value);
    }
    let alignment = kv
        .get("general.alignment")
        .and_then(Meta::as_u64)
        .unwrap_or(DEFAULT_ALIGNMENT);

    let mut tensors = Vec::new();
    let mut names = BTreeSet::new();
    for _ in 0..n_tensors {
        let name = r.string("tensor_name")?;
        if names.contains(&name) {
            return Err(ErrorKind::DuplicateTensor {
                tensor: clip(&name),
            });
        }
        let n_dims = r.u32()?;
        if n_dims > 4 {
            return Err(ErrorKind::TooManyDims {
                tensor: clip(&name),
                n_dims,
            });
        }
        let mut ne = Vec::new();
        for _ in 0..n_dims {
            ne.push(r.u64()?);
        }
        let type_id = r.u32()?;
        let offset = r.u64()?;
        let t = tensor(name.clone(), &ne, type_id, offset)?;
        names.insert(name);
        tensors.push(t);
    }
    let data_start = if tensors.is_empty() {
        r.pos
    } else {
        r.pos
            .checked_next_multiple_of(alignment)
            .ok_or(ErrorKind::Truncated { at: r.pos })?
    };
    check_placement(&mut tensors, data_start, alignment, r.size)?;
    Ok(GgufFile {
        version,
        alignment,
        kv,
        tensors,
        data_start,
    })
}

/// One tensor info → its element and byte counts; `offset` is relative to the data section.
fn tensor(name: String, ne: &[u64], type_id: u32, offset: u64) -> Result<FileTensor, ErrorKind> {
    if ne.contains(&0) {
        return Err(ErrorKind::ZeroDimension {
            tensor: clip(&name),
        });
    }
    let overflow = || ErrorKind::ElementCountOverflow {
        tensor: clip(&name),
    };
    let elements = ne
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        .filter(|&n| n <= i64::MAX as u64)
        .ok_or_else(overflow)?;
    let ty = ggml_type(type_id).ok_or_else(|| ErrorKind::UnknownGgmlType {
        tensor: clip(&name),
        type_id,
    })?;
    let row = ne.first().copied().unwrap_or(1);
    if row % ty.block_elems != 0 {
        return Err(ErrorKind::RowNotBlockMultiple {
            tensor: clip(&name),
            row,
            block: ty.block_elems,
        });
    }
    let bytes = (elements / ty.block_elems)
        .checked_mul(ty.block_bytes)
        .filter(|&b| b <= i64::MAX as u64)
        .ok_or_else(overflow)?;
    Ok(FileTensor {
        name,
        // ggml lists the fastest-varying dimension first; report outermost first, like PyTorch.
        shape: ne.iter().rev().copied().collect(),
        dtype: ty.name.to_string(),
        elements,
        bytes,
        start: offset,
    })
}

/// Checks offsets (aligned, inside the file, not overlapping) and makes them absolute.
fn check_placement(
    tensors: &mut [FileTensor],
    data_start: u64,
    alignment: u64,
    size: u64,
) -> Result<(), ErrorKind> {
    for t in tensors.iter_mut() {
        if t.start % alignment != 0 {
            return Err(ErrorKind::TensorUnaligned {
                tensor: clip(&t.name),
                offset: t.start,
                alignment,
            });
        }
        let start = data_start.checked_add(t.start);
        match start.and_then(|s| s.checked_add(t.bytes)) {
            Some(end) if end <= size => {}
            _ => {
                return Err(ErrorKind::TensorPastEnd {
                    tensor: clip(&t.name),
                })
            }
        }
        t.start = start.unwrap_or(u64::MAX);
    }
    let mut order: Vec<(u64, u64, &str)> = tensors
        .iter()
        .map(|t| (t.start, t.start.saturating_add(t.bytes), t.name.as_str()))
        .collect();
    order.sort_unstable();
    let mut end = 0;
    for (s, e, name) in order {
        if s < end {
            return Err(ErrorKind::TensorsOverlap { tensor: clip(name) });
        }
        end = e;
    }
    Ok(())
}
