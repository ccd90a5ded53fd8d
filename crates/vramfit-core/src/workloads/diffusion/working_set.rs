//! Working sets of the three phases: the text encoders' forward, one denoiser step (block
//! working set and attention), and the VAE decode (full frame, tiles, slices, video chunks).

use super::pipelines::{Part, Pipeline};
use super::*;
use crate::units::bytes::{add, div, mul, prod, sub, sum};

/// The geometry every phase shares.
pub(super) struct Shape {
    pub(super) latent_h: u64,
    pub(super) latent_w: u64,
    pub(super) latent_frames: u64,
    pub(super) batch: u64,
    pub(super) cfg_batch: u64,
}

pub(super) fn shape(p: &Pipeline, g: &Generation) -> Shape {
    let cfg = p.cfg && g.guidance;
    Shape {
        latent_h: u64::from(g.height / p.vae_factor),
        latent_w: u64::from(g.width / p.vae_factor),
        latent_frames: u64::from((g.frames.max(1) - 1) / p.temporal_factor.max(1) + 1),
        batch: u64::from(g.batch),
        cfg_batch: u64::from(g.batch) * if cfg && p.cfg_batched { 2 } else { 1 },
    }
}

/// Text-encoding peak: the pipeline calls its encoders one prompt at a time (the negative prompt
/// after the positive one under CFG), in catalog order; each call's working set is one layer's
/// live copies of the hidden state (+ every layer's output when the pipeline asks for
/// `output_hidden_states`, + a causal LM head's logits), beside the embeddings the earlier calls
/// returned, already repeated to the batch (`prompt_embeds.repeat(1, num_images_per_prompt, 1)`).
/// A prompt's embeddings are its encoders' rows or, where the pipeline pads and concatenates them
/// (SD3: CLIP-L ‖ CLIP-G padded to T5's width, then T5's tokens), `text_tokens × text_dim`.
/// Returns (peak, the embeddings kept when the last call returns).
pub(super) fn text_activations(
    p: &Pipeline,
    g: &Generation,
    encoders: &[(&Part, PipelinePartFormat)],
) -> (u64, u64) {
    let prompts = if p.cfg && g.guidance { 2 } else { 1 };
    let batch = u64::from(g.batch);
    let mut kept = 0;
    let mut peak = 0;
    for _ in 0..prompts {
        let mut rows = 0;
        for &(part, format) in encoders {
            let b = format.act();
            let row = prod(&[u64::from(part.tokens), u64::from(part.hidden), b]);
            let hidden = if part.all_hidden {
                u64::from(part.blocks)
            } else {
                0
            };
            let tokens = u64::from(part.tokens);
            let bias = prod(&[u64::from(part.bias_heads), tokens, tokens, b]);
            let logits = prod(&[tokens, u64::from(part.logits_vocab), b]);
            let call = sum([
                div(mul(row, u64::from(part.layer_x10) + 10 * hidden), 10),
                mul(2, bias),
                logits,
            ]);
            let call = call.max(t5_feed_forward(part, format, bias));
            peak = peak.max(sum([kept, rows, call]));
            // What the pipeline keeps: at most the tokens the denoiser sees (Qwen-Image and
            // HunyuanVideo drop their system template's tokens).
            let kept_tokens = tokens.min(u64::from(p.text_tokens));
            let one = prod(&[kept_tokens, u64::from(part.hidden), b]);
            if p.repeat_after_concat {
                rows = add(rows, one);
            } else {
                rows = add(rows, mul(batch, one));
                // `repeat` holds the prompt's rows beside their batch copies (traced, SD1.5 × 16).
                peak = peak.max(sum([kept, rows, one]));
            }
        }
        if p.repeat_after_concat {
            // SDXL: the encoders' rows, their `torch.concat` and its batch copies (traced).
            peak = peak.max(sum([kept, mul(2, rows), mul(batch, rows)]));
            rows = mul(batch, rows);
        }
        let padded = prod(&[batch, u64::from(p.text_tokens), u64::from(p.text_dim), 2]);
        if padded > rows {
            // SD3 repeats each encoder's rows to the batch, pads the CLIP rows to T5's width and
            // concatenates: the padded pieces and the result are live together (traced).
            peak = peak.max(add(kept, mul(2, padded)));
        }
        kept = add(kept, rows.max(padded));
    }
    if p.cfg_batched && prompts == 2 {
        // `torch.cat([negative_prompt_embeds, prompt_embeds])`: both and their concatenation.
        peak = peak.max(mul(2, kept));
    }
    (peak.max(kept), kept)
}

/// T5's feed-forward in a later layer (traced): the relative-position bias computed by the first
/// layer stays for all (`bias`), the stack holds the embedding output and the block's input, the
/// block its post-attention residual and the norm's output; `T5DenseGatedActDense` holds the
/// GELU branch, the linear branch and their product (3 × d_ff). Inside the GELU (transformers
/// `NewGELUActivation`: `0.5 * input * (1.0 + torch.tanh(… (input + 0.044715 *
/// torch.pow(input, 3.0))))`) `wi_0`'s output, `0.5 * input` and two temporaries of the tanh
/// term are live: 4 × d_ff, the 16-bit peak (traced, CogVideoX-5b's bf16 T5 at 226 tokens).
/// Loaded as fp16, `wo` stays fp32 (`_keep_in_fp32_modules`): the product is cast to fp32
/// beside them (3 × d_ff + 4 bytes × d_ff, above the GELU's) and the residual stream becomes
/// fp32 from the first feed-forward on (the block's input and residual at 4 bytes). 0 for other
/// encoders (no `ff`).
fn t5_feed_forward(part: &Part, format: PipelinePartFormat, bias: u64) -> u64 {
    if part.ff == 0 {
        return 0;
    }
    let b = format.act();
    let wo32 = format == PipelinePartFormat::Fp16 && part.fp32_keep > 0;
    let (ff_bytes, stream_bytes) = if wo32 {
        ((3 * b + 4).max(4 * b), 2 * b + 2 * 4)
    } else {
        (4 * b, 4 * b)
    };
    let per_token = add(
        mul(u64::from(part.ff), ff_bytes),
        mul(u64::from(part.hidden), stream_bytes),
    );
    add(mul(u64::from(part.tokens), per_token), bias)
}

/// The reference image's VAE encode (FLUX.1 Kontext `prepare_latents`, one image whatever the
/// batch: its latents are repeated afterwards). `AutoencoderKL.encode` peaks in the first down
/// block's resnets at full resolution, where five maps of its 128 channels are live (the block
/// input, the norm, the SiLU, the conv output and the residual sum; traced), beside the input
/// image in the VAE's dtype and the batch's repeated latents.
pub(super) fn encode_activations(
    p: &Pipeline,
    g: &Generation,
    s: &Shape,
    vae_format: PipelinePartFormat,
) -> u64 {
    let b = vae_format.act();
    let px = mul(u64::from(g.width), u64::from(g.height));
    let latents = prod(&[
        s.batch,
        u64::from(p.latent_channels),
        s.latent_h,
        s.latent_w,
        b,
    ]);
    sum([prod(&[5, 128, px, b]), prod(&[3, px, b]), latents])
}

/// Denoiser working set: one block (transformers) or the largest UNet level, plus the pipeline's
/// latents and text embeddings. Also returns what is live when the denoiser's `upcast_layer`
/// runs (see `quantized_step`): 14/17 of a DiT's block peak (FLUX's single-block `proj_out`);
/// in a UNet, the deepest level's held maps and skips (SDXL's `up_blocks[0]` resnet conv), beside
/// the latents and embeddings.
pub(super) fn denoise_activations(
    p: &Pipeline,
    g: &Generation,
    s: &Shape,
    format: PipelinePartFormat,
) -> (u64, u64) {
    let b = if p.runtime == Runtime::WanOfficial {
        2
    } else {
        format.act()
    };
    let grid = mul(
        s.latent_h / u64::from(p.patch.max(1)),
        s.latent_w / u64::from(p.patch.max(1)),
    );
    // FLUX.1 Kontext: the reference image's tokens join every call.
    let refs = if p.reference_image { 2 } else { 1 };
    let image_tokens = prod(&[grid, s.latent_frames, refs]);
    let text = u64::from(p.text_tokens);
    let heads = u64::from(p.denoiser_heads);
    let naive = g.attention == Attention::Naive;
    let mut deepest = 0;
    let work = if p.unet.is_empty() {
        let tokens = add(image_tokens, if p.joint_text { text } else { 0 });
        let text_x10 = if p.text_x10 == 0 {
            p.block_x10
        } else {
            p.text_x10
        };
        let joint = if p.joint_text { text } else { 0 };
        let copies_x10 = add(
            mul(image_tokens, u64::from(p.block_x10)),
            mul(joint, u64::from(text_x10)),
        )
        .max(add(
            mul(image_tokens, u64::from(p.rope_x10.0)),
            mul(joint, u64::from(p.rope_x10.1)),
        ));
        let block = add(
            div(prod(&[copies_x10, u64::from(p.denoiser_hidden), b]), 10),
            mul(tokens, u64::from(p.block_extra)),
        );
        let scores = if naive {
            prod(&[heads, tokens, tokens, 2, b])
        } else {
            0
        };
        mul(s.cfg_batch, add(block, scores))
    } else {
        // UNet (traced SD1.5 / SDXL): the peak is the GEGLU feed-forward of the first transformer
        // layer in the up block of the highest-resolution attention level L: proj (8 C) + GELU
        // (4 C) + product (4 C) = 16 maps of L, beside the transformer stream (5: the
        // Transformer2D residual, hidden stream, attention residual, norm, proj), the first
        // resnet's output, the block's input held by the caller (C_{L+1}/C_L maps), the skips L
        // still holds (one attention output + the map that entered L: `conv_in` or the downsampler
        // of the level above) and the three skips of every higher-resolution level.
        let levels = p.unet;
        let mut peak = 0;
        for (i, level) in levels.iter().enumerate() {
            let c = u64::from(level.channels);
            let ds = u64::from(level.downscale);
            let tokens = grid / (ds * ds).max(1);
            let map = prod(&[tokens, c, b]);
            let ratio = |other: u64| div(mul(map, other), c);
            let input = ratio(levels.get(i + 1).map_or(c, |l| u64::from(l.channels)));
            let entered = ratio(if i == 0 {
                c
            } else {
                u64::from(levels[i - 1].channels)
            });
            let higher: u64 = levels[..i]
                .iter()
                .map(|l| {
                    let f = ds / u64::from(l.downscale).max(1);
                    prod(&[3, tokens, f, f, u64::from(l.channels), b])
                })
                .fold(0, add);
            let held = sum([mul(6, map), input, entered, map, higher]);
            deepest = mul(s.cfg_batch, held);
            if level.heads == 0 {
                continue;
            }
            let geglu = add(held, mul(16, map));
            let scores = if naive {
                // q, k, v, the attention output, the scores and their softmax.
                sum([
                    held,
                    mul(4, map),
                    prod(&[u64::from(level.heads), tokens, tokens, 2, b]),
                ])
            } else {
                0
            };
            peak = peak.max(geglu).max(scores);
        }
        mul(s.cfg_batch, peak)
    };
    // Latent copies live at the block (traced): the pipeline's latents; the batched-CFG input
    // `torch.cat([latents] * 2)`; FLUX.1 Kontext's reference latents and the `torch.cat` of both.
    // Pipelines with fp32 latents (diffusers' Wan, HunyuanVideo, LTX) give each call a 16-bit
    // copy of the denoiser's batch (LTX: of the fp32 `torch.cat([latents] * 2)`, freed once
    // cast): 4 + 2 bytes, 4 + 2 × 2 under batched CFG; Wan 2.2's `expand_timesteps` mask adds 4.
    // The official Wan code, four fp32 copies (16 bytes).
    let elems = prod(&[
        s.batch,
        u64::from(p.latent_channels),
        s.latent_frames,
        s.latent_h,
        s.latent_w,
    ]);
    let per_elem = if p.runtime == Runtime::WanOfficial {
        16
    } else if p.fp32_latents {
        let copies = s.cfg_batch / s.batch.max(1);
        4 + 2 * copies + if p.timestep_mask { 4 } else { 0 }
    } else {
        let cfg_copies = if s.cfg_batch > s.batch { 2 } else { 0 };
        let ref_copies = if p.reference_image { 3 } else { 0 };
        b * (1 + cfg_copies + ref_copies)
    };
    let latents = mul(elems, per_elem);
    // The prompt's embeddings and, under CFG, the negative prompt's (batched or not).
    let prompts = if p.cfg && g.guidance { 2 } else { 1 };
    let embeds = prod(&[prompts, s.batch, text, u64::from(p.text_dim), 2]);
    // Position tables built once for the batch (CogVideoX 5B's RoPE cos / sin, FLUX's and
    // Qwen-Image's over the joined prompt too).
    let table_tokens = if p.rope_table_text && p.joint_text {
        add(image_tokens, text)
    } else {
        image_tokens
    };
    let tables = mul(table_tokens, u64::from(p.rope_table));
    let total = sum([work, latents, embeds, tables]);
    let at_upcast = if p.unet.is_empty() {
        div(mul(total, 14), 17)
    } else {
        sum([deepest, latents, embeds])
    };
    (total, at_upcast)
}

/// VAE decode working set (see the module doc).
pub(super) fn decode_activations(
    p: &Pipeline,
    g: &Generation,
    s: &Shape,
    vae_format: PipelinePartFormat,
) -> (u64, u64) {
    let v = &p.vae;
    let fp32 = vae_format == PipelinePartFormat::Fp32 || v.upcast;
    let (b, workspace) = if fp32 {
        (4, v.workspace_x100_32)
    } else {
        (2, v.workspace_x100_16)
    };
    let (h, w) = (u64::from(g.height), u64::from(g.width));
    let tiled = g.vae_tiling && (g.height > v.tile.0 || g.width > v.tile.1);
    let (th, tw) = if tiled {
        (u64::from(v.tile.0), u64::from(v.tile.1))
    } else {
        (h, w)
    };
    let down = u64::from(v.stage_downscale.max(1));
    let map = prod(&[u64::from(v.stage_channels), th / down, tw / down, b]);
    let frames = u64::from(g.frames.max(1));
    let chunk = if v.chunk_frames == 0 {
        frames
    } else {
        frames.min(u64::from(v.chunk_frames))
    };
    let streams = if g.vae_slicing { 1 } else { s.batch };
    let out_one = prod(&[3, frames, h, w, b]);
    if !p.video {
        // Image VAEs (traced): the decoded image does not exist yet at the decoder's peak; after it
        // the denormalisation (`image * 0.5 + 0.5`, `clamp`) holds three images. Slicing keeps the
        // images already decoded. Tiling (`tiled_decode`) decodes the latent tiles one after the
        // other (stride 0.75 tile, edge tiles cut), holding every tile decoded before.
        let per_map = u64::from(v.stage_channels) * b / (down * down);
        let held_slices = mul(s.batch - streams, out_one);
        let (tensors, ws) = if tiled {
            let (tl_h, tl_w) = (th / 8, tw / 8);
            let (lh, lw) = (h / 8, w / 8);
            let (sh, sw) = ((tl_h * 3 / 4).max(1), (tl_w * 3 / 4).max(1));
            let map = |th: u64, tw: u64| prod(&[per_map, 64, th, tw]);
            let tile = (tl_h, tl_w);
            let (peak, all) = tiled_peak((lh, lw), tile, (sh, sw), |area, th, tw| {
                add(
                    div(prod(&[streams, map(th, tw), u64::from(v.live_x100)]), 100),
                    prod(&[streams, 3, 64, area, b]),
                )
            });
            let (peak_ws, _) = tiled_peak((lh, lw), tile, (sh, sw), |_, th, tw| {
                div(prod(&[streams, map(th, tw), u64::from(workspace)]), 100)
            });
            let done = prod(&[3, 64, all, b]);
            // the tiles, the blended rows and the final `torch.cat`, per image decoded together
            // (`AutoencoderKL.tiled_decode`)
            (peak.max(mul(streams, add(done, mul(2, out_one)))), peak_ws)
        } else {
            let map = prod(&[per_map, h, w]);
            (
                div(prod(&[streams, map, u64::from(v.live_x100)]), 100),
                div(prod(&[streams, map, u64::from(workspace)]), 100),
            )
        };
        return (
            add(tensors, held_slices).max(prod(&[3, s.batch, out_one])),
            ws,
        );
    }
    let per_stream = add(
        div(prod(&[map, chunk, u64::from(v.live_x100)]), 100),
        div(mul(map, u64::from(v.cache_x100)), 100),
    );
    if v.cog_loop {
        let (one, decoded) = if tiled {
            cog_tiles(g, b, s.latent_frames, v.tile)
        } else {
            cog_decoder(s.latent_frames, h, w, b)
        };
        // The decoded frames (the latent frames' own count: 13 frames decode as 16).
        let video = prod(&[3, decoded, h, w, b]);
        // Slicing (`z.split(1)`) keeps the videos decoded before; the end holds the decoded
        // videos, their `torch.cat` and the postprocessing's copies (3 videos).
        return (
            add(mul(streams, one), mul(sub(s.batch, streams), video))
                .max(prod(&[3, s.batch, video])),
            div(prod(&[streams, map, chunk, u64::from(workspace)]), 100),
        );
    }
    if v.ltx_loop || v.hunyuan_loop {
        // The 16-bit latents the VAE decodes (`latents.to(vae.dtype)`, scaled).
        let f = u64::from(p.vae_factor.max(1));
        let z = prod(&[
            s.batch,
            u64::from(p.latent_channels),
            s.latent_frames,
            h / f,
            w / f,
            b,
        ]);
        let (decoding, video) = if v.ltx_loop {
            let (one, video) = ltx_decode(p, g, b, tiled);
            (mul(streams, one), video)
        } else {
            hunyuan_decode(p, g, b, streams, s.latent_frames, tiled)
        };
        // Slicing (`z.split(1)`) keeps the videos decoded before; the end holds the decoded
        // videos, their `torch.cat` and the postprocessing's copies (3 videos).
        return (
            sum([z, decoding, mul(s.batch - streams, video)]).max(prod(&[3, s.batch, video])),
            div(prod(&[streams, map, chunk, u64::from(workspace)]), 100),
        );
    }
    if v.wan_loop {
        let one = if tiled {
            wan_tiles(p, g, b, chunk)
        } else {
            // The frames decoded before the last call, `torch.cat`-ed as they came.
            add(
                per_stream,
                prod(&[3, frames.saturating_sub(chunk), h, w, b]),
            )
        };
        // Slicing (`z.split(1)`) keeps the videos decoded before; the end holds the decoded
        // videos, their `torch.cat` and the postprocessing's copies (3 videos).
        return (
            add(mul(streams, one), mul(s.batch - streams, out_one))
                .max(prod(&[3, s.batch, out_one])),
            div(prod(&[streams, map, chunk, u64::from(workspace)]), 100),
        );
    }
    // Decoded output: the frames (or tiles, ×1/0.75² with the 0.25 overlap) and their `torch.cat`.
    let output = mul(
        s.batch,
        if tiled {
            add(div(mul(out_one, 16), 9), out_one)
        } else {
            mul(2, out_one)
        },
    );
    (
        add(mul(streams, per_stream), output),
        div(prod(&[streams, map, chunk, u64::from(workspace)]), 100),
    )
}

/// One video's tiled decode in diffusers' `AutoencoderKLWan.tiled_decode` (diffusers 0.42.1,
/// traced for Wan 2.1 and 2.2): latent tiles of `tile` / VAE factor (`tile_sample_min_*` 256 px)
/// at a ¾-tile stride (`tile_sample_stride_*` 192 px), edge tiles cut. Each tile is decoded over
/// every latent frame with its own causal caches (`clear_cache()` per tile), its frames
/// `torch.cat`-ed into `rows`, which keeps every decoded tile (3 channels × frames × the tile's
/// pixels; Wan 2.2's 12 channels at half resolution are the same bytes) until the blend. Peak
/// within a tile: its decoder at the last call (live maps × frames per call + the caches, at the
/// tile's size), beside every tile decoded before and the tile's frames decoded before that
/// call. At the end: every tile, the blended rows (`result_rows`), their `torch.cat` and the
/// `clamp` (Wan 2.2: the unpatchified copy, then the `clamp`) = the tiles + 3 videos.
fn wan_tiles(p: &Pipeline, g: &Generation, b: u64, chunk: u64) -> u64 {
    let v = &p.vae;
    let f = u64::from(p.vae_factor.max(1));
    let down = u64::from(v.stage_downscale.max(1));
    let (lh, lw) = (u64::from(g.height) / f, u64::from(g.width) / f);
    let (tl_h, tl_w) = (u64::from(v.tile.0) / f, u64::from(v.tile.1) / f);
    let (sh, sw) = ((tl_h * 3 / 4).max(1), (tl_w * 3 / 4).max(1));
    let frames = u64::from(g.frames.max(1));
    let pixel = prod(&[3, frames, b]);
    let (peak, all) = tiled_peak((lh, lw), (tl_h, tl_w), (sh, sw), |area, th, tw| {
        let (th, tw) = (th * f, tw * f);
        let map = prod(&[u64::from(v.stage_channels), th / down, tw / down, b]);
        let decoder = add(
            div(prod(&[map, chunk, u64::from(v.live_x100)]), 100),
            div(mul(map, u64::from(v.cache_x100)), 100),
        );
        let earlier = prod(&[3, frames.saturating_sub(chunk), th, tw, b]);
        sum([prod(&[pixel, f, f, area]), earlier, decoder])
    });
    let done = prod(&[pixel, f, f, all]);
    let out_one = prod(&[pixel, u64::from(g.height), u64::from(g.width)]);
    peak.max(add(done, mul(3, out_one)))
}

/// CogVideoX's decoder levels (diffusers 0.42.1 `CogVideoXDecoder3D` for the published
/// `block_out_channels` [128, 256, 256, 512], `layers_per_block` 3: 4 resnets per up block, 2 in
/// the mid block, 16 latent channels; counted on the meta-device model): (downscale from the
/// output, `compress_time` upsamplers before the level, the summed input channels of its
/// kernel-3 causal convs, its spatial norms).
const COG_LEVELS: [(u64, u32, u64, u64); 4] = [
    // `conv_in` (16), the mid block's 2 resnets and `up_blocks[0]`'s 4 (2 convs each, 512).
    (8, 0, 16 + 12 * 512, 12),
    // `up_blocks[1]`: `resnets[0].conv1` takes 512 channels, its other 7 convs 256.
    (4, 1, 512 + 7 * 256, 8),
    // `up_blocks[2]`: 8 convs of 256 (its upsampler doubles the size, not the frames).
    (2, 2, 8 * 256, 8),
    // `up_blocks[3]`: `resnets[0].conv1` takes 256, 7 convs of 128, and `conv_out`'s 128;
    // `norm_out` is the ninth spatial norm.
    (1, 2, 256 + 8 * 128, 9),
];

/// Frames after a `CogVideoXUpsample3D` with `compress_time`: an odd chunk keeps its first
/// frame and doubles the rest (`x_first`, `x_rest`), an even one doubles, one frame stays one.
fn cog_up(f: u64) -> u64 {
    if f > 1 && f % 2 == 1 {
        sub(mul(2, f), 1)
    } else if f > 1 {
        mul(2, f)
    } else {
        f
    }
}

/// The caches one CogVideoX decoder call of `l` latent frames returns for an `h` × `w` output
/// (`CogVideoXCausalConv3d.forward`: `inputs[:, :, -time_kernel_size + 1:].clone()`): every
/// kernel-3 conv keeps the last 2 frames of its input; the kernel-1 `conv_y` and `conv_b` of
/// every `CogVideoXSpatialNorm3D` keep a clone of their whole input (the slice `-1 + 1:` starts at
/// 0), the zq latents interpolated to the level: 16 channels × the level's frames each.
fn cog_caches(l: u64, h: u64, w: u64, b: u64) -> u64 {
    COG_LEVELS
        .iter()
        .map(|&(ds, ups, k3, norms)| {
            let frames = (0..ups).fold(l, |f, _| cog_up(f));
            let channel_frames = add(mul(2, k3), prod(&[2, norms, 16, frames]));
            prod(&[channel_frames, h / ds, w / ds, b])
        })
        .fold(0, add)
}

/// One video's `AutoencoderKLCogVideoX._decode` at `h` × `w` (diffusers 0.42.1; traced at
/// 720 × 480 and 480 × 320, 13 to 49 frames, and on its tiles): `num_latent_frames_batch_size`
/// = 2 latent frames per decoder call, the first call taking the odd one more; the caches a call
/// returns are passed to the next (`conv_cache`), so the previous call's caches stay live while
/// the call makes its own. Each call peaks in `up_blocks[3].resnets[3].norm2`, at
/// `norm_f * conv_y + conv_b`, where live per output frame at full resolution: the upsampler's
/// 256-channel output (held by the decoder's call to the block), the resnet's input, `conv1`'s
/// output, `conv_y`, `conv_b`, the GroupNorm output, the product and the sum (7 × 128) and the
/// interpolated zq (16) = 1,168 channels; beside the previous call's caches, this call's caches
/// but those of the modules after the peak (`resnets[3].conv2` and `conv_out`: 2 frames × 128
/// each; `norm_out`: 2 × 16 per frame) and the frames decoded before (3 channels, the `dec`
/// list). The peak is the first call, the second (the first call's larger caches before it) or
/// the last (the most frames decoded before it). Returns (peak, frames decoded).
fn cog_decoder(latent_frames: u64, h: u64, w: u64, b: u64) -> (u64, u64) {
    let l = latent_frames.max(1);
    let calls = (l / 2).max(1);
    let first = (2 + l % 2).min(l);
    let out = |l: u64| cog_up(cog_up(l));
    let px = prod(&[h, w, b]);
    let live = |l: u64| prod(&[1_168, out(l), px]);
    let own = |l: u64| {
        let after = mul(add(4 * 128, mul(2 * 16, out(l))), px);
        cog_caches(l, h, w, b).saturating_sub(after)
    };
    let decoded = add(out(first), mul(calls - 1, out(2)));
    let mut peak = add(live(first), own(first));
    if calls > 1 {
        let later = add(live(2), own(2));
        let second = sum([
            cog_caches(first, h, w, b),
            later,
            prod(&[3, out(first), px]),
        ]);
        let last = sum([
            cog_caches(if calls > 2 { 2 } else { first }, h, w, b),
            later,
            prod(&[3, decoded.saturating_sub(out(2)), px]),
        ]);
        peak = peak.max(second).max(last);
    }
    (peak, decoded)
}

/// One video's `AutoencoderKLCogVideoX.tiled_decode` (diffusers 0.42.1, traced): latent tiles of
/// `tile` / 8 (`tile_sample_min_*` = half the `sample_*` size, 240 × 360 px) at a stride of
/// `int(tile × (1 − overlap))` (`tile_overlap_factor_height` 1/6, `_width` 1/5: 25 × 36 latent
/// rows and columns), edge tiles cut; each tile decoded over every frame by `cog_decoder`'s loop
/// and kept (`rows`) until the blend. Peak: a tile's decoder beside every tile decoded before; at
/// the end every tile, the blended rows (`result_rows`, one video) and their `torch.cat`.
/// Returns (peak, frames decoded).
fn cog_tiles(g: &Generation, b: u64, latent_frames: u64, tile: (u32, u32)) -> (u64, u64) {
    let (h, w) = (u64::from(g.height), u64::from(g.width));
    let (lh, lw) = (h / 8, w / 8);
    let (tl_h, tl_w) = (u64::from(tile.0) / 8, u64::from(tile.1) / 8);
    let (sh, sw) = ((tl_h * 5 / 6).max(1), (tl_w * 4 / 5).max(1));
    let (_, frames) = cog_decoder(latent_frames, 8, 8, b);
    let (peak, all) = tiled_peak((lh, lw), (tl_h, tl_w), (sh, sw), |area, th, tw| {
        let (decoder, _) = cog_decoder(latent_frames, th * 8, tw * 8, b);
        add(prod(&[3, frames, 64, area, b]), decoder)
    });
    let done = prod(&[3, frames, 64, all, b]);
    let video = prod(&[3, frames, h, w, b]);
    (peak.max(add(done, mul(2, video))), frames)
}

/// One video's `AutoencoderKLLTXVideo.decode` (LTX-Video 0.9.0, diffusers 0.42.1; traced at
/// 512 × 512 to 1216 × 704, 41 to 161 frames): the decoder runs once over every frame (no
/// framewise decoding; `decoder_causal` false). Its peak is the last up block's first resnet,
/// at the stage (128 channels at a quarter of the output size: the decoder ends in a 4 × 4
/// un-patchify), in `RMSNorm` (`hidden_states.to(torch.float32)` and its `pow(2)`, 2 fp32 maps)
/// beside a contiguous 16-bit copy of the block's input = 5 maps per output frame; the
/// upsampler's output (`LTXVideoUpsampler3d`: conv, depth-to-space `permute`, the first frame
/// dropped by a view: F + 1 frames) and its 256-channel input at half the stage size ((F + 1) / 2
/// frames, 1/4 map each) = 1.25 maps per frame more. Tiling (`tiled_decode`): latent tiles of
/// `tile` / 32 (512 px) at a ⅞-tile stride (448 px), edge tiles cut, each decoded over every
/// frame and kept until the blend; at the end every tile, the blended rows and their
/// `torch.cat`. Returns (peak, one decoded video).
fn ltx_decode(p: &Pipeline, g: &Generation, b: u64, tiled: bool) -> (u64, u64) {
    let v = &p.vae;
    let f = u64::from(p.vae_factor.max(1));
    let down = u64::from(v.stage_downscale.max(1));
    let frames = u64::from(g.frames.max(1));
    let (h, w) = (u64::from(g.height), u64::from(g.width));
    let call = |th: u64, tw: u64| {
        let map = prod(&[u64::from(v.stage_channels), th / down, tw / down, b]);
        add(mul(map, 5 * frames), div(prod(&[map, frames + 1, 5]), 4))
    };
    let video = prod(&[3, frames, h, w, b]);
    if !tiled {
        return (call(h, w), video);
    }
    let (lh, lw) = (h / f, w / f);
    let (tl_h, tl_w) = (u64::from(v.tile.0) / f, u64::from(v.tile.1) / f);
    let (sh, sw) = ((tl_h * 7 / 8).max(1), (tl_w * 7 / 8).max(1));
    let (peak, all) = tiled_peak((lh, lw), (tl_h, tl_w), (sh, sw), |area, th, tw| {
        add(prod(&[3, frames, f, f, area, b]), call(th * f, tw * f))
    });
    let done = prod(&[3, frames, f, f, all, b]);
    (peak.max(add(done, mul(2, video))), video)
}

/// One `HunyuanVideoDecoder3D` call on `l` latent frames for a `th` × `tw` output, for `streams`
/// videos decoded together (diffusers 0.42.1, traced): the larger of
/// - the last `HunyuanVideoUpsampleCausal3D` (256 channels, to full size): the first frame
///   upsampled alone (1 frame), the others by `F.interpolate` (f − 1), their `torch.cat` (f), the
///   causal conv's padded input (f + 2 frames, 1 px each side) and its output (f), beside the
///   up blocks' half-size inputs (512 + 256 channels × (f + 1) / 2 frames at a quarter of the
///   area = 0.75 full-size 256-channel frames each); f = 4 (l − 1) + 1;
/// - the mid block's causal attention mask (`prepare_causal_attention_mask` over the call's
///   N = l × th/8 × tw/8 latent tokens: the fp32 `torch.where` result and its 16-bit copy,
///   6 N² bytes, one mask for the batch) beside two 512-channel latent-size maps per video.
fn hunyuan_call(l: u64, th: u64, tw: u64, b: u64, streams: u64) -> u64 {
    let f = 4 * l.saturating_sub(1) + 1;
    let half_frames = 2 * l.saturating_sub(1) + 1;
    let full = prod(&[256, th, tw, b, streams]);
    let conv = sum([
        mul(full, 3 * f),
        prod(&[256, f + 2, th + 2, tw + 2, b, streams]),
        div(mul(full, 3 * half_frames), 4),
    ]);
    let n = prod(&[l, th / 8, tw / 8]);
    let mask = add(prod(&[6, n, n]), prod(&[2, 512, n, b, streams]));
    conv.max(mask)
}

/// The windows a tiled decode takes along one axis of `len` latent units: `tile` wide every
/// `stride`, the last ones cut at the edge. Returns the sum of all windows' widths and, as (the
/// widths of the windows before it, its width), the windows where a loop whose running total only
/// grows can peak: the last full-width window and every cut one (the same width peaks last, so
/// the 8192-px, thousand-frame videos a hand-edited link asks for take a few candidates per
/// temporal tile, not thousands of tiles).
fn axis_windows(len: u64, tile: u64, stride: u64) -> (u64, Vec<(u64, u64)>) {
    let (tile, stride) = (tile.max(1), stride.max(1));
    let full = if len >= tile {
        (len - tile) / stride + 1
    } else {
        0
    };
    let mut windows = Vec::new();
    if full > 0 {
        windows.push((mul(full - 1, tile), tile));
    }
    let mut before = mul(full, tile);
    let mut at = full.saturating_mul(stride);
    while at < len {
        let width = len - at;
        windows.push((before, width));
        before = add(before, width);
        at = at.saturating_add(stride);
    }
    (before, windows)
}

/// The peak of a tiled decode's loop over `len` = (rows, columns) latent units in `tile`-sized
/// windows every `stride` (row by row, edge tiles cut), where the tile at (`th`, `tw`) latent
/// units costs `at(area, th, tw)` beside the `area` (latent units²) of every tile decoded before
/// it, `at` growing with `area`: evaluated on `axis_windows`' candidates only. Returns the peak
/// and the area of all tiles.
fn tiled_peak(
    len: (u64, u64),
    tile: (u64, u64),
    stride: (u64, u64),
    at: impl Fn(u64, u64, u64) -> u64,
) -> (u64, u64) {
    let (rows_total, rows) = axis_windows(len.0, tile.0, stride.0);
    let (cols_total, cols) = axis_windows(len.1, tile.1, stride.1);
    let mut peak = 0;
    for &(rows_before, th) in &rows {
        for &(cols_before, tw) in &cols {
            let area = add(mul(rows_before, cols_total), mul(th, cols_before));
            peak = peak.max(at(area, th, tw));
        }
    }
    (peak, mul(rows_total, cols_total))
}

/// `streams` videos' `AutoencoderKLHunyuanVideo._temporal_tiled_decode` (framewise decoding is
/// always on; diffusers 0.42.1, traced at 960 × 544 and 1280 × 720, 33 and 61 frames, batch 1
/// and 2, tiled and not): latent tiles of `tile_sample_min_num_frames` / 4 + 1 = 5 frames at a
/// stride of 3, each decoded whole by `hunyuan_call` and kept (`row`; the later tiles' first
/// frame is cut by a view) until the temporal blend and the final `torch.cat`. With tiling, each
/// temporal tile goes through `tiled_decode`: 256 px tiles at a 192 px stride (`tile`, ¾), edge
/// tiles cut, every decoded tile kept until the blend, then the blended rows and their
/// `torch.cat` (2 copies of the temporal tile). Returns (peak, one decoded video).
fn hunyuan_decode(
    p: &Pipeline,
    g: &Generation,
    b: u64,
    streams: u64,
    latent_frames: u64,
    tiled: bool,
) -> (u64, u64) {
    let f = u64::from(p.vae_factor.max(1));
    let (h, w) = (u64::from(g.height), u64::from(g.width));
    let (lh, lw) = (h / f, w / f);
    let (tl_h, tl_w) = (u64::from(p.vae.tile.0) / f, u64::from(p.vae.tile.1) / f);
    let (sh, sw) = ((tl_h * 3 / 4).max(1), (tl_w * 3 / 4).max(1));
    let frames_of = |l: u64| 4 * l.saturating_sub(1) + 1;
    let mut held = 0;
    let mut peak = 0;
    for i in (0..latent_frames.max(1)).step_by(3) {
        let l = (latent_frames - i).min(5);
        let decoded = prod(&[3, frames_of(l), h, w, b, streams]);
        if tiled && (lh > tl_h || lw > tl_w) {
            // The tiles run row by row, each decoded tile kept: the peak is at the last tile of
            // some size (`axis_windows`), over the tiles decoded before it.
            let per_unit = prod(&[3, frames_of(l), b, streams, f, f]);
            let (tiles, all) = tiled_peak((lh, lw), (tl_h, tl_w), (sh, sw), |area, th, tw| {
                let call = hunyuan_call(l, th * f, tw * f, b, streams);
                sum([held, mul(per_unit, area), call])
            });
            let done = mul(per_unit, all);
            peak = peak.max(tiles).max(sum([held, done, mul(2, decoded)]));
        } else {
            peak = peak.max(add(held, hunyuan_call(l, h, w, b, streams)));
        }
        held = add(held, decoded);
    }
    let video = prod(&[3, u64::from(g.frames.max(1)), h, w, b]);
    (peak.max(add(held, mul(streams, video))), video)
}

#[cfg(test)]
mod tests {
    use super::axis_windows;

    /// The candidates give the same peak as visiting every tile in order, for any running total
    /// that grows by each tile's area and a per-tile cost that grows with the tile's size.
    #[test]
    fn axis_windows_find_the_peak_of_every_tile_loop() {
        let cost = |h: u64, w: u64| 7 * h * h + 3 * w + h * w;
        for (lh, lw, tile, stride) in [
            (68, 120, 32, 24),
            (32, 32, 32, 24),
            (33, 95, 32, 24),
            (1024, 1024, 32, 24),
            (10, 200, 16, 16),
            (5, 7, 32, 24),
        ] {
            let mut done = 0;
            let mut brute = 0;
            for y in (0..lh).step_by(stride as usize) {
                for x in (0..lw).step_by(stride as usize) {
                    let (th, tw) = (tile.min(lh - y), tile.min(lw - x));
                    brute = brute.max(done + cost(th, tw));
                    done += th * tw;
                }
            }
            let (rows_total, rows) = axis_windows(lh, tile, stride);
            let (cols_total, cols) = axis_windows(lw, tile, stride);
            let mut fast = 0;
            for &(rb, th) in &rows {
                for &(cb, tw) in &cols {
                    fast = fast.max(rb * cols_total + th * cb + cost(th, tw));
                }
            }
            assert_eq!(fast, brute, "{lh} × {lw}");
            assert_eq!(rows_total * cols_total, done, "{lh} × {lw}");
            assert!(rows.len() <= 3 && cols.len() <= 3);
        }
    }
}
