//! The image / video generation fieldset: pipeline, size, frames, batch, guidance, attention,
//! offload, VAE tiling and slicing, and the formats of the denoiser and text encoders.

use crate::ui::field::{Input, Problem};
use crate::ui::locale::locale;
use crate::ui::text::{self, f, t};
use crate::ui::widgets::{choices, field_error, CheckField, NumberField, SelectField};
use crate::workload::gen::form::GenForm;
use leptos::prelude::*;
use vramfit_core::{Attention, Offload, PipelinePartFormat, PIPELINES};
use vramfit_i18n::Key;

/// The generation knobs.
#[component]
pub fn GenInputs(
    /// Generation fields.
    form: GenForm,
    /// Video (frames) or image.
    video: bool,
    /// Current problems per field.
    problems: Memo<Vec<(Input, Problem)>>,
) -> impl IntoView {
    let l = locale();
    let err = move |name: &'static str| field_error(problems, Input::Generation(name), l);
    let pipeline = if video {
        form.video_pipeline
    } else {
        form.image_pipeline
    };
    let pipelines: Vec<(&'static str, &'static str)> = PIPELINES
        .iter()
        .filter(|p| p.video == video)
        .map(|p| (p.id, p.name))
        .collect();
    let has_t5 = move || {
        let id = pipeline.get();
        PIPELINES.iter().find(|p| p.id == id).is_some_and(|p| {
            p.parts.iter().any(|x| x.id.contains("t5"))
                && p.parts.iter().filter(|x| x.id.contains("clip")).count() > 0
        })
    };
    let formats = move || {
        let mut v = vec![("", t(l, Key::AsCheckpoint))];
        v.extend(
            PipelinePartFormat::ALL
                .into_iter()
                .map(|f| (f.id(), f.id())),
        );
        v
    };
    view! {
        <fieldset data-testid="generation">
            <legend>{t(l, Key::GenLegend)}</legend>
            <SelectField id="pipeline" label=t(l, Key::PipelineLabel) value=pipeline options=pipelines />
            <div class="row">
                <NumberField id="width" label=t(l, Key::WidthLabel) value=form.width error=err("width") />
                <NumberField id="height" label=t(l, Key::HeightLabel) value=form.height error=err("height") />
            </div>
            <div class="row">
                {video.then(|| view! { <NumberField id="frames" label=t(l, Key::FramesLabel) value=form.frames error=err("frames") /> })}
                <NumberField id="batch" label=t(l, Key::BatchLabel) value=form.batch error=err("batch") />
            </div>
            <p class="err" role="alert" data-testid="err-pipeline">{move || err("pipeline").get()}</p>
            // A guidance-distilled pipeline (FLUX.1, HunyuanVideo) has no classifier-free pass:
            // the switch would change nothing, so the page says why instead of showing it.
            {move || match PIPELINES.iter().find(|p| p.id == pipeline.get()) {
                Some(p) if !p.cfg => view! {
                    <p class="hint" data-testid="guidance-distilled">
                        {f(l, Key::GuidanceDistilled, &[("pipeline", p.name)])}
                    </p>
                }.into_any(),
                _ => view! { <CheckField id="guidance" label=t(l, Key::GuidanceLabel) value=form.guidance /> }.into_any(),
            }}
            <div class="row">
                <SelectField id="attention" label=t(l, Key::AttentionLabel) value=form.attention
                    options=choices(&Attention::ALL, Attention::id, |a| text::attention(l, a)) />
                <SelectField id="offload" label=t(l, Key::OffloadLabel) value=form.offload
                    options=choices(&Offload::ALL, Offload::id, |o| text::offload(l, o)) />
            </div>
            <CheckField id="vae_tiling" label=t(l, Key::VaeTiling) value=form.tiling />
            <CheckField id="vae_slicing" label=t(l, Key::VaeSlicing) value=form.slicing />
            <Show when=has_t5>
                <CheckField id="drop_t5" label=t(l, Key::DropT5) value=form.drop_t5 />
            </Show>
            <div class="row">
                <SelectField id="denoiser_format" label=t(l, Key::DenoiserFormat) value=form.denoiser_format options=formats() />
                <SelectField id="text_encoder_format" label=t(l, Key::TextEncoderFormat) value=form.text_format options=formats() />
            </div>
        </fieldset>
    }
}
