//! Optimizer state and step temporaries (notes §1f: transformers `AdamW.step`, torch foreach
//! AdamW, bitsandbytes `Optimizer2State.init_state` / `update_step`, `Adafactor.step`).

use super::config::{Optimizer, Train};
use crate::bytes::{add, div_ceil, mul, prod, round_up, sum, MIB};

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
    if t.optimizer_in_backward || t.sharding != super::config::Sharding::Ddp {
        return 0;
    }
    let block = round_up(per_parameter_temporary(t, largest, dtype), 2 * MIB);
    if block < 10 * MIB || block <= largest_activation {
        return 0;
    }
    mul(2, block)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::config::Sharding;

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
}
