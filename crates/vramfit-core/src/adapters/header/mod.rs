//! Exact weights from a user's own checkpoint headers: safetensors (single or sharded with its
//! `model.safetensors.index.json`) and GGUF v2/v3 (single or split), parsed from bytes — no I/O.
//!
//! The caller hands [`inspect`] the first bytes of each file and the file's size. Only the header
//! is read: for safetensors the first `8 + N` bytes, for GGUF up to the end of the tensor infos.
//! When a prefix is too short the answer is [`ErrorKind::NeedMore`] with the byte count to read;
//! a reader can therefore start with a small chunk and grow it (the CLI and the web reader do), and
//! never needs the multi-gigabyte data. Sources for each format are in `gguf_file.rs` /
//! `safetensors.rs` (format layouts and the reference readers' checks) and `ggml_types.rs` (type
//! sizes); what the architecture keys mean is in `arch.rs`.
//!
//! Out comes a [`HeaderReport`]: the exact tensor bytes and element count, bytes per dtype, the
//! architecture (GGUF metadata, or inferred from safetensors names and shapes), a `model` object
//! usable as a scenario's `model` (`{"hf_config": {…}}`, so a shared link works without the file),
//! and how far the core's own weight estimate for that architecture and format is from the
//! file's exact bytes.
//!
//! Untrusted input: every length and count is checked against what is left of the file before it
//! is used, nothing is pre-allocated from a count, integer products are checked, and each refusal
//! is a typed [`ErrorKind`] (see `error.rs` for the classes). The tests feed crafted files of every
//! class and many thousands of seeded mutations of real headers through both parsers.

mod arch;
mod error;
mod ggml_types;
mod gguf_file;
mod safetensors;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod tests;

pub use arch::ArchInfo;
pub use error::{ErrorKind, HeaderError, RefusalClass};

use crate::inputs::format::WeightFormat;
use crate::inputs::gguf::GgufPreset;
use crate::inputs::import::hf_config::{self, ConfigError};
use error::clip;
use gguf_file::{GgufFile, Meta};
use safetensors::SafetensorsFile;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Largest GGUF header read (metadata + tensor infos). Llama 3's is 7.8 MB, most of it the
/// tokenizer; llama.cpp itself allows strings up to 1 GiB.
pub const MAX_GGUF_HEADER_BYTES: u64 = 256 << 20;
/// Largest `general.alignment` accepted (files use 32).
pub(crate) const MAX_ALIGNMENT: u64 = 1 << 20;
/// Deepest GGUF array nesting accepted (an array of arrays of arrays).
pub(crate) const MAX_ARRAY_DEPTH: u32 = 3;

/// One input: a file's name, its first bytes (or all of it), and its full size in bytes.
#[derive(Clone, Copy, Debug)]
pub struct InputFile<'a> {
    /// The file name (a path's last component is what shard names are matched on).
    pub name: &'a str,
    /// The file's leading bytes.
    pub bytes: &'a [u8],
    /// The file's size (a value below `bytes.len()` counts as `bytes.len()`).
    pub size: u64,
}

/// A tensor as a header describes it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FileTensor {
    /// Its name.
    pub name: String,
    /// Outermost dimension first (PyTorch order; GGUF's `ne` reversed).
    pub shape: Vec<u64>,
    /// ggml type name (`q4_k`) or safetensors dtype (`BF16`).
    pub dtype: String,
    /// Elements.
    pub elements: u64,
    /// Bytes of its data.
    pub bytes: u64,
    /// Absolute offset of its data in the file.
    pub start: u64,
}

/// The file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileFormat {
    /// GGUF (llama.cpp).
    Gguf,
    /// safetensors (Hugging Face).
    Safetensors,
}

/// GGUF-specific facts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GgufDetails {
    /// Format version (2 or 3).
    pub version: u32,
    /// Data alignment.
    pub alignment: u64,
    /// Metadata keys (of the file holding the architecture).
    pub kv_count: u64,
    /// `split.count`, when the model is split.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split_count: Option<u64>,
}

/// The core's estimate of the weights next to the file's exact bytes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WeightsCheck {
    /// The scenario weight format matching the file (`gguf-q4_k_m`, `bf16`, …).
    pub format: WeightFormat,
    /// What the core computes for the architecture in that format.
    pub estimated_bytes: u64,
    /// The tensor bytes in the file.
    pub exact_bytes: u64,
    /// `estimated − exact`.
    pub difference_bytes: i64,
    /// `(estimated − exact) / exact`, in percent.
    pub difference_percent: f64,
}

/// Why no scenario `model` could be built from the header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ModelUnavailable {
    /// The architecture is not one of the families the core models (or could not be recognised
    /// from tensor names).
    UnsupportedArchitecture {
        /// GGUF `general.architecture`, when there is one.
        #[serde(skip_serializing_if = "Option::is_none")]
        architecture: Option<String>,
    },
    /// The importer refused the configuration built from the header (a number is missing).
    Config {
        /// Its error.
        error: ConfigError,
    },
}

/// What the headers hold.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HeaderReport {
    /// `gguf` or `safetensors`.
    pub format: FileFormat,
    /// Files read (shards, splits, an index).
    pub files: usize,
    /// Their sizes, summed.
    pub file_bytes: u64,
    /// Bytes before the tensor data, summed over the files (GGUF: padded to the alignment).
    pub header_bytes: u64,
    /// Tensors.
    pub tensor_count: u64,
    /// Exact bytes of all tensor data.
    pub tensor_bytes: u64,
    /// Elements of all tensors (the parameter count for unpacked formats; packed integer
    /// tensors of GPTQ/AWQ checkpoints count their storage words).
    pub params: u64,
    /// Tensor bytes per dtype (ggml type names for GGUF, safetensors dtype names).
    pub bytes_by_dtype: BTreeMap<String, u64>,
    /// GGUF facts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gguf: Option<GgufDetails>,
    /// safetensors `__metadata__` (of the first shard).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, String>,
    /// The index file's `metadata.total_size`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_total_size: Option<u64>,
    /// The architecture read or inferred.
    pub arch: ArchInfo,
    /// A scenario `model` (`{"hf_config": {…}}`), when the architecture maps onto the core.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<Value>,
    /// Why there is no `model`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_unavailable: Option<ModelUnavailable>,
    /// The core's weight estimate against the exact bytes, when the format maps onto one of the
    /// core's weight formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weights_check: Option<WeightsCheck>,
}

/// What kind of input a file is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Gguf,
    Safetensors,
    Index,
}

/// The last component of a path.
fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

fn classify(index: usize, f: &InputFile) -> Result<Kind, HeaderError> {
    let size = f.size.max(f.bytes.len() as u64);
    let want = size.min(8);
    if (f.bytes.len() as u64) < want {
        return Err(ErrorKind::NeedMore { index, bytes: want }.in_file(f.name));
    }
    if f.bytes.starts_with(b"GGUF") {
        return Ok(Kind::Gguf);
    }
    let head = f.bytes.get(..8).unwrap_or(f.bytes);
    let json_like = !head.contains(&0)
        && head
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'{');
    if base_name(f.name).ends_with(".json") || json_like {
        return Ok(Kind::Index);
    }
    // A safetensors header is JSON (an object) right after its 8-byte length: a file whose ninth
    // byte cannot open JSON (a PyTorch pickle, a text file) is not one, whatever its first 8 bytes
    // would say as a length. A JSON value that is not an object stays a malformed header.
    if f.bytes
        .get(8)
        .is_some_and(|b| !matches!(b, b'{' | b'[' | b' ' | b'\t' | b'\r' | b'\n'))
    {
        return Err(ErrorKind::NotRecognized.in_file(f.name));
    }
    Ok(Kind::Safetensors)
}

/// Reads the headers of one model's files (one file, several shards with or without their index,
/// or the splits of a GGUF) and reports what they hold.
pub fn inspect(files: &[InputFile]) -> Result<HeaderReport, HeaderError> {
    if files.is_empty() {
        return Err(ErrorKind::NoFiles.into());
    }
    let kinds = files
        .iter()
        .enumerate()
        .map(|(i, f)| classify(i, f))
        .collect::<Result<Vec<_>, _>>()?;
    let ggufs = kinds.iter().filter(|k| **k == Kind::Gguf).count();
    if ggufs == files.len() {
        gguf_set(files)
    } else if ggufs == 0 {
        safetensors_set(files, &kinds)
    } else {
        Err(ErrorKind::MixedFormats.into())
    }
}

/// Adds tensors to the totals.
fn totals(tensors: &[&FileTensor]) -> (u64, u64, BTreeMap<String, u64>) {
    let mut by_dtype = BTreeMap::new();
    let (mut bytes, mut params) = (0u64, 0u64);
    for t in tensors {
        bytes = bytes.saturating_add(t.bytes);
        params = params.saturating_add(t.elements);
        let e = by_dtype.entry(t.dtype.clone()).or_insert(0u64);
        *e = e.saturating_add(t.bytes);
    }
    (bytes, params, by_dtype)
}

fn gguf_set(files: &[InputFile]) -> Result<HeaderReport, HeaderError> {
    let parsed: Vec<(&str, GgufFile)> = files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            gguf_file::parse(f.bytes, f.size, i)
                .map(|g| (f.name, g))
                .map_err(|k| k.in_file(f.name))
        })
        .collect::<Result<_, _>>()?;
    let split = |g: &GgufFile, k: &str| g.kv.get(k).and_then(Meta::as_u64);
    let count = parsed
        .first()
        .and_then(|(_, g)| split(g, "split.count"))
        .filter(|&c| c > 1);
    if parsed.len() > 1 || count.is_some() {
        let Some(count) = count else {
            return Err(ErrorKind::NotOneSplitSet.into());
        };
        let mut seen = BTreeSet::new();
        for (name, g) in &parsed {
            let no = split(g, "split.no");
            match no {
                Some(no) if split(g, "split.count") == Some(count) && no < count => {
                    if !seen.insert(no) {
                        return Err(ErrorKind::DuplicateSplit { no }.in_file(name));
                    }
                }
                _ => return Err(ErrorKind::NotOneSplitSet.in_file(name)),
            }
        }
        if let Some(no) = (0..count).find(|n| !seen.contains(n)) {
            return Err(ErrorKind::MissingSplit { no }.into());
        }
        let found: u64 = parsed.iter().map(|(_, g)| g.tensors.len() as u64).sum();
        for (name, g) in &parsed {
            if let Some(expected) = split(g, "split.tensors.count").filter(|&e| e != found) {
                return Err(ErrorKind::SplitTensorCount { expected, found }.in_file(name));
            }
        }
        let mut names = BTreeSet::new();
        for (name, g) in &parsed {
            for t in &g.tensors {
                if !names.insert(t.name.as_str()) {
                    return Err(ErrorKind::DuplicateTensor {
                        tensor: clip(&t.name),
                    }
                    .in_file(name));
                }
            }
        }
    }
    let tensors: Vec<&FileTensor> = parsed.iter().flat_map(|(_, g)| &g.tensors).collect();
    let main = parsed
        .iter()
        .map(|(_, g)| g)
        .find(|g| g.kv.contains_key("general.architecture"))
        .or_else(|| parsed.first().map(|(_, g)| g));
    let empty = BTreeMap::new();
    let kv = main.map_or(&empty, |g| &g.kv);
    let arch = arch::from_gguf(kv, &tensors);
    let (tensor_bytes, params, bytes_by_dtype) = totals(&tensors);
    let format = arch.file_type.and_then(gguf_weight_format);
    let mut report = HeaderReport {
        format: FileFormat::Gguf,
        files: files.len(),
        file_bytes: file_bytes(files),
        header_bytes: parsed.iter().map(|(_, g)| g.data_start).sum(),
        tensor_count: tensors.len() as u64,
        tensor_bytes,
        params,
        bytes_by_dtype,
        gguf: main.map(|g| GgufDetails {
            version: g.version,
            alignment: g.alignment,
            kv_count: g.kv.len() as u64,
            split_count: count,
        }),
        metadata: BTreeMap::new(),
        index_total_size: None,
        arch,
        model: None,
        model_unavailable: None,
        weights_check: None,
    };
    attach_model(&mut report, format);
    Ok(report)
}

/// The scenario weight format for a GGUF `general.file_type` (llama.cpp `llama_ftype`).
fn gguf_weight_format(file_type: u64) -> Option<WeightFormat> {
    use GgufPreset as P;
    Some(match file_type {
        0 => return Some(WeightFormat::Fp32),
        1 => WeightFormat::Gguf(P::F16),
        2 => WeightFormat::Gguf(P::Q4_0),
        7 => WeightFormat::Gguf(P::Q8_0),
        10 => WeightFormat::Gguf(P::Q2K),
        11 => WeightFormat::Gguf(P::Q3KS),
        12 => WeightFormat::Gguf(P::Q3KM),
        13 => WeightFormat::Gguf(P::Q3KL),
        14 => WeightFormat::Gguf(P::Q4KS),
        15 => WeightFormat::Gguf(P::Q4KM),
        16 => WeightFormat::Gguf(P::Q5KS),
        17 => WeightFormat::Gguf(P::Q5KM),
        18 => WeightFormat::Gguf(P::Q6K),
        30 => WeightFormat::Gguf(P::Iq4Xs),
        32 => WeightFormat::Gguf(P::Bf16),
        _ => return None,
    })
}

fn file_bytes(files: &[InputFile]) -> u64 {
    files
        .iter()
        .map(|f| f.size.max(f.bytes.len() as u64))
        .fold(0, u64::saturating_add)
}

fn safetensors_set(files: &[InputFile], kinds: &[Kind]) -> Result<HeaderReport, HeaderError> {
    let mut index = None;
    let mut shards: Vec<(&str, SafetensorsFile)> = Vec::new();
    for (i, (f, kind)) in files.iter().zip(kinds).enumerate() {
        if *kind == Kind::Index {
            if index.is_some() {
                return Err(ErrorKind::SeveralIndexes.into());
            }
            index =
                Some(safetensors::parse_index(f.bytes, f.size, i).map_err(|k| k.in_file(f.name))?);
        } else {
            let st = safetensors::parse(f.bytes, f.size, i).map_err(|k| k.in_file(f.name))?;
            shards.push((base_name(f.name), st));
        }
    }
    let mut owner: BTreeMap<&str, &str> = BTreeMap::new();
    for (name, st) in &shards {
        for t in &st.tensors {
            if owner.insert(t.name.as_str(), name).is_some() {
                return Err(ErrorKind::DuplicateTensor {
                    tensor: clip(&t.name),
                }
                .in_file(name));
            }
        }
    }
    if let Some(idx) = &index {
        let given: BTreeSet<&str> = shards.iter().map(|(n, _)| *n).collect();
        if let Some(missing) = idx
            .weight_map
            .values()
            .find(|s| !given.contains(s.as_str()))
        {
            return Err(ErrorKind::MissingShard {
                shard: clip(missing),
            }
            .into());
        }
        let mismatch = idx
            .weight_map
            .iter()
            .find(|(t, s)| owner.get(t.as_str()) != Some(&s.as_str()))
            .map(|(t, _)| t.as_str())
            .or_else(|| {
                owner
                    .keys()
                    .find(|t| !idx.weight_map.contains_key(**t))
                    .copied()
            });
        if let Some(tensor) = mismatch {
            return Err(ErrorKind::IndexMismatch {
                tensor: clip(tensor),
            }
            .into());
        }
    }
    if shards.is_empty() {
        return Err(ErrorKind::MissingShard {
            shard: String::new(),
        }
        .into());
    }
    let tensors: Vec<&FileTensor> = shards.iter().flat_map(|(_, s)| &s.tensors).collect();
    let arch = arch::from_tensor_names(&tensors);
    let (tensor_bytes, params, bytes_by_dtype) = totals(&tensors);
    let format = safetensors_weight_format(&bytes_by_dtype, &tensors);
    let mut report = HeaderReport {
        format: FileFormat::Safetensors,
        files: files.len(),
        file_bytes: file_bytes(files),
        header_bytes: shards.iter().map(|(_, s)| s.header_bytes).sum(),
        tensor_count: tensors.len() as u64,
        tensor_bytes,
        params,
        bytes_by_dtype,
        gguf: None,
        metadata: shards
            .first()
            .map(|(_, s)| s.metadata.clone())
            .unwrap_or_default(),
        index_total_size: index.and_then(|i| i.total_size),
        arch,
        model: None,
        model_unavailable: None,
        weights_check: None,
    };
    attach_model(&mut report, format);
    Ok(report)
}

/// The scenario weight format of a safetensors checkpoint, from the dtype holding most bytes
/// (FP8 with `weight_scale_inv` tensors is block-scaled). Integer-packed checkpoints (GPTQ, AWQ,
/// bitsandbytes) are left out: their format needs the `quantization_config`.
fn safetensors_weight_format(
    by_dtype: &BTreeMap<String, u64>,
    tensors: &[&FileTensor],
) -> Option<WeightFormat> {
    let (dtype, _) = by_dtype.iter().max_by_key(|(_, b)| **b)?;
    Some(match dtype.as_str() {
        "BF16" => WeightFormat::Bf16,
        "F16" => WeightFormat::Fp16,
        "F32" => WeightFormat::Fp32,
        "F8_E4M3" if tensors.iter().any(|t| t.name.ends_with("weight_scale_inv")) => {
            WeightFormat::Fp8Block
        }
        "F8_E4M3" => WeightFormat::Fp8,
        _ => return None,
    })
}

/// Builds the scenario `model` and the weights check from the architecture.
fn attach_model(report: &mut HeaderReport, format: Option<WeightFormat>) {
    let Some(config) = arch::hf_config(&report.arch) else {
        report.model_unavailable = Some(ModelUnavailable::UnsupportedArchitecture {
            architecture: report.arch.architecture.clone(),
        });
        return;
    };
    let model = match hf_config::parse_value(&config) {
        Ok(m) => m,
        Err(error) => {
            report.model_unavailable = Some(ModelUnavailable::Config { error });
            return;
        }
    };
    report.model = Some(json!({ "hf_config": config }));
    let Some(format) = format else {
        return;
    };
    let estimated = model
        .tensors()
        .iter()
        .map(|t| format.tensor_bytes(t, &model))
        .fold(0u64, u64::saturating_add);
    let exact = report.tensor_bytes;
    let difference = i128::from(estimated) - i128::from(exact);
    report.weights_check = Some(WeightsCheck {
        format,
        estimated_bytes: estimated,
        exact_bytes: exact,
        difference_bytes: i64::try_from(difference).unwrap_or(i64::MAX),
        difference_percent: if exact == 0 {
            0.0
        } else {
            difference as f64 / exact as f64 * 100.0
        },
    });
}
