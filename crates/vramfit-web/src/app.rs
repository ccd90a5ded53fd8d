//! The page: header (language, copy link, embed snippet), the inputs beside the answer, guidance
//! below, and the state flow URL → form (text) → scenario → estimate → view. The last valid
//! estimate stays on screen while a field holds something invalid; the URL follows every valid
//! change (`lang=` included), and `<html lang>` follows the language. A language other than
//! English is fetched the first time it is asked for ([`crate::platform::lang`]): the page's first language
//! before the page is built (`main`), a switch while the page shows English until it is in.

use crate::answer::guidance::{Checklist, Faq};
use crate::answer::keep_offline::KeepOffline;
use crate::answer::measure::MeasureIt;
use crate::answer::runs_on::RunsOnCard;
use crate::answer::sections::Answer;
use crate::answer::speed::OffersNotes;
use crate::embed::EmbedPanel;
use crate::platform::{first_frame, lang as lang_data, later, panic_panel, url};
use crate::ui::field::{Input, Problem};
use crate::ui::locale::{locale, provide_locale};
use crate::ui::text::t;
use crate::workload::form::Live;
use crate::workload::inputs::Inputs;
use leptos::prelude::*;
use vramfit_core::query::{self, QueryNote};
use vramfit_i18n::{Key, Locale};

/// The whole app.
#[component]
pub fn App() -> impl IntoView {
    let pairs = url::read_pairs();
    // The language asked for (URL, browser, switch) and the one shown: English until its texts
    // are in (`main` fetches the first one before mounting, so the first answer is in it).
    let lang = RwSignal::new(lang_data::requested(&pairs));
    let arrived = RwSignal::new(0u32);
    let in_lang = Memo::new(move |_| {
        arrived.track();
        Some(lang.get())
            .filter(|l| l.is_available())
            .unwrap_or_default()
    });
    Effect::new(move |_| {
        let wanted = lang.get();
        if !wanted.is_available() {
            leptos::task::spawn_local(async move {
                if lang_data::ensure(wanted).await {
                    arrived.update(|n| *n += 1);
                }
            });
        }
    });
    let (initial, notes) = query::from_pairs(&pairs);
    let live = Live::new(&initial);
    let shown = live.shown();
    let Live {
        form,
        draft,
        last_good,
        waiting,
    } = live;
    // The page's language: only when it changes. Setting `<html lang>` restyles the whole
    // document even to the same value, which made every input slow when this ran with every
    // estimate.
    Effect::new(move |_| {
        let l = in_lang.get();
        panic_panel::set_locale(l);
        crate::ui::field::set_decimal_separator(l);
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            doc.set_title(t(l, Key::PageTitle));
            if let Some(el) = doc.document_element() {
                if el.get_attribute("lang").as_deref() != Some(l.tag()) {
                    let _ = el.set_attribute("lang", l.tag());
                }
            }
        }
    });
    Effect::new(move |_| {
        last_good.with(|g| {
            if let Some((s, _)) = g {
                url::replace_soon(s, lang.get());
            }
        });
    });
    let problems: Memo<Vec<(Input, Problem)>> =
        Memo::new(move |_| draft.get().err().unwrap_or_default());
    let stale = move || !problems.get().is_empty();
    // The measuring section stays built while a workload the core writes a measurement for is on
    // screen (see `answer/measure.rs`): serving, training, image and video generation.
    let has_model = Memo::new(move |_| {
        last_good.with(|g| {
            g.as_ref()
                .is_some_and(|(s, _)| !matches!(s.workload, vramfit_core::Workload::Custom(_)))
        })
    });
    let llm = Signal::derive(move || {
        last_good.with(|g| g.as_ref().is_some_and(|(_, e)| e.model.is_some()))
    });
    let settled = later::settled();
    // The inputs column follows the first frame (`platform/first_frame.rs`); a language switch,
    // which builds the page again, builds it at once.
    let inputs_built = first_frame::after_first_frame();
    let pasted = RwSignal::new(String::new());
    let tab = RwSignal::new(None::<u8>);
    let copied = RwSignal::new(false);
    let embed_open = RwSignal::new(false);
    let copy_link = move |_| {
        url::flush();
        if let Some(w) = web_sys::window() {
            if let Ok(href) = w.location().href() {
                let _ = w.navigator().clipboard().write_text(&href);
                copied.set(true);
            }
        }
    };
    view! {
        {move || {
            let l = in_lang.get();
            provide_locale(l);
            let wanted = lang.get_untracked();
            view! {
                <a class="skip" href="#answer">{t(l, Key::SkipToAnswer)}</a>
                <header class="top">
                    <h1>"vramfit"</h1>
                    <p class="tagline">{t(l, Key::Tagline)}</p>
                    <div class="tools">
                        <label for="lang" class="sr-only">{t(l, Key::LanguageLabel)}</label>
                        <select id="lang" data-testid="lang" aria-label=t(l, Key::LanguageLabel)
                            on:change=move |ev| {
                                if let Some(v) = Locale::from_tag(&event_target_value(&ev)) {
                                    lang.set(v);
                                }
                            }>
                            {Locale::ALL.into_iter().map(|o| view! {
                                <option value=o.tag() selected=o == wanted>{o.native_name()}</option>
                            }).collect_view()}
                        </select>
                        <button type="button" data-testid="copy-link" on:click=copy_link>
                            {move || t(l, if copied.get() { Key::LinkCopied } else { Key::CopyLink })}
                        </button>
                        <button type="button" data-testid="embed" aria-expanded=move || embed_open.get().to_string()
                            on:click=move |_| embed_open.update(|o| *o = !*o)>{t(l, Key::EmbedButton)}</button>
                    </div>
                </header>
                <EmbedPanel open=embed_open current=last_good />
                <UrlNotes notes=notes.clone() />
                // One line that stays in view while any input changes, and the only part of the
                // answer read out: the verdict with its speed and price, not every number.
                <p class="verdict-bar" data-testid="verdict-bar" aria-live="polite" aria-atomic="true">
                    {move || shown.with(|e| e.as_ref().map(|e| crate::answer::speed::summary(l, e)))}
                    <Show when=move || waiting.get()>
                        <span class="busy" data-testid="busy">" · "{t(l, Key::BusyRest)}</span>
                    </Show>
                </p>
                <main class="layout">
                    <Show when=move || inputs_built.get() fallback=|| view! { <section class="inputs"></section> }>
                        <Inputs form=form problems=problems estimate=shown.into() />
                    </Show>
                    <section class="answer" id="answer" tabindex="-1" aria-label=t(l, Key::AnswerAria)>
                        <Show when=stale>
                            <p class="note" data-testid="stale">{t(l, Key::StaleNote)}</p>
                        </Show>
                        <Show when=move || shown.with(Option::is_some)>
                            <Answer e=shown />
                        </Show>
                    </section>
                </main>
                // Below the answer: built once the rest of the code is in (`platform/later.rs`).
                <Show when=move || settled.get()>
                    <div class="guidance">
                        {move || last_good.get().filter(|(_, e)| e.model.is_some()).map(|(s, e)| view! {
                            <Checklist s=s e=e />
                        })}
                        {move || has_model.get().then(|| view! {
                            <MeasureIt current=last_good.into() pasted=pasted tab=tab />
                        })}
                        {move || last_good.get().map(|(_, e)| view! { <OffersNotes e=e /> })}
                        <RunsOnCard current=last_good.into() />
                        <Faq llm=llm />
                    </div>
                </Show>
                <footer class="foot">
                    <p>{t(l, Key::Footer)}</p>
                    <Show when=move || settled.get()><KeepOffline /></Show>
                </footer>
            }
        }}
    }
}

/// Notes on link parameters that were unusable and fell back to defaults.
#[component]
fn UrlNotes(notes: Vec<QueryNote>) -> impl IntoView {
    let l = locale();
    (!notes.is_empty()).then(|| {
        view! {
            <div class="note" role="status" data-testid="url-notes">
                <strong>{t(l, Key::UrlNotesIntro)}" "</strong>
                {notes
                    .into_iter()
                    .map(|n| view! { <code>{format!("{}={}", n.param, n.value)}</code>" " })
                    .collect_view()}
            </div>
        }
    })
}
