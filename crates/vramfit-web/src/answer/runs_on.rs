//! "What runs on this card": every catalog model in its usual formats on the plan's cards, as the
//! core's `runs_on` lists them (verdict, largest context, decode speed). Built on request — it is
//! a few hundred estimates — and below the answer, once the rest of the code is in.

use crate::ui::locale::locale;
use crate::ui::text::{f, t, verdict_icon, verdict_word};
use leptos::prelude::*;
use vramfit_core::{Engine, Estimate, RunsOn, Scenario, Workload};
use vramfit_i18n::Key;

/// The card, count and engine the list is for.
fn subject(
    s: &Scenario,
    e: &Estimate,
) -> Option<(
    &'static vramfit_core::catalog::Gpu,
    u32,
    Option<vramfit_core::EngineKind>,
)> {
    if !matches!(s.workload, Workload::Inference(_)) {
        return None;
    }
    let plan = e.plan.as_ref()?;
    let gpu = vramfit_core::catalog::gpu(plan.card.gpu?)?;
    Some((gpu, plan.count, s.engine.as_ref().map(Engine::kind)))
}

/// The section.
#[component]
pub fn RunsOnCard(
    /// The scenario on screen and its estimate.
    current: Signal<Option<(Scenario, Estimate)>>,
) -> impl IntoView {
    let l = locale();
    let key = Memo::new(move |_| {
        current.with(|c| {
            c.as_ref()
                .and_then(|(s, e)| subject(s, e))
                .map(|(g, n, k)| (g.id, n, k))
        })
    });
    let list: RwSignal<Option<Vec<RunsOn>>> = RwSignal::new(None);
    // A new card, count or engine: the old list no longer answers.
    Effect::new(move |_| {
        key.track();
        list.set(None);
    });
    let build = move |_| {
        if let Some((id, n, k)) = key.get_untracked() {
            let rows = vramfit_core::catalog::gpu(id)
                .and_then(|g| vramfit_core::runs_on(g, n, k).ok())
                .unwrap_or_default();
            list.set(Some(rows));
        }
    };
    move || {
        key.get().map(|(id, n, _)| {
            let name = crate::ui::text::gpu_name(id);
            let card = if n > 1 { format!("{n} × {name}") } else { name.to_string() };
            view! {
                <section class="guide" data-testid="runs-on">
                    <h2>{f(l, Key::RunsOnTitle, &[("card", &card)])}</h2>
                    <p>{f(l, Key::RunsOnIntro, &[("tokens", &l.integer(u64::from(vramfit_core::RUNS_ON_CONTEXT)))])}</p>
                    {move || match list.get() {
                        None => view! {
                            <button type="button" data-testid="runs-on-show" on:click=build>{t(l, Key::RunsOnShow)}</button>
                        }.into_any(),
                        Some(rows) => view! {
                            <div class="table-scroll">
                                <table data-testid="runs-on-table">
                                    <thead><tr>
                                        <th scope="col">{t(l, Key::ColModel)}</th>
                                        <th scope="col">{t(l, Key::ColFormat)}</th>
                                        <th scope="col"></th>
                                        <th scope="col">{t(l, Key::ColMaxContext)}</th>
                                        <th scope="col">{t(l, Key::ColTokPerRequest)}</th>
                                    </tr></thead>
                                    <tbody>
                                        {rows.into_iter().map(|r| {
                                            let model = vramfit_core::catalog::model(r.model).map_or(r.model, |m| m.name);
                                            view! {
                                                <tr>
                                                    <th scope="row">{model}</th>
                                                    <td>{r.weights}</td>
                                                    <td>{format!("{} {}", verdict_icon(r.verdict), verdict_word(l, r.verdict))}</td>
                                                    <td>{r.max_context_tokens.map_or("–".into(), |c| l.integer(c))}</td>
                                                    <td>{r.decode_tokens_per_s.map_or("–".into(), |x| l.decimal(x, 0))}</td>
                                                </tr>
                                            }
                                        }).collect_view()}
                                    </tbody>
                                </table>
                            </div>
                        }.into_any(),
                    }}
                </section>
            }
        })
    }
}
