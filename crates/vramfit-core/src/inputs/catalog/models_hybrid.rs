//! The model catalog, fifth part: hybrid models, whose recurrent layers (Mamba-2, gated DeltaNet)
//! keep a fixed-size state per sequence instead of a KV cache (`crate::inputs::model::hybrid`): Qwen3-Next,
//! Falcon-H1, Nemotron-H and Nemotron 3 (Mamba-2 beside MoE blocks), Granite 4.0-H. Qwen3.5 is in
//! `models_recent.rs`.
//!
//! The rules are those of `models_moe.rs`: every architecture value is copied from the model's
//! Hugging Face `config.json` (the keys `import::hf_config` reads for the family, named in each
//! entry's comment), `published_params` is the published count with its `source`, and the computed
//! count must lie within 0.5 % of it. Where only a rounded figure is published the source says so.
//! Multi-token-prediction layers that inference does not load are not counted (Qwen3-Next ships
//! one, `mtp.*`, as DeepSeek V3 does).

use super::CatalogModel;
use crate::inputs::model::{Family, Hybrid, LayerSet, ModelArch, Moe, Recurrent, RecurrentKind};

/// Adds a hybrid layout.
const fn with_hybrid(mut a: ModelArch, moe: Option<Moe>, hybrid: Hybrid) -> ModelArch {
    a.moe = moe;
    a.hybrid = Some(hybrid);
    a
}

/// Qwen3-Next-80B-A3B (`Qwen/Qwen3-Next-80B-A3B-Instruct` / `-Thinking` `config.json`): 48 layers of
/// width 2048; every 4th layer (`full_attention_interval` 4: layers 3, 7, …, 47) is gated attention
/// with 16 query heads of 256 (`q_proj` twice as wide for the output gate) and 2 KV heads, the 36
/// others gated DeltaNet with 32 value heads and 16 key heads of 128 (`linear_*`), a 4-wide
/// convolution. Every layer is MoE: 512 experts of 512 (`moe_intermediate_size`), 10 active, one
/// shared expert of 512 with its sigmoid gate. Vocabulary 151,936, untied head, 262,144 positions.
const QWEN3_NEXT_80B: ModelArch = with_hybrid(
    ModelArch::dense(
        Family::Qwen3Next,
        48,
        2048,
        16,
        2,
        256,
        5120,
        151936,
        false,
        262144,
    ),
    Some(Moe {
        experts: 512,
        active: 10,
        expert_intermediate: 512,
        shared_intermediate: 512,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    }),
    Hybrid {
        mixer: Recurrent {
            kind: RecurrentKind::GatedDeltaNet,
            heads: 32,
            head_dim: 128,
            state: 128,
            groups: 16,
            conv_kernel: 4,
            conv_bias: false,
            proj_bias: false,
            norm: true,
            ssm_f32: false,
        },
        recurrent_layers: LayerSet::first(48).without(LayerSet::every(48, 4, 3)),
        attention_layers: LayerSet::every(48, 4, 3),
        mlp_layers: LayerSet::first(48),
    },
);

/// Falcon-H1-7B (`tiiuae/Falcon-H1-7B-Instruct` `config.json`): 44 layers of width 3072, each with
/// attention (12 query heads of 128, 2 KV heads) and a Mamba-2 mixer side by side (24 heads of 128,
/// `mamba_d_ssm` 3072, `mamba_d_state` 256, one group, a 4-wide convolution with bias, no
/// projection biases, `mamba_rms_norm` false) and a gated MLP of 12,288. Vocabulary 130,048,
/// untied head, 262,144 positions.
const FALCON_H1_7B: ModelArch = with_hybrid(
    ModelArch::dense(
        Family::FalconH1,
        44,
        3072,
        12,
        2,
        128,
        12288,
        130048,
        false,
        262144,
    ),
    None,
    Hybrid {
        mixer: Recurrent {
            kind: RecurrentKind::Mamba2,
            heads: 24,
            head_dim: 128,
            state: 256,
            groups: 1,
            conv_kernel: 4,
            conv_bias: true,
            proj_bias: false,
            norm: false,
            ssm_f32: false,
        },
        recurrent_layers: LayerSet::first(44),
        attention_layers: LayerSet::first(44),
        mlp_layers: LayerSet::first(44),
    },
);

/// Nemotron-H-8B's `hybrid_override_pattern`: 24 Mamba-2 (`M`), 4 attention (`*`), 24 MLP (`-`).
const NEMOTRON_H_8B_PATTERN: &str = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-";

/// Nemotron-H-8B (`nvidia/Nemotron-H-8B-Base-8K` `config.json`): 52 single-block layers of width
/// 4096 from `hybrid_override_pattern`; Mamba-2 with 128 heads of 64 (`mamba_num_heads`,
/// `mamba_head_dim`), `ssm_state_size` 128, 8 groups, a 4-wide convolution with bias, no projection
/// bias; attention with 32 query heads of 128 and 8 KV heads; ReLU² MLPs of 21,504 (`up`, `down`).
/// Vocabulary 131,072, untied head, 8,192 positions.
const NEMOTRON_H_8B: ModelArch = with_hybrid(
    ModelArch::dense(
        Family::NemotronH,
        52,
        4096,
        32,
        8,
        128,
        21504,
        131072,
        false,
        8192,
    ),
    None,
    Hybrid {
        mixer: Recurrent {
            kind: RecurrentKind::Mamba2,
            heads: 128,
            head_dim: 64,
            state: 128,
            groups: 8,
            conv_kernel: 4,
            conv_bias: true,
            proj_bias: false,
            norm: true,
            ssm_f32: false,
        },
        recurrent_layers: LayerSet::from_pattern(NEMOTRON_H_8B_PATTERN, b'M'),
        attention_layers: LayerSet::from_pattern(NEMOTRON_H_8B_PATTERN, b'*'),
        mlp_layers: LayerSet::from_pattern(NEMOTRON_H_8B_PATTERN, b'-'),
    },
);

/// Nemotron 3 Nano's `hybrid_override_pattern`: 23 Mamba-2 (`M`), 23 MoE (`E`), 6 attention (`*`).
const NEMOTRON_3_NANO_PATTERN: &str = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";

/// Nemotron 3 Nano 30B-A3B (`nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16` `config.json`, as
/// Megatron-Bridge's `Nemotron3NanoProvider` restates it): 52 single-block layers of width 2688
/// from the pattern above; Mamba-2 with 64 heads of 64, `ssm_state_size` 128, 8 groups (the
/// `NemotronHConfig` default), a 4-wide convolution with bias, no projection bias; attention with
/// 32 query heads of 128 and 2 KV heads; MoE blocks of 128 ReLU² experts of 1856 (6 routed), one
/// shared expert of 3712 and a router with its correction bias. Vocabulary 131,072, untied head,
/// 1,048,576 positions (the converted checkpoint's `n_ctx_train`).
const NEMOTRON_3_NANO: ModelArch = with_hybrid(
    ModelArch::dense(
        Family::NemotronH,
        52,
        2688,
        32,
        2,
        128,
        1856,
        131072,
        false,
        1048576,
    ),
    Some(Moe {
        experts: 128,
        active: 6,
        expert_intermediate: 1856,
        shared_intermediate: 3712,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: true,
        expert_bias: false,
    }),
    Hybrid {
        mixer: Recurrent {
            kind: RecurrentKind::Mamba2,
            heads: 64,
            head_dim: 64,
            state: 128,
            groups: 8,
            conv_kernel: 4,
            conv_bias: true,
            proj_bias: false,
            norm: true,
            ssm_f32: false,
        },
        recurrent_layers: LayerSet::from_pattern(NEMOTRON_3_NANO_PATTERN, b'M'),
        attention_layers: LayerSet::from_pattern(NEMOTRON_3_NANO_PATTERN, b'*'),
        mlp_layers: LayerSet::from_pattern(NEMOTRON_3_NANO_PATTERN, b'E'),
    },
);

/// Granite 4.0-H's layer layout (`layer_types`): attention at layers 5, 15, 25 and 35 of 40, Mamba-2
/// elsewhere.
const GRANITE_4_H_ATTENTION: LayerSet = LayerSet::EMPTY.with(5).with(15).with(25).with(35);

/// A Granite 4.0-H model: 40 layers of width `hidden`, the layout above, MoE in every layer
/// (`num_local_experts` experts of `intermediate_size`, a shared MLP of `shared_intermediate_size`),
/// Mamba-2 of `mamba_expand` 2 (`heads` × 64), `mamba_d_state` 128, one group, a 4-wide convolution
/// with bias, no projection bias; attention heads of 128, tied embeddings, 100,352 tokens,
/// 131,072 positions.
#[allow(clippy::too_many_arguments)]
const fn granite_4_h(
    hidden: u32,
    heads: u32,
    kv_heads: u32,
    experts: u32,
    active: u32,
    expert_intermediate: u32,
    shared_intermediate: u32,
    mamba_heads: u32,
) -> ModelArch {
    with_hybrid(
        ModelArch::dense(
            Family::GraniteMoeHybrid,
            40,
            hidden,
            heads,
            kv_heads,
            128,
            expert_intermediate,
            100352,
            true,
            131072,
        ),
        Some(Moe {
            experts,
            active,
            expert_intermediate,
            shared_intermediate,
            first_dense_layers: 0,
            moe_every: 1,
            router_bias: false,
            expert_bias: false,
        }),
        Hybrid {
            mixer: Recurrent {
                kind: RecurrentKind::Mamba2,
                heads: mamba_heads,
                head_dim: 64,
                state: 128,
                groups: 1,
                conv_kernel: 4,
                conv_bias: true,
                proj_bias: false,
                norm: true,
                ssm_f32: false,
            },
            recurrent_layers: LayerSet::first(40).without(GRANITE_4_H_ATTENTION),
            attention_layers: GRANITE_4_H_ATTENTION,
            mlp_layers: LayerSet::first(40),
        },
    )
}

/// Granite 4.0-H-Tiny (`ibm-granite/granite-4.0-h-tiny` `config.json`): width 1536, 12 query heads,
/// 4 KV heads, 64 experts of 512 (6 active), shared MLP 1024, 48 Mamba-2 heads.
const GRANITE_4_H_TINY: ModelArch = granite_4_h(1536, 12, 4, 64, 6, 512, 1024, 48);

/// Granite 4.0-H-Small (`ibm-granite/granite-4.0-h-small` `config.json`): width 4096, 32 query
/// heads, 8 KV heads, 72 experts of 768 (10 active), shared MLP 1536, `mamba_expand` 2 (8192
/// channels). Its Mamba-2 head split (128 × 64), group count and attention positions were not seen
/// and are taken from H-Tiny; the split does not change the weights or the state, one group more
/// would add 256 channels.
const GRANITE_4_H_SMALL: ModelArch = granite_4_h(4096, 32, 8, 72, 10, 768, 1536, 128);

/// Hybrid models, ordered by family (as in [`Family::ALL`]), then size. Ids are stable: never
/// rename one.
pub static HYBRID_MODELS: &[CatalogModel] = &[
    // ----- Qwen3-Next -----
    CatalogModel {
        id: "qwen3-next-80b-a3b-instruct",
        name: "Qwen3-Next-80B-A3B-Instruct",
        hf_repo: "Qwen/Qwen3-Next-80B-A3B-Instruct",
        hf_aliases: &[],
        published_params: 80_000_000_000,
        published_counts_mtp: false,
        source: source!(
            "model card: 80B in total, 3B activated (exact figure not seen); the HF \
                 safetensors total, 81.3B, adds the multi-token-prediction layer (1.65B by the \
                 same shapes) that inference does not load"
        ),
        arch: QWEN3_NEXT_80B,
    },
    CatalogModel {
        id: "qwen3-next-80b-a3b-thinking",
        name: "Qwen3-Next-80B-A3B-Thinking",
        hf_repo: "Qwen/Qwen3-Next-80B-A3B-Thinking",
        hf_aliases: &[],
        published_params: 80_000_000_000,
        published_counts_mtp: false,
        source: source!(
            "model card: 80B in total, 3B activated (exact figure not seen); same config as \
                 the Instruct checkpoint"
        ),
        arch: QWEN3_NEXT_80B,
    },
    // ----- Falcon-H1 -----
    CatalogModel {
        id: "falcon-h1-7b-instruct",
        name: "Falcon-H1-7B-Instruct",
        hf_repo: "tiiuae/Falcon-H1-7B-Instruct",
        hf_aliases: &[],
        published_params: 7_590_000_000,
        published_counts_mtp: false,
        source: source!(
            "HF model listing: 7.59B params (rounded, as quoted in a public model catalog; \
                 exact figure not seen); card: 7B"
        ),
        arch: FALCON_H1_7B,
    },
    // ----- Nemotron-H -----
    CatalogModel {
        id: "nemotron-h-8b-base-8k",
        name: "Nemotron-H-8B-Base-8K",
        hf_repo: "nvidia/Nemotron-H-8B-Base-8K",
        hf_aliases: &[],
        published_params: 8_100_000_000,
        published_counts_mtp: false,
        source: source!(
            "HF model page: 8.1B params (rounded; not re-read in this change's sources); \
                 card: 8B, 24 Mamba-2, 24 MLP and 4 attention layers"
        ),
        arch: NEMOTRON_H_8B,
    },
    CatalogModel {
        id: "nemotron-3-nano-30b-a3b",
        name: "NVIDIA Nemotron 3 Nano 30B-A3B",
        hf_repo: "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
        hf_aliases: &[],
        published_params: 31_577_940_288,
        published_counts_mtp: false,
        source: source!(
            "llama.cpp's parameter count of the converted checkpoint: 31,577,940,288 \
                 (`model_n_params` of unsloth/Nemotron-3-Nano-30B-A3B-GGUF in llama-bench, and \
                 `n_params` in llama-server's /v1/models, as public logs record it); NVIDIA's \
                 technical report: 31.6B total, 3.2B active; card: 30B total, 3.5B active"
        ),
        arch: NEMOTRON_3_NANO,
    },
    // ----- Granite 4.0 -----
    // Granite 4.0 Micro: `granitemoehybrid` with every layer attention (`layer_types`) and no
    // experts, so no recurrent layer: a dense transformer of 40 layers of width 2560, 40 query heads
    // of 64 and 8 KV heads, a gated (shared) MLP of 8192, tied embeddings of 100,352 tokens, 131,072
    // positions. The shapes are those IBM's Granite 4.1 report tables for the 3B dense model, whose
    // checkpoint (`ibm-granite/granite-4.1-3b`) has the same safetensors total.
    CatalogModel {
        id: "granite-4.0-micro",
        name: "Granite 4.0 Micro",
        hf_repo: "ibm-granite/granite-4.0-micro",
        hf_aliases: &[],
        published_params: 3_402_836_480,
        published_counts_mtp: false,
        source: source!(
            "HF safetensors total 3,402,836,480 (as public model inventories record the Hub \
                 API's value; architecture GraniteMoeHybridForCausalLM); card: 3B dense, \
                 traditional transformer"
        ),
        arch: ModelArch::dense(
            Family::GraniteMoeHybrid,
            40,
            2560,
            40,
            8,
            64,
            8192,
            100352,
            true,
            131072,
        ),
    },
    CatalogModel {
        id: "granite-4.0-h-tiny",
        name: "Granite 4.0 H-Tiny",
        hf_repo: "ibm-granite/granite-4.0-h-tiny",
        hf_aliases: &[],
        published_params: 6_940_000_000,
        published_counts_mtp: false,
        source: source!(
            "HF model page: 6.94B params (rounded; not re-read in this change's sources); \
                 card: 7B total, 1B active"
        ),
        arch: GRANITE_4_H_TINY,
    },
    CatalogModel {
        id: "granite-4.0-h-small",
        name: "Granite 4.0 H-Small",
        hf_repo: "ibm-granite/granite-4.0-h-small",
        hf_aliases: &[],
        published_params: 32_200_000_000,
        published_counts_mtp: false,
        source: source!(
            "32.2B params (rounded; en.immers.cloud/ai/ibm-granite/granite-4.0-h-small, \
                 quoting the HF listing); card: 32B total, 9B active"
        ),
        arch: GRANITE_4_H_SMALL,
    },
];
