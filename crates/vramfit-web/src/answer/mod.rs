//! The answer half of the page and what is built below it. [`sections`]: the verdict, bar,
//! component table, engine report, warnings, limits and recommendation; [`speed`]: speed, price
//! and the ranked offers; [`fixes`]: what would make it fit; [`chart`]: the memory curve;
//! [`guidance`], [`measure`], [`runs_on`]: the checklist and questions, measuring the real peak,
//! and what else runs on a card; [`keep_offline`]: the footer's "keep everything offline" box.
//! Every figure is read from the core's `Estimate`. Uses `ui` and `platform` only.

pub mod chart;
pub mod fixes;
pub mod guidance;
pub mod keep_offline;
pub mod measure;
pub mod runs_on;
pub mod sections;
pub mod speed;
