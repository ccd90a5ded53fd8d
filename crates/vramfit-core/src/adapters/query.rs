//! The scenario as URL query parameters, so a copied link reproduces the view exactly.
//!
//! One parameter per scenario field (the browser does the percent-encoding):
//!
//! | param | scenario field |
//! |---|---|
//! | `model` | `model.catalog` (a catalog id or a Hub repo id; empty: no model) |
//! | `config` | `model.hf_config` (compact JSON) |
//! | `weights`, `kv` | `weights`, `kv_cache` |
//! | `ctx`, `seqs`, `chunk` | `workload.inference.{context_tokens, sequences, prefill_chunk_tokens}` |
//! | `train` | `workload.train` (compact JSON) |
//! | `gpu` / `mem`, `n` | `hardware.{gpu, gpu_memory_gib, count}` |
//! | `cuda_ctx` | `hardware.cuda_context_mib` |
//! | `gpus` | `hardware.gpus` (compact JSON, e.g. `[{"gpu":"rtx-5090"},{"gpu":"rtx-4080"}]`) |
//! | `headroom` | `headroom_percent` |
//! | `engine` | `engine` (compact JSON, e.g. `{"vllm":{"gpu_memory_utilization":0.9}}`) |
//! | `unquantized` | `unquantized_modules` (compact JSON array) |
//! | `weights_bytes` | `weights_bytes` (exact tensor bytes from the user's file headers) |
//! | `prices` | `prices_usd_per_hour` (compact JSON, e.g. `{"l40s":0.79}`) |
//! | `rank` | `recommend_by` (`price`, `cost_per_token`, `speed`) |
//! | `from` | `recommend_from` (`cloud`, `marketplace`, `buy`) |
//! | `spec` | `speculative` (compact JSON, e.g. `{"method":"mtp","num_tokens":1}`) |
//!
//! Reading is forgiving: each parameter that is missing keeps the default, each that is invalid
//! (a hand-edited `ctx=-5`, an unknown `gpu=`) falls back to the default and yields a
//! [`QueryNote`] naming it, so the page never goes blank. Fallbacks repeat until the scenario
//! validates (a fallen-back `n` can make a training run's `tensor_parallel` too large in turn).
//! Unknown parameters are ignored (an embedding page may add its own).

use crate::inputs::catalog;
use crate::inputs::format::WeightFormat;
use crate::inputs::kv_format::KvCacheFormat;
use crate::scenario::{ModelSource, Scenario, Workload};
use crate::units::limits::DEFAULT_PREFILL_CHUNK_TOKENS;
use serde::Serialize;

/// A parameter that was present but unusable, and fell back to its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueryNote {
    /// The parameter name.
    pub param: String,
    /// The value found.
    pub value: String,
}

/// The scenario as `(param, value)` pairs; defaults are left out to keep links short.
pub fn to_pairs(s: &Scenario) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    // Image, video and custom jobs run no language model: their links carry no model, weights or
    // KV cache of one (a reader takes them as absent).
    if s.workload.needs_model() {
        match &s.model {
            Some(ModelSource::Catalog(id)) => out.push(("model", id.clone())),
            // What the reader never reads stays out of the link (`hf_config::compact`).
            Some(ModelSource::HfConfig(v)) => out.push((
                "config",
                crate::inputs::import::hf_config::compact(v).to_string(),
            )),
            // Without the parameter a link reads as the default model.
            None => out.push(("model", String::new())),
        }
        out.push(("weights", s.weights.id()));
        if let Some(kv) = s.kv_cache {
            out.push(("kv", kv.id().to_string()));
        }
    }
    match &s.workload {
        Workload::Inference(inf) => {
            out.push(("ctx", inf.context_tokens.to_string()));
            out.push(("seqs", inf.sequences.to_string()));
            if inf.prefill_chunk_tokens != DEFAULT_PREFILL_CHUNK_TOKENS {
                out.push(("chunk", inf.prefill_chunk_tokens.to_string()));
            }
        }
        Workload::Train(t) => out.push(("train", serde_json::to_string(t).unwrap_or_default())),
        Workload::Custom(c) => out.push(("custom", serde_json::to_string(c).unwrap_or_default())),
        Workload::GenerateImage(g) => {
            out.push(("image", serde_json::to_string(g).unwrap_or_default()))
        }
        Workload::GenerateVideo(g) => {
            out.push(("video", serde_json::to_string(g).unwrap_or_default()))
        }
    }
    if let Some(g) = &s.hardware.gpu {
        out.push(("gpu", g.clone()));
    }
    if let Some(m) = s.hardware.gpu_memory_gib {
        out.push(("mem", crate::units::num::shortest(m)));
    }
    if s.hardware.count != 1 {
        out.push(("n", s.hardware.count.to_string()));
    }
    if !s.hardware.gpus.is_empty() {
        out.push((
            "gpus",
            serde_json::to_string(&s.hardware.gpus).unwrap_or_default(),
        ));
    }
    if let Some(mib) = s.hardware.cuda_context_mib {
        out.push(("cuda_ctx", mib.to_string()));
    }
    out.push(("headroom", s.headroom_percent.to_string()));
    if let Some(e) = &s.engine {
        out.push(("engine", serde_json::to_string(e).unwrap_or_default()));
    }
    if let Some(bytes) = s.weights_bytes {
        out.push(("weights_bytes", bytes.to_string()));
    }
    if !s.unquantized_modules.is_empty() {
        out.push((
            "unquantized",
            serde_json::to_string(&s.unquantized_modules).unwrap_or_default(),
        ));
    }
    if !s.prices_usd_per_hour.is_empty() {
        out.push((
            "prices",
            serde_json::to_string(&s.prices_usd_per_hour).unwrap_or_default(),
        ));
    }
    if s.recommend_by != crate::scenario::RecommendBy::Price {
        out.push(("rank", s.recommend_by.id().to_string()));
    }
    if s.recommend_from != crate::scenario::DEFAULT_REACH {
        out.push(("from", s.recommend_from.id().to_string()));
    }
    if let Some(spec) = &s.speculative {
        out.push(("spec", serde_json::to_string(spec).unwrap_or_default()));
    }
    out
}

/// Fallback passes before giving up on the parameters altogether (each pass resets at least one
/// field to its default, and there are fewer fields than this).
const MAX_FALLBACK_PASSES: usize = 16;

/// Link parameters as `(name, value)`.
type Params<'a> = Vec<(&'a str, &'a str)>;

/// Reads pairs onto the default scenario, field by field. Returns the scenario and a note for each
/// unusable parameter. A `train` parameter switches the workload to training first, so the order
/// of parameters does not matter.
pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(pairs: &[(K, V)]) -> (Scenario, Vec<QueryNote>) {
    let mut s = Scenario::example();
    let mut notes = Vec::new();
    // Workload parameters first (they replace the workload the others then adjust), each group in
    // link order; a partition rather than a sort keeps a generic sort out of the wasm.
    let (workloads, rest): (Params, Params) = pairs
        .iter()
        .map(|(k, v)| (k.as_ref(), v.as_ref()))
        .partition(|(k, _)| matches!(*k, "train" | "custom" | "image" | "video"));
    let mut has_weights = false;
    for (k, v) in workloads.into_iter().chain(rest) {
        has_weights |= k == "weights";
        if !apply(&mut s, k, v) {
            notes.push(QueryNote {
                param: k.to_string(),
                value: v.to_string(),
            });
        }
    }
    // A hand-written link naming a pre-quantised repo without `weights=` gets the repo's format.
    if !has_weights {
        s.take_repo_format();
    }
    // A workload without a language model has none unless the link names one.
    let names_model = pairs
        .iter()
        .any(|(k, _)| matches!(k.as_ref(), "model" | "config"));
    if !s.workload.needs_model() && !names_model {
        s.model = None;
    }
    // A parameter can be valid alone yet out of range (checked by the scenario's own rules); a
    // fallback can in turn invalidate another field, so validate again until nothing is left.
    for _ in 0..MAX_FALLBACK_PASSES {
        let errors = s.validate();
        if errors.is_empty() {
            // An empty `model` is for workloads without one; a language model needs one.
            if s.model.is_none() && s.workload.needs_model() {
                s.model = Scenario::example().model;
                notes.push(QueryNote {
                    param: "model".into(),
                    value: String::new(),
                });
            }
            // A proposer the model cannot take (another vocabulary, MTP layers it does not ship,
            // an engine that runs no MTP) is only known once the models are resolved.
            if s.speculative.is_some() {
                if let Err(crate::estimate::ScenarioError::InvalidFields { fields }) =
                    crate::estimate::prepare(&s)
                {
                    fall_back(&mut s, &fields, &mut notes);
                }
            }
            return (s, notes);
        }
        fall_back(&mut s, &errors, &mut notes);
    }
    // Unreachable in practice: every pass clears at least one field.
    (Scenario::example(), notes)
}

/// Resets each field `errors` names to its default, with a note naming the parameter.
fn fall_back(
    s: &mut Scenario,
    errors: &[(
        crate::units::limits::Field,
        crate::units::limits::RangeError,
    )],
    notes: &mut Vec<QueryNote>,
) {
    let fallback = Scenario::example();
    for &(field, _) in errors {
        use crate::units::limits::Field;
        let (param, value) = match field {
            Field::ContextTokens | Field::Sequences | Field::PrefillChunkTokens => {
                let (Workload::Inference(inf), Workload::Inference(def)) =
                    (&mut s.workload, &fallback.workload)
                else {
                    continue;
                };
                let (p, v) = match field {
                    Field::ContextTokens => (
                        "ctx",
                        std::mem::replace(&mut inf.context_tokens, def.context_tokens),
                    ),
                    Field::Sequences => {
                        ("seqs", std::mem::replace(&mut inf.sequences, def.sequences))
                    }
                    _ => (
                        "chunk",
                        std::mem::replace(&mut inf.prefill_chunk_tokens, def.prefill_chunk_tokens),
                    ),
                };
                (p, v.to_string())
            }
            Field::Generation(name) => {
                // The workload stays what the link asked for: the field that failed takes the
                // starting value (the whole generation when that is not enough), and the note
                // names the field.
                let video = match s.workload {
                    Workload::GenerateImage(_) => false,
                    Workload::GenerateVideo(_) => true,
                    _ => continue,
                };
                let start = crate::workloads::diffusion::Generation::starting_point(video);
                let (Workload::GenerateImage(g) | Workload::GenerateVideo(g)) = &mut s.workload
                else {
                    continue;
                };
                let param = if video { "video" } else { "image" };
                let value = match name {
                    "width" | "height" if g.width != start.width || g.height != start.height => {
                        let old = format!("{}×{}", g.width, g.height);
                        (g.width, g.height) = (start.width, start.height);
                        old
                    }
                    "frames" if g.frames != start.frames => {
                        std::mem::replace(&mut g.frames, start.frames).to_string()
                    }
                    "batch" if g.batch != start.batch => {
                        std::mem::replace(&mut g.batch, start.batch).to_string()
                    }
                    "drop_text_encoders" if !g.drop_text_encoders.is_empty() => {
                        std::mem::take(&mut g.drop_text_encoders).join(",")
                    }
                    _ => {
                        let old = std::mem::replace(g, start);
                        serde_json::to_string(&old).unwrap_or_default()
                    }
                };
                notes.push(QueryNote {
                    param: format!("{param}.{name}"),
                    value,
                });
                continue;
            }
            Field::Train(_) | Field::Item(_) => {
                // Training and custom jobs keep their workload: its settings take their defaults.
                let (param, old) = match &mut s.workload {
                    Workload::Train(t) => (
                        "train",
                        serde_json::to_string(&std::mem::take(t)).unwrap_or_default(),
                    ),
                    Workload::Custom(c) => (
                        "custom",
                        serde_json::to_string(&std::mem::take(c)).unwrap_or_default(),
                    ),
                    _ => continue,
                };
                (param, old)
            }
            // A mixed machine that cannot be (too many cards, beside a `gpu`, for a workload
            // that is not a server's) leaves the link's other cards as they are.
            Field::GpuCount | Field::Hardware if !s.hardware.gpus.is_empty() => (
                "gpus",
                serde_json::to_string(&std::mem::take(&mut s.hardware.gpus)).unwrap_or_default(),
            ),
            Field::GpuCount => ("n", std::mem::replace(&mut s.hardware.count, 1).to_string()),
            Field::GpuMemory | Field::Hardware => {
                let Some(old) = s.hardware.gpu_memory_gib.take() else {
                    continue;
                };
                ("mem", crate::units::num::shortest(old))
            }
            Field::Headroom => (
                "headroom",
                std::mem::replace(&mut s.headroom_percent, fallback.headroom_percent).to_string(),
            ),
            Field::Engine(_) => {
                let Some(old) = s.engine.take() else {
                    continue;
                };
                ("engine", serde_json::to_string(&old).unwrap_or_default())
            }
            Field::WeightsBytes => (
                "weights_bytes",
                s.weights_bytes
                    .take()
                    .map(|b| b.to_string())
                    .unwrap_or_default(),
            ),
            Field::UnquantizedModules => (
                "unquantized",
                serde_json::to_string(&std::mem::take(&mut s.unquantized_modules))
                    .unwrap_or_default(),
            ),
            Field::Version => {
                s.version = fallback.version;
                continue;
            }
            Field::Price => (
                "prices",
                serde_json::to_string(&std::mem::take(&mut s.prices_usd_per_hour))
                    .unwrap_or_default(),
            ),
            Field::Speculative(_) => {
                let Some(old) = s.speculative.take() else {
                    continue;
                };
                ("spec", serde_json::to_string(&old).unwrap_or_default())
            }
        };
        notes.push(QueryNote {
            param: param.to_string(),
            value,
        });
    }
}

/// Applies one parameter; `false` when its value is unusable (the scenario is then unchanged).
fn apply(s: &mut Scenario, key: &str, value: &str) -> bool {
    let whole = |v: &str| v.parse::<u32>().ok();
    match key {
        "model" if value.is_empty() => {
            s.model = None;
            true
        }
        "model" => {
            let ok = catalog::lookup(value).is_some();
            if ok {
                s.model = Some(ModelSource::Catalog(value.to_string()));
            }
            ok
        }
        "config" => match serde_json::from_str::<serde_json::Value>(value) {
            Ok(v) if crate::inputs::import::hf_config::parse_value(&v).is_ok() => {
                s.model = Some(ModelSource::HfConfig(v));
                true
            }
            _ => false,
        },
        "weights" => set(&mut s.weights, WeightFormat::from_id(value)),
        "prices" => set(
            &mut s.prices_usd_per_hour,
            serde_json::from_str::<std::collections::BTreeMap<String, f64>>(value).ok(),
        ),
        "rank" => set(
            &mut s.recommend_by,
            crate::scenario::RecommendBy::from_id(value),
        ),
        "from" => set(
            &mut s.recommend_from,
            crate::inputs::catalog::Availability::from_id(value),
        ),
        "spec" => set(
            &mut s.speculative,
            serde_json::from_str::<crate::scenario::Speculative>(value)
                .ok()
                .map(Some),
        ),
        "engine" => match serde_json::from_str::<crate::workloads::engine::Engine>(value) {
            Ok(e) if e.validate().is_empty() => {
                s.engine = Some(e);
                true
            }
            _ => false,
        },
        "train" => match serde_json::from_str::<crate::workloads::training::Train>(value) {
            Ok(t) => {
                s.workload = Workload::Train(t);
                true
            }
            Err(_) => false,
        },
        "image" | "video" => {
            match serde_json::from_str::<crate::workloads::diffusion::Generation>(value) {
                Ok(g) if key == "image" => {
                    s.workload = Workload::GenerateImage(g);
                    true
                }
                Ok(g) => {
                    s.workload = Workload::GenerateVideo(g);
                    true
                }
                Err(_) => false,
            }
        }
        "custom" => match serde_json::from_str::<crate::workloads::custom::Custom>(value) {
            Ok(c) => {
                s.workload = Workload::Custom(c);
                true
            }
            Err(_) => false,
        },
        "kv" => set(&mut s.kv_cache, KvCacheFormat::from_id(value).map(Some)),
        "ctx" | "seqs" | "chunk" => match (&mut s.workload, whole(value)) {
            (Workload::Inference(inf), Some(n)) => {
                match key {
                    "ctx" => inf.context_tokens = n,
                    "seqs" => inf.sequences = n,
                    _ => inf.prefill_chunk_tokens = n,
                }
                true
            }
            (Workload::Train(_), Some(_)) => true,
            _ => false,
        },
        "gpu" => {
            let ok = catalog::gpu(value).is_some();
            if ok {
                s.hardware.gpu = Some(value.to_string());
                s.hardware.gpu_memory_gib = None;
            }
            ok
        }
        "mem" => {
            let parsed = crate::units::num::parse(value).filter(|m| m.is_finite());
            if parsed.is_some() {
                s.hardware.gpu = None;
            }
            set(&mut s.hardware.gpu_memory_gib, parsed.map(Some))
        }
        "n" => set(&mut s.hardware.count, whole(value)),
        "gpus" => match serde_json::from_str::<Vec<crate::scenario::CardEntry>>(value) {
            Ok(cards) if cards.iter().all(|c| catalog::gpu(&c.gpu).is_some()) => {
                s.hardware.gpus = cards;
                s.hardware.gpu = None;
                s.hardware.gpu_memory_gib = None;
                true
            }
            _ => false,
        },
        "cuda_ctx" => set(&mut s.hardware.cuda_context_mib, whole(value).map(Some)),
        "weights_bytes" => set(
            &mut s.weights_bytes,
            value.trim().parse::<u64>().ok().map(Some),
        ),
        "unquantized" => set(
            &mut s.unquantized_modules,
            serde_json::from_str::<Vec<String>>(value).ok(),
        ),
        "headroom" => set(&mut s.headroom_percent, whole(value)),
        _ => true,
    }
}

fn set<T>(slot: &mut T, value: Option<T>) -> bool {
    match value {
        Some(v) => {
            *slot = v;
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let mut s = Scenario::example();
        s.hardware.gpu = Some("rtx-4090".into());
        s.hardware.count = 2;
        s.kv_cache = Some(KvCacheFormat::Fp8);
        let pairs = to_pairs(&s);
        let (back, notes) = from_pairs(&pairs);
        assert!(notes.is_empty());
        assert_eq!(back, s);
    }

    /// Found by a user audit: a classifier's 5,000-label map made a 158,193-character link.
    #[test]
    fn a_pasted_configs_label_maps_stay_out_of_its_link() {
        let labels: serde_json::Map<String, serde_json::Value> = (0..5000)
            .map(|i| {
                (
                    i.to_string(),
                    serde_json::Value::String(format!("LABEL_{i}")),
                )
            })
            .collect();
        let config = serde_json::json!({
            "model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
            "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
            "vocab_size": 128256, "max_position_embeddings": 131072, "id2label": labels,
            "label2id": {"LABEL_0": 0},
        });
        let mut s = Scenario::example();
        s.model = Some(ModelSource::HfConfig(config));
        let pairs = to_pairs(&s);
        let link = &pairs
            .iter()
            .find(|(k, _)| *k == "config")
            .expect("config")
            .1;
        assert!(link.len() < 400, "{} characters", link.len());
        assert!(!link.contains("id2label") && !link.contains("label2id"));
        let (back, notes) = from_pairs(&pairs);
        assert!(notes.is_empty());
        let (a, b) = (
            crate::estimate(&s).expect("estimates"),
            crate::estimate(&back).expect("estimates"),
        );
        assert_eq!(a.total_bytes, b.total_bytes);
    }

    #[test]
    fn a_link_naming_a_prequantised_repo_without_weights_gets_its_format() {
        let repo = "unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit";
        let (s, notes) = from_pairs(&[("model", repo)]);
        assert!(notes.is_empty());
        assert_eq!(s.weights, WeightFormat::BnbNf4 { double_quant: true });
        let (s, _) = from_pairs(&[("model", repo), ("weights", "fp8")]);
        assert_eq!(s.weights, WeightFormat::Fp8);
    }

    #[test]
    fn bad_params_fall_back_one_by_one() {
        let (s, notes) = from_pairs(&[
            ("ctx", "-5"),
            ("seqs", "16"),
            ("gpu", "no-such-card"),
            ("headroom", "1"),
            ("weights", "int4"),
        ]);
        let (ctx, seqs) = s.workload.shape();
        assert_eq!(seqs, 16);
        assert_eq!(ctx, 8192);
        assert_eq!(s.weights, WeightFormat::Int4);
        assert_eq!(s.headroom_percent, 10);
        let params: Vec<&str> = notes.iter().map(|n| n.param.as_str()).collect();
        assert_eq!(params, ["ctx", "gpu", "headroom"]);
    }
}
