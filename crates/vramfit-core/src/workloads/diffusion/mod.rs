//! Image and video generation: the per-GPU memory of a diffusion pipeline (text encoders →
//! denoiser → VAE decode), phase by phase, from the mechanisms traced in diffusers 0.30–0.32,
//! transformers 4.47 and the official Wan2.1 code (`diffusers/pipelines/*/pipeline_*.py`, `wan/modules/{model,vae,t5}.py`).
//!
//! **Peak = max over phases** (text encoding, denoising, decoding) of the weights resident in the
//! phase + that phase's working set + CUDA context, cuBLAS workspace and the allocator's pooled
//! segments (`crate::budget::runtime`, `crate::budget::reserve`).
//!
//! - **Weights** = params × bytes of the part's format ([`PipelinePartFormat`]); quantised formats leave
//!   token embeddings 16-bit; fp8 (diffusers' layerwise casting) leaves the modules its skip
//!   patterns match ("norm": FLUX's and SD3's AdaLN modulation Linears) and every parameter
//!   outside Linear / Conv / Embedding layers 16-bit (`Part::lc_keep`); T5 `wo` stays fp32 when T5 loads as fp16 (transformers
//!   `T5PreTrainedModel._keep_in_fp32_modules`, applied only for `torch_dtype == float16`).
//! - **Residency** ([`Offload`]): `None` keeps every part on the GPU in every phase. `Model`
//!   (`enable_model_cpu_offload`, accelerate `CpuOffload.pre_forward` offloads only the previous
//!   model of `model_cpu_offload_seq`): the active part only, except that pipelines encoding the
//!   negative prompt with several encoders re-enter the first one while the last is still on the
//!   GPU, so the two largest encoders meet (SD3: T5 + CLIP-G); decode holds the VAE only
//!   (`@apply_forward_hook` on `decode`). `Sequential` (`enable_sequential_cpu_offload`): one leaf
//!   module of the active part (a quarter of one block). The official Wan code differs:
//!   `--offload_model` keeps the DiT on the GPU while T5 encodes (`WanT2V.__init__` moves it
//!   there) and moves it to the CPU before decoding (`self.model.cpu(); empty_cache()`).
//!   diffusers keeps a model's `_keep_in_fp32_modules` fp32 for any 16-bit dtype (Wan).
//!   A reference image (FLUX.1 Kontext) keeps the VAE resident from its encode to the decode
//!   under model offload (the denoiser's hook offloads only the last text encoder).
//! - **Text encoding**: per prompt (negative prompt too under CFG, not per image:
//!   `prompt_embeds.repeat(1, num_images_per_prompt, 1)`): one layer's live copies of the hidden
//!   state (T5: the first layer's attention with its relative bias, or a later feed-forward with
//!   fp16's fp32 `wo` cast), every hidden state and a causal LM's logits where the pipeline asks
//!   for them, the padding and concatenations of the prompt embeddings (SD3) and of the CFG pair;
//!   then the reference image's VAE encode (FLUX.1 Kontext) in the same phase.
//! - **Denoising**: latent tokens = (W/f/p)·(H/f/p)·latent frames, latent frames =
//!   (frames − 1)/t + 1; batch × 2 under batched CFG (`torch.cat([latents] * 2)`; Wan runs cond and
//!   uncond one after the other; FLUX.1 and HunyuanVideo are guidance-distilled). Transformers free
//!   activations per block, so one block's working set is live: batch × (image + joint text
//!   tokens) × hidden × live copies (16 for diffusers DiT blocks, the FLUX single block at RoPE
//!   time; 42 bytes/hidden + 1 KiB for Wan's fp32/complex128 block). UNets: the largest level of
//!   tokens × channels × 16, plus the skip connections the up path keeps. Naive attention
//!   (`AttnProcessor`: `baddbmm` scores + softmax) adds batch × heads × tokens² × 2 × b; SDPA
//!   keeps no score matrix. Weights stored below 16 bits (fp8 layerwise casting, NF4) are made
//!   16-bit one layer at a time: the largest such copy beside what is live when it runs
//!   (`quantized_step`; GGUF, not traced, a flat five hidden² matrices).
//! - **Decoding** ([`pipelines::VaeDecode`]): image VAEs 4.75 U (16-bit) / 3.75 U (fp32) per image,
//!   U = 256·H·W·b (the conv workspace rule of the notes §1.3, InvokeAI VAE benchmark), one image
//!   with slicing (`z.split(1)`), one `sample_size` tile with tiling plus the decoded tiles
//!   (overlap 0.25); SDXL's `upcast_vae()` decodes the up-blocks in fp32. Video VAEs: live maps
//!   per frame of one decoder call × frames per call + the causal-conv caches kept between calls
//!   (Wan: 1 latent frame per call; LTX: one pass, `working_set::ltx_decode`) + the
//!   decoded video and its final `torch.cat` (Wan: the frames decoded before the last call,
//!   `torch.cat`-ed as they come; tiled, every 256 px tile decoded over all frames and kept for the
//!   blend, `working_set::wan_tiles`). CogVideoX (diffusers 0.42.1, traced): 2 latent frames per
//!   call with the caches passed functionally from call to call, so a call's peak holds the
//!   previous call's caches beside its own, counted from the decoder's structure
//!   (`working_set::cog_decoder`, `cog_tiles`); diffusers 0.30 replaced each cache in place.
//!   HunyuanVideo (traced): 5-frame latent tiles at a stride of 3, each decoded whole and kept
//!   until the blend; a call peaks at its last upsampler's conv or at the mid-block attention's
//!   causal mask (6 bytes per latent token², the one that grows quadratically untiled)
//!   (`working_set::hunyuan_decode`).

use crate::budget::{components, reserve, runtime, Component, ComponentId};
use crate::budget::{Card, GpuBudget, PeakPhase};
use crate::units::bytes::{add, mul, prod, sum};
use crate::units::limits::{Field, RangeError};
use serde::{Deserialize, Serialize};

pub mod pipelines;
mod working_set;

use working_set::*;

use pipelines::{Part, Pipeline, Role, Runtime};

/// How one part of an image or video pipeline (denoiser, text encoder, VAE) stores its weights:
/// a flat rate per weight (GGUF entries at their dominant block type).
///
/// Unlike [`WeightFormat`](crate::inputs::format::WeightFormat), which costs a language model tensor by
/// tensor, it multiplies a part's parameter count; its ids are the generation JSON's own
/// (`gguf-q4-k-m`, not `gguf-q4_k_m`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PipelinePartFormat {
    /// 32-bit float.
    Fp32,
    /// bfloat16.
    Bf16,
    /// float16.
    Fp16,
    /// 8-bit float weights as diffusers' layerwise casting stores them
    /// (`enable_layerwise_casting(storage_dtype=float8_e4m3fn, compute_dtype=bfloat16)`): the
    /// Linear / Conv / Embedding layers the skip patterns leave alone are fp8, the rest 16-bit;
    /// each layer is upcast for its own forward.
    Fp8,
    /// bitsandbytes NF4, block 64, fp32 absmax (no double quantisation).
    Nf4,
    /// GGUF Q8_0: 34-byte blocks of 32 weights.
    GgufQ8_0,
    /// GGUF Q6_K: 210-byte blocks of 256.
    GgufQ6K,
    /// GGUF Q5_K (the Q5_K_M files' dominant type): 176-byte blocks of 256.
    GgufQ5KM,
    /// GGUF Q4_K: 144-byte blocks of 256.
    GgufQ4KM,
}

impl PipelinePartFormat {
    /// Storage as (bytes, per weights): the ggml block sizes for GGUF.
    fn ratio(self) -> (u64, u64) {
        match self {
            PipelinePartFormat::Fp32 => (4, 1),
            PipelinePartFormat::Bf16 | PipelinePartFormat::Fp16 => (2, 1),
            PipelinePartFormat::Fp8 => (1, 1),
            PipelinePartFormat::Nf4 => (9, 16),
            PipelinePartFormat::GgufQ8_0 => (34, 32),
            PipelinePartFormat::GgufQ6K => (210, 256),
            PipelinePartFormat::GgufQ5KM => (176, 256),
            PipelinePartFormat::GgufQ4KM => (144, 256),
        }
    }

    /// Bits per weight × 100, truncated (Q6_K 656 for 6.5625).
    pub fn bits_x100(self) -> u64 {
        let (b, n) = self.ratio();
        b * 800 / n
    }

    /// Every format, widest first.
    pub const ALL: [PipelinePartFormat; 9] = [
        PipelinePartFormat::Fp32,
        PipelinePartFormat::Bf16,
        PipelinePartFormat::Fp16,
        PipelinePartFormat::Fp8,
        PipelinePartFormat::GgufQ8_0,
        PipelinePartFormat::GgufQ6K,
        PipelinePartFormat::GgufQ5KM,
        PipelinePartFormat::GgufQ4KM,
        PipelinePartFormat::Nf4,
    ];

    /// The format with this id.
    pub fn from_id(s: &str) -> Option<PipelinePartFormat> {
        PipelinePartFormat::ALL.into_iter().find(|f| f.id() == s)
    }

    /// Stable id, as in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            PipelinePartFormat::Fp32 => "fp32",
            PipelinePartFormat::Bf16 => "bf16",
            PipelinePartFormat::Fp16 => "fp16",
            PipelinePartFormat::Fp8 => "fp8",
            PipelinePartFormat::Nf4 => "nf4",
            PipelinePartFormat::GgufQ8_0 => "gguf-q8-0",
            PipelinePartFormat::GgufQ6K => "gguf-q6-k",
            PipelinePartFormat::GgufQ5KM => "gguf-q5-k-m",
            PipelinePartFormat::GgufQ4KM => "gguf-q4-k-m",
        }
    }

    fn quantized(self) -> bool {
        !matches!(
            self,
            PipelinePartFormat::Fp32 | PipelinePartFormat::Bf16 | PipelinePartFormat::Fp16
        )
    }

    /// Bytes of `params` weights.
    fn bytes(self, params: u64) -> u64 {
        let (b, n) = self.ratio();
        params.saturating_mul(b).div_ceil(n)
    }

    /// Bytes per activation element: fp32 compute for fp32 weights, 16-bit otherwise.
    fn act(self) -> u64 {
        if self == PipelinePartFormat::Fp32 {
            4
        } else {
            2
        }
    }
}

/// Attention kernel of the denoiser.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Attention {
    /// `F.scaled_dot_product_attention` / flash attention: no score matrix.
    #[default]
    Sdpa,
    /// `AttnProcessor` (baddbmm + softmax): batch × heads × tokens² scores.
    Naive,
}

/// CPU offload mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Offload {
    /// Everything on the GPU.
    #[default]
    None,
    /// `enable_model_cpu_offload` (Wan official: `--offload_model True`).
    Model,
    /// `enable_sequential_cpu_offload`.
    Sequential,
}

closed_set!(Attention { Sdpa => "sdpa", Naive => "naive" });
closed_set!(Offload { None => "none", Model => "model", Sequential => "sequential" });

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// The workload (scenario JSON: `{"generate_image": {...}}` or `{"generate_video": {...}}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generation {
    /// Catalog id, e.g. `flux1-dev`.
    pub pipeline: String,
    /// Output width, pixels.
    pub width: u32,
    /// Output height, pixels.
    pub height: u32,
    /// Frames (1 for images).
    #[serde(default = "one")]
    pub frames: u32,
    /// Images or videos per prompt.
    #[serde(default = "one")]
    pub batch: u32,
    /// Classifier-free guidance on (doubles the denoiser batch where the pipeline batches CFG).
    #[serde(default = "yes")]
    pub guidance: bool,
    /// Attention kernel.
    #[serde(default)]
    pub attention: Attention,
    /// CPU offload mode.
    #[serde(default)]
    pub offload: Offload,
    /// `vae.enable_tiling()`.
    #[serde(default)]
    pub vae_tiling: bool,
    /// `vae.enable_slicing()`: one image or video decoded at a time.
    #[serde(default)]
    pub vae_slicing: bool,
    /// Part ids not loaded on the GPU (e.g. `["t5_xxl"]` for SD3.5 without T5, `["umt5_xxl"]` for
    /// Wan's `--t5_cpu`).
    #[serde(default)]
    pub drop_text_encoders: Vec<String>,
    /// Denoiser storage (default: the pipeline's).
    #[serde(default)]
    pub denoiser_format: Option<PipelinePartFormat>,
    /// Text encoder storage (default: the pipeline's).
    #[serde(default)]
    pub text_encoder_format: Option<PipelinePartFormat>,
}

impl Generation {
    /// The starting point the UI shows for a new image (`video = false`: FLUX.1-dev, 1024²) or
    /// video (`true`: Wan 2.1 T2V 1.3B, 832 × 480, 81 frames) workload.
    pub fn starting_point(video: bool) -> Generation {
        let (pipeline, width, height, frames) = if video {
            ("wan21-t2v-1.3b", 832, 480, 81)
        } else {
            ("flux1-dev", 1024, 1024, 1)
        };
        Generation {
            pipeline: pipeline.into(),
            width,
            height,
            frames,
            batch: 1,
            guidance: true,
            attention: Attention::default(),
            offload: Offload::default(),
            vae_tiling: false,
            vae_slicing: false,
            drop_text_encoders: Vec::new(),
            denoiser_format: None,
            text_encoder_format: None,
        }
    }
}

/// A phase of generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Prompt encoding.
    TextEncoding,
    /// The denoising loop.
    Denoising,
    /// VAE decode.
    Decoding,
}

/// The per-GPU budget of a generation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiffusionBudget {
    /// Components of the peak phase, per GPU.
    pub components: Vec<Component>,
    /// The phase with the largest total.
    pub peak_phase: Phase,
    /// Total bytes of each phase.
    pub phases: Vec<(Phase, u64)>,
    /// Host RAM that offloading needs for the parts off the GPU.
    pub host_bytes: u64,
}

impl DiffusionBudget {
    /// The shared per-GPU result type, its peak phase named in the budget vocabulary.
    pub fn into_gpu_budget(self) -> GpuBudget {
        GpuBudget {
            phase: Some(match self.peak_phase {
                Phase::TextEncoding => PeakPhase::TextEncoding,
                Phase::Denoising => PeakPhase::Denoising,
                Phase::Decoding => PeakPhase::Decoding,
            }),
            host_bytes: self.host_bytes,
            ..GpuBudget::of(self.components)
        }
    }
}

/// Why a generation cannot be estimated.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum DiffusionError {
    /// No pipeline with this id.
    UnknownPipeline {
        /// The id given.
        id: String,
    },
    /// A video pipeline needs a frame count of the form k × temporal factor + 1.
    VideoPipelineNeedsFrames,
    /// An image pipeline takes `frames = 1`.
    ImagePipelineTakesOneFrame,
    /// Width and height must be multiples of this.
    SizeNotMultiple {
        /// VAE factor × patch.
        multiple: u32,
    },
    /// A field outside its range.
    OutOfRange {
        /// The field.
        field: &'static str,
        /// Smallest allowed.
        min: u32,
        /// Largest allowed.
        max: u32,
    },
    /// `drop_text_encoders` names no text encoder of the pipeline.
    UnknownPart {
        /// The id given.
        id: String,
    },
}

fn range(field: &'static str, v: u32, min: u32, max: u32) -> Result<(), DiffusionError> {
    if (min..=max).contains(&v) {
        Ok(())
    } else {
        Err(DiffusionError::OutOfRange { field, min, max })
    }
}

impl Generation {
    /// Range checks against the pipeline's rules; `video` says which workload holds it (a video
    /// pipeline under `generate_image`, or the reverse, is refused).
    pub fn validate(&self, video: bool) -> Vec<(Field, RangeError)> {
        match pipeline_of(self) {
            Err(e) => vec![field_of(&e)],
            Ok(p) if p.video != video => vec![(Field::Generation("pipeline"), RangeError::Invalid)],
            Ok(_) => Vec::new(),
        }
    }
}

/// The field and problem of a generation that fails its pipeline's rules.
fn field_of(e: &DiffusionError) -> (Field, RangeError) {
    match e {
        DiffusionError::UnknownPipeline { .. } => {
            (Field::Generation("pipeline"), RangeError::Invalid)
        }
        DiffusionError::VideoPipelineNeedsFrames | DiffusionError::ImagePipelineTakesOneFrame => {
            (Field::Generation("frames"), RangeError::Invalid)
        }
        DiffusionError::SizeNotMultiple { multiple } => (
            Field::Generation("width"),
            RangeError::NotMultiple { of: *multiple },
        ),
        DiffusionError::OutOfRange { field, min, max } => (
            Field::Generation(field),
            RangeError::Between {
                min: f64::from(*min),
                max: f64::from(*max),
            },
        ),
        DiffusionError::UnknownPart { .. } => {
            (Field::Generation("drop_text_encoders"), RangeError::Invalid)
        }
    }
}

/// Validates `g` against its pipeline (sizes multiple of the VAE factor × patch, 64…8192 px,
/// frames 1…1025 and of the form k × temporal factor + 1 for video VAEs, batch 1…64).
pub fn pipeline_of(g: &Generation) -> Result<&'static Pipeline, DiffusionError> {
    let p = pipelines::find(&g.pipeline).ok_or_else(|| DiffusionError::UnknownPipeline {
        id: g.pipeline.clone(),
    })?;
    range("width", g.width, 64, 8192)?;
    range("height", g.height, 64, 8192)?;
    let multiple = p.vae_factor * p.patch;
    if !g.width.is_multiple_of(multiple) || !g.height.is_multiple_of(multiple) {
        return Err(DiffusionError::SizeNotMultiple { multiple });
    }
    range("batch", g.batch, 1, 64)?;
    if p.video {
        range("frames", g.frames, 1, 1025)?;
        if !(g.frames - 1).is_multiple_of(p.temporal_factor) {
            return Err(DiffusionError::VideoPipelineNeedsFrames);
        }
    } else if g.frames != 1 {
        return Err(DiffusionError::ImagePipelineTakesOneFrame);
    }
    if g.drop_text_encoders.len() > p.parts.len() {
        return Err(DiffusionError::OutOfRange {
            field: "drop_text_encoders",
            min: 0,
            max: u32::try_from(p.parts.len()).unwrap_or(u32::MAX),
        });
    }
    for id in &g.drop_text_encoders {
        if !p
            .parts
            .iter()
            .any(|part| part.role == Role::TextEncoder && part.id == id)
        {
            return Err(DiffusionError::UnknownPart { id: id.clone() });
        }
    }
    Ok(p)
}

/// One part as this generation loads it.
struct Loaded {
    part: &'static Part,
    format: PipelinePartFormat,
    bytes: u64,
    buffer_bytes: u64,
}

fn load(g: &Generation, part: &'static Part) -> Loaded {
    let format = match part.role {
        Role::Denoiser => g.denoiser_format.unwrap_or(part.default_format),
        Role::TextEncoder => g.text_encoder_format.unwrap_or(part.default_format),
        // The pipeline's `torch_dtype` reaches the VAE; quantisation does not (Wan's VAE is fp32).
        Role::Vae => match g.denoiser_format {
            Some(
                f
                @ (PipelinePartFormat::Fp32 | PipelinePartFormat::Bf16 | PipelinePartFormat::Fp16),
            ) if part.default_format != PipelinePartFormat::Fp32 => f,
            _ => part.default_format,
        },
    };
    // fp8 is diffusers' layerwise casting: the modules it skips stay 16-bit (`lc_keep`), the
    // `_keep_in_fp32_modules` fp32 (`fp32_any`; `ModelMixin.enable_layerwise_casting` adds them
    // to the skip patterns).
    let lc = if format == PipelinePartFormat::Fp8 {
        part.lc_keep.saturating_add(part.fp32_any)
    } else {
        0
    };
    let dense = part
        .params
        .saturating_sub(if format.quantized() { part.keep16 } else { 0 })
        .saturating_sub(lc);
    let mut bytes = format.bytes(dense) + PipelinePartFormat::Bf16.bytes(part.params - dense);
    if format == PipelinePartFormat::Fp16 {
        bytes += PipelinePartFormat::Fp16.bytes(part.fp32_keep.min(part.params));
    }
    if matches!(
        format,
        PipelinePartFormat::Fp16 | PipelinePartFormat::Bf16 | PipelinePartFormat::Fp8
    ) {
        // fp32 instead of 16-bit: 2 more bytes each.
        bytes += PipelinePartFormat::Bf16.bytes(part.fp32_any.min(part.params));
    }
    let buffer_format = if format == PipelinePartFormat::Fp32 {
        format
    } else {
        PipelinePartFormat::Bf16
    };
    let buffer_bytes = buffer_format.bytes(part.buffers);
    bytes += buffer_bytes;
    Loaded {
        part,
        format,
        bytes,
        buffer_bytes,
    }
}

/// Bytes of `loaded` resident while it is the active part under `offload`.
fn resident(l: &Loaded, offload: Offload) -> u64 {
    match offload {
        // accelerate `cpu_offload`: the largest chain of nested direct parameters, at the part's
        // bytes per parameter; buffers stay on the GPU (the top module has no direct parameters,
        // so diffusers passes `offload_buffers=False`).
        // The leaf is stored in its own dtype: the part's format, 16-bit where quantisation
        // leaves the token embedding alone (T5's fp32 `wo` is not the leaf).
        Offload::Sequential if l.part.leaf > 0 => {
            let format = if l.format.quantized() && l.part.leaf <= l.part.keep16 {
                PipelinePartFormat::Bf16
            } else {
                l.format
            };
            add(format.bytes(l.part.leaf), l.buffer_bytes)
        }
        Offload::Sequential => l.bytes / (4 * u64::from(l.part.blocks.max(1))),
        _ => l.bytes,
    }
}

/// What one phase holds, before the runtime's fixed costs (CUDA context, cuBLAS workspace, the
/// allocator's pooled segments).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PhaseSet {
    /// Text encoder weights resident in the phase.
    pub text_encoders: u64,
    /// Denoiser weights resident in the phase.
    pub denoiser: u64,
    /// VAE weights resident in the phase (with SDXL's fp32 upcast copy while decoding).
    pub vae: u64,
    /// Peak bytes of the tensors the phase creates (what a meta-device trace of the phase sees:
    /// activations, inputs and outputs, rounded to the allocator's 512-byte blocks).
    pub tensors: u64,
    /// Kernel workspace beside those tensors at the peak (cuDNN convolution workspace of the
    /// VAE decode; zero elsewhere).
    pub workspace: u64,
}

impl PhaseSet {
    /// Weights resident in the phase.
    pub fn weights(&self) -> u64 {
        sum([self.text_encoders, self.denoiser, self.vae])
    }

    /// Everything the phase holds (saturating).
    pub fn total(&self) -> u64 {
        sum([self.weights(), self.tensors, self.workspace])
    }
}

/// The work of one denoising step of a transformer (DiT) pipeline, and the step count its
/// reference recipe runs: `(FLOPs per step, default steps)`. FLOPs are
/// `2 × denoiser params × tokens + 4 × layers × tokens² × hidden` (the projections and the
/// attention products) for every latent and joint text token, doubled under classifier-free
/// guidance (a batch of two, or two calls). `None` for UNet pipelines (convolutions at several
/// resolutions: no single token count) and unknown pipelines. Two-expert pipelines (Wan 2.2
/// A14B) run one expert per step: the larger is counted.
///
/// Steps are each pipeline's `num_inference_steps` default in diffusers (28 for FLUX.1 and SD3,
/// 50 for the video pipelines and Qwen-Image), and the 4 its model card gives FLUX.1 schnell.
pub fn denoise_step_flops(g: &Generation) -> Option<(f64, u32)> {
    let p = pipeline_of(g).ok()?;
    if !p.unet.is_empty() {
        return None;
    }
    let s = working_set::shape(p, g);
    let patch = u64::from(p.patch.max(1));
    let image = (s.latent_h / patch) * (s.latent_w / patch) * s.latent_frames.max(1);
    let refs = if p.reference_image { 2 } else { 1 };
    let text = if p.joint_text {
        u64::from(p.text_tokens)
    } else {
        0
    };
    let tokens = (image * refs + text) as f64;
    let params = p
        .parts
        .iter()
        .filter(|part| part.role == pipelines::Role::Denoiser)
        .map(|part| part.params)
        .max()? as f64;
    let layers = f64::from(p.denoiser_layers);
    let hidden = f64::from(p.denoiser_hidden);
    let per_call = 2.0 * params * tokens + 4.0 * layers * tokens * tokens * hidden;
    let calls = if p.cfg && g.guidance { 2.0 } else { 1.0 };
    let steps = match p.id {
        "flux1-schnell" => 4,
        id if id.starts_with("flux1") || id.starts_with("sd3") || id.starts_with("sd35") => 28,
        _ => 50,
    };
    Some((per_call * calls * f64::from(g.batch.max(1)), steps))
}

/// Bytes of each loaded part (catalog id, bytes), in catalog order, without the parts
/// `drop_text_encoders` leaves off the GPU.
pub fn part_bytes(g: &Generation) -> Result<Vec<(&'static str, u64)>, DiffusionError> {
    let p = pipeline_of(g)?;
    Ok(p.parts
        .iter()
        .filter(|part| !g.drop_text_encoders.iter().any(|d| d == part.id))
        .map(|part| (part.id, load(g, part).bytes))
        .collect())
}

/// Each phase's resident weights and working set: text encoding, denoising, decoding (what the
/// diffusion traces check; the budget works on them without this list).
#[cfg(feature = "testing")]
pub fn phase_sets(g: &Generation) -> Result<[(Phase, PhaseSet); 3], DiffusionError> {
    let p = pipeline_of(g)?;
    Ok(phases_of(p, g))
}

fn phases_of(p: &'static Pipeline, g: &Generation) -> [(Phase, PhaseSet); 3] {
    let s = shape(p, g);
    let loaded: Vec<Loaded> = p
        .parts
        .iter()
        .filter(|part| !g.drop_text_encoders.iter().any(|d| d == part.id))
        .map(|part| load(g, part))
        .collect();
    let of = |role: Role| loaded.iter().filter(move |l| l.part.role == role);
    let all = |role: Role| of(role).map(|l| l.bytes).fold(0, add);
    let (te_all, dn_all, vae_all) = (all(Role::TextEncoder), all(Role::Denoiser), all(Role::Vae));
    let wan = p.runtime == Runtime::WanOfficial;
    let dn_one = of(Role::Denoiser)
        .map(|l| resident(l, g.offload))
        .max()
        .unwrap_or(0);
    let vae_one = of(Role::Vae)
        .map(|l| resident(l, g.offload))
        .max()
        .unwrap_or(0);
    let dn_format = of(Role::Denoiser)
        .map(|l| l.format)
        .next()
        .unwrap_or(PipelinePartFormat::Bf16);
    let vae_format = of(Role::Vae)
        .map(|l| l.format)
        .next()
        .unwrap_or(PipelinePartFormat::Bf16);
    let dn_upcast = of(Role::Denoiser)
        .map(|l| l.part.upcast_layer)
        .next()
        .unwrap_or(0);

    // Text encoding: resident weights by offload mode, plus the largest encoder's working set.
    let mut te_sizes: Vec<u64> = of(Role::TextEncoder)
        .map(|l| resident(l, g.offload))
        .collect();
    // Largest first: an insertion sort over a handful of encoders (no generic sort in the wasm).
    for i in 1..te_sizes.len() {
        let mut j = i;
        while j > 0 && te_sizes[j - 1] < te_sizes[j] {
            te_sizes.swap(j - 1, j);
            j -= 1;
        }
    }
    let two_meet = p.cfg && g.guidance && te_sizes.len() >= 2;
    let te_resident = match g.offload {
        Offload::None => te_all,
        Offload::Model if two_meet => te_sizes.iter().take(2).fold(0, |a, b| add(a, *b)),
        _ => te_sizes.first().copied().unwrap_or(0),
    };
    // A reference image (FLUX.1 Kontext) is encoded after the prompt: under model offload the
    // VAE's hook offloads only the part before it in `model_cpu_offload_seq` (the denoiser, not
    // on the GPU), so the last text encoder stays beside the VAE; the VAE then stays through
    // denoising (the denoiser's hook offloads the last text encoder) until decoding.
    // (Sequential: the VAE's largest leaf when it outweighs the encoders'.)
    let image_in = p.reference_image;
    let te_resident = if image_in && g.offload == Offload::Sequential {
        te_resident.max(vae_one)
    } else {
        te_resident
    };
    let encoders: Vec<(&Part, PipelinePartFormat)> =
        of(Role::TextEncoder).map(|l| (l.part, l.format)).collect();
    let (te_act, te_kept) = text_activations(p, g, &encoders);
    let te_act = if image_in {
        te_act.max(add(te_kept, encode_activations(p, g, &s, vae_format)))
    } else {
        te_act
    };
    let text = match (g.offload, wan) {
        (Offload::None, _) => [te_resident, dn_all, vae_all, te_act],
        // Wan2.1: the DiT is already on the GPU while T5 encodes (one expert for Wan2.2 A14B,
        // whose experts start on the CPU, is not modelled: it keeps one).
        (Offload::Model, true) => [te_resident, dn_one, 0, te_act],
        (Offload::Model, _) if image_in => [te_resident, 0, vae_all, te_act],
        _ => [te_resident, 0, 0, te_act],
    };
    let (dn_act, at_upcast) = denoise_activations(p, g, &s, dn_format);
    let dn_act = quantized_step(p, dn_act, at_upcast, dn_format, dn_upcast);
    let denoise = match g.offload {
        Offload::None => [te_all, dn_all, vae_all, dn_act],
        Offload::Model if image_in => [0, dn_one, vae_all, dn_act],
        _ => [0, dn_one, 0, dn_act],
    };
    // `vae.to(float32)` replaces each 16-bit tensor by its fp32 copy: what is resident doubles.
    let upcast = p.vae.upcast && vae_format != PipelinePartFormat::Fp32;
    let upcast_vae = if upcast { vae_all } else { 0 };
    let upcast_one = if upcast { vae_one } else { 0 };
    let (dec_act, dec_workspace) = decode_activations(p, g, &s, vae_format);
    let decode = match g.offload {
        Offload::None => [te_all, dn_all, add(vae_all, upcast_vae), dec_act],
        _ => [0, 0, add(vae_one, upcast_one), dec_act],
    };

    let set = |[te, dn, va, act]: [u64; 4], workspace: u64| PhaseSet {
        text_encoders: te,
        denoiser: dn,
        vae: va,
        tensors: act,
        workspace,
    };
    [
        (Phase::TextEncoding, set(text, 0)),
        (Phase::Denoising, set(denoise, 0)),
        (Phase::Decoding, set(decode, dec_workspace)),
    ]
}

/// A denoiser step whose weights are stored below 16 bits: each layer's weight exists in 16 bits
/// while the layer runs. fp8 is diffusers' layerwise casting (`hooks/layerwise_casting.py`
/// `LayerwiseCastingHook`: `pre_forward` replaces the fp8 weight by a bf16 copy, `post_forward`
/// the bf16 by a new fp8 copy): +1 byte per parameter while the layer computes, +2 while a copy is
/// made. NF4 (bitsandbytes `MatMul4Bit.forward`: `F.linear(A, dequantize_4bit(B).to(A.dtype).t())`)
/// dequantises the weight beside the packed one: +2 bytes per parameter while the layer runs.
/// Traced (FLUX.1-dev, fp8 and an NF4
/// emulation of bitsandbytes' `Linear4bit`, the same figures; SD3.5 Medium and SDXL fp8): the
/// block peak (FLUX: at the RoPE, no layer running) is the 16-bit step's; the copy that matters is
/// the `upcast_layer`'s, 2 bytes per parameter either way, beside what is live when it runs
/// (`at_upcast`: FLUX's single-block `proj_out` sees the caller's input, the residual, norm, MLP
/// and attention outputs, their concatenation and its output = 14 hidden copies per token of the
/// block's 17; SDXL's largest conv, in the deepest up block, the skips of the levels above).
/// Denoisers whose layers were not traced, and GGUF (diffusers `GGUFLinear.forward_native`:
/// `dequantize_gguf_tensor` in fp16 with its block temporaries, then `.to(compute_dtype)`; none
/// with the fused CUDA kernels; not traced), add five hidden² 16-bit matrices to the block peak.
fn quantized_step(
    p: &Pipeline,
    act: u64,
    at_upcast: u64,
    format: PipelinePartFormat,
    upcast_layer: u64,
) -> u64 {
    if !format.quantized() {
        return act;
    }
    let traced = matches!(format, PipelinePartFormat::Fp8 | PipelinePartFormat::Nf4);
    if upcast_layer == 0 || !traced {
        let d = u64::from(p.denoiser_hidden);
        return add(act, prod(&[5, d, d, 2]));
    }
    act.max(add(at_upcast, mul(2, upcast_layer)))
}

/// Per-GPU budget of the peak phase on `card`.
pub fn generation_budget(g: &Generation, card: &Card) -> Result<DiffusionBudget, DiffusionError> {
    let p = pipeline_of(g)?;
    let phases = phases_of(p, g);
    let fixed =
        runtime::CUDA_CONTEXT_BYTES + runtime::cublas_workspace(card.arch) + reserve::segments();
    let total = |w: &PhaseSet| add(w.total(), fixed);
    let mut peak = phases[0];
    for &(phase, w) in &phases {
        if total(&w) > total(&peak.1) {
            peak = (phase, w);
        }
    }
    let w = peak.1;
    let (activations, vae_decode) = if peak.0 == Phase::Decoding {
        (0, add(w.tensors, w.workspace))
    } else {
        (add(w.tensors, w.workspace), 0)
    };
    let host_bytes = match g.offload {
        Offload::None => 0,
        _ => sum(part_bytes(g)?.iter().map(|(_, b)| *b)),
    };
    Ok(DiffusionBudget {
        components: components(&[
            (ComponentId::TextEncoders, w.text_encoders),
            (ComponentId::Denoiser, w.denoiser),
            (ComponentId::Vae, w.vae),
            (ComponentId::Activations, activations),
            (ComponentId::VaeDecode, vae_decode),
            (ComponentId::CudaContext, runtime::CUDA_CONTEXT_BYTES),
            (
                ComponentId::CublasWorkspace,
                runtime::cublas_workspace(card.arch),
            ),
            (ComponentId::AllocatorReserve, reserve::segments()),
        ]),
        peak_phase: peak.0,
        phases: phases.iter().map(|(ph, w)| (*ph, total(w))).collect(),
        host_bytes,
    })
}

/// Per-GPU peak memory at each point of a sweep of width = height (images, 256 px to 4096 px) or
/// frames (videos, one latent frame to 257 frames), for a chart: (value, bytes). Points whose
/// generation does not validate are left out.
pub fn sweep(g: &Generation, card: &Card, points: usize) -> Vec<(u32, u64)> {
    let Ok(p) = pipeline_of(g) else {
        return Vec::new();
    };
    let n = points.clamp(2, 256) as u64;
    let (lo, hi, step) = if p.video {
        (1 + p.temporal_factor, 257, p.temporal_factor)
    } else {
        let m = p.vae_factor * p.patch;
        (256u32.div_ceil(m) * m, 4096, m)
    };
    let mut out: Vec<(u32, u64)> = Vec::new();
    for i in 0..n {
        let raw = u64::from(lo) + (u64::from(hi - lo) * i) / (n - 1);
        let k = (raw - u64::from(lo)) / u64::from(step);
        let value = lo + (k as u32) * step;
        if out.last().is_some_and(|(v, _)| *v == value) {
            continue;
        }
        let mut q = g.clone();
        if p.video {
            q.frames = value;
        } else {
            q.width = value;
            q.height = value;
        }
        if let Ok(b) = generation_budget(&q, card) {
            out.push((value, b.phases.iter().map(|(_, v)| *v).max().unwrap_or(0)));
        }
    }
    out
}

#[cfg(test)]
mod tests;
