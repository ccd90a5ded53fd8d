//! The serving workload's own parameters (`workload.inference`) and their range checks.

use crate::units::limits::{
    check_range, Field, RangeError, DEFAULT_PREFILL_CHUNK_TOKENS, MAX_CONTEXT_TOKENS, MAX_SEQUENCES,
};
use serde::{Deserialize, Serialize};

/// Serving parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inference {
    /// Tokens held per sequence (prompt + generated), i.e. the context each request may use.
    pub context_tokens: u32,
    /// Sequences served at the same time.
    pub sequences: u32,
    /// Most tokens one prefill step processes (chunked prefill budget).
    #[serde(default = "default_chunk")]
    pub prefill_chunk_tokens: u32,
}

fn default_chunk() -> u32 {
    DEFAULT_PREFILL_CHUNK_TOKENS
}

impl Inference {
    /// Range checks: context 1 … `MAX_CONTEXT_TOKENS` (10 M), sequences 1 … `MAX_SEQUENCES`
    /// (100,000), prefill chunk 16 … `MAX_CONTEXT_TOKENS`.
    pub fn validate(&self) -> Vec<(Field, RangeError)> {
        let big = f64::from(MAX_CONTEXT_TOKENS);
        [
            (Field::ContextTokens, self.context_tokens, 1.0, big),
            (
                Field::Sequences,
                self.sequences,
                1.0,
                f64::from(MAX_SEQUENCES),
            ),
            (
                Field::PrefillChunkTokens,
                self.prefill_chunk_tokens,
                16.0,
                big,
            ),
        ]
        .into_iter()
        .filter_map(|(field, v, min, max)| {
            check_range(f64::from(v), min, max)
                .err()
                .map(|e| (field, e))
        })
        .collect()
    }
}

impl Default for Inference {
    /// 8192 tokens of context, 4 sequences, the default prefill chunk.
    fn default() -> Inference {
        Inference {
            context_tokens: 8192,
            sequences: 4,
            prefill_chunk_tokens: DEFAULT_PREFILL_CHUNK_TOKENS,
        }
    }
}
