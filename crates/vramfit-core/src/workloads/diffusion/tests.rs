//! Unit tests of the diffusion model.

use super::*;
use crate::units::bytes::GIB;

fn gen(pipeline: &str, w: u32, h: u32, frames: u32) -> Generation {
    Generation {
        pipeline: pipeline.into(),
        width: w,
        height: h,
        frames,
        batch: 1,
        guidance: true,
        attention: Attention::Sdpa,
        offload: Offload::None,
        vae_tiling: false,
        vae_slicing: false,
        drop_text_encoders: Vec::new(),
        denoiser_format: None,
        text_encoder_format: None,
    }
}

const CARD: Card = Card {
    gpu: None,
    capacity_bytes: 80 * GIB,
    arch: None,
    pcie_only: false,
};

#[test]
fn formats() {
    assert_eq!(PipelinePartFormat::GgufQ8_0.bits_x100(), 850);
    assert_eq!(PipelinePartFormat::GgufQ6K.bits_x100(), 656);
    assert_eq!(PipelinePartFormat::GgufQ4KM.bits_x100(), 450);
    assert_eq!(PipelinePartFormat::Nf4.bits_x100(), 450);
    assert_eq!(PipelinePartFormat::Bf16.bytes(10), 20);
}

#[test]
fn validation() {
    assert!(matches!(
        pipeline_of(&gen("nope", 512, 512, 1)),
        Err(DiffusionError::UnknownPipeline { .. })
    ));
    assert_eq!(
        pipeline_of(&gen("flux1-dev", 1000, 1024, 1)),
        Err(DiffusionError::SizeNotMultiple { multiple: 16 })
    );
    assert_eq!(
        pipeline_of(&gen("flux1-dev", 1024, 1024, 5)),
        Err(DiffusionError::ImagePipelineTakesOneFrame)
    );
    assert_eq!(
        pipeline_of(&gen("wan21-t2v-1.3b", 832, 480, 80)),
        Err(DiffusionError::VideoPipelineNeedsFrames)
    );
    assert!(pipeline_of(&gen("ltx-video", 768, 512, 161)).is_ok());
    let mut g = gen("sd35-medium", 1024, 1024, 1);
    g.drop_text_encoders = vec!["t5_xxl".into()];
    assert!(pipeline_of(&g).is_ok());
    g.drop_text_encoders = vec!["vae".into()];
    assert!(matches!(
        pipeline_of(&g),
        Err(DiffusionError::UnknownPart { .. })
    ));
    let mut g = gen("sdxl", 1024, 1024, 1);
    g.batch = 0;
    assert!(matches!(
        pipeline_of(&g),
        Err(DiffusionError::OutOfRange { field: "batch", .. })
    ));
}

#[test]
fn every_pipeline_estimates_and_offload_helps() {
    for p in pipelines::PIPELINES {
        let mut g = if p.video {
            gen(p.id, 832, 480, 1 + 4 * p.temporal_factor)
        } else {
            gen(p.id, 1024, 1024, 1)
        };
        if p.id == "ltx-video" {
            g.width = 768;
            g.height = 512;
        }
        let peak = |g: &Generation| {
            generation_budget(g, &CARD)
                .map_or(0, |b| b.phases.iter().map(|x| x.1).max().unwrap_or(0))
        };
        let none = peak(&g);
        g.offload = Offload::Sequential;
        g.vae_tiling = true;
        let seq = peak(&g);
        assert!(seq > 0 && seq < none, "{}", p.id);
        assert!(!sweep(&g, &CARD, 8).is_empty(), "{}", p.id);
    }
}

#[test]
fn naive_attention_grows_quadratically() {
    let mut g = gen("sd15", 512, 512, 1);
    let sdpa = generation_budget(&g, &CARD)
        .map(|b| b.phases[1].1)
        .unwrap_or(0);
    g.attention = Attention::Naive;
    let naive = generation_budget(&g, &CARD)
        .map(|b| b.phases[1].1)
        .unwrap_or(0);
    // 2 (CFG) × 8 heads × 4096² × 2 (scores, softmax) × 2 B = 1 GiB, at the attention instead of
    // the GEGLU peak (12 maps of 320 × 4096 × 2 B × 2 less).
    assert!(naive - sdpa >= GIB - GIB / 16 && naive - sdpa < GIB + GIB / 4);
}

#[test]
fn every_pipeline_has_repo_ids() {
    use crate::inputs::catalog::pipeline_repo_ids;
    for p in pipelines::PIPELINES {
        assert!(!pipeline_repo_ids(p.id).is_empty(), "{}", p.id);
    }
    assert!(pipeline_repo_ids("nope").is_empty());
}
