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

use self::allocator::{Allocator, BlockId};
use self::ops::{LayerOps, Op, Proj, Slot, G, SLOTS, X, Y};
use super::config::{Method, Optimizer, Sharding, Train, TrainPrecision};
use super::TrainPhase;
use crate::budget::{runtime, weights, BudgetInputs, Card, ComponentId, PeakPhase};
use crate::bytes::{sub, sum};
use crate::model::{ModelArch, TensorKind};
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

/// The projections, in `Proj` order.
const PROJS: [Proj; 8] = [
    Proj::Q,
    Proj::K,
    Proj::V,
    Proj::O,
    Proj::Gate,
    Proj::Up,
    Proj::Down,
    Proj::Router,
];

const EMPTY: Tns = Tns {
    block: None,
    size: 0,
    kind: Kind::Activations,
};

fn zero_parts() -> [u64; KINDS] {
    [0; KINDS]
}

impl<'a> Sim<'a> {
    fn new(
        a: &'a ModelArch,
        t: &'a Train,
        (batch, seq, world): (u64, u64, u64),
        limit: u64,
        stage: Stage,
    ) -> Self {
        let tp = u64::from(t.tensor_parallel.max(1));
        let pp = u64::from(t.pipeline_parallel.max(1));
        let dp = (world / tp.saturating_mul(pp)).max(1);
        let (base_format, param_bytes) = super::weight_storage(t);
        let lora = matches!(t.method, Method::Lora | Method::Qlora);
        let first_trainable = match (t.method, t.trainable_top_layers) {
            (Method::Full, Some(n)) => a.layers.saturating_sub(n),
            _ => 0,
        };
        let c = ops::compute_bytes(t);
        // Layers of this stage.
        let per_stage = a
            .layers
            .div_ceil(u32::try_from(pp).unwrap_or(u32::MAX).max(1));
        let (lo, hi) = match stage {
            Stage::Whole => (0, a.layers),
            Stage::First => (0, per_stage.min(a.layers)),
            Stage::Last => (a.layers.saturating_sub(per_stage), a.layers),
        };
        let mut params = Vec::new();
        let mut layers: Vec<(u32, Vec<usize>)> = (lo..hi).map(|l| (l, Vec::new())).collect();
        let mut embed = Vec::new();
        let mut head = Vec::new();
        let mut seen_layer = false;
        for x in a.tensors() {
            let local = weights::shard_tensor(&x, a, tp);
            let numel = local.numel();
            let stored = base_format.tensor_bytes(&local, a);
            let frozen_base = lora
                || match x.layer {
                    Some(i) => i < first_trainable,
                    None => first_trainable > 0 && x.kind == TensorKind::TokenEmbd,
                };
            let p = Param {
                kind: x.kind,
                rows: local.rows.saturating_mul(local.count),
                cols: local.cols,
                numel,
                stored,
                trainable: !frozen_base,
                adapter: false,
                quantized: stored < numel.saturating_mul(c),
            };
            match x.layer {
                Some(i) if i >= lo && i < hi => {
                    seen_layer = true;
                    let idx = params.len();
                    params.push(p);
                    layers[(i - lo) as usize].1.push(idx);
                    if lora && super::is_target(x.kind, t.lora_targets) {
                        let r = u64::from(t.lora_rank.max(1));
                        for (rows, cols) in [(r, local.cols), (local.rows, r)] {
                            let ai = params.len();
                            params.push(Param {
                                kind: x.kind,
                                rows,
                                cols,
                                numel: rows.saturating_mul(cols),
                                stored: rows.saturating_mul(cols).saturating_mul(param_bytes),
                                trainable: true,
                                adapter: true,
                                quantized: false,
                            });
                            layers[(i - lo) as usize].1.push(ai);
                        }
                    }
                }
                Some(_) => {}
                None => {
                    let is_embed = !seen_layer;
                    let keep = match stage {
                        Stage::Whole => true,
                        Stage::First => is_embed,
                        Stage::Last => !is_embed,
                    };
                    if keep {
                        let idx = params.len();
                        params.push(p);
                        if is_embed {
                            embed.push(idx);
                        } else {
                            head.push(idx);
                        }
                    }
                }
            }
        }
        // A tied head multiplies by the token embedding: on the last stage it is a local copy.
        if a.tied_embeddings && stage == Stage::Last {
            if let Some(x) = a
                .tensors()
                .into_iter()
                .find(|x| x.kind == TensorKind::TokenEmbd)
            {
                let local = weights::shard_tensor(&x, a, tp);
                params.push(Param {
                    kind: TensorKind::Output,
                    rows: local.rows,
                    cols: local.cols,
                    numel: local.numel(),
                    stored: base_format.tensor_bytes(&local, a),
                    trainable: !lora && first_trainable == 0,
                    adapter: false,
                    quantized: false,
                });
                head.push(params.len() - 1);
            }
        }
        let mut ops = Vec::new();
        let mut op_of_layer = Vec::new();
        let mut moe_ops: Option<usize> = None;
        let mut dense_ops: Option<usize> = None;
        for &(l, _) in &layers {
            let slot = if a.is_moe_layer(l) {
                &mut moe_ops
            } else {
                &mut dense_ops
            };
            let i = *slot.get_or_insert_with(|| {
                ops.push(ops::layer_ops(a, t, batch, seq, l));
                ops.len() - 1
            });
            op_of_layer.push(i);
        }
        let (shard_states, shard_grads, shard_params) = {
            let group = match t.sharding {
                Sharding::Hybrid => dp.min(u64::from(t.hybrid_group.unwrap_or(8)).max(1)),
                _ => dp,
            };
            match t.sharding {
                Sharding::Ddp => (1, 1, 1),
                Sharding::Zero1 => (dp, 1, 1),
                Sharding::Zero2 => (dp, dp, 1),
                Sharding::Zero3 | Sharding::Hybrid => (group, group, group),
            }
        };
        let cover = layers
            .iter()
            .map(|(_, list)| {
                let mut c: [Vec<usize>; 9] = Default::default();
                for &i in list {
                    let pos = PROJS
                        .iter()
                        .position(|q| q.covers(params[i].kind))
                        .unwrap_or(8);
                    c[pos].push(i);
                }
                c
            })
            .collect();
        let n = params.len();
        let in_flight = match stage {
            Stage::First => pp,
            _ => 1,
        };
        Sim {
            a,
            t,
            al: Allocator::with_limit(limit),
            by_kind: zero_parts(),
            phase: TrainPhase::Forward,
            peak: (0, zero_parts(), TrainPhase::Forward),
            at_peak: (0, [0; FREE_SHOWN]),
            params,
            weights: vec![None; n],
            master: vec![None; n],
            grads: vec![None; n],
            states: vec![Vec::new(); n],
            layers,
            embed,
            head,
            cover: Rc::new(cover),
            ops: Rc::new(ops),
            op_of_layer,
            stage,
            tokens: batch.saturating_mul(seq),
            batch,
            seq,
            c,
            grad_bytes: param_bytes,
            state_dtype: if t.precision == TrainPrecision::Bf16 {
                2
            } else {
                4
            },
            amp: matches!(
                t.precision,
                TrainPrecision::AmpFp16 | TrainPrecision::AmpBf16
            ),
            shard_states,
            shard_grads,
            shard_params,
            gathered: VecDeque::new(),
            autocast_cache: Vec::new(),
            spare_states: Vec::new(),
            in_flight,
            last_micro: true,
            first_trainable,
            steps: 0,
        }
    }

    // ---- the allocator with a breakdown by kind ----

    fn alloc(&mut self, bytes: u64, kind: Kind) -> Tns {
        let (block, size) = self.al.malloc(bytes);
        let k = kind as usize;
        self.by_kind[k] = self.by_kind[k].saturating_add(size);
        let now = self.al.allocated();
        if now > self.peak.0 {
            self.peak = (now, self.by_kind, self.phase);
            self.at_peak = (self.al.reserved_now(), self.al.largest_free());
        }
        Tns { block, size, kind }
    }

    fn free(&mut self, t: Tns) {
        if let Some(b) = t.block {
            self.al.free(b);
        }
        let k = t.kind as usize;
        self.by_kind[k] = self.by_kind[k].saturating_sub(t.size);
    }

    fn free_opt(&mut self, t: Option<Tns>) {
        if let Some(t) = t {
            self.free(t);
        }
    }

    fn rekind(&mut self, t: &mut Tns, kind: Kind) {
        self.by_kind[t.kind as usize] = self.by_kind[t.kind as usize].saturating_sub(t.size);
        self.by_kind[kind as usize] = self.by_kind[kind as usize].saturating_add(t.size);
        t.kind = kind;
    }

    // ---- parameters, gradients, states ----

    fn own_kind(&self, i: usize, kind: Kind) -> Kind {
        if self.params[i].adapter {
            Kind::Adapters
        } else {
            kind
        }
    }

    fn load(&mut self) {
        let offload_params = self.t.offload_params;
        let master = self.t.precision == TrainPrecision::MixedMaster && !self.t.offload_optimizer;
        for i in 0..self.params.len() {
            let p = self.params[i];
            if !offload_params || p.adapter {
                let k = self.own_kind(i, Kind::Weights);
                let bytes = p.stored.div_ceil(self.shard_params);
                if p.quantized && !p.adapter {
                    // 4-bit data and its quantisation constants are separate tensors
                    // (bitsandbytes `Params4bit` + `QuantState`, torchao `NF4Tensor`).
                    let data = p.numel.div_ceil(2).div_ceil(self.shard_params).min(bytes);
                    self.weights[i] = Some(self.alloc(data, k));
                    self.alloc(bytes - data, k);
                } else {
                    self.weights[i] = Some(self.alloc(bytes, k));
                }
            }
        }
        if master {
            for i in 0..self.params.len() {
                let p = self.params[i];
                if p.trainable {
                    let k = self.own_kind(i, Kind::Master);
                    let bytes = p.numel.saturating_mul(4).div_ceil(self.shard_states);
                    self.master[i] = Some(self.alloc(bytes, k));
                }
            }
        }
    }

    /// A new gradient `g` of parameter `i` for this micro-batch.
    fn deliver_grad(&mut self, i: usize, mut g: Tns) {
        let kind = self.own_kind(i, Kind::Gradients);
        if self.shard_grads > 1 {
            // Reduce-scatter into this GPU's shard, then the full gradient goes.
            if self.grads[i].is_none() {
                let shard = g.size.div_ceil(self.shard_grads);
                self.grads[i] = Some(self.alloc(shard, kind));
            }
            self.free(g);
        } else if self.grads[i].is_none() {
            self.rekind(&mut g, kind);
            self.grads[i] = Some(g);
        } else {
            self.free(g);
        }
        if self.t.optimizer_in_backward && self.last_micro {
            self.step_param(i);
            let g = self.grads[i].take();
            self.free_opt(g);
        }
    }

    /// Backward through parameter `i`'s weight: its gradient.
    fn weight_grad(&mut self, i: usize) {
        let p = self.params[i];
        if !p.trainable {
            return;
        }
        let n = p.numel;
        let g = if self.amp && p.matrix() && !p.adapter {
            // The 16-bit product, cast back to the fp32 weight's dtype.
            let g16 = self.alloc(n.saturating_mul(self.c), Kind::Temporary);
            let g = self.alloc(n.saturating_mul(4), Kind::Temporary);
            self.free(g16);
            g
        } else {
            self.alloc(n.saturating_mul(self.grad_bytes), Kind::Temporary)
        };
        self.deliver_grad(i, g);
    }

    fn cast(&mut self, i: usize, ls: &mut LayerState, grad: bool) {
        let p = self.params[i];
        if !self.amp || p.adapter || !p.matrix() {
            return;
        }
        let bytes = p.numel.saturating_mul(self.c);
        if grad {
            if !ls.casts.iter().any(|&(j, _)| j == i) {
                let t = self.alloc(bytes, Kind::Temporary);
                ls.casts.push((i, t));
            }
        } else if !self.autocast_cache.iter().any(|&(j, _)| j == i) {
            let t = self.alloc(bytes, Kind::Temporary);
            self.autocast_cache.push((i, t));
        }
    }

    fn release_cast(&mut self, i: usize, ls: &mut LayerState) {
        if let Some(pos) = ls.casts.iter().position(|&(j, _)| j == i) {
            let (_, t) = ls.casts.swap_remove(pos);
            self.free(t);
        }
    }

    fn dequantised(&mut self, list: &[usize]) -> Vec<Tns> {
        let mut out = Vec::new();
        for &i in list {
            let p = self.params[i];
            if p.quantized && !p.adapter {
                out.push(self.alloc(p.numel.saturating_mul(self.c), Kind::Temporary));
            }
        }
        out
    }

    fn linear(
        &mut self,
        layer: usize,
        ls: &mut LayerState,
        p: Proj,
        s: Slot,
        bytes: u64,
        grad: bool,
    ) {
        let cover = Rc::clone(&self.cover);
        let list = &cover[layer][p as usize];
        for &i in list {
            self.cast(i, ls, grad);
        }
        let dq = self.dequantised(list);
        let mut out = self.alloc(bytes, Kind::Activations);
        for t in dq {
            self.free(t);
        }
        let r = u64::from(self.t.lora_rank.max(1));
        let adapters = list.iter().filter(|&&i| self.params[i].adapter).count() / 2;
        for _ in 0..adapters {
            let a_out = self.alloc(
                self.tokens.saturating_mul(r).saturating_mul(self.c),
                Kind::Activations,
            );
            let b_out = self.alloc(bytes, Kind::Activations);
            if self.t.compiled {
                // Compiled (torchtune compiles each layer): `out + (alpha / rank) · b_out` is one
                // pointwise kernel, and Inductor writes it into the buffer of `out`, the last
                // reader of which it is (`torch/_inductor/scheduler.py`
                // `decide_inplace_update`, `config.inplace_buffers`); `b_out` is freed.
                self.free(b_out);
            } else {
                let scaled = self.alloc(bytes, Kind::Activations);
                self.free(b_out);
                let sum = self.alloc(bytes, Kind::Activations);
                self.free(scaled);
                self.free(out);
                out = sum;
            }
            if grad {
                ls.lora.push((p, a_out, bytes));
            } else {
                self.free(a_out);
            }
        }
        ls.slots[usize::from(s)] = Some(out);
    }

    fn linear_back(&mut self, layer: usize, ls: &mut LayerState, p: Proj, s: Slot, bytes: u64) {
        let cover = Rc::clone(&self.cover);
        let list = &cover[layer][p as usize];
        let dq = self.dequantised(list);
        let gin = self.alloc(bytes, Kind::Activations);
        for t in dq {
            self.free(t);
        }
        for &i in list.iter().rev() {
            if !self.params[i].adapter {
                self.weight_grad(i);
            }
        }
        let r = u64::from(self.t.lora_rank.max(1));
        let adapters: Vec<usize> = list
            .iter()
            .copied()
            .filter(|&i| self.params[i].adapter)
            .collect();
        let mut k = 0;
        while let Some(pos) = ls.lora.iter().position(|&(q, _, _)| q == p) {
            let (_, a_out, out_bytes) = ls.lora.swap_remove(pos);
            let gs = self.alloc(out_bytes, Kind::Activations);
            let ga = self.alloc(
                self.tokens.saturating_mul(r).saturating_mul(self.c),
                Kind::Activations,
            );
            self.free(gs);
            if let Some(&b) = adapters.get(2 * k + 1) {
                self.weight_grad(b);
            }
            self.free(a_out);
            let gx = self.alloc(bytes, Kind::Activations);
            if let Some(&a) = adapters.get(2 * k) {
                self.weight_grad(a);
            }
            self.free(ga);
            self.free(gx);
            k += 1;
        }
        for &i in list {
            self.release_cast(i, ls);
        }
        ls.slots[usize::from(s)] = Some(gin);
    }

    /// Runs a layer pass. `pinned`: `X` is held by a checkpoint, not by this pass.
    fn run(&mut self, layer: usize, ls: &mut LayerState, ops: &[Op], grad: bool, pinned: bool) {
        for &op in ops {
            match op {
                Op::Alloc(s, b) => {
                    let t = self.alloc(b, Kind::Activations);
                    ls.slots[usize::from(s)] = Some(t);
                }
                Op::Free(s) => {
                    if s == X && pinned {
                        continue;
                    }
                    let t = ls.slots[usize::from(s)].take();
                    self.free_opt(t);
                }
                Op::Move(to, from) => {
                    ls.slots[usize::from(to)] = ls.slots[usize::from(from)].take();
                }
                Op::Linear(p, s, b) => self.linear(layer, ls, p, s, b, grad),
                Op::LinearBack(p, s, b) => self.linear_back(layer, ls, p, s, b),
            }
        }
    }

    /// Gradients of the layer's parameters no projection produced (norms, biases, routers).
    fn other_grads(&mut self, layer: usize) {
        let cover = Rc::clone(&self.cover);
        for &i in &cover[layer][8] {
            if !self.params[i].adapter {
                self.weight_grad(i);
            }
        }
    }

    fn gather(&mut self, layer: usize) {
        if self.shard_params <= 1 && !self.t.offload_params {
            return;
        }
        let bytes: u64 = self.layers[layer]
            .1
            .iter()
            .map(|&i| self.params[i].stored)
            .sum();
        let t = self.alloc(bytes, Kind::Temporary);
        self.gathered.push_back(t);
        while self.gathered.len() > 2 {
            let old = self.gathered.pop_front();
            self.free_opt(old);
        }
    }

    fn release_gathered(&mut self) {
        while let Some(t) = self.gathered.pop_front() {
            self.free(t);
        }
    }

    fn frozen_below(&self, l: u32) -> bool {
        l < self.first_trainable
    }

    // ---- a micro-batch ----

    fn embed_forward(&mut self) -> (Tns, Vec<Tns>) {
        let th = self.tokens.saturating_mul(u64::from(self.a.hidden));
        let wide = if self.grad_bytes == 4 { 4 } else { self.c };
        let mut keep = Vec::new();
        // Input ids (and labels) on the device.
        keep.push(self.alloc(self.tokens.saturating_mul(8), Kind::Activations));
        if self.a.family.is_encoder() {
            // BertEmbeddings: word + token type, += positions, LayerNorm, dropout.
            let we = self.alloc(th.saturating_mul(wide), Kind::Activations);
            let te = self.alloc(th.saturating_mul(wide), Kind::Activations);
            let e = self.alloc(th.saturating_mul(wide), Kind::Activations);
            let pe = self.alloc(
                self.seq
                    .saturating_mul(u64::from(self.a.hidden))
                    .saturating_mul(wide),
                Kind::Activations,
            );
            let le = self.alloc(th.saturating_mul(wide), Kind::Activations);
            keep.push(self.alloc(self.tokens.saturating_mul(8), Kind::Activations));
            let de = self.alloc(th.saturating_mul(wide), Kind::Activations);
            keep.push(self.alloc(th, Kind::Activations));
            self.free(le);
            self.free(we);
            self.free(te);
            self.free(pe);
            keep.push(e);
            (de, keep)
        } else {
            let e = self.alloc(th.saturating_mul(wide), Kind::Activations);
            (e, keep)
        }
    }

    fn embed_backward(&mut self, g: Tns, keep: Vec<Tns>) {
        let th = self.tokens.saturating_mul(u64::from(self.a.hidden));
        let wide = if self.grad_bytes == 4 { 4 } else { self.c };
        let mut g = g;
        if self.a.family.is_encoder() {
            let g1 = self.alloc(th.saturating_mul(wide), Kind::Activations);
            self.free(g);
            let g2 = self.alloc(th.saturating_mul(wide), Kind::Activations);
            self.free(g1);
            g = g2;
        }
        for i in self.embed.clone().into_iter().rev() {
            self.weight_grad(i);
        }
        self.free(g);
        for t in keep {
            self.free(t);
        }
    }

    /// The head's forward: returns what its backward needs.
    fn head_forward(&mut self, x: Tns) -> Vec<Tns> {
        let h = u64::from(self.a.hidden);
        let c = self.c;
        let mut saved = vec![x];
        if self.a.family.is_encoder() {
            // Pooler on the first token, dropout, classifier, loss: a few small tensors.
            let b = self.batch;
            for bytes in [
                4 * b * h,
                c * b * h,
                c * b * h,
                c * b * h,
                b * h,
                8 * b,
                8 * b,
                4,
            ] {
                saved.push(self.alloc(bytes, Kind::Logits));
            }
            return saved;
        }
        let tp = u64::from(self.t.tensor_parallel.max(1));
        let th = self.tokens.saturating_mul(h);
        let nf = self.alloc(th.saturating_mul(c), Kind::Activations);
        saved.push(nf);
        let elements = self.tokens.saturating_mul(u64::from(self.a.vocab)) / tp;
        let chunks: u64 = if self.t.chunked_loss { 8 } else { 1 };
        let per = elements.div_ceil(chunks);
        let mut logits = Vec::new();
        for _ in 0..chunks {
            for t in self.dequantised(&self.head.clone()) {
                self.free(t);
            }
            logits.push(self.alloc(per.saturating_mul(c), Kind::Logits));
        }
        // Cross-entropy per chunk: fp32 upcast and log-softmax (saved), unless compiled (the
        // fused loss keeps its 16-bit input and the log-sum-exp).
        let mut kept = Vec::new();
        for _ in 0..chunks {
            if self.t.compiled && self.t.chunked_loss {
                kept.push(self.alloc(
                    per.saturating_mul(4) / u64::from(self.a.vocab).max(1),
                    Kind::Logits,
                ));
            } else {
                let up = self.alloc(per.saturating_mul(4), Kind::Logits);
                kept.push(self.alloc(per.saturating_mul(4), Kind::Logits));
                self.free(up);
            }
        }
        if !(self.t.compiled && self.t.chunked_loss) {
            // The 16-bit logits are referenced by nothing once the loss is computed.
            for t in logits.drain(..) {
                self.free(t);
            }
        }
        saved.extend(logits);
        saved.extend(kept);
        saved
    }

    fn head_backward(&mut self, saved: Vec<Tns>) -> Tns {
        let h = u64::from(self.a.hidden);
        let c = self.c;
        let wide = if self.a.family.is_encoder() && self.grad_bytes == 4 {
            4
        } else {
            c
        };
        let mut it = saved.into_iter();
        let x = it.next();
        let rest: Vec<Tns> = it.collect();
        if self.a.family.is_encoder() {
            let b = self.batch;
            let g = self.alloc(8 * b, Kind::Logits);
            for i in self.head.clone().into_iter().rev() {
                self.weight_grad(i);
            }
            let gx = self.alloc(4 * b * h, Kind::Logits);
            self.free(g);
            for t in rest {
                self.free(t);
            }
            // Select backward: a zeroed [T, h] with the first tokens' gradient.
            let gy = self.alloc(
                self.tokens.saturating_mul(h).saturating_mul(wide),
                Kind::Activations,
            );
            self.free(gx);
            self.free_opt(x);
            return gy;
        }
        let tp = u64::from(self.t.tensor_parallel.max(1));
        let th = self.tokens.saturating_mul(h);
        let chunks: u64 = if self.t.chunked_loss { 8 } else { 1 };
        let elements = self.tokens.saturating_mul(u64::from(self.a.vocab)) / tp;
        let per = elements.div_ceil(chunks);
        let mut rest = rest.into_iter();
        let nf = rest.next();
        let others: Vec<Tns> = rest.collect();
        let compiled = self.t.compiled && self.t.chunked_loss;
        let (logits, kept) = if compiled {
            let n = others.len() / 2;
            (others[..n].to_vec(), others[n..].to_vec())
        } else {
            (Vec::new(), others)
        };
        let gnf = self.alloc(th.saturating_mul(c), Kind::Activations);
        for k in (0..chunks as usize).rev() {
            let gl = if compiled {
                let gl = self.alloc(per.saturating_mul(c), Kind::Logits);
                if let Some(&t) = logits.get(k) {
                    self.free(t);
                }
                gl
            } else {
                let g1 = self.alloc(per.saturating_mul(4), Kind::Logits);
                let g2 = self.alloc(per.saturating_mul(4), Kind::Logits);
                self.free(g1);
                if let Some(&t) = kept.get(k) {
                    self.free(t);
                }
                let gl = self.alloc(per.saturating_mul(c), Kind::Logits);
                self.free(g2);
                gl
            };
            for t in self.dequantised(&self.head.clone()) {
                self.free(t);
            }
            let gpart = self.alloc(th.saturating_mul(c).div_ceil(chunks), Kind::Activations);
            for i in self.head.clone() {
                if self.params[i].kind == TensorKind::Output {
                    self.weight_grad(i);
                }
            }
            self.free(gl);
            self.free(gpart);
        }
        if compiled {
            for t in kept {
                self.free(t);
            }
        }
        // Final norm backward.
        let gx = self.alloc(th.saturating_mul(c), Kind::Activations);
        for i in self.head.clone() {
            if self.params[i].kind != TensorKind::Output {
                self.weight_grad(i);
            }
        }
        self.free(gnf);
        self.free_opt(nf);
        self.free_opt(x);
        gx
    }

    fn micro_batch(&mut self) {
        let whole_or_first = self.stage != Stage::Last;
        let has_head = self.stage != Stage::First;
        let ckpt = self.t.checkpointing == super::Checkpointing::Full;
        let n_layers = self.layers.len();
        let mut batches = Vec::new();
        self.phase = TrainPhase::Forward;
        for _ in 0..self.in_flight {
            let (mut x, keep) = if whole_or_first {
                let (x, k) = self.embed_forward();
                (x, k)
            } else {
                let th = self.tokens.saturating_mul(u64::from(self.a.hidden));
                (
                    self.alloc(th.saturating_mul(self.c), Kind::Activations),
                    Vec::new(),
                )
            };
            let mut states: Vec<Box<LayerState>> = Vec::with_capacity(n_layers);
            for l in 0..n_layers {
                self.gather(l);
                let mut ls = self.spare_states.pop().unwrap_or_default();
                ls.slots[usize::from(X)] = Some(x);
                let all = Rc::clone(&self.ops);
                let ops = &all[self.op_of_layer[l]];
                let layer_no = self.layers[l].0;
                if self.frozen_below(layer_no) {
                    self.run(l, &mut ls, &ops.no_grad, false, false);
                    let xin = ls.slots[usize::from(X)].take();
                    self.free_opt(xin);
                } else if ckpt {
                    self.run(l, &mut ls, &ops.no_grad, false, true);
                } else {
                    self.run(l, &mut ls, &ops.forward, true, false);
                }
                x = ls.slots[usize::from(Y)].take().unwrap_or(EMPTY);
                states.push(ls);
            }
            self.release_gathered();
            let casts = std::mem::take(&mut self.autocast_cache);
            for (_, t) in casts {
                self.free(t);
            }
            let head = if has_head {
                self.head_forward(x)
            } else {
                vec![x]
            };
            batches.push((keep, states, head));
        }
        self.phase = TrainPhase::Backward;
        for (keep, mut states, head) in batches {
            let mut g = if has_head {
                self.head_backward(head)
            } else {
                for t in head {
                    self.free(t);
                }
                let th = self.tokens.saturating_mul(u64::from(self.a.hidden));
                self.alloc(th.saturating_mul(self.c), Kind::Activations)
            };
            for l in (0..n_layers).rev() {
                let layer_no = self.layers[l].0;
                if self.frozen_below(layer_no) {
                    break;
                }
                self.gather(l);
                let all = Rc::clone(&self.ops);
                let ops = &all[self.op_of_layer[l]];
                let ls = &mut states[l];
                if ckpt {
                    self.run(l, ls, &ops.recompute, true, true);
                    ls.slots[usize::from(G)] = Some(g);
                    self.run(l, ls, &ops.recompute_backward, true, true);
                } else {
                    ls.slots[usize::from(G)] = Some(g);
                    self.run(l, ls, &ops.backward, true, false);
                }
                self.other_grads(l);
                g = ls.slots[usize::from(G)].take().unwrap_or(EMPTY);
                // What the pass left (a checkpoint's input, the recomputed output).
                for s in ls.slots.iter_mut() {
                    if let Some(t) = s.take() {
                        self.free(t);
                    }
                }
                for k in 0..ls.casts.len() {
                    self.free(ls.casts[k].1);
                }
                ls.casts.clear();
                for k in 0..ls.lora.len() {
                    self.free(ls.lora[k].1);
                }
                ls.lora.clear();
            }
            self.release_gathered();
            // Frozen bottom layers kept nothing for backward.
            for ls in states.iter_mut() {
                for s in ls.slots.iter_mut() {
                    if let Some(t) = s.take() {
                        self.free(t);
                    }
                }
            }
            // Every slot is empty again: the states serve the next micro-batch.
            self.spare_states.append(&mut states);
            if whole_or_first && self.first_trainable == 0 {
                self.embed_backward(g, keep);
            } else {
                self.free(g);
                for t in keep {
                    self.free(t);
                }
            }
        }
    }

    // ---- the optimizer ----

    fn init_states(&mut self, i: usize) {
        let p = self.params[i];
        // Paged states live in unified memory, offloaded ones in host RAM.
        let off_device = self.t.offload_optimizer || self.t.optimizer == Optimizer::PagedAdamw8bit;
        if !self.states[i].is_empty() || off_device {
            return;
        }
        let kind = self.own_kind(i, Kind::States);
        for bytes in optimizer::state_tensors(self.t.optimizer, p.rows, p.cols, self.state_dtype) {
            let t = self.alloc(bytes.div_ceil(self.shard_states), kind);
            self.states[i].push(t);
        }
    }

    /// Bytes of parameter `i` on this GPU's optimizer shard.
    fn shard_numel(&self, i: usize) -> u64 {
        self.params[i].numel.div_ceil(self.shard_states)
    }

    /// Updates parameter `i` alone (optimizer in backward: a group of one).
    fn step_param(&mut self, i: usize) {
        if !self.params[i].trainable {
            return;
        }
        self.init_states(i);
        let n = self.shard_numel(i);
        let mut carried = None;
        self.update(n, true, &mut carried);
        self.free_opt(carried);
    }

    /// One update of a parameter of `n` elements with its temporaries; `carried` is the previous
    /// parameter's `denom`.
    fn update(&mut self, n: u64, foreach: bool, carried: &mut Option<Tns>) {
        match optimizer::temporaries(self.t.optimizer, n, self.state_dtype, foreach) {
            optimizer::Temps::None => {}
            optimizer::Temps::Carried(b) => {
                let d = self.alloc(b, Kind::Temporary);
                let old = carried.replace(d);
                self.free_opt(old);
            }
            optimizer::Temps::Chain(b, k) => {
                let mut prev = self.alloc(b, Kind::Temporary);
                for _ in 1..k {
                    let next = self.alloc(b, Kind::Temporary);
                    self.free(prev);
                    prev = next;
                }
                self.free(prev);
            }
            optimizer::Temps::Group(b) => {
                let t = self.alloc(b, Kind::Temporary);
                self.free(t);
            }
        }
    }

    fn optimizer_step(&mut self) {
        self.phase = TrainPhase::OptimizerStep;
        let t = self.t;
        if t.optimizer_in_backward
            || t.offload_optimizer
            || t.optimizer == Optimizer::PagedAdamw8bit
        {
            return;
        }
        // The Trainer's two groups: decayed matrices, then biases and norms.
        let trainable: Vec<usize> = (0..self.params.len())
            .filter(|&i| self.params[i].trainable && self.grads[i].is_some())
            .collect();
        let (decay, rest): (Vec<usize>, Vec<usize>) = trainable
            .into_iter()
            .partition(|&i| self.params[i].matrix());
        let master = self.master.iter().any(Option::is_some);
        if master {
            // Master weights (DeepSpeed, Megatron): a fused multi-tensor Adam steps the fp32
            // copies in place; each 16-bit gradient is widened to fp32 for its update
            // (DeepSpeed `sub_group_size` bounds how many at once; one here).
            for i in decay.into_iter().chain(rest) {
                self.init_states(i);
                let g32 = self.alloc(self.shard_numel(i).saturating_mul(4), Kind::Temporary);
                self.free(g32);
            }
            return;
        }
        let group_wise = t.foreach && matches!(t.optimizer, Optimizer::Adamw | Optimizer::Lion);
        let mut carried = None;
        for group in [decay, rest] {
            if group_wise {
                for &i in &group {
                    self.init_states(i);
                }
                let mut temps = Vec::new();
                for &i in &group {
                    let n = self.shard_numel(i);
                    if let optimizer::Temps::Group(b) =
                        optimizer::temporaries(t.optimizer, n, self.state_dtype, true)
                    {
                        temps.push(self.alloc(b, Kind::Temporary));
                    }
                }
                for x in temps {
                    self.free(x);
                }
            } else {
                for &i in &group {
                    self.init_states(i);
                    let n = self.shard_numel(i);
                    self.update(n, false, &mut carried);
                }
            }
        }
        self.free_opt(carried);
    }

    fn zero_grad(&mut self) {
        if self.t.grads_persist {
            return;
        }
        for i in 0..self.grads.len() {
            let g = self.grads[i].take();
            self.free_opt(g);
        }
    }

    fn replay(mut self) -> Replay {
        self.run_steps();
        self.result()
    }

    fn result(&self) -> Replay {
        Replay {
            reserved: self.al.reserved_peak(),
            requested: self.al.requested_peak(),
            released: self.al.released(),
            allocated: self.peak.0,
            parts: self.peak.1,
            phase: self.peak.2,
            steps: self.steps,
            calls: self.al.calls(),
            reserved_at_peak: self.at_peak.0,
            free_at_peak: self.at_peak.1,
        }
    }

    fn run_steps(&mut self) {
        self.load();
        let ga = self.t.gradient_accumulation.max(1);
        let mut prev: Option<FreeBlocks> = None;
        let mut steps = 0;
        for _ in 0..MAX_STEPS {
            steps += 1;
            // A micro-batch's events depend only on whether gradients exist when it starts and
            // whether it steps the optimizer in backward; two with the same events from the
            // same allocator state end in the same state, and so would every later one.
            let mut prev_mb: Option<(FreeBlocks, (bool, bool))> = None;
            for mb in 0..ga {
                let last = mb + 1 == ga;
                let program = (
                    self.grads.iter().any(Option::is_some),
                    last && self.t.optimizer_in_backward,
                );
                let sig = (self.al.reserved_now(), self.al.free_blocks());
                if let Some((ps, pp)) = &prev_mb {
                    if *pp == program && *ps == sig {
                        continue;
                    }
                }
                self.last_micro = last;
                self.micro_batch();
                prev_mb = Some((sig, program));
            }
            self.optimizer_step();
            self.zero_grad();
            let sig = (self.al.reserved_now(), self.al.free_blocks());
            if prev.as_ref() == Some(&sig) {
                break;
            }
            prev = Some(sig);
        }
        self.steps = steps;
    }
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
