//! The footer's choice to keep every language and the file reader on the device for offline use.
//! A first visit's service worker keeps the app and the languages and reader it used
//! (ARCHITECTURE.md, "First-visit caching"); this box asks it for the rest, or to drop it again,
//! and shows what keeping everything would still download. Shown only on a page a service worker
//! controls.

use crate::platform::offline::{ask, on_controller_change, Kept};
use crate::ui::locale::locale;
use crate::ui::text::{f, t};
use leptos::prelude::*;
use leptos::task::spawn_local;
use vramfit_i18n::Key;

/// The box, once the worker has said what it keeps.
#[component]
pub fn KeepOffline() -> impl IntoView {
    let l = locale();
    let kept = RwSignal::new(None::<Kept>);
    let refresh = move || spawn_local(async move { kept.set(ask(None).await) });
    refresh();
    // A first visit's page is controlled only once the new worker claims it.
    on_controller_change(refresh);
    let change = move |ev| {
        let on = event_target_checked(&ev);
        spawn_local(async move {
            if let Some(k) = ask(Some(on)).await {
                kept.set(Some(k));
            }
        });
    };
    move || {
        kept.get().map(|k| {
            let size = (!k.all && k.missing_bytes > 0).then(|| {
                let mb = l.decimal(k.missing_bytes as f64 / 1e6, 1);
                format!(" ({})", f(l, Key::KeepOfflineSize, &[("mb", &mb)]))
            });
            view! {
                <p class="keep-offline">
                    <label>
                        <input type="checkbox" data-testid="keep-offline" prop:checked=k.all on:change=change />
                        " "{t(l, Key::KeepOffline)}{size}
                    </label>
                </p>
            }
        })
    }
}
