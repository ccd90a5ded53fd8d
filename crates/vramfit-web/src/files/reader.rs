//! The checkpoint-header reader and the messages it exchanges with the page.
//!
//! The reader runs in a web worker (`src/bin/vramfit-reader.rs`, built by Trunk as a second,
//! separate wasm) so that the header parsers (`vramfit_core::header`: GGUF and safetensors, the
//! architecture mapping) are fetched only when someone drops a file, not with the first load.
//! The page posts the dropped `File`s; the worker reads only their header bytes and answers
//! with one [`ReaderReply`] as JSON.
//!
//! Reading: each file is sliced with `Blob.slice` (W3C File API) and the slice read with
//! `Blob.arrayBuffer()`: first [`FIRST_CHUNK`] bytes, then, whenever the parser answers
//! `need_more`, up to what it asks for (at least twice what was read, at most
//! [`MAX_GGUF_HEADER_BYTES`]). A multi-gigabyte file is never read whole, and the bytes stay in
//! the browser: nothing is uploaded or sent anywhere.

use serde::{Deserialize, Serialize};
use vramfit_core::header::{
    inspect, ErrorKind, FileFormat, HeaderError, HeaderReport, InputFile, RefusalClass,
    MAX_GGUF_HEADER_BYTES,
};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Bytes read from each file before the parser asks for more.
pub const FIRST_CHUNK: u64 = 1 << 20;

/// The worker's answer to one set of files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReaderReply {
    /// The headers were read.
    Read(Box<HeaderSummary>),
    /// The header parser refused the files.
    Refused {
        /// What the refusal means to the user.
        class: RefusalClass,
        /// The parser's typed error as JSON (`{"file": …, "kind": …, …}`).
        detail: String,
    },
    /// The file was a model's `config.json`, not weights: its text, for the config box.
    Config(String),
    /// The browser could not read a file (its message).
    Browser(String),
    /// Set by the page, never by the worker: the reader could not be started (a page opened from
    /// `file://`, where browsers refuse workers, or the reader's files missing).
    Unavailable,
}

/// What the page shows of a [`HeaderReport`], and what it puts into the scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeaderSummary {
    /// `GGUF` or `safetensors`.
    pub format: String,
    /// Files read.
    pub files: u64,
    /// Their sizes, summed.
    pub file_bytes: u64,
    /// Tensors.
    pub tensor_count: u64,
    /// Exact bytes of all tensor data.
    pub tensor_bytes: u64,
    /// Elements of all tensors.
    pub params: u64,
    /// Tensor bytes per dtype, in the parser's order.
    pub bytes_by_dtype: Vec<(String, u64)>,
    /// The architecture's name (GGUF `general.architecture`, or the `model_type` it maps to).
    pub architecture: Option<String>,
    /// The architecture's numbers as read: (GGUF-style key, value) pairs, e.g.
    /// `("block_count", 32)`.
    pub arch: Vec<(String, u64)>,
    /// The architecture as a Hugging Face `config.json` (pretty JSON), when the core maps it onto
    /// a family it models: the scenario's model, so a shared link works without the file.
    pub hf_config: Option<String>,
    /// The weight format the tensors are stored in (a scenario `weights` id), when the core has one.
    pub weights: Option<String>,
    /// The core's weight bytes for this architecture and format.
    pub estimated_bytes: Option<u64>,
    /// `(estimated − exact) / exact`, in percent.
    pub difference_percent: Option<f64>,
}

impl HeaderSummary {
    /// The summary of a report.
    pub fn of(r: &HeaderReport) -> HeaderSummary {
        let a = &r.arch;
        let mut arch = Vec::new();
        for (key, v) in [
            ("block_count", a.block_count),
            ("embedding_length", a.embedding_length),
            ("head_count", a.head_count),
            ("head_count_kv", a.head_count_kv),
            ("context_length", a.context_length),
            ("vocab_size", a.vocab_size),
            ("expert_count", a.expert_count),
        ] {
            if let Some(v) = v {
                arch.push((key.to_string(), v));
            }
        }
        let hf_config = r
            .model
            .as_ref()
            .and_then(|m| m.get("hf_config"))
            .and_then(|c| serde_json::to_string_pretty(c).ok());
        let check = r.weights_check.as_ref();
        HeaderSummary {
            format: match r.format {
                FileFormat::Gguf => "GGUF",
                FileFormat::Safetensors => "safetensors",
            }
            .to_string(),
            files: r.files as u64,
            file_bytes: r.file_bytes,
            tensor_count: r.tensor_count,
            tensor_bytes: r.tensor_bytes,
            params: r.params,
            bytes_by_dtype: r
                .bytes_by_dtype
                .iter()
                .map(|(d, b)| (d.clone(), *b))
                .collect(),
            architecture: a.architecture.clone().or(a.model_type.clone()),
            arch,
            hf_config,
            weights: check.map(|c| c.format.id()),
            estimated_bytes: check.map(|c| c.estimated_bytes),
            difference_percent: check.map(|c| c.difference_percent),
        }
    }
}

impl ReaderReply {
    /// The reply for a parser's answer.
    pub fn of(result: Result<HeaderReport, HeaderError>) -> ReaderReply {
        match result {
            Ok(r) => ReaderReply::Read(Box::new(HeaderSummary::of(&r))),
            Err(e) => ReaderReply::Refused {
                class: e.kind.class(),
                detail: serde_json::to_string(&e).unwrap_or_default(),
            },
        }
    }
}

/// Reads bytes `[start, end)` of a file.
async fn read_slice(file: &web_sys::File, start: u64, end: u64) -> Result<Vec<u8>, JsValue> {
    // Offsets below 2^53 are exact as f64; a browser's File.size is one.
    let blob = file.slice_with_f64_and_f64(start as f64, end as f64)?;
    let buffer = JsFuture::from(blob.array_buffer()).await?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Reads the headers of `files` (one model) in growing slices and answers.
pub async fn read_headers(files: Vec<web_sys::File>) -> ReaderReply {
    let browser =
        |e: JsValue| ReaderReply::Browser(e.as_string().unwrap_or_else(|| format!("{e:?}")));
    let names: Vec<String> = files.iter().map(web_sys::File::name).collect();
    let sizes: Vec<u64> = files.iter().map(|f| f.size() as u64).collect();
    let mut bufs = Vec::with_capacity(files.len());
    for (f, &size) in files.iter().zip(&sizes) {
        match read_slice(f, 0, size.min(FIRST_CHUNK)).await {
            Ok(b) => bufs.push(b),
            Err(e) => return browser(e),
        }
    }
    loop {
        let inputs: Vec<InputFile> = names
            .iter()
            .zip(&bufs)
            .zip(&sizes)
            .map(|((name, bytes), &size)| InputFile { name, bytes, size })
            .collect();
        let (index, bytes) = match inspect(&inputs) {
            Err(HeaderError {
                kind: ErrorKind::NeedMore { index, bytes },
                ..
            }) => (index, bytes),
            // A config.json is read whole (as an index would be): its text goes to the config
            // box instead of a refusal.
            Err(HeaderError {
                kind: ErrorKind::ModelConfig,
                file,
            }) => {
                let i = file
                    .and_then(|f| names.iter().position(|n| *n == f))
                    .unwrap_or(0);
                return bufs.get(i).map_or_else(
                    || ReaderReply::Browser("config.json not found".into()),
                    |b| ReaderReply::Config(String::from_utf8_lossy(b).into_owned()),
                );
            }
            other => return ReaderReply::of(other),
        };
        let (Some(file), Some(buf), Some(&size)) =
            (files.get(index), bufs.get_mut(index), sizes.get(index))
        else {
            return ReaderReply::Browser("need_more for an unknown file".into());
        };
        let have = buf.len() as u64;
        let want = bytes
            .max(have.saturating_mul(2).min(MAX_GGUF_HEADER_BYTES))
            .min(size);
        if want <= have {
            return ReaderReply::Browser("the file ended while reading".into());
        }
        match read_slice(file, have, want).await {
            Ok(more) => buf.extend(more),
            Err(e) => return browser(e),
        }
    }
}

/// What the worker posts once it listens (the page waits for it before sending files).
pub const READY: &str = "ready";

/// The worker's entry point: say [`READY`], then answer each message (an array of `File`s) with
/// a [`ReaderReply`] as JSON text.
pub fn worker_main() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|ev: web_sys::MessageEvent| {
            let files: Vec<web_sys::File> = js_sys::Array::from(&ev.data())
                .iter()
                .filter_map(|v| v.dyn_into::<web_sys::File>().ok())
                .collect();
            wasm_bindgen_futures::spawn_local(async move {
                let reply = read_headers(files).await;
                let text = serde_json::to_string(&reply).unwrap_or_default();
                let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
                let _ = scope.post_message(&JsValue::from_str(&text));
            });
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(READY));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(name: &str, bytes: &[u8]) -> ReaderReply {
        ReaderReply::of(inspect(&[InputFile {
            name,
            bytes,
            size: bytes.len() as u64,
        }]))
    }

    /// A safetensors file: 8-byte little-endian header length, the JSON header, the data.
    fn safetensors(header: &str, data: usize) -> Vec<u8> {
        let mut out = (header.len() as u64).to_le_bytes().to_vec();
        out.extend(header.as_bytes());
        out.extend(std::iter::repeat_n(0u8, data));
        out
    }

    /// What the worker sends survives the trip through JSON to the page, and a refusal carries
    /// its class and the parser's typed error.
    #[test]
    fn replies_round_trip_as_json() {
        let truncated = parse("x.gguf", b"GGUF\x03\x00\x00\x00\x01");
        let ReaderReply::Refused { class, detail } = &truncated else {
            panic!("a truncated GGUF is refused: {truncated:?}");
        };
        assert_eq!(*class, RefusalClass::Truncated);
        assert!(detail.contains("\"kind\":\"truncated\""), "{detail}");
        let header = r#"{"a":{"dtype":"BF16","shape":[2,3],"data_offsets":[0,12]},"b":{"dtype":"F32","shape":[4],"data_offsets":[12,28]}}"#;
        let read = parse("m.safetensors", &safetensors(header, 28));
        let ReaderReply::Read(summary) = &read else {
            panic!("a valid file is read: {read:?}");
        };
        assert_eq!(summary.format, "safetensors");
        assert_eq!(
            (summary.tensor_count, summary.tensor_bytes, summary.params),
            (2, 28, 10)
        );
        assert_eq!(
            summary.bytes_by_dtype,
            vec![("BF16".to_string(), 12), ("F32".to_string(), 16)]
        );
        for reply in [truncated, read, ReaderReply::Unavailable] {
            let text = serde_json::to_string(&reply).expect("serialises");
            assert_eq!(serde_json::from_str::<ReaderReply>(&text).ok(), Some(reply));
        }
    }
}
