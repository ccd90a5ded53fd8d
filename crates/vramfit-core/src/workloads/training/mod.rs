//! Training and fine-tuning budgets: full, LoRA, QLoRA; precision policies; optimizers; activation
//! checkpointing; DDP / ZeRO / FSDP sharding, tensor and pipeline parallel, CPU offload. Traced in PyTorch (`torch/optim/adamw.py`,
//! `c10/cuda/CUDACachingAllocator.cpp`), transformers, bitsandbytes and torchtune.
//!
//! Per GPU, with P the parameters and Pₜ the trainable ones (all, the top N layers, or the LoRA
//! adapters `r·(in + out)` per target linear):
//! - **Weights**: 4 B/param (fp32, autocast) or 2 (bf16, 16-bit + master); QLoRA's base in NF4
//!   (`format.rs`: 0.5 B + absmax, embeddings and head bf16). **Master**: 4·Pₜ with 16-bit + master.
//! - **Gradients**: Pₜ × grad dtype (4 with fp32 weights, 2 otherwise); with the optimizer stepped
//!   in backward only the largest trainable tensor's gradient (and its accumulation buffer) lives.
//! - **Optimizer states** (`optimizer.rs`): AdamW 2 moments; bitsandbytes 8-bit 2 B + fp32 absmax per
//!   2048 (fp32 moments below 4096 elements); paged 8-bit in unified memory (evicted to the host,
//!   invisible to `torch.cuda.max_memory_*`); Adafactor factored `(rows + cols)·4`; SGD none or
//!   one momentum; Lion one moment.
//! - **Activations** (`activations.rs`): Korthikanti et al. 2022 ("Reducing Activation Recomputation
//!   in Large Transformer Models") re-derived per family and dtype; flash attention removes the
//!   `s²` term; full checkpointing keeps each layer's input plus one layer's recompute.
//! - **Logits**: `b·s·V` in the compute dtype plus what the cross-entropy keeps: the fp32 upcast
//!   and saved log-softmax; with torchtune's chunked cross-entropy the saved fp32 log-softmax of
//!   every chunk (eager) or, compiled, one chunk's 16-bit gradient (`activations::logits`). The
//!   eager whole-sequence loss's backward opens a fourth fp32 logits segment that stays idle beside
//!   the next forward's end (`activations::cached_loss_segment`, counted in the allocator reserve
//!   where that moment sets the total).
//! - **Temporaries**: autocast's cached 16-bit copies of the trainable linear weights during the
//!   forward (`autocast_mode.cpp cached_cast`); the optimizer step's (foreach AdamW: one moment's
//!   worth; per-parameter loops: two copies of the largest tensor), whose segments a
//!   per-parameter loop leaves cached beside the next forward (`optimizer::cached_step_segments`,
//!   counted in the allocator reserve); so does the largest gradient's when it is accumulated
//!   into a kept `.grad` and no cached block holds it (`optimizer::cached_accumulation_segment`).
//! - **Sharding** over the data-parallel GPUs `dp = GPUs / (tp · pp)`: ZeRO-1 states, ZeRO-2 also
//!   gradients, ZeRO-3 / FSDP full shard also weights plus two gathered layers (prefetch), hybrid
//!   within a group; tensor and pipeline parallel divide the model first. Offload moves states and
//!   master (and parameters) to host RAM, which is reported.
//!
//! The peak is the largest phase, not the sum: end of forward (weights, states, activations,
//! logits, autocast cache, persisting gradients), backward (weights, states, all gradients, one
//! layer's recompute), optimizer step (weights, states, gradients, step temporaries).

pub mod activations;
pub mod config;
pub mod optimizer;
/// The allocator replay the closed form is held to: tests only (cargo feature `replay`).
#[cfg(feature = "replay")]
pub mod replay;

pub use config::{Checkpointing, LoraTargets, Method, Optimizer, Sharding, Train, TrainPrecision};

use crate::budget::{components, reserve, runtime, BudgetInputs, ComponentId};
use crate::budget::{Card, GpuBudget, PeakPhase};
use crate::inputs::format::WeightFormat;
use crate::inputs::model::{ModelArch, Tensor, TensorKind};
use crate::units::bytes::{add, div, div_ceil, mul, prod, sub, sum};
use serde::Serialize;

/// The phase of a training step that sets the peak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrainPhase {
    /// End of the forward pass.
    Forward,
    /// Backward pass.
    Backward,
    /// Optimizer step.
    OptimizerStep,
}

/// Whether a LoRA target list covers a tensor.
pub(crate) fn is_target(kind: TensorKind, targets: LoraTargets) -> bool {
    use TensorKind as K;
    match targets {
        LoraTargets::QueryValue => matches!(kind, K::AttnQ | K::AttnV | K::AttnQB | K::AttnKvB),
        LoraTargets::QueryKeyValue => matches!(
            kind,
            K::AttnQ | K::AttnK | K::AttnV | K::AttnQB | K::AttnKvB
        ),
        LoraTargets::Attention => matches!(
            kind,
            K::AttnQ
                | K::AttnK
                | K::AttnV
                | K::AttnOutput
                | K::AttnQA
                | K::AttnQB
                | K::AttnKvA
                | K::AttnKvB
        ),
        LoraTargets::AllLinear => kind.is_layer_linear() && !kind.is_expert(),
    }
}

/// Trainable parameters: (count, tensors as (rows, cols, how many identical tensors), largest
/// tensor elements). Each layer kind is listed once with its count of layers.
pub fn trainable(arch: &ModelArch, t: &Train) -> (u64, Vec<(u64, u64, u64)>, u64) {
    let (before, after) = arch.outer_tensors();
    let mut shapes = Vec::new();
    match t.method {
        Method::Full => {
            let first = t
                .trainable_top_layers
                .map_or(0, |n| arch.layers.saturating_sub(n));
            for x in before.iter().chain(&after) {
                if !(first > 0 && x.kind == TensorKind::TokenEmbd) {
                    shapes.push((mul(x.rows, x.count), x.cols, 1));
                }
            }
            for (i, n) in arch.layer_kinds(first, arch.layers) {
                for x in arch.layer_tensors(i) {
                    shapes.push((mul(x.rows, x.count), x.cols, n));
                }
            }
        }
        Method::Lora | Method::Qlora => {
            let r = u64::from(t.lora_rank.max(1));
            let targets = |x: &Tensor| is_target(x.kind, t.lora_targets);
            for x in before.iter().chain(&after).filter(|x| targets(x)) {
                shapes.push((r, x.cols, 1)); // A: r × in
                shapes.push((x.rows, r, 1)); // B: out × r
            }
            for (i, n) in arch.layer_kinds(0, arch.layers) {
                for x in arch.layer_tensors(i).iter().filter(|x| targets(x)) {
                    shapes.push((r, x.cols, n));
                    shapes.push((x.rows, r, n));
                }
            }
        }
    }
    let count = sum(shapes.iter().map(|&(r, c, n)| prod(&[r, c, n])));
    let largest = shapes.iter().map(|&(r, c, _)| mul(r, c)).max().unwrap_or(0);
    (count, shapes, largest)
}

/// How the base weights are stored and how wide a full-precision parameter is: fp32 weights (4
/// bytes) under fp32 and autocast precisions, 16-bit (2) otherwise; QLoRA's base in NF4 whatever
/// the compute precision. Shared by the closed form and the allocator replay.
pub(crate) fn weight_storage(t: &Train) -> (WeightFormat, u64) {
    let fp32 = matches!(
        t.precision,
        TrainPrecision::Fp32 | TrainPrecision::AmpFp16 | TrainPrecision::AmpBf16
    );
    let format = match (t.method, fp32) {
        (Method::Qlora, _) => WeightFormat::BnbNf4 {
            double_quant: t.double_quant,
        },
        (_, true) => WeightFormat::Fp32,
        (_, false) => WeightFormat::Bf16,
    };
    (format, if fp32 { 4 } else { 2 })
}

/// One GPU's training budget on `card` (`inp.tensor_parallel` = GPUs in the plan).
pub fn training_budget(t: &Train, inp: &BudgetInputs, card: &Card) -> GpuBudget {
    let a = inp.arch;
    let world = inp.tp();
    let mp = u64::from(t.tensor_parallel.max(1)) * u64::from(t.pipeline_parallel.max(1));
    let dp = (world / mp).max(1);
    let (base_format, param_bytes) = weight_storage(t);
    let (pt, shapes, largest) = trainable(a, t);
    let lora = matches!(t.method, Method::Lora | Method::Qlora);

    // Weights as stored, split by the model-parallel degree.
    let (stored, rounding) = inp
        .footprint
        .weights_in(base_format, u64::from(t.tensor_parallel.max(1)));
    let mut weights_bytes = div(stored, u64::from(t.pipeline_parallel.max(1)));
    // Sharding of the trainable state.
    let shard_group = match t.sharding {
        Sharding::Hybrid => dp.min(u64::from(t.hybrid_group.unwrap_or(8)).max(1)),
        _ => dp,
    };
    let (shard_states, shard_grads, shard_params) = match t.sharding {
        Sharding::Ddp => (1, 1, 1),
        Sharding::Zero1 => (dp, 1, 1),
        Sharding::Zero2 => (dp, dp, 1),
        Sharding::Zero3 | Sharding::Hybrid => (shard_group, shard_group, shard_group),
    };
    let layer_bytes = div(weights_bytes, u64::from(a.layers.max(1)));
    let gathered = if shard_params > 1 {
        mul(2, layer_bytes)
    } else {
        0
    };
    weights_bytes = div_ceil(weights_bytes, shard_params);
    let pt_local = div_ceil(pt, mp);
    let master = if t.precision == TrainPrecision::MixedMaster {
        mul(4, div_ceil(pt_local, shard_states))
    } else {
        0
    };
    let grad_bytes = param_bytes.max(if lora { 2 } else { 0 });
    let grads = if t.optimizer_in_backward {
        prod(&[2, largest, grad_bytes])
    } else {
        div_ceil(mul(pt_local, grad_bytes), shard_grads)
    };
    let state_dtype = if t.precision == TrainPrecision::Bf16 {
        2
    } else {
        4
    };
    let states_all = div(
        optimizer::state_bytes(t.optimizer, &shapes, state_dtype),
        mp,
    );
    let states = div_ceil(states_all, shard_states);
    let paged = t.optimizer == Optimizer::PagedAdamw8bit;
    let (states_gpu, master_gpu) = if t.offload_optimizer || paged {
        (0, if t.offload_optimizer { 0 } else { master })
    } else {
        (states, master)
    };
    let weights_gpu = if t.offload_params {
        gathered.max(layer_bytes)
    } else {
        weights_bytes
    };
    let host_bytes = sum([
        if t.offload_optimizer || paged {
            states
        } else {
            0
        },
        if t.offload_optimizer { master } else { 0 },
        if t.offload_params { weights_bytes } else { 0 },
    ]);

    // Activations, logits, temporaries.
    let act = activations::saved(a, t, inp.sequences, inp.context_tokens);
    let logits = activations::logits(a, t, inp.sequences, inp.context_tokens);
    let autocast_cache = match t.precision {
        TrainPrecision::AmpFp16 | TrainPrecision::AmpBf16 if !lora => {
            div(mul(2, linear_params(a)), mp)
        }
        _ => 0,
    };
    let step_temp =
        optimizer::step_temporaries(t, div_ceil(pt_local, shard_states), largest, state_dtype);
    // LoRA adapters: parameters, gradients and states together, shown as one component.
    let adapters = if lora {
        sum([
            mul(pt_local, param_bytes.max(2) + grad_bytes),
            states_gpu,
            master_gpu,
        ])
    } else {
        0
    };
    let (grads_c, states_c, master_c) = if lora {
        (0, 0, 0)
    } else {
        (grads, states_gpu, master_gpu)
    };
    let persisting = if t.grads_persist { grads_c } else { 0 };
    // A per-parameter step's segments stay cached beside the next forward and backward.
    // So does the segment of a gradient accumulated into a kept `.grad` when no cached block
    // holds it.
    let largest_activation = activations::largest_block(a, t, inp.sequences, inp.context_tokens);
    let cached_step = optimizer::cached_step_segments(t, largest, state_dtype, largest_activation);
    let cached_step = add(
        cached_step,
        optimizer::cached_accumulation_segment(
            t,
            largest,
            grad_bytes,
            largest_activation,
            cached_step,
        ),
    );
    // What each phase holds beside the resident state; the largest sets the peak.
    let forward = sum([act.total, logits, autocast_cache, persisting, cached_step]);
    let backward = sum([grads_c, act.recompute, div(logits, 2), cached_step]);
    let step = add(grads_c, step_temp);
    // The eager loss's backward leaves one fp32 logits segment idle beside the next forward's
    // end: the reserve where that moment sets the total.
    let loss_segment = activations::cached_loss_segment(a, t, inp.sequences, inp.context_tokens);
    let loss_reserve = sub(add(forward, loss_segment), forward.max(backward).max(step));
    let (phase, _) = [
        (TrainPhase::Forward, forward),
        (TrainPhase::Backward, backward),
        (TrainPhase::OptimizerStep, step),
    ]
    .into_iter()
    .max_by_key(|(_, b)| *b)
    .unwrap_or((TrainPhase::Forward, 0));
    let (g, activ, lg, tmp) = match phase {
        TrainPhase::Forward => (persisting, act.total, logits, autocast_cache),
        TrainPhase::Backward => (grads_c, act.recompute, div(logits, 2), 0),
        TrainPhase::OptimizerStep => (grads_c, 0, 0, step_temp),
    };
    let nccl = runtime::communication_buffers(u32::try_from(world).unwrap_or(u32::MAX));
    GpuBudget {
        components: components(&[
            (ComponentId::Weights, weights_gpu),
            (ComponentId::MasterWeights, master_c),
            (ComponentId::Adapters, adapters),
            (ComponentId::Gradients, g),
            (ComponentId::OptimizerStates, states_c),
            (ComponentId::Activations, activ),
            (ComponentId::Logits, lg),
            (ComponentId::TemporaryBuffers, add(tmp, gathered)),
            (ComponentId::CudaContext, inp.cuda_context_bytes),
            (
                ComponentId::CublasWorkspace,
                runtime::cublas_workspace(card.arch),
            ),
            (ComponentId::CommunicationBuffers, nccl),
            (
                ComponentId::AllocatorReserve,
                sum([
                    reserve::segments(),
                    div(rounding, shard_params),
                    if phase == TrainPhase::OptimizerStep {
                        0
                    } else {
                        cached_step
                    },
                    loss_reserve,
                ]),
            ),
        ]),
        report: None,
        host_bytes,
        failure: None,
        preallocates: false,
        phase: Some(match phase {
            TrainPhase::Forward => PeakPhase::Forward,
            TrainPhase::Backward => PeakPhase::Backward,
            TrainPhase::OptimizerStep => PeakPhase::OptimizerStep,
        }),
    }
}

/// Parameters of the layers' linear projections (what autocast caches 16-bit copies of), each
/// layer kind counted once.
fn linear_params(a: &ModelArch) -> u64 {
    let linear = |t: &&Tensor| t.kind.is_layer_linear() || t.kind == TensorKind::Output;
    let (before, after) = a.outer_tensors();
    let outer = sum(before
        .iter()
        .chain(&after)
        .filter(linear)
        .map(Tensor::numel));
    let layers = sum(a.layer_kinds(0, a.layers).into_iter().map(|(i, n)| {
        mul(
            sum(a.layer_tensors(i).iter().filter(linear).map(Tensor::numel)),
            n,
        )
    }));
    add(outer, layers)
}
