//! The model catalog, seventh part: Gemma 3n (`gemma3n`, text model `gemma3n_text`), whose
//! layers add per-layer embeddings (PLE), AltUp and LAuReL to Gemma 3's, and whose last
//! `num_kv_shared_layers` layers reuse earlier layers' keys and values
//! ([`crate::inputs::model::PerLayerInputs`], [`ModelArch::kv_shared_layers`]); and the dense Gemma 4
//! 31B (`gemma4`, `gemma4_text`), whose full-attention layers have their own head width and KV
//! heads and use their keys as values ([`crate::inputs::model::GlobalAttention`]).
//!
//! ## Gemma 3n
//!
//! Architecture values are the `text_config` of `google/gemma-3n-E2B-it` as it is reproduced in
//! public code (`hidden_size` 2048, `num_hidden_layers` 30, `num_attention_heads` 8,
//! `num_key_value_heads` 2, `head_dim` 256, `intermediate_size` 8192 for every layer,
//! `vocab_size` 262,400, `vocab_size_per_layer_input` 262,144, `hidden_size_per_layer_input` 256,
//! `altup_num_inputs` 4, `laurel_rank` 64, `num_kv_shared_layers` 10, `sliding_window` 512,
//! `layer_types` four `sliding_attention` then one `full_attention`, repeated,
//! `max_position_embeddings` 32,768, tied embeddings): public ports of the model agree on each
//! value (a Gemma 3n `get_model_config_e2b` builder in the AI Edge Torch style, and Swift and
//! Python test fixtures that give the real E2B `text_config`). Count by hand (`modeling_gemma3n.py` shapes, see [`crate::inputs::model::PerLayerInputs`]):
//! - per layer: attention q 2048 × 2048, k and v 512 × 2048, o 2048 × 2048 (10,485,760) with
//!   q/k norms (512); MLP 3 × 2048 × 8192 (50,331,648); four norms (8,192); PLE gate and
//!   projection 2 × 256 × 2048 + norm (1,050,624); AltUp 4×4 + 16×4 + 4×2048 + 2 × 2048
//!   (12,368); LAuReL 2 × 64 × 2048 + 2048 (264,192): 62,153,296 × 30 = 1,864,598,880;
//! - outside: embedding 262,400 × 2048 (537,395,200), PLE table 262,144 × 7,680
//!   (2,013,265,920), `per_layer_model_projection` 7,680 × 2048 (15,728,640), its norm (256),
//!   AltUp projections 6 × 2048² (25,165,824), final norm (2,048): 2,591,557,888;
//! - total 4,456,156,768 text parameters, against the published 4.46 B.
//!
//! Basis of the comparison: only rounded totals of the whole multimodal checkpoint (text, the
//! MobileNet-V5 vision encoder and the audio encoder) were found; no exact safetensors total. The entries therefore describe the **text
//! model** and are compared with a published text-only count. The vision and audio towers are
//! not in the estimate (their exact sizes were not found); vLLM's text-only `Gemma3nForCausalLM`
//! skips them when loading (`load_weights`: `audio_tower.`, `vision_tower.`, `embed_audio.`,
//! `embed_vision.`). E4B (35 layers, `intermediate_size` 16384, 15 shared layers) computes to
//! 6,866,696,688 text parameters, but no published text count was found to hold it to, so it is
//! not in the catalog.
//!
//! Memory that differs by engine: the PLE table (2.01 B of the 4.46 B parameters) is on the GPU
//! under vLLM and Transformers and in host memory under llama.cpp; the 10 shared layers hold no
//! KV cache in any of them (SGLang's Gemma 3n code was not checked; it is budgeted as vLLM), so
//! 20 layers cache, 4 global and 16 sliding (window 512):
//! 2 × 2 × 256 = 1,024 elements (2,048 bytes in 16 bit) per token and caching layer.
//!
//! ## Gemma 4 31B
//!
//! `text_config` of `google/gemma-4-31B` / `-it` as public ports reproduce it (a Gemma 4 31B
//! test config naming `google/gemma-4-31B`, and a JAX port's asserted expected config):
//! `hidden_size` 5376, `num_hidden_layers` 60, `num_attention_heads` 32, `num_key_value_heads`
//! 16 of `head_dim` 256 in the sliding layers, `num_global_key_value_heads` 4 of
//! `global_head_dim` 512 in the full-attention layers, `attention_k_eq_v` true,
//! `intermediate_size` 21504, `vocab_size` 262,144, `sliding_window` 1024, `layer_types` five
//! `sliding_attention` then one `full_attention` (10 global of 60), `max_position_embeddings`
//! 262,144, tied embeddings, no per-layer embeddings, no KV sharing, no MoE block. Count by hand:
//! - sliding layer: q 8192 × 5376, k and v 4096 × 5376, o 5376 × 8192 (132,120,576), q/k norms
//!   (512), MLP 3 × 5376 × 21504 (346,816,512), four norms (21,504), `layer_scalar` (1):
//!   478,959,105 × 50 = 23,947,955,250;
//! - global layer: q 16384 × 5376, k 2048 × 5376, no v, o 5376 × 16384 (187,170,816), q/k norms
//!   (1,024), MLP, norms and scalar as above: 534,009,857 × 10 = 5,340,098,570;
//! - embedding 262,144 × 5376 (1,409,286,144) and the final norm (5,376);
//! - total 30,697,345,340 text parameters, against the published 30.7 B (NVIDIA's model card of
//!   `google/gemma-4-31b-it`: "Total Parameters: 30.7B"; third-party summaries give "30.7B dense +
//!   ~550M vision encoder"). Basis: the text model; the vision encoder (about 550 M, no exact
//!   count found) is not in the estimate, as for Gemma 3n.
//!
//! KV cache per token in 16 bit: sliding layers 2 × 16 × 256 × 2 B = 16,384 B (at most 1024
//! tokens held), global layers 2 × 4 × 512 × 2 B = 8,192 B (keys stored again as values: see
//! [`crate::inputs::model::GlobalAttention`]): 50 × 16,384 + 10 × 8,192 = 901,120 B for every layer.
//!
//! Not in the catalog: Gemma 4 E2B / E4B (per-layer embeddings with KV sharing and
//! `use_double_wide_mlp` on the shared layers, not modelled here; their configs as found in public
//! code disagree with each other) and 26B-A4B (a dense MLP beside a MoE block in each layer, with
//! extra norms and router scales, not modelled); no exact published counts were found for them.

use super::CatalogModel;
use crate::inputs::model::{Family, GlobalAttention, ModelArch, PerLayerInputs, SlidingWindow};

/// Gemma 4 31B's text model (see the module doc).
const fn gemma4_31b() -> ModelArch {
    let mut a = ModelArch::dense(
        Family::Gemma4,
        60,
        5376,
        32,
        16,
        256,
        21504,
        262144,
        true,
        262144,
    );
    a.sliding_window = Some(SlidingWindow {
        window: 1024,
        global_every: 6,
    });
    a.global_attention = Some(GlobalAttention {
        head_dim: 512,
        kv_heads: 4,
        k_eq_v: true,
    });
    a
}

/// Gemma 3n E2B's text model (see the module doc).
const fn gemma3n_e2b() -> ModelArch {
    let mut a = ModelArch::dense(
        Family::Gemma3n,
        30,
        2048,
        8,
        2,
        256,
        8192,
        262400,
        true,
        32768,
    );
    a.sliding_window = Some(SlidingWindow {
        window: 512,
        global_every: 5,
    });
    a.kv_shared_layers = 10;
    a.per_layer_inputs = Some(PerLayerInputs {
        hidden: 256,
        vocab: 262144,
        altup_inputs: 4,
        laurel_rank: 64,
    });
    a
}

/// Gemma 3n and Gemma 4 checkpoints (text models; see the module doc).
pub(crate) static GEMMA_MODELS: &[CatalogModel] = &[
    CatalogModel {
        id: "gemma-3n-e2b-it",
        name: "Gemma 3n E2B IT (text)",
        hf_repo: "google/gemma-3n-E2B-it",
        hf_aliases: &[],
        published_params: 4_460_000_000,
        published_counts_mtp: false,
        source:
            "text model only: 4.46B text parameters (maceip/gemma3n-executorch e2b/README_HF.md, \
                 an export of google/gemma-3n-E2B-it's language model and tied head); computed \
                 4,456,156,768; the checkpoint's vision and audio towers are not counted (only \
                 rounded multimodal totals are published)",
        arch: gemma3n_e2b(),
    },
    CatalogModel {
        id: "gemma-3n-e2b",
        name: "Gemma 3n E2B (text)",
        hf_repo: "google/gemma-3n-E2B",
        hf_aliases: &[],
        published_params: 4_460_000_000,
        published_counts_mtp: false,
        source: source!(
            "same text tensors as Gemma 3n E2B IT (4.46B text parameters; computed \
                 4,456,156,768); vision and audio towers not counted"
        ),
        arch: gemma3n_e2b(),
    },
    CatalogModel {
        id: "gemma-4-31b-it",
        name: "Gemma 4 31B IT (text)",
        hf_repo: "google/gemma-4-31B-it",
        hf_aliases: &[],
        published_params: 30_700_000_000,
        published_counts_mtp: false,
        source: source!(
            "text model only: 30.7B (NVIDIA model card of google/gemma-4-31b-it, \"Total \
                 Parameters: 30.7B\"; \"30.7B dense + ~550M vision encoder\" in third-party \
                 summaries); computed 30,697,345,340; the vision encoder is not counted"
        ),
        arch: gemma4_31b(),
    },
    CatalogModel {
        id: "gemma-4-31b",
        name: "Gemma 4 31B (text)",
        hf_repo: "google/gemma-4-31B",
        hf_aliases: &[],
        published_params: 30_700_000_000,
        published_counts_mtp: false,
        source: source!(
            "same text tensors as Gemma 4 31B IT (30.7B; computed 30,697,345,340); vision \
                 encoder not counted"
        ),
        arch: gemma4_31b(),
    },
];
