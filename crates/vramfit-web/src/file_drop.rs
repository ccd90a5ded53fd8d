//! A drop zone (or file picker) for the user's own checkpoint files — one `.safetensors` or
//! `.gguf`, the shards of a safetensors model with its `model.safetensors.index.json`, or the
//! splits of a GGUF — that reads only their header bytes and shows what the core's header parser
//! (`vramfit_core::header`) finds: format, tensors, exact tensor bytes, parameters, bytes per
//! dtype, the architecture, and how far the core's own estimate is.
//!
//! Reading: each file is sliced with `Blob.slice` (W3C File API;
//! `web_sys::Blob::slice_with_f64_and_f64`) and the slice read with `Blob.arrayBuffer()`: first
//! [`FIRST_CHUNK`] bytes, then, whenever the parser answers `need_more`, up to what it asks for
//! (at least twice what was read). A multi-gigabyte file is never read whole. The bytes stay in the page: nothing is uploaded or
//! sent anywhere.
//!
//! Texts come from [`FileDropText`] (English by default) so the page can pass translated
//! strings.

use leptos::prelude::*;
use leptos::task::spawn_local;
use vramfit_core::bytes::to_gib;
use vramfit_core::header::{
    inspect, ErrorKind, HeaderError, HeaderReport, InputFile, MAX_GGUF_HEADER_BYTES,
};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// Bytes read from each file before the parser asks for more.
pub const FIRST_CHUNK: u64 = 1 << 20;

/// The component's sentences and labels.
#[derive(Clone, Debug, PartialEq)]
pub struct FileDropText {
    /// What to do.
    pub prompt: String,
    /// The privacy sentence.
    pub privacy: String,
    /// While reading.
    pub reading: String,
    /// Heading of a refusal.
    pub refused: String,
    /// Label: tensors.
    pub tensors: String,
    /// Label: exact tensor bytes.
    pub tensor_bytes: String,
    /// Label: parameters (elements).
    pub params: String,
    /// Label: architecture.
    pub arch: String,
    /// Label: the core's estimate against the file.
    pub estimate: String,
}

impl Default for FileDropText {
    fn default() -> Self {
        FileDropText {
            prompt:
                "Drop your .safetensors or .gguf files here (all shards or splits of one model, \
                     with model.safetensors.index.json if you have it), or pick them."
                    .into(),
            privacy: "Only the files' headers are read, in this page; nothing leaves your machine."
                .into(),
            reading: "Reading the headers…".into(),
            refused: "These files could not be read:".into(),
            tensors: "Tensors".into(),
            tensor_bytes: "Exact weights".into(),
            params: "Elements".into(),
            arch: "Architecture".into(),
            estimate: "vramfit's estimate for this model and format".into(),
        }
    }
}

/// Why reading failed.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadError {
    /// The header parser refused the files.
    Header(HeaderError),
    /// The browser could not read a file.
    Browser(String),
}

/// Reads bytes `[start, end)` of a file.
async fn read_slice(file: &web_sys::File, start: u64, end: u64) -> Result<Vec<u8>, JsValue> {
    // Offsets below 2^53 are exact as f64; a browser's File.size is one.
    let blob = file.slice_with_f64_and_f64(start as f64, end as f64)?;
    let buffer = JsFuture::from(blob.array_buffer()).await?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Reads the headers of `files` (one model) in growing slices and returns the core's report.
pub async fn read_headers(files: Vec<web_sys::File>) -> Result<HeaderReport, ReadError> {
    let browser =
        |e: JsValue| ReadError::Browser(e.as_string().unwrap_or_else(|| format!("{e:?}")));
    let names: Vec<String> = files.iter().map(web_sys::File::name).collect();
    let sizes: Vec<u64> = files.iter().map(|f| f.size() as u64).collect();
    let mut bufs = Vec::with_capacity(files.len());
    for (f, &size) in files.iter().zip(&sizes) {
        bufs.push(
            read_slice(f, 0, size.min(FIRST_CHUNK))
                .await
                .map_err(browser)?,
        );
    }
    loop {
        let inputs: Vec<InputFile> = names
            .iter()
            .zip(&bufs)
            .zip(&sizes)
            .map(|((name, bytes), &size)| InputFile { name, bytes, size })
            .collect();
        match inspect(&inputs) {
            Ok(report) => return Ok(report),
            Err(HeaderError {
                kind: ErrorKind::NeedMore { index, bytes },
                ..
            }) => {
                let (Some(file), Some(buf), Some(&size)) =
                    (files.get(index), bufs.get_mut(index), sizes.get(index))
                else {
                    return Err(ReadError::Browser("need_more for an unknown file".into()));
                };
                let have = buf.len() as u64;
                let want = bytes
                    .max(have.saturating_mul(2).min(MAX_GGUF_HEADER_BYTES))
                    .min(size);
                if want <= have {
                    return Err(ReadError::Browser("the file ended while reading".into()));
                }
                let more = read_slice(file, have, want).await.map_err(browser)?;
                buf.extend(more);
            }
            Err(e) => return Err(ReadError::Header(e)),
        }
    }
}

/// Where the component is.
#[derive(Clone, Debug, PartialEq)]
enum State {
    Idle,
    Reading,
    Done(Box<HeaderReport>),
    Failed(ReadError),
}

/// The files of a `FileList` (from a drop or the picker).
fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    let Some(list) = list else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// The drop zone and what it read.
#[component]
pub fn FileDrop(
    /// Called with the report once the headers are read (e.g. to put `report.model` into the
    /// scenario, so a shared link works without the file).
    #[prop(optional)]
    on_report: Option<Callback<HeaderReport>>,
    /// Sentences and labels (English by default).
    #[prop(optional)]
    text: Option<FileDropText>,
) -> impl IntoView {
    let text = text.unwrap_or_default();
    let state = RwSignal::new(State::Idle);
    let start = move |files: Vec<web_sys::File>| {
        if files.is_empty() {
            return;
        }
        state.set(State::Reading);
        spawn_local(async move {
            let result = read_headers(files).await;
            if let (Ok(report), Some(cb)) = (&result, on_report) {
                cb.run(report.clone());
            }
            state.set(match result {
                Ok(report) => State::Done(Box::new(report)),
                Err(e) => State::Failed(e),
            });
        });
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        start(files_of(ev.data_transfer().and_then(|d| d.files())));
    };
    let on_pick = move |ev: web_sys::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        start(files_of(input.files()));
    };
    let t = text.clone();
    let body = move || match state.get() {
        State::Idle => ().into_any(),
        State::Reading => view! { <p class="file-drop-status">{t.reading.clone()}</p> }.into_any(),
        State::Failed(e) => {
            let detail = match e {
                ReadError::Header(h) => serde_json::to_string(&h).unwrap_or_default(),
                ReadError::Browser(s) => s,
            };
            view! {
                <div class="file-drop-error" role="alert">
                    <p>{t.refused.clone()}</p>
                    <code>{detail}</code>
                </div>
            }
            .into_any()
        }
        State::Done(r) => summary(&r, &t).into_any(),
    };
    view! {
        <section class="file-drop">
            <label class="file-drop-zone"
                on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=on_drop>
                <span>{text.prompt.clone()}</span>
                <input type="file" multiple=true accept=".safetensors,.gguf,.json" on:change=on_pick />
            </label>
            <p class="file-drop-privacy">{text.privacy.clone()}</p>
            {body}
        </section>
    }
}

/// What was read, as a definition list and a table of bytes per dtype.
fn summary(r: &HeaderReport, t: &FileDropText) -> impl IntoView {
    let gib = |b: u64| format!("{:.2} GiB ({b} B)", to_gib(b));
    let format = match r.format {
        vramfit_core::header::FileFormat::Gguf => "GGUF",
        vramfit_core::header::FileFormat::Safetensors => "safetensors",
    };
    let a = &r.arch;
    let mut arch = Vec::new();
    let mut push = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            arch.push(format!("{k} {v}"));
        }
    };
    push("", a.architecture.clone().or(a.model_type.clone()));
    push("layers", a.block_count.map(|v| v.to_string()));
    push("hidden", a.embedding_length.map(|v| v.to_string()));
    push("heads", a.head_count.map(|v| v.to_string()));
    push("kv heads", a.head_count_kv.map(|v| v.to_string()));
    push("context", a.context_length.map(|v| v.to_string()));
    push("vocab", a.vocab_size.map(|v| v.to_string()));
    push("experts", a.expert_count.map(|v| v.to_string()));
    let arch = arch.join(" · ");
    let check = r.weights_check.as_ref().map(|c| {
        format!(
            "{}: {} ({:+.2} %)",
            c.format.id(),
            gib(c.estimated_bytes),
            c.difference_percent
        )
    });
    let dtypes: Vec<(String, String)> = r
        .bytes_by_dtype
        .iter()
        .map(|(d, b)| (d.clone(), gib(*b)))
        .collect();
    view! {
        <div class="file-drop-result">
            <dl>
                <dt>{format}</dt><dd>{format!("{} file(s), {}", r.files, gib(r.file_bytes))}</dd>
                <dt>{t.tensors.clone()}</dt><dd>{r.tensor_count.to_string()}</dd>
                <dt>{t.tensor_bytes.clone()}</dt><dd>{gib(r.tensor_bytes)}</dd>
                <dt>{t.params.clone()}</dt><dd>{r.params.to_string()}</dd>
                <dt>{t.arch.clone()}</dt><dd>{arch}</dd>
                {check.map(|c| view! { <dt>{t.estimate.clone()}</dt><dd>{c}</dd> })}
            </dl>
            <table class="file-drop-dtypes">
                <tbody>
                    {dtypes.into_iter().map(|(d, b)| view! { <tr><td>{d}</td><td>{b}</td></tr> }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
