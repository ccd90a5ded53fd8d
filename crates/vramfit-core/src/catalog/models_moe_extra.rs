//! The model catalog, fourth part: more mixture-of-experts, latent-attention and vision models —
//! base and pretrained checkpoints of the entries in `models_moe.rs` (Llama 3.2 11B Vision, Gemma 3
//! PT, Mixtral v0.1, Qwen3 30B-A3B, DeepSeek V2-Lite / V3), the 2507 Qwen3 MoE releases and
//! Qwen3-Coder, and the later DeepSeek V3 / R1 / V3.1 checkpoints.
//!
//! The rules are those of `models_moe.rs`: every architecture value is copied from the model's
//! Hugging Face `config.json` (the `text_config` block for multimodal wrappers), `published_params`
//! is the published count and the computed count must lie within 0.5 % of it; a checkpoint with
//! exactly another entry's tensor shapes shares its exact count and says so. DeepSeek V3-family
//! counts are the main model without the multi-token-prediction layer, as in `models_moe.rs`.
//!
//! Entries are ordered by family (as in [`crate::model::Family::ALL`]), then by size.

use super::models_moe::{
    with_mla, with_moe, DEEPSEEK_V3_ARCH, GEMMA3_12B, GEMMA3_27B, GEMMA3_4B, LLAMA32_VISION_11B,
};
use super::CatalogModel;
use crate::model::{Family, Mla, ModelArch, Moe};

/// More mixture-of-experts, latent-attention and vision-language models, ordered by family then
/// size. Ids are stable: never rename one.
pub static MORE_MOE_MODELS: &[CatalogModel] = &[
    // ----- Llama -----
    CatalogModel {
        id: "llama-3.2-11b-vision",
        name: "Llama 3.2 11B Vision",
        hf_repo: "meta-llama/Llama-3.2-11B-Vision",
        hf_aliases: &[],
        published_params: 10_670_220_835,
        source: "same tensors as Llama 3.2 11B Vision Instruct (HF safetensors metadata: BF16 10,670,220,835)",
        arch: LLAMA32_VISION_11B,
    },
    // ----- Gemma 3 -----
    CatalogModel {
        id: "gemma-3-4b-pt",
        name: "Gemma 3 4B PT",
        hf_repo: "google/gemma-3-4b-pt",
        hf_aliases: &[],
        published_params: 4_300_079_472,
        source: "same tensors as Gemma 3 4B IT (HF safetensors metadata: BF16 4,300,079,472)",
        arch: GEMMA3_4B,
    },
    CatalogModel {
        id: "gemma-3-12b-pt",
        name: "Gemma 3 12B PT",
        hf_repo: "google/gemma-3-12b-pt",
        hf_aliases: &[],
        published_params: 12_187_325_040,
        source: "same tensors as Gemma 3 12B IT (HF safetensors metadata: BF16 12,187,325,040)",
        arch: GEMMA3_12B,
    },
    CatalogModel {
        id: "gemma-3-27b-pt",
        name: "Gemma 3 27B PT",
        hf_repo: "google/gemma-3-27b-pt",
        hf_aliases: &[],
        published_params: 27_432_406_640,
        source: "same tensors as Gemma 3 27B IT (HF safetensors metadata: BF16 27,432,406,640)",
        arch: GEMMA3_27B,
    },
    // ----- Mixtral -----
    CatalogModel {
        id: "mixtral-8x7b-v0.1",
        name: "Mixtral 8x7B v0.1",
        hf_repo: "mistralai/Mixtral-8x7B-v0.1",
        hf_aliases: &[],
        published_params: 46_702_792_704,
        source: "same tensors as Mixtral 8x7B Instruct v0.1 (HF safetensors index total_size 93,405,585,408 B in BF16 = 46,702,792,704)",
        arch: with_moe(ModelArch::dense(Family::Mixtral, 32, 4096, 32, 8, 128, 14336, 32000, false, 32768), Moe {
        experts: 8,
        active: 2,
        expert_intermediate: 14336,
        shared_intermediate: 0,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    },
    CatalogModel {
        id: "mixtral-8x22b-v0.1",
        name: "Mixtral 8x22B v0.1",
        hf_repo: "mistralai/Mixtral-8x22B-v0.1",
        hf_aliases: &[],
        published_params: 141_000_000_000,
        source: "model card / release: 141B parameters, 39B active (the v0.1 base keeps the 32,000-token vocabulary; Instruct has 32,768)",
        arch: with_moe(ModelArch::dense(Family::Mixtral, 56, 6144, 48, 8, 128, 16384, 32000, false, 65536), Moe {
        experts: 8,
        active: 2,
        expert_intermediate: 16384,
        shared_intermediate: 0,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    },
    // ----- Qwen3 MoE -----
    CatalogModel {
        id: "qwen3-30b-a3b-base",
        name: "Qwen3 30B-A3B Base",
        hf_repo: "Qwen/Qwen3-30B-A3B-Base",
        hf_aliases: &[],
        published_params: 30_532_122_624,
        source: "same tensors as Qwen3 30B-A3B (HF safetensors metadata: BF16 30,532,122,624)",
        arch: with_moe(ModelArch::dense(Family::Qwen3Moe, 48, 2048, 32, 4, 128, 6144, 151936, false, 32768), Moe {
        experts: 128,
        active: 8,
        expert_intermediate: 768,
        shared_intermediate: 0,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    },
    CatalogModel {
        id: "qwen3-30b-a3b-instruct-2507",
        name: "Qwen3 30B-A3B Instruct 2507",
        hf_repo: "Qwen/Qwen3-30B-A3B-Instruct-2507",
        hf_aliases: &[],
        published_params: 30_532_122_624,
        source: "model card: 30.5B total, 3.3B active; same tensors as Qwen3 30B-A3B (HF safetensors metadata: BF16 30,532,122,624)",
        arch: with_moe(ModelArch::dense(Family::Qwen3Moe, 48, 2048, 32, 4, 128, 6144, 151936, false, 262144), Moe {
        experts: 128,
        active: 8,
        expert_intermediate: 768,
        shared_intermediate: 0,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    },
    CatalogModel {
        id: "qwen3-30b-a3b-thinking-2507",
        name: "Qwen3 30B-A3B Thinking 2507",
        hf_repo: "Qwen/Qwen3-30B-A3B-Thinking-2507",
        hf_aliases: &[],
        published_params: 30_532_122_624,
        source: "model card: 30.5B total, 3.3B active; same tensors as Qwen3 30B-A3B (HF safetensors metadata: BF16 30,532,122,624)",
        arch: with_moe(ModelArch::dense(Family::Qwen3Moe, 48, 2048, 32, 4, 128, 6144, 151936, false, 262144), Moe {
        experts: 128,
        active: 8,
        expert_intermediate: 768,
        shared_intermediate: 0,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    },
    CatalogModel {
        id: "qwen3-coder-30b-a3b-instruct",
        name: "Qwen3 Coder 30B-A3B Instruct",
        hf_repo: "Qwen/Qwen3-Coder-30B-A3B-Instruct",
        hf_aliases: &[],
        published_params: 30_532_122_624,
        source: "model card: 30.5B total, 3.3B active, 48 layers, 128 experts (8 active); same tensors as Qwen3 30B-A3B (30,532,122,624)",
        arch: with_moe(ModelArch::dense(Family::Qwen3Moe, 48, 2048, 32, 4, 128, 6144, 151936, false, 262144), Moe {
        experts: 128,
        active: 8,
        expert_intermediate: 768,
        shared_intermediate: 0,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    },
    CatalogModel {
        id: "qwen3-235b-a22b-instruct-2507",
        name: "Qwen3 235B-A22B Instruct 2507",
        hf_repo: "Qwen/Qwen3-235B-A22B-Instruct-2507",
        hf_aliases: &[],
        published_params: 235_093_634_560,
        source: "model card: 235B total, 22B active; same tensors as Qwen3 235B-A22B (HF safetensors index total_size 470,187,269,120 B in BF16 = 235,093,634,560); context 262,144",
        arch: with_moe(ModelArch::dense(Family::Qwen3Moe, 94, 4096, 64, 4, 128, 12288, 151936, false, 262144), Moe {
        experts: 128,
        active: 8,
        expert_intermediate: 1536,
        shared_intermediate: 0,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    },
    CatalogModel {
        id: "qwen3-235b-a22b-thinking-2507",
        name: "Qwen3 235B-A22B Thinking 2507",
        hf_repo: "Qwen/Qwen3-235B-A22B-Thinking-2507",
        hf_aliases: &[],
        published_params: 235_093_634_560,
        source: "model card: 235B total, 22B active; same tensors as Qwen3 235B-A22B (HF safetensors index total_size 470,187,269,120 B in BF16 = 235,093,634,560); context 262,144",
        arch: with_moe(ModelArch::dense(Family::Qwen3Moe, 94, 4096, 64, 4, 128, 12288, 151936, false, 262144), Moe {
        experts: 128,
        active: 8,
        expert_intermediate: 1536,
        shared_intermediate: 0,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    },
    CatalogModel {
        id: "qwen3-coder-480b-a35b-instruct",
        name: "Qwen3 Coder 480B-A35B Instruct",
        hf_repo: "Qwen/Qwen3-Coder-480B-A35B-Instruct",
        hf_aliases: &[],
        published_params: 480_000_000_000,
        source: "model card: 480B total, 35B active, 62 layers, 96 query / 8 KV heads, 160 experts (8 active) (exact figure not seen)",
        arch: with_moe(ModelArch::dense(Family::Qwen3Moe, 62, 6144, 96, 8, 128, 8192, 151936, false, 262144), Moe {
        experts: 160,
        active: 8,
        expert_intermediate: 2560,
        shared_intermediate: 0,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    },
    // ----- DeepSeek V2 -----
    CatalogModel {
        id: "deepseek-v2-lite",
        name: "DeepSeek-V2-Lite",
        hf_repo: "deepseek-ai/DeepSeek-V2-Lite",
        hf_aliases: &[],
        published_params: 15_706_484_224,
        source: "model card: 15.7B total, 2.4B active; same tensors as DeepSeek-Coder-V2-Lite-Instruct (HF safetensors metadata: BF16 15,706,484,224)",
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
    CatalogModel {
        id: "deepseek-v2-lite-chat",
        name: "DeepSeek-V2-Lite-Chat",
        hf_repo: "deepseek-ai/DeepSeek-V2-Lite-Chat",
        hf_aliases: &[],
        published_params: 15_706_484_224,
        source: "model card: 15.7B total, 2.4B active; same tensors as DeepSeek-Coder-V2-Lite-Instruct (HF safetensors metadata: BF16 15,706,484,224)",
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
    CatalogModel {
        id: "deepseek-coder-v2-lite-base",
        name: "DeepSeek-Coder-V2-Lite-Base",
        hf_repo: "deepseek-ai/DeepSeek-Coder-V2-Lite-Base",
        hf_aliases: &[],
        published_params: 15_706_484_224,
        source: "model card: 15.7B total, 2.4B active; same tensors as DeepSeek-Coder-V2-Lite-Instruct (HF safetensors metadata: BF16 15,706,484,224)",
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
    // ----- DeepSeek V3 / Kimi K2 -----
    CatalogModel {
        id: "deepseek-v3-base",
        name: "DeepSeek-V3-Base",
        hf_repo: "deepseek-ai/DeepSeek-V3-Base",
        hf_aliases: &[],
        published_params: 671_026_419_200,
        source: "card: 671B main model + 14B MTP module; same tensors as DeepSeek-V3 (main model 671,026,419,200)",
        arch: DEEPSEEK_V3_ARCH,
    },
    CatalogModel {
        id: "deepseek-v3-0324",
        name: "DeepSeek-V3-0324",
        hf_repo: "deepseek-ai/DeepSeek-V3-0324",
        hf_aliases: &[],
        published_params: 671_026_419_200,
        source: "card: same model structure as DeepSeek-V3; main model 671,026,419,200 (HF safetensors 685B incl. the MTP layer)",
        arch: DEEPSEEK_V3_ARCH,
    },
    CatalogModel {
        id: "deepseek-r1-0528",
        name: "DeepSeek-R1-0528",
        hf_repo: "deepseek-ai/DeepSeek-R1-0528",
        hf_aliases: &[],
        published_params: 671_026_419_200,
        source: "card: same structure as DeepSeek-R1 (671B total, 37B active); main model 671,026,419,200",
        arch: DEEPSEEK_V3_ARCH,
    },
    CatalogModel {
        id: "deepseek-v3.1",
        name: "DeepSeek-V3.1",
        hf_repo: "deepseek-ai/DeepSeek-V3.1",
        hf_aliases: &[],
        published_params: 671_026_419_200,
        source: "card: 671B total, 37B active, the DeepSeek-V3 structure; main model 671,026,419,200 (HF safetensors 685B incl. the MTP layer)",
        arch: DEEPSEEK_V3_ARCH,
    },
    CatalogModel {
        id: "deepseek-v3.1-base",
        name: "DeepSeek-V3.1-Base",
        hf_repo: "deepseek-ai/DeepSeek-V3.1-Base",
        hf_aliases: &[],
        published_params: 671_026_419_200,
        source: "card: the DeepSeek-V3 structure (671B total, 37B active); main model 671,026,419,200",
        arch: DEEPSEEK_V3_ARCH,
    },
    CatalogModel {
        id: "deepseek-v3.1-terminus",
        name: "DeepSeek-V3.1-Terminus",
        hf_repo: "deepseek-ai/DeepSeek-V3.1-Terminus",
        hf_aliases: &[],
        published_params: 671_026_419_200,
        source: "card: the DeepSeek-V3.1 structure; main model 671,026,419,200",
        arch: DEEPSEEK_V3_ARCH,
    },
    CatalogModel {
        id: "kimi-k2-instruct",
        name: "Kimi K2 Instruct",
        hf_repo: "moonshotai/Kimi-K2-Instruct",
        hf_aliases: &[],
        published_params: 1_030_000_000_000,
        source: "HF model page: 1.03T params (rounded; not re-read in this change's sources); \
                 card: 1T total, 32B activated, 61 layers (1 dense), 384 experts (8 active + 1 \
                 shared), 64 heads, 160K vocabulary",
        arch: KIMI_K2_ARCH,
    },
];

/// Kimi K2 (`moonshotai/Kimi-K2-Instruct` `config.json`, `model_type` `kimi_k2`): the DeepSeek V3
/// structure (MLA with `q_lora_rank` 1536, `kv_lora_rank` 512, 128 + 64 query/key and 128 value
/// widths) with 64 heads, one leading dense layer of 18,432 (`first_k_dense_replace` 1), 384 routed
/// experts of 2048 (8 active, `noaux_tc` router bias) and one shared expert, a 163,840-row
/// vocabulary, untied head, 131,072 positions.
const KIMI_K2_ARCH: ModelArch = with_moe(
    with_mla(
        ModelArch::dense(
            Family::DeepseekV3,
            61,
            7168,
            64,
            64,
            192,
            18432,
            163840,
            false,
            131072,
        ),
        Mla {
            q_lora_rank: 1536,
            kv_lora_rank: 512,
            qk_nope_head_dim: 128,
            qk_rope_head_dim: 64,
            v_head_dim: 128,
        },
    ),
    Moe {
        experts: 384,
        active: 8,
        expert_intermediate: 2048,
        shared_intermediate: 2048,
        first_dense_layers: 1,
        moe_every: 1,
        router_bias: true,
        expert_bias: false,
    },
);
