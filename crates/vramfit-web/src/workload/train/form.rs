//! The training knobs as text fields and selects, and their conversion to the core's `Train`.

use crate::ui::field::{parse_whole, Input, Problem};
use leptos::prelude::*;
use vramfit_core::{
    Checkpointing, LoraTargets, Method, Optimizer, Sharding, Train, TrainPrecision,
};

/// Every training field.
#[derive(Clone, Copy)]
pub struct TrainForm {
    /// `full`, `lora`, `qlora`.
    pub method: RwSignal<String>,
    /// LoRA rank.
    pub rank: RwSignal<String>,
    /// LoRA targets.
    pub targets: RwSignal<String>,
    /// Micro-batch.
    pub micro_batch: RwSignal<String>,
    /// Sequence length.
    pub seq_len: RwSignal<String>,
    /// Gradient accumulation.
    pub accumulation: RwSignal<String>,
    /// Precision policy.
    pub precision: RwSignal<String>,
    /// Optimizer.
    pub optimizer: RwSignal<String>,
    /// Optimizer in backward.
    pub in_backward: RwSignal<bool>,
    /// Checkpointing.
    pub checkpointing: RwSignal<String>,
    /// Fused attention.
    pub flash: RwSignal<bool>,
    /// torch.compile.
    pub compiled: RwSignal<bool>,
    /// LoRA dropout on (peft `lora_dropout` > 0).
    pub lora_dropout: RwSignal<bool>,
    /// Chunked loss.
    pub chunked: RwSignal<bool>,
    /// Top N layers trainable ("" = all).
    pub top_layers: RwSignal<String>,
    /// Sharding.
    pub sharding: RwSignal<String>,
    /// Tensor parallel degree.
    pub tp: RwSignal<String>,
    /// Pipeline stages.
    pub pp: RwSignal<String>,
    /// Offload optimizer.
    pub offload_opt: RwSignal<bool>,
    /// Offload params.
    pub offload_params: RwSignal<bool>,
}

fn name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn parse<T: serde::de::DeserializeOwned + Default>(s: &str) -> T {
    serde_json::from_value(serde_json::Value::String(s.to_string())).unwrap_or_default()
}

impl TrainForm {
    /// Fields showing `t`.
    pub fn new(t: &Train) -> TrainForm {
        TrainForm {
            method: RwSignal::new(name(&t.method)),
            rank: RwSignal::new(t.lora_rank.to_string()),
            targets: RwSignal::new(name(&t.lora_targets)),
            micro_batch: RwSignal::new(t.micro_batch.to_string()),
            seq_len: RwSignal::new(t.sequence_length.to_string()),
            accumulation: RwSignal::new(t.gradient_accumulation.to_string()),
            precision: RwSignal::new(name(&t.precision)),
            optimizer: RwSignal::new(name(&t.optimizer)),
            in_backward: RwSignal::new(t.optimizer_in_backward),
            checkpointing: RwSignal::new(name(&t.checkpointing)),
            flash: RwSignal::new(t.flash_attention),
            compiled: RwSignal::new(t.compiled),
            lora_dropout: RwSignal::new(t.lora_dropout),
            chunked: RwSignal::new(t.chunked_loss),
            top_layers: RwSignal::new(
                t.trainable_top_layers
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
            ),
            sharding: RwSignal::new(name(&t.sharding)),
            tp: RwSignal::new(t.tensor_parallel.to_string()),
            pp: RwSignal::new(t.pipeline_parallel.to_string()),
            offload_opt: RwSignal::new(t.offload_optimizer),
            offload_params: RwSignal::new(t.offload_params),
        }
    }

    /// The `Train` the fields describe, pushing a problem per bad field.
    pub fn train(&self, problems: &mut Vec<(Input, Problem)>) -> Train {
        let mut whole = |name: &'static str, text: String, default: u32| match parse_whole(&text) {
            Ok(n) => n,
            Err(p) => {
                problems.push((Input::Train(name), p));
                default
            }
        };
        let d = Train::default();
        let lora_rank = whole("lora_rank", self.rank.get(), d.lora_rank);
        let micro_batch = whole("micro_batch", self.micro_batch.get(), d.micro_batch);
        let sequence_length = whole("sequence_length", self.seq_len.get(), d.sequence_length);
        let gradient_accumulation = whole(
            "gradient_accumulation",
            self.accumulation.get(),
            d.gradient_accumulation,
        );
        let tensor_parallel = whole("tensor_parallel", self.tp.get(), d.tensor_parallel);
        let pipeline_parallel = whole("pipeline_parallel", self.pp.get(), d.pipeline_parallel);
        let top = self.top_layers.get();
        let trainable_top_layers = if top.trim().is_empty() {
            None
        } else {
            Some(whole("trainable_top_layers", top, 1))
        };
        Train {
            method: parse::<Method>(&self.method.get()),
            lora_rank,
            lora_targets: parse::<LoraTargets>(&self.targets.get()),
            micro_batch,
            sequence_length,
            gradient_accumulation,
            precision: parse::<TrainPrecision>(&self.precision.get()),
            optimizer: parse::<Optimizer>(&self.optimizer.get()),
            optimizer_in_backward: self.in_backward.get(),
            checkpointing: parse::<Checkpointing>(&self.checkpointing.get()),
            flash_attention: self.flash.get(),
            compiled: self.compiled.get(),
            lora_dropout: self.lora_dropout.get(),
            chunked_loss: self.chunked.get(),
            trainable_top_layers,
            sharding: parse::<Sharding>(&self.sharding.get()),
            tensor_parallel,
            pipeline_parallel,
            offload_optimizer: self.offload_opt.get(),
            offload_params: self.offload_params.get(),
            ..Train::default()
        }
    }
}
