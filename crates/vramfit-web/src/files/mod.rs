//! Reading the user's own model files in the browser: the drop zone and its answers ([`drop`]),
//! and the safetensors / GGUF header reader, which runs in a web worker ([`reader`]).

pub mod drop;
pub mod reader;
