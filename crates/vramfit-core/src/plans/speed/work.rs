//! Training and generation speed: FLOPs of the work over the cards' dense peak at a stated
//! utilisation. Neither is calibrated on measurements the repository holds, so their error band
//! is `None` ("not measured") and the page says so.
//!
//! - **Training** (Kaplan et al. 2020, "Scaling Laws", §2.1; Megatron-LM's MFU accounting): a
//!   token costs `6 × active params` FLOPs for a full fine-tune (forward 2, backward 4), `4 ×`
//!   for LoRA / QLoRA (the frozen weights get no weight gradient, the activations still do), plus
//!   one more forward (`2 ×`) when activation checkpointing recomputes it. The step processes
//!   `micro_batch × sequence_length × gradient_accumulation` tokens on each data-parallel card.
//!   [`TRAINING_UTILISATION`] of the 16-bit peak is assumed.
//! - **Generation**: [`crate::workloads::diffusion::denoise_step_flops`] × the recipe's steps over
//!   [`GENERATION_UTILISATION`] of the peak for the denoiser's format (FP8 units for an FP8
//!   denoiser where the card has them).

use super::Bound;
use crate::inputs::catalog::{Gpu, GpuMarket};
use crate::plans::plan::{Plan, Split};
use crate::scenario::dispatch::Job;
use crate::workloads::diffusion::{Generation, PipelinePartFormat};
use crate::workloads::training::{Checkpointing, Method, Train};
use serde::Serialize;

/// Share of the dense 16-bit peak a training step is assumed to reach (model FLOPs utilisation
/// of Hugging Face / FSDP fine-tunes on one node is commonly 30–45 %).
pub const TRAINING_UTILISATION: f64 = 0.35;
/// Share of the peak a diffusion transformer's denoising step is assumed to reach.
pub const GENERATION_UTILISATION: f64 = 0.4;

/// How fast a training plan runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TrainingSpeed {
    /// Tokens per second over all the plan's cards.
    pub tokens_per_s: f64,
    /// Seconds per optimizer step (all micro-batches and accumulation steps of every card).
    pub step_seconds: f64,
    /// The utilisation assumed.
    pub utilisation: f64,
    /// `None`: not calibrated on measurements.
    pub error_band_percent: Option<u32>,
    /// What limits it.
    pub basis: Bound,
}

/// How fast a generation plan runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GenerationSpeed {
    /// Seconds per denoising step of one call (the whole batch).
    pub seconds_per_step: f64,
    /// Steps the pipeline's reference recipe runs.
    pub steps: u32,
    /// Seconds per image or video: the denoising loop of one batch over its size (each card
    /// runs its own job).
    pub seconds_per_item: f64,
    /// The utilisation assumed.
    pub utilisation: f64,
    /// `None`: not calibrated on measurements.
    pub error_band_percent: Option<u32>,
}

pub(super) fn training(
    job: &Job,
    t: &Train,
    plan: &Plan,
    _gpu: &Gpu,
    m: &GpuMarket,
) -> Option<TrainingSpeed> {
    let active = job.arch.active_param_count() as f64;
    let mut per_token = match t.method {
        Method::Full => 6.0,
        Method::Lora | Method::Qlora => 4.0,
    };
    if t.checkpointing != Checkpointing::None {
        per_token += 2.0;
    }
    let cards = f64::from(plan.count.max(1));
    let peak = m.tflops_16 * 1e12 * TRAINING_UTILISATION * cards;
    let tokens_per_s = peak / (per_token * active.max(1.0));
    let data_parallel = match plan.split {
        Split::DataParallel | Split::Sharded | Split::Replicas => cards,
        _ => 1.0,
    };
    let tokens = f64::from(t.micro_batch)
        * f64::from(t.sequence_length)
        * f64::from(t.gradient_accumulation.max(1))
        * data_parallel;
    (tokens_per_s.is_finite() && tokens_per_s > 0.0).then(|| TrainingSpeed {
        tokens_per_s,
        step_seconds: tokens / tokens_per_s,
        utilisation: TRAINING_UTILISATION,
        error_band_percent: None,
        basis: Bound::Compute,
    })
}

pub(super) fn generation(
    g: &Generation,
    _plan: &Plan,
    _gpu: &Gpu,
    m: &GpuMarket,
) -> Option<GenerationSpeed> {
    let (flops, steps) = crate::workloads::diffusion::denoise_step_flops(g)?;
    let peak = match g.denoiser_format {
        Some(PipelinePartFormat::Fp8) => m.tflops_fp8.unwrap_or(m.tflops_16),
        _ => m.tflops_16,
    };
    let rate = peak * 1e12 * GENERATION_UTILISATION;
    let seconds_per_step = flops / rate;
    (seconds_per_step.is_finite() && seconds_per_step > 0.0).then(|| GenerationSpeed {
        seconds_per_step,
        steps,
        seconds_per_item: seconds_per_step * f64::from(steps) / f64::from(g.batch.max(1)),
        utilisation: GENERATION_UTILISATION,
        error_band_percent: None,
    })
}
