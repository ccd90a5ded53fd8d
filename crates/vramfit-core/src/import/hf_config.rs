//! A Hugging Face `config.json` → [`ModelArch`].
//!
//! Reads the keys `transformers`' configuration classes define (`LlamaConfig`, `MistralConfig`,
//! `Qwen2Config`, `Qwen3Config`, `Gemma2Config`, `Gemma3TextConfig`, `Phi3Config`). Vision-language
//! wrappers (`llava_next`, `gemma3`, …) nest the language model under `text_config`: that object is
//! read, with the wrapper's keys as fallback. Unknown keys are ignored. A missing key that has no
//! default in `transformers` is an error naming the key; where `transformers` has a default, it is
//! used (`num_key_value_heads` = heads, `head_dim` = hidden / heads, `tie_word_embeddings` and
//! `max_position_embeddings` per family).

use crate::model::{Family, ModelArch};
use serde::Serialize;
use serde_json::{Map, Value};

/// Why a `config.json` could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ConfigError {
    /// Not JSON at all; where the parser stopped.
    NotJson {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// JSON, but not an object.
    NotAnObject,
    /// A required key is absent.
    MissingKey {
        /// The key.
        key: &'static str,
    },
    /// A key has the wrong type or an impossible value (zero, negative, too large).
    InvalidValue {
        /// The key.
        key: &'static str,
    },
    /// `model_type` names a family this version does not model.
    UnsupportedModelType {
        /// What the file says.
        model_type: String,
    },
    /// `hidden_size` is not a multiple of the heads and no `head_dim` is given, or the KV heads do
    /// not divide the query heads.
    InconsistentHeads,
}

/// Parses `config.json` text.
pub fn parse_str(text: &str) -> Result<ModelArch, ConfigError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ConfigError::NotJson {
        line: e.line(),
        column: e.column(),
    })?;
    parse_value(&value)
}

/// Reads an already-parsed `config.json`.
pub fn parse_value(value: &Value) -> Result<ModelArch, ConfigError> {
    let outer = value.as_object().ok_or(ConfigError::NotAnObject)?;
    let inner = outer.get("text_config").and_then(Value::as_object);
    let keys = Keys { inner, outer };
    let model_type = match keys.get("model_type") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(ConfigError::InvalidValue { key: "model_type" }),
        None => return Err(ConfigError::MissingKey { key: "model_type" }),
    };
    let family = family_of(&model_type).ok_or(ConfigError::UnsupportedModelType {
        model_type: model_type.clone(),
    })?;
    let layers = keys.count("num_hidden_layers")?;
    let hidden = keys.count("hidden_size")?;
    let heads = keys.count("num_attention_heads")?;
    let kv_heads = keys.optional_count("num_key_value_heads")?.unwrap_or(heads);
    let head_dim = match keys.optional_count("head_dim")? {
        Some(d) => d,
        None if hidden % heads == 0 => hidden / heads,
        None => return Err(ConfigError::InconsistentHeads),
    };
    if heads % kv_heads != 0 {
        return Err(ConfigError::InconsistentHeads);
    }
    let (default_tied, default_max_position) = family_defaults(family);
    let tied_embeddings = match keys.get("tie_word_embeddings") {
        None | Some(Value::Null) => default_tied,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(ConfigError::InvalidValue {
                key: "tie_word_embeddings",
            })
        }
    };
    Ok(ModelArch {
        family,
        layers,
        hidden,
        heads,
        kv_heads,
        head_dim,
        intermediate: keys.count("intermediate_size")?,
        vocab: keys.count("vocab_size")?,
        tied_embeddings,
        max_position: keys
            .optional_count("max_position_embeddings")?
            .unwrap_or(default_max_position),
    })
}

/// The family for a `model_type`, including the wrappers whose `text_config` holds a known family.
fn family_of(model_type: &str) -> Option<Family> {
    match model_type {
        "gemma3" => Some(Family::Gemma3),
        other => Family::ALL.into_iter().find(|f| f.model_type() == other),
    }
}

/// `transformers` defaults for `tie_word_embeddings` and `max_position_embeddings` per family
/// (the configuration classes' `__init__` signatures).
fn family_defaults(family: Family) -> (bool, u32) {
    match family {
        Family::Llama => (false, 2048),
        Family::Mistral => (false, 4096 * 32),
        Family::Qwen2 | Family::Qwen3 => (false, 32768),
        Family::Gemma2 => (true, 8192),
        Family::Gemma3 => (true, 131072),
        Family::Phi3 => (false, 4096),
    }
}

/// Key lookup: `text_config` first, then the top level.
struct Keys<'a> {
    inner: Option<&'a Map<String, Value>>,
    outer: &'a Map<String, Value>,
}

/// Upper bound for any size key: far beyond real models, low enough that products stay in `u64`.
const MAX_DIMENSION: u64 = 1 << 24;

impl Keys<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.inner
            .and_then(|m| m.get(key))
            .or_else(|| self.outer.get(key))
    }

    fn optional_count(&self, key: &'static str) -> Result<Option<u32>, ConfigError> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) if (1..=MAX_DIMENSION).contains(&n) => u32::try_from(n)
                    .map(Some)
                    .map_err(|_| ConfigError::InvalidValue { key }),
                _ => Err(ConfigError::InvalidValue { key }),
            },
        }
    }

    fn count(&self, key: &'static str) -> Result<u32, ConfigError> {
        self.optional_count(key)?
            .ok_or(ConfigError::MissingKey { key })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LLAMA_31_8B: &str = r#"{"architectures":["LlamaForCausalLM"],"model_type":"llama",
        "hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,
        "num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256,
        "max_position_embeddings":131072,"tie_word_embeddings":false,"rope_scaling":{"factor":8.0}}"#;

    #[test]
    fn reads_llama() {
        let arch = parse_str(LLAMA_31_8B).expect("valid config");
        assert_eq!(arch.param_count(), 8_030_261_248);
        assert_eq!(arch.head_dim, 128);
    }

    #[test]
    fn nested_text_config() {
        let text = r#"{"model_type":"llava_next","text_config":{"model_type":"mistral",
            "hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,
            "num_attention_heads":32,"num_key_value_heads":8,"vocab_size":32064}}"#;
        let arch = parse_str(text).expect("valid nested config");
        assert_eq!(arch.family, Family::Mistral);
        assert!(!arch.tied_embeddings);
    }

    #[test]
    fn errors_name_the_problem() {
        let check = |text: &str, want: ConfigError| assert_eq!(parse_str(text), Err(want));
        check("{", ConfigError::NotJson { line: 1, column: 1 });
        check("[1]", ConfigError::NotAnObject);
        check("{}", ConfigError::MissingKey { key: "model_type" });
        check(
            r#"{"model_type":"llama","num_hidden_layers":2}"#,
            ConfigError::MissingKey { key: "hidden_size" },
        );
        check(
            r#"{"model_type":"llama","num_hidden_layers":-2}"#,
            ConfigError::InvalidValue {
                key: "num_hidden_layers",
            },
        );
        check(
            r#"{"model_type":"bert"}"#,
            ConfigError::UnsupportedModelType {
                model_type: "bert".into(),
            },
        );
        check(
            r#"{"model_type":"llama","num_hidden_layers":2,"hidden_size":10,"num_attention_heads":3}"#,
            ConfigError::InconsistentHeads,
        );
    }
}
