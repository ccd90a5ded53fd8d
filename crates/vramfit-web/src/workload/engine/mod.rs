//! Serving an LLM: engine, context, sequences, KV cache, engine options.
//! [`form`]: the knobs as text and their conversion to the core's types; [`inputs`]: the fieldset.

pub mod form;
pub mod inputs;
