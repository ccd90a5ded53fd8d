//! Entry point of the web app: install the panic panel and `window.vramfit`, then mount the full
//! app or, with `?embed=1`, the widget (nothing when a page loaded only the API), and register the
//! service worker.
fn main() {
    vramfit_web::panic_panel::install();
    vramfit_web::js_api::install();
    if vramfit_web::js_api::headless() {
        return;
    }
    if vramfit_web::embed::requested(&vramfit_web::url::read_pairs()) {
        leptos::mount::mount_to_body(vramfit_web::embed::EmbedApp);
    } else {
        leptos::mount::mount_to_body(vramfit_web::app::App);
    }
    vramfit_web::offline::register();
}
