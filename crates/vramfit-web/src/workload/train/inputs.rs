//! The training fieldset: method, LoRA, batch and sequence, precision, optimizer, checkpointing,
//! parallelism and offload.

use crate::ui::field::{Input, Problem};
use crate::ui::locale::locale;
use crate::ui::text::t;
use crate::ui::widgets::{field_error, NumberField};
use crate::ui::widgets::{CheckField, SelectField};
use crate::workload::train::form::TrainForm;
use leptos::prelude::*;
use vramfit_i18n::Key;

/// The training knobs.
#[component]
pub fn TrainInputs(
    /// Training fields.
    form: TrainForm,
    /// Current problems per field.
    problems: Memo<Vec<(Input, Problem)>>,
) -> impl IntoView {
    let l = locale();
    let err = move |name: &'static str| field_error(problems, Input::Train(name), l);
    let lora = move || form.method.get() != "full";
    // Choosing a method starts from its recipe's checkpointing (QLoRA: peft turns it on); a
    // choice the user made afterwards stays.
    Effect::new(move |previous: Option<String>| {
        let method = form.method.get();
        if previous.is_some_and(|p| p != method) {
            if let Ok(m) = serde_json::from_value::<vramfit_core::Method>(
                serde_json::Value::String(method.clone()),
            ) {
                let ck = m.recipe_checkpointing();
                if ck != vramfit_core::Checkpointing::None {
                    form.checkpointing.set(
                        serde_json::to_value(ck)
                            .ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default(),
                    );
                }
            }
        }
        method
    });
    let opts = move |pairs: &[(&'static str, Key)]| -> Vec<(&'static str, &'static str)> {
        pairs.iter().map(|&(v, k)| (v, t(l, k))).collect()
    };
    view! {
        <fieldset>
            <legend>{t(l, Key::TrainLegend)}</legend>
            <SelectField id="method" label=t(l, Key::TrainMethod) value=form.method
                options=opts(&[("full", Key::MethodFull), ("lora", Key::MethodLora), ("qlora", Key::MethodQlora)]) />
            <Show when=lora>
                <div class="row">
                    <NumberField id="lora_rank" label=t(l, Key::LoraRank) value=form.rank error=err("lora_rank") />
                    <SelectField id="lora_targets" label=t(l, Key::LoraTargetsLabel) value=form.targets
                        options=opts(&[("query_value", Key::TargetsQv), ("query_key_value", Key::TargetsQkv), ("attention", Key::TargetsAttention), ("all_linear", Key::TargetsAllLinear)]) />
                </div>
                <CheckField id="lora_dropout" label=t(l, Key::LoraDropout) value=form.lora_dropout />
            </Show>
            <div class="row">
                <NumberField id="micro_batch" label=t(l, Key::MicroBatch) value=form.micro_batch error=err("micro_batch") />
                <NumberField id="sequence_length" label=t(l, Key::SequenceLength) value=form.seq_len error=err("sequence_length") />
            </div>
            <div class="row">
                <NumberField id="gradient_accumulation" label=t(l, Key::GradAccum) value=form.accumulation error=err("gradient_accumulation") />
                <NumberField id="trainable_top_layers" label=t(l, Key::TopLayers) value=form.top_layers error=err("trainable_top_layers") />
            </div>
            <SelectField id="precision" label=t(l, Key::PrecisionLabel) value=form.precision
                options=opts(&[("bf16", Key::PrecBf16), ("mixed_master", Key::PrecMixedMaster), ("amp_bf16", Key::PrecAmpBf16), ("amp_fp16", Key::PrecAmpFp16), ("fp32", Key::PrecFp32)]) />
            <div class="row">
                <SelectField id="optimizer" label=t(l, Key::OptimizerLabel) value=form.optimizer
                    options=vec![("adamw", "AdamW"), ("adamw8bit", t(l, Key::OptAdamw8bit)), ("paged_adamw8bit", t(l, Key::OptPaged)), ("adafactor", "Adafactor"), ("lion", "Lion"), ("sgd_momentum", t(l, Key::OptSgdMomentum)), ("sgd", t(l, Key::OptSgd))] />
                <SelectField id="checkpointing" label=t(l, Key::CheckpointingLabel) value=form.checkpointing
                    options=opts(&[("none", Key::CkptNone), ("selective", Key::CkptSelective), ("full", Key::CkptFull)]) />
            </div>
            <CheckField id="optimizer_in_backward" label=t(l, Key::OptInBackward) value=form.in_backward />
            <CheckField id="flash_attention" label=t(l, Key::FlashAttention) value=form.flash />
            <CheckField id="compiled" label=t(l, Key::Compiled) value=form.compiled />
            <CheckField id="chunked_loss" label=t(l, Key::ChunkedLoss) value=form.chunked />
            <SelectField id="sharding" label=t(l, Key::ShardingLabel) value=form.sharding
                options=opts(&[("ddp", Key::ShardDdp), ("zero1", Key::ShardZero1), ("zero2", Key::ShardZero2), ("zero3", Key::ShardZero3), ("hybrid", Key::ShardHybrid)]) />
            <div class="row">
                <NumberField id="tensor_parallel" label=t(l, Key::TensorParallelLabel) value=form.tp error=err("tensor_parallel") />
                <NumberField id="pipeline_parallel" label=t(l, Key::PipelineParallelLabel) value=form.pp error=err("pipeline_parallel") />
            </div>
            <CheckField id="offload_optimizer" label=t(l, Key::OffloadOptimizer) value=form.offload_opt />
            <CheckField id="offload_params" label=t(l, Key::OffloadParams) value=form.offload_params />
        </fieldset>
    }
}
