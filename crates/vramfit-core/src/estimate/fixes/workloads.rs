//! The candidate changes of training and generation scenarios: checkpointing, an 8-bit
//! optimizer, a chunked loss, LoRA, QLoRA, ZeRO-3 over more cards, a smaller micro-batch; VAE
//! tiling, a bf16 or fp8 denoiser, a T5 left off when another text encoder stays, CPU offload,
//! the largest size or frame count that fits.

use super::with;
use crate::estimate::Estimate;
use crate::plans::change::Change;
use crate::scenario::{Hardware, Scenario, Workload};
use crate::workloads::diffusion::{Offload, PipelinePartFormat};
use crate::workloads::training::{Checkpointing, Method, Optimizer, Sharding};

pub(super) fn training(s: &Scenario, out: &mut Vec<(Change, Scenario)>) {
    let Workload::Train(t) = &s.workload else {
        return;
    };
    let mut push = |change, f: &dyn Fn(&mut crate::workloads::training::Train)| {
        let mut t2 = t.clone();
        f(&mut t2);
        out.push((change, with(s, |x| x.workload = Workload::Train(t2))));
    };
    if t.checkpointing != Checkpointing::Full {
        push(Change::Checkpointing, &|t| {
            t.checkpointing = Checkpointing::Full
        });
    }
    if t.optimizer == Optimizer::Adamw && t.method == Method::Full {
        push(Change::Optimizer8bit, &|t| {
            t.optimizer = Optimizer::Adamw8bit
        });
    }
    // A chunked loss only pays compiled (eager, every chunk's fp32 log-softmax stays saved).
    if !(t.chunked_loss && t.compiled) {
        push(Change::ChunkedLoss, &|t| {
            t.chunked_loss = true;
            t.compiled = true;
        });
    }
    if t.method == Method::Full {
        push(Change::Lora, &|t| t.method = Method::Lora);
    }
    if t.method != Method::Qlora {
        push(Change::Qlora, &|t| t.method = Method::Qlora);
    }
    if t.micro_batch > 1 {
        let m = t.micro_batch / 2;
        push(Change::MicroBatch { micro_batch: m }, &|t| {
            t.micro_batch = m
        });
    }
    if t.sharding != Sharding::Zero3 {
        if let Some(gpu) = &s.hardware.gpu {
            for count in [2u32, 4, 8] {
                if count > s.hardware.count {
                    let mut t2 = t.clone();
                    t2.sharding = Sharding::Zero3;
                    let sc = with(s, |x| {
                        x.workload = Workload::Train(t2);
                        x.hardware = Hardware {
                            gpu: Some(gpu.clone()),
                            count,
                            ..x.hardware.clone()
                        };
                    });
                    out.push((Change::Zero3 { count }, sc));
                    break;
                }
            }
        }
    }
}

pub(super) fn generation(s: &Scenario, e: &Estimate, out: &mut Vec<(Change, Scenario)>) {
    let (Workload::GenerateImage(g) | Workload::GenerateVideo(g)) = &s.workload else {
        return;
    };
    let video = matches!(s.workload, Workload::GenerateVideo(_));
    let mut push = |change, f: &dyn Fn(&mut crate::workloads::diffusion::Generation)| {
        let mut g2 = g.clone();
        f(&mut g2);
        let w = if video {
            Workload::GenerateVideo(g2)
        } else {
            Workload::GenerateImage(g2)
        };
        out.push((change, with(s, |x| x.workload = w)));
    };
    if !g.vae_tiling {
        push(Change::VaeTiling, &|g| g.vae_tiling = true);
    }
    // A denoiser published in fp32 (Wan) runs in bf16 in its diffusers recipe: half the bytes
    // at the precision it was trained in.
    let fp32_denoiser = crate::workloads::diffusion::pipeline_of(g).is_ok_and(|p| {
        p.parts.iter().any(|part| {
            part.role == crate::workloads::diffusion::pipelines::Role::Denoiser
                && part.default_format == PipelinePartFormat::Fp32
        })
    });
    if fp32_denoiser && g.denoiser_format.is_none() {
        push(Change::DenoiserBf16, &|g| {
            g.denoiser_format = Some(PipelinePartFormat::Bf16)
        });
    }
    if !matches!(
        g.denoiser_format,
        Some(PipelinePartFormat::Fp8 | PipelinePartFormat::Nf4 | PipelinePartFormat::GgufQ4KM)
    ) {
        push(Change::DenoiserFp8, &|g| {
            g.denoiser_format = Some(PipelinePartFormat::Fp8)
        });
    }
    // The T5 encoders the GPU still loads (`drop_text_encoders` already left out) — offered only
    // when another text encoder stays: a pipeline whose only encoder is a T5 (Wan's umT5,
    // CogVideoX, LTX-Video) cannot run without it.
    let loaded = crate::workloads::diffusion::part_bytes(g).unwrap_or_default();
    let encoders: Vec<&str> = crate::workloads::diffusion::pipeline_of(g)
        .map(|p| {
            p.parts
                .iter()
                .filter(|part| {
                    part.role == crate::workloads::diffusion::pipelines::Role::TextEncoder
                })
                .map(|part| part.id)
                .filter(|id| loaded.iter().any(|(l, _)| l == id))
                .collect()
        })
        .unwrap_or_default();
    let t5: Vec<String> = encoders
        .iter()
        .filter(|id| id.contains("t5"))
        .map(|id| id.to_string())
        .collect();
    if !t5.is_empty() && t5.len() < encoders.len() {
        push(Change::DropT5, &|g| {
            g.drop_text_encoders.extend(t5.iter().cloned())
        });
    }
    for mode in [Offload::Model, Offload::Sequential] {
        if g.offload as u8 >= mode as u8 {
            continue;
        }
        push(Change::Offload { mode }, &|g| g.offload = mode);
    }
    if let Some(max) = e.generation_max.and_then(|m| u32::try_from(m).ok()) {
        if video && max < g.frames {
            push(Change::Frames { frames: max }, &|g| g.frames = max);
        } else if !video && max < g.width.max(g.height) {
            push(Change::ImageSize { side: max }, &|g| {
                g.width = max;
                g.height = max;
            });
        }
    }
}
