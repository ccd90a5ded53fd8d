//! How fast a plan runs: decode tokens/s per request and for all requests, prefill tokens/s and
//! the time to first token (serving); tokens/s and step time (training); seconds per image or
//! video (generation). Mechanisms, with the efficiencies fitted per family in [`fitted`]:
//!
//! - **A decode step** reads, on each GPU, the weights every token multiplies with
//!   ([`crate::inputs::model::ModelArch::active_param_count`]: for MoE the routed experts a batch touches,
//!   `E · (1 − (1 − k/E)^B)` of `E` for `B` sequences routed to `k` each, plus shared experts and
//!   attention) and each sequence's KV cache at half its context (the mean over a request that
//!   fills it), over the card's memory bandwidth × the fitted share; layers in host RAM (llama.cpp
//!   `-ngl` below all) are read over [`HOST_BANDWIDTH_GB_S`]. A batch is memory-bound until its
//!   FLOPs (`2 × active params × B`, plus attention) over the card's dense peak take longer (a
//!   roofline). A fixed time per layer covers launches and small operations.
//! - **Tensor parallel** divides the bytes and FLOPs and adds two all-reduces per layer of
//!   `B × hidden × 2` bytes (ring: `2(n−1)/n` of it over the link, plus a latency per call:
//!   [`NVLINK_LATENCY_S`] / [`PCIE_LATENCY_S`], bandwidths from the catalog; PCIe 4.0 ×16 where
//!   there is no link). **Layer split** (llama.cpp's default, `device_map="auto"`) runs the cards
//!   one after the other: the step is that of one card reading every layer (its users measure no
//!   decode speed-up). **Replicas** add up.
//! - **Prefill** is compute: `2 × active params × tokens + 2 × layers × tokens² × q width`
//!   (causal attention) over the card's peak for the format, at llama.cpp's fitted share, or
//!   [`fitted::GEMM_PREFILL_SHARE`] for the GEMM engines. The time to first token is one
//!   prompt of the full context.

pub mod fitted;
mod work;

use crate::inputs::catalog::{self, Gpu, GpuMarket, Interconnect, MemoryKind, Vendor};
use crate::inputs::format::WeightFormat;
use crate::plans::plan::{Plan, Split};
use crate::scenario::dispatch::Job;
use crate::scenario::Workload;
use crate::workloads::engine::{Engine, EngineKind};
use fitted::{Backend, WeightClass};
use serde::Serialize;

pub use work::{GenerationSpeed, TrainingSpeed};

/// Host memory bandwidth assumed for weights kept in host RAM, GB/s: dual-channel DDR5 as a
/// decode step reaches it (about 60 % of DDR5-6400's 102 GB/s).
pub const HOST_BANDWIDTH_GB_S: f64 = 60.0;
/// Latency of one small all-reduce over NVLink / xGMI, seconds (NCCL's and vLLM's custom
/// all-reduce reach single-digit microseconds on one node).
pub const NVLINK_LATENCY_S: f64 = 8.0e-6;
/// Latency of one small all-reduce over PCIe, seconds.
pub const PCIE_LATENCY_S: f64 = 25.0e-6;
/// Usable one-way PCIe 4.0 ×16 bandwidth, GB/s, for cards without a link.
pub const PCIE_GB_S: f64 = 25.0;

/// What limits a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// Reading weights and KV cache from GPU memory.
    Memory,
    /// Matrix throughput.
    Compute,
    /// Reading layers kept in host RAM.
    HostMemory,
}

/// How fast a serving plan runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ServingSpeed {
    /// Tokens per second each request receives while its replica's sequences decode together
    /// (one sequence alone when one is asked; no more at once than an engine's KV pool holds of
    /// the full context: the others wait).
    pub decode_tokens_per_s: f64,
    /// Tokens per second of all the plan's sequences decoding at once.
    pub decode_tokens_per_s_total: f64,
    /// Prompt tokens per second for one prompt of the full context.
    pub prefill_tokens_per_s: f64,
    /// Time to the first token of one prompt of the full context, milliseconds.
    pub time_to_first_token_ms: f64,
    /// The decode figures' error band, ± percent (what the calibration measures).
    pub error_band_percent: u32,
    /// The prefill figures' error band, ± percent.
    pub prefill_error_band_percent: u32,
    /// What limits the decode step.
    pub basis: Bound,
    /// Whether the engine is one the calibration set measured (llama.cpp); the others' bands are
    /// widened.
    pub calibrated: bool,
}

/// How fast a plan runs, by workload.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Speed {
    /// Serving.
    Serving(ServingSpeed),
    /// Training and fine-tuning.
    Training(TrainingSpeed),
    /// Image and video generation.
    Generation(GenerationSpeed),
}

impl Speed {
    /// Output tokens per second of the whole plan: serving only (a training run's tokens are
    /// read, not produced, and generation produces images).
    pub fn output_tokens_per_s(&self) -> Option<f64> {
        match self {
            Speed::Serving(s) => Some(s.decode_tokens_per_s_total),
            Speed::Training(_) | Speed::Generation(_) => None,
        }
    }
}

/// The speed of `plan` for `job`; `None` for a typed memory size (no card to know the speed of)
/// or a custom workload.
pub fn of_plan(job: &Job, plan: &Plan) -> Option<Speed> {
    let (gpu, market) = if plan.per_card.is_empty() {
        let gpu = catalog::gpu(plan.card.gpu?)?;
        (*gpu, *catalog::market(gpu.id)?)
    } else {
        mixed_card(plan)?
    };
    let (gpu, market) = (&gpu, &market);
    match job.workload {
        Workload::Inference(_) => serving(job, plan, gpu, market).map(Speed::Serving),
        Workload::Train(t) => work::training(job, t, plan, gpu, market).map(Speed::Training),
        Workload::GenerateImage(g) | Workload::GenerateVideo(g) => {
            work::generation(g, plan, gpu, market).map(Speed::Generation)
        }
        Workload::Custom(_) => None,
    }
}

/// The one card a mixed machine runs like. Tensor parallel waits for its slowest card at every
/// layer: that card. A layer split runs the cards one after the other, each over its share of the
/// weights: the slowest card's figures with its bandwidth and peaks replaced by the harmonic
/// mean weighted by each card's share of the weights (`1 / Σ share_i / x_i`).
fn mixed_card(plan: &Plan) -> Option<(Gpu, GpuMarket)> {
    let cards: Vec<(&Gpu, &GpuMarket, f64)> = plan
        .per_card
        .iter()
        .map(|c| {
            let gpu = catalog::gpu(c.gpu)?;
            let weights = c
                .components
                .iter()
                .filter(|x| x.id == crate::budget::ComponentId::Weights)
                .map(|x| x.bytes)
                .sum::<u64>();
            Some((gpu, catalog::market(gpu.id)?, weights as f64))
        })
        .collect::<Option<_>>()?;
    let &(slowest, slowest_market, _) = cards.iter().min_by_key(|(g, _, _)| g.bandwidth_gb_s)?;
    let (mut gpu, mut market) = (*slowest, *slowest_market);
    if plan.split != Split::Layers {
        return Some((gpu, market));
    }
    let total: f64 = cards.iter().map(|c| c.2).sum::<f64>().max(1.0);
    let harmonic = |x: &dyn Fn(&Gpu, &GpuMarket) -> f64| {
        1.0 / cards
            .iter()
            .map(|(g, m, w)| w / total / x(g, m).max(1e-9))
            .sum::<f64>()
            .max(1e-12)
    };
    gpu.bandwidth_gb_s = harmonic(&|g, _| f64::from(g.bandwidth_gb_s)).round() as u32;
    market.tflops_16 = harmonic(&|_, m| m.tflops_16);
    if cards.iter().all(|(_, m, _)| m.tflops_fp8.is_some()) {
        market.tflops_fp8 = Some(harmonic(&|_, m| m.tflops_fp8.unwrap_or(0.0)));
    }
    if cards.iter().all(|(_, m, _)| m.tops_int8.is_some()) {
        market.tops_int8 = Some(harmonic(&|_, m| m.tops_int8.unwrap_or(0.0)));
    }
    Some((gpu, market))
}

/// The backend llama.cpp runs on a card.
pub fn backend(gpu: &Gpu) -> Backend {
    match gpu.vendor {
        Vendor::Nvidia => Backend::Cuda,
        Vendor::Amd => Backend::Rocm,
        Vendor::Intel => Backend::Vulkan,
        Vendor::Apple => Backend::Metal,
    }
}

/// The class of a weight format for the speed model.
pub fn weight_class(w: WeightFormat) -> WeightClass {
    match w.nominal_bits() {
        0..=6 => WeightClass::Four,
        7..=12 => WeightClass::Eight,
        _ => WeightClass::Float,
    }
}

/// The card's dense peak for a format's matrix products, TFLOPS: FP8 units for FP8 weights where
/// the card has them, INT8 for W8A8, the 16-bit rate otherwise. llama.cpp multiplies quantised
/// weights in int8 (MMQ) and 16-bit ones with half-precision accumulation, which GeForce cards run
/// at twice their FP32-accumulate rate.
pub fn peak_tflops(m: &GpuMarket, gpu: &Gpu, w: WeightFormat, engine: Option<EngineKind>) -> f64 {
    let f16 = m.tflops_16;
    let int8 = m.tops_int8;
    if engine == Some(EngineKind::LlamaCpp) {
        return match weight_class(w) {
            WeightClass::Float if geforce(gpu) => 2.0 * f16,
            WeightClass::Float => f16,
            _ => int8.unwrap_or(f16),
        };
    }
    match w {
        WeightFormat::Fp8 | WeightFormat::Fp8Block => m.tflops_fp8.unwrap_or(f16),
        WeightFormat::Int8 => int8.unwrap_or(f16),
        _ => f16,
    }
}

fn geforce(gpu: &Gpu) -> bool {
    gpu.vendor == Vendor::Nvidia && gpu.segment == catalog::Segment::Consumer
}

/// The share of its rated bandwidth a card's decode step reaches for a weight class.
fn bandwidth_share(gpu: &Gpu, m: &GpuMarket, class: WeightClass) -> f64 {
    let memory = if m.memory == MemoryKind::Hbm {
        fitted::HBM_DECODE_SHARE
    } else {
        1.0
    };
    fitted::decode_bandwidth_share(backend(gpu)) * fitted::decode_class_share(class) * memory
}

/// Seconds per all-reduce of `bytes` over `n` cards linked as the card's interconnect says.
fn all_reduce_s(gpu: &Gpu, n: u64, bytes: f64) -> f64 {
    if n <= 1 {
        return 0.0;
    }
    let (gb_s, latency) = match gpu.interconnect {
        // Catalog figures are bidirectional; a ring sends one way at a time.
        Interconnect::NvLink(x) | Interconnect::Xgmi(x) | Interconnect::Ethernet(x) => {
            (f64::from(x) / 2.0, NVLINK_LATENCY_S)
        }
        Interconnect::PcieOnly => (PCIE_GB_S, PCIE_LATENCY_S),
    };
    let ring = 2.0 * (n as f64 - 1.0) / n as f64;
    latency + ring * bytes / (gb_s * 1e9)
}

/// The weights a llama.cpp plan keeps in host RAM, whole model, and the bandwidth they are read at.
struct HostWeights {
    /// Whole layers on the CPU (`-ngl` below the layer count).
    layers: u64,
    /// Routed experts of GPU layers kept on the CPU (`--cpu-moe` / `--n-cpu-moe`).
    experts: u64,
    /// GB/s a decode step reaches reading them.
    bandwidth_gb_s: f64,
}

impl HostWeights {
    fn of(job: &Job) -> HostWeights {
        let Some(Engine::LlamaCpp(l)) = job.engine else {
            return HostWeights {
                layers: 0,
                experts: 0,
                bandwidth_gb_s: HOST_BANDWIDTH_GB_S,
            };
        };
        let n = job.arch.layers;
        let gpu_start = u64::from(n - l.n_gpu_layers.unwrap_or(n).min(n));
        let moe_end = u64::from(l.cpu_moe_layers(n));
        HostWeights {
            layers: job.footprint.layer_bytes(0, gpu_start),
            experts: job.footprint.expert_bytes(gpu_start, moe_end),
            bandwidth_gb_s: l
                .host_bandwidth_gb_s
                .filter(|b| b.is_finite() && *b > 0.0)
                .unwrap_or(HOST_BANDWIDTH_GB_S),
        }
    }
}

impl HostWeights {
    /// Seconds a prompt of `tokens` spends copying host weights to the GPU: each ubatch of at
    /// least 32 rows runs its host-weight products on the GPU (ggml-cuda's `offload_op`), each
    /// weight copied over PCIe ([`PCIE_GB_S`]) once per ubatch.
    fn prefill_copy_s(&self, job: &Job, tokens: f64) -> f64 {
        let Some(Engine::LlamaCpp(l)) = job.engine else {
            return 0.0;
        };
        let ubatch = f64::from(l.n_ubatch.min(l.n_batch).max(1));
        if ubatch < 32.0 || tokens < 32.0 {
            return 0.0;
        }
        (tokens / ubatch).ceil() * (self.layers + self.experts) as f64 / (PCIE_GB_S * 1e9)
    }
}

/// The share of `arch`'s routed experts a step of `batch` tokens touches, each routed to `k` of
/// `E`: `1 − (1 − k/E)^B` (0 for a dense model).
fn experts_touched(arch: &crate::inputs::model::ModelArch, batch: f64) -> f64 {
    match arch.moe {
        Some(m) if m.experts > 0 && m.active > 0 => {
            let k = f64::from(m.active.min(m.experts)) / f64::from(m.experts);
            1.0 - (1.0 - k).powf(batch.max(1.0))
        }
        _ => 0.0,
    }
}

/// Bytes a decode step of `batch` sequences reads per token position from the weights, whole
/// model: the non-expert active weights and the routed experts the batch touches.
fn weight_bytes_read(job: &Job, whole_bytes: u64, batch: f64) -> f64 {
    whole_bytes as f64 * read_share(job.arch, batch)
}

/// The share of `arch`'s weights a step of `batch` tokens reads: the non-expert active weights
/// and the routed experts the batch touches.
fn read_share(arch: &crate::inputs::model::ModelArch, batch: f64) -> f64 {
    let total = arch.param_count().max(1) as f64;
    let active = arch.active_param_count() as f64;
    // The active count holds each token's `k/E` of the experts; a batch touches more of them.
    let share = match arch.moe {
        Some(m) if m.experts > 0 && m.active > 0 => {
            let experts = arch.routed_expert_param_count() as f64;
            let per_token = experts * f64::from(m.active.min(m.experts)) / f64::from(m.experts);
            (active - per_token + experts * experts_touched(arch, batch)) / total
        }
        _ => active / total,
    };
    share.clamp(0.0, 1.0)
}

fn serving(job: &Job, plan: &Plan, gpu: &Gpu, m: &GpuMarket) -> Option<ServingSpeed> {
    let engine = job.engine.map(Engine::kind);
    let llama_cpp = engine == Some(EngineKind::LlamaCpp);
    let tp = plan.tensor_parallel();
    let replicas = if plan.split == Split::Replicas {
        f64::from(plan.count.max(1))
    } else {
        1.0
    };
    // The requests decoding at once: the sequences asked for, but no more than an engine's KV
    // pool holds of the full context (the verdict's "the rest wait in the queue"), so the speed
    // in all and the price per token never count requests that are waiting.
    let asked = f64::from(plan.sequences_per_replica.max(1));
    let batch = match plan.kv.filter(|k| k.budget_bytes.is_some()) {
        Some(k) if k.max_concurrency > 0.0 => asked.min(k.max_concurrency.max(1.0)),
        _ => asked,
    };
    let class = weight_class(job.weights);
    let bw = f64::from(gpu.bandwidth_gb_s) * 1e9 * bandwidth_share(gpu, m, class);
    if bw <= 0.0 {
        return None;
    }
    let arch = job.arch;
    let layers = f64::from(arch.layers.max(1));
    let whole = job.footprint.get(1).0;
    // Weights kept in host RAM are read over the host's bandwidth: whole layers (llama.cpp `-ngl`
    // below the layer count: the first layers stay on the CPU) at the share a step reads of
    // every layer, routed experts (`--cpu-moe`, `--n-cpu-moe`) at the share of experts the batch
    // touches.
    let host = HostWeights::of(job);
    let mean_context = (job.context_tokens / 2).max(1);
    let kv =
        crate::budget::kv_cache::per_sequence(arch, mean_context, tp, job.kv_cache.bits()) as f64;
    let active = arch.active_param_count() as f64;
    let q_width = f64::from(arch.heads) * f64::from(arch.head_dim);
    let peak = peak_tflops(m, gpu, job.weights, engine) * 1e12;
    let overhead = layers * fitted::decode_layer_overhead_s(backend(gpu));
    // One forward step of the target over `rows` new tokens of each sequence (1 when decoding,
    // the proposals plus one when verifying a speculation): the weights (and the experts those
    // tokens touch) read once, each sequence's cache read once, the FLOPs of every row.
    let target_step = |rows: f64| {
        let tokens = batch * rows;
        let read = weight_bytes_read(job, whole, tokens);
        let layer_share = if whole == 0 {
            0.0
        } else {
            (host.layers.min(whole) as f64 / whole as f64).min(1.0)
        };
        let weights_host = (read * layer_share
            + host.experts as f64 * experts_touched(job.arch, tokens))
        .min(read);
        let weights_gpu = (read - weights_host) / tp as f64;
        let flops =
            tokens * (2.0 * active + 4.0 * layers * q_width * mean_context as f64) / tp as f64;
        let t_mem = (weights_gpu + batch * kv) / bw;
        let t_host = weights_host / (host.bandwidth_gb_s * 1e9);
        let t_compute = flops / (peak * fitted::GEMM_PREFILL_SHARE);
        let comm = 2.0 * layers * all_reduce_s(gpu, tp, tokens * f64::from(arch.hidden) * 2.0);
        let basis = if t_host > t_mem.max(t_compute) {
            Bound::HostMemory
        } else if t_compute > t_mem {
            Bound::Compute
        } else {
            Bound::Memory
        };
        (
            t_mem.max(t_compute) + t_host + overhead + comm,
            basis,
            weights_host,
        )
    };
    // Speculative decoding: each verification of `k` proposals costs one target step over
    // `k + 1` rows and `k` proposer steps (its weights and cache read, memory-bound), and
    // yields `Draft::tokens_per_step` tokens on average.
    let (step, basis, weights_host) = match job.draft {
        Some(d) => {
            let k = f64::from(d.num_tokens);
            let (verify, basis, host_read) = target_step(k + 1.0);
            let d_kv = d.kv_bytes(mean_context, tp, job.kv_cache.bits()) as f64;
            let d_read = d.weights_per_gpu(tp) as f64 * read_share(&d.arch, batch);
            let d_step = (d_read + batch * d_kv) / bw
                + f64::from(d.arch.layers) * fitted::decode_layer_overhead_s(backend(gpu));
            (
                (verify + k * d_step) / d.tokens_per_step(),
                basis,
                host_read,
            )
        }
        None => target_step(1.0),
    };
    let prompt = job.context_tokens.max(1) as f64;
    let prefill_s = prefill_seconds(job, gpu, m, engine, prompt, tp)
        + comm_prefill(gpu, job, tp)
        + host.prefill_copy_s(job, prompt);
    // The calibration rows all hold their weights on the GPUs and decode without a proposer: a
    // plan reading host RAM or speculating is outside what they measured.
    let calibrated =
        llama_cpp && weights_host == 0.0 && job.draft.is_none() && plan.per_card.is_empty();
    let band = |b: u32| {
        if calibrated {
            b
        } else {
            (f64::from(b) * fitted::UNCALIBRATED_BAND_FACTOR).ceil() as u32
        }
    };
    let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
    Some(ServingSpeed {
        decode_tokens_per_s: finite(1.0 / step),
        decode_tokens_per_s_total: finite(batch * replicas / step),
        prefill_tokens_per_s: finite(prompt / prefill_s),
        time_to_first_token_ms: finite((prefill_s + step) * 1e3),
        error_band_percent: band(fitted::DECODE_BAND_PERCENT),
        prefill_error_band_percent: band(fitted::PREFILL_BAND_PERCENT),
        basis,
        calibrated,
    })
}

/// Seconds to prefill `tokens` of one prompt.
pub fn prefill_seconds(
    job: &Job,
    gpu: &Gpu,
    m: &GpuMarket,
    engine: Option<EngineKind>,
    tokens: f64,
    tp: u64,
) -> f64 {
    let arch = job.arch;
    let layers = f64::from(arch.layers.max(1));
    let q_width = f64::from(arch.heads) * f64::from(arch.head_dim);
    let flops = (2.0 * arch.active_param_count() as f64 * tokens
        + 2.0 * layers * tokens * tokens * q_width)
        / tp as f64;
    let peak = peak_tflops(m, gpu, job.weights, engine);
    let rate = if engine == Some(EngineKind::LlamaCpp) {
        let class = weight_class(job.weights);
        fitted::prefill_scale(backend(gpu))
            * fitted::prefill_class_share(class)
            * peak.powf(fitted::PREFILL_EXPONENT)
    } else {
        peak * fitted::GEMM_PREFILL_SHARE
    };
    flops / (rate.max(1e-9) * 1e12) + layers * fitted::PREFILL_LAYER_OVERHEAD_S
}

/// All-reduce time of one prompt's prefill under tensor parallel.
fn comm_prefill(gpu: &Gpu, job: &Job, tp: u64) -> f64 {
    let bytes = job.context_tokens as f64 * f64::from(job.arch.hidden) * 2.0;
    2.0 * f64::from(job.arch.layers) * all_reduce_s(gpu, tp, bytes)
}
