//! The training workload as the scenario describes it (`"workload": {"train": {…}}`).

use crate::units::limits::{check_range, Field, RangeError, MAX_CONTEXT_TOKENS, MAX_GPUS};
use serde::{Deserialize, Serialize};

/// How the model is trained.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Every parameter trains (full training or full fine-tune).
    #[default]
    Full,
    /// Low-rank adapters on frozen weights.
    Lora,
    /// LoRA on an NF4-quantised base (bitsandbytes / torchao).
    Qlora,
}

impl Method {
    /// The activation checkpointing a run of this method starts with in its usual recipe:
    /// QLoRA's goes through peft's `prepare_model_for_kbit_training`, whose
    /// `use_gradient_checkpointing` defaults to `True`; full and LoRA runs start without it.
    pub fn recipe_checkpointing(self) -> Checkpointing {
        match self {
            Method::Qlora => Checkpointing::Full,
            Method::Full | Method::Lora => Checkpointing::None,
        }
    }
}

/// Which linear modules carry LoRA adapters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoraTargets {
    /// `q_proj` and `v_proj` (PEFT's default for Llama, torchtune's recipe default).
    #[default]
    QueryValue,
    /// q, k, v.
    QueryKeyValue,
    /// q, k, v, o.
    Attention,
    /// Attention and MLP (gate, up, down): every linear of the layers.
    AllLinear,
}

/// Numeric policy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrainPrecision {
    /// Everything fp32.
    Fp32,
    /// `torch.autocast` fp16 on fp32 weights (HF Trainer `fp16=True`): fp32 weights, grads and
    /// states, a cached fp16 copy of the linear weights during the forward.
    AmpFp16,
    /// `torch.autocast` bf16 on fp32 weights (HF Trainer `bf16=True`).
    AmpBf16,
    /// 16-bit weights and grads with an fp32 master copy (DeepSpeed / Megatron mixed precision).
    MixedMaster,
    /// Pure bf16: weights, grads and optimizer states in bf16 (torchtune's default).
    #[default]
    Bf16,
}

/// Optimizer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Optimizer {
    /// AdamW: two moments per parameter.
    #[default]
    Adamw,
    /// bitsandbytes 8-bit AdamW: block-wise quantised moments.
    Adamw8bit,
    /// bitsandbytes paged 8-bit AdamW: the states live in unified memory, evicted to the host.
    PagedAdamw8bit,
    /// Adafactor: factored second moment, no first moment.
    Adafactor,
    /// Plain SGD.
    Sgd,
    /// SGD with momentum.
    SgdMomentum,
    /// Lion: one moment.
    Lion,
}

/// Activation checkpointing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Checkpointing {
    /// Keep every saved activation.
    #[default]
    None,
    /// Recompute the attention core only (Korthikanti et al.'s selective recomputation).
    Selective,
    /// Keep each layer's input, recompute the layer in backward.
    Full,
}

/// How the data-parallel GPUs hold the training state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sharding {
    /// DDP: every GPU holds everything.
    #[default]
    Ddp,
    /// ZeRO-1: optimizer states sharded.
    Zero1,
    /// ZeRO-2 / FSDP `SHARD_GRAD_OP`: optimizer states and gradients sharded.
    Zero2,
    /// ZeRO-3 / FSDP `FULL_SHARD`: parameters too; layers are gathered when used.
    Zero3,
    /// FSDP `HYBRID_SHARD`: full sharding inside a node of `hybrid_group` GPUs, replicated across.
    Hybrid,
}

/// The training workload.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Train {
    /// Full, LoRA or QLoRA.
    #[serde(default)]
    pub method: Method,
    /// LoRA rank.
    #[serde(default = "rank")]
    pub lora_rank: u32,
    /// LoRA target modules.
    #[serde(default)]
    pub lora_targets: LoraTargets,
    /// NF4 double quantisation (QLoRA).
    #[serde(default = "yes")]
    pub double_quant: bool,
    /// The adapters' dropout is on (peft `LoraConfig(lora_dropout > 0)`): each adapted linear
    /// keeps its own dropout output and bool mask instead of one shared input
    /// (`activations::lora_layer`). Off (peft's default, 0) is not serialised.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lora_dropout: bool,
    /// Sequences per micro-batch, per GPU.
    pub micro_batch: u32,
    /// Tokens per sequence.
    pub sequence_length: u32,
    /// Micro-batches accumulated per optimizer step (does not raise the peak).
    #[serde(default = "one")]
    pub gradient_accumulation: u32,
    /// Numeric policy.
    #[serde(default)]
    pub precision: TrainPrecision,
    /// Optimizer.
    #[serde(default)]
    pub optimizer: Optimizer,
    /// Step each parameter as soon as its gradient is ready (torchtune `optimizer_in_bwd`).
    #[serde(default)]
    pub optimizer_in_backward: bool,
    /// torch's multi-tensor (`foreach`) step, the default since torch 2.0; off for per-parameter
    /// loops such as transformers' legacy `AdamW` (`optim="adamw_hf"`).
    #[serde(default = "yes")]
    pub foreach: bool,
    /// Activation checkpointing.
    #[serde(default)]
    pub checkpointing: Checkpointing,
    /// Fused attention (flash / SDPA): no `s²` attention tensors.
    #[serde(default = "yes")]
    pub flash_attention: bool,
    /// `torch.compile`: recomputed layers keep only matmul inputs.
    #[serde(default)]
    pub compiled: bool,
    /// Cross-entropy over chunks of the sequence (torchtune `CEWithChunkedOutputLoss`): the fp32
    /// upcast exists one chunk at a time; with `compiled` the fp32 log-softmax is not saved
    /// either (see `activations::logits`).
    #[serde(default)]
    pub chunked_loss: bool,
    /// Train only the top N layers (the rest frozen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trainable_top_layers: Option<u32>,
    /// Data-parallel sharding.
    #[serde(default)]
    pub sharding: Sharding,
    /// GPUs per hybrid-shard group (default 8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hybrid_group: Option<u32>,
    /// Tensor-parallel degree (Megatron).
    #[serde(default = "one")]
    pub tensor_parallel: u32,
    /// Pipeline-parallel stages.
    #[serde(default = "one")]
    pub pipeline_parallel: u32,
    /// Keep optimizer states (and the fp32 master) in host RAM (ZeRO-Offload, FSDP CPU offload).
    #[serde(default)]
    pub offload_optimizer: bool,
    /// Keep parameters in host RAM, streaming them in per layer (ZeRO-3 offload).
    #[serde(default)]
    pub offload_params: bool,
    /// `zero_grad(set_to_none=False)` (torch < 2.0 default, HF Trainer < 4.3x): gradients stay
    /// allocated between steps, so they coexist with the next forward's activations.
    #[serde(default)]
    pub grads_persist: bool,
    /// Autocast runs GELU in fp32 (torch ≤ 1.9: `gelu` on the CUDA fp32 op list of
    /// `aten/src/ATen/autocast_mode.cpp`; pytorch PR #59639 removed it for 1.10). Under an `amp_*`
    /// precision each GELU then casts its 16-bit input to fp32 and saves that copy, and the next
    /// linear casts its fp32 output back to 16 bit. Only the GELU layers (BERT encoders) change.
    #[serde(default)]
    pub autocast_gelu_fp32: bool,
}

fn rank() -> u32 {
    8
}
fn yes() -> bool {
    true
}
fn one() -> u32 {
    1
}

impl Default for Train {
    fn default() -> Train {
        Train {
            method: Method::Full,
            lora_rank: rank(),
            lora_targets: LoraTargets::QueryValue,
            double_quant: true,
            lora_dropout: false,
            micro_batch: 1,
            sequence_length: 2048,
            gradient_accumulation: 1,
            precision: TrainPrecision::Bf16,
            optimizer: Optimizer::Adamw,
            optimizer_in_backward: false,
            foreach: true,
            checkpointing: Checkpointing::None,
            flash_attention: true,
            compiled: false,
            chunked_loss: false,
            trainable_top_layers: None,
            sharding: Sharding::Ddp,
            hybrid_group: None,
            tensor_parallel: 1,
            pipeline_parallel: 1,
            offload_optimizer: false,
            offload_params: false,
            grads_persist: false,
            autocast_gelu_fp32: false,
        }
    }
}

impl Train {
    /// Range checks of the training settings, each named by its scenario key; `gpu_count` bounds
    /// the model-parallel degree (tensor × pipeline parallel must fit on the cards).
    pub fn validate(&self, gpu_count: u32) -> Vec<(Field, RangeError)> {
        let mut errs = Vec::new();
        let mut check = |name, v: u32, min: u32, max: u32| {
            if let Err(e) = check_range(f64::from(v), f64::from(min), f64::from(max)) {
                errs.push((Field::Train(name), e));
            }
        };
        for (name, v, min, max) in [
            ("micro_batch", self.micro_batch, 1, 65_536),
            (
                "sequence_length",
                self.sequence_length,
                1,
                MAX_CONTEXT_TOKENS,
            ),
            (
                "gradient_accumulation",
                self.gradient_accumulation,
                1,
                1_000_000,
            ),
            ("lora_rank", self.lora_rank, 1, 65_536),
            ("tensor_parallel", self.tensor_parallel, 1, MAX_GPUS),
            ("pipeline_parallel", self.pipeline_parallel, 1, MAX_GPUS),
            ("hybrid_group", self.hybrid_group.unwrap_or(8), 1, MAX_GPUS),
        ] {
            check(name, v, min, max);
        }
        let model_parallel = u64::from(self.tensor_parallel) * u64::from(self.pipeline_parallel);
        if model_parallel > u64::from(gpu_count.max(1)) {
            check(
                "tensor_parallel",
                self.tensor_parallel,
                1,
                gpu_count.max(1) / self.pipeline_parallel.max(1),
            );
        }
        errs
    }
}

closed_set!(Method { Full => "full", Lora => "lora", Qlora => "qlora" });
closed_set!(LoraTargets {
    QueryValue => "query_value",
    QueryKeyValue => "query_key_value",
    Attention => "attention",
    AllLinear => "all_linear",
});
closed_set!(TrainPrecision {
    Bf16 => "bf16",
    MixedMaster => "mixed_master",
    AmpBf16 => "amp_bf16",
    AmpFp16 => "amp_fp16",
    Fp32 => "fp32",
});
closed_set!(Optimizer {
    Adamw => "adamw",
    Adamw8bit => "adamw8bit",
    PagedAdamw8bit => "paged_adamw8bit",
    Adafactor => "adafactor",
    Lion => "lion",
    SgdMomentum => "sgd_momentum",
    Sgd => "sgd",
});
closed_set!(Checkpointing { None => "none", Selective => "selective", Full => "full" });
closed_set!(Sharding {
    Ddp => "ddp",
    Zero1 => "zero1",
    Zero2 => "zero2",
    Zero3 => "zero3",
    Hybrid => "hybrid",
});
