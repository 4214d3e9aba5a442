#!/usr/bin/env bash
# Installs what `make serve`, `make build` and `make test` need, skipping whatever is already present at the
# right version, so a second run takes a second or two.
#
#   scripts/setup.sh             Rust wasm target, trunk, wasm-bindgen-cli, npm packages (Playwright, binaryen, terser)
#   scripts/setup.sh --browser   the same, plus Debian's chromium and chromium-driver (for the browser tests)
#   scripts/setup.sh --dry-run   only report what would be installed (also: SETUP_DRY_RUN=1)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

browser=0
dry_run="${SETUP_DRY_RUN:-0}"
for arg in "$@"; do
  case "$arg" in
    --browser) browser=1 ;;
    --dry-run) dry_run=1 ;;
    *) die "unknown argument: $arg (expected --browser or --dry-run)" ;;
  esac
done

# Runs a command, or only prints it in a dry run.
run() {
  if [[ "$dry_run" == 1 ]]; then
    printf '    would run: %s\n' "$*"
  else
    printf '    running: %s\n' "$*"
    "$@"
  fi
}

# First line of `CMD --version`, or nothing when CMD is missing or fails.
version_of() {
  command -v "$1" >/dev/null 2>&1 || return 0
  "$1" --version 2>/dev/null | head -n 1 || true
}

# Succeeds when `CMD --version` prints exactly "CMD VERSION" (how trunk and wasm-bindgen report themselves).
has_version() {
  [[ "$(version_of "$1")" == "$1 $2" ]]
}

# "CMD VERSION" as CMD reports it, or "no CMD".
describe() {
  local found
  found="$(version_of "$1")"
  echo "${found:-no $1}"
}

check_prerequisites() {
  command -v cargo >/dev/null || die "cargo not found: install Rust with rustup (https://rustup.rs), then re-run"
  command -v rustup >/dev/null || die "rustup not found: the wasm target is installed with rustup"
  command -v npm >/dev/null || die "npm not found: install Node.js 18 or later (Debian: apt-get install nodejs npm)"
  command -v python3 >/dev/null || die "python3 not found: the browser tests serve the built site with python3"
}

setup_wasm_target() {
  if rustup target list --installed | grep -qx "$WASM_TARGET"; then
    ok "Rust target $WASM_TARGET"
  else
    say "Adding the Rust target $WASM_TARGET (the app compiles to WebAssembly; a few seconds)"
    run rustup target add "$WASM_TARGET"
  fi
  # The release build recompiles the standard library for size (scripts/release-build.sh): it needs its source.
  if rustup component list --installed | grep -qx "rust-src"; then
    ok "Rust component rust-src"
  else
    say "Adding the Rust component rust-src (the release build compiles the standard library for size; a few seconds)"
    run rustup component add rust-src
  fi
}

setup_trunk() {
  if has_version trunk "$TRUNK_VERSION"; then
    ok "trunk $TRUNK_VERSION"
  else
    say "Installing trunk $TRUNK_VERSION (found: $(describe trunk)). Trunk builds and serves the web app."
    say "It compiles from source: about 8 minutes and 2 GB of memory on 2 cores, once per machine."
    run cargo install --locked --force "trunk@$TRUNK_VERSION"
  fi
}

setup_wasm_bindgen() {
  if has_version wasm-bindgen "$WASM_BINDGEN_VERSION" && has_version wasm-bindgen-test-runner "$WASM_BINDGEN_VERSION"; then
    ok "wasm-bindgen $WASM_BINDGEN_VERSION (and wasm-bindgen-test-runner)"
  else
    say "Installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (found: $(describe wasm-bindgen), $(describe wasm-bindgen-test-runner))."
    say "It must equal the wasm-bindgen crate pinned in Cargo.toml; Trunk and the wasm test runner use it."
    say "About 2 to 3 minutes. (No --locked: its lockfile wants a crate release the registry lacks.)"
    run cargo install --force wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION"
  fi
}

# What node_modules was installed from: a hash of package.json and package-lock.json, kept in node_modules.
NPM_STAMP="$ROOT/e2e/node_modules/.epochlab-installed-from"
npm_inputs_hash() {
  cat "$ROOT/e2e/package.json" "$ROOT/e2e/package-lock.json" 2>/dev/null | sha256sum | cut -d' ' -f1
}

# node_modules is stale when missing, installed from another package.json/package-lock.json, or lacks a tool.
npm_packages_fresh() {
  [[ -f "$NPM_STAMP" && "$(cat "$NPM_STAMP")" == "$(npm_inputs_hash)" ]] || return 1
  [[ -x "$ROOT/e2e/node_modules/.bin/playwright" ]] || return 1
  [[ "$(version_of "$ROOT/e2e/node_modules/.bin/wasm-opt")" == "wasm-opt version $BINARYEN_VERSION "* ]] || return 1
  [[ -x "$ROOT/e2e/node_modules/.bin/terser" ]] || return 1
}

setup_npm_packages() {
  if npm_packages_fresh; then
    ok "npm packages in e2e/ (Playwright, binaryen $BINARYEN_VERSION's wasm-opt, terser)"
    return
  fi
  say "Installing the npm packages in e2e/: Playwright (browser tests), binaryen $BINARYEN_VERSION and terser (wasm-opt and JS minification for"
  say "release builds), because node_modules is missing or was installed from another package-lock.json. Seconds."
  # Playwright must not download browsers: the tests use Debian's chromium.
  export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
  if [[ -f "$ROOT/e2e/package-lock.json" ]]; then
    run npm ci --prefix "$ROOT/e2e" --no-audit --no-fund
  else
    run npm install --prefix "$ROOT/e2e" --no-audit --no-fund
  fi
  if [[ "$dry_run" != 1 ]]; then npm_inputs_hash >"$NPM_STAMP"; fi
}

setup_chromium() {
  local missing=()
  [[ -x "$CHROMIUM" ]] || missing+=("$CHROMIUM")
  command -v chromedriver >/dev/null 2>&1 || missing+=("chromedriver")
  if [[ ${#missing[@]} -eq 0 ]]; then
    ok "chromium and chromedriver ($(chromedriver --version 2>/dev/null | cut -d' ' -f1-2))"
    return
  fi
  say "Installing Debian's chromium and chromium-driver (missing: ${missing[*]}); the wasm and Playwright tests"
  say "run in headless Chromium. About a minute, 500 MB."
  local sudo=()
  if [[ "$(id -u)" != 0 ]]; then
    command -v sudo >/dev/null || die "not root and no sudo: install chromium and chromium-driver yourself"
    sudo=(sudo)
  fi
  command -v apt-get >/dev/null || die "no apt-get: install Chromium and a matching chromedriver, with chromium at $CHROMIUM"
  run "${sudo[@]}" apt-get update
  # --reinstall also restores a binary that went missing while the package stayed installed.
  run "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --reinstall chromium chromium-driver
}

if [[ "$dry_run" == 1 ]]; then say "Dry run: checking only, nothing is installed"; fi
check_prerequisites
setup_wasm_target
setup_trunk
setup_wasm_bindgen
setup_npm_packages
if [[ "$browser" == 1 ]]; then setup_chromium; fi
say "Setup complete"
