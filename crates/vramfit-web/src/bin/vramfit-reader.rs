//! The header reader's web worker (built by Trunk as `vramfit-reader`, loaded by the page only
//! when a file is dropped): see `vramfit_web::reader`.
fn main() {
    vramfit_web::reader::worker_main();
}
