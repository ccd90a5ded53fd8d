//! Warnings about a scenario, as data. The UI translates each variant; the core writes no sentences.

use serde::Serialize;

/// Something the user should know about the estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Warning {
    /// The budget fits the card only by eating into the headroom.
    WithinHeadroom,
    /// The budget is larger than the card.
    DoesNotFit,
    /// Nothing in the catalog (up to 8 cards of one kind) holds the budget.
    NoPlanFits,
    /// Context longer than the model was trained for (`max_position_embeddings`).
    ContextBeyondModel {
        /// The model's limit.
        max_position: u32,
    },
    /// The KV cache is larger than the weights: context and concurrency drive the budget.
    KvCacheDominates,
    /// The chosen number of GPUs cannot split the model's heads: the cards run as replicas.
    TensorParallelIndivisible {
        /// Query heads.
        heads: u32,
        /// KV heads.
        kv_heads: u32,
        /// Cards chosen.
        count: u32,
    },
    /// Several cards joined by PCIe only: tensor parallelism works, slowly.
    PcieOnly,
    /// A quantised weight format: check output quality on your own evaluation set.
    QuantizedWeights,
    /// The scenario's engine, formats or kernels do not run on the chosen card.
    SoftwareDoesNotRun {
        /// The first gap found.
        gap: crate::scenario::stack::StackGap,
    },
    /// The engine would refuse to start with these settings.
    EngineWillNotStart {
        /// Why.
        failure: crate::budget::StartFailure,
    },
    /// The engine's KV cache holds fewer full-context requests than the sequences asked for: the
    /// rest wait in the queue.
    ConcurrencyBelowSequences {
        /// Requests of the full context the cache holds at once.
        max_concurrency_centi: u64,
        /// Sequences asked for.
        sequences: u32,
    },
    /// Memory allocated outside PyTorch's allocator on each GPU (CUDA context, NCCL, engine
    /// buffers, CUDA graphs): `torch.cuda.memory_*` will not show it; `nvidia-smi` will.
    OutsideAllocator {
        /// Bytes per GPU.
        bytes: u64,
    },
    /// Disk the weights need (before downloads of other formats and conversions).
    ModelFiles {
        /// Bytes of the weights in their storage format.
        bytes: u64,
    },
    /// A generation pipeline offloads parts to host RAM (model or sequential CPU offload).
    OffloadHostMemory {
        /// Host bytes needed.
        bytes: u64,
    },
    /// Training keeps optimizer states, master weights or parameters in host RAM (ZeRO-Offload of
    /// the optimizer or the parameters, or a paged 8-bit optimizer's states).
    TrainingHostMemory {
        /// Host bytes needed.
        bytes: u64,
    },
    /// The engine keeps part of the model in host RAM (llama.cpp: the token embedding always,
    /// plus offloaded layers and their KV): budget it on the host.
    HostMemory {
        /// Host bytes needed.
        bytes: u64,
    },
    /// A figure reached 2^64 bytes (16 EiB), the largest the estimate represents, and is shown at
    /// that limit: no hardware holds this scenario.
    Saturated,
}
