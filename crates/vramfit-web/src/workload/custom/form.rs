//! The custom workload's items as editable rows, and their conversion to the core's `Custom`.

use crate::ui::field::{parse_decimal, parse_whole, Input, Problem};
use leptos::prelude::*;
use vramfit_core::{Custom, Item, ItemKind};
use vramfit_i18n::Key;

/// The names of `Custom::example`'s items, shown in the user's language (as the name field's
/// placeholder, so that a language that arrives later, or a switch, renames them).
const EXAMPLE_NAMES: [Key; 3] = [
    Key::ExampleItemScene,
    Key::ExampleItemFrames,
    Key::ExampleItemWorkspace,
];

/// One editable item.
#[derive(Clone, Copy, Debug)]
pub struct ItemRow {
    /// Stable key for the list.
    pub key: u32,
    /// Name.
    pub name: RwSignal<String>,
    /// Kind (`persistent`, `intermediate`, `cache`, `workspace`).
    pub kind: RwSignal<String>,
    /// Size per item, GiB.
    pub size: RwSignal<String>,
    /// Count.
    pub count: RwSignal<String>,
    /// The example item's name this row shows while its own is empty (rows of the example job).
    pub example: Option<Key>,
}

/// The rows.
#[derive(Clone, Copy)]
pub struct CustomForm {
    /// Rows in order.
    pub rows: RwSignal<Vec<ItemRow>>,
    /// Next key.
    next: RwSignal<u32>,
}

fn kind_of(s: &str) -> ItemKind {
    ItemKind::ALL
        .into_iter()
        .find(|k| k.id() == s)
        .unwrap_or(ItemKind::Persistent)
}

impl CustomForm {
    /// Rows showing `c` (the core's example job when it is empty or is that job).
    pub fn new(c: Option<&Custom>) -> CustomForm {
        let example = Custom::example();
        let items = match c {
            Some(c) if !c.items.is_empty() => c.items.clone(),
            _ => example.items.clone(),
        };
        let is_example = items == example.items;
        let rows = items
            .iter()
            .enumerate()
            .map(|(i, it)| ItemRow {
                key: i as u32,
                name: RwSignal::new(it.name.clone()),
                kind: RwSignal::new(ItemKind::id(it.kind).into()),
                size: RwSignal::new(vramfit_core::num::shortest(it.size_gib)),
                count: RwSignal::new(it.count.to_string()),
                example: EXAMPLE_NAMES.get(i).copied().filter(|_| is_example),
            })
            .collect::<Vec<_>>();
        let next = rows.len() as u32;
        CustomForm {
            rows: RwSignal::new(rows),
            next: RwSignal::new(next),
        }
    }

    /// Adds an empty row.
    pub fn add(&self) {
        let key = self.next.get_untracked();
        self.next.set(key + 1);
        self.rows.update(|r| {
            r.push(ItemRow {
                key,
                name: RwSignal::new(String::new()),
                kind: RwSignal::new(ItemKind::Persistent.id().into()),
                size: RwSignal::new("1".into()),
                count: RwSignal::new("1".into()),
                example: None,
            })
        });
    }

    /// Removes the row with `key`.
    pub fn remove(&self, key: u32) {
        self.rows.update(|r| r.retain(|x| x.key != key));
    }

    /// The `Custom` the rows describe, pushing a problem per bad row.
    pub fn custom(&self, problems: &mut Vec<(Input, Problem)>) -> Custom {
        let rows = self.rows.get();
        let items = rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let size = parse_decimal(&r.size.get());
                let count = parse_whole(&r.count.get());
                match (size, count) {
                    (Ok(size_gib), Ok(count)) => Some(Item {
                        name: r.name.get(),
                        kind: kind_of(&r.kind.get()),
                        size_gib,
                        count: u64::from(count),
                    }),
                    (Err(p), _) | (_, Err(p)) => {
                        problems.push((Input::Item(i), p));
                        None
                    }
                }
            })
            .collect();
        Custom { items }
    }
}
