//! Mixture-of-experts keys, under each family's names.

use super::keys::Keys;
use super::ConfigError;
use crate::inputs::model::{Family, Moe};
use crate::units::limits::arch;
use serde_json::Value;

/// Mixture-of-experts keys, under each family's names.
pub(super) fn read_moe(keys: &Keys, family: Family) -> Result<Option<Moe>, ConfigError> {
    // Zero experts says "dense" (Granite 4.0-H-Micro: `num_local_experts: 0`).
    let zero = |k: &str| keys.get(k).and_then(Value::as_u64) == Some(0);
    if ["num_local_experts", "num_experts", "n_routed_experts"]
        .into_iter()
        .any(zero)
    {
        return Ok(None);
    }
    let experts =
        match keys.first_count(&["num_local_experts", "num_experts", "n_routed_experts"])? {
            Some(e) if e > 1 => e,
            _ => return Ok(None),
        };
    let active = keys
        .first_count(&["num_experts_per_tok", "experts_per_token"])?
        .ok_or(ConfigError::MissingKey {
            key: "num_experts_per_tok",
        })?;
    // Each token routes to some of the experts: more than there are is no model (a user audit
    // found 64 of 8 accepted, and the plan and its speed moved with it).
    if active == 0 || active > experts {
        return Err(ConfigError::ExpertsPerToken { active, experts });
    }
    let expert_intermediate = match keys.optional_count("moe_intermediate_size")? {
        Some(i) => i,
        None => keys.count("intermediate_size")?,
    };
    let shared_intermediate = match family {
        Family::Llama4 => expert_intermediate,
        _ => match keys.first_count(&[
            "shared_expert_intermediate_size",
            "shared_intermediate_size",
            "moe_shared_expert_intermediate_size",
        ])? {
            Some(s) => s,
            None => {
                let n = keys.optional_count("n_shared_experts")?.unwrap_or(0);
                // At most 256 × 262,144 = 2^26 by the ceilings; checked all the same.
                u32::try_from(u64::from(n) * u64::from(expert_intermediate)).map_err(|_| {
                    ConfigError::TooLarge {
                        key: "n_shared_experts",
                        max: u64::from(arch::SHARED_EXPERTS),
                    }
                })?
            }
        },
    };
    Ok(Some(Moe {
        experts,
        active,
        expert_intermediate,
        shared_intermediate,
        first_dense_layers: keys.optional_count("first_k_dense_replace")?.unwrap_or(0),
        moe_every: keys
            .first_count(&[
                "interleave_moe_layer_step",
                "moe_layer_freq",
                "decoder_sparse_step",
            ])?
            .unwrap_or(1),
        router_bias: matches!(family, Family::GptOss | Family::Glm4Moe | Family::NemotronH)
            || keys.get("topk_method").and_then(Value::as_str) == Some("noaux_tc"),
        expert_bias: family == Family::GptOss,
    }))
}
