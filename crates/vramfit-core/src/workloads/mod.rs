//! The workloads, one module each: [`engine`] (serving with vLLM, SGLang, llama.cpp or
//! Transformers, and `Inference`), [`training`] (full, LoRA and QLoRA fine-tuning, optimizers,
//! sharding; the allocator replay behind the feature `replay`), [`diffusion`] (image and video
//! generation pipelines) and [`custom`] (a workload item by item). Each holds its types, its
//! `validate` and its budget function. They use `units`, `inputs` and `budget` only, and never
//! one another: `scenario` aggregates them and `scenario::dispatch` is the one `match` over them.

pub mod custom;
pub mod diffusion;
pub mod engine;
pub mod training;
