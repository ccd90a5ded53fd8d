//! What a plan costs: dollars per hour from the dated reference table
//! ([`crate::inputs::catalog::GPU_MARKET`], the median of public on-demand price lists) or the user's own
//! price for a card (`prices_usd_per_hour` in the scenario), and dollars per million output tokens
//! from the plan's speed. Nothing is fetched.

use crate::inputs::catalog::{self, PRICES_AS_OF};
use crate::plans::plan::Plan;
use crate::plans::speed::Speed;
use serde::Serialize;
use std::collections::BTreeMap;

/// Where a price comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceSource {
    /// The reference table shipped with the app.
    Reference,
    /// The user's own price for the card.
    User,
}

/// What a plan costs to rent.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cost {
    /// Dollars per hour for all the plan's cards.
    pub usd_per_hour: f64,
    /// Dollars per million output tokens at the plan's total decode speed (serving); `None`
    /// where the workload produces no tokens (training, generation) or the speed is unknown.
    pub usd_per_million_output_tokens: Option<f64>,
    /// Where the hourly price comes from.
    pub price_source: PriceSource,
    /// The month the reference prices were read (`YYYY-MM`).
    pub price_as_of: &'static str,
}

/// The hourly price of one card: the user's, else the reference table's.
pub fn card_price(id: &str, user: &BTreeMap<String, f64>) -> Option<(f64, PriceSource)> {
    if let Some(p) = user.get(id).copied().filter(|p| p.is_finite() && *p >= 0.0) {
        return Some((p, PriceSource::User));
    }
    catalog::market(id)?
        .usd_per_hour
        .map(|p| (p, PriceSource::Reference))
}

/// The cost of `plan` running at `speed`; `None` when its card has no price.
pub fn of_plan(plan: &Plan, speed: Option<&Speed>, user: &BTreeMap<String, f64>) -> Option<Cost> {
    let (usd_per_hour, price_source) = if plan.per_card.is_empty() {
        let (per_card, source) = card_price(plan.card.gpu?, user)?;
        (per_card * f64::from(plan.count.max(1)), source)
    } else {
        // A mixed machine: every card's price, all of them known; the user's where any is.
        let prices: Vec<(f64, PriceSource)> = plan
            .per_card
            .iter()
            .map(|c| card_price(c.gpu, user))
            .collect::<Option<_>>()?;
        let source = if prices.iter().any(|(_, s)| *s == PriceSource::User) {
            PriceSource::User
        } else {
            PriceSource::Reference
        };
        (prices.iter().map(|(p, _)| p).sum(), source)
    };
    let usd_per_million_output_tokens = speed
        .and_then(Speed::output_tokens_per_s)
        .filter(|t| *t > 0.0 && t.is_finite())
        .map(|t| usd_per_hour / (t * 3600.0) * 1e6);
    Some(Cost {
        usd_per_hour,
        usd_per_million_output_tokens,
        price_source,
        price_as_of: PRICES_AS_OF,
    })
}
