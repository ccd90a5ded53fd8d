//! Entry point of the web app: install the panic panel and `window.vramfit`, then mount the full
//! app or, with `?embed=1`, the widget (nothing when a page loaded only the API) in the page's
//! language (fetched first when it is not English), drop the static placeholder, and register the
//! service worker. User Timing marks (`platform/timing.rs`: `vramfit:main` when the wasm starts,
//! `vramfit:mounted` when the page is in the document, the first estimate between) let
//! `scripts/bench` split the time to a first answer into download and compile, build, and paint.
fn main() {
    vramfit_web::mark("vramfit:main");
    vramfit_web::install_panic_panel();
    vramfit_web::install_js_api();
    if vramfit_web::api_only() {
        remove_boot_placeholder();
        return;
    }
    let pairs = vramfit_web::url_pairs();
    let embed = vramfit_web::embed_requested(&pairs);
    // The page opens in its language: a language other than English is fetched before the first
    // render (English if the fetch fails or takes over 4 s), so the first answer is not built in
    // English and rebuilt a round trip later. The static "computing…" frame stays up meanwhile.
    let l = vramfit_web::requested_language(&pairs);
    // Leptos's executor starts with the first mount: run this future on the browser's.
    wasm_bindgen_futures::spawn_local(async move {
        vramfit_web::fetch_first_language(l).await;
        if embed {
            leptos::mount::mount_to_body(vramfit_web::EmbedApp);
        } else {
            leptos::mount::mount_to_body(vramfit_web::App);
        }
        vramfit_web::mark("vramfit:mounted");
        remove_boot_placeholder();
    });
    vramfit_web::register_service_worker();
}

/// Drops the static "computing…" frame of `index.html` once the app is mounted.
fn remove_boot_placeholder() {
    if let Some(boot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        boot.remove();
    }
}
