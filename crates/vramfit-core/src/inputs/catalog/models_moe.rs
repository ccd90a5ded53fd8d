//! The model catalog, second part: mixture-of-experts models (Mixtral, Qwen3 MoE, DeepSeek V2/V3,
//! gpt-oss, Llama 4), latent attention (DeepSeek MLA) and vision-language models (Llama 3.2
//! Vision, LLaVA-NeXT, Qwen2.5-VL, Qwen3-VL, Gemma 3, Llama 4).
//!
//! Every architecture value is copied from the model's Hugging Face `config.json` at `hf_repo` (the
//! `text_config` block for multimodal wrappers): the keys listed in `models.rs`, plus
//! - MoE: `num_local_experts` / `num_experts` / `n_routed_experts`, `num_experts_per_tok`,
//!   `moe_intermediate_size` (Mixtral and gpt-oss experts use `intermediate_size`),
//!   `n_shared_experts × moe_intermediate_size` (DeepSeek) or one shared expert of
//!   `intermediate_size` (Llama 4), `first_k_dense_replace`, `interleave_moe_layer_step`;
//! - MLA: `q_lora_rank` (0 where the config says `null`), `kv_lora_rank`, `qk_nope_head_dim`,
//!   `qk_rope_head_dim`, `v_head_dim`; `head_dim` is `qk_nope_head_dim + qk_rope_head_dim`;
//! - sliding windows: `sliding_window` with `sliding_window_pattern` (Gemma 3), `layer_types`
//!   (gpt-oss) or `attention_chunk_size` with every 4th layer global (Llama 4's chunked attention);
//! - vision: the encoder + projector parameters as one block (see each entry), the tokens one
//!   image adds to the sequence, and Llama 3.2 Vision's cross-attention layers.
//!
//! `published_params` is the published parameter count of the checkpoint: preferably the exact
//! total from the Hugging Face safetensors metadata, otherwise the model card's figure; `source`
//! says which. The rule, checked by a test: [`ModelArch::param_count`] must lie within 0.5 % of
//! `published_params`. An entry that breaks the rule has a wrong config value; the fix is to
//! recheck the config, never to adjust the published count.
//!
//! Vision blocks: where the exact checkpoint total is published, `Vision::params` is that total
//! minus the computed text model, and each entry notes the independent count from `vision_config`
//! it was checked against. Two deliberate differences from the checkpoint:
//! - DeepSeek V3 / R1 checkpoints carry a multi-token-prediction layer (14B) that inference does
//!   not load; the main model (671B) is what is counted and published here;
//! - LLaVA-NeXT's CLIP tower is counted as vLLM loads it (`vision_feature_layer = -2`: 23 of 24
//!   layers, no post-layernorm), which is what its weight memory holds.
//!
//! Entries are ordered by family (as in [`Family::ALL`]), then by size.

use super::{with_swa, CatalogModel};
use crate::inputs::model::{qwen3_vl_tower, Family, Mla, ModelArch, Moe, Vision};

/// Adds mixture-of-experts layers.
pub(super) const fn with_moe(mut a: ModelArch, moe: Moe) -> ModelArch {
    a.moe = Some(moe);
    a
}

/// Replaces GQA attention by multi-head latent attention.
pub(super) const fn with_mla(mut a: ModelArch, mla: Mla) -> ModelArch {
    a.mla = Some(mla);
    a
}

/// Adds a vision tower.
pub(super) const fn with_vision(mut a: ModelArch, vision: Vision) -> ModelArch {
    a.vision = Some(vision);
    a
}

/// Qwen3-VL-4B (Instruct and Thinking): Qwen3-4B's text model with 262,144 positions and the
/// 24-block tower of width 1024 with three DeepStack mergers (see the entries).
const QWEN3_VL_4B: ModelArch = with_vision(
    ModelArch::dense(
        Family::Qwen3,
        36,
        2560,
        32,
        8,
        128,
        9728,
        151936,
        true,
        262144,
    ),
    qwen3_vl_tower(24, 1024, 4096, 2560, 3),
);

/// Qwen3-VL-8B (Instruct and Thinking): Qwen3-8B's text model with 262,144 positions and the
/// 27-block tower of width 1152 with three DeepStack mergers (see the entries).
const QWEN3_VL_8B: ModelArch = with_vision(
    ModelArch::dense(
        Family::Qwen3,
        36,
        4096,
        32,
        8,
        128,
        12288,
        151936,
        false,
        262144,
    ),
    qwen3_vl_tower(27, 1152, 4304, 4096, 3),
);

/// DeepSeek V3 and R1 share every tensor shape (`deepseek-ai/DeepSeek-V3` / `-R1` `config.json`);
/// `intermediate_size` 18432 is the MLP of the 3 leading dense layers.
#[rustfmt::skip]
const DEEPSEEK_V3_BASE: ModelArch =
    ModelArch::dense(Family::DeepseekV3, 61, 7168, 128, 128, 192, 18432, 129280, false, 163840);

/// DeepSeek V3 / R1 with their latent attention and experts, and the one MTP layer their
/// checkpoints ship (`num_nextn_predict_layers` 1), which only speculative decoding loads.
pub(super) const DEEPSEEK_V3_ARCH: ModelArch = {
    let mut a = DEEPSEEK_V3_MAIN;
    a.mtp_layers = 1;
    a
};

/// DeepSeek V3 / R1's main model.
const DEEPSEEK_V3_MAIN: ModelArch = with_moe(
    with_mla(
        DEEPSEEK_V3_BASE,
        Mla {
            q_lora_rank: 1536,
            kv_lora_rank: 512,
            qk_nope_head_dim: 128,
            qk_rope_head_dim: 64,
            v_head_dim: 128,
        },
    ),
    Moe {
        experts: 256,
        active: 8,
        expert_intermediate: 2048,
        shared_intermediate: 2048,
        first_dense_layers: 3,
        moe_every: 1,
        router_bias: true,
        expert_bias: false,
    },
);

/// Llama 4's vision encoder and projector (Scout and Maverick share it): 871,932,416 parameters
/// from `vision_config`: a 34-layer ViT of width 1408 (MLP 5632, biased projections and LayerNorms,
/// 588 → 1408 patch projection, 577 positions), the pixel-shuffle adapter 5632 → 4096 → 4096 and
/// the 4096 → 5120 projector. It equals the published totals minus the computed text models.
/// Under tensor parallelism vLLM (`mllama4.py`) splits the unfold convolution, every attention and
/// MLP projection, the adapter MLP and the projector (`ColumnParallelLinear` / `RowParallelLinear`);
/// each GPU keeps whole the class token 1408, the 577 × 1408 position table, the pre/post
/// LayerNorms 5,632, and per layer the two LayerNorms and the `o_proj` / `fc2` biases (8,448 × 34):
/// 1,106,688.
const LLAMA4_VISION: Vision = Vision {
    params: 871_932_416,
    tokens_per_image: 144,
    cross_attention_layers: 0,
    replicated: 1_106_688,
    config_layers: 34,
    config_hidden: 1408,
};

/// Llama 3.2 11B Vision (base and Instruct share every tensor): 40 decoder layers of which 8
/// cross-attend to the image; see the entry for how the vision block is counted. Under tensor
/// parallelism vLLM (`mllama.py`) splits the patch convolution (`ColumnParallelConv2dPatch`), the
/// attention and MLP projections and the projector (`ColumnParallelLinear`); each GPU keeps whole
/// the class token 1,280, the gated position embedding with its per-aspect-ratio tile table
/// (1 + 1601 × 1280 + 9 × 4 × 1601 × 1280 = 75,823,361), the pre/post tile embeddings 92,162,
/// the pre/post LayerNorms 5,120, per layer the two LayerNorms and the `fc2` bias (6,400 × 40),
/// the 16 layer gates and the cross-attention q/k norms and gates 2,064: 76,180,003.
pub(super) const LLAMA32_VISION_11B: ModelArch = with_vision(
    ModelArch::dense(
        Family::Llama,
        40,
        4096,
        32,
        8,
        128,
        14336,
        128256,
        false,
        131072,
    ),
    Vision {
        params: 895_063_587,
        tokens_per_image: 6404,
        cross_attention_layers: 8,
        replicated: 76_180_003,
        config_layers: 32,
        config_hidden: 1280,
    },
);

/// Gemma 3 4B (PT and IT share every tensor): text model from `text_config`, 5 local layers
/// (window 1024) to 1 global, and the SigLIP vision block described at the entry.
pub(super) const GEMMA3_4B: ModelArch = with_vision(
    with_swa(
        ModelArch::dense(
            Family::Gemma3,
            34,
            2560,
            8,
            4,
            256,
            10240,
            262208,
            true,
            131072,
        ),
        1024,
        6,
    ),
    Vision {
        params: 419_816_304,
        tokens_per_image: 256,
        cross_attention_layers: 0,
        replicated: 3_817_728,
        config_layers: 27,
        config_hidden: 1152,
    },
);

/// Gemma 3 12B (PT and IT share every tensor): text model from `text_config`, 5 local layers
/// (window 1024) to 1 global, and the SigLIP vision block described at the entry.
pub(super) const GEMMA3_12B: ModelArch = with_vision(
    with_swa(
        ModelArch::dense(
            Family::Gemma3,
            48,
            3840,
            16,
            8,
            256,
            15360,
            262208,
            true,
            131072,
        ),
        1024,
        6,
    ),
    Vision {
        params: 421_290_864,
        tokens_per_image: 256,
        cross_attention_layers: 0,
        replicated: 5_292_288,
        config_layers: 27,
        config_hidden: 1152,
    },
);

/// Gemma 3 27B (PT and IT share every tensor): text model from `text_config`, 5 local layers
/// (window 1024) to 1 global, and the SigLIP vision block described at the entry.
pub(super) const GEMMA3_27B: ModelArch = with_vision(
    with_swa(
        ModelArch::dense(
            Family::Gemma3,
            62,
            5376,
            32,
            16,
            128,
            21504,
            262208,
            true,
            131072,
        ),
        1024,
        6,
    ),
    Vision {
        params: 423_060_336,
        tokens_per_image: 256,
        cross_attention_layers: 0,
        replicated: 7_061_760,
        config_layers: 27,
        config_hidden: 1152,
    },
);

/// Mixture-of-experts, latent-attention and vision-language models, ordered by family then size.
/// Ids are stable (they appear in shared URLs and scenario files): never rename one.
pub static MOE_AND_VLM_MODELS: &[CatalogModel] = &[
    // ----- Llama (3.2 Vision) -----
    // 40 decoder layers of which 8 (3, 8, ..., 38) cross-attend to the image; they have the same
    // q/k/v/o and MLP shapes as the self-attention layers. Vision block = published total minus
    // the computed text model: 895,063,587 = the vision encoder (32 + 8 gated global layers of
    // width 1280, tile and position embeddings) and the 7680 → 4096 projector, 895,028,755 from
    // `vision_config`, plus the cross-attention layers' q/k norms and gates and the 8 extra
    // embedding rows (`vocab_size + 8`), 34,832. An image is up to 4 tiles of 1601 patch tokens.
    CatalogModel {
        id: "llama-3.2-11b-vision-instruct",
        name: "Llama 3.2 11B Vision Instruct",
        hf_repo: "meta-llama/Llama-3.2-11B-Vision-Instruct",
        hf_aliases: &[],
        published_params: 10_670_220_835,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 10,670,220,835 (10.7B)"),
        arch: LLAMA32_VISION_11B,
    },
    // ----- Mistral (LLaVA-NeXT) -----
    // Text model from `text_config`. Vision block as vLLM loads it: CLIP ViT-L/14-336 up to
    // `vision_feature_layer = -2` (23 of 24 layers, no post-layernorm) 290,909,184, the projector
    // 1024 → 4096 → 4096 20,979,712 and `image_newline` 4,096: 311,892,992 (vLLM 0.10.2 reports
    // 14.0786 GiB of FP16 weights: these plus its 8 MiB rotary cache). The checkpoint also stores
    // the 24th layer and the post-layernorm (12,598,272), hence 7.57B. 2928 tokens: the anyres
    // worst case vLLM profiles with. Under tensor parallelism vLLM splits the CLIP attention
    // and MLP (`clip.py`: `QKVParallelLinear`, `RowParallelLinear`, `ColumnParallelLinear`) and the
    // projector (`llava.py::LlavaMultiModalProjector`); each GPU keeps whole the class token,
    // patch convolution and 577 positions (1,193,984), the pre-LayerNorm 2,048, per layer the
    // LayerNorms and the `out_proj` / `fc2` biases (6,144 × 23), the projector's second bias and
    // `image_newline` (4,096 each): 1,345,536.
    CatalogModel {
        id: "llava-v1.6-mistral-7b",
        name: "LLaVA-NeXT (v1.6) Mistral 7B",
        hf_repo: "llava-hf/llava-v1.6-mistral-7b-hf",
        hf_aliases: &[],
        published_params: 7_570_000_000,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: FP16 7.57B (exact figure not seen; the full checkpoint counts 7,566,747,648); 7,554,149,376 as vLLM loads it (-0.21 %)"),
        arch: with_vision(
            ModelArch::dense(Family::Mistral, 32, 4096, 32, 8, 128, 14336, 32064, false, 32768),
            Vision {
                params: 311_892_992,
                tokens_per_image: 2928,
                cross_attention_layers: 0,
                replicated: 1_345_536,
                config_layers: 24,
                config_hidden: 1024,
            },
        ),
    },
    // ----- Qwen2 (Qwen2.5-VL) -----
    // Text numbers at the top level of the config. Vision block: 32 ViT blocks of width 1280 (MLP
    // 3420) and the patch merger, 676,550,144 = published total minus text, the same as counted
    // from `vision_config`. 1024 tokens: an 896 × 896 image at 28 px per merged token. Under
    // tensor parallelism vLLM (`qwen2_5_vl.py`) splits every block's `qkv`, `proj`, `gate_up` and
    // `down` and the merger MLP; each GPU keeps whole the patch embedding (`ReplicatedLinear`,
    // 3 × 2 × 14 × 14 × 1280 = 1,505,280), per block the two RMSNorms and the `proj` / `down_proj`
    // biases (5,120 × 32), the merger's `ln_q` 1,280 and its last bias (the text width).
    CatalogModel {
        id: "qwen2.5-vl-7b-instruct",
        name: "Qwen2.5-VL 7B Instruct",
        hf_repo: "Qwen/Qwen2.5-VL-7B-Instruct",
        hf_aliases: &[],
        published_params: 8_292_166_656,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 8,292,166,656 (8.29B)"),
        arch: with_vision(
            ModelArch::dense(Family::Qwen2, 28, 3584, 28, 4, 128, 18944, 152064, false, 128000),
            Vision {
                params: 676_550_144,
                tokens_per_image: 1024,
                cross_attention_layers: 0,
                replicated: 1_673_984,
                config_layers: 0,
                config_hidden: 1280,
            },
        ),
    },
    // Vision block counted from `vision_config`: the 7B tower with the merger projecting to 8192,
    // 700,147,712 (the same text model with Qwen2-VL's tower gives Qwen2-VL-72B's exact
    // 73,405,560,320, which checks the text count).
    CatalogModel {
        id: "qwen2.5-vl-72b-instruct",
        name: "Qwen2.5-VL 72B Instruct",
        hf_repo: "Qwen/Qwen2.5-VL-72B-Instruct",
        hf_aliases: &[],
        published_params: 73_400_000_000,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 73.4B (exact figure not seen; computed 73,406,351,360)"),
        arch: with_vision(
            ModelArch::dense(Family::Qwen2, 80, 8192, 64, 8, 128, 29568, 152064, false, 128000),
            Vision {
                params: 700_147_712,
                tokens_per_image: 1024,
                cross_attention_layers: 0,
                replicated: 1_678_592,
                config_layers: 0,
                config_hidden: 1280,
            },
        ),
    },
    // ----- Qwen3 (Qwen3-VL) -----
    // `qwen3_vl` configs: the Qwen3 text model in `text_config` (262,144 positions), the Qwen3-VL
    // tower in `vision_config` (`depth`, `hidden_size`, `intermediate_size`, `patch_size` 16,
    // `spatial_merge_size` 2, `num_position_embeddings` 2304, `out_hidden_size` = the text width)
    // with one DeepStack merger per `deepstack_visual_indexes` entry (three), counted by
    // [`qwen3_vl_tower`]. DeepStack adds the mergers' outputs to the first three decoder layers'
    // hidden states: no extra KV. Instruct and Thinking share every tensor shape (one
    // `config.json`; the cards differ only in post-training).
    //
    // 4B (`Qwen/Qwen3-VL-4B-Instruct` `config.json`, as quoted in public code): text 36 layers of
    // 2560, 32 query / 8 KV heads of 128, MLP 9728, vocabulary 151,936, tied embeddings (Qwen3-4B's
    // 4,022,468,096); tower 24 blocks of 1024 (MLP 4096), DeepStack at blocks 5, 11, 17:
    // 302,309,376 blocks + 3,933,184 patch and positions + 27,271,680 merger + 3 × 27,277,824
    // DeepStack = 415,347,712; total 4,437,815,808.
    CatalogModel {
        id: "qwen3-vl-4b-instruct",
        name: "Qwen3-VL 4B Instruct",
        hf_repo: "Qwen/Qwen3-VL-4B-Instruct",
        hf_aliases: &[],
        published_params: 4_437_815_808,
        published_counts_mtp: false,
        source: source!("4,437,815,808 parameters of Qwen3-VL-4B-Instruct as transformers loads it (public \
                 evaluation and training logs: `total_parameters: 4437815808`, the tied head \
                 counted once as in a safetensors total; the exact Hub figure not seen), text \
                 model and vision tower with its DeepStack mergers; 4.44B (codersera.com's \
                 Qwen3-VL-4B guide); card: 4B"),
        arch: QWEN3_VL_4B,
    },
    CatalogModel {
        id: "qwen3-vl-4b-thinking",
        name: "Qwen3-VL 4B Thinking",
        hf_repo: "Qwen/Qwen3-VL-4B-Thinking",
        hf_aliases: &[],
        published_params: 4_437_815_808,
        published_counts_mtp: false,
        source: source!("same tensors as Qwen3-VL-4B-Instruct (4,437,815,808; both 4B variants 4.44B with \
                 one architecture, codersera.com's Qwen3-VL-4B Instruct vs Thinking guide)"),
        arch: QWEN3_VL_4B,
    },
    // 8B (`Qwen/Qwen3-VL-8B-Instruct` `config.json`, as quoted in public code): text 36 layers of
    // 4096, 32 query / 8 KV heads of 128, MLP 12,288, vocabulary 151,936, untied head (Qwen3-8B's
    // 8,190,735,360); tower 27 blocks of 1152 (MLP 4304), DeepStack at blocks 8, 16, 24:
    // 411,466,608 blocks + 4,424,832 patch and positions + 40,119,040 merger + 3 × 40,125,952
    // DeepStack = 576,388,336; total 8,767,123,696.
    CatalogModel {
        id: "qwen3-vl-8b-instruct",
        name: "Qwen3-VL 8B Instruct",
        hf_repo: "Qwen/Qwen3-VL-8B-Instruct",
        hf_aliases: &[],
        published_params: 8_767_123_696,
        published_counts_mtp: false,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, BF16 8,767,123,696, as a \
                 public Hub verification quotes it; also the GGUF general.parameter_count of the \
                 Ollama qwen3-vl:8b blob), text model and vision tower with its DeepStack \
                 mergers; card: 8B"),
        arch: QWEN3_VL_8B,
    },
    CatalogModel {
        id: "qwen3-vl-8b-thinking",
        name: "Qwen3-VL 8B Thinking",
        hf_repo: "Qwen/Qwen3-VL-8B-Thinking",
        hf_aliases: &[],
        published_params: 8_767_123_696,
        published_counts_mtp: false,
        source: source!("same tensors as Qwen3-VL-8B-Instruct (HF safetensors total 8,767,123,696; both 8B variants \
                 8.77B with one architecture, codersera.com's Qwen3-VL-8B Instruct vs Thinking \
                 guide)"),
        arch: QWEN3_VL_8B,
    },
    // ----- Gemma 3 (multimodal sizes) -----
    // Text numbers from `text_config`; 5 local layers (window 1024) to 1 global. Vision block =
    // published total minus text: SigLIP-400M (27 layers of width 1152, 896 px, 416,866,032) plus
    // the projector (1152 × hidden + a 1152 norm), exactly as counted from `vision_config`.
    // 256 tokens per image. Under tensor parallelism vLLM (`siglip.py`, `gemma3_mm.py`) splits
    // the attention and MLP projections and the position table (`VocabParallelEmbedding`); each
    // GPU keeps whole the patch convolution with its bias 678,528, per layer the LayerNorms and
    // the `out_proj` / `fc2` biases (6,912 × 27), the post-LayerNorm 2,304 and the projector
    // (`mm_input_projection_weight` and its norm).
    CatalogModel {
        id: "gemma-3-4b-it",
        name: "Gemma 3 4B IT",
        hf_repo: "google/gemma-3-4b-it",
        hf_aliases: &[],
        published_params: 4_300_079_472,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 4,300,079,472 (4.3B)"),
        arch: GEMMA3_4B,
    },
    CatalogModel {
        id: "gemma-3-12b-it",
        name: "Gemma 3 12B IT",
        hf_repo: "google/gemma-3-12b-it",
        hf_aliases: &[],
        published_params: 12_187_325_040,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 12,187,325,040 (12.2B)"),
        arch: GEMMA3_12B,
    },
    CatalogModel {
        id: "gemma-3-27b-it",
        name: "Gemma 3 27B IT",
        hf_repo: "google/gemma-3-27b-it",
        hf_aliases: &[],
        published_params: 27_432_406_640,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 27,432,406,640 (27.4B)"),
        arch: GEMMA3_27B,
    },
    // ----- Mixtral -----
    CatalogModel {
        id: "mixtral-8x7b-instruct",
        name: "Mixtral 8x7B Instruct v0.1",
        hf_repo: "mistralai/Mixtral-8x7B-Instruct-v0.1",
        hf_aliases: &[],
        published_params: 46_702_792_704,
        published_counts_mtp: false,
        source: source!("HF safetensors index total_size 93,405,585,408 B (BF16) = 46,702,792,704 (46.7B)"),
        arch: with_moe(
            ModelArch::dense(Family::Mixtral, 32, 4096, 32, 8, 128, 14336, 32000, false, 32768),
            Moe {
                experts: 8,
                active: 2,
                expert_intermediate: 14336,
                shared_intermediate: 0,
                first_dense_layers: 0,
                moe_every: 1,
                router_bias: false,
                expert_bias: false,
            },
        ),
    },
    CatalogModel {
        id: "mixtral-8x22b-instruct",
        name: "Mixtral 8x22B Instruct v0.1",
        hf_repo: "mistralai/Mixtral-8x22B-Instruct-v0.1",
        hf_aliases: &[],
        published_params: 140_630_071_296,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 140,630,071,296 (141B)"),
        arch: with_moe(
            ModelArch::dense(Family::Mixtral, 56, 6144, 48, 8, 128, 16384, 32768, false, 65536),
            Moe {
                experts: 8,
                active: 2,
                expert_intermediate: 16384,
                shared_intermediate: 0,
                first_dense_layers: 0,
                moe_every: 1,
                router_bias: false,
                expert_bias: false,
            },
        ),
    },
    // ----- Qwen3 MoE -----
    CatalogModel {
        id: "qwen3-30b-a3b",
        name: "Qwen3 30B-A3B",
        hf_repo: "Qwen/Qwen3-30B-A3B",
        hf_aliases: &[],
        published_params: 30_532_122_624,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 30,532,122,624 (30.5B)"),
        arch: with_moe(
            ModelArch::dense(Family::Qwen3Moe, 48, 2048, 32, 4, 128, 6144, 151936, false, 40960),
            Moe {
                experts: 128,
                active: 8,
                expert_intermediate: 768,
                shared_intermediate: 0,
                first_dense_layers: 0,
                moe_every: 1,
                router_bias: false,
                expert_bias: false,
            },
        ),
    },
    CatalogModel {
        id: "qwen3-235b-a22b",
        name: "Qwen3 235B-A22B",
        hf_repo: "Qwen/Qwen3-235B-A22B",
        hf_aliases: &[],
        published_params: 235_093_634_560,
        published_counts_mtp: false,
        source: source!("HF safetensors index total_size 470,187,269,120 B (BF16) = 235,093,634,560 (235B)"),
        arch: with_moe(
            ModelArch::dense(Family::Qwen3Moe, 94, 4096, 64, 4, 128, 12288, 151936, false, 40960),
            Moe {
                experts: 128,
                active: 8,
                expert_intermediate: 1536,
                shared_intermediate: 0,
                first_dense_layers: 0,
                moe_every: 1,
                router_bias: false,
                expert_bias: false,
            },
        ),
    },
    // ----- DeepSeek V2 -----
    // `q_lora_rank` is null (a direct q_proj); 2 shared experts of 1408; layer 0 is dense.
    CatalogModel {
        id: "deepseek-coder-v2-lite-instruct",
        name: "DeepSeek-Coder-V2-Lite 16B Instruct",
        hf_repo: "deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct",
        hf_aliases: &[],
        published_params: 15_706_484_224,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 15,706,484,224 (15.7B)"),
        arch: with_moe(
            with_mla(
                ModelArch::dense(Family::DeepseekV2, 27, 2048, 16, 16, 192, 10944, 102400, false, 163840),
                Mla {
                    q_lora_rank: 0,
                    kv_lora_rank: 512,
                    qk_nope_head_dim: 128,
                    qk_rope_head_dim: 64,
                    v_head_dim: 128,
                },
            ),
            Moe {
                experts: 64,
                active: 6,
                expert_intermediate: 1408,
                shared_intermediate: 2816,
                first_dense_layers: 1,
                moe_every: 1,
                router_bias: false,
                expert_bias: false,
            },
        ),
    },
    // ----- DeepSeek V3 -----
    // Main model only (inference engines skip the multi-token-prediction layer 61). The HF total
    // 684,531,386,000 = F8_E4M3 680,571,043,840 + BF16 3,918,786,560 + F32 41,555,600, where the
    // F32 part is 41,540,496 FP8 block scales (128 × 128 blocks) and 15,104 router biases; the
    // 684,489,845,504 parameters are this main model plus the MTP layer (13,463,426,304: one MoE
    // layer, eh_proj, three norms, its own embedding and head) to the parameter.
    CatalogModel {
        id: "deepseek-v3",
        name: "DeepSeek-V3",
        hf_repo: "deepseek-ai/DeepSeek-V3",
        hf_aliases: &[],
        published_params: 671_026_419_200,
        published_counts_mtp: false,
        source: source!("card: 671B main model + 14B MTP module; exact: HF safetensors metadata (685B incl. MTP and FP8 scales) less the scales and the MTP layer = 671,026,419,200"),
        arch: DEEPSEEK_V3_ARCH,
    },
    CatalogModel {
        id: "deepseek-r1",
        name: "DeepSeek-R1",
        hf_repo: "deepseek-ai/DeepSeek-R1",
        hf_aliases: &[],
        published_params: 671_026_419_200,
        published_counts_mtp: false,
        source: source!("card: 671B total, 37B active; same tensors as DeepSeek-V3 (HF safetensors 685B incl. the MTP layer), main model 671,026,419,200"),
        arch: DEEPSEEK_V3_ARCH,
    },
    // ----- gpt-oss -----
    // Sliding window of 128 on even layers (`layer_types` alternates, starting sliding); experts
    // of 2880 with biases, router with bias. The checkpoint stores experts in MXFP4.
    CatalogModel {
        id: "gpt-oss-20b",
        name: "gpt-oss-20b",
        hf_repo: "openai/gpt-oss-20b",
        hf_aliases: &[],
        published_params: 20_914_757_184,
        published_counts_mtp: false,
        source: source!("model card: 20.91B total; GGUF general.parameter_count 20,914,757,184"),
        arch: with_moe(
            with_swa(
                ModelArch::dense(Family::GptOss, 24, 2880, 64, 8, 64, 2880, 201088, false, 131072),
                128,
                2,
            ),
            Moe {
                experts: 32,
                active: 4,
                expert_intermediate: 2880,
                shared_intermediate: 0,
                first_dense_layers: 0,
                moe_every: 1,
                router_bias: true,
                expert_bias: true,
            },
        ),
    },
    CatalogModel {
        id: "gpt-oss-120b",
        name: "gpt-oss-120b",
        hf_repo: "openai/gpt-oss-120b",
        hf_aliases: &[],
        published_params: 116_829_156_672,
        published_counts_mtp: false,
        source: source!("model card: 116.83B total; GGUF general.parameter_count 116,829,156,672"),
        arch: with_moe(
            with_swa(
                ModelArch::dense(Family::GptOss, 36, 2880, 64, 8, 64, 2880, 201088, false, 131072),
                128,
                2,
            ),
            Moe {
                experts: 128,
                active: 4,
                expert_intermediate: 2880,
                shared_intermediate: 0,
                first_dense_layers: 0,
                moe_every: 1,
                router_bias: true,
                expert_bias: true,
            },
        ),
    },
    // ----- Llama 4 -----
    // Text numbers from `text_config`: `intermediate_size_mlp` 16384 for dense layers, experts
    // and the one shared expert of `intermediate_size` 8192. Chunked attention (8192 tokens) on 3
    // of every 4 layers; every 4th layer is global (NoPE). 144 tokens per 336 px tile.
    CatalogModel {
        id: "llama-4-scout-17b-16e-instruct",
        name: "Llama 4 Scout 17B-16E Instruct",
        hf_repo: "meta-llama/Llama-4-Scout-17B-16E-Instruct",
        hf_aliases: &[],
        published_params: 108_641_793_536,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 108,641,793,536 (109B, incl. the 0.87B vision encoder)"),
        arch: with_vision(
            with_moe(
                with_swa(
                    ModelArch::dense(Family::Llama4, 48, 5120, 40, 8, 128, 16384, 202048, false, 10485760),
                    8192,
                    4,
                ),
                Moe {
                    experts: 16,
                    active: 1,
                    expert_intermediate: 8192,
                    shared_intermediate: 8192,
                    first_dense_layers: 0,
                    moe_every: 1,
                    router_bias: false,
                    expert_bias: false,
                },
            ),
            LLAMA4_VISION,
        ),
    },
    // MoE on every 2nd layer (`interleave_moe_layer_step` 2), dense MLP of 16384 on the others.
    CatalogModel {
        id: "llama-4-maverick-17b-128e-instruct",
        name: "Llama 4 Maverick 17B-128E Instruct",
        hf_repo: "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
        hf_aliases: &[],
        published_params: 401_583_781_376,
        published_counts_mtp: false,
        source: source!("HF safetensors metadata: BF16 401,583,781,376 (card: 400B total, 17B active; incl. the 0.87B vision encoder)"),
        arch: with_vision(
            with_moe(
                with_swa(
                    ModelArch::dense(Family::Llama4, 48, 5120, 40, 8, 128, 16384, 202048, false, 1048576),
                    8192,
                    4,
                ),
                Moe {
                    experts: 128,
                    active: 1,
                    expert_intermediate: 8192,
                    shared_intermediate: 8192,
                    first_dense_layers: 0,
                    moe_every: 2,
                    router_bias: false,
                    expert_bias: false,
                },
            ),
            LLAMA4_VISION,
        ),
    },
];
