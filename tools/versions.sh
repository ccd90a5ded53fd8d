# Every tool version the build and the tests pin, in one place: scripts/env.sh sources this file,
# scripts/setup installs these versions, and tests/tests/self_contained.rs checks that the two pins
# kept elsewhere by their own tools say the same: Trunk.toml's `wasm_bindgen` equals Cargo.lock's
# wasm-bindgen (the CLI must match the library), and tests/e2e/package.json's @playwright/test
# equals PLAYWRIGHT_VERSION (npm ci reads its own lock).

# The nightly that rebuilds the standard library for the release wasm (scripts/env.sh).
VRAMFIT_NIGHTLY="nightly-2026-05-19"
# Trunk, the web build.
TRUNK_VERSION="0.21.14"
# npm's binaryen (wasm-opt). Debian's binaryen provides wasm-split, whatever its version.
BINARYEN_VERSION="132"
# terser, the JS minifier of the post-build program (tools/postbuild).
TERSER_VERSION="5.51.2"
# The browser tests' runner.
PLAYWRIGHT_VERSION="1.65.1"
