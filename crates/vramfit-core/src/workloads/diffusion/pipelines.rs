//! The diffusion pipeline catalog: parts with exact parameter counts, latent geometry, the
//! denoiser's block working set and the VAE decode loop of each pipeline.
//!
//! Parameter counts come from meta instantiation of the diffusers 0.32.2 / transformers 4.47.1
//! classes (`torch.device('meta')` construction of each part's `from_config`) unless a part says otherwise:
//! - Wan2.1 DiTs: `wan/configs/wan_t2v_1_3B.py` / `wan_t2v_14B.py` (dim, ffn_dim, layers) through
//!   `wan/modules/model.py::WanModel` (blocks of q,k,v,o self- and cross-attention, gelu FFN,
//!   6·dim modulation; patch, text, time embeddings and head): 1,418,996,800 and 14,288,491,584.
//! - umT5-XXL encoder (Wan, `wan/modules/t5.py`, `umt5_xxl`): vocab 256,384 × 4096 shared
//!   embedding + 24 layers of 4·4096² attention, per-layer 32×64 relative bias, gated FFN
//!   3·4096·10,240: 5,680,910,336.
//! - SDXL refiner UNet: the `stabilityai/stable-diffusion-xl-refiner-1.0` fp16 UNet file
//!   (4.52 GB / 2 B ≈ 2.26 B), not re-counted here.
//! - SD3 Medium, SD3.5 Medium / Large, FLUX.1 Kontext [dev], Qwen-Image, Wan2.2 TI2V-5B,
//!   CogVideoX 2B / 5B, HunyuanVideo, LTX-Video 0.9, and the CLIP / T5 / VAE
//!   counts every pipeline shares: meta instantiation of diffusers 0.42.1 / transformers 5.23.0
//!   from the published `config.json` values (`tools/trace/trace.py`, recorded as `param_count`
//!   in `tests/traces/diffusion/*.json`); each entry's `source` names its config. Qwen2.5-VL-7B
//!   also matches its published safetensors total (8,292,166,656).

use super::PipelinePartFormat;

/// What a part does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Text encoder (CLIP, T5, Llama).
    TextEncoder,
    /// UNet or diffusion transformer.
    Denoiser,
    /// Autoencoder (decode).
    Vae,
}

/// Which code runs the pipeline (decides what moves between GPU and host per phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// diffusers pipelines (accelerate `cpu_offload_with_hook` / `cpu_offload`).
    Diffusers,
    /// The official Wan code (`wan/text2video.py`): the DiT goes to the GPU at start-up,
    /// `--offload_model` moves T5 off after encoding and the DiT off before decoding.
    WanOfficial,
}

/// One model of a pipeline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part {
    /// Stable id (`clip_l`, `clip_g`, `t5_xxl`, `llama`, `umt5_xxl`, `unet`, `transformer`, `vae`, …).
    pub id: &'static str,
    /// Role.
    pub role: Role,
    /// Parameters.
    pub params: u64,
    /// Storage format as the pipeline loads it.
    pub default_format: PipelinePartFormat,
    /// Parameters that weight quantisation leaves 16-bit (token embeddings).
    pub keep16: u64,
    /// Parameters kept in fp32 when the part loads as fp16 (T5 `_keep_in_fp32_modules = ["wo"]`).
    pub fp32_keep: u64,
    /// Parameters kept in fp32 whatever 16-bit dtype the part loads in: diffusers'
    /// `load_model_dict_into_meta` applies a model's `_keep_in_fp32_modules` for any `torch_dtype`
    /// (Wan: time embedder, norms, modulation tables).
    pub fp32_any: u64,
    /// Parameters diffusers' layerwise casting (the `fp8` format:
    /// `ModelMixin.enable_layerwise_casting(storage_dtype=float8_e4m3fn)`) leaves in the compute
    /// dtype, besides `fp32_any`: those outside Linear / Conv / Embedding modules
    /// (`hooks/_common.py` `_GO_LC_SUPPORTED_PYTORCH_LAYERS`: norm weights, modulation tables) and
    /// the modules the skip patterns match (`hooks/layerwise_casting.py`
    /// `DEFAULT_SKIP_MODULES_PATTERN` + the model's `_skip_layerwise_casting_patterns`: "norm"
    /// takes FLUX's and SD3's AdaLN modulation Linears). Meta-device count, diffusers 0.42.1
    /// (`tests/traces/diffusion/flux1-dev.json` `fp8_layerwise`); 0 where not counted.
    pub lc_keep: u64,
    /// Denoisers: parameters of the layer whose 16-bit copy meets the most activations when the
    /// weights are stored fp8 or 4-bit (traced, FLUX: a single block's `proj_out`, 15,360 →
    /// 3,072, which runs while the block's concatenated attention and MLP outputs are live;
    /// SD3.5 / SD3 Medium: a feed-forward's 1,536 → 6,144 projection; SDXL: `up_blocks[0]`'s
    /// 2,560 → 1,280 3×3 conv); 0 where not traced (then the flat rule of five hidden² 16-bit
    /// matrices).
    pub upcast_layer: u64,
    /// Non-parameter buffers stored with the weights (SD3 pos-embed, CogVideoX sincos).
    pub buffers: u64,
    /// Text encoders: hidden size and tokens per prompt (0 for other parts).
    pub hidden: u32,
    /// Text encoders: tokens per prompt.
    pub tokens: u32,
    /// Blocks the part is made of (layers of a text encoder).
    pub blocks: u32,
    /// Parameters of the largest chain of nested modules' direct parameters (what accelerate's
    /// `cpu_offload` holds at once: a module's own parameters stay for its whole forward), from
    /// the meta-device trace; 0 where untraced (then a quarter of one block).
    pub leaf: u64,
    /// Text encoders: live copies of the hidden state per token inside one layer, ×10 (the MLP:
    /// fc1 4 + activation 4 (+ 4 for `quick_gelu`'s `sigmoid(1.702 x)`) + residual and norm).
    pub layer_x10: u32,
    /// Text encoders: the pipeline asks for `output_hidden_states` (it takes `hidden_states[-2]`),
    /// so every layer's output stays live until the call returns.
    pub all_hidden: bool,
    /// Text encoders with T5's relative attention bias: its heads. The first layer computes the
    /// bias (`relative_attention_bias` lookup, T × T × heads, then a contiguous (1, heads, T, T)
    /// copy): 2 × heads × T² elements beside q, k, v and the stream (traced).
    pub bias_heads: u32,
    /// Text encoders that are causal language models called with their head (Qwen2.5-VL's
    /// `Qwen2_5_VLForConditionalGeneration`, `logits_to_keep=0`): the vocabulary, whose logits
    /// over every token stay in the output beside the hidden states (0 otherwise).
    pub logits_vocab: u32,
    /// T5 encoders: the feed-forward width d_ff (10,240 for T5-XXL and umT5-XXL); 0 otherwise.
    pub ff: u32,
}

/// One resolution level of a UNet (at `downscale` × the latent grid).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnetLevel {
    /// Downscale relative to the latent grid (1, 2, 4, 8).
    pub downscale: u32,
    /// Channels.
    pub channels: u32,
    /// Attention heads (0: no attention at this level).
    pub heads: u32,
}

/// The VAE decode loop, in feature maps of the decoder's highest-resolution stage
/// (`stage_channels` × stage height × stage width, one frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VaeDecode {
    /// Channels of the highest-resolution decoder stage.
    pub stage_channels: u32,
    /// That stage's downscale from the output pixels (1; 4 for LTX's patchified decoder).
    pub stage_downscale: u32,
    /// Live tensors per decoded frame at the decode peak, in maps, ×100 (what a meta-device trace
    /// of the decoder sees).
    pub live_x100: u32,
    /// cuDNN convolution workspace at that peak, in maps, ×100, 16-bit (in + out of the conv).
    pub workspace_x100_16: u32,
    /// The same for fp32 (the conv's output).
    pub workspace_x100_32: u32,
    /// Causal-conv caches kept across chunks, in maps, ×100 (0 for image VAEs).
    pub cache_x100: u32,
    /// Output frames per decoder call (0: all frames in one pass).
    pub chunk_frames: u32,
    /// Tile (height, width) in pixels with `vae_tiling`.
    pub tile: (u32, u32),
    /// SDXL `upcast_vae()`: a fp16 VAE decodes its up-blocks in fp32.
    pub upcast: bool,
    /// The Wan VAE's decode loop (diffusers `AutoencoderKLWan._decode` / `tiled_decode`, the
    /// official `wan/modules/vae.py` `WanVAE_.decode`; traced): each decoder call's frames join
    /// the output by `torch.cat` as they come, so at the last call's peak the output holds the
    /// frames decoded before it (not a finished video and its copy). With tiling, tiles of `tile`
    /// pixels at a ¾-tile stride are each decoded over every frame with their own causal caches
    /// (`clear_cache()` per tile) and all kept until the blend. Without it, a video VAE follows
    /// the generic rule: the decoded video and its `torch.cat`; tiles with a 0.25 overlap.
    pub wan_loop: bool,
    /// The CogVideoX decode loop (diffusers 0.42 `AutoencoderKLCogVideoX._decode` /
    /// `tiled_decode`; traced): 2 latent frames per `CogVideoXDecoder3D` call (the first call
    /// takes the odd one more), the causal-conv caches returned by one call and passed to the
    /// next, so the previous call's caches live beside the new ones; the decoded chunks kept in a
    /// list until `torch.cat`. The decoder's structure is `working_set::cog_decoder`'s; the
    /// fields above only give the tile and the workspace.
    pub cog_loop: bool,
    /// The LTX-Video decode (diffusers 0.42.1 `AutoencoderKLLTXVideo`; traced): one decoder pass
    /// over every frame (no framewise decoding), the peak in the last up block's first resnet at
    /// the stage (`stage_channels` at `stage_downscale`), `working_set::ltx_decode`; with tiling,
    /// `tile` pixels at a ⅞-tile stride (512 / 448 px), every decoded tile kept until the blend.
    pub ltx_loop: bool,
    /// The HunyuanVideo decode (diffusers 0.42.1 `AutoencoderKLHunyuanVideo._temporal_tiled_decode`;
    /// traced): latent tiles of 5 frames at a stride of 3, each decoded whole (with tiling, in
    /// `tile` pixel tiles at a ¾ stride), `working_set::hunyuan_decode`.
    pub hunyuan_loop: bool,
}

/// A pipeline of the catalog.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pipeline {
    /// Stable kebab-case id.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Video pipeline.
    pub video: bool,
    /// Its models.
    pub parts: &'static [Part],
    /// Spatial VAE downscale.
    pub vae_factor: u32,
    /// Temporal VAE downscale (1 for images): latent frames = (frames − 1) / factor + 1.
    pub temporal_factor: u32,
    /// Latent channels.
    pub latent_channels: u32,
    /// Denoiser patch size (2 for DiTs, 1 for UNets and LTX).
    pub patch: u32,
    /// Uses classifier-free guidance (guidance-distilled FLUX.1 and HunyuanVideo do not).
    pub cfg: bool,
    /// CFG runs as one doubled batch (`torch.cat([latents] * 2)`) rather than two passes.
    pub cfg_batched: bool,
    /// Denoiser hidden size.
    pub denoiser_hidden: u32,
    /// Denoiser blocks.
    pub denoiser_layers: u32,
    /// Denoiser attention heads.
    pub denoiser_heads: u32,
    /// Text tokens the denoiser sees per prompt.
    pub text_tokens: u32,
    /// Text tokens join the image tokens in self-attention (MMDiT, CogVideoX).
    pub joint_text: bool,
    /// Width of the text embeddings the denoiser takes (T5-XXL 4096; Qwen2.5-VL 3584).
    pub text_dim: u32,
    /// An input image is encoded by the VAE after the prompt and its latent tokens join the
    /// image tokens of every denoiser call (FLUX.1 Kontext: `torch.cat([latents, image_latents],
    /// dim=1)`); modelled at the output size, as when an image is edited at its own resolution.
    pub reference_image: bool,
    /// The pipeline keeps its latents fp32 and gives each denoiser call a 16-bit copy of the
    /// denoiser's batch (diffusers' WanPipeline, HunyuanVideoPipeline; LTXPipeline's copy is of
    /// `torch.cat([latents] * 2)` under CFG).
    pub fp32_latents: bool,
    /// diffusers' WanPipeline with `expand_timesteps` (Wan 2.2 TI2V): an fp32 mask the size of
    /// the latents beside them.
    pub timestep_mask: bool,
    /// The prompt's encoder outputs are concatenated first and repeated to the batch after
    /// (`StableDiffusionXLPipeline.encode_prompt`: `torch.concat(prompt_embeds_list, dim=-1)`,
    /// then `prompt_embeds.repeat(1, num_images_per_prompt, 1)`), rather than each encoder's
    /// output repeated as it comes (SD3's and FLUX's `_get_*_prompt_embeds`).
    pub repeat_after_concat: bool,
    /// Live copies of the hidden state per token at the block peak, ×10, in 16-bit elements.
    pub block_x10: u32,
    /// The same for the text tokens of a joint block, where they differ (0: as image tokens).
    /// SD3's MMDiT peaks in the image stream's feed-forward, where the text stream holds only its
    /// hidden state, the caller's copy and the norm's half-used output (traced: 2.5).
    pub text_x10: u32,
    /// Further bytes per token at the block peak (Wan's complex128 RoPE table row).
    pub block_extra: u32,
    /// A second place in the block whose live copies can exceed `block_x10` / `text_x10`
    /// (image, text tokens; ×10; 0: none): CogVideoX 5B's RoPE on the image keys, where its
    /// feed-forward peak is the first. The block's working set is the larger of the two.
    pub rope_x10: (u32, u32),
    /// Bytes per image token of position tables built once for the whole batch (traced):
    /// CogVideoX 5B's `_prepare_rotary_positional_embeddings` before the loop (fp32 cos and sin
    /// of head_dim 64 = 512); HunyuanVideo's `HunyuanVideoRotaryPosEmbed` in each call (head_dim
    /// 128: 1024); FLUX's `FluxPosEmbed` over `txt_ids` and `img_ids` and Qwen-Image's
    /// `QwenEmbedRope` (complex64 rows of head_dim 128: 1024) once per call, not per sample
    /// (traced: at batch 4 a per-sample table over-counted FLUX's step by 0.7 %); 0: none.
    pub rope_table: u32,
    /// Whether `rope_table` also covers the prompt's tokens joined to the image's (FLUX,
    /// Qwen-Image); CogVideoX and HunyuanVideo rotate the image tokens only.
    pub rope_table_text: bool,
    /// UNet levels (empty for transformers).
    pub unet: &'static [UnetLevel],
    /// Which code runs it.
    pub runtime: Runtime,
    /// Decode loop.
    pub vae: VaeDecode,
    /// Source of the figures.
    pub source: &'static str,
}

const fn te(
    id: &'static str,
    params: u64,
    f: PipelinePartFormat,
    hidden: u32,
    tokens: u32,
) -> Part {
    Part {
        id,
        role: Role::TextEncoder,
        params,
        default_format: f,
        keep16: 0,
        fp32_keep: 0,
        fp32_any: 0,
        lc_keep: 0,
        upcast_layer: 0,
        buffers: 0,
        hidden,
        tokens,
        blocks: 12,
        // CLIP: the token embedding (49,408 × hidden); T5 / Llama parts set theirs (`keep16`).
        leaf: 49_408 * hidden as u64,
        layer_x10: 160,
        all_hidden: false,
        bias_heads: 0,
        logits_vocab: 0,
        ff: 0,
    }
}

const fn dn(
    id: &'static str,
    params: u64,
    f: PipelinePartFormat,
    blocks: u32,
    buffers: u64,
) -> Part {
    Part {
        id,
        role: Role::Denoiser,
        params,
        default_format: f,
        keep16: 0,
        fp32_keep: 0,
        fp32_any: 0,
        lc_keep: 0,
        upcast_layer: 0,
        buffers,
        hidden: 0,
        tokens: 0,
        blocks,
        leaf: 0,
        layer_x10: 0,
        all_hidden: false,
        bias_heads: 0,
        logits_vocab: 0,
        ff: 0,
    }
}

const fn vae(params: u64, f: PipelinePartFormat) -> Part {
    Part {
        id: "vae",
        role: Role::Vae,
        params,
        default_format: f,
        keep16: 0,
        fp32_keep: 0,
        fp32_any: 0,
        lc_keep: 0,
        upcast_layer: 0,
        buffers: 0,
        hidden: 0,
        tokens: 0,
        blocks: 32,
        leaf: 0,
        layer_x10: 0,
        all_hidden: false,
        bias_heads: 0,
        logits_vocab: 0,
        ff: 0,
    }
}

/// T5-v1.1-XXL encoder (4,762,310,656; embedding 32,128 × 4096; `wo` 24 × 10,240 × 4096).
const fn t5(tokens: u32, f: PipelinePartFormat) -> Part {
    Part {
        keep16: 131_596_288,
        fp32_keep: 1_006_632_960,
        blocks: 24,
        leaf: 131_596_288,
        // At the first layer's attention: the embedding output, q, k, v, the attention output and
        // two stream copies = 7 rows, beside the bias (traced, FLUX.1-dev, 512 tokens).
        layer_x10: 70,
        bias_heads: 64,
        ff: 10_240,
        ..te("t5_xxl", 4_762_310_656, f, 4096, tokens)
    }
}

/// 2D `AutoencoderKL` (SD, SDXL, SD3, FLUX): the largest module is a 512→512 3×3 conv (traced).
const fn vae_kl(params: u64, f: PipelinePartFormat) -> Part {
    Part {
        leaf: 2_359_808,
        ..vae(params, f)
    }
}

/// SD1.5 / SDXL UNet: the largest module is an up block's 2,560→1,280 3×3 conv (traced).
const fn unet(id: &'static str, params: u64, blocks: u32) -> Part {
    Part {
        leaf: 29_492_480,
        // Layerwise casting keeps the GroupNorm / LayerNorm weights (SDXL's count; SD1.5's 200,320).
        lc_keep: 588_160,
        ..dn(id, params, Fp16, blocks, 0)
    }
}

/// FLUX.1 transformer: largest chain of direct parameters 56,641,536 (traced).
const fn flux_dn(params: u64) -> Part {
    Part {
        leaf: 56_641_536,
        // Layerwise casting keeps every block's AdaLN modulation Linear ("norm" pattern: 19 × 2
        // × 3072 → 18,432, 38 × 3072 → 9,216, `norm_out`), the RMSNorm weights and `proj_out`.
        lc_keep: 3_247_664_192,
        upcast_layer: 47_188_992,
        ..dn("transformer", params, Bf16, 57, 0)
    }
}

// Exact counts of the meta-device instantiation (`tests/traces/diffusion/*.json` `param_count`).
const CLIP_L: u64 = 123_060_480;
const CLIP_L_PROJ: u64 = 123_650_304;
const CLIP_G: u64 = 694_659_840;
const SD_VAE: u64 = 83_653_863;
const FLUX_VAE: u64 = 83_819_683;

use PipelinePartFormat::{Bf16, Fp16, Fp32};

/// 2D `AutoencoderKL` decode: the traced peak is the first resnet of the last up block, where the
/// 256-channel full-resolution map is live three times (the block input, `norm1` and its SiLU):
/// 6 maps of the 128-channel stage (`tests/traces/diffusion`). The measured peaks (§1.3, InvokeAI
/// VAE benchmark; the SDXL blog's decode) are 4.75 U (16-bit) / 3.75 U (fp32) with
/// U = 256·H·W·b, i.e. 9.5 / 7.5 maps: the difference, 3.5 / 1.5 maps, is the cuDNN workspace of
/// that conv, which a trace cannot see. Tile = the VAE's `sample_size`.
const fn vae2d(tile: u32, upcast: bool) -> VaeDecode {
    VaeDecode {
        stage_channels: 128,
        stage_downscale: 1,
        live_x100: 600,
        workspace_x100_16: 350,
        workspace_x100_32: 150,
        cache_x100: 0,
        chunk_frames: 1,
        tile: (tile, tile),
        upcast,
        wan_loop: false,
        cog_loop: false,
        ltx_loop: false,
        hunyuan_loop: false,
    }
}

/// SD1.5 UNet levels: 320/640/1280/1280 channels, 8 heads, attention on the first three.
const SD15_UNET: &[UnetLevel] = &[
    UnetLevel {
        downscale: 1,
        channels: 320,
        heads: 8,
    },
    UnetLevel {
        downscale: 2,
        channels: 640,
        heads: 8,
    },
    UnetLevel {
        downscale: 4,
        channels: 1280,
        heads: 8,
    },
    UnetLevel {
        downscale: 8,
        channels: 1280,
        heads: 0,
    },
];
/// SDXL UNet levels: 320 (no attention) / 640 (10 heads) / 1280 (20 heads).
const SDXL_UNET: &[UnetLevel] = &[
    UnetLevel {
        downscale: 1,
        channels: 320,
        heads: 0,
    },
    UnetLevel {
        downscale: 2,
        channels: 640,
        heads: 10,
    },
    UnetLevel {
        downscale: 4,
        channels: 1280,
        heads: 20,
    },
];

const fn base(id: &'static str, name: &'static str, parts: &'static [Part]) -> Pipeline {
    Pipeline {
        id,
        name,
        video: false,
        parts,
        vae_factor: 8,
        temporal_factor: 1,
        latent_channels: 16,
        patch: 2,
        cfg: true,
        cfg_batched: true,
        denoiser_hidden: 0,
        denoiser_layers: 0,
        denoiser_heads: 0,
        text_tokens: 77,
        joint_text: false,
        text_dim: 4096,
        reference_image: false,
        fp32_latents: false,
        timestep_mask: false,
        repeat_after_concat: false,
        // FLUX single block at RoPE time (traced): the concatenated input, the modulated norm, the
        // 4d GELU MLP, q/k/v, rotated q and k (fp32 products, cast back, stacked) = 16·d, plus the
        // block's input that the caller's loop still holds (`hidden_states = block(hidden_states,
        // …)`): 17·d; used for every diffusers DiT block.
        block_x10: 170,
        text_x10: 0,
        block_extra: 0,
        rope_x10: (0, 0),
        rope_table: 0,
        rope_table_text: false,
        unet: &[],
        runtime: Runtime::Diffusers,
        vae: vae2d(1024, false),
        source: source!(""),
    }
}

/// The FLUX.1 transformer's pipeline settings, shared by dev, schnell and Kontext: guidance
/// distilled into the model (no CFG pass), 19 double + 38 single blocks of 3072 × 24 heads, the
/// prompt's tokens joined to the image tokens.
const fn flux(
    id: &'static str,
    name: &'static str,
    text_tokens: u32,
    parts: &'static [Part],
) -> Pipeline {
    Pipeline {
        cfg: false,
        denoiser_hidden: 3072,
        denoiser_layers: 57,
        denoiser_heads: 24,
        text_tokens,
        joint_text: true,
        // RoPE tables: fp32 cos and sin rows of head_dim 128 per token, one per call (traced).
        rope_table: 1024,
        rope_table_text: true,
        ..base(id, name, parts)
    }
}

/// Wan2.1 official decode (`wan/modules/vae.py`, fp32): one latent frame (4 output frames) per
/// call. Peak at a full-resolution `ResidualBlock` conv: block input, SiLU output, new and old
/// 2-frame cache, padded 6-frame input, output and fp32 workspace = 26 maps of 96 channels per
/// 4 frames (6.5 per frame; 8 with the 16-bit workspace rule). Caches: 2 frames of every causal
/// conv input, 7 convs × 96 ch at H, 6 × 192 at H/2, 2,496 ch at H/4 and 4,240 at H/8
/// = 1,182 full-resolution channels × 2 frames = 24.6 maps.
const WAN_VAE: VaeDecode = VaeDecode {
    stage_channels: 96,
    stage_downscale: 1,
    live_x100: 650,
    workspace_x100_16: 150,
    workspace_x100_32: 0,
    cache_x100: 2462,
    chunk_frames: 4,
    tile: (256, 256),
    upcast: false,
    wan_loop: true,
    cog_loop: false,
    ltx_loop: false,
    hunyuan_loop: false,
};

/// Wan official DiT block peak (`wan/modules/model.py`): fp32 residual, fp32 modulated input,
/// fp32 q and k (RMSNorm × fp32 weight), bf16 v, rotated q, and `rope_apply` on k (complex128
/// product, `torch.cat`, `torch.stack`, `.float()`) = 42 bytes per hidden unit per token, plus
/// the complex128 frequency row (head_dim/2 × 16 B = 1 KiB per token).
const fn wan(
    id: &'static str,
    name: &'static str,
    parts: &'static [Part],
    d: u32,
    layers: u32,
) -> Pipeline {
    Pipeline {
        video: true,
        temporal_factor: 4,
        cfg_batched: false,
        denoiser_hidden: d,
        denoiser_layers: layers,
        denoiser_heads: d / 128,
        text_tokens: 512,
        block_x10: 210,
        block_extra: 1024,
        runtime: Runtime::WanOfficial,
        vae: WAN_VAE,
        source: source!(
            "Wan-Video/Wan2.1 wan/configs, wan/modules/{model,vae}.py, wan/text2video.py"
        ),
        ..base(id, name, parts)
    }
}

/// Qwen2.5-VL-7B-Instruct as Qwen-Image's text encoder (`_get_qwen_prompt_embeds`): the 34-token
/// system template + the prompt, `output_hidden_states=True`, the head's logits over every token;
/// the output object stays referenced while the last hidden state is masked, cut and stacked.
/// Peak at the `torch.stack` (traced), in rows of 162 tokens × 3,584: the 28 layers' hidden
/// states (`blocks`) + the embedding output, the mask-selected copy, the cut prompt's `cat` and
/// `stack` (2 × 128 / 162), and the KV cache the call returns (`use_cache`: 2 × 28 layers × 4 KV
/// heads × 128 = 8 rows) = 11.6 rows more, + the logits (162 × 152,064). The MLP inside a layer
/// (3 × 18,944 + 2 × 3,584 per token) stays below it.
const QWEN_TE: Part = Part {
    keep16: 544_997_376,
    blocks: 28,
    leaf: 544_997_376,
    layer_x10: 116,
    all_hidden: true,
    logits_vocab: 152_064,
    ..te("qwen25_vl", 8_292_166_656, Bf16, 3584, 162)
};

/// Qwen-Image's VAE (`AutoencoderKLQwenImage`, the Wan 2.1 causal decoder on one frame, 16-bit):
/// the image rule with the causal caches as live maps. Every causal conv keeps its input frame
/// for a next chunk that never comes (`feat_cache`): 1,182 channels at full resolution = 12.3
/// maps of the 96-channel stage, + 5.71 maps live at the full-resolution resnet's conv (traced)
/// = 18.02. Tiling (`tiled_decode`): 256 px tiles at a 192 px stride, as the image rule.
const QWEN_VAE: VaeDecode = VaeDecode {
    stage_channels: 96,
    stage_downscale: 1,
    live_x100: 1802,
    workspace_x100_16: 150,
    workspace_x100_32: 0,
    cache_x100: 0,
    chunk_frames: 1,
    tile: (256, 256),
    upcast: false,
    wan_loop: false,
    cog_loop: false,
    ltx_loop: false,
    hunyuan_loop: false,
};

/// Wan 2.2's VAE in diffusers (`AutoencoderKLWan` with `patch_size` 2, fp32): the decoder's last
/// stage runs at half the output resolution with 256 channels; one latent frame (4 output
/// frames) per call, the decoded chunks concatenated. Per call (traced, diffusers 0.42.1, the
/// same at 832 × 480 and on a 256 px tile): 56.2 live maps of that stage per 4 frames
/// (14.04 per frame) beside the causal caches' 28.07 maps.
const WAN22_VAE: VaeDecode = VaeDecode {
    stage_channels: 256,
    stage_downscale: 2,
    live_x100: 1404,
    workspace_x100_16: 150,
    workspace_x100_32: 0,
    cache_x100: 2807,
    chunk_frames: 4,
    tile: (256, 256),
    upcast: false,
    wan_loop: true,
    cog_loop: false,
    ltx_loop: false,
    hunyuan_loop: false,
};

const WAN_T5: Part = Part {
    keep16: 1_050_148_864,
    blocks: 24,
    leaf: 1_050_148_864,
    layer_x10: 70,
    bias_heads: 64,
    ff: 10_240,
    ..te("umt5_xxl", 5_680_910_336, Bf16, 4096, 512)
};
/// Wan 2.1's VAE (126,892,531, traced); its largest leaf is a 384-channel 3×3×3 conv (traced).
const WAN_VAE_PART: Part = Part {
    leaf: 3_981_696,
    ..vae(126_892_531, Fp32)
};
const WAN14: u64 = 14_288_491_584;

/// CogVideoX (diffusers 0.42.1 `AutoencoderKLCogVideoX`, 16-bit; traced): the decode loop is
/// `working_set::cog_decoder` (`cog_loop`); the stage is the last up block's 128 channels at full
/// resolution, 8 output frames per decoder call. The cuDNN workspace at the peak conv (in + out
/// of a full-resolution conv, not traced) stays 2 maps per frame. Tiling: `tile_sample_min_*` =
/// `sample_height / 2` × `sample_width / 2` = 240 × 360 px.
const COG_VAE: VaeDecode = VaeDecode {
    stage_channels: 128,
    stage_downscale: 1,
    live_x100: 0,
    workspace_x100_16: 200,
    workspace_x100_32: 0,
    cache_x100: 0,
    chunk_frames: 8,
    tile: (240, 360),
    upcast: false,
    wan_loop: false,
    cog_loop: true,
    ltx_loop: false,
    hunyuan_loop: false,
};

/// HunyuanVideo's text tower (`LlamaModel`, the llava-llama-3-8b text part, fp16) as
/// `_get_llama_prompt_embeds` calls it: the 95-token video template + 256 prompt tokens,
/// `output_hidden_states=True` (the 33 hidden states live until the call returns; the pipeline
/// keeps `hidden_states[-3]` cut to the prompt). Traced peak, at the last layer's MLP, in rows of
/// 351 tokens × 4096: the 32 layers' outputs (`blocks`) + the embedding output and the layer's
/// normed input (2), the KV cache the call returns (`use_cache` from the config: 2 × 32 layers ×
/// 8 KV heads × 128 = 16 rows) and the SwiGLU MLP (gate, up and their product: 3 × 14,336 /
/// 4096 = 10.5) = 28.5 rows more. `buffers`: the fp32 RoPE `inv_freq` (64, in 16-bit units).
const HUNYUAN_LLAMA: Part = Part {
    keep16: 525_598_720,
    blocks: 32,
    leaf: 525_598_720,
    layer_x10: 285,
    all_hidden: true,
    buffers: 128,
    ..te("llama", 7_505_186_816, Fp16, 4096, 351)
};

/// HunyuanVideo's VAE decode (`working_set::hunyuan_decode`); `tile` = `tile_sample_min_*`
/// (256 px). The workspace fields keep the untraced 2D rule of the 128-channel stage.
const HUNYUAN_VAE: VaeDecode = VaeDecode {
    chunk_frames: 17,
    tile: (256, 256),
    hunyuan_loop: true,
    ..vae2d(256, false)
};

/// LTX-Video 0.9.0's VAE decode (`working_set::ltx_decode`): the 128-channel stage at a quarter
/// of the output size, all frames in one pass; `tile` = `tile_sample_min_*` (512 px).
const LTX_VAE: VaeDecode = VaeDecode {
    stage_downscale: 4,
    chunk_frames: 0,
    tile: (512, 512),
    ltx_loop: true,
    ..vae2d(512, false)
};

/// `AutoencoderKLCogVideoX` (THUDM/CogVideoX-2b and -5b `vae/config.json`; meta count).
const COG_VAE_PARAMS: u64 = 215_583_907;

/// CogVideoX's pipeline settings (diffusers `CogVideoXPipeline`, `CogVideoXTransformer3DModel`:
/// the 226 prompt tokens join the image tokens; batched CFG). The block (traced, diffusers
/// 0.42.1) peaks in its feed-forward (`FeedForward` with tanh GELU): the 4·d projection and its
/// activation (8 copies of the hidden state per token) beside the block's input (held by the
/// caller; the patch embedding's output in the first block), the attention output (`to_out`,
/// whose split views the block keeps), the updated stream, and the `torch.cat` of the
/// `norm2` outputs the feed-forward takes = 12 per image token; a text token also keeps its
/// `norm2` output (13). The 5B's 3D RoPE (`apply_rotary_emb` on the image tokens' q, then k)
/// peaks higher (`rope_x10`): `x.float() * cos`, `x_rotated.float()` and their products, 3 fp32
/// copies = 6, the bf16 `x_rotated` 1, q and k after `norm_q` / `norm_k`, v, the concatenated
/// `norm1` output the attention takes, `norm1`'s image output and the block's input = 13 per
/// image token, 6 per text token (unrotated). `leaf`: the feed-forward's `proj` (d → 4·d);
/// the VAE's, a 512-channel 3×3×3 conv (meta-device chains).
const fn cog(
    id: &'static str,
    name: &'static str,
    parts: &'static [Part],
    d: u32,
    layers: u32,
    heads: u32,
    rope: bool,
) -> Pipeline {
    Pipeline {
        video: true,
        temporal_factor: 4,
        denoiser_hidden: d,
        denoiser_layers: layers,
        denoiser_heads: heads,
        text_tokens: 226,
        joint_text: true,
        block_x10: 120,
        text_x10: 130,
        rope_x10: if rope { (130, 60) } else { (0, 0) },
        rope_table: if rope { 2 * 64 * 4 } else { 0 },
        vae: COG_VAE,
        source: source!(
            "THUDM/CogVideoX-2b / -5b {transformer,vae}/config.json; diffusers 0.42.1 CogVideoXPipeline / AutoencoderKLCogVideoX (traced); THUDM/CogVideo README"
        ),
        ..base(id, name, parts)
    }
}

/// CogVideoX's transformer: its feed-forward's `proj` is the largest chain of direct parameters
/// (d × 4·d + 4·d, meta count).
const fn cog_dn(params: u64, f: PipelinePartFormat, blocks: u32, buffers: u64, d: u64) -> Part {
    Part {
        leaf: d * 4 * d + 4 * d,
        ..dn("transformer", params, f, blocks, buffers)
    }
}

/// CogVideoX's VAE: the largest chain is a 512-channel 3×3×3 conv (7,078,400, meta count).
const fn cog_vae(f: PipelinePartFormat) -> Part {
    Part {
        leaf: 7_078_400,
        ..vae(COG_VAE_PARAMS, f)
    }
}

/// Every pipeline.
pub static PIPELINES: &[Pipeline] = &[
    Pipeline {
        latent_channels: 4,
        patch: 1,
        denoiser_hidden: 1280,
        denoiser_layers: 16,
        denoiser_heads: 8,
        text_dim: 768,
        unet: SD15_UNET,
        vae: vae2d(512, false),
        source: source!("runwayml/stable-diffusion-v1-5 configs; diffusers StableDiffusionPipeline"),
        ..base(
            "sd15",
            "Stable Diffusion 1.5",
            &[te("clip_l", CLIP_L, Fp16, 768, 77), Part { lc_keep: 200_320, ..unet("unet", 859_500_000, 16) }, vae_kl(SD_VAE, Fp16)],
        )
    },
    Pipeline {
        latent_channels: 4,
        patch: 1,
        denoiser_hidden: 1280,
        denoiser_layers: 70,
        denoiser_heads: 20,
        // CLIP-L ‖ CLIP-G.
        text_dim: 2048,
        repeat_after_concat: true,
        unet: SDXL_UNET,
        vae: vae2d(1024, true),
        source: source!("stabilityai/stable-diffusion-xl-base-1.0 configs; diffusers StableDiffusionXLPipeline"),
        ..base("sdxl", "Stable Diffusion XL (base)", SDXL_PARTS)
    },
    Pipeline {
        latent_channels: 4,
        patch: 1,
        denoiser_hidden: 1280,
        denoiser_layers: 70,
        denoiser_heads: 20,
        // CLIP-L ‖ CLIP-G.
        text_dim: 2048,
        repeat_after_concat: true,
        unet: SDXL_UNET,
        vae: vae2d(1024, true),
        source: source!("SDXL base + refiner as one ensemble (diffusers docs 'base + refiner'), both resident"),
        ..base("sdxl-refiner", "Stable Diffusion XL base + refiner", SDXL_REFINER_PARTS)
    },
    Pipeline {
        denoiser_hidden: 1536,
        denoiser_layers: 24,
        denoiser_heads: 24,
        text_tokens: 333,
        joint_text: true,
        // The 3.5 Medium's traced MMDiT block less one copy: 3.0's blocks have no second
        // attention, whose AdaLN output (`norm_hidden_states2`) 3.5 keeps live through the
        // feed-forward (traced: exactly 1536 × 2 B per image token fewer).
        block_x10: 130,
        text_x10: 25,
        source: source!("stabilityai/stable-diffusion-3-medium-diffusers transformer/config.json (num_layers 24, 24 heads × 64, caption_projection_dim 1536, pos_embed_max_size 192, no dual_attention_layers, no qk_norm; meta instantiation: 2,028,328,000 parameters + the 192² × 1536 pos-embed buffer); text encoders and VAE as 3.5 Medium; diffusers StableDiffusion3Pipeline"),
        ..base("sd3-medium", "Stable Diffusion 3 Medium", &[
            clip_l_all("clip_l", CLIP_L_PROJ, Fp16),
            clip_g(Fp16),
            t5(256, Fp16),
            Part { leaf: 14_164_992, lc_keep: 675_396_160, upcast_layer: 9_443_328, ..dn("transformer", 2_028_328_000, Fp16, 24, 56_623_104) },
            vae_kl(FLUX_VAE, Fp16),
        ])
    },
    Pipeline {
        denoiser_hidden: 1536,
        denoiser_layers: 24,
        denoiser_heads: 24,
        text_tokens: 333,
        joint_text: true,
        // Traced: the image stream's feed-forward (4d GELU-tanh input and output), its norm and
        // modulation, the attention output and residual, the caller's copy = 14 d per image token.
        block_x10: 140,
        text_x10: 25,
        source: source!("stabilityai/stable-diffusion-3.5-medium transformer/config.json (meta instantiation: 2,243,171,520 parameters + the 384² × 1536 pos-embed buffer); diffusers StableDiffusion3Pipeline"),
        ..base("sd35-medium", "Stable Diffusion 3.5 Medium", &[
            clip_l_all("clip_l", CLIP_L_PROJ, Fp16),
            clip_g(Fp16),
            t5(256, Fp16),
            Part { leaf: 21_247_488, lc_keep: 767_476_416, upcast_layer: 9_443_328, ..dn("transformer", 2_243_171_520, Fp16, 24, 226_492_416) },
            vae_kl(FLUX_VAE, Fp16),
        ])
    },
    Pipeline {
        denoiser_hidden: 2432,
        denoiser_layers: 38,
        denoiser_heads: 38,
        text_tokens: 333,
        joint_text: true,
        // Traced (`tests/traces/diffusion/sd35-large.json`): the 3.5 Medium's block without its
        // dual attention (`dual_attention_layers` empty), so without the second AdaLN output
        // (`norm_hidden_states2`) the Medium keeps live through the feed-forward: the image
        // stream's feed-forward (4d GELU-tanh input and output), its norm and modulation, the
        // attention output and residual, the caller's copy = 13 d per image token, as SD3 Medium;
        // the QK RMSNorm runs before the feed-forward and adds nothing at the peak.
        block_x10: 130,
        text_x10: 25,
        source: source!("stabilityai/stable-diffusion-3.5-large transformer/config.json (38 layers, 38 heads × 64, caption_projection_dim 2432, pos_embed_max_size 192, qk_norm rms_norm, no dual_attention_layers; meta instantiation: 8,056,627,520 parameters + the 192² × 2432 pos-embed buffer); text encoders and VAE as 3.5 Medium, bf16; diffusers StableDiffusion3Pipeline"),
        ..base("sd35-large", "Stable Diffusion 3.5 Large", &[
            clip_l_all("clip_l", CLIP_L_PROJ, Bf16),
            clip_g(Bf16),
            t5(256, Bf16),
            // leaf: a block's AdaLN `norm1.linear` (2432 → 6 × 2432, meta chain); upcast_layer: a
            // feed-forward's 2432 → 9728 projection (the layer traced for the Medium's fp8 step).
            Part { leaf: 35_502_336, lc_keep: 2_686_666_944, upcast_layer: 23_668_224, ..dn("transformer", 8_056_627_520, Bf16, 38, 89_653_248) },
            vae_kl(FLUX_VAE, Bf16),
        ])
    },
    Pipeline {
        source: source!("FluxTransformer2DModel defaults + guidance_embeds; blog diffusers-quantization (23.8 GB bf16)"),
        ..flux("flux1-dev", "FLUX.1 [dev]", 512, &[
            te("clip_l", CLIP_L, Bf16, 768, 77),
            t5(512, Bf16),
            flux_dn(11_901_408_320),
            vae_kl(FLUX_VAE, Bf16),
        ])
    },
    Pipeline {
        source: source!("FLUX.1-dev less the guidance embedder (256→3072→3072 = 10,229,760); max_sequence_length 256"),
        ..flux("flux1-schnell", "FLUX.1 [schnell]", 256, &[
            te("clip_l", CLIP_L, Bf16, 768, 77),
            t5(256, Bf16),
            flux_dn(11_891_178_560),
            vae_kl(FLUX_VAE, Bf16),
        ])
    },
    Pipeline {
        reference_image: true,
        source: source!("black-forest-labs/FLUX.1-Kontext-dev transformer/config.json (the FLUX.1-dev layout: 19 double + 38 single blocks, 24 heads × 128, in_channels 64, guidance_embeds; meta instantiation 11,901,408,320 parameters); text encoders and VAE as FLUX.1-dev; diffusers FluxKontextPipeline"),
        ..flux("flux1-kontext-dev", "FLUX.1 Kontext [dev]", 512, &[
            te("clip_l", CLIP_L, Bf16, 768, 77),
            t5(512, Bf16),
            flux_dn(11_901_408_320),
            vae_kl(FLUX_VAE, Bf16),
        ])
    },
    Pipeline {
        cfg_batched: false,
        denoiser_hidden: 3072,
        denoiser_layers: 60,
        denoiser_heads: 24,
        text_tokens: 128,
        joint_text: true,
        text_dim: 3584,
        // `QwenImageTransformerBlock` at the image stream's feed-forward GELU (traced): its input
        // and GELU (2 × 4 d) and 7 copies of the image hidden state (stream, norm, modulated,
        // attention output, gated residual, caller's copies) = 15 d; 5 copies of the text stream
        // beside it; the complex64 RoPE rows (2 × 64 × 8 B per token), one per call.
        block_x10: 150,
        text_x10: 50,
        rope_table: 1024,
        rope_table_text: true,
        vae: QWEN_VAE,
        source: source!("Qwen/Qwen-Image transformer/config.json (60 blocks, 24 heads × 128, joint_attention_dim 3584, in_channels 64, no guidance embedding; meta instantiation 20,430,401,088 parameters), text_encoder/config.json (Qwen2.5-VL-7B-Instruct, 8,292,166,656), vae/config.json (AutoencoderKLQwenImage base_dim 96, z_dim 16, 126,892,531); diffusers QwenImagePipeline; 128 prompt tokens"),
        ..base("qwen-image", "Qwen-Image", &[
            QWEN_TE,
            Part { leaf: 56_641_536, lc_keep: 19_111_488, ..dn("transformer", 20_430_401_088, Bf16, 60, 0) },
            Part { leaf: 3_981_696, ..vae(126_892_531, Bf16) },
        ])
    },
    // 1.3B transformer (traced in diffusers): its largest leaf 14,171,136, 3,127,296 parameters
    // fp32 by `_keep_in_fp32_modules`, 262,144 fp32 RoPE buffer elements (524,288 16-bit units).
    wan("wan21-t2v-1.3b", "Wan2.1 T2V 1.3B", &[
        WAN_T5,
        Part { leaf: 14_171_136, fp32_any: 3_127_296, lc_keep: 23_201_344, ..dn("transformer", 1_418_996_800, Fp32, 30, 524_288) },
        WAN_VAE_PART,
    ], 1536, 30),
    wan("wan21-t2v-14b", "Wan2.1 T2V 14B", &[WAN_T5, dn("transformer", WAN14, Fp32, 40, 0), WAN_VAE_PART], 5120, 40),
    Pipeline {
        source: source!("Wan-Video/Wan2.2 T2V-A14B: high- and low-noise experts of the Wan2.1 14B layout"),
        ..wan("wan22-t2v-a14b", "Wan2.2 T2V A14B (MoE)", &[
            WAN_T5,
            dn("transformer", WAN14, Fp32, 40, 0),
            dn("transformer_2", WAN14, Fp32, 40, 0),
            WAN_VAE_PART,
        ], 5120, 40)
    },
    Pipeline {
        vae_factor: 16,
        latent_channels: 48,
        denoiser_heads: 24,
        // diffusers `WanTransformerBlock` at the feed-forward's GELU (traced): five bf16 copies
        // of the hidden state, and per token (`expand_timesteps` gives each token its timestep)
        // the 6-way modulation twice: `timestep_proj` (6 d, bf16) and `scale_shift_table +
        // temb.float()` (6 d, fp32) = 23 copies; the FFN input and GELU (2 × 14,336 × 2 B) and
        // the fp32 RoPE cos and sin rows (2 × 128 × 4 B) per token.
        block_x10: 230,
        block_extra: 4 * 14_336 + 1024,
        fp32_latents: true,
        timestep_mask: true,
        runtime: Runtime::Diffusers,
        vae: WAN22_VAE,
        source: source!("Wan-AI/Wan2.2-TI2V-5B-Diffusers transformer/config.json (30 layers, 24 heads × 128, ffn_dim 14336, in/out 48 channels; meta instantiation 4,999,787,712 parameters, 10,973,184 of them fp32 by `_keep_in_fp32_modules`), vae/config.json (AutoencoderKLWan base_dim 160, decoder_base_dim 256, z_dim 48, patch_size 2, is_residual; 704,688,668); diffusers WanPipeline (expand_timesteps)"),
        ..wan("wan22-ti2v-5b", "Wan2.2 TI2V 5B", &[
            WAN_T5,
            Part { fp32_any: 10_973_184, lc_keep: 80_219_328, leaf: 56_653_824, ..dn("transformer", 4_999_787_712, Bf16, 30, 524_288) },
            Part { leaf: 28_312_576, ..vae(704_688_668, Fp32) },
        ], 3072, 30)
    },
    Pipeline {
        video: true,
        temporal_factor: 4,
        cfg: false,
        denoiser_hidden: 3072,
        denoiser_layers: 60,
        denoiser_heads: 24,
        text_tokens: 256,
        joint_text: true,
        // Traced (diffusers 0.42.1): the peak is a single block's attention
        // (`HunyuanVideoSingleTransformerBlock`: the image and text streams come in apart and are
        // joined by `torch.cat`), at `apply_rotary_emb` on the image keys: per image token the
        // caller's stream (1 d), six 16-bit copies of the joined sequence (the concatenated input,
        // its AdaLN output, q, k, v, the query rotated and re-joined), the MLP branch
        // (`act_mlp(proj_mlp(·))`, 4 d), the bf16 `x_rotated` (1 d) and three fp32 products
        // (`x.float() * cos`, `x_rotated.float()`, its product with sin: 6 d) = 18 d; a text token
        // keeps 11 d (not rotated). The fp32 RoPE cos / sin rows (`HunyuanVideoRotaryPosEmbed`,
        // 2 × 128 × 4 B per image token) are built in each call from the latent grid, one table
        // for the whole batch (traced: batch 2 holds twice the block, once the table).
        block_x10: 180,
        text_x10: 110,
        rope_table: 2 * 128 * 4,
        fp32_latents: true,
        vae: HUNYUAN_VAE,
        source: source!("hunyuanvideo-community/HunyuanVideo transformer/config.json (20 double + 40 single blocks, 24 heads × 128, 2 refiner blocks, guidance_embeds; meta instantiation 12,821,012,544 parameters), text_encoder/config.json (LlamaModel, llava-llama-3-8b text tower, vocab 128,320: 7,505,186,816), text_encoder_2 (CLIP-L), vae/config.json (AutoencoderKLHunyuanVideo: 246,478,803); diffusers 0.42.1 HunyuanVideoPipeline (traced)"),
        ..base("hunyuanvideo", "HunyuanVideo", &[
            HUNYUAN_LLAMA,
            te("clip_l", CLIP_L, Fp16, 768, 77),
            // leaf: a block's AdaLN `norm1.linear` (3072 → 6 × 3072), as FLUX's.
            Part { leaf: 56_641_536, ..dn("transformer", 12_821_012_544, Bf16, 60, 0) },
            // leaf: a 512-channel 3×3×3 causal conv.
            Part { leaf: 7_078_400, ..vae(246_478_803, Fp16) },
        ])
    },
    // 2B: the 3D sincos position table (1, 226 + 13 × 30 × 45, 1920) is a buffer.
    cog("cogvideox-2b", "CogVideoX 2B", &[t5(226, Fp16), cog_dn(1_693_783_872, Fp16, 30, 34_129_920, 1920), cog_vae(Fp16)], 1920, 30, 30, false),
    cog("cogvideox-5b", "CogVideoX 5B", &[t5(226, Bf16), cog_dn(5_570_283_072, Bf16, 42, 0, 3072), cog_vae(Bf16)], 3072, 42, 48, true),
    Pipeline {
        video: true,
        vae_factor: 32,
        temporal_factor: 8,
        latent_channels: 128,
        patch: 1,
        denoiser_hidden: 2048,
        denoiser_layers: 28,
        denoiser_heads: 32,
        text_tokens: 128,
        // Traced (diffusers 0.42.1 `LTXVideoTransformerBlock`): the peak is the self-attention's
        // RoPE (`apply_rotary_emb` on the keys; T5's 128 tokens enter by cross-attention, not
        // joined): per token the block's input, its norm, q and k (flat and unflattened), the
        // bf16 `x_rotated` and three fp32 products (`x.float() * cos`, `x_rotated.float()`, its
        // product with sin: 6 d) = 12 d, and the RoPE tables the transformer builds per call for
        // every sample (`LTXVideoRotaryPosEmbed`: fp32 cos and sin of the full hidden width,
        // 2 × 2048 × 4 B per token).
        block_x10: 120,
        block_extra: 2 * 2048 * 4,
        fp32_latents: true,
        vae: LTX_VAE,
        source: source!("Lightricks/LTX-Video (0.9.0) transformer/config.json (28 blocks, 32 heads × 64, cross_attention_dim 2048, caption_channels 4096, in/out 128, patch 1; meta instantiation 1,923,385,472 parameters), vae/config.json (AutoencoderKLLTXVideo [128, 256, 512, 512], layers [4, 3, 3, 3, 4], patch_size 4: 419,193,649); diffusers 0.42.1 LTXPipeline (traced)"),
        ..base("ltx-video", "LTX-Video 0.9 (2B)", &[
            t5(128, Bf16),
            // leaf: the meta-device chain of direct parameters (25,182,208).
            Part { leaf: 25_182_208, ..dn("transformer", 1_923_385_472, Bf16, 28, 0) },
            // leaf: an upsampler's 512 → 4,096-channel 3×3×3 conv; buffers: `latents_mean` and
            // `latents_std` (128 each).
            Part { leaf: 56_627_200, buffers: 256, ..vae(419_193_649, Bf16) },
        ])
    },
];

/// CLIP-G (SDXL `text_encoder_2`, SD3 `text_encoder_2`): 32 layers, `gelu` MLP (fc1 4 +
/// activation 4 + residual + norm = 10 copies per layer); both pipelines take `hidden_states[-2]`.
const fn clip_g(f: PipelinePartFormat) -> Part {
    Part {
        blocks: 32,
        layer_x10: 100,
        all_hidden: true,
        ..te("clip_g", CLIP_G, f, 1280, 77)
    }
}

/// CLIP-L as SDXL and SD3 call it (`output_hidden_states=True`).
const fn clip_l_all(id: &'static str, params: u64, f: PipelinePartFormat) -> Part {
    Part {
        all_hidden: true,
        ..te(id, params, f, 768, 77)
    }
}

const SDXL_TE: [Part; 2] = [clip_l_all("clip_l", CLIP_L, Fp16), clip_g(Fp16)];
const SDXL_PARTS: &[Part] = &[
    SDXL_TE[0],
    SDXL_TE[1],
    Part {
        upcast_layer: 29_492_480,
        ..unet("unet", 2_567_500_000, 70)
    },
    vae_kl(SD_VAE, Fp16),
];
const SDXL_REFINER_PARTS: &[Part] = &[
    SDXL_TE[0],
    SDXL_TE[1],
    unet("unet", 2_567_500_000, 70),
    dn("refiner", 2_260_000_000, Fp16, 70, 0),
    vae_kl(SD_VAE, Fp16),
];

/// The pipeline with catalog id `id`.
pub fn find(id: &str) -> Option<&'static Pipeline> {
    PIPELINES.iter().find(|p| p.id == id)
}
