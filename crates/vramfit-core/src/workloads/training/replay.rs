//! The reference the closed-form training estimate is held to (issue 16): a training step replayed
//! tensor by tensor through an exact integer model of PyTorch's CUDA caching allocator
//! (`replay/allocator.rs`: `round_size`, the small and large pools, 2 MiB / 20 MiB segments, best
//! fit, the split and merge rules, free-and-retry under the device's limit), per GPU, step after
//! step until the allocator's state repeats. It answers the peak of reserved memory (what
//! `nvidia-smi` shows beyond the CUDA context), the peak of allocated memory and its phase.
//!
//! **Test-only** (cargo feature `replay` of vramfit-core, off by default; `vramfit-tests` turns it
//! on as a dev-dependency; the web app and the CLI never do). It was the product's training model
//! on branch `trainreplay` and was taken out of the live page: one estimate asks for ~110 replays
//! (the curve, the limits, the recommendation over the catalog's cards), so a first training
//! estimate took 150–570 ms in the browser and 0.2–0.8 s natively, against 0.2–1.2 ms for the
//! closed form (`training/mod.rs`, held to ≤ 1 ms per estimate), and it added 16 KB gzip to the
//! wasm. It stays here the way `tools/trace` (a meta-device tracer) stays beside the diffusion
//! formulas: `tests/tests/training_replay.rs` compares the closed form with [`peak`] over every
//! calibration row and a sweep of scenarios. [`peak`] replays one scenario; nothing here is
//! cached, nothing searches.
//!
//! The sequence, following the code each framework runs:
//! - **Load**: every parameter in `named_parameters` order, as stored on this GPU (`module.to`
//!   moves them one by one); LoRA adapters after their layer; the fp32 master copy (DeepSpeed /
//!   Megatron create it with the optimizer).
//! - **Forward** per micro-batch: the embedding output, then each layer's tensors in creation
//!   order (`replay/ops.rs`), with what the weights need around each projection: autocast's
//!   16-bit copy of a weight (`autocast_mode.cpp::cached_cast`: cached for the forward, then held
//!   by the graph until that projection's backward), the dequantised NF4 weight of QLoRA
//!   (bitsandbytes `MatMul4Bit` / torchao `linear_nf4`, freed after the matmul), the LoRA branch
//!   (`lora_b(lora_a(x)) · scale` added out of place; compiled, written into the base output's
//!   buffer by Inductor), the all-gathered layer under ZeRO-3 / FSDP
//!   (two layers live: one computing, one prefetched). Then the head: the classifier of an encoder,
//!   or the final norm, the logits and the loss (`CEWithChunkedOutputLoss` in chunks of eight:
//!   eager, every chunk's fp32 log-softmax saved; compiled, the 16-bit logits and one chunk's
//!   gradient).
//! - **Backward** in reverse: each layer's gradients and releases; a weight's gradient is created
//!   by its `LinearBack`, becomes `.grad` at the first micro-batch (`AccumulateGrad` steals it) or
//!   is added in place and freed; under ZeRO-2/3 it is reduce-scattered into a shard and freed.
//!   With the optimizer in backward (torchtune `optimizer_in_bwd`) each parameter steps as soon as
//!   its gradient is final and the gradient is freed.
//! - **Optimizer step** (`replay/optimizer.rs`): states created lazily at the first step, per
//!   parameter in the Trainer's order (decayed matrices, then biases and norms), with the step's
//!   temporaries; with master weights a fused Adam steps the fp32 copies, widening one 16-bit
//!   gradient at a time. Then `zero_grad`: gradients freed (`set_to_none=True`, torch ≥ 2.0) or
//!   kept (`grads_persist`). Layers below the trainable ones (`trainable_top_layers`) run without
//!   autograd and are not part of backward.
//! - **Parallelism**: tensor parallel divides the tensors; pipeline parallel replays the first
//!   stage (embeddings, `L/pp` layers, `pp` micro-batches in flight) and the last (`L/pp` layers
//!   and the head) and keeps the larger; offloaded and paged optimizer states live outside the
//!   device allocator.
//!
//! Reuse, only where the result is provably the same: the op lists are built once per layer kind
//! (dense, MoE); layer states are reused across micro-batches; the step is replayed until the
//! allocator's state (its reserved bytes and free blocks, with the same tensors live) after a step
//! equals the one after the step before — every later step then repeats it — at most
//! [`MAX_STEPS`]; a micro-batch that would start from the state the previous one started from,
//! with the same events, is skipped. Layers are not extrapolated: the allocator's state does not
//! repeat from one layer to the next (the small pool's last segment fills with each layer's norm
//! and adapter gradients, the large pool gains a fragment per layer); on `trainreplay` a shallow
//! replay extrapolated in depth missed the reserved peak by −27 % … +89 %.
//!
//! The device's room is modelled: the allocator gets the card's capacity less what lies outside it
//! (CUDA context, cuBLAS workspace, NCCL buffers) and, when a new segment would pass it, releases
//! its cached whole segments and retries, as PyTorch does. Past that the replay goes on as if the
//! segment were granted, so a run that raises out-of-memory reports a reserved peak above the
//! limit. A limit only matters between what the run must hold at once (its live requests) and its
//! unconstrained reserved peak; [`peak`] replays under it only then.

pub mod allocator;
pub mod ops;
pub mod optimizer;

mod accounting;
mod build;
mod embed_head;
mod layer;
mod micro_batch;
mod params;
mod step;

use self::allocator::{Allocator, BlockId};
use self::ops::{LayerOps, Proj, SLOTS};
use super::config::Train;
use super::TrainPhase;
use crate::budget::{runtime, BudgetInputs, Card, ComponentId, PeakPhase};
use crate::inputs::model::{ModelArch, TensorKind};
use crate::units::bytes::{sub, sum};
use std::collections::VecDeque;
use std::rc::Rc;

/// Steps replayed at most.
pub const MAX_STEPS: u32 = 8;

/// What a live tensor is, for the breakdown of the peak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Parameters as stored.
    Weights,
    /// fp32 master copies.
    Master,
    /// LoRA adapters with their gradients and optimizer states.
    Adapters,
    /// Gradients.
    Gradients,
    /// Optimizer states.
    States,
    /// Activations of the layers (saved and transient).
    Activations,
    /// Logits and loss buffers.
    Logits,
    /// Autocast copies, dequantised weights, gathered layers, weight-gradient and optimizer
    /// temporaries.
    Temporary,
}

/// Kinds, in [`Kind`] order.
pub const KINDS: usize = 8;

/// The replay's answer for one GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Peak reserved bytes (the allocator's segments).
    pub reserved: u64,
    /// Peak allocated bytes (live blocks).
    pub allocated: u64,
    /// Peak of the live requests rounded to 512 B: what any layout must hold at once (above the
    /// device's limit the run cannot fit however the allocator places it).
    pub requested: u64,
    /// Segments the out-of-memory path returned to the driver.
    pub released: u64,
    /// Live bytes per [`Kind`] at the allocated peak.
    pub parts: [u64; KINDS],
    /// The phase of the allocated peak.
    pub phase: TrainPhase,
    /// Steps replayed.
    pub steps: u32,
    /// Allocator calls replayed.
    pub calls: u64,
    /// Reserved bytes at the moment of the allocated peak (below `reserved` when later steps
    /// reserve more at a lower allocated peak).
    pub reserved_at_peak: u64,
    /// The largest cached free blocks at the allocated peak (bytes, largest first): the
    /// fragments the reserve is made of.
    pub free_at_peak: [u64; FREE_SHOWN],
}

/// Free blocks reported at the allocated peak.
pub const FREE_SHOWN: usize = 4;

#[derive(Clone, Copy, Debug)]
struct Tns {
    block: Option<BlockId>,
    /// Bytes of the block handed out.
    size: u64,
    kind: Kind,
}

#[derive(Clone, Copy, Debug)]
struct Param {
    kind: TensorKind,
    rows: u64,
    cols: u64,
    /// Elements on this GPU.
    numel: u64,
    /// Bytes as stored on this GPU, before data-parallel sharding.
    stored: u64,
    trainable: bool,
    /// A LoRA adapter.
    adapter: bool,
    /// Stored below the compute width (dequantised for each matmul).
    quantized: bool,
}

impl Param {
    fn matrix(&self) -> bool {
        self.rows > 1 && self.cols > 1
    }
}

/// One layer's live tensors during a micro-batch.
#[derive(Clone, Debug)]
struct LayerState {
    slots: [Option<Tns>; SLOTS],
    /// Autocast copies held by the graph, by parameter.
    casts: Vec<(usize, Tns)>,
    /// LoRA `lora_a` outputs saved for backward: (projection, tensor, output bytes).
    lora: Vec<(Proj, Tns, u64)>,
}

impl Default for LayerState {
    fn default() -> LayerState {
        LayerState {
            slots: [None; SLOTS],
            casts: Vec::new(),
            lora: Vec::new(),
        }
    }
}

/// Which part of the model this GPU runs (pipeline stages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Whole,
    First,
    Last,
}

struct Sim<'a> {
    a: &'a ModelArch,
    t: &'a Train,
    al: Allocator,
    by_kind: [u64; KINDS],
    phase: TrainPhase,
    peak: (u64, [u64; KINDS], TrainPhase),
    /// Reserved bytes and the largest free blocks at the allocated peak.
    at_peak: (u64, [u64; FREE_SHOWN]),
    params: Vec<Param>,
    weights: Vec<Option<Tns>>,
    master: Vec<Option<Tns>>,
    grads: Vec<Option<Tns>>,
    states: Vec<Vec<Tns>>,
    /// Parameter indices of each local layer, of the embeddings and of the head.
    layers: Vec<(u32, Vec<usize>)>,
    embed: Vec<usize>,
    head: Vec<usize>,
    /// Parameters of each local layer by projection (`Proj as usize`), then the others.
    cover: Rc<Vec<[Vec<usize>; 9]>>,
    ops: Rc<Vec<LayerOps>>,
    op_of_layer: Vec<usize>,
    stage: Stage,
    tokens: u64,
    batch: u64,
    seq: u64,
    c: u64,
    grad_bytes: u64,
    state_dtype: u64,
    amp: bool,
    shard_states: u64,
    shard_grads: u64,
    shard_params: u64,
    gathered: VecDeque<Tns>,
    autocast_cache: Vec<(usize, Tns)>,
    /// Layer states of finished micro-batches, all slots empty, for the next (no allocation per
    /// layer). Boxed: a state is a few KiB of slots, moved between lists by pointer.
    #[allow(clippy::vec_box)]
    spare_states: Vec<Box<LayerState>>,
    /// Micro-batches in flight on this stage.
    in_flight: u64,
    /// Whether the current micro-batch is the step's last (optimizer in backward steps then).
    last_micro: bool,
    /// First layer whose parameters train (full fine-tuning of the top layers only).
    first_trainable: u32,
    /// Steps replayed.
    steps: u32,
}

/// Replays training on one GPU of `world` GPUs, `batch` sequences of `seq` tokens per micro-batch,
/// with `limit` bytes for the allocator's segments (`u64::MAX`: unconstrained).
pub fn replay(a: &ModelArch, t: &Train, batch: u64, seq: u64, world: u64, limit: u64) -> Replay {
    let dims = (batch, seq, world);
    if t.pipeline_parallel > 1 {
        let first = Sim::new(a, t, dims, limit, Stage::First).replay();
        let last = Sim::new(a, t, dims, limit, Stage::Last).replay();
        return if last.reserved > first.reserved {
            last
        } else {
            first
        };
    }
    Sim::new(a, t, dims, limit, Stage::Whole).replay()
}

/// The allocator's state beside the live tensors: reserved bytes and the free blocks (size,
/// address).
type FreeBlocks = (u64, Vec<(u64, u64)>);

/// The replay's answer for one scenario's GPU, beside what lies outside the allocator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayPeak {
    /// Peak reserved bytes (the allocator's segments).
    pub reserved: u64,
    /// Peak allocated bytes (live blocks).
    pub allocated: u64,
    /// CUDA context, cuBLAS workspace and NCCL buffers: counted as the closed form counts them.
    pub outside: u64,
    /// The phase of the allocated peak.
    pub phase: PeakPhase,
    /// Steps replayed until the allocator's state repeated.
    pub steps: u32,
    /// Segments the out-of-memory path returned to the driver (0 unless the card is tight).
    pub released: u64,
    /// What was live at the allocated peak, by the closed form's components.
    pub parts: Vec<(ComponentId, u64)>,
    /// Reserved bytes at the moment of the allocated peak.
    pub reserved_at_peak: u64,
    /// The largest cached free blocks at the allocated peak, largest first.
    pub free_at_peak: [u64; FREE_SHOWN],
}

impl ReplayPeak {
    /// What the device shows for the run: the reserved peak and what lies outside the allocator.
    pub fn total(&self) -> u64 {
        self.reserved.saturating_add(self.outside)
    }
}

/// Replays one GPU of the plan `inp` describes (`inp.tensor_parallel` = GPUs in the plan,
/// `inp.sequences` the micro-batch, `inp.context_tokens` the sequence length) on `card`: the
/// allocator gets the card less the CUDA context, the cuBLAS workspace and NCCL's buffers (an
/// unknown capacity limits nothing), and is replayed under that limit only where it can change
/// the answer.
pub fn peak(t: &Train, inp: &BudgetInputs, card: &Card) -> ReplayPeak {
    let world = inp.tp();
    let nccl = runtime::communication_buffers(u32::try_from(world).unwrap_or(u32::MAX));
    let outside = sum([
        inp.cuda_context_bytes,
        runtime::cublas_workspace(card.arch),
        nccl,
    ]);
    let limit = match card.capacity_bytes {
        0 => u64::MAX,
        c => sub(c, outside),
    };
    let (a, batch, seq) = (inp.arch, inp.sequences, inp.context_tokens);
    let free = replay(a, t, batch, seq, world, u64::MAX);
    let r = if free.reserved <= limit || free.requested > limit {
        free
    } else {
        replay(a, t, batch, seq, world, limit)
    };
    ReplayPeak {
        reserved: r.reserved,
        allocated: r.allocated,
        outside,
        phase: match r.phase {
            TrainPhase::Forward => PeakPhase::Forward,
            TrainPhase::Backward => PeakPhase::Backward,
            TrainPhase::OptimizerStep => PeakPhase::OptimizerStep,
        },
        steps: r.steps,
        released: r.released,
        reserved_at_peak: r.reserved_at_peak,
        free_at_peak: r.free_at_peak,
        parts: [
            (ComponentId::Weights, Kind::Weights),
            (ComponentId::MasterWeights, Kind::Master),
            (ComponentId::Adapters, Kind::Adapters),
            (ComponentId::Gradients, Kind::Gradients),
            (ComponentId::OptimizerStates, Kind::States),
            (ComponentId::Activations, Kind::Activations),
            (ComponentId::Logits, Kind::Logits),
            (ComponentId::TemporaryBuffers, Kind::Temporary),
        ]
        .into_iter()
        .map(|(id, k)| (id, r.parts[k as usize]))
        .collect(),
    }
}

#[cfg(test)]
mod tests;
