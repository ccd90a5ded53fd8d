//! Entry point of the web app: install the panic panel, mount the app, drop the static placeholder.
fn main() {
    vramfit_web::panic_panel::install();
    leptos::mount::mount_to_body(vramfit_web::app::App);
    if let Some(boot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        boot.remove();
    }
}
