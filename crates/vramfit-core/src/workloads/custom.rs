//! The custom workload, for anything the catalogs do not cover (rendering, image processing,
//! another model type): the user lists what the program keeps on the GPU — persistent data,
//! intermediate results, caches and workspaces — each as a size or a size per item × a count, and
//! gets the same budget, headroom and card recommendation. Added per GPU: the CUDA context (the
//! program is assumed to use CUDA; the user can enter 0 via `cuda_context_mib`).

use crate::budget::{components, ComponentId, GpuBudget};
use crate::units::bytes::gib_to_bytes;
use crate::units::limits::{Field, RangeError};
use serde::{Deserialize, Serialize};

/// What kind of memory an item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// Stays for the whole job (weights, scene geometry, textures).
    Persistent,
    /// Produced and freed during the job (feature maps, framebuffers).
    Intermediate,
    /// Kept to avoid recomputation.
    Cache,
    /// Scratch space libraries ask for.
    Workspace,
}

closed_set!(ItemKind {
    Persistent => "persistent",
    Intermediate => "intermediate",
    Cache => "cache",
    Workspace => "workspace",
});

/// One item: `size_gib × count`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    /// A name the user recognises.
    #[serde(default)]
    pub name: String,
    /// Kind.
    pub kind: ItemKind,
    /// Size of one item, GiB.
    pub size_gib: f64,
    /// How many (default 1).
    #[serde(default = "one")]
    pub count: u64,
}

fn one() -> u64 {
    1
}

/// The custom workload.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Custom {
    /// The items.
    pub items: Vec<Item>,
}

/// Most items accepted.
pub const MAX_ITEMS: usize = 64;

impl Custom {
    /// The example job the form shows until the user describes theirs: a 12 GiB scene (or
    /// weights), four 0.5 GiB frame buffers and a 1 GiB workspace. Names are left to the page,
    /// which shows them in the user's language.
    pub fn example() -> Custom {
        let item = |kind, size_gib, count| Item {
            name: String::new(),
            kind,
            size_gib,
            count,
        };
        Custom {
            items: vec![
                item(ItemKind::Persistent, 12.0, 1),
                item(ItemKind::Intermediate, 0.5, 4),
                item(ItemKind::Workspace, 1.0, 1),
            ],
        }
    }

    /// Range checks: the first item out of range (sizes 0 … 4096 GiB, counts 1 … 10⁹, total
    /// ≤ 1 PiB), or the item past `MAX_ITEMS` (64).
    pub fn validate(&self) -> Vec<(Field, RangeError)> {
        invalid_item(self)
            .map(|i| (Field::Item(i), RangeError::Invalid))
            .into_iter()
            .collect()
    }
}

/// Which item is out of range (index), if any: sizes 0 … 4096 GiB, counts 1 … 10⁹, total ≤ 1 PiB.
fn invalid_item(c: &Custom) -> Option<usize> {
    if c.items.len() > MAX_ITEMS {
        return Some(MAX_ITEMS);
    }
    c.items.iter().position(|i| {
        !(i.size_gib.is_finite()
            && (0.0..=4096.0).contains(&i.size_gib)
            && (1..=1_000_000_000).contains(&i.count))
            || gib_to_bytes(i.size_gib * i.count as f64).is_none() && i.size_gib > 0.0
    })
}

/// Bytes of each kind (per GPU: the program runs on each card as listed).
pub fn custom_budget(c: &Custom, cuda_context: u64) -> GpuBudget {
    let mut by_kind = [0u64; 4];
    for i in &c.items {
        let bytes = gib_to_bytes(i.size_gib)
            .unwrap_or(0)
            .saturating_mul(i.count);
        let slot = match i.kind {
            ItemKind::Persistent => 0,
            ItemKind::Intermediate => 1,
            ItemKind::Cache => 2,
            ItemKind::Workspace => 3,
        };
        by_kind[slot] = by_kind[slot].saturating_add(bytes);
    }
    GpuBudget::of(components(&[
        (ComponentId::PersistentData, by_kind[0]),
        (ComponentId::Intermediates, by_kind[1]),
        (ComponentId::Caches, by_kind[2]),
        (ComponentId::Workspaces, by_kind[3]),
        (ComponentId::CudaContext, cuda_context),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_by_kind() {
        let c = Custom {
            items: vec![
                Item {
                    name: "scene".into(),
                    kind: ItemKind::Persistent,
                    size_gib: 6.0,
                    count: 1,
                },
                Item {
                    name: "textures".into(),
                    kind: ItemKind::Persistent,
                    size_gib: 0.25,
                    count: 8,
                },
                Item {
                    name: "framebuffers".into(),
                    kind: ItemKind::Intermediate,
                    size_gib: 0.5,
                    count: 3,
                },
            ],
        };
        let comps = custom_budget(&c, 0).components;
        let gib = |id| {
            comps.iter().find(|x| x.id == id).map_or(0, |x| x.bytes) as f64 / (1u64 << 30) as f64
        };
        assert_eq!(gib(ComponentId::PersistentData), 8.0);
        assert_eq!(gib(ComponentId::Intermediates), 1.5);
        assert_eq!(invalid_item(&c), None);
        let bad = Custom {
            items: vec![Item {
                name: String::new(),
                kind: ItemKind::Cache,
                size_gib: -1.0,
                count: 1,
            }],
        };
        assert_eq!(invalid_item(&bad), Some(0));
        assert_eq!(bad.validate(), vec![(Field::Item(0), RangeError::Invalid)]);
    }
}
