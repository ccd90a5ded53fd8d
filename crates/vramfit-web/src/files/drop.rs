//! A drop zone (or file picker) for the user's own checkpoint files — one `.safetensors` or
//! `.gguf`, the shards of a safetensors model with its `model.safetensors.index.json`, or the
//! splits of a GGUF — that shows what their headers hold (format, tensors, exact tensor bytes,
//! elements, bytes per dtype, the architecture, how far the core's own weight estimate is) and
//! puts the architecture and format into the scenario.
//!
//! The reading happens in the `vramfit-reader` web worker ([`crate::files::reader`]): its wasm is fetched
//! on the first drop, so the first load does not carry the header parsers. Every sentence comes
//! from the page's language; a refusal is explained by its class ([`refusal`]) with the parser's
//! typed error beside it.

use crate::files::reader::{HeaderSummary, ReaderReply};
use crate::platform::message::next_message;
use crate::ui::locale::locale;
use crate::ui::numbers::gib;
use crate::ui::text::{f, t};
use leptos::prelude::*;
use leptos::task::spawn_local;
use vramfit_core::header::RefusalClass;
use vramfit_i18n::{Key, Locale};
use wasm_bindgen::prelude::*;

/// The reader worker's script (Trunk's loader shim for the `vramfit-reader` binary), relative to
/// the page.
pub const READER_URL: &str = "./vramfit-reader_loader.js";

/// The worker's next message (its `data`), or its error event.
async fn from_worker(worker: &web_sys::Worker) -> Result<JsValue, JsValue> {
    next_message(|on_message, on_error| {
        worker.set_onmessage(Some(on_message));
        worker.set_onerror(Some(on_error));
    })
    .await
}

/// Starts the reader worker, waits until it says it is ready (a message posted before its wasm
/// has started would be lost), hands it the files and waits for its answer.
async fn read_in_worker(files: Vec<web_sys::File>) -> ReaderReply {
    let Ok(worker) = web_sys::Worker::new(READER_URL) else {
        return ReaderReply::Unavailable;
    };
    let reply = async {
        from_worker(&worker).await?;
        let list = js_sys::Array::new();
        for file in &files {
            list.push(file);
        }
        worker.post_message(&list)?;
        from_worker(&worker).await
    }
    .await;
    worker.terminate();
    reply
        .ok()
        .and_then(|text| text.as_string())
        .and_then(|s| serde_json::from_str(&s).ok())
        .unwrap_or(ReaderReply::Unavailable)
}

/// Where the component is.
#[derive(Clone, Debug, PartialEq)]
enum State {
    Idle,
    Reading,
    Done(ReaderReply),
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
    /// Called with the report once the headers are read (to put `report.model` into the
    /// scenario, so a shared link works without the file).
    on_read: Callback<HeaderSummary>,
    /// Called with a dropped model `config.json`'s text (it goes to the config box).
    on_config: Callback<String>,
) -> impl IntoView {
    let l = locale();
    let state = RwSignal::new(State::Idle);
    let settled = crate::platform::later::settled();
    let start = move |files: Vec<web_sys::File>| {
        if files.is_empty() {
            return;
        }
        state.set(State::Reading);
        spawn_local(async move {
            let reply = read_in_worker(files).await;
            match &reply {
                ReaderReply::Read(summary) => on_read.run((**summary).clone()),
                ReaderReply::Config(text) => on_config.run(text.clone()),
                _ => {}
            }
            state.set(State::Done(reply));
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
    let body = move || {
        match state.get() {
        State::Idle => ().into_any(),
        State::Reading => {
            view! { <p class="file-drop-status" role="status">{t(l, Key::FileDropReading)}</p> }
                .into_any()
        }
        State::Done(ReaderReply::Read(r)) => summary(&r, l).into_any(),
        State::Done(ReaderReply::Config(_)) => view! {
            <p class="ok" role="status" data-testid="file-config">{t(l, Key::HeaderModelConfigUsed)}</p>
        }
        .into_any(),
        State::Done(other) => {
            let (message, detail) = match other {
                ReaderReply::Refused { class, detail } => (t(l, refusal(class)), detail),
                ReaderReply::Browser(detail) => (t(l, Key::FileBrowserError), detail),
                _ => (t(l, Key::FileReaderUnavailable), String::new()),
            };
            view! {
                <div class="file-drop-error err" role="alert" data-testid="file-error">
                    <p>{t(l, Key::FileDropRefused)}" "{message}</p>
                    {(!detail.is_empty()).then(|| view! { <code>{detail}</code> })}
                </div>
            }
            .into_any()
        }
    }
    };
    view! {
        <details class="file-drop" data-testid="file-drop">
            <summary>{t(l, Key::FileDropTitle)}</summary>
            // Closed at first: its inside is built once the rest of the code is in (`platform/later.rs`).
            <Show when=move || settled.get()>
                <label class="file-drop-zone"
                    on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
                    on:drop=on_drop>
                    <span>{t(l, Key::FileDropPrompt)}</span>
                    <input type="file" data-testid="file-input" multiple=true
                        accept=".safetensors,.gguf,.json" on:change=on_pick />
                </label>
                <p class="file-drop-privacy">{t(l, Key::FileDropPrivacy)}</p>
                {body}
            </Show>
        </details>
    }
}

/// Bytes as GiB with the unit (the table beside the estimate has its unit in the header; these
/// figures stand alone).
fn gib_unit(l: Locale, bytes: u64) -> String {
    format!("{} GiB", gib(l, bytes))
}

/// The sentence for a refused header's class.
pub fn refusal(class: RefusalClass) -> Key {
    match class {
        RefusalClass::NotRecognized => Key::HeaderNotRecognized,
        RefusalClass::MixedFormats => Key::HeaderMixedFormats,
        RefusalClass::ModelConfig => Key::HeaderModelConfig,
        RefusalClass::Truncated => Key::HeaderTruncated,
        RefusalClass::TooLarge => Key::HeaderTooLarge,
        RefusalClass::UnsupportedVersion => Key::HeaderUnsupportedVersion,
        RefusalClass::IncompleteSet => Key::HeaderShardSet,
        RefusalClass::Malformed => Key::HeaderMalformed,
    }
}

/// What was read, as a definition list and a table of bytes per dtype, and whether the estimate
/// now uses it.
fn summary(r: &HeaderSummary, l: Locale) -> impl IntoView {
    let arch = r
        .architecture
        .iter()
        .cloned()
        .chain(r.arch.iter().map(|(k, v)| format!("{k} {}", l.integer(*v))))
        .collect::<Vec<_>>()
        .join(" · ");
    let check = r
        .weights
        .as_ref()
        .zip(r.estimated_bytes)
        .zip(r.difference_percent)
        .map(|((format, bytes), diff)| {
            let sign = if diff >= 0.0 { "+" } else { "−" };
            f(
                l,
                Key::FileEstimateCheck,
                &[
                    ("format", format),
                    ("bytes", &gib_unit(l, bytes)),
                    ("diff", &format!("{sign}{} %", l.decimal(diff.abs(), 2))),
                ],
            )
        });
    let applied = if r.hf_config.is_some() {
        Key::FileApplied
    } else {
        Key::FileNoModel
    };
    let files = f(
        l,
        Key::FileFiles,
        &[
            ("format", &r.format),
            ("count", &l.integer(r.files)),
            ("size", &gib_unit(l, r.file_bytes)),
        ],
    );
    let dtypes: Vec<(String, String)> = r
        .bytes_by_dtype
        .iter()
        .map(|(d, b)| (d.clone(), gib_unit(l, *b)))
        .collect();
    view! {
        <div class="file-drop-result" data-testid="file-result">
            // Green only when the estimate now uses the file; an architecture vramfit does not
            // model yet is a note, not a success.
            <p class=if applied == Key::FileApplied { "ok" } else { "note" } data-testid="file-applied">{t(l, applied)}</p>
            <p data-testid="file-files">{files}</p>
            <dl>
                <dt>{t(l, Key::FileTensors)}</dt><dd data-testid="file-tensors">{l.integer(r.tensor_count)}</dd>
                <dt>{t(l, Key::FileExactWeights)}</dt>
                <dd data-testid="file-bytes">{format!("{} ({} B)", gib_unit(l, r.tensor_bytes), l.integer(r.tensor_bytes))}</dd>
                <dt>{t(l, Key::FileElements)}</dt><dd>{l.integer(r.params)}</dd>
                <dt>{t(l, Key::FileArch)}</dt><dd data-testid="file-arch">{arch}</dd>
            </dl>
            {check.map(|c| view! { <p data-testid="file-check">{c}</p> })}
            <table class="file-drop-dtypes">
                <tbody>
                    {dtypes.into_iter().map(|(d, b)| view! { <tr><td>{d}</td><td>{b}</td></tr> }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
