//! Hybrid models: decoder layers whose mixer is a recurrent state layer (Mamba-2, gated DeltaNet)
//! instead of, or beside, attention.
//!
//! A recurrent layer keeps a fixed-size state per sequence — a convolution window over its input
//! channels plus one state matrix per head — and no KV cache; only the attention layers keep keys
//! and values, so memory grows with the context through them alone. [`Hybrid`] says which layers
//! run which mixer ([`LayerSet`], one bit per layer) and [`Recurrent`] holds the state layer's
//! dimensions as the Hugging Face configs name them.
//!
//! Weight shapes (`[out, in]`), per recurrent layer, with `inner = heads · head_dim` and
//! `conv_dim = inner + 2 · groups · state`:
//! - **Mamba-2** (`transformers` `modeling_bamba.py::BambaMixer`, shared by
//!   `modeling_granitemoehybrid.py`, `modeling_nemotron_h.py::NemotronHMamba2Mixer` and
//!   `modeling_falcon_h1.py::FalconH1Mixer`): `in_proj` `(2·inner + 2·groups·state + heads) ×
//!   hidden` (z, x, B, C and dt), a depthwise `conv1d` `conv_dim × d_conv` (+ bias `conv_dim` with
//!   `use_conv_bias`), per head `A_log`, `D` and `dt_bias`, a gated RMSNorm of `inner` weights
//!   (Falcon-H1 only with `mamba_rms_norm`), `out_proj` `hidden × inner`; in/out projection biases
//!   with `mamba_proj_bias`.
//! - **Gated DeltaNet** (`modeling_qwen3_next.py::Qwen3NextGatedDeltaNet`): `in_proj_qkvz`
//!   `(2·key_dim + 2·value_dim) × hidden` and `in_proj_ba` `2·v_heads × hidden` (one tensor here,
//!   `2·inner + 2·groups·state + 2·heads` rows with `groups` = key heads, `state` = key head width),
//!   `conv1d` `conv_dim × kernel` without bias, per value head `A_log` and `dt_bias`, a gated
//!   RMSNorm of one value head's width, `out_proj` `hidden × inner`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Most decoder layers a [`LayerSet`] holds (`crate::units::limits::arch::LAYERS`).
pub const MAX_LAYERS: u32 = 1024;

/// A set of decoder layers, one bit per layer index below [`MAX_LAYERS`]. Serialised as the list
/// of its indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LayerSet {
    bits: [u64; 16],
}

impl LayerSet {
    /// No layer.
    pub const EMPTY: LayerSet = LayerSet { bits: [0; 16] };

    /// Layers `0..n` (clamped to [`MAX_LAYERS`]).
    pub const fn first(n: u32) -> LayerSet {
        let mut s = LayerSet::EMPTY;
        let mut i = 0;
        while i < n && i < MAX_LAYERS {
            s = s.with(i);
            i += 1;
        }
        s
    }

    /// Every `period`-th of layers `0..n`, starting at `offset` (`offset`, `offset + period`, …).
    pub const fn every(n: u32, period: u32, offset: u32) -> LayerSet {
        let mut s = LayerSet::EMPTY;
        if period == 0 {
            return s;
        }
        let mut i = offset;
        while i < n && i < MAX_LAYERS {
            s = s.with(i);
            i += period;
        }
        s
    }

    /// The layers whose character in `pattern` is `c` (Nemotron-H's `hybrid_override_pattern`:
    /// one character per layer).
    pub const fn from_pattern(pattern: &str, c: u8) -> LayerSet {
        let bytes = pattern.as_bytes();
        let mut s = LayerSet::EMPTY;
        let mut i = 0;
        while i < bytes.len() && i < MAX_LAYERS as usize {
            if bytes[i] == c {
                s = s.with(i as u32);
            }
            i += 1;
        }
        s
    }

    /// This set with layer `i` added (ignored at or beyond [`MAX_LAYERS`]).
    pub const fn with(mut self, i: u32) -> LayerSet {
        if i < MAX_LAYERS {
            self.bits[(i / 64) as usize] |= 1 << (i % 64);
        }
        self
    }

    /// This set without the layers of `other`.
    pub const fn without(mut self, other: LayerSet) -> LayerSet {
        let mut w = 0;
        while w < 16 {
            self.bits[w] &= !other.bits[w];
            w += 1;
        }
        self
    }

    /// Whether layer `i` is in the set.
    pub const fn contains(&self, i: u32) -> bool {
        i < MAX_LAYERS && self.bits[(i / 64) as usize] & (1 << (i % 64)) != 0
    }

    /// How many layers of `lo..hi` are in the set (counted word by word).
    pub fn count_in(&self, lo: u32, hi: u32) -> u64 {
        let hi = hi.min(MAX_LAYERS);
        if hi <= lo {
            return 0;
        }
        let mut n = 0u64;
        for (w, word) in self.bits.iter().enumerate() {
            let base = w as u32 * 64;
            if base >= hi || base + 64 <= lo {
                continue;
            }
            let from = lo.saturating_sub(base).min(64);
            let to = (hi - base).min(64);
            let mask = if to - from == 64 {
                u64::MAX
            } else {
                ((1u64 << (to - from)) - 1) << from
            };
            n += u64::from((word & mask).count_ones());
        }
        n
    }

    /// How many layers the set holds.
    pub fn len(&self) -> u64 {
        self.bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|w| *w == 0)
    }

    /// The indices in the set, ascending.
    pub fn indices(&self) -> impl Iterator<Item = u32> + '_ {
        (0..MAX_LAYERS).filter(move |&i| self.contains(i))
    }
}

impl Serialize for LayerSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.indices())
    }
}

impl<'de> Deserialize<'de> for LayerSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<LayerSet, D::Error> {
        let list = Vec::<u32>::deserialize(d)?;
        if let Some(&i) = list.iter().find(|&&i| i >= MAX_LAYERS) {
            return Err(serde::de::Error::custom(format!(
                "layer {i} is beyond {MAX_LAYERS}"
            )));
        }
        Ok(list.into_iter().fold(LayerSet::EMPTY, LayerSet::with))
    }
}

/// Which recurrent mixer the state layers run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecurrentKind {
    /// Mamba-2 (Granite 4.0-H, Nemotron-H, Falcon-H1): one `dt` per head, per-head `A_log`, `D`,
    /// `dt_bias`, a gated RMSNorm over the whole inner width.
    Mamba2,
    /// Gated DeltaNet (Qwen3-Next, Qwen3.5): `b` and `a` per value head, per-head `A_log` and
    /// `dt_bias`, a gated RMSNorm of one value head's width.
    GatedDeltaNet,
}

/// The dimensions of a recurrent state layer, as the configs name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Recurrent {
    /// The mixer.
    pub kind: RecurrentKind,
    /// State heads (`mamba_n_heads` / `mamba_num_heads`; `linear_num_value_heads`).
    pub heads: u32,
    /// Channels per head (`mamba_d_head` / `mamba_head_dim`; `linear_value_head_dim`).
    pub head_dim: u32,
    /// State width per channel (`mamba_d_state` / `ssm_state_size`; `linear_key_head_dim`).
    pub state: u32,
    /// Groups sharing the B and C projections (`mamba_n_groups` / `n_groups`); key heads
    /// (`linear_num_key_heads`).
    pub groups: u32,
    /// Convolution width (`mamba_d_conv` / `conv_kernel`; `linear_conv_kernel_dim`).
    pub conv_kernel: u32,
    /// Whether the convolution has a bias (Mamba-2 `use_conv_bias` / `mamba_conv_bias`).
    pub conv_bias: bool,
    /// Whether `in_proj` and `out_proj` have biases (`mamba_proj_bias` / `use_bias`).
    pub proj_bias: bool,
    /// Whether the gated RMSNorm exists (Falcon-H1's `mamba_rms_norm`; always elsewhere).
    pub norm: bool,
    /// Whether the checkpoint asks for an fp32 SSM state (`mamba_ssm_dtype` / `mamba_ssm_cache_dtype`
    /// = `float32`); vLLM follows it for Qwen3.5 and Nemotron-H (`models/config.py`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub ssm_f32: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Recurrent {
    /// Inner width `heads · head_dim` (Mamba-2 `intermediate_size`; DeltaNet's value width).
    pub fn inner(&self) -> u64 {
        u64::from(self.heads) * u64::from(self.head_dim)
    }

    /// B/C (Mamba-2) or q/k (DeltaNet) width: `2 · groups · state`.
    pub fn group_width(&self) -> u64 {
        2 * u64::from(self.groups) * u64::from(self.state)
    }

    /// Channels the convolution runs over, whole model: `inner + 2 · groups · state`.
    pub fn conv_dim(&self) -> u64 {
        self.inner() + self.group_width()
    }

    /// Convolution channels one GPU of a `tp`-way group keeps. Mamba-2 heads need their groups on
    /// the same GPU: groups that do not divide by `tp` become `tp` groups
    /// (`mamba_utils.py::MambaStateShapeCalculator.extra_groups_for_head_shards` adds
    /// `tp − groups`, meant for one group), then the channels divide; DeltaNet divides `conv_dim`
    /// as it is (`gated_delta_net_state_shape`).
    pub fn conv_channels(&self, tp: u64) -> u64 {
        let tp = tp.max(1);
        let groups = u64::from(self.groups);
        let groups = match self.kind {
            RecurrentKind::Mamba2 if !groups.is_multiple_of(tp) => tp,
            _ => groups,
        };
        let dim = self.inner() + 2 * groups * u64::from(self.state);
        dim.div_ceil(tp)
    }

    /// SSM / recurrent state elements of one sequence on one GPU: `heads/tp · head_dim · state`.
    pub fn ssm_elements(&self, tp: u64) -> u64 {
        u64::from(self.heads).div_ceil(tp.max(1)) * u64::from(self.head_dim) * u64::from(self.state)
    }
}

/// Which layers of a hybrid model run which mixer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hybrid {
    /// The recurrent mixer.
    pub mixer: Recurrent,
    /// Layers running the recurrent mixer.
    pub recurrent_layers: LayerSet,
    /// Layers with self-attention (Falcon-H1: every layer, in parallel with its recurrent mixer).
    pub attention_layers: LayerSet,
    /// Layers with an MLP or MoE block (Nemotron-H: only its `-` layers; the others: all).
    pub mlp_layers: LayerSet,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_matches_enumeration() {
        let s =
            LayerSet::from_pattern("M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-", b'*');
        assert_eq!(s.len(), 4);
        assert_eq!(s.indices().collect::<Vec<_>>(), vec![7, 18, 29, 40]);
        let every = LayerSet::every(200, 4, 3);
        for lo in [0, 1, 3, 63, 64, 65, 127, 128] {
            for hi in [0, 5, 64, 100, 129, 200, 2000] {
                let n = (lo..hi.min(MAX_LAYERS))
                    .filter(|&i| every.contains(i))
                    .count() as u64;
                assert_eq!(every.count_in(lo, hi), n, "{lo}..{hi}");
            }
        }
        assert_eq!(LayerSet::first(1024).len(), 1024);
        assert_eq!(LayerSet::first(2000).count_in(0, 5000), 1024);
        assert_eq!(
            LayerSet::first(8).without(LayerSet::every(8, 4, 3)).len(),
            6
        );
        let json = serde_json::to_string(&LayerSet::every(10, 4, 3)).expect("serialises");
        assert_eq!(json, "[3,7]");
        let back: LayerSet = serde_json::from_str(&json).expect("reads");
        assert_eq!(back, LayerSet::every(10, 4, 3));
        assert!(serde_json::from_str::<LayerSet>("[1024]").is_err());
    }

    #[test]
    fn mamba2_groups_follow_the_head_shards() {
        // Nemotron-H 8B: 128 heads × 64, 8 groups of 128, kernel 4.
        let m = Recurrent {
            kind: RecurrentKind::Mamba2,
            heads: 128,
            head_dim: 64,
            state: 128,
            groups: 8,
            conv_kernel: 4,
            conv_bias: true,
            proj_bias: false,
            norm: true,
            ssm_f32: false,
        };
        assert_eq!(m.conv_dim(), 8192 + 2 * 8 * 128);
        assert_eq!(m.conv_channels(2), (8192 + 2 * 8 * 128) / 2);
        // Three GPUs: 8 groups do not divide, vLLM's rule makes them 8 + (3 − 8) = 3.
        assert_eq!(m.conv_channels(3), (8192 + 2 * 3 * 128_u64).div_ceil(3));
        assert_eq!(m.ssm_elements(2), 64 * 64 * 128);
        // One group on four GPUs: replicated to four groups.
        let one = Recurrent { groups: 1, ..m };
        assert_eq!(one.conv_channels(4), (8192 + 2 * 4 * 128) / 4);
    }
}
