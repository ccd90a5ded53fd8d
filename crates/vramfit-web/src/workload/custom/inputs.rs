//! The custom workload's fieldset: a list of items, each a size or a size per item × a count.

use crate::ui::field::{Input, Problem};
use crate::ui::locale::locale;
use crate::ui::text::{self, t};
use crate::ui::widgets::choices;
use crate::workload::custom::form::CustomForm;
use leptos::prelude::*;
use vramfit_core::ItemKind;
use vramfit_i18n::Key;

/// The item list.
#[component]
pub fn CustomInputs(
    /// Rows.
    form: CustomForm,
    /// Current problems per field.
    problems: Memo<Vec<(Input, Problem)>>,
) -> impl IntoView {
    let l = locale();
    let kinds = choices(&ItemKind::ALL, ItemKind::id, |k| text::item_kind(l, k));
    let entries = move || form.rows.get().into_iter().enumerate().collect::<Vec<_>>();
    view! {
        <fieldset data-testid="custom">
            <legend>{t(l, Key::CustomLegend)}</legend>
            <p class="hint">{t(l, Key::CustomHint)}</p>
            <For each=entries key=|pair| pair.1.key let:pair>
                {
                    let (i, row) = pair;
                    let err = move || {
                        problems.get().into_iter().find(|(inp, _)| *inp == Input::Item(i)).map(|(inp, p)| text::problem(l, inp, &p))
                    };
                    view! {
                        <div class="item" data-testid=format!("item-{i}")>
                            <input type="text" class="item-name" aria-label=t(l, Key::ItemName) placeholder=t(l, row.example.unwrap_or(Key::ItemName))
                                prop:value=move || row.name.get() on:input=move |ev| row.name.set(event_target_value(&ev)) />
                            <select class="item-kind" aria-label=t(l, Key::ItemKind) on:change=move |ev| row.kind.set(event_target_value(&ev))>
                                {kinds.clone().into_iter().map(|(v, label)| view! {
                                    <option value=v selected=move || row.kind.get() == v>{label}</option>
                                }).collect_view()}
                            </select>
                            <input type="text" class="item-size" inputmode="decimal" aria-label=t(l, Key::ItemSize) data-testid=format!("item-size-{i}")
                                prop:value=move || row.size.get() on:input=move |ev| row.size.set(event_target_value(&ev)) />
                            <span class="item-x" aria-hidden="true">"×"</span>
                            <input type="text" class="item-count" inputmode="numeric" aria-label=t(l, Key::ItemCount)
                                prop:value=move || row.count.get() on:input=move |ev| row.count.set(event_target_value(&ev)) />
                            <button type="button" class="item-remove" on:click=move |_| form.remove(row.key)>{t(l, Key::RemoveItem)}</button>
                            <p class="err" role="alert" data-testid=format!("err-item-{i}")>{err}</p>
                        </div>
                    }
                }
            </For>
            <button type="button" data-testid="add-item" on:click=move |_| form.add()>{t(l, Key::AddItem)}</button>
        </fieldset>
    }
}
