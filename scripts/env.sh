# Sourced by the scripts: puts the project's tools on PATH.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/.tools/node_modules/binaryen/bin:$HOME/.cargo/bin:$PATH"

# The release web build, as small as the toolchain makes it: the pinned nightly rebuilds the
# standard library for wasm32 with `optimize_for_size` and `-C panic=immediate-abort` (a panic traps
# at once: no message formatting, no unwinding tables, no panic hook; `www/panic.js` shows the panic
# panel from the trap instead); each of the two makes the wasm smaller. Without the pinned nightly
# (scripts/setup installs it) the build falls back to stable, larger but the same app.
# Without reference types (both builds): wasm-bindgen then keeps JS objects in a JS array instead of
# a second wasm table, and Debian's wasm-split (binaryen 108) splits only a module with one table
# (tools/split-wasm).
# The pinned versions (VRAMFIT_NIGHTLY among them).
source "$ROOT/tools/versions.sh"
web_release_build() {
  # The linker's map of the app's wasm (crates/vramfit-web/build.rs), beside the wasm it describes:
  # tools/postbuild/cold-data.js moves the data only the rest of the code reads out of the primary.
  local target="${CARGO_TARGET_DIR:-$ROOT/target}"
  export VRAMFIT_LINK_MAP="$target/wasm32-unknown-unknown/release/vramfit-web.map"
  if rustup run "$VRAMFIT_NIGHTLY" rustc --print sysroot >/dev/null 2>&1 \
    && [[ -d "$(rustup run "$VRAMFIT_NIGHTLY" rustc --print sysroot)/lib/rustlib/src/rust/library" ]]; then
    RUSTUP_TOOLCHAIN="$VRAMFIT_NIGHTLY" \
      CARGO_UNSTABLE_BUILD_STD="std,panic_abort" \
      CARGO_UNSTABLE_BUILD_STD_FEATURES="optimize_for_size" \
      CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg erase_components -Zunstable-options -Cpanic=immediate-abort -Ctarget-feature=-reference-types" \
      trunk build --release "$@"
  else
    echo "note: $VRAMFIT_NIGHTLY with rust-src is missing (scripts/setup installs it): building with stable, ≈ 30 KB gzip larger" >&2
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Ctarget-feature=-reference-types" trunk build --release "$@"
  fi
}
