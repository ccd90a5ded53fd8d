//! The header reader's web worker (built by Trunk as `vramfit-reader`, loaded by the page only
//! when a file is dropped): see `files/reader.rs`.
fn main() {
    vramfit_web::reader_worker_main();
}
