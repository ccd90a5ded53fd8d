//! The speculative-decoding fields of a server: the proposers the core says can serve this model
//! (its MTP layers where it ships them and the engine runs them, catalog drafts that share its
//! vocabulary) and the tokens proposed per step.

use crate::ui::field::{Input, Problem};
use crate::ui::locale::locale;
use crate::ui::text::t;
use crate::ui::widgets::{field_error, NumberField};
use crate::workload::spec::form::{SpecForm, SPEC_MTP};
use leptos::prelude::*;
use vramfit_core::ModelArch;
use vramfit_i18n::Key;

/// The proposer select and its tokens field.
#[component]
pub fn SpecInputs(
    /// The fields.
    form: SpecForm,
    /// The model being served (none until an estimate has one).
    arch: Signal<Option<ModelArch>>,
    /// Whether the chosen engine runs MTP layers (vLLM, SGLang, engine-neutral).
    runs_mtp: Signal<bool>,
    /// Current problems per field.
    problems: Memo<Vec<(Input, Problem)>>,
) -> impl IntoView {
    let l = locale();
    let drafts = Memo::new(move |_| {
        arch.get().map_or_else(Vec::new, |a| {
            vramfit_core::catalog::draft_candidates(&a)
                .into_iter()
                .map(|m| (m.id, m.name))
                .collect::<Vec<_>>()
        })
    });
    let has_mtp = move || runs_mtp.get() && arch.get().is_some_and(|a| a.mtp_layers > 0);
    view! {
        <div class="row">
            <div class="field">
                <label for="spec">{t(l, Key::SpecLabel)}</label>
                <select id="spec" data-testid="spec"
                    on:change=move |ev| form.choice.set(event_target_value(&ev))>
                    <option value="" selected=move || form.choice.get().is_empty()>{t(l, Key::SpecNone)}</option>
                    <Show when=has_mtp>
                        <option value=SPEC_MTP selected=move || form.choice.get() == SPEC_MTP>{t(l, Key::SpecMtp)}</option>
                    </Show>
                    <For each=move || drafts.get() key=|(id, _)| *id let:((id, name))>
                        <option value=id selected=move || form.choice.get() == id>{name}</option>
                    </For>
                </select>
                <p class="err" role="alert">{move || field_error(problems, Input::Speculative("draft"), l).get()}</p>
            </div>
            <Show when=move || !form.choice.get().is_empty()>
                <NumberField id="spec_tokens" label=t(l, Key::SpecTokens) value=form.tokens error=field_error(problems, Input::Speculative("num_tokens"), l) />
            </Show>
        </div>
    }
}
