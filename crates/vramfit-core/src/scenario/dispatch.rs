//! The one dispatch over workloads: a [`Job`] (the model-level budget inputs, the workload and the
//! serving engine of a scenario) and the single `match` that sends it to the workload's own budget
//! function. Everything above this layer (plans, the recommendation, the inverse questions, the
//! estimate) evaluates jobs; nothing below it knows more than one workload.

use crate::budget::{BudgetInputs, Card, GpuBudget};
use crate::scenario::Workload;
use crate::workloads::engine::{self, Engine};
use std::ops::Deref;

/// What one plan evaluation needs: the model-level inputs plus the workload and engine they serve.
/// Derefs to its [`BudgetInputs`] so plan code reads `job.arch`, `job.sequences`.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// Model, formats, shape of the work, GPUs splitting the model.
    pub inputs: BudgetInputs<'a>,
    /// The workload.
    pub workload: &'a Workload,
    /// The serving engine, if one is chosen (serving only).
    pub engine: Option<&'a Engine>,
}

impl<'a> Deref for Job<'a> {
    type Target = BudgetInputs<'a>;
    fn deref(&self) -> &BudgetInputs<'a> {
        &self.inputs
    }
}

impl Job<'_> {
    /// One GPU's budget of this job on `card`.
    pub fn gpu_budget(&self, card: &Card) -> GpuBudget {
        let inp = &self.inputs;
        match self.workload {
            Workload::Inference(_) => engine::serving_budget(self.engine, inp, card),
            Workload::Train(t) => crate::workloads::training::training_budget(t, inp, card),
            Workload::GenerateImage(g) | Workload::GenerateVideo(g) => {
                // Validation runs before any plan is evaluated; an invalid generation costs nothing.
                crate::workloads::diffusion::generation_budget(g, card)
                    .map_or_else(|_| GpuBudget::of(Vec::new()), |d| d.into_gpu_budget())
            }
            Workload::Custom(c) => {
                crate::workloads::custom::custom_budget(c, inp.cuda_context_bytes)
            }
        }
    }
}
