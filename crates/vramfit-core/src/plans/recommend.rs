//! Card recommendation: what a renter would rent for the job.
//!
//! 1. Every catalog card alone, with its verdict (`single_cards`: the chips around the fit line).
//! 2. **Offers**: for each card the software stack runs on ([`crate::scenario::stack`]) and that can be had
//!    the way the scenario allows (`recommend_from`: rented in clouds, on marketplaces, or
//!    bought), the fewest cards of that kind that hold the job — alone, or 2, 4 or 8 in tensor
//!    parallel (vLLM's head rule), layer split (llama.cpp, Transformers), fully sharded
//!    (training that replicates its state as DDP is offered as FSDP / ZeRO-3) or as replicas for
//!    independent sequences — each with its speed ([`crate::plans::speed`]) and cost
//!    ([`crate::plans::price`]). They are ranked by `recommend_by`: dollars per hour (default), dollars
//!    per million output tokens, or speed; ties go to fewer cards, NVLink / xGMI over PCIe, then
//!    less memory. Plans without a price rank after those with one. The first is `best`.
//! 3. Side by side, for the seeds' question "one bigger card or several smaller": the best
//!    single-card offer, the best tensor-parallel offers over NVLink and over PCIe, and the best
//!    replicas, each as ranked.
//!
//! When no card within reach holds the job, every card the software runs on is considered.
//! Cards the software does not run on are listed in `left_out` with why.
//!
//! The seeds' point: two 24 GB cards are not one 48 GB card unless the software splits the model.

use crate::budget::Card;
use crate::inputs::catalog::{Availability, Gpu, GPUS};
use crate::plans::plan::{multi_gpu_split, sharded_workload, Plan, Split, Verdict};
use crate::plans::price::{self, Cost};
use crate::plans::speed::{self, Speed};
use crate::scenario::dispatch::Job;
use crate::scenario::stack::{self, StackGap};
use crate::scenario::{RecommendBy, Workload};
use serde::Serialize;
use std::collections::BTreeMap;

/// Tensor-parallel sizes tried.
pub const TP_SIZES: [u32; 3] = [2, 4, 8];
/// Most replicas offered.
pub const MAX_REPLICAS: u32 = 8;
/// Offers kept in [`Recommendation::alternatives`].
pub const MAX_ALTERNATIVES: usize = 5;

/// How the recommendation chooses.
#[derive(Clone, Copy, Debug)]
pub struct Market<'a> {
    /// The ranking.
    pub by: RecommendBy,
    /// The widest way of getting a card considered.
    pub reach: Availability,
    /// The user's prices per card-hour.
    pub prices: &'a BTreeMap<String, f64>,
}

/// A plan the recommendation offers, with its speed and cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Offer {
    /// The plan.
    #[serde(flatten)]
    pub plan: Plan,
    /// How fast it runs (`None` where the workload has no speed model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<Speed>,
    /// What it costs to rent (`None` where the card has no price).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    /// Where its card can be had.
    pub availability: Availability,
}

/// A catalog card the recommendation leaves out, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LeftOut {
    /// Catalog id.
    pub gpu: &'static str,
    /// What in the scenario's software does not run on it.
    pub gap: StackGap,
}

/// What vramfit recommends for a budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recommendation {
    /// The first offer as ranked; `None` if nothing in the catalog holds it.
    pub best: Option<Plan>,
    /// The best replicas offer as ranked: copies of the model on cards that cannot hold all the
    /// sequences (or, training, the whole micro-batch) alone.
    pub replicas: Option<Plan>,
    /// Every catalog card alone, smallest first, with its verdict.
    pub single_cards: Vec<Plan>,
    /// The best offers as ranked (at most `MAX_ALTERNATIVES`, five), `best` first.
    pub alternatives: Vec<Offer>,
    /// One bigger card against several smaller ones: the best single-card offer, the best tensor
    /// parallel offers over NVLink / xGMI and over PCIe, and the best replicas, where each exists.
    pub side_by_side: Vec<Offer>,
    /// The ranking used.
    pub by: RecommendBy,
    /// Cards the software stack does not run on.
    pub left_out: Vec<LeftOut>,
}

/// An offer with its hourly price only: enough to rank by price, and cheap (the speed model
/// runs only for the offers kept).
fn priced(plan: Plan, market: &Market, availability: Availability) -> Offer {
    let cost = price::of_plan(&plan, None, market.prices);
    Offer {
        plan,
        speed: None,
        cost,
        availability,
    }
}

/// Adds the speed, and the cost per token that follows from it.
fn complete(base: &Job, o: &mut Offer, market: &Market) {
    if o.speed.is_none() {
        o.speed = speed::of_plan(base, &o.plan);
        o.cost = price::of_plan(&o.plan, o.speed.as_ref(), market.prices);
    }
}

/// Recommends a plan for `base` with `headroom_percent` kept free.
pub fn recommend(base: &Job, headroom_percent: u32, market: &Market) -> Recommendation {
    let single_cards: Vec<Plan> = GPUS
        .iter()
        .map(|g| {
            Plan::evaluate_for_search(
                base,
                Card::from_catalog(g),
                1,
                Split::Single,
                headroom_percent,
            )
        })
        .collect();
    let mut left_out = Vec::new();
    let mut runnable: Vec<(&'static Gpu, &Plan)> = Vec::new();
    for (g, p) in GPUS.iter().zip(&single_cards) {
        match stack::check(g, base.workload, base.engine, base.weights) {
            Ok(()) => runnable.push((g, p)),
            Err(gap) => left_out.push(LeftOut { gpu: g.id, gap }),
        }
    }
    let mut offers = offers_of(base, headroom_percent, market, &runnable, true);
    if offers.is_empty() {
        offers = offers_of(base, headroom_percent, market, &runnable, false);
    }
    // Ranking by price needs only the hourly prices; the other rankings need every speed.
    if market.by != RecommendBy::Price {
        for o in &mut offers {
            complete(base, o, market);
        }
    }
    rank(&mut offers, market.by);
    // What is shown gets its speed and full cost.
    let shown = side_by_side_indices(&offers);
    for (i, o) in offers.iter_mut().enumerate() {
        if i < MAX_ALTERNATIVES || shown.contains(&i) {
            complete(base, o, market);
        }
    }
    let best = offers.first().map(|o| o.plan.clone());
    // The best replicas as ranked (also when they are the best plan: the line says what each
    // copy serves, or its micro-batch for training).
    let replicas = offers
        .iter()
        .find(|o| o.plan.split == Split::Replicas)
        .map(|o| o.plan.clone());
    let side_by_side = side_by_side(&offers);
    offers.truncate(MAX_ALTERNATIVES);
    Recommendation {
        best,
        replicas,
        single_cards,
        alternatives: offers,
        side_by_side,
        by: market.by,
        left_out,
    }
}

/// For each runnable card (within reach when `within_reach`), the fewest cards of its kind that
/// hold the job, in each way they can share it.
fn offers_of(
    base: &Job,
    headroom_percent: u32,
    market: &Market,
    runnable: &[(&'static Gpu, &Plan)],
    within_reach: bool,
) -> Vec<Offer> {
    let mut out = Vec::new();
    for (g, single) in runnable {
        let availability =
            crate::inputs::catalog::market(g.id).map_or(Availability::Buy, |m| m.availability);
        if within_reach && availability > market.reach {
            continue;
        }
        if single.verdict == Verdict::Fits {
            out.push(priced((*single).clone(), market, availability));
            continue;
        }
        let card = Card::from_catalog(g);
        out.extend(
            multi_card_plan(base, card, headroom_percent).map(|p| priced(p, market, availability)),
        );
        // Replicas (serving: copies sharing the sequences; training: data-parallel copies, each
        // with a smaller micro-batch) hold the whole model each: not when its weights alone pass
        // the card.
        let whole = base.footprint.get(1).0;
        if base.sequences > 1
            && matches!(base.workload, Workload::Inference(_) | Workload::Train(_))
            && whole <= card.capacity_bytes
        {
            let max_r = MAX_REPLICAS.min(u32::try_from(base.sequences).unwrap_or(u32::MAX));
            let replicas = (2..=max_r)
                .map(|r| {
                    Plan::evaluate_for_search(base, card, r, Split::Replicas, headroom_percent)
                })
                .find(|p| p.verdict == Verdict::Fits);
            out.extend(replicas.map(|p| priced(p, market, availability)));
        }
    }
    out
}

/// The fewest cards of one kind (2, 4 or 8) that hold the job split as the engine splits it.
fn multi_card_plan(base: &Job, card: Card, headroom_percent: u32) -> Option<Plan> {
    let sharded = sharded_workload(base.workload);
    let mut inputs = *base;
    let mut sharded_split = None;
    if let Some(w) = &sharded {
        inputs.workload = w;
        sharded_split = Some(Split::Sharded);
    }
    let base = &inputs;
    let whole = base.footprint.get(1).0;
    TP_SIZES.into_iter().find_map(|n| {
        let split = multi_gpu_split(base.arch, base.engine, base.workload, n)?;
        let split = sharded_split.unwrap_or(split);
        if split == Split::Replicas {
            return None;
        }
        // Weights alone past the cards' memory: no need to evaluate.
        if whole / u64::from(n) > card.capacity_bytes {
            return None;
        }
        let p = Plan::evaluate_for_search(base, card, n, split, headroom_percent);
        (p.verdict == Verdict::Fits).then_some(p)
    })
}

/// Sorts offers best first by `by`.
fn rank(offers: &mut [Offer], by: RecommendBy) {
    let key = |o: &Offer| -> (u8, f64) {
        match by {
            RecommendBy::Price => o.cost.map_or((1, 0.0), |c| (0, c.usd_per_hour)),
            RecommendBy::CostPerToken => o
                .cost
                .and_then(|c| c.usd_per_million_output_tokens)
                .map_or((1, 0.0), |c| (0, c)),
            RecommendBy::Speed => o.speed.map_or((1, 0.0), |s| (0, -speed_score(&s))),
        }
    };
    offers.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0)
            .then(ka.1.total_cmp(&kb.1))
            .then(a.plan.count.cmp(&b.plan.count))
            .then(a.plan.card.pcie_only.cmp(&b.plan.card.pcie_only))
            .then(a.plan.total_capacity().cmp(&b.plan.total_capacity()))
    });
}

/// Higher is faster: decode tokens/s per request, training tokens/s, items per second.
fn speed_score(s: &Speed) -> f64 {
    match s {
        Speed::Serving(x) => x.decode_tokens_per_s,
        Speed::Training(x) => x.tokens_per_s,
        Speed::Generation(x) => 1.0 / x.seconds_per_item.max(1e-12),
    }
}

fn side_by_side(ranked: &[Offer]) -> Vec<Offer> {
    side_by_side_indices(ranked)
        .into_iter()
        .map(|i| ranked[i].clone())
        .collect()
}

/// The first ranked single card, tensor parallel over a link, over PCIe, and replicas.
fn side_by_side_indices(ranked: &[Offer]) -> Vec<usize> {
    let first = |f: &dyn Fn(&Offer) -> bool| ranked.iter().position(f);
    [
        first(&|o| o.plan.count == 1),
        first(&|o| o.plan.split == Split::TensorParallel && !o.plan.card.pcie_only),
        first(&|o| o.plan.split == Split::TensorParallel && o.plan.card.pcie_only),
        first(&|o| o.plan.split == Split::Replicas),
    ]
    .into_iter()
    .flatten()
    .collect()
}
