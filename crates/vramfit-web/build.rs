//! Asks the linker for a map of the app's wasm when `VRAMFIT_LINK_MAP` names a file
//! (`scripts/env.sh`'s release build sets it), and to keep its relocations in the wasm.
//! tools/postbuild/cold-data.js reads both: where each piece of data lies and how long it is, and
//! which addresses the code names outside the piece they are for, so that data only the rest of
//! the code reads can move to the rest's module. Only the `vramfit-web` binary, only for wasm.
//! (The relocations go no further than the split: the post-build program, tools/postbuild,
//! drops them from what it ships.) tools/split-reach reads them too, for its measurement.

fn main() {
    println!("cargo:rerun-if-env-changed=VRAMFIT_LINK_MAP");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if let (true, Ok(map)) = (wasm, std::env::var("VRAMFIT_LINK_MAP")) {
        if !map.is_empty() {
            println!("cargo:rustc-link-arg-bin=vramfit-web=--Map={map}");
            println!("cargo:rustc-link-arg-bin=vramfit-web=--emit-relocs");
        }
    }
}
