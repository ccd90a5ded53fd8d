//! Importers: turn what a user pastes or drops into a [`crate::inputs::model::ModelArch`].
//! They take text or bytes (never paths) so the core does no I/O.

pub mod hf_config;
