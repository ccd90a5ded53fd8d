//! Hugging Face repo ids → catalog entries.
//!
//! [`lookup`] takes what a user copies from the Hub and finds the catalog model behind it:
//! - a catalog id (`llama-3.1-8b-instruct`), in any case;
//! - a repo id, in any case, with or without `https://huggingface.co/` in front
//!   (`meta-llama/Llama-3.1-8B-Instruct`, or a renamed repo's old id listed in
//!   [`CatalogModel::hf_aliases`]);
//! - the usual names of pre-quantised uploads of a catalog model, which also give the weight format
//!   the upload stores (the ids are `crate::inputs::format::WeightFormat` scenario names):
//!
//! | repo name ends with | format | who publishes them that way |
//! |---|---|---|
//! | `-AWQ`, `-AWQ-INT4` | `awq-int4-g128` | Qwen (`Qwen/Qwen2.5-7B-Instruct-AWQ`), hugging-quants, TheBloke (AutoAWQ's default: 4 bits, groups of 128) |
//! | `-GPTQ-Int4`, `-GPTQ-INT4`, `-GPTQ` | `gptq-int4-g128` | Qwen, hugging-quants, TheBloke's default branch (4 bits, groups of 128) |
//! | `-GPTQ-Int8` | `gptq-int8-g128` | Qwen |
//! | `-FP8`, `-FP8-Dynamic` | `fp8` (`fp8-block` for `Qwen/…-FP8`) | RedHatAI / neuralmagic (per-tensor or per-channel scales); Qwen3's own FP8 checkpoints use 128 × 128 blocks |
//! | `-bnb-4bit`, `-unsloth-bnb-4bit` | `bnb-nf4-dq` | unsloth: NF4 with double quantisation in their `config.json` (`unsloth/phi-4-bnb-4bit`, `unsloth/qwen2.5-0.5b-instruct-unsloth-bnb-4bit`, as the calibration test's checkpoint facts record); the `unsloth-` dynamic uploads also leave a few modules 16-bit, which a name cannot tell |
//! | `-GGUF` with a quant (`repo:Q4_K_M`, as `llama-server -hf` and Ollama take it, or a `.gguf` file name) | `gguf-q4_k_m`, … | bartowski, unsloth, lmstudio-community, Qwen |
//!
//! A `-GGUF` repo without a quant type, and a repo whose name only matches after a quantisation
//! suffix the table does not list, resolve to no format (the scenario's `weights` decides).
//! Uploaders that put the original organisation in the name (`bartowski/Qwen_Qwen3-8B-GGUF`) are
//! matched on the part after the first `_`.

use super::{models, CatalogModel};
use crate::inputs::format::WeightFormat;

/// A catalog model found from a Hugging Face repo id, with the weight format its name implies.
#[derive(Clone, Copy, Debug)]
pub struct HubMatch {
    /// The catalog entry.
    pub model: &'static CatalogModel,
    /// The storage the repo holds, when its name says (`None`: the original weights, or not told).
    pub format: Option<WeightFormat>,
}

/// Finds the catalog model behind `query`: a catalog id, a Hugging Face repo id (any case, also a
/// renamed repo's old id), or a pre-quantised upload of a catalog model (see the module doc).
pub fn lookup(query: &str) -> Option<HubMatch> {
    let q = strip_hub_prefix(query.trim());
    if q.is_empty() {
        return None;
    }
    let lower = q.to_ascii_lowercase();
    if let Some(m) = models().find(|m| m.id == lower) {
        return Some(HubMatch {
            model: m,
            format: None,
        });
    }
    // `repo:QUANT` (llama.cpp `-hf`, Ollama) or `repo/file.gguf`.
    let (path, tag) = match lower.rsplit_once(':') {
        Some((p, t)) if !t.contains('/') => (p, Some(t)),
        _ => (lower.as_str(), None),
    };
    let mut segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut gguf_file = None;
    if segments.len() > 2 && segments.last().is_some_and(|f| f.ends_with(".gguf")) {
        gguf_file = segments.pop();
        segments.truncate(2);
    }
    let repo = segments.join("/");
    if let Some(m) = models().find(|m| m.repo_ids().any(|r| r.eq_ignore_ascii_case(&repo))) {
        return Some(HubMatch {
            model: m,
            format: None,
        });
    }
    let (org, name) = match repo.split_once('/') {
        Some((o, n)) => (o, n),
        None => ("", repo.as_str()),
    };
    let (base, format) = strip_quant_suffix(org, name, tag, gguf_file);
    let model = find_by_name(base).or_else(|| {
        base.split_once('_')
            .and_then(|(_, rest)| find_by_name(rest))
    })?;
    Some(HubMatch { model, format })
}

/// The Hub repo ids of a diffusion pipeline of the catalog (`crate::workloads::diffusion::pipelines`), the
/// diffusers repos the pipeline's parts are read from. Empty for an unknown id.
pub fn pipeline_repo_ids(pipeline_id: &str) -> &'static [&'static str] {
    PIPELINE_REPOS
        .iter()
        .find(|(id, _)| *id == pipeline_id)
        .map_or(&[], |(_, repos)| repos)
}

/// Pipeline id → Hub repos (as named in each pipeline's `source` and model card).
const PIPELINE_REPOS: &[(&str, &[&str])] = &[
    (
        "sd15",
        &[
            "stable-diffusion-v1-5/stable-diffusion-v1-5",
            "runwayml/stable-diffusion-v1-5",
        ],
    ),
    ("sdxl", &["stabilityai/stable-diffusion-xl-base-1.0"]),
    (
        "sdxl-refiner",
        &[
            "stabilityai/stable-diffusion-xl-base-1.0",
            "stabilityai/stable-diffusion-xl-refiner-1.0",
        ],
    ),
    (
        "sd3-medium",
        &[
            "stabilityai/stable-diffusion-3-medium-diffusers",
            "stabilityai/stable-diffusion-3-medium",
        ],
    ),
    ("sd35-medium", &["stabilityai/stable-diffusion-3.5-medium"]),
    ("sd35-large", &["stabilityai/stable-diffusion-3.5-large"]),
    ("flux1-dev", &["black-forest-labs/FLUX.1-dev"]),
    ("flux1-schnell", &["black-forest-labs/FLUX.1-schnell"]),
    (
        "flux1-kontext-dev",
        &["black-forest-labs/FLUX.1-Kontext-dev"],
    ),
    ("qwen-image", &["Qwen/Qwen-Image"]),
    (
        "wan21-t2v-1.3b",
        &["Wan-AI/Wan2.1-T2V-1.3B", "Wan-AI/Wan2.1-T2V-1.3B-Diffusers"],
    ),
    (
        "wan21-t2v-14b",
        &["Wan-AI/Wan2.1-T2V-14B", "Wan-AI/Wan2.1-T2V-14B-Diffusers"],
    ),
    (
        "wan22-t2v-a14b",
        &["Wan-AI/Wan2.2-T2V-A14B", "Wan-AI/Wan2.2-T2V-A14B-Diffusers"],
    ),
    (
        "wan22-ti2v-5b",
        &["Wan-AI/Wan2.2-TI2V-5B", "Wan-AI/Wan2.2-TI2V-5B-Diffusers"],
    ),
    (
        "hunyuanvideo",
        &[
            "tencent/HunyuanVideo",
            "hunyuanvideo-community/HunyuanVideo",
        ],
    ),
    ("cogvideox-2b", &["THUDM/CogVideoX-2b"]),
    ("cogvideox-5b", &["THUDM/CogVideoX-5b"]),
    ("ltx-video", &["Lightricks/LTX-Video"]),
];

fn strip_hub_prefix(q: &str) -> &str {
    let mut q = q;
    for prefix in ["https://", "http://"] {
        // `get` rather than slicing: the text may hold multi-byte characters anywhere.
        if q.get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
        {
            q = &q[prefix.len()..];
        }
    }
    for host in ["huggingface.co/", "www.huggingface.co/", "hf.co/"] {
        if q.get(..host.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(host))
        {
            q = &q[host.len()..];
        }
    }
    q.trim_end_matches('/')
}

/// The catalog model whose repo name (the part after `/`) is `name` (lower case).
fn find_by_name(name: &str) -> Option<&'static CatalogModel> {
    if name.is_empty() {
        return None;
    }
    models().find(|m| {
        m.repo_ids().any(|r| {
            r.rsplit('/')
                .next()
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
        })
    })
}

/// Removes a known quantisation suffix from `name` (lower case) and returns the base name and the
/// format it implies.
fn strip_quant_suffix<'a>(
    org: &str,
    name: &'a str,
    tag: Option<&str>,
    gguf_file: Option<&str>,
) -> (&'a str, Option<WeightFormat>) {
    if let Some(base) = name.strip_suffix("-gguf") {
        let quant = tag
            .and_then(gguf_quant)
            .or_else(|| gguf_file.and_then(gguf_quant_in_file));
        return (base, quant);
    }
    let fp8 = if org == "qwen" { "fp8-block" } else { "fp8" };
    const SUFFIXES: &[(&str, &str)] = &[
        ("-unsloth-bnb-4bit", "bnb-nf4-dq"),
        ("-bnb-4bit", "bnb-nf4-dq"),
        ("-awq-int4", "awq-int4-g128"),
        ("-awq", "awq-int4-g128"),
        ("-gptq-int4", "gptq-int4-g128"),
        ("-gptq-int8", "gptq-int8-g128"),
        ("-gptq", "gptq-int4-g128"),
        ("-fp8-dynamic", "FP8"),
        ("-fp8", "FP8"),
    ];
    for (suffix, id) in SUFFIXES {
        if let Some(base) = name.strip_suffix(suffix) {
            let id = if *id == "FP8" { fp8 } else { id };
            return (base, WeightFormat::from_id(id));
        }
    }
    (name, None)
}

/// A GGUF quant type as written in repo tags and file names (`Q4_K_M`, `q8_0`, `IQ4_XS`, `F16`).
fn gguf_quant(tag: &str) -> Option<WeightFormat> {
    WeightFormat::from_id(&format!("gguf-{}", tag.trim().to_ascii_lowercase()))
        .filter(|f| matches!(f, WeightFormat::Gguf(_)))
}

/// The quant type in a GGUF file name (`Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf`,
/// `qwen3-8b.q8_0.gguf`): the last `-` or `.` separated part that names one.
fn gguf_quant_in_file(file: &str) -> Option<WeightFormat> {
    let stem = file.strip_suffix(".gguf").unwrap_or(file);
    stem.rsplit(['-', '.']).find_map(gguf_quant)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_and_format(q: &str) -> Option<(&'static str, Option<String>)> {
        lookup(q).map(|m| (m.model.id, m.format.map(WeightFormat::id)))
    }

    fn plain(id: &'static str) -> Option<(&'static str, Option<String>)> {
        Some((id, None))
    }

    fn quant(id: &'static str, format: &str) -> Option<(&'static str, Option<String>)> {
        Some((id, Some(format.to_string())))
    }

    #[test]
    fn kebab_ids_resolve_in_any_case() {
        assert_eq!(
            id_and_format("llama-3.1-8b-instruct"),
            plain("llama-3.1-8b-instruct")
        );
        assert_eq!(id_and_format(" Qwen3-8B "), plain("qwen3-8b"));
    }

    #[test]
    fn repo_ids_resolve_case_insensitively() {
        assert_eq!(
            id_and_format("meta-llama/Llama-3.1-8B-Instruct"),
            plain("llama-3.1-8b-instruct")
        );
        assert_eq!(
            id_and_format("META-LLAMA/llama-3.1-8b-instruct"),
            plain("llama-3.1-8b-instruct")
        );
        assert_eq!(
            id_and_format("https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/"),
            plain("qwen2.5-7b-instruct")
        );
        assert_eq!(
            id_and_format("hf.co/google/gemma-3-27b-it"),
            plain("gemma-3-27b-it")
        );
    }

    #[test]
    fn renamed_repos_resolve_through_their_aliases() {
        assert_eq!(
            id_and_format("meta-llama/Meta-Llama-3.1-8B-Instruct"),
            plain("llama-3.1-8b-instruct")
        );
        assert_eq!(
            id_and_format("meta-llama/Meta-Llama-3.1-70B-Instruct"),
            plain("llama-3.1-70b-instruct")
        );
    }

    #[test]
    fn awq_uploads_resolve_to_the_base_model_and_awq() {
        assert_eq!(
            id_and_format("Qwen/Qwen2.5-7B-Instruct-AWQ"),
            quant("qwen2.5-7b-instruct", "awq-int4-g128")
        );
        assert_eq!(
            id_and_format("hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4"),
            quant("llama-3.1-70b-instruct", "awq-int4-g128")
        );
    }

    #[test]
    fn gptq_uploads_resolve_to_the_base_model_and_gptq() {
        assert_eq!(
            id_and_format("Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4"),
            quant("qwen2.5-7b-instruct", "gptq-int4-g128")
        );
        assert_eq!(
            id_and_format("Qwen/Qwen2.5-72B-Instruct-GPTQ-Int8"),
            quant("qwen2.5-72b-instruct", "gptq-int8-g128")
        );
        assert_eq!(
            id_and_format("hugging-quants/Meta-Llama-3.1-8B-Instruct-GPTQ-INT4"),
            quant("llama-3.1-8b-instruct", "gptq-int4-g128")
        );
    }

    #[test]
    fn fp8_uploads_resolve_to_fp8_and_qwen_fp8_to_blocks() {
        assert_eq!(
            id_and_format("RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8"),
            quant("llama-3.1-8b-instruct", "fp8")
        );
        assert_eq!(
            id_and_format("neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8-dynamic"),
            quant("llama-3.1-70b-instruct", "fp8")
        );
        assert_eq!(
            id_and_format("Qwen/Qwen3-8B-FP8"),
            quant("qwen3-8b", "fp8-block")
        );
    }

    #[test]
    fn unsloth_bnb_uploads_resolve_to_nf4_with_double_quant() {
        assert_eq!(
            id_and_format("unsloth/Llama-3.2-1B-Instruct-bnb-4bit"),
            quant("llama-3.2-1b-instruct", "bnb-nf4-dq")
        );
        assert_eq!(
            id_and_format("unsloth/Qwen2.5-7B-Instruct-unsloth-bnb-4bit"),
            quant("qwen2.5-7b-instruct", "bnb-nf4-dq")
        );
        assert_eq!(
            id_and_format("unsloth/Meta-Llama-3.1-8B-Instruct-bnb-4bit"),
            quant("llama-3.1-8b-instruct", "bnb-nf4-dq")
        );
    }

    #[test]
    fn gguf_uploads_resolve_with_the_quant_type() {
        assert_eq!(
            id_and_format("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M"),
            quant("llama-3.1-8b-instruct", "gguf-q4_k_m")
        );
        assert_eq!(
            id_and_format("unsloth/Qwen3-8B-GGUF:q8_0"),
            quant("qwen3-8b", "gguf-q8_0")
        );
        assert_eq!(
            id_and_format(
                "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF/Meta-Llama-3.1-8B-Instruct-IQ4_XS.gguf"
            ),
            quant("llama-3.1-8b-instruct", "gguf-iq4_xs")
        );
        assert_eq!(
            id_and_format("bartowski/Qwen_Qwen3-8B-GGUF:Q5_K_M"),
            quant("qwen3-8b", "gguf-q5_k_m")
        );
        assert_eq!(
            id_and_format("hf.co/unsloth/gemma-3-27b-it-GGUF:Q4_K_M"),
            quant("gemma-3-27b-it", "gguf-q4_k_m")
        );
        // Without a quant type the repo still names the model.
        assert_eq!(
            id_and_format("lmstudio-community/Qwen2.5-7B-Instruct-GGUF"),
            plain("qwen2.5-7b-instruct")
        );
    }

    #[test]
    fn unknown_names_do_not_resolve() {
        for q in [
            "",
            "meta-llama/Llama-9-8B",
            "someone/Qwen2.5-7B-Instruct-EXL2",
            "bartowski/not-a-model-GGUF:Q4_K_M",
        ] {
            assert!(lookup(q).is_none(), "{q}");
        }
    }

    #[test]
    fn every_catalog_repo_id_resolves_to_its_entry() {
        for m in models() {
            for r in m.repo_ids() {
                assert_eq!(lookup(r).map(|h| h.model.id), Some(m.id), "{r}");
            }
            assert_eq!(lookup(m.id).map(|h| h.model.id), Some(m.id));
        }
    }
}
