//! Plans over a mixed machine (`hardware.gpus`: a 5090 and a 4080 are not two 5090s), placed as
//! each engine places a model:
//!
//! - **llama.cpp** splits the layers in proportion to each card's free memory (its default
//!   `--tensor-split`), each card with its own compute buffer and the last with the output layer
//!   ([`crate::workloads::engine::llama_cpp::device_totals`]); the card fullest for its size sets the
//!   verdict.
//! - **vLLM and SGLang** run tensor parallel: every card holds the same shard and the same KV
//!   blocks (vLLM takes the smallest worker's block count), so the smallest card sets the limit.
//! - **Transformers and the engine-neutral view** split layers evenly (`device_map="auto"` with
//!   no `max_memory`): the smallest card sets the limit.

use super::{multi_gpu_split, CardUse, Plan, Split};
use crate::budget::{BudgetInputs, Card, Component};
use crate::scenario::dispatch::Job;
use crate::workloads::engine::Engine;

/// The plan of `base` over `cards` (device order, at least one), with each card's bytes. Where
/// tensor parallel cannot divide the heads, the layers are split instead (as vLLM's pipeline
/// parallel would); the caller warns.
pub fn mixed_plan(base: &Job, cards: &[Card], headroom_percent: u32) -> Option<Plan> {
    let n = u32::try_from(cards.len()).ok()?.max(1);
    let split = multi_gpu_split(base.arch, base.engine, base.workload, n).unwrap_or(Split::Layers);
    let smallest = *cards.iter().min_by_key(|c| c.capacity_bytes)?;
    let with_cards = |job: &Job, card: Card, free: Option<&[u64]>| {
        let job = Job {
            inputs: BudgetInputs {
                device_free: free,
                ..job.inputs
            },
            ..*job
        };
        Plan::evaluate(&job, card, n, split, headroom_percent)
    };
    match (base.engine, split) {
        (Some(Engine::LlamaCpp(l)), Split::Layers) => {
            let free: Vec<u64> = cards
                .iter()
                .map(|c| free_at_load(c.capacity_bytes, base.cuda_context_bytes))
                .collect();
            let inputs = BudgetInputs {
                tensor_parallel: n,
                gpu_arch: smallest.arch,
                device_free: Some(&free),
                ..base.inputs
            };
            let parts =
                crate::workloads::engine::llama_cpp::device_components(l, &inputs, &smallest);
            let totals: Vec<u64> = parts.iter().map(|c| crate::budget::total(c)).collect();
            let fullest = (0..cards.len())
                .max_by(|&a, &b| {
                    let fill = |i: usize| totals[i] as f64 / free[i].max(1) as f64;
                    fill(a).total_cmp(&fill(b))
                })
                .unwrap_or(0);
            let plan = with_cards(base, cards[fullest], Some(&free));
            Some(with_per_card(plan, cards, parts, fullest))
        }
        _ => {
            let plan = with_cards(base, smallest, None);
            let parts = vec![plan.per_gpu_components.clone(); cards.len()];
            let at = cards
                .iter()
                .position(|c| c.capacity_bytes == smallest.capacity_bytes)
                .unwrap_or(0);
            Some(with_per_card(plan, cards, parts, at))
        }
    }
}

/// A card's free memory when llama.cpp loads (what its default split shares by): the card less
/// its CUDA context.
pub fn free_at_load(capacity_bytes: u64, cuda_context_bytes: u64) -> u64 {
    capacity_bytes.saturating_sub(cuda_context_bytes)
}

fn with_per_card(plan: Plan, cards: &[Card], parts: Vec<Vec<Component>>, limit: usize) -> Plan {
    let per_card = cards
        .iter()
        .zip(parts)
        .enumerate()
        .filter_map(|(i, (c, components))| {
            Some(CardUse {
                gpu: c.gpu?,
                bytes: crate::budget::total(&components),
                capacity_bytes: c.capacity_bytes,
                sets_limit: i == limit,
                components,
            })
        })
        .collect();
    Plan { per_card, ..plan }
}
