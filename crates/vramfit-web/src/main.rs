//! Entry point of the web app: install the panic panel and `window.vramfit`, then mount the full
//! app or, with `?embed=1`, the widget (nothing when a page loaded only the API), drop the static
//! placeholder, and register the service worker.
fn main() {
    vramfit_web::panic_panel::install();
    vramfit_web::js_api::install();
    if vramfit_web::js_api::headless() {
        remove_boot_placeholder();
        return;
    }
    if vramfit_web::embed::requested(&vramfit_web::url::read_pairs()) {
        leptos::mount::mount_to_body(vramfit_web::embed::EmbedApp);
    } else {
        leptos::mount::mount_to_body(vramfit_web::app::App);
    }
    remove_boot_placeholder();
    vramfit_web::offline::register();
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
