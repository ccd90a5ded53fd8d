//! `Display` and `std::error::Error` for the core's error types, so `?` reaches
//! `Box<dyn Error>` in programs that use the core as a library. The messages are plain English for
//! logs and terminals; the page and the CLI's JSON keep the typed variants and word them
//! themselves (the page in the user's language).

use crate::adapters::header::HeaderError;
use crate::estimate::ScenarioError;
use crate::inputs::import::hf_config::ConfigError;
use crate::units::limits::{Field, RangeError};
use std::fmt;

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeError::TooSmall { min } => write!(f, "below the minimum {min}"),
            RangeError::TooLarge { max } => write!(f, "above the maximum {max}"),
            RangeError::Invalid => {
                f.write_str("not a number, or a combination that makes no sense")
            }
            RangeError::Between { min, max } => write!(f, "outside {min} to {max}"),
            RangeError::NotMultiple { of } => write!(f, "not a multiple of {of}"),
        }
    }
}

impl std::error::Error for RangeError {}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::NotJson { line, column } => {
                write!(f, "config.json is not JSON (line {line}, column {column})")
            }
            ConfigError::NotAnObject => f.write_str("config.json is not a JSON object"),
            ConfigError::MissingKey { key } => write!(f, "config.json lacks `{key}`"),
            ConfigError::InvalidValue { key } => write!(f, "config.json has an invalid `{key}`"),
            ConfigError::TooLarge { key, max } => {
                write!(f, "config.json's `{key}` is larger than {max}")
            }
            ConfigError::UnsupportedModelType { model_type } => {
                write!(f, "model_type `{model_type}` is not modelled")
            }
            ConfigError::InconsistentHeads => {
                f.write_str("config.json's heads do not divide the width or each other")
            }
            ConfigError::ExpertsPerToken { active, experts } => write!(
                f,
                "config.json routes each token to {active} of {experts} experts"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScenarioError::MissingModel => {
                f.write_str("the workload needs a model and none is named")
            }
            ScenarioError::UnknownModel { id } => write!(f, "no catalog model `{id}`"),
            ScenarioError::UnknownGpu { id } => write!(f, "no catalog GPU `{id}`"),
            ScenarioError::Config { error } => error.fmt(f),
            ScenarioError::InvalidFields { fields } => {
                f.write_str("invalid fields: ")?;
                for (i, (field, err)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{} {err}", field_name(*field))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ScenarioError {}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        write!(f, "{:?} ({:?})", self.kind.class(), self.kind)
    }
}

impl std::error::Error for HeaderError {}

/// A field's scenario path.
fn field_name(f: Field) -> String {
    match f {
        Field::Version => "version".into(),
        Field::ContextTokens => "workload.inference.context_tokens".into(),
        Field::Sequences => "workload.inference.sequences".into(),
        Field::PrefillChunkTokens => "workload.inference.prefill_chunk_tokens".into(),
        Field::GpuCount => "hardware.count".into(),
        Field::GpuMemory => "hardware.gpu_memory_gib".into(),
        Field::Hardware => "hardware".into(),
        Field::Headroom => "headroom_percent".into(),
        Field::Engine(name) => format!("engine.{name}"),
        Field::Train(name) => format!("workload.train.{name}"),
        Field::Item(i) => format!("workload.custom.items[{i}]"),
        Field::Generation(name) => format!("generation.{name}"),
        Field::UnquantizedModules => "unquantized_modules".into(),
        Field::WeightsBytes => "weights_bytes".into(),
        Field::Price => "prices_usd_per_hour".into(),
        Field::Speculative(name) => format!("speculative.{name}"),
    }
}

#[cfg(test)]
mod tests {
    fn boxed() -> Result<(), Box<dyn std::error::Error>> {
        let s: crate::Scenario = serde_json::from_str(
            r#"{"model":{"catalog":"no-such-model"},"workload":{"inference":{"context_tokens":8,"sequences":1}}}"#,
        )?;
        crate::estimate(&s)?;
        Ok(())
    }

    #[test]
    fn errors_reach_box_dyn_error() {
        let e = boxed().expect_err("unknown model");
        assert_eq!(e.to_string(), "no catalog model `no-such-model`");
    }
}
