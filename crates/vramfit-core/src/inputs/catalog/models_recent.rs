//! The model catalog, sixth part: checkpoints that ship multi-token-prediction (MTP) layers and
//! publish a total that counts them — GLM-4.5 / GLM-4.6 / GLM-4.5-Air (`glm4_moe`) and the
//! Qwen3.5 / Qwen3.6 hybrid family (`qwen3_5`, `qwen3_5_moe`: gated DeltaNet with gated
//! attention every fourth layer, a Qwen3-VL vision tower).
//!
//! The rules are those of `models_moe.rs`: every architecture value is copied from the model's
//! `config.json` (the `text_config` block for the Qwen3.5 wrappers; the keys
//! `import::hf_config` reads, named in each entry's comment), `published_params` is the
//! published count with its `source`, and the computed count must lie within 0.5 % of it. What is
//! compared is said by [`CatalogModel::published_counts_mtp`]: the Hugging Face safetensors total
//! counts the MTP layers ([`ModelArch::checkpoint_param_count`]), a model card's figure counts the
//! served model ([`ModelArch::param_count`]). The MTP layers never enter a weight budget (see
//! [`ModelArch::mtp_layers`]: vLLM, SGLang and llama.cpp load them only as a speculative-decoding
//! drafter, which vramfit does not model).
//!
//! Qwen3.5's vision tower (`Qwen3_5VisionModel`, the Qwen3-VL encoder without DeepStack
//! mergers; `vision_config`: `depth` 27, `hidden_size` 1152, `intermediate_size` 4304, 16 heads,
//! `patch_size` 16, `temporal_patch_size` 2, `num_position_embeddings` 2304,
//! `spatial_merge_size` 2, `out_hidden_size` = the text width) is counted from those shapes:
//! patch Conv3d `1152 × 3·2·16·16` + bias = 1,770,624; position table 2304 × 1152 = 2,654,208;
//! per block two LayerNorms (4,608), `qkv` 1152 → 3456 with bias (3,984,768), `proj` (1,328,256),
//! `fc1` 1152 → 4304 (4,962,512) and `fc2` (4,959,360): 15,239,504 × 27 = 411,466,608; the patch
//! merger's LayerNorm 2,304, `linear_fc1` 4608 → 4608 (21,238,272) and `linear_fc2` 4608 → out
//! with bias. Out 2048: 446,571,248; out 5120: 460,730,096. The 2B and 4B towers have 24 blocks of
//! 1024 (MLP 4096), the 0.8B's 12 of 768 (MLP 3072), with the same shapes otherwise
//! ([`qwen3_5_vision`]). Under tensor parallelism vLLM
//! (`qwen3_vl.py`, reused by `qwen3_5.py`) splits `qkv`, `proj`, `fc1`, `fc2` and the merger MLP;
//! each GPU keeps whole the patch embedding, the position table, per block the LayerNorms and the
//! `proj` / `fc2` biases (6,912 × 27), the merger's LayerNorm and its last bias:
//! 4,613,760 + out. One image of 1024 × 1024 px is 1024 tokens (16 px patches, 2 × 2 merged).

use super::models_moe::with_moe;
use super::CatalogModel;
use crate::inputs::model::{
    qwen3_vl_tower, Family, Hybrid, LayerSet, ModelArch, Moe, Recurrent, RecurrentKind, Vision,
};

/// Sets the checkpoint's MTP layers.
const fn with_mtp(mut a: ModelArch, mtp_layers: u32) -> ModelArch {
    a.mtp_layers = mtp_layers;
    a
}

/// A GLM-4.5 model (`glm4_moe`): `first_k_dense_replace` dense layers, then MoE layers of
/// `n_routed_experts` experts of `moe_intermediate_size` with one shared expert of the same width
/// and a router bias, 96 query heads of 128 and 8 KV heads, q/k/v biases, `use_qk_norm` where
/// given, vocabulary 151,552, untied head, one MTP layer (`num_nextn_predict_layers` 1).
#[allow(clippy::too_many_arguments)]
const fn glm4_moe(
    layers: u32,
    hidden: u32,
    intermediate: u32,
    experts: u32,
    expert_intermediate: u32,
    first_dense_layers: u32,
    qk_norm: bool,
    max_position: u32,
) -> ModelArch {
    let mut a = with_moe(
        ModelArch::dense(
            Family::Glm4Moe,
            layers,
            hidden,
            96,
            8,
            128,
            intermediate,
            151552,
            false,
            max_position,
        ),
        Moe {
            experts,
            active: 8,
            expert_intermediate,
            shared_intermediate: expert_intermediate,
            first_dense_layers,
            moe_every: 1,
            router_bias: true,
            expert_bias: false,
        },
    );
    a.qk_norm = qk_norm;
    with_mtp(a, 1)
}

/// GLM-4.5 (`zai-org/GLM-4.5` `config.json`): 92 layers of width 5120, 3 dense (MLP 12,288), then
/// 160 experts of 1536, per-head q/k norms, 131,072 positions.
const GLM_4_5: ModelArch = glm4_moe(92, 5120, 12288, 160, 1536, 3, true, 131072);

/// GLM-4.6 (`zai-org/GLM-4.6` `config.json`): GLM-4.5's shapes, 202,752 positions.
const GLM_4_6: ModelArch = glm4_moe(92, 5120, 12288, 160, 1536, 3, true, 202752);

/// GLM-4.5-Air (`zai-org/GLM-4.5-Air` `config.json`, quoted verbatim in `import::hf_config`'s
/// tests): 46 layers of width 4096, 1 dense (MLP 10,944), then 128 experts of 1408, no q/k norms.
const GLM_4_5_AIR: ModelArch = glm4_moe(46, 4096, 10944, 128, 1408, 1, false, 131072);

/// The Qwen3.5 vision tower of `depth` blocks of width `width` (MLP `mlp`) with the merger
/// projecting to `out` (the shapes are in the module doc): patch Conv3d `1537·w`, position table
/// `2304·w`, per block `4·w² + 2·w·mlp + 9·w + mlp`, merger `2·w + 16·w² + 4·w + 4·w·out + out`.
/// Replicated under tensor parallelism: the patch embedding, the position table, per block the
/// LayerNorms and the `proj` / `fc2` biases (`6·w`), the merger's LayerNorm and its last bias.
/// That is [`qwen3_vl_tower`] without DeepStack mergers (`deepstack_visual_indexes` is empty).
const fn qwen3_5_vision(depth: u64, width: u64, mlp: u64, out: u64) -> Vision {
    qwen3_vl_tower(depth, width, mlp, out, 0)
}

/// The three Qwen3.5 vision towers: 27 blocks of 1152 (MLP 4304) from 9B up, 24 of 1024 (4096) for
/// 2B and 4B, 12 of 768 (3072) for 0.8B.
const TOWER_L: (u64, u64, u64) = (27, 1152, 4304);
const TOWER_M: (u64, u64, u64) = (24, 1024, 4096);
const TOWER_S: (u64, u64, u64) = (12, 768, 3072);

/// A Qwen3.5 text model: `layers` layers of width `hidden`, every 4th (3, 7, …) gated attention
/// with `heads` query heads of 256 (`q_proj` twice as wide for the output gate) and `kv_heads` KV
/// heads, the others gated DeltaNet with `v_heads` value heads and `k_heads` key heads of 128
/// (`linear_*`), a 4-wide convolution, the SSM state in fp32 (`mamba_ssm_dtype` `float32`);
/// dense MLP of `intermediate` or `moe`; vocabulary 248,320, 262,144 positions, one MTP layer
/// (`mtp_num_hidden_layers`); the vision tower `tower` projecting to `hidden`.
#[allow(clippy::too_many_arguments)]
const fn qwen3_5(
    layers: u32,
    hidden: u32,
    heads: u32,
    kv_heads: u32,
    intermediate: u32,
    (v_heads, k_heads): (u32, u32),
    tied: bool,
    tower: (u64, u64, u64),
    moe: Option<Moe>,
) -> ModelArch {
    let mut a = ModelArch::dense(
        Family::Qwen3Next,
        layers,
        hidden,
        heads,
        kv_heads,
        256,
        intermediate,
        248320,
        tied,
        262144,
    );
    a.moe = moe;
    a.hybrid = Some(Hybrid {
        mixer: Recurrent {
            kind: RecurrentKind::GatedDeltaNet,
            heads: v_heads,
            head_dim: 128,
            state: 128,
            groups: k_heads,
            conv_kernel: 4,
            conv_bias: false,
            proj_bias: false,
            norm: true,
            ssm_f32: true,
        },
        recurrent_layers: LayerSet::first(layers).without(LayerSet::every(layers, 4, 3)),
        attention_layers: LayerSet::every(layers, 4, 3),
        mlp_layers: LayerSet::first(layers),
    });
    a.vision = Some(qwen3_5_vision(tower.0, tower.1, tower.2, hidden as u64));
    with_mtp(a, 1)
}

/// Qwen3.5 MoE: every layer has `experts` routed experts of `width` (`active` routed) and one
/// shared expert of the same width with its sigmoid gate.
const fn qwen3_5_moe(experts: u32, active: u32, width: u32) -> Option<Moe> {
    Some(Moe {
        experts,
        active,
        expert_intermediate: width,
        shared_intermediate: width,
        first_dense_layers: 0,
        moe_every: 1,
        router_bias: false,
        expert_bias: false,
    })
}

/// Qwen3.5-0.8B: 24 layers of width 1024, 8 query / 2 KV heads, MLP 3584, 16 DeltaNet value and
/// key heads, tied embeddings, the small tower.
const QWEN3_5_0_8B: ModelArch = qwen3_5(24, 1024, 8, 2, 3584, (16, 16), true, TOWER_S, None);

/// Qwen3.5-2B: 24 layers of width 2048, 8 query / 2 KV heads, MLP 6144, 16 DeltaNet value and key
/// heads, tied embeddings, the middle tower.
const QWEN3_5_2B: ModelArch = qwen3_5(24, 2048, 8, 2, 6144, (16, 16), true, TOWER_M, None);

/// Qwen3.5-4B: 32 layers of width 2560, 16 query / 4 KV heads, MLP 9216, 32 DeltaNet value and 16
/// key heads, tied embeddings, the middle tower.
const QWEN3_5_4B: ModelArch = qwen3_5(32, 2560, 16, 4, 9216, (32, 16), true, TOWER_M, None);

/// Qwen3.5-9B: 32 layers of width 4096, 16 query / 4 KV heads, MLP 12,288, 32 DeltaNet value and
/// 16 key heads, untied head, the large tower.
const QWEN3_5_9B: ModelArch = qwen3_5(32, 4096, 16, 4, 12288, (32, 16), false, TOWER_L, None);

/// Qwen3.5-27B / Qwen3.6-27B: 64 layers of width 5120, 24 query / 4 KV heads, MLP 17,408, 48
/// DeltaNet value and 16 key heads, untied head, the large tower.
const QWEN3_5_27B: ModelArch = qwen3_5(64, 5120, 24, 4, 17408, (48, 16), false, TOWER_L, None);

/// Qwen3.5-35B-A3B / Qwen3.6-35B-A3B: 40 layers of width 2048, 16 query / 2 KV heads, 32 DeltaNet
/// value and 16 key heads, 256 experts of 512 (8 routed), untied head, the large tower.
const QWEN3_5_35B_A3B: ModelArch = qwen3_5(
    40,
    2048,
    16,
    2,
    512,
    (32, 16),
    false,
    TOWER_L,
    qwen3_5_moe(256, 8, 512),
);

/// Qwen3.5-122B-A10B: 48 layers of width 3072, 32 query / 2 KV heads, 64 DeltaNet value and 16
/// key heads, 256 experts of 1024 (8 routed), untied head, the large tower.
const QWEN3_5_122B_A10B: ModelArch = qwen3_5(
    48,
    3072,
    32,
    2,
    1024,
    (64, 16),
    false,
    TOWER_L,
    qwen3_5_moe(256, 8, 1024),
);

/// Qwen3.5-397B-A17B: 60 layers of width 4096, 32 query / 2 KV heads, 64 DeltaNet value and 16
/// key heads, 512 experts of 1024 (10 routed), untied head, the large tower.
const QWEN3_5_397B_A17B: ModelArch = qwen3_5(
    60,
    4096,
    32,
    2,
    1024,
    (64, 16),
    false,
    TOWER_L,
    qwen3_5_moe(512, 10, 1024),
);

/// Checkpoints with multi-token-prediction layers whose published totals count them, ordered by
/// family (as in [`Family::ALL`]), then size. Ids are stable: never rename one.
pub static RECENT_MODELS: &[CatalogModel] = &[
    // ----- Qwen3.5 / Qwen3.6 (qwen3_5, qwen3_5_moe) -----
    CatalogModel {
        id: "qwen3.5-0.8b",
        name: "Qwen3.5-0.8B",
        hf_repo: "Qwen/Qwen3.5-0.8B",
        hf_aliases: &[],
        published_params: 873_438_784,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 873,438,784, counting the vision tower and the MTP layer; text numbers from the model card (hidden, layers, heads, MLP; apxml.com's copy), the DeltaNet heads and the tower the one combination of the family's values that gives this exact total"),
        arch: QWEN3_5_0_8B,
    },
    CatalogModel {
        id: "qwen3.5-2b",
        name: "Qwen3.5-2B",
        hf_repo: "Qwen/Qwen3.5-2B",
        hf_aliases: &[],
        published_params: 2_274_069_824,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 2,274,069,824, counting the vision tower and the MTP layer; text numbers from the model card (hidden, layers, heads, MLP; apxml.com's copy), the DeltaNet heads and the tower the one combination of the family's values that gives this exact total"),
        arch: QWEN3_5_2B,
    },
    CatalogModel {
        id: "qwen3.5-4b",
        name: "Qwen3.5-4B",
        hf_repo: "Qwen/Qwen3.5-4B",
        hf_aliases: &[],
        published_params: 4_659_865_088,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 4,659,865,088, counting the vision tower and the MTP layer; text numbers from the model card (hidden, layers, heads, MLP; apxml.com's copy), the DeltaNet heads and the tower the one combination of the family's values that gives this exact total"),
        arch: QWEN3_5_4B,
    },
    CatalogModel {
        id: "qwen3.5-4b-base",
        name: "Qwen3.5-4B-Base",
        hf_repo: "Qwen/Qwen3.5-4B-Base",
        hf_aliases: &[],
        published_params: 4_659_865_088,
        published_counts_mtp: true,
        source: source!("same tensors as Qwen3.5-4B (HF safetensors total 4,659,865,088)"),
        arch: QWEN3_5_4B,
    },
    CatalogModel {
        id: "qwen3.5-9b",
        name: "Qwen3.5-9B",
        hf_repo: "Qwen/Qwen3.5-9B",
        hf_aliases: &[],
        published_params: 9_653_104_368,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 9,653,104,368 (also GGUF general.parameter_count), counting the vision tower (456.0M) and the MTP layer (243.3M); card: 9B language model"),
        arch: QWEN3_5_9B,
    },
    CatalogModel {
        id: "qwen3.5-27b",
        name: "Qwen3.5-27B",
        hf_repo: "Qwen/Qwen3.5-27B",
        hf_aliases: &[],
        published_params: 27_781_427_952,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 27,781,427,952 (GGUF general.parameter_count of qwen3.5:27b; the Qwen3.6-27B repo holds the same), counting the vision tower (460.7M) and the MTP layer (424.7M); card: 27B"),
        arch: QWEN3_5_27B,
    },
    CatalogModel {
        id: "qwen3.6-27b",
        name: "Qwen3.6-27B",
        hf_repo: "Qwen/Qwen3.6-27B",
        hf_aliases: &[],
        published_params: 27_781_427_952,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 27,781,427,952, counting the vision tower (460.7M) and the MTP layer (424.7M); model.safetensors.index.json total_size 55.56 GB (eadst.com/blog/325); card: 27B"),
        arch: QWEN3_5_27B,
    },
    CatalogModel {
        id: "qwen3.5-35b-a3b",
        name: "Qwen3.5-35B-A3B",
        hf_repo: "Qwen/Qwen3.5-35B-A3B",
        hf_aliases: &[],
        published_params: 35_951_822_704,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 35,951,822,704, counting the vision tower (446.6M) and the MTP layer (844.6M); card: 35B in total, 3B activated"),
        arch: QWEN3_5_35B_A3B,
    },
    CatalogModel {
        id: "qwen3.6-35b-a3b",
        name: "Qwen3.6-35B-A3B",
        hf_repo: "Qwen/Qwen3.6-35B-A3B",
        hf_aliases: &[],
        published_params: 35_951_822_704,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 35,951,822,704 (Qwen/Qwen3.6-35B-A3B safetensors.total), counting the vision tower and the MTP layer; card: 35B in total, 3B activated, the same text shapes as Qwen3.5-35B-A3B"),
        arch: QWEN3_5_35B_A3B,
    },
    CatalogModel {
        id: "qwen3.5-122b-a10b",
        name: "Qwen3.5-122B-A10B",
        hf_repo: "Qwen/Qwen3.5-122B-A10B",
        hf_aliases: &[],
        published_params: 125_086_497_008,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 125,086,497,008 (BF16 125,086,490,096 + F32 6,912), counting the vision tower (451.3M) and the MTP layer (2.52B); card: 122B in total, 10B activated"),
        arch: QWEN3_5_122B_A10B,
    },
    CatalogModel {
        id: "qwen3.5-397b-a17b",
        name: "Qwen3.5-397B-A17B",
        hf_repo: "Qwen/Qwen3.5-397B-A17B",
        hf_aliases: &[],
        published_params: 403_397_928_944,
        published_counts_mtp: true,
        source: source!("HF safetensors total (the Hub API's `safetensors.total`, as public model inventories record it): 403,397,928,944 = text 396,346,350,336 + vision 456,010,480 + MTP 6,595,568,128 as a public audit of the index splits it, each equal to the count here; card: 397B in total, 17B activated"),
        arch: QWEN3_5_397B_A17B,
    },
    // ----- GLM-4.5 (glm4_moe) -----
    CatalogModel {
        id: "glm-4.5-air",
        name: "GLM-4.5-Air",
        hf_repo: "zai-org/GLM-4.5-Air",
        hf_aliases: &[],
        published_params: 110_000_000_000,
        published_counts_mtp: true,
        source: source!("HF model page: 110B params (rounded safetensors total, as fitmyllm.com quotes \
                 it; exact figure not seen), counting the MTP layer with its embedding and head \
                 copies; card: 106B in total (the served model, computed 106.85B), 12B active"),
        arch: GLM_4_5_AIR,
    },
    CatalogModel {
        id: "glm-4.5-air-base",
        name: "GLM-4.5-Air-Base",
        hf_repo: "zai-org/GLM-4.5-Air-Base",
        hf_aliases: &[],
        published_params: 110_000_000_000,
        published_counts_mtp: true,
        source: source!("same tensors as GLM-4.5-Air (HF model page: 110B params, rounded)"),
        arch: GLM_4_5_AIR,
    },
    CatalogModel {
        id: "glm-4.5",
        name: "GLM-4.5",
        hf_repo: "zai-org/GLM-4.5",
        hf_aliases: &[],
        published_params: 358_000_000_000,
        published_counts_mtp: true,
        source: source!("HF model page: 358B params (rounded safetensors total, as captured at \
                 onlylabs.fyi; exact figure not seen), counting the MTP layer with its embedding \
                 and head copies; card: 355B in total (computed served model 352.8B), 32B active"),
        arch: GLM_4_5,
    },
    CatalogModel {
        id: "glm-4.5-base",
        name: "GLM-4.5-Base",
        hf_repo: "zai-org/GLM-4.5-Base",
        hf_aliases: &[],
        published_params: 358_000_000_000,
        published_counts_mtp: true,
        source: source!("same tensors as GLM-4.5 (HF model page: 358B params, rounded)"),
        arch: GLM_4_5,
    },
    CatalogModel {
        id: "glm-4.6",
        name: "GLM-4.6",
        hf_repo: "zai-org/GLM-4.6",
        hf_aliases: &[],
        published_params: 357_000_000_000,
        published_counts_mtp: true,
        source: source!("357B total parameters (rounded; morphllm.com/glm-4-6 and apxml.com quoting the \
                 HF listing; exact figure not seen); GLM-4.5's tensor shapes, whose computed \
                 checkpoint total with the MTP layer and its copies is 358.3B"),
        arch: GLM_4_6,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The MTP layer, by hand from the configs. GLM-4.5-Air: one more MoE layer (attention
    /// 109,051,904 + q/k/v biases 14,336 + 2 norms 8,192 + 129 experts of 1408 2,231,894,016 +
    /// router 524,288 + its bias 128), `eh_proj` 4096 × 8192, three norms, and the embedding and
    /// head copies 2 × 151,552 × 4096. Qwen3.5-27B: one gated-attention layer (q 12,288 × 5120,
    /// k and v 1024 × 5120 each, o 5120 × 6144, q/k norms 2 × 256, MLP 3 × 5120 × 17,408, two
    /// norms), `fc` 5120 × 10,240 and three norms; no copies.
    #[test]
    fn mtp_layers_count_as_their_configs_say() {
        let air_layer: u64 = 109_074_432 + 2_231_894_016 + 524_288 + 128;
        let air = air_layer + 2 * 4096 * 4096 + 3 * 4096 + 2 * 151_552 * 4096;
        assert_eq!(GLM_4_5_AIR.mtp_param_count(), air);
        assert_eq!(GLM_4_5_AIR.param_count(), 106_852_251_264);
        let q_layer: u64 =
            12_288 * 5120 + 2 * 1024 * 5120 + 5120 * 6144 + 2 * 256 + 3 * 5120 * 17_408 + 2 * 5120;
        assert_eq!(
            QWEN3_5_27B.mtp_param_count(),
            q_layer + 2 * 5120 * 5120 + 3 * 5120
        );
        // The served model and the checkpoint: text + vision, then + MTP.
        assert_eq!(QWEN3_5_27B.param_count(), 27_356_728_560);
        assert_eq!(QWEN3_5_27B.checkpoint_param_count(), 27_781_427_952);
        assert_eq!(QWEN3_5_35B_A3B.param_count(), 35_107_181_936);
        assert_eq!(QWEN3_5_35B_A3B.checkpoint_param_count(), 35_951_822_704);
    }

    /// Every Qwen3.5 / 3.6 entry counts its checkpoint's safetensors total exactly; the 397B
    /// splits as its audited index does (text, vision, MTP).
    #[test]
    fn qwen3_5_checkpoints_are_exact() {
        for m in RECENT_MODELS.iter().filter(|m| m.id.starts_with("qwen3.")) {
            assert_eq!(
                m.arch.checkpoint_param_count(),
                m.published_params,
                "{}",
                m.id
            );
        }
        let a = QWEN3_5_397B_A17B;
        let vision = a.vision.map_or(0, |v| v.params);
        assert_eq!(vision, 456_010_480);
        assert_eq!(a.param_count() - vision, 396_346_350_336);
        assert_eq!(a.mtp_param_count(), 6_595_568_128);
    }
}
