//! Image and video generation: pipeline, size, frames, offload.
//! [`form`]: the knobs as text and their conversion to the core's types; [`inputs`]: the fieldset.

pub mod form;
pub mod inputs;
