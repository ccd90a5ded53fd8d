//! The page: header, the inputs beside the answer, and the state flow
//! URL → form (text) → scenario → estimate → view, with the last valid estimate kept on screen
//! while a field holds something invalid.

use crate::form::{Form, Input, Problem};
use crate::inputs::Inputs;
use crate::result::ResultView;
use crate::url;
use leptos::prelude::*;
use vramfit_core::query::{self, QueryNote};
use vramfit_core::{estimate, Estimate};

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    let (initial, notes) = query::from_pairs(&url::read_pairs());
    let form = Form::new(&initial);
    let draft = Memo::new(move |_| form.scenario());
    let last_good = RwSignal::new(estimate(&initial).ok());
    Effect::new(move |_| {
        if let Ok(s) = draft.get() {
            if let Ok(e) = estimate(&s) {
                url::replace(&s);
                last_good.set(Some(e));
            }
        }
    });
    let problems: Memo<Vec<(Input, Problem)>> =
        Memo::new(move |_| draft.get().err().unwrap_or_default());
    let shown: Signal<Option<Estimate>> = last_good.into();
    view! {
        <header class="top">
            <h1>"vramfit"</h1>
            <p class="tagline">"GPU memory budget, computed in your browser. Nothing leaves this page."</p>
        </header>
        <UrlNotes notes=notes />
        <main class="layout">
            <Inputs form=form problems=problems estimate=shown />
            <ResultView estimate=shown stale=Signal::derive(move || !problems.get().is_empty()) />
        </main>
        <footer class="foot">
            <p>"Estimates, not guarantees: measure the configuration you will run (peak allocated and reserved memory, and nvidia-smi) before you commit."</p>
        </footer>
    }
}

/// Notes on link parameters that were unusable and fell back to defaults.
#[component]
fn UrlNotes(notes: Vec<QueryNote>) -> impl IntoView {
    (!notes.is_empty()).then(|| {
        view! {
            <div class="note" role="status" data-testid="url-notes">
                <strong>"Some link parameters could not be used and were reset: "</strong>
                {notes
                    .into_iter()
                    .map(|n| view! { <code>{format!("{}={}", n.param, n.value)}</code>" " })
                    .collect_view()}
            </div>
        }
    })
}
