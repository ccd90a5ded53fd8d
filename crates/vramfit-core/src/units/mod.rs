//! Units, the bottom layer: what every layer above uses, and which uses nothing of the crate.
//! [`bytes`]: byte units and the saturating byte arithmetic; [`limits`]: the validation vocabulary
//! (`Field`, `RangeError`, `check_range`), the scenario version and defaults, the `config.json`
//! ceilings; [`num`]: decimal text ↔ `f64`. All three are public namespaces (`vramfit_core::bytes`
//! …, re-exported in `lib.rs`). None uses another.

pub mod bytes;
pub mod limits;
pub mod num;
