//! `vramfit inspect FILE [FILE …]`: the exact weights of a checkpoint from its file headers
//! (`vramfit_core::header`), reading only header bytes.
//!
//! Each file is read in growing chunks: first [`FIRST_CHUNK`] bytes (or the whole file when
//! smaller), then, whenever the parser answers `need_more`, up to at least what it asks for and at
//! least twice what was read. A safetensors file is thus read to `8 + N` bytes, a GGUF file to the
//! end of its tensor infos (bounded by `header::MAX_GGUF_HEADER_BYTES`) — never its tensor data.
//! Several files are one model: safetensors shards (with or without
//! `model.safetensors.index.json`) or the splits of a GGUF.

use serde_json::json;
use std::fs::File;
use std::io::Read;
use vramfit_core::header::{inspect, ErrorKind, HeaderError, InputFile, MAX_GGUF_HEADER_BYTES};

/// Bytes read from each file before the parser asks for more.
pub const FIRST_CHUNK: u64 = 1 << 20;

/// An open file and what has been read of it.
struct Opened {
    name: String,
    file: File,
    size: u64,
    buf: Vec<u8>,
}

impl Opened {
    /// Reads on until `want` bytes (at most the file's size) are in the buffer.
    fn fill_to(&mut self, want: u64) -> std::io::Result<()> {
        let have = self.buf.len() as u64;
        let want = want.min(self.size);
        if want > have {
            (&mut self.file)
                .take(want - have)
                .read_to_end(&mut self.buf)?;
        }
        Ok(())
    }
}

fn io_error(path: &str, e: &std::io::Error) -> (u8, String) {
    let err = json!({"error": {"kind": "io", "path": path, "message": e.to_string()}});
    (2, err.to_string())
}

/// Reads the headers of `paths` and returns the report as JSON with the bytes read in total, or
/// an exit code (1: refused header, 2: unreadable file) and the error as JSON.
pub fn inspect_paths(paths: &[String]) -> Result<(String, u64), (u8, String)> {
    let mut files = Vec::new();
    for path in paths {
        let opened = File::open(path).and_then(|file| {
            let size = file.metadata()?.len();
            let name = std::path::Path::new(path)
                .file_name()
                .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
            let mut o = Opened {
                name,
                file,
                size,
                buf: Vec::new(),
            };
            o.fill_to(FIRST_CHUNK)?;
            Ok(o)
        });
        files.push(opened.map_err(|e| io_error(path, &e))?);
    }
    loop {
        let inputs: Vec<InputFile> = files
            .iter()
            .map(|f| InputFile {
                name: &f.name,
                bytes: &f.buf,
                size: f.size,
            })
            .collect();
        match inspect(&inputs) {
            Ok(report) => {
                let read = files.iter().map(|f| f.buf.len() as u64).sum();
                let text = serde_json::to_string(&report).map_err(|e| {
                    let err = json!({"error": {"kind": "internal", "message": e.to_string()}});
                    (1, err.to_string())
                })?;
                return Ok((text, read));
            }
            Err(HeaderError {
                kind: ErrorKind::NeedMore { index, bytes },
                ..
            }) => {
                let Some(f) = files.get_mut(index) else {
                    return Err((1, json!({"error": {"kind": "internal"}}).to_string()));
                };
                let have = f.buf.len() as u64;
                if have >= f.size {
                    // The parser has the whole file and still asks: never expected; stop.
                    return Err((1, json!({"error": {"kind": "internal"}}).to_string()));
                }
                let path = paths.get(index).map_or("", String::as_str);
                let doubled = have.saturating_mul(2).min(MAX_GGUF_HEADER_BYTES);
                f.fill_to(bytes.max(doubled))
                    .map_err(|e| io_error(path, &e))?;
            }
            Err(e) => return Err((1, json!({ "error": e }).to_string())),
        }
    }
}
