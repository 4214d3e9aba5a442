# Shared by the scripts in this folder: `source "$(dirname "$0")/lib.sh"`.
# Puts the pinned tools on PATH (cargo's bin dir, then binaryen's wasm-opt from e2e/node_modules) and stops
# Trunk from checking for updates, so nothing is ever downloaded behind our back.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH="$CARGO_BIN:$ROOT/e2e/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

# Pinned versions (see /work/shared/toolchain.md in the team notes, and README.md).
TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
BINARYEN_VERSION=132
WASM_TARGET=wasm32-unknown-unknown
CHROMIUM="${EPOCHLAB_CHROMIUM:-/usr/bin/chromium}"

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
ok() { printf '    ok: %s\n' "$*"; }
die() {
  printf '\033[1;31merror:\033[0m %s\n' "$*" >&2
  exit 1
}
