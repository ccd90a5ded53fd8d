//! Runtime memory outside the model's tensors: the CUDA context, the cuBLAS workspace and, with
//! several GPUs per model, NCCL's communicator buffers.
//!
//! - **CUDA context** (driver context, lazily loaded kernel images, library handles): invisible to
//!   `torch.cuda.memory_allocated()`, visible to `nvidia-smi`. 0.35 GiB: the non-torch memory vLLM
//!   0.6.4 logged on an RTX 3090 with TP = 1 (vllm issue #10517), a version whose profiler counted
//!   `used − torch allocated` and so the whole context. PyTorch with lazy module loading (CUDA ≥ 11.7)
//!   lands in the same 0.3–0.5 GiB range.
//! - **cuBLAS workspace** (`aten/src/ATen/cuda/CublasHandlePool.cpp::parseChosenWorkspaceSize`):
//!   32 MiB on Hopper and newer; `4096 KiB × 2 + 16 KiB × 8` = 8.125 MiB before. Allocated through
//!   the caching allocator at the first GEMM and kept.
//! - **NCCL** (with `tp > 1`): one communicator's buffers, 544 MB for 2 ranks and 688 MB for more,
//!   as measured on A100 NVLink systems in NVIDIA/nccl issue #964.

use crate::inputs::catalog::GpuArch;
use crate::units::bytes::{GIB, KIB, MIB};

/// CUDA context and module images, per GPU, with CUDA's lazy module loading. Fitted: read off the
/// vLLM 0.6.4 logs of the calibration's A04 / A05 (that engine counts the context inside its
/// budget), so those cases are no out-of-sample check of it (tests/tests/calibration.rs marks
/// them); a user's own figure replaces it (`hardware.cuda_context_mib`).
pub const CUDA_CONTEXT_BYTES: u64 = GIB * 35 / 100;

/// cuBLAS workspace for a GPU generation (`None`: unknown card, the larger Hopper size).
pub fn cublas_workspace(arch: Option<GpuArch>) -> u64 {
    match arch {
        Some(
            GpuArch::Pascal
            | GpuArch::Volta
            | GpuArch::Turing
            | GpuArch::Ampere
            | GpuArch::Ada
            | GpuArch::Rdna
            | GpuArch::Cdna
            | GpuArch::Xe
            | GpuArch::Gaudi
            | GpuArch::AppleSilicon,
        ) => 4096 * KIB * 2 + 16 * KIB * 8,
        Some(GpuArch::Hopper | GpuArch::Blackwell) | None => 32 * MIB,
    }
}

/// Custom all-reduce buffers per GPU with tensor parallelism (vLLM and SGLang
/// `custom_all_reduce.py::CustomAllreduce.__init__`): the metadata buffer with its `max_size`
/// scratch (8 MiB), the registered IPC buffer (8 MiB) and `rank_data` (8 MiB).
pub const CUSTOM_ALL_REDUCE_BYTES: u64 = 24 * MIB;

/// NCCL communicator buffers per GPU for a tensor-parallel group of `tp` GPUs.
pub fn communication_buffers(tp: u32) -> u64 {
    match tp {
        0 | 1 => 0,
        2 => 544_000_000,
        _ => 688_000_000,
    }
}
