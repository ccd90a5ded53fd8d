//! A plain Leptos counter, the reference page `scripts/bench` times beside the app (time to
//! ready is compared with a Leptos counter measured in the same run, so the ratio holds on a
//! noisy machine). Its count is the element the bench waits for (`data-testid="verdict"`).
use leptos::prelude::*;

/// The counter: a number and a button that adds one.
#[component]
fn Counter() -> impl IntoView {
    let count = RwSignal::new(0u32);
    view! {
        <main>
            <h1>"counter"</h1>
            <p data-testid="verdict">{move || count.get()}</p>
            <button type="button" on:click=move |_| count.update(|c| *c += 1)>"+1"</button>
        </main>
    }
}

fn main() {
    leptos::mount::mount_to_body(Counter);
}
