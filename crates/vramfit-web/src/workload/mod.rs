//! The input half of the page. One folder per workload, each with its knobs as text and their
//! conversion to the core's types (`form.rs`) and its fieldset (`inputs.rs`); [`form`] holds every
//! field as text and turns them into one `Scenario`; [`inputs`] lays the fieldsets out. Uses
//! `ui`, `platform` (the split's rest) and `files` (the drop zone in the model fieldset).

pub mod custom;
pub mod engine;
pub mod form;
pub mod gen;
pub mod inputs;
pub mod spec;
pub mod train;
