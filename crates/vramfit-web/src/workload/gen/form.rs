//! The image / video generation knobs as text fields and selects, and their conversion to the
//! core's `Generation`.

use crate::ui::field::{parse_whole, Input, Problem};
use leptos::prelude::*;
use vramfit_core::{Attention, Generation, Offload, PipelinePartFormat};

/// Every generation field.
#[derive(Clone, Copy)]
pub struct GenForm {
    /// Pipeline id for images.
    pub image_pipeline: RwSignal<String>,
    /// Pipeline id for videos.
    pub video_pipeline: RwSignal<String>,
    /// Width, px.
    pub width: RwSignal<String>,
    /// Height, px.
    pub height: RwSignal<String>,
    /// Frames (video).
    pub frames: RwSignal<String>,
    /// Images or videos per prompt.
    pub batch: RwSignal<String>,
    /// Classifier-free guidance.
    pub guidance: RwSignal<bool>,
    /// `sdpa` or `naive`.
    pub attention: RwSignal<String>,
    /// `none`, `model`, `sequential`.
    pub offload: RwSignal<String>,
    /// VAE tiling.
    pub tiling: RwSignal<bool>,
    /// VAE slicing.
    pub slicing: RwSignal<bool>,
    /// Drop the T5 encoder.
    pub drop_t5: RwSignal<bool>,
    /// Denoiser format id ("" = as published).
    pub denoiser_format: RwSignal<String>,
    /// Text encoder format id ("" = as published).
    pub text_format: RwSignal<String>,
}

fn name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn parse<T: serde::de::DeserializeOwned>(s: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

impl GenForm {
    /// Fields showing `g` (for an image or a video workload), with sensible defaults otherwise.
    pub fn new(g: Option<&Generation>, video: bool) -> GenForm {
        let start = Generation::starting_point(video);
        let image = Generation::starting_point(false).pipeline;
        let video_default = Generation::starting_point(true).pipeline;
        GenForm {
            image_pipeline: RwSignal::new(
                g.filter(|_| !video).map_or(image, |g| g.pipeline.clone()),
            ),
            video_pipeline: RwSignal::new(
                g.filter(|_| video)
                    .map_or(video_default, |g| g.pipeline.clone()),
            ),
            width: RwSignal::new(g.map_or(start.width, |g| g.width).to_string()),
            height: RwSignal::new(g.map_or(start.height, |g| g.height).to_string()),
            frames: RwSignal::new(g.map_or(start.frames, |g| g.frames).to_string()),
            batch: RwSignal::new(g.map_or(start.batch, |g| g.batch).to_string()),
            guidance: RwSignal::new(g.is_none_or(|g| g.guidance)),
            attention: RwSignal::new(name(&g.map_or(Attention::Sdpa, |g| g.attention))),
            offload: RwSignal::new(name(&g.map_or(Offload::None, |g| g.offload))),
            tiling: RwSignal::new(g.is_some_and(|g| g.vae_tiling)),
            slicing: RwSignal::new(g.is_some_and(|g| g.vae_slicing)),
            drop_t5: RwSignal::new(
                g.is_some_and(|g| g.drop_text_encoders.iter().any(|p| p.contains("t5"))),
            ),
            denoiser_format: RwSignal::new(
                g.and_then(|g| g.denoiser_format)
                    .map(|f| f.id().to_string())
                    .unwrap_or_default(),
            ),
            text_format: RwSignal::new(
                g.and_then(|g| g.text_encoder_format)
                    .map(|f| f.id().to_string())
                    .unwrap_or_default(),
            ),
        }
    }

    /// The `Generation` the fields describe (image or video), pushing a problem per bad field.
    pub fn generation(&self, video: bool, problems: &mut Vec<(Input, Problem)>) -> Generation {
        let mut whole = |field: &'static str, text: String, default: u32| match parse_whole(&text) {
            Ok(n) => n,
            Err(p) => {
                problems.push((Input::Generation(field), p));
                default
            }
        };
        let pipeline = if video {
            self.video_pipeline.get()
        } else {
            self.image_pipeline.get()
        };
        let drop = if self.drop_t5.get() {
            vramfit_core::PIPELINES
                .iter()
                .find(|p| p.id == pipeline)
                .map(|p| {
                    p.parts
                        .iter()
                        .filter(|x| x.id.contains("t5"))
                        .map(|x| x.id.to_string())
                        .collect()
                })
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        Generation {
            width: whole("width", self.width.get(), 1024),
            height: whole("height", self.height.get(), 1024),
            frames: if video {
                whole("frames", self.frames.get(), 81)
            } else {
                1
            },
            batch: whole("batch", self.batch.get(), 1),
            pipeline,
            guidance: self.guidance.get(),
            attention: parse::<Attention>(&self.attention.get()).unwrap_or_default(),
            offload: parse::<Offload>(&self.offload.get()).unwrap_or_default(),
            vae_tiling: self.tiling.get(),
            vae_slicing: self.slicing.get(),
            drop_text_encoders: drop,
            denoiser_format: PipelinePartFormat::from_id(&self.denoiser_format.get()),
            text_encoder_format: PipelinePartFormat::from_id(&self.text_format.get()),
        }
    }
}
