//! Vision towers from `vision_config`: a ViT with a two-layer projector, or Qwen3-VL's tower
//! counted as the catalog counts it.

use super::keys::Keys;
use super::ConfigError;
use crate::inputs::model::Vision;
use crate::units::bytes::{add, prod, sum};
use crate::units::limits::arch;
use serde_json::{Map, Value};

/// A vision tower from `vision_config`, counted as a ViT (per layer: attention `4h² + 4h`, MLP
/// `2hi + h + i`, two LayerNorms `4h`; patch embedding `3p²h`; positions; a two-layer projector to
/// the text width). Catalog entries carry the checkpoint's exact count instead. Under tensor
/// parallelism the tower is placed as vLLM's CLIP (`clip.py`) and LLaVA projector
/// (`llava.py::LlavaMultiModalProjector`) are: each GPU keeps whole the patch embedding, the
/// position table, per layer the LayerNorms and the biases of the row-parallel `out_proj` and
/// `fc2` (`6h`), and the projector's last bias; the rest is split.
pub(super) fn read_vision(
    outer: &Map<String, Value>,
    keys: &Keys,
    text_hidden: u32,
    model_type: &str,
) -> Result<Option<Vision>, ConfigError> {
    let Some(v) = outer.get("vision_config").and_then(Value::as_object) else {
        return Ok(None);
    };
    let vk = Keys {
        inner: None,
        outer: v,
    };
    if model_type.starts_with("qwen3_vl") {
        return read_qwen3_vl_vision(&vk, text_hidden).map(Some);
    }
    let layers = u64::from(
        vk.first_count(&["num_hidden_layers", "depth"])?
            .unwrap_or(24),
    );
    let h = u64::from(
        vk.first_count(&["hidden_size", "embed_dim"])?
            .unwrap_or(1024),
    );
    let i = u64::from(
        vk.optional_count("intermediate_size")?
            .unwrap_or(4 * h as u32),
    );
    let patch = u64::from(vk.optional_count("patch_size")?.unwrap_or(14));
    let image = u64::from(vk.optional_count("image_size")?.unwrap_or(336));
    let t = u64::from(text_hidden);
    let side = image / patch.max(1);
    let positions = side * side;
    let per_layer = sum([prod(&[4, h, h]), 4 * h, prod(&[2, h, i]), h, i, 4 * h]);
    let params = sum([
        prod(&[layers, per_layer]),
        prod(&[3, patch, patch, h]),
        prod(&[add(positions, 1), h]),
        prod(&[h, t]),
        t,
        prod(&[t, t]),
        t,
    ]);
    let replicated = (3u64.saturating_mul(patch).saturating_mul(patch))
        .saturating_add(positions.saturating_add(1))
        .saturating_add(layers.saturating_mul(6))
        .saturating_mul(h)
        .saturating_add(t);
    let tokens = if model_type.starts_with("llava_next") {
        add(prod(&[positions, 5]), 48)
    } else {
        positions
    };
    let cross = match keys.get("cross_attention_layers").and_then(Value::as_array) {
        None => 0,
        Some(a) => u32::try_from(a.len())
            .ok()
            .filter(|&n| n <= arch::LAYERS)
            .ok_or(ConfigError::TooLarge {
                key: "cross_attention_layers",
                max: u64::from(arch::LAYERS),
            })?,
    };
    Ok(Some(Vision {
        params,
        tokens_per_image: u32::try_from(tokens).unwrap_or(u32::MAX),
        cross_attention_layers: cross,
        replicated: replicated.min(params),
        config_layers: vk.optional_count("num_hidden_layers")?.unwrap_or(0),
        config_hidden: vk.optional_count("hidden_size")?.unwrap_or(0),
    }))
}

/// A Qwen3-VL tower (`qwen3_vl`, `qwen3_vl_moe`), counted exactly as the catalog counts it
/// ([`crate::inputs::model::qwen3_vl_tower`]): `depth` blocks of `hidden_size` (MLP `intermediate_size`),
/// the merger to `out_hidden_size` (else the text width) and one DeepStack merger per
/// `deepstack_visual_indexes` entry. The shapes assume the published 16 px patches, 2 × 2 merge
/// and 2304 positions; other values are refused naming the key.
fn read_qwen3_vl_vision(vk: &Keys, text_hidden: u32) -> Result<Vision, ConfigError> {
    for (key, expected) in [
        ("patch_size", 16),
        ("temporal_patch_size", 2),
        ("spatial_merge_size", 2),
        ("num_position_embeddings", 2304),
        ("in_channels", 3),
    ] {
        if vk.optional_count(key)?.is_some_and(|v| v != expected) {
            return Err(ConfigError::InvalidValue { key });
        }
    }
    let depth = vk.optional_count("depth")?.unwrap_or(27);
    let width = vk.optional_count("hidden_size")?.unwrap_or(1152);
    let mlp = vk.optional_count("intermediate_size")?.unwrap_or(4304);
    let out = vk.optional_count("out_hidden_size")?.unwrap_or(text_hidden);
    let deepstack = match vk.get("deepstack_visual_indexes") {
        None => 3,
        Some(Value::Array(a)) => a.len(),
        Some(_) => {
            return Err(ConfigError::InvalidValue {
                key: "deepstack_visual_indexes",
            })
        }
    };
    if u64::try_from(deepstack).unwrap_or(u64::MAX) > u64::from(depth) {
        return Err(ConfigError::InvalidValue {
            key: "deepstack_visual_indexes",
        });
    }
    Ok(crate::inputs::model::qwen3_vl_tower(
        u64::from(depth),
        u64::from(width),
        u64::from(mlp),
        u64::from(out),
        deepstack as u64,
    ))
}
