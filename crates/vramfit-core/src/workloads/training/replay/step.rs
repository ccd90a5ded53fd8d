//! The optimizer step (states created lazily, the step's temporaries, master weights),
//! `zero_grad`, and the loop that replays steps until the allocator's state repeats.

use super::optimizer;
use super::{FreeBlocks, Kind, Replay, Sim, Tns, MAX_STEPS};
use crate::workloads::training::config::Optimizer;
use crate::workloads::training::TrainPhase;

impl Sim<'_> {
    pub(super) fn init_states(&mut self, i: usize) {
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
    pub(super) fn shard_numel(&self, i: usize) -> u64 {
        self.params[i].numel.div_ceil(self.shard_states)
    }

    /// Updates parameter `i` alone (optimizer in backward: a group of one).
    pub(super) fn step_param(&mut self, i: usize) {
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
    pub(super) fn update(&mut self, n: u64, foreach: bool, carried: &mut Option<Tns>) {
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

    pub(super) fn optimizer_step(&mut self) {
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

    pub(super) fn zero_grad(&mut self) {
        if self.t.grads_persist {
            return;
        }
        for i in 0..self.grads.len() {
            let g = self.grads[i].take();
            self.free_opt(g);
        }
    }

    pub(super) fn replay(mut self) -> Replay {
        self.run_steps();
        self.result()
    }

    pub(super) fn result(&self) -> Replay {
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

    pub(super) fn run_steps(&mut self) {
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
