//! The software stack: whether a scenario's engine, weight format and training kernels run on a
//! card at all. A card short of memory does not run the model; a card the software does not
//! support does not either: the recommendation never offers one, and the user's own card gets
//! the verdict "does not fit" with the reason `SoftwareDoesNotRun` (`estimate/mod.rs`,
//! `with_software`), whatever its memory says.
//!
//! The rules, each from the project's own install or support page (read 2026):
//! - **vLLM** (docs "GPU installation"): NVIDIA compute capability 7.0 or higher (Volta on), AMD
//!   ROCm (MI200 / MI300 Instinct, Radeon RX 7900 and 9000), Intel XPU (Arc, Data Center GPU
//!   Max) and Gaudi (the `vllm-gaudi` plugin). Not Pascal; on Apple silicon vLLM runs on the
//!   CPU only, so not on the GPU.
//! - **SGLang** (docs "Install"): NVIDIA sm75 and newer (its FlashInfer kernels), AMD Instinct
//!   (MI300 class). Not Radeon, Intel, Gaudi or Apple.
//! - **llama.cpp** (README "Supported backends"): CUDA, HIP (ROCm), Vulkan, SYCL and Metal: every
//!   card here except Gaudi.
//! - **Transformers / PyTorch**: CUDA, ROCm, Apple MPS, Intel XPU and Gaudi (`optimum-habana`).
//! - **bitsandbytes** (LLM.int8, NF4 / FP4, the 8-bit optimizers): CUDA is the supported backend;
//!   its ROCm and Intel builds are previews, so the check keeps it to NVIDIA (Maxwell on; every
//!   NVIDIA card in the catalog).
//! - **bfloat16**: NVIDIA Ampere and newer compute in bf16 (cuBLAS); on Pascal, Volta and Turing
//!   vLLM refuses to start ("Bfloat16 is only supported on GPUs with compute capability of at
//!   least 8.0 … use float16 instead"), and PyTorch's bf16 autocast / pure-bf16 training is not
//!   supported there. llama.cpp converts what it loads, so GGUF runs anywhere.
//! - **FP8 weights**: native FP8 matrix units on Ada, Hopper, Blackwell and CDNA3 (MI300 on);
//!   vLLM also runs FP8 checkpoints on Ampere through its weight-only FP8 Marlin kernels.
//!   Nothing older.
//! - **GPTQ / AWQ int4**: vLLM's Marlin / exllama kernels need sm75 and newer on NVIDIA, and run
//!   on ROCm; not on Apple or Intel in vLLM, SGLang or Transformers.
//! - **MXFP4** (gpt-oss): vLLM's Triton / Marlin / FlashInfer paths from Ampere on, and CDNA3.
//! - **FlashAttention 2** (training's `flash_attention`): NVIDIA Ampere and newer, AMD Instinct.
//!
//! GGUF formats are llama.cpp's own and follow its backends.

use crate::inputs::catalog::{Gpu, GpuArch, Vendor};
use crate::inputs::format::WeightFormat;
use crate::scenario::Workload;
use crate::workloads::engine::{Engine, EngineKind};
use serde::Serialize;

/// Why a scenario's software does not run on a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum StackGap {
    /// The serving engine has no backend for this card.
    Engine {
        /// The engine.
        engine: EngineKind,
    },
    /// bitsandbytes (its 4-bit / 8-bit weights or 8-bit optimizers) needs CUDA.
    Bitsandbytes,
    /// bfloat16 needs NVIDIA Ampere or newer (fp16 runs on older cards).
    Bf16,
    /// FP8 weights need FP8 matrix units (Ada, Hopper, Blackwell, MI300; vLLM also Ampere).
    Fp8,
    /// GPTQ / AWQ int4 kernels need NVIDIA sm75 or newer, or ROCm.
    Int4Kernels,
    /// MXFP4 kernels need NVIDIA Ampere or newer, or CDNA3.
    Mxfp4,
    /// FlashAttention 2 needs NVIDIA Ampere or newer, or AMD Instinct.
    FlashAttention,
}

/// Whether `gpu` runs the scenario's workload with its engine and formats; the first gap found
/// otherwise.
pub fn check(
    gpu: &Gpu,
    workload: &Workload,
    engine: Option<&Engine>,
    weights: WeightFormat,
) -> Result<(), StackGap> {
    let kind = engine.map(Engine::kind);
    if let Some(k) = kind {
        if !engine_runs(k, gpu) {
            return Err(StackGap::Engine { engine: k });
        }
    }
    let model = workload.needs_model();
    if model {
        format_runs(weights, kind, gpu)?;
    }
    let old_nvidia = gpu.vendor == Vendor::Nvidia
        && matches!(gpu.arch, GpuArch::Pascal | GpuArch::Volta | GpuArch::Turing);
    if old_nvidia && model && kind != Some(EngineKind::LlamaCpp) {
        let bf16 = match workload {
            Workload::Train(t) => matches!(
                t.precision,
                crate::workloads::training::TrainPrecision::AmpBf16
                    | crate::workloads::training::TrainPrecision::Bf16
            ),
            _ => weights == WeightFormat::Bf16,
        };
        if bf16 {
            return Err(StackGap::Bf16);
        }
    }
    if let Workload::Train(t) = workload {
        use crate::workloads::training::{Method, Optimizer};
        let bnb = t.method == Method::Qlora
            || matches!(
                t.optimizer,
                Optimizer::Adamw8bit | Optimizer::PagedAdamw8bit
            );
        if bnb && gpu.vendor != Vendor::Nvidia {
            return Err(StackGap::Bitsandbytes);
        }
        if t.flash_attention && !flash_attention_runs(gpu) {
            return Err(StackGap::FlashAttention);
        }
    }
    Ok(())
}

/// Whether an engine has a backend for the card.
pub fn engine_runs(engine: EngineKind, gpu: &Gpu) -> bool {
    use GpuArch as A;
    match engine {
        EngineKind::Vllm => match gpu.vendor {
            Vendor::Nvidia => gpu.arch != A::Pascal,
            Vendor::Amd | Vendor::Intel => true,
            Vendor::Apple => false,
        },
        EngineKind::Sglang => match gpu.vendor {
            Vendor::Nvidia => !matches!(gpu.arch, A::Pascal | A::Volta),
            Vendor::Amd => gpu.arch == A::Cdna,
            Vendor::Intel | Vendor::Apple => false,
        },
        EngineKind::LlamaCpp => gpu.arch != A::Gaudi,
        EngineKind::Transformers => true,
    }
}

fn format_runs(w: WeightFormat, engine: Option<EngineKind>, gpu: &Gpu) -> Result<(), StackGap> {
    use GpuArch as A;
    let nvidia = gpu.vendor == Vendor::Nvidia;
    match w {
        WeightFormat::BnbInt8 | WeightFormat::BnbNf4 { .. } | WeightFormat::BnbFp4 { .. }
            if !nvidia =>
        {
            Err(StackGap::Bitsandbytes)
        }
        WeightFormat::Fp8 | WeightFormat::Fp8Block => {
            let native = matches!(gpu.arch, A::Ada | A::Hopper | A::Blackwell)
                || (gpu.arch == A::Cdna && cdna3(gpu))
                || gpu.arch == A::Gaudi;
            let marlin = gpu.arch == A::Ampere && engine == Some(EngineKind::Vllm);
            if native || marlin {
                Ok(())
            } else {
                Err(StackGap::Fp8)
            }
        }
        WeightFormat::Gptq { .. } | WeightFormat::Awq { .. } | WeightFormat::Int4 => {
            let ok = match gpu.vendor {
                Vendor::Nvidia => !matches!(gpu.arch, A::Pascal | A::Volta),
                Vendor::Amd => true,
                Vendor::Intel | Vendor::Apple => false,
            };
            if ok {
                Ok(())
            } else {
                Err(StackGap::Int4Kernels)
            }
        }
        WeightFormat::Mxfp4 if engine != Some(EngineKind::LlamaCpp) => {
            let ok = matches!(gpu.arch, A::Ampere | A::Ada | A::Hopper | A::Blackwell)
                || (gpu.arch == A::Cdna && cdna3(gpu));
            if ok {
                Ok(())
            } else {
                Err(StackGap::Mxfp4)
            }
        }
        _ => Ok(()),
    }
}

fn flash_attention_runs(gpu: &Gpu) -> bool {
    use GpuArch as A;
    matches!(gpu.arch, A::Ampere | A::Ada | A::Hopper | A::Blackwell) || gpu.arch == A::Cdna
}

/// CDNA3 and later (MI300 family, MI325X, MI355X): the Instinct parts with FP8 units.
fn cdna3(gpu: &Gpu) -> bool {
    gpu.id.starts_with("mi3")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::catalog::gpu;

    fn g(id: &str) -> &'static Gpu {
        gpu(id).expect("catalog card")
    }

    #[test]
    fn engines_follow_their_backends() {
        assert!(engine_runs(EngineKind::Vllm, g("h100-sxm-80gb")));
        assert!(engine_runs(EngineKind::Vllm, g("mi300x")));
        assert!(!engine_runs(EngineKind::Vllm, g("p40")));
        assert!(!engine_runs(EngineKind::Vllm, g("apple-m2-ultra-192gb")));
        assert!(!engine_runs(EngineKind::Sglang, g("rx-7900-xtx")));
        assert!(engine_runs(EngineKind::LlamaCpp, g("arc-pro-b60")));
        assert!(engine_runs(EngineKind::LlamaCpp, g("apple-m4-max-128gb")));
        assert!(!engine_runs(EngineKind::LlamaCpp, g("gaudi3")));
    }

    #[test]
    fn formats_follow_their_kernels() {
        let serve = Workload::Inference(crate::workloads::engine::Inference::default());
        let fp8 = WeightFormat::Fp8;
        assert_eq!(check(g("h100-sxm-80gb"), &serve, None, fp8), Ok(()));
        assert_eq!(check(g("t4"), &serve, None, fp8), Err(StackGap::Fp8));
        assert_eq!(check(g("mi210"), &serve, None, fp8), Err(StackGap::Fp8));
        assert_eq!(check(g("mi300x"), &serve, None, fp8), Ok(()));
        let nf4 = WeightFormat::from_id("bnb-nf4").expect("format");
        assert_eq!(
            check(g("mi300x"), &serve, None, nf4),
            Err(StackGap::Bitsandbytes)
        );
        assert_eq!(check(g("rtx-4090"), &serve, None, nf4), Ok(()));
        let bf16 = WeightFormat::Bf16;
        assert_eq!(check(g("t4"), &serve, None, bf16), Err(StackGap::Bf16));
        assert_eq!(check(g("t4"), &serve, None, WeightFormat::Fp16), Ok(()));
        assert_eq!(check(g("a10g"), &serve, None, bf16), Ok(()));
    }
}
