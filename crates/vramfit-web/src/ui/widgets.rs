//! Widgets every fieldset uses: a number field with its problem, a select, a checkbox, and the
//! translated problem of a field. Above `field` and `text`; below every `*_inputs` module.

use crate::ui::field::{Input, Problem};
use crate::ui::text;
use leptos::prelude::*;
use vramfit_i18n::Locale;

/// The translated problem of `input`, as a signal for its field.
pub fn field_error(
    problems: Memo<Vec<(Input, Problem)>>,
    input: Input,
    l: Locale,
) -> Signal<Option<String>> {
    Signal::derive(move || {
        problems
            .get()
            .into_iter()
            .find(|(i, _)| *i == input)
            .map(|(i, p)| text::problem(l, i, &p))
    })
}

/// A labelled text field for a number, with its problem shown below it.
#[component]
pub fn NumberField(
    /// Element id (also the test id).
    id: &'static str,
    /// Visible label.
    label: &'static str,
    /// The text.
    value: RwSignal<String>,
    /// The field's problem, if any.
    error: Signal<Option<String>>,
    /// Whether decimals are expected.
    #[prop(optional)]
    decimal: bool,
) -> impl IntoView {
    let err_id = format!("err-{id}");
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input id=id data-testid=id type="text" inputmode=if decimal { "decimal" } else { "numeric" }
                autocomplete="off"
                aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                aria-describedby=err_id.clone()
                prop:value=move || value.get()
                on:input=move |ev| value.set(event_target_value(&ev)) />
            <p class="err" id=err_id.clone() data-testid=err_id role="alert">{move || error.get()}</p>
        </div>
    }
}

/// A labelled select over fixed `(value, label)` options.
#[component]
pub fn SelectField(
    /// Element id (also the test id).
    id: &'static str,
    /// Visible label.
    label: &'static str,
    /// The chosen value.
    value: RwSignal<String>,
    /// `(value, label)` pairs.
    options: Vec<(&'static str, &'static str)>,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <select id=id data-testid=id on:change=move |ev| value.set(event_target_value(&ev))>
                {options.into_iter().map(|(v, l)| view! {
                    <option value=v selected=move || value.get() == v>{l}</option>
                }).collect_view()}
            </select>
        </div>
    }
}

/// A labelled checkbox.
#[component]
pub fn CheckField(
    /// Element id (also the test id).
    id: &'static str,
    /// Visible label.
    label: &'static str,
    /// The flag.
    value: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <div class="field check">
            <input id=id data-testid=id type="checkbox" prop:checked=move || value.get()
                on:change=move |ev| value.set(event_target_checked(&ev)) />
            <label for=id>{label}</label>
        </div>
    }
}

/// A select's options from one of the core's closed sets: each value's `id` and its label.
pub fn choices<T: Copy>(
    all: &[T],
    id: fn(T) -> &'static str,
    label: impl Fn(T) -> &'static str,
) -> Vec<(&'static str, &'static str)> {
    all.iter().map(|&v| (id(v), label(v))).collect()
}
