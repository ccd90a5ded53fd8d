//! The engines' command lines for a serving scenario: `vllm serve` (checkpoint, quantisation,
//! context with the model's documented rope scaling, sequences, the plan's fraction and tensor
//! parallelism, KV cache type) and `llama-server` (GGUF type, layers, context, slots, split).

use super::{gpus, repo, shape};
use crate::budget::draft::SpeculativeMethod;
use crate::inputs::format::WeightFormat;
use crate::scenario::{ModelSource, Scenario};
use crate::workloads::engine::Engine;

/// The `vllm serve` command line for the scenario: its checkpoint and quantisation, context,
/// sequences, tensor parallelism, KV cache type and the engine's own flags.
pub fn vllm_command(s: &Scenario) -> String {
    let (repo, _) = repo(s);
    let (context, sequences) = shape(s);
    let v = match &s.engine {
        Some(Engine::Vllm(v)) => v.clone(),
        _ => crate::workloads::engine::vllm::Vllm::default(),
    };
    let (note, quantization) = match s.weights {
        WeightFormat::BnbNf4 { .. } | WeightFormat::BnbFp4 { .. } | WeightFormat::BnbInt8 => {
            ("", Some("bitsandbytes"))
        }
        WeightFormat::Fp8 | WeightFormat::Fp8Block => ("", Some("fp8")),
        WeightFormat::Awq { .. } => (
            "# MODEL must be an AWQ checkpoint of the model (its config.json names the quantisation).\n",
            Some("awq"),
        ),
        WeightFormat::Gptq { .. } => (
            "# MODEL must be a GPTQ checkpoint of the model (its config.json names the quantisation).\n",
            Some("gptq"),
        ),
        WeightFormat::Mxfp4 => ("# MODEL must be an MXFP4 checkpoint (e.g. gpt-oss).\n", None),
        WeightFormat::Gguf(_) => (
            "# GGUF is served by llama.cpp (see llama-server); vLLM loads the original weights here.\n",
            None,
        ),
        _ => ("", None),
    };
    // A pre-quantised format needs a pre-quantised checkpoint: the base repo with `--quantization
    // awq` does not load. The catalog knows uploads by their names only, so the command says so
    // instead of printing a command that fails.
    let (note, repo) = match (s.weights, &s.model) {
        (WeightFormat::Awq { .. } | WeightFormat::Gptq { .. }, Some(ModelSource::Catalog(id)))
            if !id.contains('/') =>
        {
            let kind = if matches!(s.weights, WeightFormat::Awq { .. }) {
                "AWQ"
            } else {
                "GPTQ"
            };
            (
                format!("# vramfit knows no {kind} upload of {repo} by id: quantise it yourself, or pick one on the Hub\n# (its name usually ends in -{kind}) and put its id in place of {kind}_REPO.\n"),
                format!("{kind}_REPO"),
            )
        }
        _ => (note.to_string(), repo),
    };
    let (rope, rope_flag, context) = rope_scaling(s, context);
    // Without a card the plan shown is the recommendation's: its fraction (lowered to leave the
    // headroom, when the search did) and its cards are what the command must set.
    let (fraction, tp) = match (&s.hardware.gpu, s.hardware.gpu_memory_gib) {
        (None, None) => crate::estimate::estimate_without_fixes(s)
            .ok()
            .and_then(|e| e.plan)
            .map_or((v.gpu_memory_utilization, gpus(s)), |p| {
                let tp = if p.split == crate::plans::plan::Split::TensorParallel {
                    p.count
                } else {
                    1
                };
                (p.engine_fraction.unwrap_or(v.gpu_memory_utilization), tp)
            }),
        _ => (v.gpu_memory_utilization, gpus(s)),
    };
    // `--kv-cache-memory` replaces the fraction (vLLM ignores it then).
    let pool = match v.kv_cache_memory_bytes {
        Some(b) => format!("--kv-cache-memory {b}"),
        None => format!(
            "--gpu-memory-utilization {}",
            crate::units::num::shortest(fraction)
        ),
    };
    let mut cmd = format!(
        "{note}{rope}vllm serve {repo} \\\n  --max-model-len {} \\\n  --max-num-seqs {} \\\n  {pool} \\\n  --tensor-parallel-size {}",
        v.max_model_len.unwrap_or(context),
        v.max_num_seqs.unwrap_or(sequences.max(1)),
        v.tensor_parallel_size.unwrap_or(tp),
    );
    if let Some(q) = quantization {
        cmd.push_str(&format!(" \\\n  --quantization {q}"));
    }
    if let Some(flag) = rope_flag {
        cmd.push_str(&format!(" \\\n  {flag}"));
    }
    match s.weights {
        WeightFormat::Fp16 => cmd.push_str(" \\\n  --dtype float16"),
        WeightFormat::Fp32 => cmd.push_str(" \\\n  --dtype float32"),
        _ => {}
    }
    if let Some(t) = v.max_num_batched_tokens {
        cmd.push_str(&format!(" \\\n  --max-num-batched-tokens {t}"));
    }
    let fp8_kv = s.engine.as_ref().is_some_and(Engine::asks_fp8_kv)
        || s.kv_cache == Some(crate::inputs::kv_format::KvCacheFormat::Fp8);
    if fp8_kv {
        cmd.push_str(" \\\n  --kv-cache-dtype fp8");
    }
    if v.enforce_eager {
        cmd.push_str(" \\\n  --enforce-eager");
    }
    if let Some(r) = v.max_lora_rank {
        cmd.push_str(&format!(" \\\n  --enable-lora --max-lora-rank {r}"));
    }
    if let Some(spec) = &s.speculative {
        let config = match spec.method {
            SpeculativeMethod::Mtp => format!(
                r#"{{"method":"mtp","num_speculative_tokens":{}}}"#,
                spec.tokens()
            ),
            SpeculativeMethod::DraftModel => format!(
                r#"{{"model":"{}","num_speculative_tokens":{}}}"#,
                super::repo_of(spec.draft.as_ref()).0,
                spec.tokens()
            ),
        };
        cmd.push_str(&format!(" \\\n  --speculative-config '{config}'"));
    }
    cmd
}

/// For a context past the model's `max_position_embeddings` (which vLLM refuses): the model's
/// documented YaRN scaling as a `--rope-scaling` flag (Qwen2.5 / Qwen3 model cards: `rope_type
/// yarn`, `original_max_position_embeddings` 32768, factor up to 4), with the context kept; for
/// other models a warning, and the context lowered to what the model was trained for.
fn rope_scaling(s: &Scenario, context: u32) -> (String, Option<String>, u32) {
    let Ok((arch, _)) = crate::estimate::resolve_model(s.model.as_ref()) else {
        return (String::new(), None, context);
    };
    if context <= arch.max_position {
        return (String::new(), None, context);
    }
    use crate::inputs::model::Family;
    let yarn = matches!(
        arch.family,
        Family::Qwen2 | Family::Qwen3 | Family::Qwen3Moe
    );
    let original = 32_768u32;
    let factor = f64::from(context) / f64::from(original);
    if yarn && factor <= 4.0 {
        let factor = (factor * 10.0).ceil() / 10.0;
        (
            format!("# {context} tokens is past the model's {} positions: its model card's YaRN scaling is on.\n", arch.max_position),
            Some(format!("--rope-scaling '{{\"rope_type\":\"yarn\",\"factor\":{},\"original_max_position_embeddings\":{original}}}'", crate::units::num::shortest(factor))),
            context,
        )
    } else {
        (
            format!("# {context} tokens is past the model's {} positions and vLLM refuses it; no scaling is documented for it,\n# so the command keeps the model's own length.\n", arch.max_position),
            None,
            arch.max_position,
        )
    }
}

/// The GGUF file type that matches the scenario's weights (the preset itself for GGUF formats;
/// MXFP4 as gpt-oss's GGUF files keep it; otherwise the llama.cpp type of the same bits: BF16,
/// F16, Q8_0, Q4_K_M).
fn gguf_type(w: WeightFormat) -> String {
    match w {
        WeightFormat::Gguf(p) => p.id().to_ascii_uppercase(),
        WeightFormat::Mxfp4 => "MXFP4".into(),
        WeightFormat::Bf16 => "BF16".into(),
        WeightFormat::Fp16 | WeightFormat::Fp32 => "F16".into(),
        _ if w.nominal_bits() >= 8 => "Q8_0".into(),
        _ => "Q4_K_M".into(),
    }
}

/// The `llama-server` command line for the scenario: the GGUF type chosen, `-ngl`, `-c`, `-np`,
/// the batch sizes, flash attention and the KV cache types, split over the plan's GPUs.
pub fn llama_server_command(s: &Scenario) -> String {
    let (repo, _) = repo(s);
    let (context, sequences) = shape(s);
    let l = match &s.engine {
        Some(Engine::LlamaCpp(l)) => l.clone(),
        _ => crate::workloads::engine::llama_cpp::LlamaCpp::default(),
    };
    let name = repo.rsplit('/').next().unwrap_or("model");
    let quant = gguf_type(s.weights);
    let n_parallel = l.n_parallel.unwrap_or(sequences.max(1));
    let n_ctx = l
        .n_ctx
        .map_or(u64::from(context) * u64::from(n_parallel), u64::from);
    let ngl = l.n_gpu_layers.map_or("999".to_string(), |n| n.to_string());
    // A mixed machine's split as llama.cpp chooses it by default (each card's free memory as the
    // estimate placed it, in GiB to a tenth), printed so the run is the one estimated.
    let context = s.hardware.cuda_context_bytes();
    let ratios: Vec<String> = s
        .hardware
        .mixed_ids()
        .iter()
        .filter_map(|id| crate::inputs::catalog::gpu(id))
        .map(|g| {
            let free = crate::plans::plan::free_at_load(g.capacity_bytes(), context);
            format!("{:.1}", crate::units::bytes::to_gib(free))
        })
        .collect();
    let split = if ratios.len() > 1 {
        format!(
            " \\\n  --split-mode layer --tensor-split {}",
            ratios.join(",")
        )
    } else if gpus(s) > 1 {
        format!(
            " \\\n  --split-mode layer --tensor-split {}",
            vec!["1"; gpus(s) as usize].join(",")
        )
    } else {
        String::new()
    };
    // The experts flag as the estimate read it: all layers, the first N, or none.
    let cpu_moe = if l.cpu_moe {
        " \\\n  --cpu-moe".to_string()
    } else {
        l.n_cpu_moe
            .filter(|n| *n > 0)
            .map_or(String::new(), |n| format!(" \\\n  --n-cpu-moe {n}"))
    };
    // `-md`: the draft's GGUF in its own format (the target's unless the scenario names one).
    let draft = s
        .speculative
        .as_ref()
        .filter(|spec| spec.method == SpeculativeMethod::DraftModel)
        .map_or(String::new(), |spec| {
            let (draft_repo, _) = super::repo_of(spec.draft.as_ref());
            let draft_name = draft_repo.rsplit('/').next().unwrap_or("draft");
            let draft_quant = gguf_type(spec.draft_weights.unwrap_or(s.weights));
            format!(
                " \\\n  -md {draft_name}-{draft_quant}.gguf --draft-max {}",
                spec.tokens()
            )
        });
    format!(
        "llama-server -m {name}-{quant}.gguf \\\n  -c {n_ctx} -np {n_parallel} -ngl {ngl} \\\n  -b {} -ub {} -fa {} \\\n  -ctk {} -ctv {}{}{cpu_moe}{draft}{split}",
        l.n_batch,
        l.n_ubatch,
        if l.flash_attn { "on" } else { "off" },
        l.cache_type_k.id(),
        l.cache_type_v.id(),
        if l.kv_unified { " --kv-unified" } else { "" },
    )
}
