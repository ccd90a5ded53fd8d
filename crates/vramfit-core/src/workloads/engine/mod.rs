//! Serving engines: how each one allocates memory, so the estimate predicts what the engine itself
//! will report at start-up. One module per engine, each citing the engine's source.
//!
//! - [`vllm`]: pre-allocates `total × gpu_memory_utilization`; the KV cache is what is left after
//!   weights, non-torch memory and the profile run's activation peak.
//! - [`sglang`]: weights + KV pool ≈ `mem_fraction_static × free memory before loading`.
//! - [`llama_cpp`]: model buffers per device, a KV buffer of `n_ctx` cells, a compute buffer sized
//!   by `n_ubatch`; `n_gpu_layers` partial offload moves layers (and their KV) to host RAM.
//! - [`transformers`]: `generate` with a growing cache: weights + cache + one layer's working set.
//!
//! Without an engine, [`crate::budget::serving_components`] gives an engine-neutral budget for the scenario's
//! sequences × context.

mod inference;
pub mod llama_cpp;
pub mod sglang;
pub mod transformers;
pub mod vllm;

use crate::budget::{BudgetInputs, Card, ComponentId, GpuBudget};
use crate::units::limits::{check_range, Field, RangeError, MAX_CONTEXT_TOKENS};

pub use inference::Inference;
use serde::{Deserialize, Serialize};

/// A serving engine and its settings (the scenario's `engine` object).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    /// vLLM.
    Vllm(vllm::Vllm),
    /// SGLang.
    Sglang(sglang::Sglang),
    /// llama.cpp (`llama-server` / `llama-cli`).
    LlamaCpp(llama_cpp::LlamaCpp),
    /// Hugging Face Transformers `generate`.
    Transformers(transformers::Transformers),
}

/// Which serving engine, without its settings: the closed set the UI lists and the software
/// stack is checked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineKind {
    /// vLLM.
    Vllm,
    /// SGLang.
    Sglang,
    /// llama.cpp.
    LlamaCpp,
    /// Hugging Face Transformers.
    Transformers,
}

impl EngineKind {
    /// Every engine, in the order the UI offers them.
    pub const ALL: [EngineKind; 4] = [
        EngineKind::Vllm,
        EngineKind::Sglang,
        EngineKind::LlamaCpp,
        EngineKind::Transformers,
    ];

    /// The stable id: the scenario's key for the engine (`vllm`, `sglang`, `llama_cpp`,
    /// `transformers`).
    pub fn id(self) -> &'static str {
        match self {
            EngineKind::Vllm => "vllm",
            EngineKind::Sglang => "sglang",
            EngineKind::LlamaCpp => "llama_cpp",
            EngineKind::Transformers => "transformers",
        }
    }

    /// The product's name (`vLLM`, `SGLang`, `llama.cpp`, `Transformers`): a name, not a
    /// sentence, the same in every language.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Vllm => "vLLM",
            EngineKind::Sglang => "SGLang",
            EngineKind::LlamaCpp => "llama.cpp",
            EngineKind::Transformers => "Transformers",
        }
    }

    /// The engine whose [`EngineKind::id`] is `id`.
    pub fn from_id(id: &str) -> Option<EngineKind> {
        EngineKind::ALL.into_iter().find(|k| k.id() == id)
    }
}

impl Engine {
    /// Which engine this is.
    pub fn kind(&self) -> EngineKind {
        match self {
            Engine::Vllm(_) => EngineKind::Vllm,
            Engine::Sglang(_) => EngineKind::Sglang,
            Engine::LlamaCpp(_) => EngineKind::LlamaCpp,
            Engine::Transformers(_) => EngineKind::Transformers,
        }
    }

    /// The engine of `kind` at its own defaults.
    pub fn default_of(kind: EngineKind) -> Engine {
        match kind {
            EngineKind::Vllm => Engine::Vllm(vllm::Vllm::default()),
            EngineKind::Sglang => Engine::Sglang(sglang::Sglang::default()),
            EngineKind::LlamaCpp => Engine::LlamaCpp(llama_cpp::LlamaCpp::default()),
            EngineKind::Transformers => Engine::Transformers(transformers::Transformers::default()),
        }
    }

    /// Whether the engine's own flag asks for an fp8 KV cache (vLLM / SGLang
    /// `--kv-cache-dtype fp8…`).
    pub fn asks_fp8_kv(&self) -> bool {
        match self {
            Engine::Vllm(v) => v.kv_cache_dtype.as_deref(),
            Engine::Sglang(s) => s.kv_cache_dtype.as_deref(),
            Engine::LlamaCpp(_) | Engine::Transformers(_) => None,
        }
        .is_some_and(|d| d.starts_with("fp8"))
    }

    /// Whether the KV pool's bytes are set directly (vLLM `--kv-cache-memory`): the engine then
    /// claims no fraction and does not size its own pool.
    pub fn kv_pool_is_set(&self) -> bool {
        matches!(self, Engine::Vllm(v) if v.kv_cache_memory_bytes.is_some())
    }

    /// The name of the engine's setting for the share of the card it claims (SGLang's
    /// `mem_fraction_static`; vLLM's `gpu_memory_utilization`, the name the others' fixes borrow).
    pub fn fraction_setting(engine: Option<&Engine>) -> &'static str {
        match engine {
            Some(Engine::Sglang(_)) => "mem_fraction_static",
            _ => "gpu_memory_utilization",
        }
    }

    /// The tensor-parallel size the engine is set to use, if it says.
    pub fn tensor_parallel(&self) -> Option<u32> {
        match self {
            Engine::Vllm(v) => v.tensor_parallel_size,
            Engine::Sglang(s) => s.tp_size,
            Engine::LlamaCpp(_) | Engine::Transformers(_) => None,
        }
    }
}

impl Engine {
    /// Range checks of the engine's settings, each named by its flag.
    pub fn validate(&self) -> Vec<(Field, RangeError)> {
        validate(self)
    }
}

fn validate(engine: &Engine) -> Vec<(Field, RangeError)> {
    let mut errs = Vec::new();
    let mut check = |name, v: f64, min: f64, max: f64| {
        if let Err(e) = check_range(v, min, max) {
            errs.push((Field::Engine(name), e));
        }
    };
    let big = f64::from(MAX_CONTEXT_TOKENS);
    let opt = |v: Option<u32>| v.map(f64::from);
    match engine {
        Engine::Vllm(v) => {
            check(
                "gpu_memory_utilization",
                v.gpu_memory_utilization,
                0.05,
                1.0,
            );
            for (n, x, min, max) in [
                ("max_model_len", opt(v.max_model_len), 16.0, big),
                ("max_num_seqs", opt(v.max_num_seqs), 1.0, 100_000.0),
                (
                    "max_num_batched_tokens",
                    opt(v.max_num_batched_tokens),
                    16.0,
                    big,
                ),
                (
                    "tensor_parallel_size",
                    opt(v.tensor_parallel_size),
                    1.0,
                    64.0,
                ),
            ] {
                if let Some(x) = x {
                    check(n, x, min, max);
                }
            }
            if let Some(b) = v.kv_cache_memory_bytes {
                // 0.25 GiB (a bound the page shows in GiB, as the field is typed) to 16 TiB: past
                // any card, short of a u64 overflow in the sums.
                check(
                    "kv_cache_memory_bytes",
                    b as f64,
                    (1u64 << 28) as f64,
                    (1u64 << 44) as f64,
                );
            }
            if !matches!(
                v.kv_cache_dtype.as_deref(),
                None | Some("auto" | "fp8" | "fp8_e4m3" | "fp8_e5m2")
            ) {
                errs.push((Field::Engine("kv_cache_dtype"), RangeError::Invalid));
            }
            for (name, value) in [
                ("mamba_cache_dtype", &v.mamba_cache_dtype),
                ("mamba_ssm_cache_dtype", &v.mamba_ssm_cache_dtype),
            ] {
                if !matches!(
                    value.as_deref(),
                    None | Some("auto" | "float32" | "float16" | "bfloat16")
                ) {
                    errs.push((Field::Engine(name), RangeError::Invalid));
                }
            }
        }
        Engine::Sglang(s) => {
            if let Some(r) = s.mamba_full_memory_ratio {
                check("mamba_full_memory_ratio", r, 0.01, 100.0);
            }
            if let Some(n) = s.max_mamba_cache_size {
                check("max_mamba_cache_size", f64::from(n), 1.0, 1_000_000.0);
            }
            if let Some(m) = s.mem_fraction_static {
                check("mem_fraction_static", m, 0.05, 1.0);
            }
            for (n, x, min, max) in [
                ("context_length", opt(s.context_length), 16.0, big),
                (
                    "chunked_prefill_size",
                    opt(s.chunked_prefill_size),
                    16.0,
                    big,
                ),
                ("tp_size", opt(s.tp_size), 1.0, 64.0),
                (
                    "max_running_requests",
                    opt(s.max_running_requests),
                    1.0,
                    100_000.0,
                ),
            ] {
                if let Some(x) = x {
                    check(n, x, min, max);
                }
            }
            if !matches!(
                s.kv_cache_dtype.as_deref(),
                None | Some("auto" | "fp8" | "fp8_e4m3" | "fp8_e5m2")
            ) {
                errs.push((Field::Engine("kv_cache_dtype"), RangeError::Invalid));
            }
        }
        Engine::LlamaCpp(l) => {
            if let Some(c) = l.n_ctx {
                check("n_ctx", f64::from(c), 1.0, big);
            }
            check("n_batch", f64::from(l.n_batch), 1.0, big);
            check("n_ubatch", f64::from(l.n_ubatch), 1.0, big);
            if let Some(p) = l.n_parallel {
                check("n_parallel", f64::from(p), 1.0, 4096.0);
            }
            if let Some(n) = l.n_cpu_moe {
                // llama.cpp takes any count (past the layers it means all); a bound that still
                // reads as a number of layers.
                check("n_cpu_moe", f64::from(n), 0.0, 4096.0);
            }
            if let Some(b) = l.host_bandwidth_gb_s {
                // From one DDR4 channel's reach to past any server's (12-channel DDR5 ≈ 600 GB/s).
                check("host_bandwidth_gb_s", b, 1.0, 2000.0);
            }
            if !l.flash_attn && l.cache_type_v.quantized() {
                // llama_context: "quantized V cache was requested, but this requires Flash Attention".
                errs.push((Field::Engine("cache_type_v"), RangeError::Invalid));
            }
        }
        Engine::Transformers(t) => {
            if let Some(b) = t.batch_size {
                check("batch_size", f64::from(b), 1.0, 100_000.0);
            }
            check("max_new_tokens", f64::from(t.max_new_tokens), 1.0, big);
        }
    }
    errs
}

/// One GPU's serving budget for `inp` on `card` under `engine` (engine-neutral when `None`).
pub fn serving_budget(engine: Option<&Engine>, inp: &BudgetInputs, card: &Card) -> GpuBudget {
    match engine {
        Some(Engine::Vllm(v)) => vllm::vllm_budget(v, inp, card),
        Some(Engine::Sglang(s)) => sglang::sglang_budget(s, inp, card),
        Some(Engine::LlamaCpp(l)) => llama_cpp::llama_cpp_budget(l, inp, card),
        Some(Engine::Transformers(t)) => with_draft(transformers::transformers_budget(t, inp), inp),
        None => with_draft(GpuBudget::of(crate::budget::serving_components(inp)), inp),
    }
}

/// A proposer beside an engine that allocates as it goes (Transformers' `assistant_model`, the
/// engine-neutral view): its weights, and its own cache for every sequence's whole context.
fn with_draft(mut b: GpuBudget, inp: &BudgetInputs) -> GpuBudget {
    if let Some(d) = inp.draft {
        let tp = inp.tp();
        let tokens = crate::units::bytes::mul(inp.context_tokens, inp.sequences);
        b.components.extend(crate::budget::components(&[
            (ComponentId::DraftWeights, d.weights_per_gpu(tp)),
            (
                ComponentId::DraftKvCache,
                d.kv_bytes(tokens, tp, inp.kv_cache.bits()),
            ),
        ]));
    }
    b
}

/// `tokens / max_len` as a ratio (the engines print it with two decimals).
pub(crate) fn ratio(tokens: u64, max_len: u64) -> f64 {
    if max_len == 0 {
        0.0
    } else {
        tokens as f64 / max_len as f64
    }
}

/// `fraction` (0–1, from a float setting) of `bytes`, rounded down, as the engines compute it.
pub(crate) fn fraction_of(bytes: u64, fraction: f64) -> u64 {
    if fraction.is_finite() && fraction > 0.0 {
        (bytes as f64 * fraction.min(1.0)) as u64
    } else {
        0
    }
}
