//! Building the replay of one GPU: its parameters as stored (LoRA adapters after their layer,
//! the tied head's copy on the last pipeline stage), the op lists per layer kind, and the
//! sharding of states, gradients and parameters.

use super::allocator::Allocator;
use super::ops::{self, Proj};
use super::{Param, Sim, Stage, FREE_SHOWN, KINDS};
use crate::budget::weights;
use crate::inputs::model::{ModelArch, TensorKind};
use crate::workloads::training::config::{Method, Sharding, Train, TrainPrecision};
use crate::workloads::training::TrainPhase;
use std::collections::VecDeque;
use std::rc::Rc;

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

fn zero_parts() -> [u64; KINDS] {
    [0; KINDS]
}

impl<'a> Sim<'a> {
    pub(super) fn new(
        a: &'a ModelArch,
        t: &'a Train,
        (batch, seq, world): (u64, u64, u64),
        limit: u64,
        stage: Stage,
    ) -> Self {
        let tp = u64::from(t.tensor_parallel.max(1));
        let pp = u64::from(t.pipeline_parallel.max(1));
        let dp = (world / tp.saturating_mul(pp)).max(1);
        let (base_format, param_bytes) = crate::workloads::training::weight_storage(t);
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
                    if lora && crate::workloads::training::is_target(x.kind, t.lora_targets) {
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
}
