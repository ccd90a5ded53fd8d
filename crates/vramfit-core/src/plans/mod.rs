//! Plans, and what evaluates them: the layer above `scenario`, which it may use with every folder
//! below. Bottom up (the order `tests/layers.rs` holds):
//! 1. [`plan`]: cards × split → the per-GPU budget and the verdict with its reason (a mixed
//!    machine card by card);
//! 2. [`speed`]: how fast a plan runs;
//! 3. [`price`]: what a plan costs, from its speed;
//! 4. side by side, none using another: [`recommend`] (the card search, ranking offers by price
//!    or speed), [`inverse`] (the largest context / sequences / budget fraction, the memory
//!    curve), [`rules`] (the rules of thumb), [`warning`] (warnings as data) and [`change`] (the
//!    changes a fix makes, as data). `rules` and `warning` need nothing of this folder; they sit
//!    here because only the estimate reads them.

pub mod change;
pub mod inverse;
pub mod plan;
pub mod price;
pub mod recommend;
pub mod rules;
pub mod speed;
pub mod warning;
