//! Parameters, gradients, states: loading the parameters (and fp32 master copies), delivering
//! weight gradients, autocast copies and dequantised weights.

use super::{Kind, LayerState, Sim, Tns};
use crate::workloads::training::config::TrainPrecision;

impl Sim<'_> {
    pub(super) fn own_kind(&self, i: usize, kind: Kind) -> Kind {
        if self.params[i].adapter {
            Kind::Adapters
        } else {
            kind
        }
    }

    pub(super) fn load(&mut self) {
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
    pub(super) fn deliver_grad(&mut self, i: usize, mut g: Tns) {
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
    pub(super) fn weight_grad(&mut self, i: usize) {
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

    pub(super) fn cast(&mut self, i: usize, ls: &mut LayerState, grad: bool) {
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

    pub(super) fn release_cast(&mut self, i: usize, ls: &mut LayerState) {
        if let Some(pos) = ls.casts.iter().position(|&(j, _)| j == i) {
            let (_, t) = ls.casts.swap_remove(pos);
            self.free(t);
        }
    }

    pub(super) fn dequantised(&mut self, list: &[usize]) -> Vec<Tns> {
        let mut out = Vec::new();
        for &i in list {
            let p = self.params[i];
            if p.quantized && !p.adapter {
                out.push(self.alloc(p.numel.saturating_mul(self.c), Kind::Temporary));
            }
        }
        out
    }
}
