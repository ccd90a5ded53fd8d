//! Optimizer states and the temporaries of a step, tensor by tensor (transformers
//! `optimization.py::AdamW.step` and `Adafactor.step`, torch `optim/adamw.py::_multi_tensor_adamw`,
//! bitsandbytes `Optimizer2State.init_state` / `update_step`, lion-pytorch `update_fn`):
//! - **States**, created at a parameter's first step: AdamW `exp_avg` and `exp_avg_sq`
//!   (`zeros_like`); bitsandbytes 8-bit two `uint8` states plus one fp32 `absmax` per block of
//!   2048 each (fp32 states below 4096 elements); paged 8-bit the same in unified memory (evicted
//!   to the host, invisible to the device allocator); Adafactor a factored second moment
//!   (row and column statistics) for matrices, full for vectors, no first moment; SGD none or a
//!   momentum buffer; Lion one moment.
//! - **Temporaries**: a per-parameter AdamW (transformers' `AdamW`, `foreach` off) makes
//!   `denom = exp_avg_sq.sqrt()` per parameter, which lives until the next parameter's replaces it;
//!   torch's multi-tensor AdamW / Lion makes `_foreach_sqrt(exp_avg_sqs)` for the whole parameter
//!   group at once; Adafactor makes `grad**2 + eps`, the update and `-update` (two alive at once);
//!   Lion per parameter a clone and a sum; 8-bit and SGD update in place.

use crate::units::bytes::{div_ceil, mul};
use crate::workloads::training::config::Optimizer;

/// The state tensors (bytes each, in creation order) of a `rows × cols` parameter, with `dtype`
/// bytes per full-precision element (4 with fp32 weights or master, 2 for pure bf16).
pub fn state_tensors(opt: Optimizer, rows: u64, cols: u64, dtype: u64) -> Vec<u64> {
    let n = mul(rows, cols);
    match opt {
        Optimizer::Adamw => vec![mul(n, dtype); 2],
        // bnb: uint8 moments with one fp32 absmax per 2048 elements; fp32 moments for tensors
        // under 4096 elements.
        Optimizer::Adamw8bit | Optimizer::PagedAdamw8bit if n >= 4096 => {
            let absmax = mul(div_ceil(n, 2048), 4);
            vec![n, n, absmax, absmax]
        }
        Optimizer::Adamw8bit | Optimizer::PagedAdamw8bit => vec![mul(n, 4); 2],
        // Factored second moment for matrices, full for vectors; no first moment.
        Optimizer::Adafactor if rows > 1 && cols > 1 => vec![mul(rows, 4), mul(cols, 4)],
        Optimizer::Adafactor => vec![mul(n, 4)],
        Optimizer::Sgd => Vec::new(),
        Optimizer::SgdMomentum | Optimizer::Lion => vec![mul(n, dtype)],
    }
}

/// How a step's temporaries come and go for one parameter of `n` elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Temps {
    /// None (in-place updates).
    None,
    /// One tensor of these bytes that lives until the next parameter's (HF `AdamW`'s `denom`).
    Carried(u64),
    /// Tensors of these bytes allocated one after the other, each freed after the next exists
    /// (`grad**2 + eps`, the update, `-update`; Lion's clone and sum).
    Chain(u64, u8),
    /// One tensor of these bytes per parameter, for the whole group at once (`_foreach_sqrt`).
    Group(u64),
}

/// The temporaries of updating one parameter of `n` elements (`foreach`: torch's multi-tensor
/// path, which the per-parameter optimizer-in-backward runs with a group of one).
pub fn temporaries(opt: Optimizer, n: u64, dtype: u64, foreach: bool) -> Temps {
    match opt {
        Optimizer::Adamw | Optimizer::Lion if foreach => Temps::Group(mul(n, dtype)),
        Optimizer::Adamw => Temps::Carried(mul(n, dtype)),
        Optimizer::Lion => Temps::Chain(mul(n, dtype), 2),
        Optimizer::Adafactor => Temps::Chain(mul(n, 4), 3),
        Optimizer::Adamw8bit
        | Optimizer::PagedAdamw8bit
        | Optimizer::Sgd
        | Optimizer::SgdMomentum => Temps::None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_per_optimizer() {
        assert_eq!(state_tensors(Optimizer::Adamw, 10, 10, 4), vec![400, 400]);
        assert_eq!(
            state_tensors(Optimizer::Adamw8bit, 1024, 1024, 4),
            vec![1 << 20, 1 << 20, 2048, 2048]
        );
        assert_eq!(
            state_tensors(Optimizer::Adamw8bit, 1, 100, 4),
            vec![400, 400]
        );
        assert_eq!(
            state_tensors(Optimizer::Adafactor, 30, 20, 4),
            vec![120, 80]
        );
        assert!(state_tensors(Optimizer::Sgd, 5, 5, 4).is_empty());
    }

    /// The replay's state tensors add up to the closed form's state bytes.
    #[test]
    fn states_add_up_to_the_closed_form() {
        use crate::workloads::training::optimizer::state_bytes;
        for opt in [
            Optimizer::Adamw,
            Optimizer::Adamw8bit,
            Optimizer::PagedAdamw8bit,
            Optimizer::Adafactor,
            Optimizer::Sgd,
            Optimizer::SgdMomentum,
            Optimizer::Lion,
        ] {
            for (rows, cols) in [
                (1, 1024),
                (1, 5000),
                (30, 20),
                (4096, 14336),
                (128_256, 4096),
            ] {
                for dtype in [2, 4] {
                    let tensors: u64 = state_tensors(opt, rows, cols, dtype).iter().sum();
                    assert_eq!(
                        tensors,
                        state_bytes(opt, &[(rows, cols, 1)], dtype),
                        "{opt:?} {rows}x{cols}"
                    );
                }
            }
        }
    }
}
