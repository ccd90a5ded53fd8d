//! Entry point of the web app: install the panic panel, mount the app.
fn main() {
    vramfit_web::panic_panel::install();
    leptos::mount::mount_to_body(vramfit_web::app::App);
}
