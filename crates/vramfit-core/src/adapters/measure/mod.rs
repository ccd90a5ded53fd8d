//! "Measure it": ready-to-run measurement commands for the scenario on screen, and a reader for
//! what they print, so the user can put measured figures beside the estimate.
//!
//! - [`pytorch_script`]: loads the model with `transformers` in the scenario's format, runs one
//!   `generate` at the scenario's batch and context, and prints `torch.cuda.max_memory_allocated`,
//!   `max_memory_reserved` and the device-level used memory (`torch.cuda.mem_get_info`, the same
//!   view as `nvidia-smi`). A test compiles it with `python3 -m py_compile`.
//! - [`vllm_command`], [`llama_server_command`]: the engine command lines with the matching flags.
//! - [`parse_measured`]: reads the script's output, vLLM's start-up log (`model weights take`,
//!   `non_torch_memory takes`, `PyTorch activation peak memory takes`, `KV Cache is`, `GPU KV cache
//!   size: N tokens`, `Maximum concurrency for N tokens per request: Xx`, 0.6's `Loading model
//!   weights took`) and llama.cpp's buffer lines (`model buffer size`, `KV buffer size`, `compute
//!   buffer size`, MiB).

mod commands;
mod train;

pub use commands::{llama_server_command, vllm_command};
pub use train::training_script;

use crate::inputs::catalog::{self, CatalogModel};
use crate::inputs::format::WeightFormat;
use crate::scenario::{ModelSource, Scenario, Workload};
use crate::workloads::engine::Engine;
use serde::Serialize;

/// Figures read from pasted output, in GiB unless noted. Absent: not found.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Measured {
    /// Weights (vLLM "model weights", llama.cpp model buffers).
    pub weights_gib: Option<f64>,
    /// KV cache (vLLM, llama.cpp KV buffers).
    pub kv_cache_gib: Option<f64>,
    /// Activation peak (vLLM) or compute buffers (llama.cpp).
    pub activations_gib: Option<f64>,
    /// Non-torch memory (vLLM).
    pub non_torch_gib: Option<f64>,
    /// KV cache tokens (vLLM).
    pub kv_tokens: Option<u64>,
    /// Maximum concurrency (vLLM).
    pub max_concurrency: Option<f64>,
    /// Peak allocated (PyTorch script).
    pub allocated_gib: Option<f64>,
    /// Peak reserved (PyTorch script).
    pub reserved_gib: Option<f64>,
    /// Used on the device (PyTorch script, nvidia-smi view).
    pub device_used_gib: Option<f64>,
}

impl Measured {
    /// Whether anything was recognised.
    pub fn is_empty(&self) -> bool {
        *self == Measured::default()
    }
}

/// The first number after `marker` in `line`, with an optional unit suffix (GiB, GB taken as GiB
/// as vLLM prints, MiB). Digits as engines write them in English, `,` grouping thousands
/// (`23,024`), with an exponent (`1.5e3`); a lone `,` otherwise is a decimal comma (`12,5`, typed
/// by hand: `num::plain_decimal`). A figure with a sign before it, one no device holds
/// (past a petabyte) or one that is not a number at all is not a measurement: `None`, rather than
/// a figure without its sign or exponent.
fn number_after(line: &str, marker: &str) -> Option<(f64, &'static str)> {
    let lower = line.to_ascii_lowercase();
    let start = lower.find(&marker.to_ascii_lowercase())? + marker.len();
    let rest = &line[start..];
    let begin = rest.find(|c: char| c.is_ascii_digit())?;
    if rest[..begin].trim_end().ends_with(['-', '\u{2212}']) {
        return None;
    }
    let tail = &rest[begin..];
    let mut end = tail
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(tail.len());
    let mantissa_end = end;
    let b = tail.as_bytes();
    if matches!(b.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let digits = j;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        if j > digits {
            end = j;
        }
    }
    let mantissa =
        crate::units::num::plain_decimal(tail[..mantissa_end].trim_end_matches(['.', ',']), '.');
    let value = crate::units::num::parse(&format!("{mantissa}{}", &tail[mantissa_end..end]))
        .filter(|v| v.is_finite() && *v < 1e15)?;
    let unit_text = tail[end..].trim_start().to_ascii_lowercase();
    let unit = if unit_text.starts_with("mib") || unit_text.starts_with("mb") {
        "mib"
    } else {
        "gib"
    };
    Some((value, unit))
}

fn gib(v: (f64, &'static str)) -> f64 {
    match v.1 {
        "mib" => v.0 / 1024.0,
        _ => v.0,
    }
}

/// Reads measured figures from pasted text.
pub fn parse_measured(text: &str) -> Measured {
    let mut m = Measured::default();
    let (mut llama_model, mut llama_kv, mut llama_compute) = (0.0, 0.0, 0.0);
    let (mut seen_model, mut seen_kv, mut seen_compute) = (false, false, false);
    for line in text.lines() {
        let l = line.to_ascii_lowercase();
        let set = |slot: &mut Option<f64>, marker: &str| {
            if let Some(v) = number_after(line, marker) {
                *slot = Some(gib(v));
            }
        };
        if l.contains("max_memory_allocated") {
            set(&mut m.allocated_gib, "max_memory_allocated");
        }
        if l.contains("max_memory_reserved") {
            set(&mut m.reserved_gib, "max_memory_reserved");
        }
        if l.contains("device_used") {
            set(&mut m.device_used_gib, "device_used");
        }
        if l.contains("model weights take") {
            set(&mut m.weights_gib, "model weights take");
        } else if l.contains("loading model weights took") {
            set(&mut m.weights_gib, "weights took");
        } else if l.contains("model loading took") {
            set(&mut m.weights_gib, "model loading took");
        }
        if l.contains("non_torch_memory takes") {
            set(&mut m.non_torch_gib, "non_torch_memory takes");
        }
        if l.contains("activation peak memory takes") {
            set(&mut m.activations_gib, "activation peak memory takes");
        }
        if l.contains("reserved for kv cache is") {
            set(&mut m.kv_cache_gib, "reserved for kv cache is");
        } else if l.contains("available kv cache memory") {
            set(&mut m.kv_cache_gib, "available kv cache memory");
        }
        if l.contains("kv cache size:") {
            if let Some((v, _)) = number_after(line, "kv cache size:") {
                m.kv_tokens = Some(v as u64);
            }
        }
        if l.contains("maximum concurrency for") {
            if let Some(idx) = l.find("per request") {
                if let Some((v, _)) = number_after(&line[idx..], "per request") {
                    m.max_concurrency = Some(v);
                }
            }
        }
        if l.contains("model buffer size") && !l.contains("cpu") {
            if let Some(v) = number_after(line, "model buffer size") {
                llama_model += gib((v.0, "mib"));
                seen_model = true;
            }
        }
        if l.contains("kv buffer size") && !l.contains("cpu") {
            if let Some(v) = number_after(line, "kv buffer size") {
                llama_kv += gib((v.0, "mib"));
                seen_kv = true;
            }
        }
        if l.contains("compute buffer size") && !l.contains("cpu") && !l.contains("host") {
            if let Some(v) = number_after(line, "compute buffer size") {
                llama_compute += gib((v.0, "mib"));
                seen_compute = true;
            }
        }
    }
    if seen_model && m.weights_gib.is_none() {
        m.weights_gib = Some(llama_model);
    }
    if seen_kv && m.kv_cache_gib.is_none() {
        m.kv_cache_gib = Some(llama_kv);
    }
    if seen_compute && m.activations_gib.is_none() {
        m.activations_gib = Some(llama_compute);
    }
    m
}

/// The estimate's figures in the terms a measurement reports, so measured and estimated values
/// sit side by side. All per GPU, GiB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Comparable {
    /// Weights (with LoRA slots, as vLLM counts them).
    pub weights_gib: f64,
    /// KV cache.
    pub kv_cache_gib: f64,
    /// Activation peak (with the cuBLAS workspace).
    pub activations_gib: f64,
    /// Memory outside PyTorch that an engine profiler attributes to itself (engine overhead, NCCL).
    pub non_torch_gib: f64,
    /// What `torch.cuda.max_memory_allocated` should show: tensors only.
    pub allocated_gib: f64,
    /// What `torch.cuda.max_memory_reserved` should show: tensors plus the allocator's rounding.
    pub reserved_gib: f64,
    /// What the device (nvidia-smi) should show: everything.
    pub device_used_gib: f64,
    /// KV tokens, when an engine sizes the cache.
    pub kv_tokens: Option<u64>,
    /// Maximum concurrency, when an engine sizes the cache.
    pub max_concurrency: Option<f64>,
}

/// The comparable figures of an estimate's plan.
pub fn comparable(e: &crate::Estimate) -> Comparable {
    use crate::budget::ComponentId as C;
    let Some(plan) = &e.plan else {
        return Comparable::default();
    };
    let get = |ids: &[C]| -> f64 {
        plan.per_gpu_components
            .iter()
            .filter(|c| ids.contains(&c.id))
            .map(|c| crate::units::bytes::to_gib(c.bytes))
            .sum()
    };
    let weights = get(&[C::Weights, C::LoraAdapters]);
    let kv = get(&[C::KvCache]);
    let act = get(&[C::Activations, C::CublasWorkspace]);
    Comparable {
        weights_gib: weights,
        kv_cache_gib: kv,
        activations_gib: act,
        non_torch_gib: get(&[C::EngineOverhead, C::CommunicationBuffers]),
        allocated_gib: weights + kv + get(&[C::Activations, C::RequestPool]),
        reserved_gib: weights + kv + act + get(&[C::RequestPool, C::AllocatorReserve]),
        device_used_gib: crate::units::bytes::to_gib(plan.per_gpu_bytes),
        kv_tokens: e.kv_cache_tokens,
        max_concurrency: e.max_concurrency,
    }
}

fn repo(s: &Scenario) -> (String, Option<&'static CatalogModel>) {
    repo_of(s.model.as_ref())
}

/// The Hub repo a model source loads (a placeholder path for a pasted config).
fn repo_of(model: Option<&ModelSource>) -> (String, Option<&'static CatalogModel>) {
    match model {
        None => ("path/to/model".into(), None),
        Some(ModelSource::Catalog(id)) => match catalog::lookup(id) {
            // A repo id (`Qwen/Qwen2.5-7B-Instruct-AWQ`) is what the user loads; a catalog id loads
            // the entry's repo.
            Some(m) if id.contains('/') => (id.clone(), Some(m.model)),
            Some(m) => (m.model.hf_repo.to_string(), Some(m.model)),
            None => ("path/to/model".into(), None),
        },
        Some(ModelSource::HfConfig(_)) => ("path/to/your/model".into(), None),
    }
}

fn shape(s: &Scenario) -> (u32, u32) {
    s.workload.shape()
}

/// Escapes a string for a Python single-quoted literal.
fn py(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\'', "\\'")
}

/// A PyTorch / transformers script that reproduces the scenario and prints the peaks.
pub fn pytorch_script(s: &Scenario) -> String {
    let (repo, _) = repo(s);
    let (context, sequences) = shape(s);
    let new_tokens = 256.min(context.saturating_sub(1)).max(1);
    let prompt = context.saturating_sub(new_tokens).max(1);
    let (dtype, quant) = match s.weights {
        WeightFormat::Fp32 => ("torch.float32", String::new()),
        WeightFormat::Fp16 => ("torch.float16", String::new()),
        WeightFormat::BnbInt8 => (
            "torch.bfloat16",
            "quantization_config=BitsAndBytesConfig(load_in_8bit=True), ".into(),
        ),
        WeightFormat::BnbNf4 { double_quant } | WeightFormat::BnbFp4 { double_quant } => {
            let kind = if matches!(s.weights, WeightFormat::BnbFp4 { .. }) {
                "fp4"
            } else {
                "nf4"
            };
            let dq = if double_quant { "True" } else { "False" };
            ("torch.bfloat16", format!("quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type='{kind}', bnb_4bit_use_double_quant={dq}, bnb_4bit_compute_dtype=torch.bfloat16), "))
        }
        _ => ("torch.bfloat16", String::new()),
    };
    let note = match s.weights {
        WeightFormat::Gguf(_) => "# GGUF files are measured with llama.cpp (see the llama-server command); this script loads the original weights.\n",
        WeightFormat::Gptq { .. } | WeightFormat::Awq { .. } | WeightFormat::Fp8 | WeightFormat::Fp8Block | WeightFormat::Mxfp4 => "# Point MODEL at the quantised checkpoint (its config.json carries the quantization_config).\n",
        _ => "",
    };
    format!(
        r#"#!/usr/bin/env python3
# vramfit measurement script: one generate() at the scenario's batch and context.
# Needs: torch, transformers (and accelerate / bitsandbytes for quantised formats). Run on the target GPU.
{note}import torch
from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig

MODEL = '{repo}'
BATCH = {sequences}
PROMPT_TOKENS = {prompt}
NEW_TOKENS = {new_tokens}

GIB = 2 ** 30
torch.cuda.init()
free0, total = torch.cuda.mem_get_info()
DEVICES = list(range({gpus}))  # the plan's GPUs; layers are split over them (device_map)
model = AutoModelForCausalLM.from_pretrained(MODEL, {quant}torch_dtype={dtype}, device_map={device_map})
model.eval()
weights = max(torch.cuda.memory_allocated(d) for d in DEVICES) / GIB
vocab = model.config.get_text_config().vocab_size
ids = torch.randint(100, vocab - 100, (BATCH, PROMPT_TOKENS), device='cuda:0')
for d in DEVICES:
    torch.cuda.reset_peak_memory_stats(d)
with torch.inference_mode():
    model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=NEW_TOKENS,
                   min_new_tokens=NEW_TOKENS, do_sample=False)
torch.cuda.synchronize()
# The fullest GPU, as the estimate's per-GPU figures.
allocated = max(torch.cuda.max_memory_allocated(d) for d in DEVICES) / GIB
reserved = max(torch.cuda.max_memory_reserved(d) for d in DEVICES) / GIB
used = max(total - torch.cuda.mem_get_info(d)[0] for d in DEVICES) / GIB
print(f'weights_gib: {{weights:.3f}}')
print(f'max_memory_allocated_gib: {{allocated:.3f}}')
print(f'max_memory_reserved_gib: {{reserved:.3f}}')
print(f'device_used_gib: {{used:.3f}}  # includes the CUDA context; compare with nvidia-smi')
print(f'total_gib: {{total / GIB:.2f}}')
"#,
        repo = py(&repo),
        gpus = gpus(s),
        device_map = if gpus(s) > 1 { "'auto'" } else { "'cuda:0'" },
    )
}

/// GPUs of the scenario's plan (its `hardware.count`, or the engine's tensor-parallel size).
fn gpus(s: &Scenario) -> u32 {
    let cards = match s.hardware.mixed_ids().len() {
        0 => s.hardware.count,
        n => u32::try_from(n).unwrap_or(u32::MAX),
    };
    s.engine
        .as_ref()
        .and_then(Engine::tensor_parallel)
        .unwrap_or(cards)
        .max(1)
}

/// A diffusers script that runs the scenario's generation (pipeline, dtype, offload, VAE tiling
/// and slicing, size, frames, batch, guidance) and prints the peaks per GPU; `None` for
/// workloads that are not image or video generation.
pub fn diffusers_script(s: &Scenario) -> Option<String> {
    let (Workload::GenerateImage(g) | Workload::GenerateVideo(g)) = &s.workload else {
        return None;
    };
    let video = matches!(s.workload, Workload::GenerateVideo(_));
    // The dtype the budget loads the denoiser in (`workloads/diffusion`: the scenario's format, or
    // the checkpoint's: Wan's transformer is stored fp32), so that what is measured is what was
    // estimated; fp8 (layerwise casting) and quantised formats compute in bf16.
    let dtype = {
        use crate::workloads::diffusion::pipelines::Role;
        use crate::workloads::diffusion::{pipeline_of, PipelinePartFormat};
        let stored = pipeline_of(g).ok().and_then(|p| {
            p.parts
                .iter()
                .find(|part| part.role == Role::Denoiser)
                .map(|part| part.default_format)
        });
        match g.denoiser_format.or(stored) {
            Some(PipelinePartFormat::Fp32) => "torch.float32",
            Some(PipelinePartFormat::Fp16) => "torch.float16",
            _ => "torch.bfloat16",
        }
    };
    let repo = catalog::pipeline_repo_ids(&g.pipeline)
        .first()
        .copied()
        .unwrap_or("path/to/pipeline");
    let offload = match g.offload {
        crate::workloads::diffusion::Offload::None => "pipe.to('cuda')",
        crate::workloads::diffusion::Offload::Model => "pipe.enable_model_cpu_offload()",
        crate::workloads::diffusion::Offload::Sequential => "pipe.enable_sequential_cpu_offload()",
    };
    let mut setup = String::new();
    if g.vae_tiling {
        setup.push_str("pipe.vae.enable_tiling()\n");
    }
    if g.vae_slicing {
        setup.push_str("pipe.vae.enable_slicing()\n");
    }
    for part in &g.drop_text_encoders {
        setup.push_str(&format!(
            "# '{}' left off the GPU: pass precomputed prompt embeddings, or load the pipeline with that encoder set to None.\n",
            py(part)
        ));
    }
    let frames = if video {
        format!(", num_frames={}", g.frames)
    } else {
        String::new()
    };
    let guidance = if g.guidance {
        ""
    } else {
        ", guidance_scale=1.0"
    };
    let result = if video { "frames" } else { "images" };
    Some(format!(
        r#"#!/usr/bin/env python3
# vramfit measurement script: one generation at the scenario's size and batch, peaks read back.
# Needs: torch, diffusers, transformers, accelerate. Run on the target GPU.
import torch
from diffusers import DiffusionPipeline

GIB = 2 ** 30
pipe = DiffusionPipeline.from_pretrained('{repo}', torch_dtype={dtype})
{offload}
{setup}torch.cuda.reset_peak_memory_stats()
out = pipe(prompt=['a photo of a red fox in the snow'] * {batch}, width={w}, height={h}{frames}{guidance},
           num_inference_steps=4, output_type='pil')
torch.cuda.synchronize()
free, total = torch.cuda.mem_get_info()
print(f'{result}: {{len(getattr(out, "{result}", []))}}')
print(f'max_memory_allocated_gib: {{torch.cuda.max_memory_allocated() / GIB:.3f}}')
print(f'max_memory_reserved_gib: {{torch.cuda.max_memory_reserved() / GIB:.3f}}')
print(f'device_used_gib: {{(total - free) / GIB:.3f}}  # includes the CUDA context; compare with nvidia-smi')
print(f'total_gib: {{total / GIB:.2f}}')
"#,
        repo = py(repo),
        batch = g.batch.max(1),
        w = g.width,
        h = g.height,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing: a 400-digit figure read as infinity.
    #[test]
    fn absurd_figures_are_not_measurements() {
        let digits = "9".repeat(400);
        let m = parse_measured(&format!(
            "max_memory_allocated: {digits} GiB\nmax_memory_reserved: 12.5 GiB"
        ));
        assert_eq!(m.allocated_gib, None);
        assert_eq!(m.reserved_gib, Some(12.5));
    }

    /// Found by a user audit: an MXFP4 model was sent to a Q4_K_M file.
    #[test]
    fn an_mxfp4_model_is_served_from_its_mxfp4_gguf() {
        let s: Scenario = serde_json::from_str(
            r#"{"model":{"catalog":"gpt-oss-120b"},"weights":"mxfp4","engine":{"llama_cpp":{}},"hardware":{"gpu":"rtx-4090"},"workload":{"inference":{"context_tokens":8192,"sequences":1}}}"#,
        )
        .expect("scenario");
        let cmd = llama_server_command(&s);
        assert!(
            cmd.contains("MXFP4.gguf") && !cmd.contains("Q4_K_M"),
            "{cmd}"
        );
    }

    /// Found by a user audit: a sign, an exponent and a decimal comma were each dropped, and the
    /// figure shown without them.
    #[test]
    fn signs_exponents_and_commas_are_read_whole_or_not_at_all() {
        let m = parse_measured(
            "max_memory_allocated_gib: -5\nmax_memory_reserved_gib: 1e308\ndevice_used_gib: 12,5",
        );
        assert_eq!(m.allocated_gib, None);
        assert_eq!(m.reserved_gib, None);
        assert_eq!(m.device_used_gib, Some(12.5));
        let m = parse_measured("max_memory_allocated: 1.5e1 GiB\nGPU KV cache size: 23,024 tokens");
        assert_eq!(m.allocated_gib, Some(15.0));
        assert_eq!(m.kv_tokens, Some(23_024));
        let llama = "llama_kv_cache_unified: CUDA0 KV buffer size = -1024.00 MiB\n\
                     load_tensors: CUDA0 model buffer size = 1e308 MiB\n\
                     llama_context: CUDA0 compute buffer size = 1,024.50 MiB";
        let m = parse_measured(llama);
        assert_eq!(m.kv_cache_gib, None);
        assert_eq!(m.weights_gib, None);
        assert_eq!(m.activations_gib, Some(1024.5 / 1024.0));
        assert_eq!(
            parse_measured("max_memory_allocated: 1,2,3 GiB").allocated_gib,
            None
        );
    }

    #[test]
    fn reads_vllm_and_llama_logs() {
        let log = "INFO worker.py:101] Memory profiling takes 6.2 seconds\n\
            the current vLLM instance can use total_gpu_memory (79.19GiB) x gpu_memory_utilization (0.90) = 71.27GiB\n\
            model weights take 14.99GiB; non_torch_memory takes 0.07GiB; PyTorch activation peak memory takes 1.26GiB; the rest of the memory reserved for KV Cache is 54.95GiB.\n\
            INFO kv_cache_utils.py:716] GPU KV cache size: 450,192 tokens\n\
            INFO Maximum concurrency for 32,768 tokens per request: 13.74x";
        let m = parse_measured(log);
        assert_eq!(m.weights_gib, Some(14.99));
        assert_eq!(m.non_torch_gib, Some(0.07));
        assert_eq!(m.activations_gib, Some(1.26));
        assert_eq!(m.kv_cache_gib, Some(54.95));
        assert_eq!(m.kv_tokens, Some(450_192));
        assert_eq!(m.max_concurrency, Some(13.74));
        let llama = "load_tensors:        CUDA0 model buffer size =  4403.49 MiB\n\
            load_tensors:   CPU_Mapped model buffer size =   281.81 MiB\n\
            llama_kv_cache:      CUDA0 KV buffer size =  1024.00 MiB\n\
            sched_reserve:      CUDA0 compute buffer size =   304.00 MiB\n\
            sched_reserve:  CUDA_Host compute buffer size =    15.01 MiB";
        let m = parse_measured(llama);
        assert!((m.weights_gib.unwrap_or(0.0) - 4403.49 / 1024.0).abs() < 1e-9);
        assert_eq!(m.kv_cache_gib, Some(1.0));
        assert!((m.activations_gib.unwrap_or(0.0) - 304.0 / 1024.0).abs() < 1e-9);
        let script = "max_memory_allocated_gib: 17.203\nmax_memory_reserved_gib: 17.9\ndevice_used_gib: 18.6  # x";
        let m = parse_measured(script);
        assert_eq!(
            (m.allocated_gib, m.reserved_gib, m.device_used_gib),
            (Some(17.203), Some(17.9), Some(18.6))
        );
        assert!(parse_measured("nothing here").is_empty());
    }

    #[test]
    fn commands_carry_the_flags() {
        let mut s = Scenario::example();
        s.hardware.gpu = Some("rtx-4090".into());
        s.hardware.count = 2;
        let v = vllm_command(&s);
        assert!(
            v.contains("--max-model-len 8192") && v.contains("--tensor-parallel-size 2"),
            "{v}"
        );
        s.weights = WeightFormat::Gguf(crate::inputs::gguf::GgufPreset::Q4KM);
        let l = llama_server_command(&s);
        assert!(
            l.contains("-c 32768") && l.contains("-np 4") && l.contains("Q4_K_M"),
            "{l}"
        );
        assert!(pytorch_script(&s).contains("BATCH = 4"));
    }

    /// Without a card the command is the recommended plan's, with the fraction the
    /// search set; a context past the model's positions carries its documented YaRN scaling; a
    /// pre-quantised format is never the base repo with `--quantization`.
    #[test]
    fn commands_follow_the_plan_shown() {
        let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"qwen3-30b-a3b"},"workload":{"inference":{"context_tokens":131072,"sequences":1}},"engine":{"vllm":{}}}"#).expect("json");
        let v = vllm_command(&s);
        assert!(v.contains("--rope-scaling '{\"rope_type\":\"yarn\""), "{v}");
        assert!(v.contains("--max-model-len 131072"), "{v}");
        let e = crate::estimate::estimate_without_fixes(&s).expect("estimates");
        let plan = e.plan.expect("a plan");
        let fraction = plan.engine_fraction.unwrap_or(0.9);
        assert!(
            v.contains(&format!(
                "--gpu-memory-utilization {}",
                crate::units::num::shortest(fraction)
            )),
            "{v}"
        );
        let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"llama-3.1-8b-instruct"},"workload":{"inference":{"context_tokens":8192,"sequences":1}},"hardware":{"gpu":"l4"},"engine":{"vllm":{"kv_cache_memory_bytes":4294967296}}}"#).expect("json");
        let v = vllm_command(&s);
        assert!(v.contains("--kv-cache-memory 4294967296"), "{v}");
        assert!(!v.contains("--gpu-memory-utilization"), "{v}");
        let s: Scenario = serde_json::from_str(r#"{"model":{"catalog":"llama-3.3-70b-instruct"},"weights":"awq-int4-g128","workload":{"inference":{"context_tokens":8192,"sequences":1}},"engine":{"vllm":{}}}"#).expect("json");
        let v = vllm_command(&s);
        assert!(
            !v.contains("vllm serve meta-llama/Llama-3.3-70B-Instruct"),
            "{v}"
        );
        assert!(v.contains("AWQ_REPO"), "{v}");
    }
}
