//! Why a file header was refused: one typed kind per class of malformed or crafted input, serialised
//! with a `kind` tag (`{"file": "x.gguf", "kind": "tensor_past_end", "tensor": "…"}`).
//!
//! The classes follow the checks of the formats' reference readers: llama.cpp `ggml/src/gguf.cpp`
//! (`gguf_init_from_reader`: version, counts, duplicate keys and tensor names, `n_dims`, element
//! count overflow, type range and block multiple, `general.alignment`, data offsets) and
//! huggingface/safetensors `safetensors/src/tensor.rs` (`read_metadata`, `Metadata::validate`: header
//! size limit, offsets that tile the data buffer exactly, sub-byte dtypes ending on a byte).

use serde::{Deserialize, Serialize};

/// A refused header: which file (its name as given), and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeaderError {
    /// The file's name, when the problem belongs to one file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// What is wrong.
    #[serde(flatten)]
    pub kind: ErrorKind,
}

/// What is wrong with a header (or a set of shards / splits).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ErrorKind {
    /// Not an error for the caller to show: the header continues past the bytes given. Read the
    /// first `bytes` bytes of file number `index` (0-based, in the order given) and call again.
    /// Only returned when a file's bytes are shorter than its size.
    NeedMore {
        /// Which input file.
        index: usize,
        /// How many leading bytes of it the parser needs at least.
        bytes: u64,
    },
    /// No file was given.
    NoFiles,
    /// Neither GGUF (magic `GGUF`), safetensors (8-byte length + JSON) nor a
    /// `model.safetensors.index.json`.
    NotRecognized,
    /// GGUF files mixed with safetensors files.
    MixedFormats,
    /// A model's `config.json` (it has `model_type` or `architectures` and no `weight_map`):
    /// the architecture, not the weights; it belongs in the config box.
    ModelConfig,
    /// The file ends inside its header, at this byte offset.
    Truncated {
        /// Byte offset where more was needed.
        at: u64,
    },
    /// The header is larger than a reader should accept (safetensors: 100,000,000 bytes, its
    /// `MAX_HEADER_SIZE`; GGUF: [`super::MAX_GGUF_HEADER_BYTES`]).
    HeaderTooLarge {
        /// The header size the file asks for (at least).
        bytes: u64,
    },
    /// A GGUF version other than 2 or 3 (1 is no longer read by llama.cpp; a byte-swapped 3 reads as
    /// 50331648).
    UnsupportedVersion {
        /// The version field.
        version: u32,
    },
    /// A length or count field larger than what is left of the file.
    LengthPastEnd {
        /// Which field: `string`, `array`, `tensor_count`, `kv_count`, `header_length`.
        what: &'static str,
        /// Its value.
        length: u64,
    },
    /// Arrays nested deeper than `MAX_ARRAY_DEPTH` (3).
    ArrayTooDeep {
        /// The metadata key.
        key: String,
    },
    /// A GGUF metadata value type outside 0–12.
    UnknownValueType {
        /// The metadata key.
        key: String,
        /// The type id.
        value_type: u32,
    },
    /// A string that is not UTF-8.
    InvalidUtf8 {
        /// `key`, `value`, `tensor_name`, `header`.
        what: &'static str,
    },
    /// An empty GGUF metadata key.
    EmptyKey,
    /// The same metadata key twice.
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// `general.alignment` is not a `u32`, is 0, not a power of two, or above
    /// `MAX_ALIGNMENT` (1 MiB).
    InvalidAlignment {
        /// The value, when it is an integer.
        alignment: Option<u64>,
    },
    /// A GGUF tensor with more than 4 dimensions (`GGML_MAX_DIMS`).
    TooManyDims {
        /// The tensor.
        tensor: String,
        /// Its `n_dims`.
        n_dims: u32,
    },
    /// A dimension of size 0.
    ZeroDimension {
        /// The tensor.
        tensor: String,
    },
    /// The element count (or byte count) of a tensor does not fit in 63 bits.
    ElementCountOverflow {
        /// The tensor.
        tensor: String,
    },
    /// A ggml type id ggml does not define (or has removed from GGUF files).
    UnknownGgmlType {
        /// The tensor.
        tensor: String,
        /// The type id.
        type_id: u32,
    },
    /// A GGUF tensor whose row length is not a whole number of its type's blocks.
    RowNotBlockMultiple {
        /// The tensor.
        tensor: String,
        /// Elements per row (`ne[0]`).
        row: u64,
        /// Elements per block of its type.
        block: u64,
    },
    /// A safetensors `dtype` the format does not define.
    UnknownDtype {
        /// The tensor.
        tensor: String,
        /// The dtype string (at most 32 bytes of it).
        dtype: String,
    },
    /// The same tensor name twice (in one file, or across shards / splits).
    DuplicateTensor {
        /// The tensor.
        tensor: String,
    },
    /// A GGUF tensor offset that is not a multiple of the alignment.
    TensorUnaligned {
        /// The tensor.
        tensor: String,
        /// Its offset in the data section.
        offset: u64,
        /// The file's alignment.
        alignment: u64,
    },
    /// A tensor's data ends past the end of the file.
    TensorPastEnd {
        /// The tensor.
        tensor: String,
    },
    /// Two tensors' data overlap.
    TensorsOverlap {
        /// The later of the two.
        tensor: String,
    },
    /// safetensors: bytes between two tensors (the offsets must tile the data buffer).
    DataGap {
        /// The tensor after the gap.
        tensor: String,
    },
    /// safetensors: `data_offsets` do not span shape × dtype size.
    OffsetsMismatch {
        /// The tensor.
        tensor: String,
        /// Bytes its shape and dtype need.
        expected: u64,
        /// `data_offsets[0]`.
        start: u64,
        /// `data_offsets[1]`.
        end: u64,
    },
    /// safetensors: a sub-byte dtype (F4, F6) whose element count does not end on a byte.
    SubByteMisaligned {
        /// The tensor.
        tensor: String,
    },
    /// safetensors: the tensors do not cover the whole data buffer.
    IncompleteBuffer {
        /// Bytes the tensors cover.
        covered: u64,
        /// Bytes of data in the file.
        data: u64,
    },
    /// Not valid JSON for the format (safetensors header, index file); where the parser stopped.
    InvalidJson {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// More than one `model.safetensors.index.json`.
    SeveralIndexes,
    /// A shard the index names was not given.
    MissingShard {
        /// The shard's file name.
        shard: String,
    },
    /// A tensor the index and the shards disagree on (missing, extra, or in another shard).
    IndexMismatch {
        /// The tensor.
        tensor: String,
    },
    /// GGUF files given together that are not the splits of one model (`split.count` differs or
    /// is absent).
    NotOneSplitSet,
    /// A split of the set is missing.
    MissingSplit {
        /// Its `split.no`.
        no: u64,
    },
    /// The same split twice.
    DuplicateSplit {
        /// Its `split.no`.
        no: u64,
    },
    /// The splits hold a different number of tensors than `split.tensors.count` says.
    SplitTensorCount {
        /// `split.tensors.count`.
        expected: u64,
        /// Tensors found.
        found: u64,
    },
}

/// What a refusal means for the person holding the files: the classes a page explains in its own
/// words. Only a damaged or crafted file produces the [`RefusalClass::Malformed`] kinds, so they
/// share one explanation (the typed [`ErrorKind`] beside it names the exact check).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalClass {
    /// Not a checkpoint file at all (or nothing given).
    NotRecognized,
    /// GGUF and safetensors files given together.
    MixedFormats,
    /// A model's `config.json` rather than its weights.
    ModelConfig,
    /// The file ends inside its header (an unfinished download).
    Truncated,
    /// A header larger than any reader accepts.
    TooLarge,
    /// A GGUF version other than 2 or 3.
    UnsupportedVersion,
    /// Shards, splits or the index do not make one complete model.
    IncompleteSet,
    /// Inconsistent lengths, offsets, types or names: a damaged or crafted header.
    Malformed,
}

impl ErrorKind {
    /// The class a page explains this refusal by.
    pub fn class(&self) -> RefusalClass {
        match self {
            ErrorKind::NoFiles | ErrorKind::NotRecognized | ErrorKind::NeedMore { .. } => {
                RefusalClass::NotRecognized
            }
            ErrorKind::MixedFormats => RefusalClass::MixedFormats,
            ErrorKind::ModelConfig => RefusalClass::ModelConfig,
            ErrorKind::Truncated { .. } => RefusalClass::Truncated,
            ErrorKind::HeaderTooLarge { .. } => RefusalClass::TooLarge,
            ErrorKind::UnsupportedVersion { .. } => RefusalClass::UnsupportedVersion,
            ErrorKind::SeveralIndexes
            | ErrorKind::MissingShard { .. }
            | ErrorKind::IndexMismatch { .. }
            | ErrorKind::NotOneSplitSet
            | ErrorKind::MissingSplit { .. }
            | ErrorKind::DuplicateSplit { .. }
            | ErrorKind::SplitTensorCount { .. } => RefusalClass::IncompleteSet,
            ErrorKind::LengthPastEnd { .. }
            | ErrorKind::ArrayTooDeep { .. }
            | ErrorKind::UnknownValueType { .. }
            | ErrorKind::InvalidUtf8 { .. }
            | ErrorKind::EmptyKey
            | ErrorKind::DuplicateKey { .. }
            | ErrorKind::InvalidAlignment { .. }
            | ErrorKind::TooManyDims { .. }
            | ErrorKind::ZeroDimension { .. }
            | ErrorKind::ElementCountOverflow { .. }
            | ErrorKind::UnknownGgmlType { .. }
            | ErrorKind::RowNotBlockMultiple { .. }
            | ErrorKind::UnknownDtype { .. }
            | ErrorKind::DuplicateTensor { .. }
            | ErrorKind::TensorUnaligned { .. }
            | ErrorKind::TensorPastEnd { .. }
            | ErrorKind::TensorsOverlap { .. }
            | ErrorKind::DataGap { .. }
            | ErrorKind::OffsetsMismatch { .. }
            | ErrorKind::SubByteMisaligned { .. }
            | ErrorKind::IncompleteBuffer { .. }
            | ErrorKind::InvalidJson { .. } => RefusalClass::Malformed,
        }
    }

    /// This kind, attached to a file name.
    pub(crate) fn in_file(self, file: &str) -> HeaderError {
        HeaderError {
            file: Some(clip(file)),
            kind: self,
        }
    }
}

impl From<ErrorKind> for HeaderError {
    fn from(kind: ErrorKind) -> Self {
        HeaderError { file: None, kind }
    }
}

/// A name from the file, cut to at most 200 bytes (at a character boundary) for error messages.
pub(crate) fn clip(s: &str) -> String {
    const MAX: usize = 200;
    if s.len() <= MAX {
        return s.to_string();
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.get(..end).unwrap_or_default().to_string()
}
