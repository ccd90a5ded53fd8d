//! Every user-visible sentence, in English, with one exhaustive `match` per core enum: a new
//! variant in the core does not compile until it has words here.

use crate::form::Problem;
use crate::format::{gib, percent};
use vramfit_core::budget::ComponentId;
use vramfit_core::engine::StartFailure;
use vramfit_core::format::WeightFormat;
use vramfit_core::import::hf_config::ConfigError;
use vramfit_core::plan::{Plan, Split, Verdict};
use vramfit_core::scenario::RangeError;
use vramfit_core::warning::Warning;

/// Name of a component.
pub fn component(id: ComponentId) -> &'static str {
    match id {
        ComponentId::Weights => "Weights",
        ComponentId::KvCache => "KV cache",
        ComponentId::Activations => "Activations",
        ComponentId::CudaContext => "CUDA context",
        ComponentId::CublasWorkspace => "cuBLAS workspace",
        ComponentId::CommunicationBuffers => "NCCL buffers",
        ComponentId::AllocatorReserve => "Allocator reserve",
        ComponentId::EngineOverhead => "Engine overhead",
        ComponentId::LoraAdapters => "LoRA adapter slots",
        ComponentId::CudaGraphs => "CUDA graphs",
        ComponentId::RequestPool => "Request pool",
    }
}

/// What a component is and what moves it.
pub fn component_why(id: ComponentId) -> &'static str {
    match id {
        ComponentId::Weights => "Every parameter at its storage format. Grows with model size; shrinks with a smaller format (int8, int4) at some cost in quality, or by splitting over GPUs.",
        ComponentId::KvCache => "Keys and values of every token of every active sequence. Grows with context × concurrent sequences; shrinks with fewer sequences, a shorter context, or an fp8 cache.",
        ComponentId::Activations => "The largest transient working set of one forward step: the prefill chunk through the MLP, or the logits and sampling of all sequences. Grows with the chunk size and sequences × vocabulary.",
        ComponentId::CudaContext => "The driver context and loaded kernels. Not visible to torch.cuda.memory_allocated(); compare with nvidia-smi.",
        ComponentId::CublasWorkspace => "Scratch space the matrix-multiply library keeps (32 MiB on Hopper and newer, 8 MiB before).",
        ComponentId::CommunicationBuffers => "NCCL buffers for the all-reduce between GPUs that split the model.",
        ComponentId::AllocatorReserve => "Memory PyTorch's caching allocator holds beyond live tensors: segment rounding. Grows with fragmentation over long runs.",
        ComponentId::EngineOverhead => "Memory outside PyTorch that the engine's profiler counts against its budget (kernel images loaded after start, library handles).",
        ComponentId::CudaGraphs => "Memory pool of the CUDA graphs captured for decoding, allocated after the KV cache (outside vLLM's budget). Shrinks with fewer max_num_seqs; disappears with enforce_eager, at a speed cost.",
        ComponentId::LoraAdapters => "Buffers for max_loras adapters of max_lora_rank, allocated while the weights load. Grows with the rank and the number of slots.",
        ComponentId::RequestPool => "SGLang's req_to_token table: one int32 per token slot of every possible request. Grows with context length.",
    }
}

/// A warning.
pub fn warning(w: &Warning) -> String {
    match w {
        Warning::WithinHeadroom => "The budget only fits by eating into the headroom. An estimate this close to the card's capacity will fail in practice: lower the context or the sequences, pick a smaller format, or a larger card.".into(),
        Warning::DoesNotFit => "The budget is larger than the card. Lower the context or the sequences, pick a smaller format, or use the recommended plan.".into(),
        Warning::NoPlanFits => "No catalog card holds this, even eight of them in tensor parallel. Reduce context, sequences or the weight format.".into(),
        Warning::ContextBeyondModel { max_position } => format!("The context is longer than the model's trained maximum ({max_position} tokens)."),
        Warning::KvCacheDominates => "The KV cache is larger than the weights: context and concurrency drive this budget, not model size.".into(),
        Warning::TensorParallelIndivisible { heads, kv_heads, count } => format!("{count} GPUs cannot split {heads} query / {kv_heads} KV heads evenly, so each card runs a full copy (replicas) instead of one model split across them."),
        Warning::PcieOnly => "These cards talk over PCIe only: tensor parallelism works, but every layer's all-reduce crosses PCIe and slows generation.".into(),
        Warning::QuantizedWeights => "Quantised weights: check output quality on your own evaluation set before relying on this format.".into(),
        Warning::ConcurrencyBelowSequences { max_concurrency_centi, sequences } => format!("The engine's KV cache holds {:.2} requests of the full context at once, fewer than the {sequences} sequences asked for: the rest will wait. Raise the memory fraction, shorten the context, use an fp8 cache or a larger card.", *max_concurrency_centi as f64 / 100.0),
        Warning::HostMemory { bytes } => format!("The engine also needs {} GiB of host RAM (the token embedding, offloaded layers and their KV cache, host buffers). Budget the machine's RAM, not only the GPU.", gib(*bytes)),
        Warning::EngineWillNotStart { failure } => start_failure(failure),
    }
}

/// Why an engine would refuse to start.
pub fn start_failure(f: &StartFailure) -> String {
    match f {
        StartFailure::NoRoomForKvCache => "The engine will not start: weights, activations and overhead already fill its memory budget, leaving nothing for the KV cache.".into(),
        StartFailure::MaxModelLenTooLong { kv_tokens, max_model_len } => format!("The engine will not start: its KV cache holds {kv_tokens} tokens, less than one request of max_model_len = {max_model_len}. Lower the context or raise the memory fraction."),
        StartFailure::BudgetExceedsFreeMemory => "The engine will not start: the requested memory fraction plus the CUDA context exceed the card. Lower gpu_memory_utilization.".into(),
    }
}

/// Display name of an engine select value.
pub fn engine_name(id: &str) -> &'static str {
    match id {
        "vllm" => "vLLM",
        "sglang" => "SGLang",
        "llama_cpp" => "llama.cpp",
        "transformers" => "Transformers generate()",
        _ => "Any (engine-neutral estimate)",
    }
}

/// One line on how the engine allocates.
pub fn engine_hint(id: &str) -> &'static str {
    match id {
        "vllm" => "Claims gpu_memory_utilization × the card at start-up; the KV cache is whatever is left after weights and the profile run.",
        "sglang" => "Claims mem_fraction_static × the free memory for weights and the KV pool; activations and CUDA graphs use the rest.",
        "llama_cpp" => "Allocates model buffers, an n_ctx-cell KV buffer and a compute buffer; layers beyond -ngl stay in host RAM.",
        "transformers" => "Grows the cache token by token; the peak is the full cache plus one layer's working set.",
        _ => "Budget for the sequences × context you enter, without an engine's own pre-allocation.",
    }
}

/// Picker label of a weight format.
pub fn format_label(f: WeightFormat) -> String {
    match f {
        WeightFormat::Fp32 => "fp32".into(),
        WeightFormat::Bf16 => "bf16".into(),
        WeightFormat::Fp16 => "fp16".into(),
        WeightFormat::Fp8 => "FP8 (per-tensor scale)".into(),
        WeightFormat::Fp8Block => "FP8 (128×128 block scales)".into(),
        WeightFormat::Int8 => "int8 (nominal, no metadata)".into(),
        WeightFormat::Int4 => "int4 (nominal, no metadata)".into(),
        WeightFormat::Gptq { bits, group } => format!("GPTQ int{bits}, group {group}"),
        WeightFormat::Awq { group } => format!("AWQ int4, group {group}"),
        WeightFormat::BnbInt8 => "bitsandbytes int8".into(),
        WeightFormat::BnbNf4 { double_quant } => format!(
            "bitsandbytes NF4{}",
            if double_quant { " + double quant" } else { "" }
        ),
        WeightFormat::BnbFp4 { double_quant } => format!(
            "bitsandbytes FP4{}",
            if double_quant { " + double quant" } else { "" }
        ),
        WeightFormat::Mxfp4 => "MXFP4 experts (gpt-oss)".into(),
        WeightFormat::Gguf(p) => format!("GGUF {}", p.id().to_uppercase()),
    }
}

/// A field problem.
pub fn problem(p: &Problem) -> String {
    match p {
        Problem::Empty => "Enter a value.".into(),
        Problem::NotWholeNumber => "Enter a whole number, like 8192.".into(),
        Problem::NotNumber => "Enter a number, like 24 or 79.2.".into(),
        Problem::Range(RangeError::TooSmall { min }) => format!("Must be at least {min}."),
        Problem::Range(RangeError::TooLarge { max }) => format!("Must be at most {max}."),
        Problem::Range(RangeError::Invalid) => {
            "Choose either a catalog card or a memory size.".into()
        }
        Problem::Config(e) => config_error(e),
    }
}

/// A config.json problem.
pub fn config_error(e: &ConfigError) -> String {
    match e {
        ConfigError::NotJson { line, column } => format!("This is not valid JSON (line {line}, column {column})."),
        ConfigError::NotAnObject => "config.json must be a JSON object ({ … }).".into(),
        ConfigError::MissingKey { key } => format!("config.json has no \"{key}\"."),
        ConfigError::InvalidValue { key } => format!("\"{key}\" must be a positive whole number."),
        ConfigError::UnsupportedModelType { model_type } => format!("Model type \"{model_type}\" is not supported yet (llama, mistral, qwen2, qwen3, gemma2, gemma3, phi3 are)."),
        ConfigError::InconsistentHeads => "The head counts do not fit together (hidden_size / num_attention_heads / num_key_value_heads).".into(),
    }
}

/// Name of a plan's card.
pub fn card_name(plan: &Plan) -> String {
    match plan.card.gpu.and_then(vramfit_core::catalog::gpu) {
        Some(g) => g.name.to_string(),
        None => format!("a {} GiB card", gib(plan.card.capacity_bytes)),
    }
}

/// "2 × NVIDIA H100 (tensor parallel)".
pub fn plan_title(plan: &Plan) -> String {
    let how = match plan.split {
        Split::Single => "",
        Split::TensorParallel => " (tensor parallel)",
        Split::Replicas => " (replicas)",
        Split::Layers => " (layers split)",
    };
    format!("{} × {}{how}", plan.count, card_name(plan))
}

/// The one-sentence verdict.
pub fn verdict(plan: &Plan) -> String {
    let used = plan.per_gpu_bytes;
    let cap = plan.card.capacity_bytes;
    let title = plan_title(plan);
    if let (Verdict::Tight, Some(kv)) = (plan.verdict, plan.kv.filter(|k| k.budget_bytes.is_some()))
    {
        return format!(
            "Runs on {title}, but its KV cache holds {:.2} full-context requests at once, fewer than the {} sequences asked for.",
            kv.max_concurrency, plan.sequences_per_replica
        );
    }
    match plan.verdict {
        Verdict::Fits => format!(
            "Fits on {title}: {} GiB of {} GiB per GPU, {} GiB free ({}).",
            gib(used), gib(cap), gib(cap - used), percent(cap - used, cap)
        ),
        Verdict::Tight => format!(
            "Tight on {title}: {} GiB of {} GiB per GPU leaves only {} GiB ({}), less than your headroom.",
            gib(used), gib(cap), gib(cap - used), percent(cap - used, cap)
        ),
        Verdict::DoesNotFit => format!(
            "Does not fit on {title}: needs {} GiB per GPU, the card has {} GiB.",
            gib(used), gib(cap)
        ),
    }
}

/// Icon that goes with the verdict (always beside words, never alone).
pub fn verdict_icon(v: Verdict) -> &'static str {
    match v {
        Verdict::Fits => "✔",
        Verdict::Tight => "⚠",
        Verdict::DoesNotFit => "✖",
    }
}

/// Short word for a verdict.
pub fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Fits => "fits",
        Verdict::Tight => "tight",
        Verdict::DoesNotFit => "does not fit",
    }
}
