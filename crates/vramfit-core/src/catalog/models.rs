//! The model catalog: dense decoder-only text models with the architecture numbers that memory
//! depends on.
//!
//! Every architecture value is copied from the model's Hugging Face `config.json` at `hf_repo`:
//! `num_hidden_layers`, `hidden_size`, `num_attention_heads`, `num_key_value_heads`, `head_dim`
//! (the explicit key where the config has one, otherwise `hidden_size / num_attention_heads`),
//! `intermediate_size`, `vocab_size`, `tie_word_embeddings` and `max_position_embeddings`.
//!
//! `published_params` is the parameter count published for the checkpoint: preferably the exact
//! total from the Hugging Face safetensors metadata (the index's `total_size` divided by the bytes
//! per element), otherwise the model card's figure; `source` says which. The rule, checked by a
//! test: the count computed from the architecture, [`ModelArch::param_count`], must lie within
//! 0.5 % of `published_params`. An entry that breaks the rule has a wrong config value; the fix is
//! to recheck the config, never to adjust the published count.
//!
//! A few checkpoints store a copy of a tied output head (Qwen3 0.6B and 1.7B), so their safetensors
//! total counts the embedding twice; for those the count of the model as loaded is published
//! instead, and `source` says so.
//!
//! Entries are ordered by family (as in [`Family::ALL`]), then by size.

use super::{with_swa, CatalogModel};
use crate::model::{Family, ModelArch};

/// The catalog of models, ordered by family then size. Ids are stable (they appear in shared URLs
/// and scenario files): never rename one.
pub static MODELS: &[CatalogModel] = &[
    // ----- Llama -----
    CatalogModel {
        id: "llama-3.2-1b-instruct",
        name: "Llama 3.2 1B Instruct",
        hf_repo: "meta-llama/Llama-3.2-1B-Instruct",
        hf_aliases: &[],
        published_params: 1_235_814_400,
        source: "HF safetensors metadata: BF16 1,235,814,400 (1.24B)",
        arch: ModelArch::dense(Family::Llama, 16, 2048, 32, 8, 64, 8192, 128256, true, 131072),
    },
    CatalogModel {
        id: "llama-3.2-3b-instruct",
        name: "Llama 3.2 3B Instruct",
        hf_repo: "meta-llama/Llama-3.2-3B-Instruct",
        hf_aliases: &[],
        published_params: 3_212_749_824,
        source: "HF safetensors metadata: BF16 3,212,749,824 (3.21B)",
        arch: ModelArch::dense(Family::Llama, 28, 3072, 24, 8, 128, 8192, 128256, true, 131072),
    },
    CatalogModel {
        id: "meta-llama-3-8b",
        name: "Meta Llama 3 8B",
        hf_repo: "meta-llama/Meta-Llama-3-8B",
        hf_aliases: &[],
        published_params: 8_030_261_248,
        source: "HF safetensors metadata: 8.03B; same tensors as Llama 3.1 8B (index total_size 16,060,522,496 B in BF16)",
        arch: ModelArch::dense(Family::Llama, 32, 4096, 32, 8, 128, 14336, 128256, false, 8192),
    },
    CatalogModel {
        id: "llama-3.1-8b-instruct",
        name: "Llama 3.1 8B Instruct",
        hf_repo: "meta-llama/Llama-3.1-8B-Instruct",
        hf_aliases: &["meta-llama/Meta-Llama-3.1-8B-Instruct"],
        published_params: 8_030_261_248,
        source: "HF safetensors index total_size 16,060,522,496 B (BF16) = 8,030,261,248 (8.03B)",
        arch: ModelArch::dense(Family::Llama, 32, 4096, 32, 8, 128, 14336, 128256, false, 131072),
    },
    CatalogModel {
        id: "llama-3.1-70b-instruct",
        name: "Llama 3.1 70B Instruct",
        hf_repo: "meta-llama/Llama-3.1-70B-Instruct",
        hf_aliases: &["meta-llama/Meta-Llama-3.1-70B-Instruct"],
        published_params: 70_553_706_496,
        source: "HF safetensors index total_size 141,107,412,992 B (BF16) = 70,553,706,496 (70.6B)",
        arch: ModelArch::dense(Family::Llama, 80, 8192, 64, 8, 128, 28672, 128256, false, 131072),
    },
    CatalogModel {
        id: "llama-3.3-70b-instruct",
        name: "Llama 3.3 70B Instruct",
        hf_repo: "meta-llama/Llama-3.3-70B-Instruct",
        hf_aliases: &[],
        published_params: 70_553_706_496,
        source: "HF safetensors metadata: BF16 70,553,706,496 (70.6B)",
        arch: ModelArch::dense(Family::Llama, 80, 8192, 64, 8, 128, 28672, 128256, false, 131072),
    },
    CatalogModel {
        id: "llama-3.1-405b-instruct",
        name: "Llama 3.1 405B Instruct",
        hf_repo: "meta-llama/Llama-3.1-405B-Instruct",
        hf_aliases: &["meta-llama/Meta-Llama-3.1-405B-Instruct"],
        published_params: 405_853_388_800,
        source: "HF safetensors metadata: 406B; BF16 weights 811,706,777,600 B = 405,853,388,800",
        arch: ModelArch::dense(Family::Llama, 126, 16384, 128, 8, 128, 53248, 128256, false, 131072),
    },
    // ----- Mistral -----
    CatalogModel {
        id: "mistral-7b-instruct-v0.3",
        name: "Mistral 7B Instruct v0.3",
        hf_repo: "mistralai/Mistral-7B-Instruct-v0.3",
        hf_aliases: &[],
        published_params: 7_248_023_552,
        source: "HF safetensors index total_size 14,496,047,104 B (BF16) = 7,248,023,552 (7.25B)",
        arch: ModelArch::dense(Family::Mistral, 32, 4096, 32, 8, 128, 14336, 32768, false, 32768),
    },
    CatalogModel {
        id: "mistral-nemo-instruct-2407",
        name: "Mistral Nemo 12B Instruct 2407",
        hf_repo: "mistralai/Mistral-Nemo-Instruct-2407",
        hf_aliases: &[],
        published_params: 12_247_782_400,
        source: "HF safetensors metadata: BF16 12,247,782,400 (12.2B)",
        arch: ModelArch::dense(Family::Mistral, 40, 5120, 32, 8, 128, 14336, 131072, false, 1024000),
    },
    CatalogModel {
        id: "mistral-small-24b-instruct-2501",
        name: "Mistral Small 3 24B Instruct 2501",
        hf_repo: "mistralai/Mistral-Small-24B-Instruct-2501",
        hf_aliases: &[],
        published_params: 23_572_403_200,
        source: "HF safetensors index total_size 47,144,806,400 B (BF16) = 23,572,403,200 (23.6B; card says 24B)",
        arch: ModelArch::dense(Family::Mistral, 40, 5120, 32, 8, 128, 32768, 131072, false, 32768),
    },
    // ----- Qwen2 (Qwen2.5) -----
    CatalogModel {
        id: "qwen2.5-0.5b-instruct",
        name: "Qwen2.5 0.5B Instruct",
        hf_repo: "Qwen/Qwen2.5-0.5B-Instruct",
        hf_aliases: &[],
        published_params: 494_032_768,
        source: "HF safetensors metadata: BF16 494,032,768 (494M; card says 0.49B)",
        arch: ModelArch::dense(Family::Qwen2, 24, 896, 14, 2, 64, 4864, 151936, true, 32768),
    },
    CatalogModel {
        id: "qwen2.5-1.5b-instruct",
        name: "Qwen2.5 1.5B Instruct",
        hf_repo: "Qwen/Qwen2.5-1.5B-Instruct",
        hf_aliases: &[],
        published_params: 1_543_714_304,
        source: "HF safetensors metadata: BF16 1,543,714,304 (1.54B)",
        arch: ModelArch::dense(Family::Qwen2, 28, 1536, 12, 2, 128, 8960, 151936, true, 32768),
    },
    CatalogModel {
        id: "qwen2.5-3b-instruct",
        name: "Qwen2.5 3B Instruct",
        hf_repo: "Qwen/Qwen2.5-3B-Instruct",
        hf_aliases: &[],
        published_params: 3_085_938_688,
        source: "HF safetensors index total_size 6,171,877,376 B (BF16) = 3,085,938,688 (3.09B)",
        arch: ModelArch::dense(Family::Qwen2, 36, 2048, 16, 2, 128, 11008, 151936, true, 32768),
    },
    CatalogModel {
        id: "qwen2.5-7b-instruct",
        name: "Qwen2.5 7B Instruct",
        hf_repo: "Qwen/Qwen2.5-7B-Instruct",
        hf_aliases: &[],
        published_params: 7_615_616_512,
        source: "HF safetensors index total_size 15,231,233,024 B (BF16) = 7,615,616,512 (card: 7.61B)",
        arch: ModelArch::dense(Family::Qwen2, 28, 3584, 28, 4, 128, 18944, 152064, false, 32768),
    },
    CatalogModel {
        id: "qwen2.5-coder-7b-instruct",
        name: "Qwen2.5 Coder 7B Instruct",
        hf_repo: "Qwen/Qwen2.5-Coder-7B-Instruct",
        hf_aliases: &[],
        published_params: 7_615_616_512,
        source: "HF safetensors metadata: BF16 7,615,616,512 (7.62B; card says 7.61B)",
        arch: ModelArch::dense(Family::Qwen2, 28, 3584, 28, 4, 128, 18944, 152064, false, 32768),
    },
    CatalogModel {
        id: "qwen2.5-14b-instruct",
        name: "Qwen2.5 14B Instruct",
        hf_repo: "Qwen/Qwen2.5-14B-Instruct",
        hf_aliases: &[],
        published_params: 14_770_033_664,
        source: "HF safetensors index total_size 29,540,067,328 B (BF16) = 14,770,033,664 (14.8B)",
        arch: ModelArch::dense(Family::Qwen2, 48, 5120, 40, 8, 128, 13824, 152064, false, 32768),
    },
    CatalogModel {
        id: "qwen2.5-32b-instruct",
        name: "Qwen2.5 32B Instruct",
        hf_repo: "Qwen/Qwen2.5-32B-Instruct",
        hf_aliases: &[],
        published_params: 32_763_876_352,
        source: "HF safetensors index total_size 65,527,752,704 B (BF16) = 32,763,876,352 (32.8B; card says 32.5B)",
        arch: ModelArch::dense(Family::Qwen2, 64, 5120, 40, 8, 128, 27648, 152064, false, 32768),
    },
    CatalogModel {
        id: "qwen2.5-coder-32b-instruct",
        name: "Qwen2.5 Coder 32B Instruct",
        hf_repo: "Qwen/Qwen2.5-Coder-32B-Instruct",
        hf_aliases: &[],
        published_params: 32_763_876_352,
        source: "HF safetensors metadata: 32.8B (card says 32.5B); exact figure not seen, taken from Qwen2.5-32B-Instruct, whose tensors it shares",
        arch: ModelArch::dense(Family::Qwen2, 64, 5120, 40, 8, 128, 27648, 152064, false, 32768),
    },
    CatalogModel {
        id: "qwen2.5-72b-instruct",
        name: "Qwen2.5 72B Instruct",
        hf_repo: "Qwen/Qwen2.5-72B-Instruct",
        hf_aliases: &[],
        published_params: 72_706_203_648,
        source: "HF safetensors index total_size 145,412,407,296 B (BF16) = 72,706,203,648 (card: 72.7B)",
        arch: ModelArch::dense(Family::Qwen2, 80, 8192, 64, 8, 128, 29568, 152064, false, 32768),
    },
    // ----- Qwen3 -----
    CatalogModel {
        id: "qwen3-0.6b",
        name: "Qwen3 0.6B",
        hf_repo: "Qwen/Qwen3-0.6B",
        hf_aliases: &[],
        published_params: 596_049_920,
        source: "transformers num_parameters() 596,049,920 (card: 0.6B, 0.44B non-embedding); HF safetensors says 751,632,384 because the file stores the tied lm_head again",
        arch: ModelArch::dense(Family::Qwen3, 28, 1024, 16, 8, 128, 3072, 151936, true, 40960),
    },
    CatalogModel {
        id: "qwen3-1.7b",
        name: "Qwen3 1.7B",
        hf_repo: "Qwen/Qwen3-1.7B",
        hf_aliases: &[],
        published_params: 1_720_574_976,
        source: "GGUF general.parameter_count / KerasHub preset 1,720,574,976 (card: 1.7B, 1.4B non-embedding); HF safetensors says 2,031,739,904 because the file stores the tied lm_head again",
        arch: ModelArch::dense(Family::Qwen3, 28, 2048, 16, 8, 128, 6144, 151936, true, 40960),
    },
    CatalogModel {
        id: "qwen3-4b",
        name: "Qwen3 4B",
        hf_repo: "Qwen/Qwen3-4B",
        hf_aliases: &[],
        published_params: 4_022_468_096,
        source: "HF safetensors metadata: BF16 4,022,468,096 (4.02B)",
        arch: ModelArch::dense(Family::Qwen3, 36, 2560, 32, 8, 128, 9728, 151936, true, 40960),
    },
    CatalogModel {
        id: "qwen3-8b",
        name: "Qwen3 8B",
        hf_repo: "Qwen/Qwen3-8B",
        hf_aliases: &[],
        published_params: 8_190_735_360,
        source: "HF safetensors metadata: BF16 8,190,735,360 (8.19B)",
        arch: ModelArch::dense(Family::Qwen3, 36, 4096, 32, 8, 128, 12288, 151936, false, 40960),
    },
    CatalogModel {
        id: "qwen3-14b",
        name: "Qwen3 14B",
        hf_repo: "Qwen/Qwen3-14B",
        hf_aliases: &[],
        published_params: 14_768_307_200,
        source: "HF safetensors metadata: BF16 14,768,307,200 (14.8B)",
        arch: ModelArch::dense(Family::Qwen3, 40, 5120, 40, 8, 128, 17408, 151936, false, 40960),
    },
    CatalogModel {
        id: "qwen3-32b",
        name: "Qwen3 32B",
        hf_repo: "Qwen/Qwen3-32B",
        hf_aliases: &[],
        published_params: 32_762_123_264,
        source: "HF safetensors metadata: BF16 32,762,123,264 (32.8B)",
        arch: ModelArch::dense(Family::Qwen3, 64, 5120, 64, 8, 128, 25600, 151936, false, 40960),
    },
    // ----- Gemma 2 -----
    CatalogModel {
        id: "gemma-2-2b-it",
        name: "Gemma 2 2B IT",
        hf_repo: "google/gemma-2-2b-it",
        hf_aliases: &[],
        published_params: 2_614_341_888,
        source: "HF safetensors metadata: 2,614,341,888 (2.61B)",
        arch: with_swa(ModelArch::dense(Family::Gemma2, 26, 2304, 8, 4, 256, 9216, 256000, true, 8192), 4096, 2),
    },
    CatalogModel {
        id: "gemma-2-9b-it",
        name: "Gemma 2 9B IT",
        hf_repo: "google/gemma-2-9b-it",
        hf_aliases: &[],
        published_params: 9_241_705_984,
        source: "HF safetensors metadata: 9,241,705,984 (9.24B)",
        arch: with_swa(ModelArch::dense(Family::Gemma2, 42, 3584, 16, 8, 256, 14336, 256000, true, 8192), 4096, 2),
    },
    CatalogModel {
        id: "gemma-2-27b-it",
        name: "Gemma 2 27B IT",
        hf_repo: "google/gemma-2-27b-it",
        hf_aliases: &[],
        published_params: 27_227_128_320,
        source: "HF safetensors metadata: 27.2B; KerasHub Gemma 2 27B preset 27,227,128,320",
        arch: with_swa(ModelArch::dense(Family::Gemma2, 46, 4608, 32, 16, 128, 36864, 256000, true, 8192), 4096, 2),
    },
    // ----- Gemma 3 (text-only sizes) -----
    CatalogModel {
        id: "gemma-3-270m",
        name: "Gemma 3 270M",
        hf_repo: "google/gemma-3-270m",
        hf_aliases: &[],
        published_params: 268_098_176,
        source: "HF safetensors metadata: 268,098,176 (268M; card says 270M)",
        arch: with_swa(ModelArch::dense(Family::Gemma3, 18, 640, 4, 1, 256, 2048, 262144, true, 32768), 512, 6),
    },
    CatalogModel {
        id: "gemma-3-1b-it",
        name: "Gemma 3 1B IT",
        hf_repo: "google/gemma-3-1b-it",
        hf_aliases: &[],
        published_params: 999_885_952,
        source: "HF safetensors metadata: BF16 999,885,952 (1B)",
        arch: with_swa(ModelArch::dense(Family::Gemma3, 26, 1152, 4, 1, 256, 6912, 262144, true, 32768), 512, 6),
    },
    // ----- Phi-3 / Phi-4 -----
    CatalogModel {
        id: "phi-3-mini-4k-instruct",
        name: "Phi-3 Mini 4K Instruct",
        hf_repo: "microsoft/Phi-3-mini-4k-instruct",
        hf_aliases: &[],
        published_params: 3_821_079_552,
        source: "HF safetensors metadata: BF16 3,821,079,552 (3.82B)",
        arch: ModelArch::dense(Family::Phi3, 32, 3072, 32, 32, 96, 8192, 32064, false, 4096),
    },
    CatalogModel {
        id: "phi-4-mini-instruct",
        name: "Phi-4 Mini Instruct",
        hf_repo: "microsoft/Phi-4-mini-instruct",
        hf_aliases: &[],
        published_params: 3_836_021_760,
        source: "HF safetensors metadata: BF16 3,836,021,760 (3.84B)",
        arch: ModelArch::dense(Family::Phi3, 32, 3072, 24, 8, 128, 8192, 200064, true, 131072),
    },
    CatalogModel {
        id: "phi-3-medium-4k-instruct",
        name: "Phi-3 Medium 4K Instruct",
        hf_repo: "microsoft/Phi-3-medium-4k-instruct",
        hf_aliases: &[],
        published_params: 13_960_238_080,
        source: "HF safetensors metadata: 14B (card: 14B); exact 13,960,238,080 as loaded by a third-party tool",
        arch: ModelArch::dense(Family::Phi3, 40, 5120, 40, 10, 128, 17920, 32064, false, 4096),
    },
    CatalogModel {
        id: "phi-4",
        name: "Phi-4",
        hf_repo: "microsoft/phi-4",
        hf_aliases: &[],
        published_params: 14_659_507_200,
        source: "HF safetensors metadata: BF16 14,659,507,200 (14.7B)",
        arch: ModelArch::dense(Family::Phi3, 40, 5120, 40, 10, 128, 17920, 100352, false, 16384),
    },
];
