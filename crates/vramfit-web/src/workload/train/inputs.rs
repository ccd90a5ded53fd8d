//! The training fieldset: method, LoRA, batch and sequence, precision, optimizer, checkpointing,
//! parallelism and offload.

use crate::ui::field::{Input, Problem};
use crate::ui::locale::locale;
use crate::ui::text::{self, t};
use crate::ui::widgets::{choices, field_error, CheckField, NumberField, SelectField};
use crate::workload::train::form::TrainForm;
use leptos::prelude::*;
use vramfit_core::{Checkpointing, LoraTargets, Method, Optimizer, Sharding, TrainPrecision};
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
    let lora = move || form.method.get() != Method::Full.id();
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
    view! {
        <fieldset>
            <legend>{t(l, Key::TrainLegend)}</legend>
            <SelectField id="method" label=t(l, Key::TrainMethod) value=form.method
                options=choices(&Method::ALL, Method::id, |m| text::method(l, m)) />
            <Show when=lora>
                <div class="row">
                    <NumberField id="lora_rank" label=t(l, Key::LoraRank) value=form.rank error=err("lora_rank") />
                    <SelectField id="lora_targets" label=t(l, Key::LoraTargetsLabel) value=form.targets
                        options=choices(&LoraTargets::ALL, LoraTargets::id, |x| text::lora_targets(l, x)) />
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
                options=choices(&TrainPrecision::ALL, TrainPrecision::id, |p| text::precision(l, p)) />
            <div class="row">
                <SelectField id="optimizer" label=t(l, Key::OptimizerLabel) value=form.optimizer
                    options=choices(&Optimizer::ALL, Optimizer::id, |o| text::optimizer(l, o)) />
                <SelectField id="checkpointing" label=t(l, Key::CheckpointingLabel) value=form.checkpointing
                    options=choices(&Checkpointing::ALL, Checkpointing::id, |c| text::checkpointing(l, c)) />
            </div>
            <CheckField id="optimizer_in_backward" label=t(l, Key::OptInBackward) value=form.in_backward />
            <CheckField id="flash_attention" label=t(l, Key::FlashAttention) value=form.flash />
            <CheckField id="compiled" label=t(l, Key::Compiled) value=form.compiled />
            <CheckField id="chunked_loss" label=t(l, Key::ChunkedLoss) value=form.chunked />
            <SelectField id="sharding" label=t(l, Key::ShardingLabel) value=form.sharding
                options=choices(&Sharding::ALL, Sharding::id, |x| text::sharding(l, x)) />
            <div class="row">
                <NumberField id="tensor_parallel" label=t(l, Key::TensorParallelLabel) value=form.tp error=err("tensor_parallel") />
                <NumberField id="pipeline_parallel" label=t(l, Key::PipelineParallelLabel) value=form.pp error=err("pipeline_parallel") />
            </div>
            <CheckField id="offload_optimizer" label=t(l, Key::OffloadOptimizer) value=form.offload_opt />
            <CheckField id="offload_params" label=t(l, Key::OffloadParams) value=form.offload_params />
        </fieldset>
    }
}
