"""Meta-device memory tracer for vramfit's image/video generation model.

Builds each catalog pipeline's real modules (diffusers / transformers classes) on the `meta`
device from the values of the published `config.json` files, then runs the three phases the core
models -- text encoding, one denoiser step, VAE decode -- under a `TorchDispatchMode` that sees
every aten op. Each op output whose storage is new (not one of the op's inputs' storages, not
already tracked) is counted from its creation until its last reference dies (a `weakref.finalize`
on the storage: torch keeps one Python object per storage alive while the storage lives, so the
finaliser fires exactly when the C++ storage is freed). Meta tensors carry exact shapes, dtypes
and strides, so the sizes are those the GPU run would allocate.

Allocator rounding (PyTorch `c10/cuda/CUDACachingAllocator.cpp`, `round_size`): every request is
rounded up to a multiple of kMinBlockSize = 512 B (requests under 512 B take 512 B), and
`memory_allocated` counts the rounded block. The segment sizes that `cudaMalloc` is asked for
(`get_allocation_size`: 2 MiB for <= 1 MiB requests, 20 MiB for 1-10 MiB, 2 MiB multiples from
10 MiB) shape `memory_reserved`, not `memory_allocated`; they are pooled and reused, so they are
not added per tensor here (the core's allocator reserve covers them).

Attention: on the meta device `F.scaled_dot_product_attention` takes the math path, which
materialises the batch x heads x queries x keys score matrix and its softmax. The CUDA kernels
diffusers gets for 16-bit inputs (flash attention) and fp32 inputs (memory-efficient attention)
do not. The tracer therefore replaces `torch.nn.functional.scaled_dot_product_attention` with what
those kernels allocate: the output, laid out as the kernels allocate it (flash: `empty_like` of
the (B, L, H, D) transposed query, so a query that is (B, L, H, D)-contiguous gives an output the
caller's `transpose(1, 2).flatten` can view without a copy; memory-efficient: a contiguous
(B, L, H, D) buffer), and flash's fp32 log-sum-exp row (B, H, L), freed when the call returns. The
naive processor (`AttnProcessor`: `baddbmm` + softmax) is traced as it is, scores included.

Not seen by the trace: cuDNN / cuBLAS workspaces (outside tensors, or allocated inside kernels),
the CUDA context and the allocator's segment slack. The core adds those separately.

Weights: parameter + buffer bytes per part (tied storages once); resident bytes per offload mode:
`none` all parts; `model` (accelerate `cpu_offload_with_hook` chain, `model_cpu_offload_seq`): the
part running plus the one the chain has not yet sent back (simulated from the call order below);
`sequential` (accelerate `cpu_offload`: each module's direct parameters move in its pre-forward
and out in its post-forward, buffers stay on the GPU because the top module has no direct
parameters): every buffer + the largest chain of nested direct parameters.

Usage: `.venv/bin/python trace.py [--only ID ...] [--out DIR]` (see README.md).
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import sys
import time
import weakref
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

import diffusers
import transformers

META = torch.device("meta")
MIB = 1 << 20


def round_block(n: int) -> int:
    """`round_size`: 512-byte blocks, at least one."""
    return max(512, (n + 511) // 512 * 512)


class Tracker(TorchDispatchMode):
    """Live bytes of every storage an op creates, until the storage dies."""

    def __init__(self):
        super().__init__()
        self.live: dict[int, int] = {}
        self.current = 0
        self.peak = 0
        self.ops = 0

    def _free(self, key: int):
        n = self.live.pop(key, 0)
        self.current -= n

    def track(self, t: torch.Tensor, skip: set[int] | None = None):
        st = t.untyped_storage()
        k = id(st)
        if k in self.live or (skip and k in skip):
            return
        n = st.nbytes()
        if n == 0:
            return
        r = round_block(n)
        self.live[k] = r
        self.current += r
        self.peak = max(self.peak, self.current)
        weakref.finalize(st, self._free, k)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        self.ops += 1
        inputs = {
            id(x.untyped_storage())
            for x in tree_leaves((args, kwargs))
            if isinstance(x, torch.Tensor)
        }
        for x in tree_leaves(out):
            if isinstance(x, torch.Tensor):
                self.track(x, inputs)
        return out

    def reset_peak(self):
        self.peak = self.current


# --- SDPA as the CUDA kernels allocate it --------------------------------------------------------

_real_sdpa = F.scaled_dot_product_attention


def sdpa_cuda_like(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, enable_gqa=False):
    if query.device.type != "meta":
        return _real_sdpa(query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa)
    *lead, heads, lq, _ = query.shape
    dv = value.shape[-1]
    if query.dtype == torch.float32 or attn_mask is not None:
        # memory-efficient kernel: output `at::empty({B, M, num_heads, Kv})`; no LSE without grad.
        out = torch.empty((*lead, lq, heads, dv), dtype=query.dtype, device=query.device).transpose(-3, -2)
        return out
    # flash: out = empty_like(q.transpose(1, 2)) (strides preserved), softmax_lse (B, H, L) fp32.
    q_t = query.transpose(-3, -2)
    if dv == query.shape[-1]:
        out = torch.empty_like(q_t)
    else:
        out = torch.empty((*lead, lq, heads, dv), dtype=query.dtype, device=query.device)
    lse = torch.empty((*lead, heads, lq), dtype=torch.float32, device=query.device)
    del lse
    return out.transpose(-3, -2)


F.scaled_dot_product_attention = sdpa_cuda_like
torch.nn.functional.scaled_dot_product_attention = sdpa_cuda_like


# --- weights -------------------------------------------------------------------------------------


def part_weights(m: torch.nn.Module) -> dict:
    seen = set()
    params = buffers = 0
    for p in m.parameters():
        k = id(p.untyped_storage())
        if k not in seen:
            seen.add(k)
            params += p.untyped_storage().nbytes()
    for b in m.buffers():
        k = id(b.untyped_storage())
        if k not in seen:
            seen.add(k)
            buffers += b.untyped_storage().nbytes()

    # accelerate `cpu_offload`: a module's direct parameters are on the GPU for its whole forward
    # (its children's forwards included); the largest nested chain is resident at once.
    def chain(mod) -> int:
        own = sum(p.untyped_storage().nbytes() for p in mod.parameters(recurse=False))
        return own + max((chain(c) for c in mod.children()), default=0)

    return {
        "param_count": sum(p.numel() for p in {id(p): p for p in m.parameters()}.values()),
        "param_bytes": params,
        "buffer_bytes": buffers,
        "sequential_resident": chain(m) + buffers,
    }


def build(cls, config: dict, dtype, **kw):
    with torch.device(META):
        if hasattr(cls, "from_config") and issubclass(cls, diffusers.ModelMixin):
            m = cls.from_config(config, **kw)
        else:
            m = cls(config)
    # diffusers' `load_model_dict_into_meta`: a parameter whose dotted name has a component in
    # `_keep_in_fp32_modules` loads as fp32 whatever `torch_dtype` (Wan: time embedder, norms,
    # modulation tables), the others in `torch_dtype`; such a model is not `.to(torch_dtype)`-ed
    # afterwards (`from_pretrained`), so its buffers (Wan's RoPE tables) stay fp32.
    dkeep = getattr(cls, "_keep_in_fp32_modules", None) or []
    if issubclass(cls, diffusers.ModelMixin) and dkeep and dtype != torch.float32:
        for name, prm in m.named_parameters():
            if not any(k in name.split(".") for k in dkeep):
                prm.data = prm.data.to(dtype)
        m = m.eval()
    else:
        m = m.to(dtype).eval()
    # transformers' loading with `torch_dtype=float16` keeps `_keep_in_fp32_modules` (T5: "wo") fp32.
    keep = getattr(m, "_keep_in_fp32_modules", None) or []
    if dtype == torch.float16 and keep and not issubclass(cls, diffusers.ModelMixin):
        for name, mod in m.named_modules():
            if any(name.split(".")[-1] == k for k in keep):
                mod.to(torch.float32)
    return m


# --- published configs ---------------------------------------------------------------------------
# Values of the Hugging Face repositories' config.json files (source recorded with each trace).

CLIP_L = dict(vocab_size=49408, hidden_size=768, intermediate_size=3072, num_hidden_layers=12,
              num_attention_heads=12, max_position_embeddings=77, hidden_act="quick_gelu", projection_dim=768)
CLIP_G = dict(vocab_size=49408, hidden_size=1280, intermediate_size=5120, num_hidden_layers=32,
              num_attention_heads=20, max_position_embeddings=77, hidden_act="gelu", projection_dim=1280)
T5_XXL = dict(vocab_size=32128, d_model=4096, d_kv=64, d_ff=10240, num_layers=24, num_heads=64,
              relative_attention_num_buckets=32, relative_attention_max_distance=128,
              feed_forward_proj="gated-gelu", is_encoder_decoder=False, use_cache=False)
UMT5_XXL = dict(T5_XXL, vocab_size=256384)
VAE_SD = dict(in_channels=3, out_channels=3, latent_channels=4, block_out_channels=[128, 256, 512, 512],
              down_block_types=["DownEncoderBlock2D"] * 4, up_block_types=["UpDecoderBlock2D"] * 4,
              layers_per_block=2, norm_num_groups=32, act_fn="silu", sample_size=512, scaling_factor=0.18215)
VAE_SDXL = dict(VAE_SD, sample_size=1024, scaling_factor=0.13025, force_upcast=True)
VAE_16 = dict(VAE_SD, latent_channels=16, sample_size=1024, use_quant_conv=False, use_post_quant_conv=False)
VAE_FLUX = dict(VAE_16, scaling_factor=0.3611, shift_factor=0.1159)
VAE_SD3 = dict(VAE_16, scaling_factor=1.5305, shift_factor=0.0609)
UNET_SD15 = dict(sample_size=64, cross_attention_dim=768, attention_head_dim=8)
UNET_SDXL = dict(sample_size=128, block_out_channels=[320, 640, 1280],
                 down_block_types=["DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"],
                 up_block_types=["CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D"],
                 transformer_layers_per_block=[1, 2, 10], attention_head_dim=[5, 10, 20],
                 cross_attention_dim=2048, addition_embed_type="text_time", addition_time_embed_dim=256,
                 projection_class_embeddings_input_dim=2816, use_linear_projection=True)
FLUX_DEV = dict(patch_size=1, in_channels=64, num_layers=19, num_single_layers=38, attention_head_dim=128,
                num_attention_heads=24, joint_attention_dim=4096, pooled_projection_dim=768,
                guidance_embeds=True, axes_dims_rope=[16, 56, 56])
SD35_MEDIUM = dict(sample_size=128, patch_size=2, in_channels=16, num_layers=24, attention_head_dim=64,
                   num_attention_heads=24, joint_attention_dim=4096, caption_projection_dim=1536,
                   pooled_projection_dim=2048, out_channels=16, pos_embed_max_size=384,
                   dual_attention_layers=list(range(13)), qk_norm="rms_norm")
SD35_LARGE = dict(SD35_MEDIUM, num_layers=38, num_attention_heads=38, caption_projection_dim=2432,
                  pos_embed_max_size=192, dual_attention_layers=[])
WAN_13B = dict(patch_size=[1, 2, 2], num_attention_heads=12, attention_head_dim=128, in_channels=16,
               out_channels=16, text_dim=4096, freq_dim=256, ffn_dim=8960, num_layers=30,
               cross_attn_norm=True, qk_norm="rms_norm_across_heads", eps=1e-6)
WAN_14B = dict(WAN_13B, num_attention_heads=40, ffn_dim=13824, num_layers=40)
SD3_MEDIUM = dict(sample_size=128, patch_size=2, in_channels=16, num_layers=24, attention_head_dim=64,
                  num_attention_heads=24, joint_attention_dim=4096, caption_projection_dim=1536,
                  pooled_projection_dim=2048, out_channels=16, pos_embed_max_size=192)
QWEN_IMAGE = dict(patch_size=2, in_channels=64, out_channels=16, num_layers=60, attention_head_dim=128,
                  num_attention_heads=24, joint_attention_dim=3584, guidance_embeds=False,
                  axes_dims_rope=[16, 56, 56])
QWEN_VAE = dict(base_dim=96, z_dim=16, dim_mult=[1, 2, 4, 4], num_res_blocks=2, attn_scales=[],
                temperal_downsample=[False, True, True], dropout=0.0)
# Qwen/Qwen-Image text_encoder/config.json = Qwen/Qwen2.5-VL-7B-Instruct's.
QWEN25_VL_7B_TEXT = dict(vocab_size=152064, hidden_size=3584, intermediate_size=18944, num_hidden_layers=28,
                         num_attention_heads=28, num_key_value_heads=4, rms_norm_eps=1e-6, rope_theta=1000000.0,
                         max_position_embeddings=128000, tie_word_embeddings=False,
                         rope_scaling={"type": "mrope", "mrope_section": [16, 24, 24]})
QWEN25_VL_7B_VISION = dict(depth=32, hidden_act="silu", hidden_size=1280, intermediate_size=3420, num_heads=16,
                           in_chans=3, out_hidden_size=3584, patch_size=14, spatial_merge_size=2,
                           spatial_patch_size=14, window_size=112, fullatt_block_indexes=[7, 15, 23, 31],
                           tokens_per_second=2, temporal_patch_size=2)
WAN22_5B = dict(WAN_13B, num_attention_heads=24, ffn_dim=14336, in_channels=48, out_channels=48)
WAN22_VAE = dict(base_dim=160, decoder_base_dim=256, z_dim=48, dim_mult=[1, 2, 4, 4], num_res_blocks=2,
                 attn_scales=[], temperal_downsample=[False, True, True], dropout=0.0, in_channels=12,
                 out_channels=12, patch_size=2, scale_factor_spatial=16, scale_factor_temporal=4,
                 is_residual=True)
WAN_VAE = dict(base_dim=96, z_dim=16, dim_mult=[1, 2, 4, 4], num_res_blocks=2, attn_scales=[],
               temperal_downsample=[False, True, True], dropout=0.0)
# THUDM/CogVideoX-2b / -5b transformer/config.json and vae/config.json (the 5b: 48 heads, 42
# layers, 3D RoPE instead of the sincos table, VAE scaling_factor 0.7).
COGX_2B = dict(num_attention_heads=30, attention_head_dim=64, in_channels=16, out_channels=16,
               flip_sin_to_cos=True, freq_shift=0, time_embed_dim=512, text_embed_dim=4096, num_layers=30,
               dropout=0.0, attention_bias=True, sample_width=90, sample_height=60, sample_frames=49,
               patch_size=2, temporal_compression_ratio=4, max_text_seq_length=226,
               activation_fn="gelu-approximate", timestep_activation_fn="silu", norm_elementwise_affine=True,
               norm_eps=1e-5, spatial_interpolation_scale=1.875, temporal_interpolation_scale=1.0,
               use_rotary_positional_embeddings=False)
COGX_5B = dict(COGX_2B, num_attention_heads=48, num_layers=42, use_rotary_positional_embeddings=True)
COGX_VAE = dict(in_channels=3, out_channels=3, down_block_types=["CogVideoXDownBlock3D"] * 4,
                up_block_types=["CogVideoXUpBlock3D"] * 4, block_out_channels=[128, 256, 256, 512],
                latent_channels=16, layers_per_block=3, act_fn="silu", norm_eps=1e-6, norm_num_groups=32,
                temporal_compression_ratio=4, sample_height=480, sample_width=720, scaling_factor=1.15258426,
                force_upcast=True, use_quant_conv=False, use_post_quant_conv=False)

# hunyuanvideo-community/HunyuanVideo (the diffusers conversion of Tencent/HunyuanVideo):
# transformer/config.json (20 double + 40 single blocks, 24 heads x 128, 2 refiner blocks,
# guidance_embeds, rope_axes_dim [16, 56, 56]), text_encoder/config.json (`LlamaModel`, the
# llava-llama-3-8b text tower: vocab 128,320, 32 layers, 8 KV heads), text_encoder_2 = CLIP-L,
# vae/config.json (`AutoencoderKLHunyuanVideo`: [128, 256, 512, 512], 2 layers per block, mid-block
# attention, scaling_factor 0.476986).
HUNYUAN_T = dict(in_channels=16, out_channels=16, num_attention_heads=24, attention_head_dim=128, num_layers=20,
                 num_single_layers=40, num_refiner_layers=2, mlp_ratio=4.0, patch_size=2, patch_size_t=1,
                 qk_norm="rms_norm", guidance_embeds=True, text_embed_dim=4096, pooled_projection_dim=768,
                 rope_theta=256.0, rope_axes_dim=[16, 56, 56])
HUNYUAN_LLAMA = dict(vocab_size=128320, hidden_size=4096, intermediate_size=14336, num_hidden_layers=32,
                     num_attention_heads=32, num_key_value_heads=8, head_dim=128, hidden_act="silu",
                     max_position_embeddings=8192, rms_norm_eps=1e-5, rope_theta=500000.0, attention_bias=False,
                     mlp_bias=False, tie_word_embeddings=False, use_cache=True)
HUNYUAN_VAE = dict(in_channels=3, out_channels=3, latent_channels=16,
                   down_block_types=["HunyuanVideoDownBlock3D"] * 4, up_block_types=["HunyuanVideoUpBlock3D"] * 4,
                   block_out_channels=[128, 256, 512, 512], layers_per_block=2, act_fn="silu", norm_num_groups=32,
                   scaling_factor=0.476986, spatial_compression_ratio=8, temporal_compression_ratio=4,
                   mid_block_add_attention=True)
# Lightricks/LTX-Video (0.9.0) transformer/config.json (28 blocks, 32 heads x 64, cross-attention to
# T5-XXL's 4096-wide states, in/out 128 channels, patch 1) and vae/config.json
# (`AutoencoderKLLTXVideo`: [128, 256, 512, 512], layers [4, 3, 3, 3, 4], patch_size 4, 128 latent
# channels, decoder not causal, no timestep conditioning), text_encoder = T5-v1.1-XXL.
LTX_T = dict(in_channels=128, out_channels=128, patch_size=1, patch_size_t=1, num_attention_heads=32,
             attention_head_dim=64, cross_attention_dim=2048, num_layers=28, activation_fn="gelu-approximate",
             qk_norm="rms_norm_across_heads", norm_elementwise_affine=False, norm_eps=1e-6, caption_channels=4096,
             attention_bias=True, attention_out_bias=True)
LTX_VAE = dict(in_channels=3, out_channels=3, latent_channels=128, block_out_channels=[128, 256, 512, 512],
               layers_per_block=[4, 3, 3, 3, 4], spatio_temporal_scaling=[True, True, True, False], patch_size=4,
               patch_size_t=1, resnet_norm_eps=1e-6, scaling_factor=1.0, encoder_causal=True, decoder_causal=False)

SOURCES = {
    "sd15": "stable-diffusion-v1-5/stable-diffusion-v1-5 {text_encoder,unet,vae}/config.json",
    "sdxl": "stabilityai/stable-diffusion-xl-base-1.0 {text_encoder,text_encoder_2,unet,vae}/config.json",
    "flux1-dev": "black-forest-labs/FLUX.1-dev {text_encoder,text_encoder_2,transformer,vae}/config.json",
    "flux1-schnell": "black-forest-labs/FLUX.1-schnell {text_encoder,text_encoder_2,transformer,vae}/config.json",
    "sd3-medium": "stabilityai/stable-diffusion-3-medium-diffusers {text_encoder,text_encoder_2,text_encoder_3,transformer,vae}/config.json",
    "flux1-kontext-dev": "black-forest-labs/FLUX.1-Kontext-dev {text_encoder,text_encoder_2,transformer,vae}/config.json",
    "qwen-image": "Qwen/Qwen-Image {text_encoder,transformer,vae}/config.json",
    "wan22-ti2v-5b": "Wan-AI/Wan2.2-TI2V-5B-Diffusers {text_encoder,transformer,vae}/config.json",
    "sd35-medium": "stabilityai/stable-diffusion-3.5-medium {text_encoder,text_encoder_2,text_encoder_3,transformer,vae}/config.json",
    "sd35-large": "stabilityai/stable-diffusion-3.5-large {text_encoder,text_encoder_2,text_encoder_3,transformer,vae}/config.json",
    "wan21-t2v-1.3b": "Wan-AI/Wan2.1-T2V-1.3B-Diffusers {text_encoder,transformer,vae}/config.json",
    "wan21-t2v-14b": "Wan-AI/Wan2.1-T2V-14B-Diffusers {text_encoder,transformer,vae}/config.json",
    "cogvideox-2b": "THUDM/CogVideoX-2b {text_encoder,transformer,vae}/config.json",
    "cogvideox-5b": "THUDM/CogVideoX-5b {text_encoder,transformer,vae}/config.json",
    "hunyuanvideo": "hunyuanvideo-community/HunyuanVideo {text_encoder,text_encoder_2,transformer,vae}/config.json",
    "ltx-video": "Lightricks/LTX-Video (0.9.0) {text_encoder,transformer,vae}/config.json",
}


def clip(cfg, proj=False):
    c = transformers.CLIPTextConfig(**cfg)
    return (transformers.CLIPTextModelWithProjection if proj else transformers.CLIPTextModel), c


def t5(cfg, umt5=False):
    if umt5:
        return transformers.UMT5EncoderModel, transformers.UMT5Config(**cfg)
    return transformers.T5EncoderModel, transformers.T5Config(**cfg)


def ids(batch, tokens):
    return torch.zeros((batch, tokens), dtype=torch.int64, device=META)


# --- pipelines -----------------------------------------------------------------------------------
# Each pipeline: parts (id, role, module), the offload sequence, and the three phases emulating the
# diffusers pipeline's `__call__` around the modules (the tensors it keeps live across the call).


class Pipe:
    id = ""
    video = False
    cfg = True  # uses classifier-free guidance
    vae_factor = 8
    temporal = 1

    def __init__(self):
        self.parts = {}
        self.roles = {}

    def add(self, pid, role, module):
        self.parts[pid] = module
        self.roles[pid] = role

    def decode_setup(self):
        pass

    def upcast_bytes_factor(self):
        return 1

    def decode_teardown(self):
        pass

    def vae_decode_sliced(self, batch, h, w, frames, tiling):
        vae = self.parts["vae"]
        vae.enable_slicing()
        try:
            return self.vae_decode(batch, h, w, frames, tiling)
        finally:
            vae.disable_slicing()

    # text encoding call order (the accelerate model-offload chain follows it)
    def text_calls(self, cfg):
        raise NotImplementedError


class SD15(Pipe):
    id = "sd15"
    batches = [1, 2, 4, 16]

    def __init__(self, dtype=torch.float16):
        super().__init__()
        self.dtype = dtype
        cls, c = clip(CLIP_L)
        self.add("clip_l", "text_encoder", build(cls, c, dtype))
        self.add("unet", "denoiser", build(diffusers.UNet2DConditionModel, UNET_SD15, dtype))
        self.add("vae", "vae", build(diffusers.AutoencoderKL, VAE_SD, dtype))
        self.offload_seq = ["clip_l", "unet", "vae"]

    def text_calls(self, cfg):
        return ["clip_l"] * (2 if cfg else 1)

    def text(self, batch, cfg):
        te = self.parts["clip_l"]
        pe = te(ids(1, 77), attention_mask=None)[0].to(self.dtype)
        pe = pe.repeat(1, batch, 1).view(batch, 77, -1)
        if cfg:
            ne = te(ids(1, 77), attention_mask=None)[0].to(self.dtype)
            ne = ne.repeat(1, batch, 1).view(batch, 77, -1)
            pe = torch.cat([ne, pe])
        return pe

    def denoise(self, batch, h, w, frames, cfg):
        emb = torch.empty((batch * (2 if cfg else 1), 77, 768), dtype=self.dtype, device=META)
        lat = torch.empty((batch, 4, h // 8, w // 8), dtype=self.dtype, device=META)
        inp = torch.cat([lat] * 2) if cfg else lat
        t = torch.empty((), dtype=torch.int64, device=META)
        noise = self.parts["unet"](inp, t, encoder_hidden_states=emb, return_dict=False)[0]
        del inp
        if cfg:
            u, c = noise.chunk(2)
            noise = u + 7.5 * (c - u)
        lat = step_ddim(noise, lat)
        return lat

    def vae_decode(self, batch, h, w, frames, tiling):
        vae = self.parts["vae"]
        lat = torch.empty((batch, vae.config.latent_channels, h // 8, w // 8), dtype=vae.dtype, device=META)
        return decode_2d(vae, lat, tiling)


def step_ddim(noise, lat):
    # scheduler.step: x0 = (x - sqrt(1-a) e) / sqrt(a); prev = sqrt(a') x0 + sqrt(1-a') e (PNDM/DDIM-like)
    x0 = (lat - 0.5 * noise) / 0.9
    return 0.9 * x0 + 0.4 * noise


def decode_2d(vae, lat, tiling):
    sf = vae.config.scaling_factor
    shift = getattr(vae.config, "shift_factor", None)
    lat = lat / sf + shift if shift else lat / sf
    if tiling:
        vae.enable_tiling()
    else:
        vae.disable_tiling()
    image = vae.decode(lat, return_dict=False)[0]
    del lat
    # image_processor.postprocess: denormalize on the GPU before .cpu()
    out = (image * 0.5 + 0.5).clamp(0, 1)
    del image
    return out


# Where users run (`wide`): text and denoiser at batch 16 (CFG on and off), the denoiser at batch 8
# and a non-square size; decodes at batch 8 / 16 untiled, sliced, tiled (a 1216 x 832 grid of 2 x 2
# tiles), tiled and sliced together. (phase, width, height, batch[, options])
WIDE_IMAGE = [
    ("text", 0, 0, 16),
    ("denoise", 1024, 1024, 16), ("denoise", 1216, 832, 8, "cfg"),
    ("decode", 1024, 1024, 8), ("decode", 1024, 1024, 16, "slicing"), ("decode", 1216, 832, 1, "tiling"),
    ("decode", 1216, 832, 8, "tiling"), ("decode", 1216, 832, 8, "tiling slicing"),
]


class SDXL(Pipe):
    id = "sdxl"
    wide = WIDE_IMAGE

    def __init__(self, dtype=torch.float16):
        super().__init__()
        self.dtype = dtype
        cls, c = clip(CLIP_L)
        self.add("clip_l", "text_encoder", build(cls, c, dtype))
        cls, c = clip(CLIP_G, proj=True)
        self.add("clip_g", "text_encoder", build(cls, c, dtype))
        self.add("unet", "denoiser", build(diffusers.UNet2DConditionModel, UNET_SDXL, dtype))
        self.add("vae", "vae", build(diffusers.AutoencoderKL, VAE_SDXL, dtype))
        self.offload_seq = ["clip_l", "clip_g", "unet", "vae"]

    def text_calls(self, cfg):
        return ["clip_l", "clip_g"] * (2 if cfg else 1)

    def _encode(self, batch):
        embs = []
        pooled = None
        for pid in ("clip_l", "clip_g"):
            out = self.parts[pid](ids(1, 77), output_hidden_states=True)
            pooled = out[0]
            embs.append(out.hidden_states[-2])
            del out
        pe = torch.concat(embs, dim=-1).to(self.dtype)
        pe = pe.repeat(1, batch, 1).view(batch, 77, -1)
        pooled = pooled.repeat(1, batch).view(batch, -1)
        return pe, pooled

    def text(self, batch, cfg):
        pe, pooled = self._encode(batch)
        if cfg:
            ne, npooled = self._encode(batch)
            pe, pooled = torch.cat([ne, pe]), torch.cat([npooled, pooled])
        return pe, pooled

    def denoise(self, batch, h, w, frames, cfg):
        b2 = batch * (2 if cfg else 1)
        emb = torch.empty((b2, 77, 2048), dtype=self.dtype, device=META)
        pooled = torch.empty((b2, 1280), dtype=self.dtype, device=META)
        time_ids = torch.empty((b2, 6), dtype=self.dtype, device=META)
        lat = torch.empty((batch, 4, h // 8, w // 8), dtype=self.dtype, device=META)
        inp = torch.cat([lat] * 2) if cfg else lat
        t = torch.empty((), dtype=torch.int64, device=META)
        noise = self.parts["unet"](inp, t, encoder_hidden_states=emb,
                                   added_cond_kwargs={"text_embeds": pooled, "time_ids": time_ids},
                                   return_dict=False)[0]
        del inp
        if cfg:
            u, c = noise.chunk(2)
            noise = u + 5.0 * (c - u)
        return step_ddim(noise, lat)

    def vae_decode(self, batch, h, w, frames, tiling):
        # `needs_upcasting`: the fp16 VAE with force_upcast decodes in fp32 (`pipe.vae.to(float32)`,
        # done by `decode_setup` outside the traced region: the core counts the fp32 copy as weights).
        vae = self.parts["vae"]
        lat = torch.empty((batch, 4, h // 8, w // 8), dtype=torch.float32, device=META)
        return decode_2d(vae, lat, tiling)

    def decode_setup(self):
        self.parts["vae"].to(torch.float32)

    def upcast_bytes_factor(self):
        return 2

    def decode_teardown(self):
        self.parts["vae"].to(self.dtype)


class Flux(Pipe):
    id = "flux1-dev"
    cfg = False
    wide = [x if x[:4] != ("denoise", 1216, 832, 8) else ("denoise", 1360, 768, 8) for x in WIDE_IMAGE]

    def __init__(self, dtype=torch.bfloat16, tokens=512, guidance=True):
        super().__init__()
        self.dtype = dtype
        self.tokens = tokens
        cls, c = clip(CLIP_L)
        self.add("clip_l", "text_encoder", build(cls, c, dtype))
        cls, c = t5(T5_XXL)
        self.add("t5_xxl", "text_encoder", build(cls, c, dtype))
        self.add("transformer", "denoiser",
                 build(diffusers.FluxTransformer2DModel, dict(FLUX_DEV, guidance_embeds=guidance), dtype))
        self.add("vae", "vae", build(diffusers.AutoencoderKL, VAE_FLUX, dtype))
        self.offload_seq = ["clip_l", "t5_xxl", "transformer", "vae"]

    def text_calls(self, cfg):
        return ["clip_l", "t5_xxl"]

    def text(self, batch, cfg):
        pooled = self.parts["clip_l"](ids(1, 77), output_hidden_states=False).pooler_output
        pooled = pooled.to(self.dtype).repeat(1, batch).view(batch, -1)
        pe = self.parts["t5_xxl"](ids(1, self.tokens), output_hidden_states=False)[0].to(self.dtype)
        pe = pe.repeat(1, batch, 1).view(batch, self.tokens, -1)
        text_ids = torch.zeros(self.tokens, 3, device=META, dtype=self.dtype)
        return pe, pooled, text_ids

    def denoise(self, batch, h, w, frames, cfg):
        lh, lw = h // 8, w // 8
        pe = torch.empty((batch, self.tokens, 4096), dtype=self.dtype, device=META)
        pooled = torch.empty((batch, 768), dtype=self.dtype, device=META)
        text_ids = torch.zeros(self.tokens, 3, device=META, dtype=self.dtype)
        lat = torch.empty((batch, 16, lh, lw), dtype=self.dtype, device=META)
        lat = diffusers.FluxPipeline._pack_latents(lat, batch, 16, lh, lw)
        img_ids = diffusers.FluxPipeline._prepare_latent_image_ids(batch, lh // 2, lw // 2, META, self.dtype)
        guidance = torch.full([1], 3.5, device=META, dtype=torch.float32).expand(batch) \
            if self.parts["transformer"].config.guidance_embeds else None
        t = torch.empty((), device=META).expand(batch).to(lat.dtype)
        noise = self.parts["transformer"](hidden_states=lat, timestep=t / 1000, guidance=guidance,
                                          pooled_projections=pooled, encoder_hidden_states=pe,
                                          txt_ids=text_ids, img_ids=img_ids, return_dict=False)[0]
        return step_flow(noise, lat)

    def vae_decode(self, batch, h, w, frames, tiling):
        vae = self.parts["vae"]
        lh, lw = h // 8, w // 8
        lat = torch.empty((batch, (lh // 2) * (lw // 2), 64), dtype=self.dtype, device=META)
        lat = diffusers.FluxPipeline._unpack_latents(lat, h, w, 8)
        return decode_2d(vae, lat, tiling)


def step_flow(noise, lat):
    # FlowMatchEulerDiscreteScheduler.step: sample.to(float32) + dt * model_output, cast back.
    s = lat.to(torch.float32)
    prev = s + (-0.05) * noise
    return prev.to(noise.dtype)


class SD3(Pipe):
    id = "sd35-medium"
    wide = WIDE_IMAGE

    def __init__(self, cfg_t=SD35_MEDIUM, dtype=torch.float16, tokens=256):
        super().__init__()
        self.dtype = dtype
        self.tokens = tokens
        cls, c = clip(CLIP_L, proj=True)
        self.add("clip_l", "text_encoder", build(cls, c, dtype))
        cls, c = clip(CLIP_G, proj=True)
        self.add("clip_g", "text_encoder", build(cls, c, dtype))
        cls, c = t5(T5_XXL)
        self.add("t5_xxl", "text_encoder", build(cls, c, dtype))
        self.add("transformer", "denoiser", build(diffusers.SD3Transformer2DModel, cfg_t, dtype))
        self.add("vae", "vae", build(diffusers.AutoencoderKL, VAE_SD3, dtype))
        self.offload_seq = ["clip_l", "clip_g", "t5_xxl", "transformer", "vae"]

    def text_calls(self, cfg):
        return ["clip_l", "clip_g", "t5_xxl"] * (2 if cfg else 1)

    def _encode(self, batch):
        embs, pools = [], []
        for pid in ("clip_l", "clip_g"):
            out = self.parts[pid](ids(1, 77), output_hidden_states=True)
            pools.append(out[0])
            embs.append(out.hidden_states[-2].to(self.dtype))
            del out
        clip_e = torch.cat(embs, dim=-1)
        pooled = torch.cat(pools, dim=-1)
        t5e = self.parts["t5_xxl"](ids(1, self.tokens))[0].to(self.dtype)
        t5e = t5e.repeat(1, batch, 1).view(batch, self.tokens, -1)
        clip_e = clip_e.repeat(1, batch, 1).view(batch, 77, -1)
        clip_e = F.pad(clip_e, (0, t5e.shape[-1] - clip_e.shape[-1]))
        pe = torch.cat([clip_e, t5e], dim=-2)
        return pe, pooled.repeat(1, batch).view(batch, -1)

    def text(self, batch, cfg):
        pe, pooled = self._encode(batch)
        if cfg:
            ne, npooled = self._encode(batch)
            pe, pooled = torch.cat([ne, pe]), torch.cat([npooled, pooled])
        return pe, pooled

    def denoise(self, batch, h, w, frames, cfg):
        b2 = batch * (2 if cfg else 1)
        pe = torch.empty((b2, 77 + self.tokens, 4096), dtype=self.dtype, device=META)
        pooled = torch.empty((b2, 2048), dtype=self.dtype, device=META)
        lat = torch.empty((batch, 16, h // 8, w // 8), dtype=self.dtype, device=META)
        inp = torch.cat([lat] * 2) if cfg else lat
        t = torch.empty((), device=META).expand(b2)
        noise = self.parts["transformer"](hidden_states=inp, timestep=t, encoder_hidden_states=pe,
                                          pooled_projections=pooled, return_dict=False)[0]
        del inp
        if cfg:
            u, c = noise.chunk(2)
            noise = u + 4.5 * (c - u)
        return step_flow(noise, lat)

    def vae_decode(self, batch, h, w, frames, tiling):
        vae = self.parts["vae"]
        lat = torch.empty((batch, 16, h // 8, w // 8), dtype=self.dtype, device=META)
        return decode_2d(vae, lat, tiling)


class Wan(Pipe):
    """diffusers WanPipeline (Wan2.1 T2V): CFG as two transformer calls, latents fp32, VAE fp32."""

    id = "wan21-t2v-1.3b"
    video = True
    batches = [1, 2]
    points = [(832, 480, 17), (832, 480, 33), (1280, 720, 17)]
    untiled_points = [(832, 480, 33), (1280, 720, 17)]
    # Tiled decodes only (`tiled_decode`: 256 px tiles at a 192 px stride, every tile decoded over
    # all frames and kept for blending): more frames, a wider grid, a decode whose end (the kept
    # tiles, the blended rows, their `torch.cat` and `clamp`) outweighs one tile's decoder.
    tiled_points = [(832, 480, 33), (1280, 720, 17), (1280, 720, 33)]
    temporal = 4
    latent_channels = 16
    expand_timesteps = False

    def __init__(self, cfg_t=WAN_13B, dtype=torch.bfloat16, vae_cfg=WAN_VAE):
        super().__init__()
        self.dtype = dtype
        cls, c = t5(UMT5_XXL, umt5=True)
        self.add("umt5_xxl", "text_encoder", build(cls, c, dtype))
        self.add("transformer", "denoiser", build(diffusers.WanTransformer3DModel, cfg_t, dtype))
        self.add("vae", "vae", build(diffusers.AutoencoderKLWan, vae_cfg, torch.float32))
        self.offload_seq = ["umt5_xxl", "transformer", "vae"]

    def text_calls(self, cfg):
        return ["umt5_xxl"] * (2 if cfg else 1)

    def _encode(self, batch):
        # The attention mask is left out: its `.item()`-based checks cannot run on meta tensors and
        # an all-ones (1, 512) mask only adds a (1, 1, 1, 512) bias.
        pe = self.parts["umt5_xxl"](ids(1, 512)).last_hidden_state.to(self.dtype)
        # WanPipeline._get_t5_prompt_embeds: trim to each prompt's length, re-pad with zeros, stack
        pe = torch.stack([torch.cat([u[:512], u.new_zeros(0, u.size(1))]) for u in pe], dim=0)
        return pe.repeat(1, batch, 1).view(batch, 512, -1)

    def text(self, batch, cfg):
        pe = self._encode(batch)
        ne = self._encode(batch) if cfg else None
        return pe, ne

    def denoise(self, batch, h, w, frames, cfg):
        lf = (frames - 1) // 4 + 1
        pe = torch.empty((batch, 512, 4096), dtype=self.dtype, device=META)
        ne = torch.empty((batch, 512, 4096), dtype=self.dtype, device=META) if cfg else None
        f, c = self.vae_factor, self.latent_channels
        lat = torch.empty((batch, c, lf, h // f, w // f), dtype=torch.float32, device=META)
        mask = torch.ones(lat.shape, dtype=torch.float32, device=META)
        inp = lat.to(self.dtype)
        if self.expand_timesteps:
            # `temp_ts = (mask[0][0][:, ::2, ::2] * t).flatten()`, expanded to the batch
            t = (mask[0][0][:, ::2, ::2] * torch.empty((), device=META)).flatten()
            t = t.unsqueeze(0).expand(batch, -1)
        else:
            t = torch.empty((), device=META).expand(batch)
        tr = self.parts["transformer"]
        noise = tr(hidden_states=inp, timestep=t, encoder_hidden_states=pe, return_dict=False)[0]
        if cfg:
            noise_u = tr(hidden_states=inp, timestep=t, encoder_hidden_states=ne, return_dict=False)[0]
            noise = noise_u + 5.0 * (noise - noise_u)
        del inp
        return step_flow(noise, lat).to(torch.float32), mask

    def vae_decode(self, batch, h, w, frames, tiling):
        vae = self.parts["vae"]
        lf = (frames - 1) // 4 + 1
        f, c = self.vae_factor, self.latent_channels
        lat = torch.empty((batch, c, lf, h // f, w // f), dtype=torch.float32, device=META)
        mean = torch.empty((1, c, 1, 1, 1), device=META)
        lat = lat / mean + mean  # latents / latents_std + latents_mean
        if tiling:
            vae.enable_tiling()
        else:
            vae.disable_tiling()
        video = vae.decode(lat, return_dict=False)[0]
        del lat
        # video_processor.postprocess_video: denormalize on the GPU
        out = (video * 0.5 + 0.5).clamp(0, 1)
        del video
        return out


class SD3Medium(SD3):
    """Stable Diffusion 3 (3.0) Medium: the SD3 pipeline with its own MMDiT (no dual attention, no
    QK norm, a 192-position embedding table)."""

    id = "sd3-medium"
    batches = [1, 4, 16]
    wide = ()

    def __init__(self):
        super().__init__(SD3_MEDIUM, torch.float16)


class FluxKontext(Flux):
    """diffusers FluxKontextPipeline: the reference image (here at the output size, as when a
    Kontext-preferred resolution is edited in place) goes through `vae.encode` after the prompt
    (`prepare_latents`), its packed latents join the image tokens of every transformer call
    (`torch.cat([latents, image_latents], dim=1)`) and the prediction is cut back to the output
    tokens."""

    id = "flux1-kontext-dev"
    image_input = True
    wide = ()
    batches = [1, 4, 16]

    def text_calls(self, cfg):
        return ["clip_l", "t5_xxl", "vae"]

    def text(self, batch, cfg, h=1024, w=1024):
        pe, pooled, text_ids = super().text(batch, cfg)
        vae = self.parts["vae"]
        image = torch.empty((1, 3, h, w), dtype=self.dtype, device=META)
        lat = vae.encode(image).latent_dist.mode()
        del image
        lat = (lat - vae.config.shift_factor) * vae.config.scaling_factor
        lat = torch.cat([lat] * batch, dim=0) if batch > 1 else torch.cat([lat], dim=0)
        lh, lw = lat.shape[2:]
        lat = diffusers.FluxPipeline._pack_latents(lat, batch, 16, lh, lw)
        return pe, pooled, text_ids, lat

    def denoise(self, batch, h, w, frames, cfg):
        lh, lw = h // 8, w // 8
        pe = torch.empty((batch, self.tokens, 4096), dtype=self.dtype, device=META)
        pooled = torch.empty((batch, 768), dtype=self.dtype, device=META)
        text_ids = torch.zeros(self.tokens, 3, device=META, dtype=self.dtype)
        image_lat = torch.empty((batch, (lh // 2) * (lw // 2), 64), dtype=self.dtype, device=META)
        lat = torch.empty((batch, 16, lh, lw), dtype=self.dtype, device=META)
        lat = diffusers.FluxPipeline._pack_latents(lat, batch, 16, lh, lw)
        img_ids = diffusers.FluxPipeline._prepare_latent_image_ids(batch, lh // 2, lw // 2, META, self.dtype)
        img_ids = torch.cat([img_ids, img_ids.clone()], dim=0)
        guidance = torch.full([1], 2.5, device=META, dtype=torch.float32).expand(batch)
        inp = torch.cat([lat, image_lat], dim=1)
        t = torch.empty((), device=META).expand(batch).to(lat.dtype)
        noise = self.parts["transformer"](hidden_states=inp, timestep=t / 1000, guidance=guidance,
                                          pooled_projections=pooled, encoder_hidden_states=pe,
                                          txt_ids=text_ids, img_ids=img_ids, return_dict=False)[0]
        del inp
        noise = noise[:, : lat.size(1)]
        return step_flow(noise, lat)


class QwenImage(Pipe):
    """diffusers QwenImagePipeline: Qwen2.5-VL-7B as text encoder (the last hidden state, the
    34-token system template dropped), a 60-block MMDiT, a Wan-2.1-style causal VAE on one frame.
    True CFG (a negative prompt) runs the transformer twice and rescales by the norms."""

    id = "qwen-image"
    batches = [1, 4, 16]
    # Prompt tokens after the template is dropped (a ~120-word prompt); the encoder sees 34 more.
    prompt_tokens = 128
    drop = 34

    def __init__(self, dtype=torch.bfloat16):
        super().__init__()
        self.dtype = dtype
        c = transformers.Qwen2_5_VLConfig(text_config=QWEN25_VL_7B_TEXT, vision_config=QWEN25_VL_7B_VISION,
                                          tie_word_embeddings=False)
        self.add("qwen25_vl", "text_encoder", build(transformers.Qwen2_5_VLForConditionalGeneration, c, dtype))
        self.add("transformer", "denoiser", build(diffusers.QwenImageTransformer2DModel, QWEN_IMAGE, dtype))
        self.add("vae", "vae", build(diffusers.AutoencoderKLQwenImage, QWEN_VAE, dtype))
        self.offload_seq = ["qwen25_vl", "transformer", "vae"]

    def text_calls(self, cfg):
        return ["qwen25_vl"] * (2 if cfg else 1)

    def _encode(self, batch):
        n = self.prompt_tokens + self.drop
        # All-ones attention mask: transformers skips it for SDPA (causal path), as with None.
        # The output (every layer's hidden state and the logits over every token) stays referenced
        # by `encoder_hidden_states` until `_get_qwen_prompt_embeds` returns.
        out = self.parts["qwen25_vl"](input_ids=ids(1, n), output_hidden_states=True)
        hs = out.hidden_states[-1]
        selected = hs.reshape(-1, hs.shape[-1]).clone()  # hidden_states[bool_mask]
        u = selected[self.drop:]
        pe = torch.stack([torch.cat([u, u.new_zeros(0, u.size(1))])])
        pe = pe.to(self.dtype)
        del out, hs, selected, u
        t = pe.shape[1]
        return pe.repeat(1, batch, 1).view(batch, t, -1)

    def text(self, batch, cfg):
        pe = self._encode(batch)
        ne = self._encode(batch) if cfg else None
        return pe, ne

    def denoise(self, batch, h, w, frames, cfg):
        lh, lw = h // 8, w // 8
        t_tok = self.prompt_tokens
        pe = torch.empty((batch, t_tok, 3584), dtype=self.dtype, device=META)
        ne = torch.empty((batch, t_tok, 3584), dtype=self.dtype, device=META) if cfg else None
        lat = torch.empty((batch, 16, 1, lh, lw), dtype=self.dtype, device=META)
        lat = diffusers.QwenImagePipeline._pack_latents(lat, batch, 16, lh, lw)
        img_shapes = [[(1, lh // 2, lw // 2)]] * batch
        t = torch.empty((), device=META).expand(batch).to(lat.dtype)
        tr = self.parts["transformer"]
        noise = tr(hidden_states=lat, timestep=t / 1000, guidance=None, encoder_hidden_states_mask=None,
                   encoder_hidden_states=pe, img_shapes=img_shapes, return_dict=False)[0]
        if cfg:
            neg = tr(hidden_states=lat, timestep=t / 1000, guidance=None, encoder_hidden_states_mask=None,
                     encoder_hidden_states=ne, img_shapes=img_shapes, return_dict=False)[0]
            comb = neg + 4.0 * (noise - neg)
            del neg
            cond_norm = torch.norm(noise, dim=-1, keepdim=True)
            noise_norm = torch.norm(comb, dim=-1, keepdim=True)
            noise = comb * (cond_norm / noise_norm)
            del comb, cond_norm, noise_norm
        return step_flow(noise, lat)

    def vae_decode(self, batch, h, w, frames, tiling):
        vae = self.parts["vae"]
        lh, lw = h // 8, w // 8
        lat = torch.empty((batch, (lh // 2) * (lw // 2), 64), dtype=self.dtype, device=META)
        lat = diffusers.QwenImagePipeline._unpack_latents(lat, h, w, 8)
        lat = lat.to(vae.dtype)
        std = torch.empty((1, 16, 1, 1, 1), dtype=lat.dtype, device=META)
        mean = torch.empty((1, 16, 1, 1, 1), dtype=lat.dtype, device=META)
        lat = lat / std + mean
        if tiling:
            vae.enable_tiling()
        else:
            vae.disable_tiling()
        image = vae.decode(lat, return_dict=False)[0][:, :, 0]
        del lat
        out = (image * 0.5 + 0.5).clamp(0, 1)
        del image
        return out


class Wan22TI2V(Wan):
    """diffusers WanPipeline for Wan2.2 TI2V-5B (text-to-video): `expand_timesteps` gives every
    latent token its own timestep (a (batch, tokens) tensor, so the time embedding and its 6-way
    projection exist per token); the Wan2.2 VAE (48 latent channels, 16x spatial with its 2x2
    patchify, a 256-channel decoder) decodes in fp32."""

    id = "wan22-ti2v-5b"
    batches = [1, 2]
    points = [(832, 480, 17), (1280, 704, 41)]
    untiled_points = [(1280, 704, 41)]
    tiled_points = [(832, 480, 33), (1280, 704, 41)]
    vae_factor = 16
    latent_channels = 48
    expand_timesteps = True

    def __init__(self):
        super().__init__(WAN22_5B, torch.bfloat16, WAN22_VAE)


class CogVideoX(Pipe):
    """diffusers CogVideoXPipeline: T5-XXL (226 tokens) in the pipeline's dtype, batched CFG
    (`torch.cat([latents] * 2)`, the embeddings `torch.cat([negative, prompt])`), latents
    (batch, latent frames, 16, H/8, W/8) in the prompt embeddings' dtype, the 5b's 3D RoPE tables
    (fp32 cos / sin per token, made before the loop); the noise prediction `.float()`-ed, guided,
    stepped in fp32 and cast back. Decode: `decode_latents` (permute, `1 / scaling_factor *`),
    `AutoencoderKLCogVideoX.decode` in the VAE's 16-bit dtype (2 latent frames per decoder call,
    the causal-conv caches passed from call to call; `tiled_decode` with tiling, `z.split(1)` with
    slicing), then the denormalisation on the GPU."""

    id = "cogvideox-2b"
    video = True
    video_slicing = True
    batches = [1, 2]
    points = [(720, 480, 49), (480, 320, 49), (720, 480, 13), (720, 480, 25)]
    untiled_points = ()
    temporal = 4

    def __init__(self, cfg_t=COGX_2B, dtype=torch.float16, scaling=1.15258426):
        super().__init__()
        self.dtype = dtype
        cls, c = t5(T5_XXL)
        self.add("t5_xxl", "text_encoder", build(cls, c, dtype))
        self.add("transformer", "denoiser", build(diffusers.CogVideoXTransformer3DModel, cfg_t, dtype))
        self.add("vae", "vae", build(diffusers.AutoencoderKLCogVideoX, dict(COGX_VAE, scaling_factor=scaling), dtype))
        self.offload_seq = ["t5_xxl", "transformer", "vae"]

    def text_calls(self, cfg):
        return ["t5_xxl"] * (2 if cfg else 1)

    def _encode(self, batch):
        pe = self.parts["t5_xxl"](ids(1, 226))[0].to(self.dtype)
        return pe.repeat(1, batch, 1).view(batch, 226, -1)

    def text(self, batch, cfg):
        pe = self._encode(batch)
        if cfg:
            ne = self._encode(batch)
            pe = torch.cat([ne, pe], dim=0)
        return pe

    def denoise(self, batch, h, w, frames, cfg):
        lf = (frames - 1) // 4 + 1
        b2 = batch * (2 if cfg else 1)
        pe = torch.empty((b2, 226, 4096), dtype=self.dtype, device=META)
        lat = torch.empty((batch, lf, 16, h // 8, w // 8), dtype=self.dtype, device=META)
        tr = self.parts["transformer"]
        rope = None
        if tr.config.use_rotary_positional_embeddings:
            from diffusers.models.embeddings import get_3d_rotary_pos_embed
            from diffusers.pipelines.cogvideo.pipeline_cogvideox import get_resize_crop_region_for_grid
            gh, gw = h // 16, w // 16
            crops = get_resize_crop_region_for_grid((gh, gw), 90 // 2, 60 // 2)
            rope = get_3d_rotary_pos_embed(embed_dim=64, crops_coords=crops, grid_size=(gh, gw),
                                           temporal_size=lf, device=META)
        inp = torch.cat([lat] * 2) if cfg else lat
        t = torch.empty((), dtype=torch.int64, device=META).expand(inp.shape[0])
        noise = tr(hidden_states=inp, encoder_hidden_states=pe, timestep=t, image_rotary_emb=rope,
                   return_dict=False)[0]
        del inp
        noise = noise.float()
        if cfg:
            u, c = noise.chunk(2)
            noise = u + 6.0 * (c - u)
        return step_ddim(noise, lat).to(self.dtype), rope

    def vae_decode(self, batch, h, w, frames, tiling):
        vae = self.parts["vae"]
        lf = (frames - 1) // 4 + 1
        lat = torch.empty((batch, lf, 16, h // 8, w // 8), dtype=self.dtype, device=META)
        lat = 1 / vae.config.scaling_factor * lat.permute(0, 2, 1, 3, 4)
        if tiling:
            vae.enable_tiling()
        else:
            vae.disable_tiling()
        video = vae.decode(lat, return_dict=False)[0]
        del lat
        # video_processor.postprocess_video: denormalize on the GPU
        out = (video * 0.5 + 0.5).clamp(0, 1)
        del video
        return out


class CogVideoX5B(CogVideoX):
    id = "cogvideox-5b"

    def __init__(self):
        super().__init__(COGX_5B, torch.bfloat16, 0.7)


class HunyuanVideo(Pipe):
    """diffusers HunyuanVideoPipeline: the Llama text tower (`LlamaModel`, fp16) reads the 95-token
    video template + 256 prompt tokens with `output_hidden_states=True` and the pipeline keeps
    `hidden_states[-3]` cut to the prompt (`[:, crop_start:]`, a view of the 351-token tensor),
    repeated to the batch; CLIP-L's pooled output; both cast to the transformer's bf16. Guidance is
    embedded (`guidance * 1000`), no CFG batch (true CFG only with a negative prompt and
    `true_cfg_scale > 1`). Latents fp32, a bf16 copy per call; the transformer gets the text mask
    (all 256 tokens valid here). Decode: `latents.to(vae.dtype) / scaling_factor`, then
    `AutoencoderKLHunyuanVideo.decode` in fp16 (framewise: latent tiles of 5 frames at a stride of
    3, each decoded whole, with `enable_tiling()` also in 256 px tiles at a 192 px stride), then the
    denormalisation on the GPU. The Llama attention mask is left out (an all-ones mask, as for a
    prompt filling its 256 tokens, which transformers drops for SDPA's causal path)."""

    id = "hunyuanvideo"
    video = True
    cfg = False
    batches = [1, 2]
    points = [(960, 544, 33), (960, 544, 61), (1280, 720, 33), (1280, 720, 61)]
    # The tiled decode (45-170 decoder calls, ~1 minute each point on 2 cores) is traced at three
    # points of the grid; 1280 x 720 x 61 alone (`--tiled-only`).
    untiled_points = [(1280, 720, 61)]
    tiled_points = [(1280, 720, 61)]
    # Untiled decodes alone (`--tiled-only` adds them too): at 1920 x 1088 the mid block's causal
    # attention mask (6 bytes per latent token squared) outgrows the last upsampler's conv.
    untiled_decodes = [(1920, 1088, 17)]
    temporal = 4
    crop = 95
    tokens = 256

    def __init__(self, dtype=torch.float16, transformer_dtype=torch.bfloat16):
        super().__init__()
        self.dtype = dtype
        self.tdtype = transformer_dtype
        self.add("llama", "text_encoder",
                 build(transformers.LlamaModel, transformers.LlamaConfig(**HUNYUAN_LLAMA), dtype))
        cls, c = clip(CLIP_L)
        self.add("clip_l", "text_encoder", build(cls, c, dtype))
        self.add("transformer", "denoiser",
                 build(diffusers.HunyuanVideoTransformer3DModel, HUNYUAN_T, transformer_dtype))
        self.add("vae", "vae", build(diffusers.AutoencoderKLHunyuanVideo, HUNYUAN_VAE, dtype))
        self.offload_seq = ["llama", "clip_l", "transformer", "vae"]

    def text_calls(self, cfg):
        return ["llama", "clip_l"]

    def text(self, batch, cfg):
        n = self.crop + self.tokens
        pe = self.parts["llama"](input_ids=ids(1, n), output_hidden_states=True).hidden_states[-3]
        pe = pe.to(self.dtype)[:, self.crop:]
        pe = pe.repeat(1, batch, 1).view(batch, self.tokens, -1)
        mask = torch.ones((1, n), dtype=torch.int64, device=META)[:, self.crop:].repeat(1, batch).view(batch, -1)
        pooled = self.parts["clip_l"](ids(1, 77), output_hidden_states=False).pooler_output
        pooled = pooled.repeat(1, batch).view(batch, -1)
        return pe.to(self.tdtype), mask.to(self.tdtype), pooled.to(self.tdtype)

    def denoise(self, batch, h, w, frames, cfg):
        lf = (frames - 1) // 4 + 1
        pe = torch.empty((batch, self.tokens, 4096), dtype=self.tdtype, device=META)
        mask = torch.empty((batch, self.tokens), dtype=self.tdtype, device=META)
        pooled = torch.empty((batch, 768), dtype=self.tdtype, device=META)
        lat = torch.empty((batch, 16, lf, h // 8, w // 8), dtype=torch.float32, device=META)
        guidance = torch.empty((batch,), dtype=self.tdtype, device=META) * 1000.0
        inp = lat.to(self.tdtype)
        t = torch.empty((), device=META).expand(batch).to(lat.dtype)
        noise = self.parts["transformer"](hidden_states=inp, timestep=t, encoder_hidden_states=pe,
                                          encoder_attention_mask=mask, pooled_projections=pooled,
                                          guidance=guidance, return_dict=False)[0]
        del inp
        return step_flow(noise, lat).to(torch.float32)

    def vae_decode(self, batch, h, w, frames, tiling):
        vae = self.parts["vae"]
        lf = (frames - 1) // 4 + 1
        lat = torch.empty((batch, 16, lf, h // 8, w // 8), dtype=torch.float32, device=META)
        lat = lat.to(vae.dtype) / vae.config.scaling_factor
        if tiling:
            vae.enable_tiling()
        else:
            vae.disable_tiling()
        video = vae.decode(lat, return_dict=False)[0]
        del lat
        out = (video * 0.5 + 0.5).clamp(0, 1)
        del video
        return out


class LTXVideo(Pipe):
    """diffusers LTXPipeline (LTX-Video 0.9.0): T5-XXL on 128 tokens in bf16, batched CFG
    (`torch.cat([negative, prompt])`, the latents `torch.cat([latents] * 2)` in fp32, then a bf16
    copy); latents fp32 and packed (batch, frames x H/32 x W/32 tokens, 128) -- the VAE's 4 x 4
    patchify and 32x / 8x compression leave the transformer patch 1; the prediction `.float()`-ed,
    guided and stepped in fp32. Decode: unpack, `latents * std / scaling_factor + mean` (fp32),
    bf16, `AutoencoderKLLTXVideo.decode` over all frames in one pass (no framewise decoding; with
    `enable_tiling()` 512 px tiles at a 448 px stride), then the denormalisation."""

    id = "ltx-video"
    video = True
    video_slicing = True
    batches = [1, 2]
    points = [(768, 512, 97), (768, 512, 161), (512, 512, 65), (1216, 704, 41)]
    untiled_points = ()
    temporal = 8
    vae_factor = 32
    tokens = 128

    def __init__(self, dtype=torch.bfloat16):
        super().__init__()
        self.dtype = dtype
        cls, c = t5(T5_XXL)
        self.add("t5_xxl", "text_encoder", build(cls, c, dtype))
        self.add("transformer", "denoiser", build(diffusers.LTXVideoTransformer3DModel, LTX_T, dtype))
        self.add("vae", "vae", build(diffusers.AutoencoderKLLTXVideo, LTX_VAE, dtype))
        self.offload_seq = ["t5_xxl", "transformer", "vae"]

    def text_calls(self, cfg):
        return ["t5_xxl"] * (2 if cfg else 1)

    def _encode(self, batch):
        pe = self.parts["t5_xxl"](ids(1, self.tokens))[0].to(self.dtype)
        return pe.repeat(1, batch, 1).view(batch, self.tokens, -1)

    def text(self, batch, cfg):
        pe = self._encode(batch)
        mask = torch.ones((batch, self.tokens), dtype=torch.bool, device=META)
        if cfg:
            ne = self._encode(batch)
            pe = torch.cat([ne, pe], dim=0)
            mask = torch.cat([mask, mask.clone()], dim=0)
        return pe, mask

    def denoise(self, batch, h, w, frames, cfg):
        lf, lh, lw = (frames - 1) // 8 + 1, h // 32, w // 32
        b2 = batch * (2 if cfg else 1)
        pe = torch.empty((b2, self.tokens, 4096), dtype=self.dtype, device=META)
        mask = torch.ones((b2, self.tokens), dtype=torch.bool, device=META)
        lat = torch.empty((batch, lf * lh * lw, 128), dtype=torch.float32, device=META)
        inp = torch.cat([lat] * 2) if cfg else lat
        inp = inp.to(self.dtype)
        t = torch.empty((), device=META).expand(b2)
        noise = self.parts["transformer"](hidden_states=inp, encoder_hidden_states=pe, timestep=t,
                                          encoder_attention_mask=mask, num_frames=lf, height=lh, width=lw,
                                          rope_interpolation_scale=(8 / 25, 32, 32), return_dict=False)[0]
        del inp
        noise = noise.float()
        if cfg:
            u, c = noise.chunk(2)
            noise = u + 3.0 * (c - u)
        return step_flow(noise, lat).to(torch.float32)

    def vae_decode(self, batch, h, w, frames, tiling):
        vae = self.parts["vae"]
        lf, lh, lw = (frames - 1) // 8 + 1, h // 32, w // 32
        lat = torch.empty((batch, lf * lh * lw, 128), dtype=torch.float32, device=META)
        lat = diffusers.LTXPipeline._unpack_latents(lat, lf, lh, lw, 1, 1)
        lat = diffusers.LTXPipeline._denormalize_latents(lat, vae.latents_mean, vae.latents_std,
                                                         vae.config.scaling_factor)
        lat = lat.to(self.dtype).to(vae.dtype)
        if tiling:
            vae.enable_tiling()
        else:
            vae.disable_tiling()
        video = vae.decode(lat, None, return_dict=False)[0]
        del lat
        out = (video * 0.5 + 0.5).clamp(0, 1)
        del video
        return out


PIPES = {
    "sd15": lambda: SD15(),
    "sdxl": lambda: SDXL(),
    "flux1-dev": lambda: Flux(),
    "flux1-schnell": lambda: type("FluxS", (Flux,), {"id": "flux1-schnell"})(tokens=256, guidance=False),
    "sd35-medium": lambda: SD3(),
    "sd3-medium": lambda: SD3Medium(),
    "flux1-kontext-dev": lambda: FluxKontext(),
    "qwen-image": lambda: QwenImage(),
    "wan22-ti2v-5b": lambda: Wan22TI2V(),
    "sd35-large": lambda: type("SD3L", (SD3,), {"id": "sd35-large"})(SD35_LARGE, torch.bfloat16),
    "wan21-t2v-1.3b": lambda: Wan(),
    "wan21-t2v-14b": lambda: type("Wan14", (Wan,), {"id": "wan21-t2v-14b"})(WAN_14B),
    "cogvideox-2b": lambda: CogVideoX(),
    "cogvideox-5b": lambda: CogVideoX5B(),
    "hunyuanvideo": lambda: HunyuanVideo(),
    "ltx-video": lambda: LTXVideo(),
}

# --- sweep ---------------------------------------------------------------------------------------

IMAGE_SIZES = [(512, 512), (1024, 1024), (1024, 576), (2048, 2048)]
VIDEO_POINTS = [(832, 480, 17), (832, 480, 81), (1280, 720, 33)]


def traced(fn, *a, weights: torch.nn.Module | None = None):
    """Peak and end of the tensors `fn` creates. With `weights`, that module's parameters and
    buffers are counted from the start, so weights a hook replaces while the module runs (layerwise
    casting's upcast copy, the storage copy that replaces it) count as what they add to the resident
    weights; the figures are then relative to the resident weights at the start."""
    gc.collect()
    tr = Tracker()
    start = 0
    if weights is not None:
        for t in [*weights.parameters(), *weights.buffers()]:
            tr.track(t)
        start = tr.current
        tr.reset_peak()
    with torch.no_grad(), tr:
        out = fn(*a)
        end = tr.current
        del out
    gc.collect()
    return {"peak": tr.peak - start, "end": end - start, "ops": tr.ops}


class NF4Linear(torch.nn.Module):
    """bitsandbytes `Linear4bit` (NF4, blocksize 64, fp32 absmax, no double quantisation) as the
    meta device can hold it, from the bitsandbytes source (the library quantises real weights on a
    CUDA / CPU device, which a meta trace cannot run): the packed uint8 weight (two 4-bit codes a
    byte, `Params4bit`), the absmax per 64-block (`QuantState.absmax`), the bias in the compute
    dtype; `forward` as `Linear4bit.forward` -> `bnb.matmul_4bit` -> `MatMul4Bit.forward`:
    `F.linear(A, F.dequantize_4bit(B, quant_state).to(A.dtype).t(), bias)`, the dequantised
    weight (`torch.empty(quant_state.shape, dtype=quant_state.dtype)`) freed after the matmul."""

    def __init__(self, lin: torch.nn.Linear, dtype):
        super().__init__()
        self.shape = (lin.out_features, lin.in_features)
        n = lin.out_features * lin.in_features
        self.weight = torch.nn.Parameter(torch.empty(((n + 1) // 2, 1), dtype=torch.uint8, device=META),
                                         requires_grad=False)
        self.register_buffer("absmax", torch.empty(((n + 63) // 64,), dtype=torch.float32, device=META))
        self.bias = lin.bias
        self.dtype = dtype

    def forward(self, x):
        w = torch.empty(self.shape, dtype=self.dtype, device=x.device)
        return F.linear(x, w, self.bias)


def to_nf4(m: torch.nn.Module, dtype):
    """diffusers' `replace_with_bnb_linear`: every `nn.Linear` (none of FLUX's is in
    `modules_to_not_convert`) becomes a `Linear4bit`."""
    for name, child in list(m.named_children()):
        if isinstance(child, torch.nn.Linear):
            setattr(m, name, NF4Linear(child, dtype))
        else:
            to_nf4(child, dtype)


def fp8_layerwise(pid: str, path: Path, points: list[tuple], nf4: bool = False):
    """The denoiser stored as fp8 with diffusers' layerwise casting
    (`ModelMixin.enable_layerwise_casting(storage_dtype=torch.float8_e4m3fn,
    compute_dtype=torch.bfloat16)`: each Linear / Conv / Embedding not matched by the skip patterns
    (`DEFAULT_SKIP_MODULES_PATTERN` + the model's `_skip_layerwise_casting_patterns`, e.g. "norm")
    is stored fp8 and upcast by its `LayerwiseCastingHook.pre_forward` for its own forward):
    the denoiser's bytes by dtype and denoiser steps with the upcast copies counted."""
    rec = json.loads(path.read_text())
    p = PIPES[pid]()
    dn = next(k for k in p.parts if p.roles[k] == "denoiser")
    m = p.parts[dn]
    key = "nf4_bnb" if nf4 else "fp8_layerwise"
    if nf4:
        to_nf4(m, p.dtype)
    else:
        # compute in the pipeline's dtype (FLUX bf16; SDXL and SD3.5 Medium fp16)
        m.enable_layerwise_casting(storage_dtype=torch.float8_e4m3fn, compute_dtype=p.dtype)
    by_dtype: dict[str, int] = {}
    for t in [*m.parameters(), *m.buffers()]:
        by_dtype[str(t.dtype)] = by_dtype.get(str(t.dtype), 0) + t.untyped_storage().nbytes()
    rec[key] = {"part": dn, "bytes_by_dtype": by_dtype, "bytes": sum(by_dtype.values())}
    rows = []
    cfg = p.cfg
    for (w, h, b) in points:
        r = traced(p.denoise, b, h, w, 1, cfg, weights=m)
        print(f"  {pid} {key} denoise {w}x{h} b{b} cfg={cfg}: {r['peak'] / MIB:.1f} MiB ({r['ops']} ops)",
              file=sys.stderr)
        r.pop("ops", None)
        rows.append({"width": w, "height": h, "frames": 1, "batch": b, "cfg": cfg, **r})
        rec[key]["denoise"] = rows
        path.write_text(json.dumps(rec, separators=(",", ":"), sort_keys=True) + "\n")


def offload_residency(p: Pipe, cfg: bool, weights: dict) -> dict:
    """Weights resident per phase and offload mode."""
    roles = p.roles
    by_role = lambda r: [k for k in p.parts if roles[k] == r]  # noqa: E731
    total = sum(w["param_bytes"] + w["buffer_bytes"] for w in weights.values())
    full = {k: weights[k]["param_bytes"] + weights[k]["buffer_bytes"] for k in weights}

    # accelerate cpu_offload_with_hook chain: calling part k moves it to the GPU and sends the
    # previous part of `model_cpu_offload_seq` (hook.prev_module_hook) back to the CPU.
    def model_peak(calls):
        on = set()
        peak = 0
        for c in calls:
            on.add(c)
            i = p.offload_seq.index(c)
            if i > 0:
                on.discard(p.offload_seq[i - 1])
            peak = max(peak, sum(full[k] for k in on))
        return peak, on

    text_peak, on = model_peak(p.text_calls(cfg))
    # The denoiser's hook sends the last encoder back; the VAE's sends the denoiser back. Pipelines
    # call `maybe_free_model_hooks` only at the end, so the text encoders left on the GPU by the
    # chain (those not directly before the denoiser) stay: simulate the chain across phases.
    on = set(on)
    dn = by_role("denoiser")[0]
    on.add(dn)
    on.discard(p.offload_seq[p.offload_seq.index(dn) - 1])
    denoise_model = sum(full[k] for k in on)
    on.add("vae")
    on.discard(p.offload_seq[p.offload_seq.index("vae") - 1])
    decode_model = sum(full[k] for k in on)
    seq = {k: weights[k]["sequential_resident"] for k in weights}
    # SDXL's `needs_upcasting`: `vae.to(float32)` replaces each fp16 tensor by its fp32 copy, so the
    # VAE's resident bytes double while it decodes (in every mode).
    up = p.upcast_bytes_factor()
    return {
        "none": {"text": total, "denoise": total, "decode": total + (up - 1) * full["vae"]},
        "model": {"text": text_peak, "denoise": denoise_model, "decode": decode_model + (up - 1) * full["vae"]},
        "sequential": {
            "text": max(seq[k] for k in by_role("text_encoder")),
            "denoise": seq[dn],
            "decode": up * seq["vae"],
        },
    }


def weights_of(p: Pipe) -> dict:
    return {k: dict(part_weights(m), role=p.roles[k], dtype=str(next(m.parameters()).dtype))
            for k, m in p.parts.items()}


def run(pid: str, quick: bool) -> dict:
    t0 = time.time()
    p = PIPES[pid]()
    weights = weights_of(p)
    cfgs = [True, False] if p.cfg else [False]
    rec = {
        "pipeline": pid,
        "source": SOURCES[pid],
        "versions": {"torch": torch.__version__, "diffusers": diffusers.__version__,
                     "transformers": transformers.__version__},
        "weights": weights,
        "residency": {("cfg" if c else "nocfg"): offload_residency(p, c, weights) for c in cfgs},
        "text": [],
        "denoise": [],
        "decode": [],
    }
    batches = getattr(p, "batches", [1, 2, 4])
    points = getattr(p, "points", None) or (
        [(w, h, f) for (w, h, f) in VIDEO_POINTS] if p.video else [(w, h, 1) for (w, h) in IMAGE_SIZES])
    if quick:
        points = points[:2]
    for cfg in cfgs:
        for b in batches:
            if getattr(p, "image_input", False):
                # The reference image's VAE encode follows the prompt encoding in the same phase.
                for (w, h, _) in points:
                    r = traced(p.text, b, cfg, h, w)
                    rec["text"].append({"batch": b, "cfg": cfg, "width": w, "height": h, **r})
            else:
                r = traced(p.text, b, cfg)
                rec["text"].append({"batch": b, "cfg": cfg, **r})
    for (w, h, f) in points:
        for b in batches:
            if p.video and b > 2:
                continue
            for cfg in cfgs:
                r = traced(p.denoise, b, h, w, f, cfg)
                rec["denoise"].append({"width": w, "height": h, "frames": f, "batch": b, "cfg": cfg, **r})
                print(f"  {pid} denoise {w}x{h}x{f} b{b} cfg={cfg}: {r['peak'] / MIB:.1f} MiB ({r['ops']} ops)", file=sys.stderr)
            # Tiling is traced at batch 1 (its tile loop does not depend on the batch; the untiled
            # points carry the batch scaling); slicing at the largest batch (one image at a time).
            modes = [(False, False)]
            if b == 1 and (w, h, f) not in getattr(p, "untiled_points", ()):
                modes.append((True, False))
            if b == batches[-1] and b > 1 and (not p.video or getattr(p, "video_slicing", False)):
                modes.append((False, True))
            for tiling, slicing in modes:
                p.decode_setup()
                r = traced(p.vae_decode_sliced if slicing else p.vae_decode, b, h, w, f, tiling)
                p.decode_teardown()
                row = {"width": w, "height": h, "frames": f, "batch": b, "tiling": tiling, **r}
                if slicing:
                    row["slicing"] = True
                rec["decode"].append(row)
                print(f"  {pid} decode {w}x{h}x{f} b{b} tiling={tiling} slicing={slicing}: {r['peak'] / MIB:.1f} MiB ({r['ops']} ops)", file=sys.stderr)
    for (w, h, f) in getattr(p, "tiled_points", ()):
        rec["decode"].append(tiled_point(p, w, h, f))
    for (w, h, f) in getattr(p, "untiled_decodes", ()):
        rec["decode"].append(tiled_point(p, w, h, f, tiling=False))
    for spec in wide_specs(p):
        add_row(rec, *wide_point(p, spec))
    rec["seconds"] = round(time.time() - t0, 1)
    return rec


def wide_specs(p: Pipe) -> list[tuple]:
    """The `wide` sweep (where users run: batch 8 and 16, a non-square size, slicing and tiling
    at those batches, CFG on and off): (phase, width, height, batch, cfg, tiling, slicing)."""
    out = []
    for spec in getattr(p, "wide", ()):
        phase, w, h, b = spec[:4]
        opts = spec[4] if len(spec) > 4 else ""
        cfgs = [True] if p.cfg and "cfg" in opts else [True, False] if p.cfg else [False]
        if phase == "decode":
            out.append((phase, w, h, b, None, "tiling" in opts, "slicing" in opts))
        else:
            out.extend((phase, w, h, b, c, False, False) for c in cfgs)
    return out


def wide_point(p: Pipe, spec: tuple) -> tuple[str, dict]:
    phase, w, h, b, cfg, tiling, slicing = spec
    if phase == "text":
        r = traced(p.text, b, cfg)
        row = {"batch": b, "cfg": cfg, **r}
    elif phase == "denoise":
        r = traced(p.denoise, b, h, w, 1, cfg)
        row = {"width": w, "height": h, "frames": 1, "batch": b, "cfg": cfg, **r}
    else:
        p.decode_setup()
        r = traced(p.vae_decode_sliced if slicing else p.vae_decode, b, h, w, 1, tiling)
        p.decode_teardown()
        row = {"width": w, "height": h, "frames": 1, "batch": b, "tiling": tiling, **r}
        if slicing:
            row["slicing"] = True
    print(f"  {p.id} {phase} {w}x{h} b{b} cfg={cfg} tiling={tiling} slicing={slicing}: "
          f"{r['peak'] / MIB:.1f} MiB ({r['ops']} ops)", file=sys.stderr)
    return phase, row


def add_row(rec: dict, phase: str, row: dict):
    """Adds `row` to the phase's points, replacing a point with the same settings."""
    key = lambda x: {k: v for k, v in x.items() if k not in ("peak", "end", "ops")}  # noqa: E731
    rec[phase] = [x for x in rec[phase] if key(x) != key(row)] + [row]


def tiled_point(p: Pipe, w: int, h: int, f: int, tiling: bool = True) -> dict:
    """One tiled decode at batch 1 (the `tiled_points` sweep: the tile grid and the kept tiles);
    with `tiling=False`, one untiled decode (`untiled_decodes`)."""
    p.decode_setup()
    r = traced(p.vae_decode, 1, h, w, f, tiling)
    p.decode_teardown()
    print(f"  {p.id} decode {w}x{h}x{f} b1 tiling={tiling}: {r['peak'] / MIB:.1f} MiB ({r['ops']} ops)",
          file=sys.stderr)
    return {"width": w, "height": h, "frames": f, "batch": 1, "tiling": tiling, **r}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "tests" / "traces" / "diffusion"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--text-only", action="store_true",
                    help="rewrite only the text-encoding points of existing traces")
    ap.add_argument("--weights-only", action="store_true",
                    help="rewrite only the weights and residency of existing traces")
    ap.add_argument("--tiled-only", action="store_true",
                    help="add only the pipeline's `tiled_points` decodes to existing traces")
    ap.add_argument("--wide-only", action="store_true",
                    help="add only the pipeline's `wide` sweep to existing traces")
    ap.add_argument("--fp8-only", action="store_true",
                    help="add the fp8 layerwise-casting denoiser (weights, steps) to existing traces")
    ap.add_argument("--nf4-only", action="store_true",
                    help="add the bitsandbytes NF4 denoiser (emulated from its source) to existing traces")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for pid in a.only or list(PIPES):
        print(f"tracing {pid}", file=sys.stderr)
        if a.text_only:
            path = out / f"{pid}.json"
            rec = json.loads(path.read_text())
            p = PIPES[pid]()
            cfgs = [True, False] if p.cfg else [False]
            rec["text"] = []
            for cfg in cfgs:
                for b in getattr(p, "batches", [1, 2, 4]):
                    r = traced(p.text, b, cfg)
                    r.pop("ops", None)
                    rec["text"].append({"batch": b, "cfg": cfg, **r})
            path.write_text(json.dumps(rec, separators=(",", ":"), sort_keys=True) + "\n")
            continue
        if a.fp8_only or a.nf4_only:
            fp8_layerwise(pid, out / f"{pid}.json", [(512, 512, 1), (1024, 1024, 1), (1024, 1024, 4)],
                          nf4=a.nf4_only)
            continue
        if a.wide_only:
            path = out / f"{pid}.json"
            rec = json.loads(path.read_text())
            p = PIPES[pid]()
            for spec in wide_specs(p):
                phase, row = wide_point(p, spec)
                row.pop("ops", None)
                add_row(rec, phase, row)
                path.write_text(json.dumps(rec, separators=(",", ":"), sort_keys=True) + "\n")
            continue
        if a.tiled_only:
            path = out / f"{pid}.json"
            rec = json.loads(path.read_text())
            p = PIPES[pid]()
            for tiling, pts in ((True, getattr(p, "tiled_points", ())), (False, getattr(p, "untiled_decodes", ()))):
                for (w, h, f) in pts:
                    r = tiled_point(p, w, h, f, tiling)
                    r.pop("ops", None)
                    rec["decode"] = [x for x in rec["decode"] if not (
                        bool(x.get("tiling")) == tiling and not x.get("slicing") and x["batch"] == 1
                        and (x["width"], x["height"], x["frames"]) == (w, h, f))]
                    rec["decode"].append(r)
                    path.write_text(json.dumps(rec, separators=(",", ":"), sort_keys=True) + "\n")
            continue
        if a.weights_only:
            path = out / f"{pid}.json"
            rec = json.loads(path.read_text())
            p = PIPES[pid]()
            w = weights_of(p)
            rec["weights"] = w
            rec["residency"] = {("cfg" if c else "nocfg"): offload_residency(p, c, w)
                                for c in ([True, False] if p.cfg else [False])}
            path.write_text(json.dumps(rec, separators=(",", ":"), sort_keys=True) + "\n")
            continue
        rec = run(pid, a.quick)
        for k in ("text", "denoise", "decode"):
            for r in rec[k]:
                r.pop("ops", None)
        (out / f"{pid}.json").write_text(json.dumps(rec, separators=(",", ":"), sort_keys=True) + "\n")
        print(f"  wrote {pid}.json in {rec['seconds']} s", file=sys.stderr)


if __name__ == "__main__":
    main()
