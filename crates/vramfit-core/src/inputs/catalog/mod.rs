//! Static catalogs: open models with their exact architecture, and GPUs with the memory the driver
//! really reports. Ids are stable kebab-case strings (they appear in shared URLs and scenario files).
//!
//! Models are found by their kebab id ([`model`]) or by a Hugging Face repo id, including the usual
//! names of pre-quantised uploads (`…-AWQ`, `…-GPTQ-Int4`, `…-FP8`, `unsloth/…-bnb-4bit`,
//! `…-GGUF:Q4_K_M`), which [`lookup`] maps to the base entry and the weight format.

mod gpu_market;
mod gpus;
mod gpus_consumer;
mod gpus_datacenter;
mod gpus_hpu;
mod gpus_unified;
mod hub_ids;
mod models;
mod models_extra;
mod models_gemma;
mod models_hybrid;
mod models_moe;
mod models_moe_extra;
mod models_recent;

pub use gpu_market::{GpuMarket, GPU_MARKET, PRICES_AS_OF};
pub use gpus::GPUS;
pub use gpus_hpu::HPUS;
pub use gpus_unified::UNIFIED_MEMORY;
pub use hub_ids::{lookup, pipeline_repo_ids, HubMatch};
pub(crate) use models::MODELS as DENSE_MODELS;
pub(crate) use models_extra::MORE_DENSE_MODELS;
pub(crate) use models_gemma::GEMMA_MODELS;
pub(crate) use models_hybrid::HYBRID_MODELS;
pub(crate) use models_moe::MOE_AND_VLM_MODELS;
pub(crate) use models_moe_extra::MORE_MOE_MODELS;
pub(crate) use models_recent::RECENT_MODELS;

use crate::inputs::model::ModelArch;
use serde::{Deserialize, Serialize};

/// A model in the catalog.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct CatalogModel {
    /// Stable kebab-case id, e.g. `llama-3.1-8b-instruct`.
    pub id: &'static str,
    /// Display name, e.g. `Llama 3.1 8B Instruct`.
    pub name: &'static str,
    /// Hugging Face repository the architecture was read from.
    pub hf_repo: &'static str,
    /// Other Hugging Face repo ids that hold this exact checkpoint (a repository renamed on the Hub
    /// keeps redirecting from its old name, e.g. `meta-llama/Meta-Llama-3.1-8B-Instruct`).
    pub hf_aliases: &'static [&'static str],
    /// Parameter count the model card / safetensors index publishes (checked against the computed count).
    pub published_params: u64,
    /// Whether `published_params` counts the checkpoint's multi-token-prediction layers
    /// ([`ModelArch::mtp_layers`]): the Hugging Face safetensors total does, a model card's
    /// figure usually does not. The catalog test compares the published figure with
    /// [`ModelArch::checkpoint_param_count`] when true, with [`ModelArch::param_count`] (the
    /// served model) when false.
    pub published_counts_mtp: bool,
    /// Where `published_params` comes from.
    pub source: &'static str,
    /// The architecture.
    pub arch: ModelArch,
}

impl CatalogModel {
    /// The computed count that `published_params` is compared with: the checkpoint's
    /// ([`ModelArch::checkpoint_param_count`]) or the served model's ([`ModelArch::param_count`]),
    /// as [`CatalogModel::published_counts_mtp`] says.
    pub fn compared_params(&self) -> u64 {
        if self.published_counts_mtp {
            self.arch.checkpoint_param_count()
        } else {
            self.arch.param_count()
        }
    }

    /// Every Hugging Face repo id of this checkpoint: [`CatalogModel::hf_repo`] first, then the
    /// aliases.
    pub fn repo_ids(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.hf_repo).chain(self.hf_aliases.iter().copied())
    }
}

/// Who makes the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Vendor {
    /// NVIDIA (CUDA).
    Nvidia,
    /// AMD (ROCm).
    Amd,
    /// Intel (oneAPI / Level Zero, PyTorch `xpu`).
    Intel,
    /// Apple (Metal; unified memory).
    Apple,
}

/// Market segment of the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Segment {
    /// GeForce / Radeon consumer cards.
    Consumer,
    /// Professional workstation cards (RTX A/Ada/PRO, Radeon PRO).
    Workstation,
    /// Data-centre accelerators.
    DataCenter,
    /// Embedded modules (NVIDIA Jetson).
    Embedded,
}

/// How cards of this kind talk to each other in one server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Interconnect {
    /// NVIDIA NVLink (bridge or NVSwitch); value: GB/s per GPU, bidirectional.
    NvLink(u32),
    /// AMD Infinity Fabric (xGMI); value: GB/s per GPU, bidirectional.
    Xgmi(u32),
    /// PCIe only: tensor parallelism works but every all-reduce crosses PCIe.
    PcieOnly,
    /// RoCE Ethernet ports on the accelerator itself (Intel Gaudi); value: GB/s per device,
    /// bidirectional, all ports.
    Ethernet(u32),
}

/// Where a card can be had: what a renter can rent by the hour, and what must be bought.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Availability {
    /// Rented on demand from clouds and GPU clouds (A100, H100, L4, L40S, MI300X …).
    Cloud,
    /// Rented mostly on community marketplaces (RTX 3090 / 4090 / 5090, RTX A6000 …).
    Marketplace,
    /// Bought, not rented in practice (desktop cards rarely listed, Apple, Jetson, DGX Spark).
    Buy,
}

impl Availability {
    /// The stable id (`cloud`, `marketplace`, `buy`).
    pub fn id(self) -> &'static str {
        match self {
            Availability::Cloud => "cloud",
            Availability::Marketplace => "marketplace",
            Availability::Buy => "buy",
        }
    }

    /// The value whose [`Availability::id`] is `id`.
    pub fn from_id(id: &str) -> Option<Availability> {
        Availability::ALL.into_iter().find(|a| a.id() == id)
    }

    /// Every value, from the narrowest reach to the widest.
    pub const ALL: [Availability; 3] = [
        Availability::Cloud,
        Availability::Marketplace,
        Availability::Buy,
    ];
}

/// What a card's memory is made of: HBM stacks reach a smaller share of their rated bandwidth
/// in a one-sequence decode step than GDDR or LPDDR (fitted in `speed`, per kind, not per card).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryKind {
    /// High-bandwidth memory stacks (A100, H100, MI300X, V100, A30 …).
    Hbm,
    /// GDDR on a board (GeForce, Radeon, RTX workstation cards, L4, L40S …).
    Gddr,
    /// The system's LPDDR shared with the CPU (Apple silicon, DGX Spark, Ryzen AI Max, Jetson).
    Unified,
}

/// GPU generation, where it changes a runtime constant (cuBLAS workspace size).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GpuArch {
    /// NVIDIA Pascal (sm60/sm61).
    Pascal,
    /// NVIDIA Volta (sm70).
    Volta,
    /// NVIDIA Turing (sm75).
    Turing,
    /// NVIDIA Ampere (sm80/sm86).
    Ampere,
    /// NVIDIA Ada Lovelace (sm89).
    Ada,
    /// NVIDIA Hopper (sm90).
    Hopper,
    /// NVIDIA Blackwell (sm100/sm120).
    Blackwell,
    /// AMD CDNA (MI-series).
    Cdna,
    /// AMD RDNA (Radeon).
    Rdna,
    /// Intel Xe (Arc Alchemist / Battlemage).
    Xe,
    /// Intel Gaudi (HPU).
    Gaudi,
    /// Apple silicon GPU (M-series).
    AppleSilicon,
}

/// A GPU in the catalog.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Gpu {
    /// Stable kebab-case id, e.g. `h100-sxm-80gb`.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Vendor.
    pub vendor: Vendor,
    /// Segment.
    pub segment: Segment,
    /// Generation.
    pub arch: GpuArch,
    /// Capacity as marketed, in GB (vendors' unit; often really GiB).
    pub marketed_gb: u32,
    /// Total memory the driver reports to the framework (`torch.cuda.mem_get_info()[1]`), in MiB.
    pub reported_mib: u64,
    /// Multi-GPU interconnect.
    pub interconnect: Interconnect,
    /// Memory bandwidth, GB/s.
    pub bandwidth_gb_s: u32,
    /// Where `reported_mib` comes from (an observation, or how it was derived).
    pub source: &'static str,
    /// Unified memory: the GPU shares the system RAM with the CPU and the OS (Apple silicon,
    /// DGX Spark, Jetson). `reported_mib` is then the most the GPU may use, not memory of its own;
    /// such machines live in [`UNIFIED_MEMORY`], not in [`GPUS`].
    pub unified: bool,
}

impl Gpu {
    /// Reported capacity in bytes.
    pub fn capacity_bytes(&self) -> u64 {
        self.reported_mib * crate::units::bytes::MIB
    }
}

/// Catalog models that can draft for `target` in speculative decoding: a vocabulary within 128
/// tokens of the target's (llama.cpp's `common_speculative_are_compatible`; vLLM and SGLang verify
/// with the target's vocabulary), text-only, at most a quarter of its parameters, smallest first.
pub fn draft_candidates(target: &ModelArch) -> Vec<&'static CatalogModel> {
    let limit = target.param_count() / 4;
    let mut out: Vec<&'static CatalogModel> = models()
        .filter(|m| {
            m.arch.vocab.abs_diff(target.vocab) <= 128
                && m.arch.vision.is_none()
                && m.arch.param_count() <= limit
        })
        .collect();
    out.sort_by_key(|m| m.arch.param_count());
    out
}

/// Every catalog model: the dense text models, then the MoE, latent-attention and vision models,
/// then the later additions of each (base checkpoints, distills, newer releases), then the hybrid
/// (Mamba-2 / linear-attention) models, then the checkpoints whose published totals count their
/// multi-token-prediction layers (GLM-4.5, Qwen3.5), then Gemma 3n (per-layer embeddings, KV
/// sharing).
pub fn models() -> impl Iterator<Item = &'static CatalogModel> {
    DENSE_MODELS
        .iter()
        .chain(MOE_AND_VLM_MODELS.iter())
        .chain(MORE_DENSE_MODELS.iter())
        .chain(MORE_MOE_MODELS.iter())
        .chain(HYBRID_MODELS.iter())
        .chain(RECENT_MODELS.iter())
        .chain(GEMMA_MODELS.iter())
}

/// Adds sliding-window layers: every `global_every`-th layer is global, the rest attend to the last
/// `window` tokens (`sliding_window`; Gemma 2 alternates, Gemma 3 `sliding_window_pattern` = 6).
const fn with_swa(mut a: ModelArch, window: u32, global_every: u32) -> ModelArch {
    a.sliding_window = Some(crate::inputs::model::SlidingWindow {
        window,
        global_every,
    });
    a
}

/// Looks a model up by its kebab id (exactly). [`lookup`] also takes Hugging Face repo ids.
pub fn model(id: &str) -> Option<&'static CatalogModel> {
    models().find(|m| m.id == id)
}

/// Every catalog card and machine: the discrete cards ([`GPUS`], sorted by reported memory), then
/// the unified-memory machines ([`UNIFIED_MEMORY`]), then the accelerators outside the CUDA /
/// ROCm runtime model ([`HPUS`]).
pub fn all_gpus() -> impl Iterator<Item = &'static Gpu> {
    GPUS.iter().chain(UNIFIED_MEMORY.iter()).chain(HPUS.iter())
}

/// Looks a GPU (or unified-memory machine) up by id.
pub fn gpu(id: &str) -> Option<&'static Gpu> {
    all_gpus().find(|g| g.id == id)
}

/// Speed and market facts of a card by id: dense tensor throughput, the dated reference price,
/// where it can be had, its memory kind.
pub fn market(id: &str) -> Option<&'static GpuMarket> {
    GPU_MARKET.iter().find(|m| m.id == id)
}
