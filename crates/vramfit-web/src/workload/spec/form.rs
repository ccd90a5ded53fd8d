//! The speculative-decoding fields: which proposer (none, the model's MTP layers, or a catalog
//! draft model) and how many tokens it proposes, kept as text; what a link set that the page
//! has no field for (the draft's format, the acceptance rate) rides along unchanged.

use crate::ui::field::{parse_whole, Input, Problem};
use leptos::prelude::*;
use vramfit_core::{ModelSource, Speculative, SpeculativeMethod, WeightFormat};

/// Value of the proposer select meaning "the model's MTP layers" (catalog ids never take it).
pub const SPEC_MTP: &str = "mtp";

/// The speculative-decoding fields.
#[derive(Clone, Copy)]
pub struct SpecForm {
    /// "" (none), [`SPEC_MTP`], or a draft model's catalog id.
    pub choice: RwSignal<String>,
    /// Proposed tokens per step ("" = the core's default for the method).
    pub tokens: RwSignal<String>,
    /// The link's draft format and acceptance rate, kept as they came.
    rest: StoredValue<(Option<WeightFormat>, Option<f64>)>,
}

impl SpecForm {
    /// Fields showing `spec`. A draft given as a pasted config has no catalog id to show: the
    /// select shows none and the page serves without it.
    pub fn new(spec: Option<&Speculative>) -> SpecForm {
        let choice = match spec {
            None => String::new(),
            Some(s) if s.method == SpeculativeMethod::Mtp => SPEC_MTP.into(),
            Some(s) => match &s.draft {
                Some(ModelSource::Catalog(id)) => id.clone(),
                _ => String::new(),
            },
        };
        SpecForm {
            choice: RwSignal::new(choice),
            tokens: RwSignal::new(
                spec.and_then(|s| s.num_tokens)
                    .map(|n| n.to_string())
                    .unwrap_or_default(),
            ),
            rest: StoredValue::new(spec.map_or((None, None), |s| (s.draft_weights, s.acceptance))),
        }
    }

    /// The scenario's `speculative`, or the problem of its tokens field.
    pub fn scenario(&self, problems: &mut Vec<(Input, Problem)>) -> Option<Speculative> {
        let choice = self.choice.get();
        if choice.is_empty() {
            return None;
        }
        let text = self.tokens.get();
        let num_tokens = if text.trim().is_empty() {
            None
        } else {
            match parse_whole(&text) {
                Ok(n) => Some(n),
                Err(p) => {
                    problems.push((Input::Speculative("num_tokens"), p));
                    None
                }
            }
        };
        let (draft_weights, acceptance) = self.rest.get_value();
        let mtp = choice == SPEC_MTP;
        Some(Speculative {
            method: if mtp {
                SpeculativeMethod::Mtp
            } else {
                SpeculativeMethod::DraftModel
            },
            draft: (!mtp).then_some(ModelSource::Catalog(choice)),
            draft_weights,
            num_tokens,
            acceptance,
        })
    }
}
