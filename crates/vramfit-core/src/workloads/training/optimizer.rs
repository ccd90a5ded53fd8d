//! Optimizer state and step temporaries (notes §1f: transformers `AdamW.step`, torch foreach
//! AdamW, bitsandbytes `Optimizer2State.init_state` / `update_step`, `Adafactor.step`).

use super::config::{Optimizer, Sharding, Train};
use crate::units::bytes::{add, div, div_ceil, mul, prod, round_up, sum, MIB};

/// State bytes for trainable tensors `shapes` (rows × cols, repeated `count` times), with `dtype`
/// bytes per full-precision state element (4 with fp32 weights or master, 2 for pure bf16).
pub fn state_bytes(opt: Optimizer, shapes: &[(u64, u64, u64)], dtype: u64) -> u64 {
    sum(shapes.iter().map(|&(rows, cols, count)| {
        let n = mul(rows, cols);
        let one = match opt {
            Optimizer::Adamw => prod(&[2, dtype, n]),
            // bnb: uint8 moments with one fp32 absmax per 2048 elements; fp32 moments for
            // tensors under 4096 elements.
            Optimizer::Adamw8bit | Optimizer::PagedAdamw8bit if n >= 4096 => {
                add(mul(2, n), mul(2 * 4, div_ceil(n, 2048)))
            }
            Optimizer::Adamw8bit | Optimizer::PagedAdamw8bit => mul(8, n),
            // Factored second moment for matrices, full for vectors; no first moment.
            Optimizer::Adafactor if rows > 1 && cols > 1 => mul(4, add(rows, cols)),
            Optimizer::Adafactor => mul(4, n),
            Optimizer::Sgd => 0,
            Optimizer::SgdMomentum | Optimizer::Lion => mul(dtype, n),
        };
        mul(one, count)
    }))
}

/// Temporaries of one optimizer step: torch's foreach AdamW / Lion materialise one state's worth
/// for the whole group; a per-parameter loop (transformers' `AdamW`, `foreach` off) two copies of
/// the largest tensor; Adafactor two fp32 copies of the largest tensor; 8-bit and SGD none.
pub fn step_temporaries(t: &Train, trainable_local: u64, largest: u64, dtype: u64) -> u64 {
    if t.optimizer_in_backward {
        return prod(&[2, largest, dtype]);
    }
    match t.optimizer {
        Optimizer::Adamw | Optimizer::Lion if t.foreach => mul(trainable_local, dtype),
        _ => mul(2, per_parameter_temporary(t, largest, dtype)),
    }
}

/// One temporary the size of the largest tensor, of which a per-parameter step holds two at once
/// (transformers' `AdamW`: the old and the new `denom`; Adafactor: fp32 copies); 0 for steps
/// without tensor-sized temporaries (foreach, 8-bit, SGD).
fn per_parameter_temporary(t: &Train, largest: u64, dtype: u64) -> u64 {
    match t.optimizer {
        Optimizer::Adamw | Optimizer::Lion if !t.foreach => mul(largest, dtype),
        Optimizer::Adafactor => mul(largest, 4),
        _ => 0,
    }
}

/// Segments a per-parameter optimizer step leaves cached for the rest of the run: its temporaries
/// the size of the largest tensor (two `denom`s of transformers' `AdamW`, Adafactor's fp32 copies)
/// are requests of 10 MiB and more, which the caching allocator serves from segments of their own
/// size rounded to 2 MiB when no free block is that large (`c10/cuda/CUDACachingAllocator.cpp`,
/// `malloc` → `get_free_block` → `alloc_block`). The next step's forward repeats the first
/// step's allocations, which the blocks it freed fit exactly (best fit), so those segments stay
/// reserved and idle beside the forward's peak. No such segments when a block freed before the
/// step (`largest_activation`, one tensor) already holds them, with foreach or 8-bit steps (no
/// tensor-sized temporaries), in backward (`optimizer_in_backward`) or under sharding (the step
/// runs on flat partitions).
pub fn cached_step_segments(t: &Train, largest: u64, dtype: u64, largest_activation: u64) -> u64 {
    if t.optimizer_in_backward || t.sharding != Sharding::Ddp {
        return 0;
    }
    let block = round_up(per_parameter_temporary(t, largest, dtype), 2 * MIB);
    if block < 10 * MIB || block <= largest_activation {
        return 0;
    }
    mul(2, block)
}

/// The segment a gradient accumulated into an existing `.grad` leaves cached, beyond the step's
/// ([`cached_step_segments`], `step_segments` here). When `.grad` is kept between steps
/// (`zero_grad(set_to_none=False)`, `grads_persist`) or summed over micro-batches, each backward
/// materialises the new gradient of every parameter as a tensor of its own and adds it in place
/// (`torch/csrc/autograd/functions/accumulate_grad.h`, `accumulateGrad`: `variable_grad +=
/// new_grad`; the embedding's comes whole from `embedding_dense_backward`), then frees it. The
/// largest tensor's (`largest` elements of `grad_bytes`) is a request of 10 MiB and more that no
/// freed activation block holds (`largest_activation`), so the caching allocator gives it a
/// segment of its own size rounded to 2 MiB (`CUDACachingAllocator.cpp`, `alloc_block`), which
/// the next forward, repeating its allocations into the blocks it freed, leaves idle. Nothing
/// extra when a per-parameter step's cached segments are as large (the gradient reuses one: they
/// are free during backward), when every step starts from fresh gradients, when the optimizer
/// steps in backward (the gradient is freed at once) or under ZeRO-2/3 and FSDP (the full
/// gradient is reduce-scattered into a shard every step, not accumulated).
pub fn cached_accumulation_segment(
    t: &Train,
    largest: u64,
    grad_bytes: u64,
    largest_activation: u64,
    step_segments: u64,
) -> u64 {
    let accumulates = (t.grads_persist && !t.optimizer_in_backward) || t.gradient_accumulation > 1;
    if !accumulates || !matches!(t.sharding, Sharding::Ddp | Sharding::Zero1) {
        return 0;
    }
    let block = round_up(mul(largest, grad_bytes), 2 * MIB);
    if block < 10 * MIB || block <= largest_activation || div(step_segments, 2) >= block {
        return 0;
    }
    block
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BERT-large's word embeddings: 30,522 × 1,024 fp32 = 119.2 MiB, a 120 MiB segment each.
    const EMBEDDINGS: u64 = 30_522 * 1_024;

    #[test]
    fn a_per_parameter_step_leaves_two_largest_tensor_segments_cached() {
        let per_param = Train {
            foreach: false,
            ..Train::default()
        };
        assert_eq!(
            cached_step_segments(&per_param, EMBEDDINGS, 4, 64 * MIB),
            240 * MIB
        );
        let adafactor = Train {
            optimizer: Optimizer::Adafactor,
            ..Train::default()
        };
        assert_eq!(
            cached_step_segments(&adafactor, EMBEDDINGS, 2, 0),
            240 * MIB
        );
    }

    #[test]
    fn no_cached_step_segments_where_a_freed_block_or_the_step_holds_them() {
        let per_param = Train {
            foreach: false,
            ..Train::default()
        };
        // A freed activation block as large: the temporaries reuse it.
        assert_eq!(
            cached_step_segments(&per_param, EMBEDDINGS, 4, 120 * MIB),
            0
        );
        // Foreach and 8-bit steps have no tensor-sized temporaries; sharded steps run on flat
        // partitions; small tensors share the 20 MiB segments.
        assert_eq!(cached_step_segments(&Train::default(), EMBEDDINGS, 4, 0), 0);
        let eight_bit = Train {
            optimizer: Optimizer::Adamw8bit,
            ..per_param.clone()
        };
        assert_eq!(cached_step_segments(&eight_bit, EMBEDDINGS, 4, 0), 0);
        let zero2 = Train {
            sharding: Sharding::Zero2,
            ..per_param.clone()
        };
        assert_eq!(cached_step_segments(&zero2, EMBEDDINGS, 4, 0), 0);
        assert_eq!(cached_step_segments(&per_param, 1_000_000, 4, 0), 0);
        // Saturating on absurd sizes.
        assert!(cached_step_segments(&per_param, u64::MAX, 4, 0) >= u64::MAX / 2);
    }

    /// B08's situation: fp32 BERT-large, 8-bit AdamW (no step temporaries), gradients kept
    /// between steps: the embedding's new gradient (119.2 MiB) gets a 120 MiB segment; the
    /// largest freed activation block is 64 MiB of attention scores.
    #[test]
    fn an_accumulated_gradient_larger_than_any_freed_block_leaves_its_segment_cached() {
        let eight_bit = Train {
            optimizer: Optimizer::Adamw8bit,
            grads_persist: true,
            foreach: false,
            ..Train::default()
        };
        let step = cached_step_segments(&eight_bit, EMBEDDINGS, 4, 64 * MIB);
        assert_eq!(step, 0);
        assert_eq!(
            cached_accumulation_segment(&eight_bit, EMBEDDINGS, 4, 64 * MIB, step),
            120 * MIB
        );
        // Fresh gradients each step, but summed over micro-batches: the same.
        let ga = Train {
            grads_persist: false,
            gradient_accumulation: 4,
            ..eight_bit.clone()
        };
        assert_eq!(
            cached_accumulation_segment(&ga, EMBEDDINGS, 4, 16 * MIB, 0),
            120 * MIB
        );
        // bf16 gradients: 59.6 MiB, a 60 MiB segment.
        assert_eq!(
            cached_accumulation_segment(&eight_bit, EMBEDDINGS, 2, 0, 0),
            60 * MIB
        );
    }

    #[test]
    fn no_accumulation_segment_where_nothing_accumulates_or_a_cached_block_holds_it() {
        let persist = Train {
            optimizer: Optimizer::Adamw8bit,
            grads_persist: true,
            foreach: false,
            ..Train::default()
        };
        // Fresh gradients every step (`set_to_none`), one micro-batch: `.grad` is the new one.
        let fresh = Train {
            grads_persist: false,
            gradient_accumulation: 1,
            ..persist.clone()
        };
        assert_eq!(cached_accumulation_segment(&fresh, EMBEDDINGS, 4, 0, 0), 0);
        // Stepped in backward: the gradient is freed at once.
        let in_backward = Train {
            optimizer_in_backward: true,
            ..persist.clone()
        };
        assert_eq!(
            cached_accumulation_segment(&in_backward, EMBEDDINGS, 4, 0, 0),
            0
        );
        // Sharded gradients are reduce-scattered, not accumulated whole.
        let zero2 = Train {
            sharding: Sharding::Zero2,
            ..persist.clone()
        };
        assert_eq!(cached_accumulation_segment(&zero2, EMBEDDINGS, 4, 0, 0), 0);
        // A freed activation block as large; small tensors share the 20 MiB segments.
        assert_eq!(
            cached_accumulation_segment(&persist, EMBEDDINGS, 4, 120 * MIB, 0),
            0
        );
        assert_eq!(cached_accumulation_segment(&persist, 1_000_000, 4, 0, 0), 0);
        // A per-parameter AdamW's cached `denom` segments (B01): the gradient reuses one.
        let per_param = Train {
            optimizer: Optimizer::Adamw,
            ..persist.clone()
        };
        let step = cached_step_segments(&per_param, EMBEDDINGS, 4, 64 * MIB);
        assert_eq!(step, 240 * MIB);
        assert_eq!(
            cached_accumulation_segment(&per_param, EMBEDDINGS, 4, 64 * MIB, step),
            0
        );
        // Saturating on absurd sizes.
        assert!(cached_accumulation_segment(&persist, u64::MAX, 4, 0, 0) >= u64::MAX / 2);
    }
}
