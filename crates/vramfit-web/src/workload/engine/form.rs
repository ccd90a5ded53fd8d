//! The serving engine's knobs as text fields (named as the engine's own flags), and their
//! conversion to the core's `Engine`.

use crate::ui::field::{parse_decimal, parse_whole, Input, Problem};
use leptos::prelude::*;
use vramfit_core::num::shortest;
use vramfit_core::{
    AttnImplementation, CacheImplementation, CacheType, Engine, EngineKind, LlamaCpp, Sglang,
    Transformers, Vllm, VllmVersion,
};

/// Every engine knob as text (or a flag).
#[derive(Clone, Copy)]
pub struct EngineForm {
    /// Which engine (`None` = engine-neutral).
    pub engine: RwSignal<Option<EngineKind>>,
    /// vLLM `gpu_memory_utilization`.
    pub util: RwSignal<String>,
    /// vLLM `max_num_seqs`.
    pub max_num_seqs: RwSignal<String>,
    /// vLLM `max_num_batched_tokens` ("" = default).
    pub batched: RwSignal<String>,
    /// vLLM `--kv-cache-memory`, GiB ("" = sized by `gpu_memory_utilization`).
    pub kv_memory: RwSignal<String>,
    /// vLLM engine generation.
    pub version: RwSignal<String>,
    /// vLLM `--enforce-eager`.
    pub eager: RwSignal<bool>,
    /// SGLang `mem_fraction_static` ("" = default).
    pub mem_fraction: RwSignal<String>,
    /// SGLang `chunked_prefill_size` ("" = default).
    pub chunked: RwSignal<String>,
    /// llama.cpp `n_gpu_layers` ("" = all).
    pub ngl: RwSignal<String>,
    /// llama.cpp `n_ubatch`.
    pub ubatch: RwSignal<String>,
    /// llama.cpp `n_batch`.
    pub batch: RwSignal<String>,
    /// llama.cpp flash attention.
    pub flash_attn: RwSignal<bool>,
    /// llama.cpp cache type K.
    pub ctk: RwSignal<String>,
    /// llama.cpp cache type V.
    pub ctv: RwSignal<String>,
    /// llama.cpp `--kv-unified`.
    pub unified: RwSignal<bool>,
    /// llama.cpp `--n-cpu-moe` ("" = none).
    pub n_cpu_moe: RwSignal<String>,
    /// llama.cpp `--cpu-moe`.
    pub cpu_moe: RwSignal<bool>,
    /// Host RAM bandwidth for weights llama.cpp keeps there, GB/s ("" = the core's default).
    pub host_bandwidth: RwSignal<String>,
    /// Transformers `max_new_tokens`.
    pub new_tokens: RwSignal<String>,
    /// Transformers `attn_implementation`.
    pub attn: RwSignal<String>,
    /// Transformers `cache_implementation`.
    pub cache: RwSignal<String>,
}

fn opt(v: Option<u32>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

impl EngineForm {
    /// Fields showing `engine` (defaults for the engines not chosen).
    pub fn new(engine: Option<&Engine>) -> EngineForm {
        let v = match engine {
            Some(Engine::Vllm(v)) => v.clone(),
            _ => Vllm::default(),
        };
        let s = match engine {
            Some(Engine::Sglang(s)) => s.clone(),
            _ => Sglang::default(),
        };
        let l = match engine {
            Some(Engine::LlamaCpp(l)) => l.clone(),
            _ => LlamaCpp::default(),
        };
        let t = match engine {
            Some(Engine::Transformers(t)) => t.clone(),
            _ => Transformers::default(),
        };
        EngineForm {
            engine: RwSignal::new(engine.map(Engine::kind)),
            util: RwSignal::new(shortest(v.gpu_memory_utilization)),
            kv_memory: RwSignal::new(
                v.kv_cache_memory_bytes
                    .map(|b| shortest(vramfit_core::bytes::to_gib(b)))
                    .unwrap_or_default(),
            ),
            max_num_seqs: RwSignal::new(opt(v.max_num_seqs)),
            batched: RwSignal::new(opt(v.max_num_batched_tokens)),
            version: RwSignal::new(v.version.id().into()),
            eager: RwSignal::new(v.enforce_eager),
            mem_fraction: RwSignal::new(s.mem_fraction_static.map(shortest).unwrap_or_default()),
            chunked: RwSignal::new(opt(s.chunked_prefill_size)),
            ngl: RwSignal::new(opt(l.n_gpu_layers)),
            ubatch: RwSignal::new(l.n_ubatch.to_string()),
            batch: RwSignal::new(l.n_batch.to_string()),
            flash_attn: RwSignal::new(l.flash_attn),
            ctk: RwSignal::new(l.cache_type_k.id().to_string()),
            ctv: RwSignal::new(l.cache_type_v.id().to_string()),
            unified: RwSignal::new(l.kv_unified),
            n_cpu_moe: RwSignal::new(opt(l.n_cpu_moe)),
            cpu_moe: RwSignal::new(l.cpu_moe),
            host_bandwidth: RwSignal::new(l.host_bandwidth_gb_s.map(shortest).unwrap_or_default()),
            new_tokens: RwSignal::new(t.max_new_tokens.to_string()),
            attn: RwSignal::new(t.attn_implementation.id().to_string()),
            cache: RwSignal::new(t.cache_implementation.id().to_string()),
        }
    }

    /// The engine the fields describe, pushing a problem per bad field.
    pub fn engine(&self, problems: &mut Vec<(Input, Problem)>) -> Option<Engine> {
        let mut optional = |name: &'static str, text: String| -> Option<u32> {
            if text.trim().is_empty() {
                return None;
            }
            parse_whole(&text)
                .map_err(|p| problems.push((Input::Engine(name), p)))
                .ok()
        };
        match self.engine.get()? {
            EngineKind::Vllm => {
                let max_num_seqs = optional("max_num_seqs", self.max_num_seqs.get());
                let max_num_batched_tokens = optional("max_num_batched_tokens", self.batched.get());
                let util = match parse_decimal(&self.util.get()) {
                    Ok(u) => u,
                    Err(p) => {
                        problems.push((Input::Engine("gpu_memory_utilization"), p));
                        Vllm::default().gpu_memory_utilization
                    }
                };
                let text = self.kv_memory.get();
                let kv_cache_memory_bytes = if text.trim().is_empty() {
                    None
                } else {
                    match parse_decimal(&text) {
                        // A size no GPU has (zero, negative, absurd) reaches the core's range check,
                        // which names the field; nothing wraps.
                        Ok(gib) => Some(vramfit_core::bytes::gib_to_bytes(gib).unwrap_or(0)),
                        Err(p) => {
                            problems.push((Input::Engine("kv_cache_memory_bytes"), p));
                            None
                        }
                    }
                };
                Some(Engine::Vllm(Vllm {
                    gpu_memory_utilization: util,
                    kv_cache_memory_bytes,
                    max_num_seqs,
                    max_num_batched_tokens,
                    // The KV cache format has one control, the formats' KV select (the scenario's
                    // `kv_cache`), which the engine follows and the command prints.
                    kv_cache_dtype: None,
                    version: VllmVersion::from_id(&self.version.get()).unwrap_or_default(),
                    enforce_eager: self.eager.get(),
                    ..Vllm::default()
                }))
            }
            EngineKind::Sglang => {
                let chunked_prefill_size = optional("chunked_prefill_size", self.chunked.get());
                let text = self.mem_fraction.get();
                let mem_fraction_static = if text.trim().is_empty() {
                    None
                } else {
                    parse_decimal(&text)
                        .map_err(|p| problems.push((Input::Engine("mem_fraction_static"), p)))
                        .ok()
                };
                Some(Engine::Sglang(Sglang {
                    mem_fraction_static,
                    chunked_prefill_size,
                    kv_cache_dtype: None,
                    ..Sglang::default()
                }))
            }
            EngineKind::LlamaCpp => {
                let n_gpu_layers = optional("n_gpu_layers", self.ngl.get());
                let n_ubatch =
                    optional("n_ubatch", self.ubatch.get()).unwrap_or(LlamaCpp::default().n_ubatch);
                let n_batch =
                    optional("n_batch", self.batch.get()).unwrap_or(LlamaCpp::default().n_batch);
                let n_cpu_moe = optional("n_cpu_moe", self.n_cpu_moe.get());
                let host_bandwidth_gb_s = {
                    let text = self.host_bandwidth.get();
                    if text.trim().is_empty() {
                        None
                    } else {
                        parse_decimal(&text)
                            .map_err(|p| problems.push((Input::Engine("host_bandwidth_gb_s"), p)))
                            .ok()
                    }
                };
                Some(Engine::LlamaCpp(LlamaCpp {
                    n_gpu_layers,
                    n_ubatch,
                    n_batch,
                    flash_attn: self.flash_attn.get(),
                    cache_type_k: CacheType::from_id(&self.ctk.get()).unwrap_or_default(),
                    cache_type_v: CacheType::from_id(&self.ctv.get()).unwrap_or_default(),
                    kv_unified: self.unified.get(),
                    n_cpu_moe,
                    cpu_moe: self.cpu_moe.get(),
                    host_bandwidth_gb_s,
                    ..LlamaCpp::default()
                }))
            }
            EngineKind::Transformers => {
                let max_new_tokens = optional("max_new_tokens", self.new_tokens.get())
                    .unwrap_or(Transformers::default().max_new_tokens);
                Some(Engine::Transformers(Transformers {
                    max_new_tokens,
                    attn_implementation: AttnImplementation::from_id(&self.attn.get())
                        .unwrap_or_default(),
                    cache_implementation: CacheImplementation::from_id(&self.cache.get())
                        .unwrap_or_default(),
                    ..Transformers::default()
                }))
            }
        }
    }
}
