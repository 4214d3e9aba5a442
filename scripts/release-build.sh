#!/usr/bin/env bash
# The release build: `trunk build --release ARGS...` with the standard library rebuilt for the page's size.
#
# Rust's prebuilt standard library is compiled for speed and keeps the machinery a panic uses to print its
# message and location. Rebuilt from source (`build-std`, Rust's own rust-src component) with `opt-level` "z"
# and the `immediate-abort` panic strategy, every panic becomes a WebAssembly trap: the page's first download
# is about 19 KB smaller gzipped (make bench). A trap reaches the page as a `WebAssembly.RuntimeError`, which
# index.html's error listener turns into the same "internal error" banner the panic hook shows in debug builds.
# Both options are unstable in Rust 1.95; RUSTC_BOOTSTRAP=1 lets this one command use them with the pinned
# stable toolchain, and only here: `make serve`, the tests and the CLI build as usual.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
# Replaces .cargo/config.toml's rustflags for the wasm target, so SIMD is named again.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128 -Z unstable-options -C panic=immediate-abort"
exec trunk build --release "$@"
