//! The hybrid families' layer layout and recurrent mixer (Qwen3-Next / Qwen3.5, Nemotron-H,
//! Granite 4.0-H, Falcon-H1; see the parent module's doc), with their tests.

use super::keys::{flag, Keys};
use super::ConfigError;
use crate::inputs::model::{Family, Hybrid, LayerSet, Recurrent, RecurrentKind};
use serde_json::Value;

/// One layer's blocks in a hybrid layout: (recurrent, attention, MLP).
type LayerBlocks = (bool, bool, bool);

/// A per-layer list (`layer_types`, `layers_block_type`) of exactly `layers` known names.
fn layer_list(
    keys: &Keys,
    key: &'static str,
    layers: u32,
    block: impl Fn(&str) -> Option<LayerBlocks>,
) -> Result<Option<(LayerSet, LayerSet, LayerSet)>, ConfigError> {
    let Some(v) = keys.get(key).filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    let list = v.as_array().ok_or(ConfigError::InvalidValue { key })?;
    if list.len() != layers as usize {
        return Err(ConfigError::InvalidValue { key });
    }
    let mut sets = (LayerSet::EMPTY, LayerSet::EMPTY, LayerSet::EMPTY);
    for (i, item) in list.iter().enumerate() {
        let (rec, attn, mlp) = item
            .as_str()
            .and_then(&block)
            .ok_or(ConfigError::InvalidValue { key })?;
        // `i` < `layers` ≤ the layer ceiling: it fits.
        let i = i as u32;
        if rec {
            sets.0 = sets.0.with(i);
        }
        if attn {
            sets.1 = sets.1.with(i);
        }
        if mlp {
            sets.2 = sets.2.with(i);
        }
    }
    Ok(Some(sets))
}

/// Whether a dtype key says `float32`.
fn says_f32(keys: &Keys, key: &str) -> bool {
    keys.get(key).and_then(Value::as_str) == Some("float32")
}

/// A Mamba-2 mixer from the Granite / Falcon-H1 key names (`mamba_*`): the head width from
/// `mamba_d_head`, else the inner width (`mamba_d_ssm`, else `mamba_expand · hidden`) over the
/// heads.
fn mamba_keys(keys: &Keys, hidden: u32, norm: bool) -> Result<Recurrent, ConfigError> {
    let heads = keys.count("mamba_n_heads")?;
    let head_dim = match keys.optional_count("mamba_d_head")? {
        Some(d) => d,
        None => {
            let inner = match keys.optional_count("mamba_d_ssm")? {
                Some(i) => u64::from(i),
                None => {
                    let expand = keys.optional_count("mamba_expand")?.unwrap_or(2);
                    u64::from(expand) * u64::from(hidden)
                }
            };
            u32::try_from(inner / u64::from(heads))
                .ok()
                .filter(|&d| d > 0 && inner.is_multiple_of(u64::from(heads)))
                .ok_or(ConfigError::InvalidValue {
                    key: "mamba_d_head",
                })?
        }
    };
    Ok(Recurrent {
        kind: RecurrentKind::Mamba2,
        heads,
        head_dim,
        state: keys.optional_count("mamba_d_state")?.unwrap_or(256),
        groups: keys.optional_count("mamba_n_groups")?.unwrap_or(1),
        conv_kernel: keys.optional_count("mamba_d_conv")?.unwrap_or(4),
        conv_bias: flag(keys, "mamba_conv_bias", true)?,
        proj_bias: flag(keys, "mamba_proj_bias", false)?,
        norm,
        ssm_f32: false,
    })
}

/// The hybrid layout and recurrent mixer of the hybrid families (see the module doc); `None` for
/// every other family.
pub(super) fn read_hybrid(
    keys: &Keys,
    family: Family,
    layers: u32,
    hidden: u32,
) -> Result<Option<Hybrid>, ConfigError> {
    let all = LayerSet::first(layers);
    let (mixer, (recurrent_layers, attention_layers, mlp_layers)) = match family {
        Family::Qwen3Next => {
            let sets = match layer_list(keys, "layer_types", layers, |t| match t {
                "linear_attention" => Some((true, false, true)),
                "full_attention" => Some((false, true, true)),
                _ => None,
            })? {
                Some(sets) => sets,
                None => {
                    let every = keys.optional_count("full_attention_interval")?.unwrap_or(4);
                    let attention = LayerSet::every(layers, every, every - 1);
                    (all.without(attention), attention, all)
                }
            };
            let mixer = Recurrent {
                kind: RecurrentKind::GatedDeltaNet,
                heads: keys.optional_count("linear_num_value_heads")?.unwrap_or(32),
                head_dim: keys.optional_count("linear_value_head_dim")?.unwrap_or(128),
                state: keys.optional_count("linear_key_head_dim")?.unwrap_or(128),
                groups: keys.optional_count("linear_num_key_heads")?.unwrap_or(16),
                conv_kernel: keys.optional_count("linear_conv_kernel_dim")?.unwrap_or(4),
                conv_bias: false,
                proj_bias: false,
                norm: true,
                ssm_f32: says_f32(keys, "mamba_ssm_dtype"),
            };
            (mixer, sets)
        }
        Family::NemotronH => {
            // `E` / `moe` (Nemotron 3): a MoE block. A model has either MoE blocks (the MoE keys
            // present) or dense `-` MLP blocks: a mix of both is not modelled.
            let moe = keys
                .get("n_routed_experts")
                .and_then(Value::as_u64)
                .is_some_and(|e| e > 1);
            let block = |c: &str| match c {
                "M" | "mamba" => Some((true, false, false)),
                "*" | "attention" => Some((false, true, false)),
                "-" | "mlp" if !moe => Some((false, false, true)),
                "E" | "moe" if moe => Some((false, false, true)),
                _ => None,
            };
            let sets = match layer_list(keys, "layers_block_type", layers, block)? {
                Some(sets) => sets,
                None => {
                    let key = "hybrid_override_pattern";
                    let pattern = match keys.get(key) {
                        Some(Value::String(p)) => p,
                        Some(_) => return Err(ConfigError::InvalidValue { key }),
                        None => return Err(ConfigError::MissingKey { key }),
                    };
                    let mlp = if moe { b'E' } else { b'-' };
                    if pattern.len() != layers as usize
                        || !pattern.bytes().all(|b| b == b'M' || b == b'*' || b == mlp)
                    {
                        return Err(ConfigError::InvalidValue { key });
                    }
                    (
                        LayerSet::from_pattern(pattern, b'M'),
                        LayerSet::from_pattern(pattern, b'*'),
                        LayerSet::from_pattern(pattern, mlp),
                    )
                }
            };
            let mixer = Recurrent {
                kind: RecurrentKind::Mamba2,
                heads: keys.count("mamba_num_heads")?,
                head_dim: keys.count("mamba_head_dim")?,
                state: keys.optional_count("ssm_state_size")?.unwrap_or(128),
                groups: keys.optional_count("n_groups")?.unwrap_or(8),
                conv_kernel: keys.optional_count("conv_kernel")?.unwrap_or(4),
                conv_bias: flag(keys, "use_conv_bias", true)?,
                proj_bias: flag(keys, "use_bias", false)?,
                norm: true,
                ssm_f32: says_f32(keys, "mamba_ssm_cache_dtype"),
            };
            (mixer, sets)
        }
        Family::GraniteMoeHybrid => {
            let block = |t: &str| match t {
                "mamba" => Some((true, false, true)),
                "attention" => Some((false, true, true)),
                _ => None,
            };
            let sets = match layer_list(keys, "layer_types", layers, block)? {
                Some(sets) => Some(sets),
                None => layer_list(keys, "layers_block_type", layers, block)?,
            };
            // Without a layer list every layer is attention: a plain Granite MoE.
            let Some(sets) = sets else {
                return Ok(None);
            };
            (mamba_keys(keys, hidden, true)?, sets)
        }
        Family::FalconH1 => {
            let attention = match keys.get("attn_layer_indices") {
                None | Some(Value::Null) => all,
                Some(Value::Array(list)) => {
                    let mut set = LayerSet::EMPTY;
                    for v in list {
                        let i = v.as_u64().filter(|&i| i < u64::from(layers)).ok_or(
                            ConfigError::InvalidValue {
                                key: "attn_layer_indices",
                            },
                        )?;
                        // Below `layers`, a u32.
                        set = set.with(i as u32);
                    }
                    set
                }
                Some(_) => {
                    return Err(ConfigError::InvalidValue {
                        key: "attn_layer_indices",
                    })
                }
            };
            let norm = flag(keys, "mamba_rms_norm", false)?;
            (mamba_keys(keys, hidden, norm)?, (all, attention, all))
        }
        _ => return Ok(None),
    };
    if recurrent_layers.is_empty() {
        return Ok(None);
    }
    Ok(Some(Hybrid {
        mixer,
        recurrent_layers,
        attention_layers,
        mlp_layers,
    }))
}

#[cfg(test)]
mod tests {
    use super::super::tests::parse_str;
    use super::super::{parse_value, ConfigError};
    use crate::inputs::model::{Family, RecurrentKind};
    use serde_json::Value;

    /// `Qwen/Qwen3-Next-80B-A3B-Instruct`'s `config.json` (the keys that size it).
    const QWEN3_NEXT_80B: &str = r#"{"architectures":["Qwen3NextForCausalLM"],
        "model_type":"qwen3_next","hidden_size":2048,"intermediate_size":5120,
        "num_hidden_layers":48,"num_attention_heads":16,"num_key_value_heads":2,"head_dim":256,
        "vocab_size":151936,"max_position_embeddings":262144,"tie_word_embeddings":false,
        "num_experts":512,"num_experts_per_tok":10,"moe_intermediate_size":512,
        "shared_expert_intermediate_size":512,"decoder_sparse_step":1,"mlp_only_layers":[],
        "full_attention_interval":4,"linear_num_key_heads":16,"linear_num_value_heads":32,
        "linear_key_head_dim":128,"linear_value_head_dim":128,"linear_conv_kernel_dim":4,
        "partial_rotary_factor":0.25,"rope_theta":10000000}"#;

    /// `nvidia/Nemotron-H-8B-Base-8K`'s `config.json` (the keys that size it).
    const NEMOTRON_H_8B: &str = r#"{"architectures":["NemotronHForCausalLM"],
        "model_type":"nemotron_h","hidden_size":4096,"intermediate_size":21504,
        "num_hidden_layers":52,"num_attention_heads":32,"num_key_value_heads":8,
        "attention_head_dim":128,"vocab_size":131072,"max_position_embeddings":8192,
        "tie_word_embeddings":false,"mamba_num_heads":128,"mamba_head_dim":64,
        "ssm_state_size":128,"n_groups":8,"conv_kernel":4,"expand":2,"use_bias":false,
        "use_conv_bias":true,"mlp_hidden_act":"relu2",
        "hybrid_override_pattern":"M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-"}"#;

    #[test]
    fn reads_qwen3_next_layer_layout() {
        let a = parse_str(QWEN3_NEXT_80B).expect("valid config");
        assert_eq!(a.family, Family::Qwen3Next);
        let h = a.hybrid.expect("hybrid");
        assert_eq!(h.mixer.kind, RecurrentKind::GatedDeltaNet);
        assert_eq!((h.mixer.heads, h.mixer.head_dim), (32, 128));
        assert_eq!((h.mixer.state, h.mixer.groups), (128, 16));
        // Every 4th layer (3, 7, …, 47) is full attention: 12 of 48.
        assert_eq!(a.self_attention_layers(), 12);
        assert!(a.has_attention(3) && !a.has_attention(0) && a.has_recurrent(0));
        assert_eq!(a.recurrent_layers_in(0, 48), 36);
        assert!(a.sliding_window.is_none());
        // `mtp_num_hidden_layers` is read where given (0 otherwise), a bad value refused.
        let mut v: Value = serde_json::from_str(QWEN3_NEXT_80B).expect("JSON");
        v["mtp_num_hidden_layers"] = serde_json::json!(1);
        let with_mtp = parse_value(&v).expect("valid config");
        assert_eq!(with_mtp.mtp_layers, 1);
        assert_eq!(with_mtp.param_count(), a.param_count());
        v["mtp_num_hidden_layers"] = serde_json::json!(5000);
        assert!(matches!(
            parse_value(&v),
            Err(ConfigError::TooLarge {
                key: "mtp_num_hidden_layers",
                ..
            })
        ));
        // The same layout from `layer_types`.
        let mut v: Value = serde_json::from_str(QWEN3_NEXT_80B).expect("JSON");
        let types: Vec<&str> = (0..48)
            .map(|i| {
                if i % 4 == 3 {
                    "full_attention"
                } else {
                    "linear_attention"
                }
            })
            .collect();
        v["layer_types"] = serde_json::json!(types);
        v["full_attention_interval"] = serde_json::json!(8);
        assert_eq!(parse_value(&v), Ok(a));
        // Qwen3.5 wraps the text model and names an fp32 SSM state.
        let wrapped = serde_json::json!({"model_type": "qwen3_5_moe",
            "text_config": {"model_type": "qwen3_5_moe_text", "hidden_size": 2048,
            "num_hidden_layers": 40, "num_attention_heads": 16, "num_key_value_heads": 2,
            "head_dim": 256, "vocab_size": 248320, "num_experts": 256,
            "num_experts_per_tok": 8, "moe_intermediate_size": 512,
            "shared_expert_intermediate_size": 512, "mamba_ssm_dtype": "float32"}});
        let q35 = parse_value(&wrapped).expect("valid Qwen3.5 config");
        assert_eq!(q35.self_attention_layers(), 10);
        assert!(q35.recurrent().is_some_and(|r| r.ssm_f32));
    }

    #[test]
    fn reads_nemotron_h_granite_and_falcon_h1() {
        let a = parse_str(NEMOTRON_H_8B).expect("valid config");
        let h = a.hybrid.expect("hybrid");
        assert_eq!(
            (h.recurrent_layers.len(), h.attention_layers.len()),
            (24, 4)
        );
        assert_eq!(h.mlp_layers.len(), 24);
        assert_eq!(a.head_dim, 128);
        // 131,072 × 4096 × 2 + norm; 24 Mamba-2 layers of 109,640,064 (in_proj 18,560 × 4096,
        // conv 10,240 × 4 + bias, 3 × 128 per-head, norm 8192, out_proj 4096 × 8192, layer norm
        // 4096); 4 attention layers of 41,947,136; 24 MLP layers of 176,164,864.
        assert_eq!(
            a.param_count(),
            1_073_745_920 + 24 * 109_640_064 + 4 * 41_947_136 + 24 * 176_164_864
        );
        // The same layout as a block list.
        let mut v: Value = serde_json::from_str(NEMOTRON_H_8B).expect("JSON");
        let pattern = v["hybrid_override_pattern"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let blocks: Vec<&str> = pattern
            .chars()
            .map(|c| match c {
                'M' => "mamba",
                '*' => "attention",
                _ => "mlp",
            })
            .collect();
        v["layers_block_type"] = serde_json::json!(blocks);
        assert_eq!(parse_value(&v), Ok(a));

        let granite = serde_json::json!({"model_type": "granitemoehybrid", "hidden_size": 64,
            "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2,
            "vocab_size": 100, "intermediate_size": 32, "shared_intermediate_size": 48,
            "num_local_experts": 8, "num_experts_per_tok": 2,
            "layer_types": ["mamba", "mamba", "attention", "mamba"], "mamba_n_heads": 8,
            "mamba_d_head": 16, "mamba_d_state": 16, "mamba_n_groups": 1, "mamba_d_conv": 4});
        let g = parse_value(&granite).expect("valid Granite config");
        assert_eq!(g.self_attention_layers(), 1);
        assert_eq!(g.moe.map(|m| m.shared_intermediate), Some(48));
        assert!(g.has_mlp(0) && g.has_mlp(2));
        // Without experts (H-Micro) the shared MLP is the MLP.
        let mut dense = granite.clone();
        dense["num_local_experts"] = serde_json::json!(0);
        assert_eq!(parse_value(&dense).map(|a| a.intermediate), Ok(48));

        let falcon = serde_json::json!({"model_type": "falcon_h1", "hidden_size": 64,
            "num_hidden_layers": 3, "num_attention_heads": 4, "num_key_value_heads": 2,
            "head_dim": 16, "vocab_size": 100, "intermediate_size": 96, "mamba_n_heads": 4,
            "mamba_d_ssm": 128, "mamba_d_state": 16, "mamba_n_groups": 1, "mamba_d_conv": 4,
            "attn_layer_indices": null});
        let f = parse_value(&falcon).expect("valid Falcon-H1 config");
        let fh = f.hybrid.expect("hybrid");
        // Attention and Mamba-2 in every layer; the head width from mamba_d_ssm / heads.
        assert_eq!(
            (f.self_attention_layers(), fh.recurrent_layers.len()),
            (3, 3)
        );
        assert_eq!(fh.mixer.head_dim, 32);
        assert!(!fh.mixer.norm && fh.mixer.conv_bias);
    }

    /// Hybrid keys are read with the same hardening as the rest: wrong lengths and unknown blocks
    /// name their key, counts past the ceilings are refused, nothing panics.
    #[test]
    fn hybrid_keys_are_checked() {
        let with = |text: &str, key: &str, value: Value| {
            let mut v: Value = serde_json::from_str(text).expect("JSON");
            v[key] = value;
            parse_value(&v)
        };
        let invalid = |key| Err(ConfigError::InvalidValue { key });
        assert_eq!(
            with(
                NEMOTRON_H_8B,
                "hybrid_override_pattern",
                serde_json::json!("M-*")
            ),
            invalid("hybrid_override_pattern")
        );
        let moe_pattern = "MEM*EMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EME";
        assert_eq!(moe_pattern.len(), 52);
        assert_eq!(
            with(
                NEMOTRON_H_8B,
                "hybrid_override_pattern",
                serde_json::json!(moe_pattern)
            ),
            invalid("hybrid_override_pattern")
        );
        assert_eq!(
            with(
                NEMOTRON_H_8B,
                "hybrid_override_pattern",
                serde_json::json!(7)
            ),
            invalid("hybrid_override_pattern")
        );
        assert_eq!(
            with(
                QWEN3_NEXT_80B,
                "layer_types",
                serde_json::json!(["full_attention"])
            ),
            invalid("layer_types")
        );
        assert_eq!(
            with(
                QWEN3_NEXT_80B,
                "full_attention_interval",
                serde_json::json!(0)
            ),
            invalid("full_attention_interval")
        );
        for (key, max) in [
            ("linear_num_value_heads", 1024),
            ("linear_key_head_dim", 4096),
            ("linear_conv_kernel_dim", 64),
            ("full_attention_interval", 1024),
        ] {
            assert_eq!(
                with(QWEN3_NEXT_80B, key, serde_json::json!(max + 1)),
                Err(ConfigError::TooLarge { key, max }),
                "{key}"
            );
        }
        for (key, max) in [("mamba_num_heads", 1024), ("ssm_state_size", 4096)] {
            assert_eq!(
                with(NEMOTRON_H_8B, key, serde_json::json!(u64::MAX)),
                Err(ConfigError::TooLarge { key, max }),
                "{key}"
            );
        }
        // At every ceiling at once the counts stay exact and nothing wraps.
        let mut big: Value = serde_json::from_str(QWEN3_NEXT_80B).expect("JSON");
        for (k, v) in [
            ("num_hidden_layers", 1024),
            ("hidden_size", 65_536),
            ("linear_num_value_heads", 1024),
            ("linear_value_head_dim", 4096),
            ("linear_key_head_dim", 4096),
            ("linear_num_key_heads", 1024),
            ("linear_conv_kernel_dim", 64),
            ("full_attention_interval", 1),
        ] {
            big[k] = serde_json::json!(v);
        }
        let a = parse_value(&big).expect("at the ceilings");
        assert!(a.param_count() > 0);
        assert_eq!(a.recurrent_layers_in(0, 1024), 0);
        big["full_attention_interval"] = serde_json::json!(1024);
        let a = parse_value(&big).expect("at the ceilings");
        assert_eq!(a.recurrent_layers_in(0, 1024), 1023);
        let count = a.param_count();
        assert!(
            count > 1 << 40 && count < crate::units::bytes::SATURATED,
            "{count}"
        );
    }
}
