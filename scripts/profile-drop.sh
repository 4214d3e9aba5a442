#!/usr/bin/env bash
# Where the app's time per drop goes, and what of it grows with the scenario's size: CPU profiles of the drops
# that `make bench` times (e2e/bench/drop-to-paint.mjs --profile), on a release build whose wasm keeps its
# function names. Not part of `make bench`: the profiler slows the drops, so it prints no timings, only each
# function's self time per drop and the largest increases from the first case to the last.
#
#   scripts/profile-drop.sh [--drops N] [--warmup N] [--cases 200x4,1000x4]   (defaults 20, 3, 200x4,1000x4)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# Its own folder: dist-bench/ stays the build `make bench` measured.
SITE="$ROOT/dist-profile"

say "[1/2] release build: scripts/release-build.sh --public-url /epochlab/ --dist $SITE/epochlab"
scripts/release-build.sh --public-url /epochlab/ --dist "$SITE/epochlab"

# Trunk's wasm-opt run drops the name section, so profiles would say wasm-function[212]. Redo that run on
# wasm-bindgen's output (the glue in the site stays valid: wasm-opt changes no import or export) with the
# options of index.html plus -g, which keeps the names and optimises the same way.
target_dir="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
bindgen_wasm="$target_dir/wasm-bindgen/release/epochlab-web_bg.wasm"
[[ -f "$bindgen_wasm" ]] || die "no wasm-bindgen output at $bindgen_wasm (Trunk's layout changed?)"
site_wasm="$(find "$SITE/epochlab" -maxdepth 1 -name 'epochlab-web*_bg.wasm' | head -n 1)"
[[ -n "$site_wasm" ]] || die "no *_bg.wasm in $SITE/epochlab"
# The page's own link (index.html also links the lessons' module and the checker's worker, each with its options).
page_link="$(grep 'data-bin="epochlab-web"' index.html)"
level="$(sed -n 's/.*data-wasm-opt="\([^"]*\)".*/\1/p' <<<"$page_link")"
read -r -a params <<<"$(sed -n 's/.*data-wasm-opt-params="\([^"]*\)".*/\1/p' <<<"$page_link")"
say "wasm-opt -O${level:-z} ${params[*]} -g: the same optimisation, function names kept"
wasm-opt "$bindgen_wasm" "-O${level:-z}" "${params[@]}" -g -o "$site_wasm"
# The site's glue imports the wasm's functions under the short names binaryen gave them (minify-glue.sh); this wasm
# has wasm-bindgen's own names, so it gets wasm-bindgen's own glue (unminified, which changes no timing here).
site_js="${site_wasm%_bg.wasm}.js"
cp "${bindgen_wasm%_bg.wasm}.js" "$site_js"

say "[2/2] CPU profiles of drops in headless Chromium (e2e/bench/drop-to-paint.mjs --profile)"
[[ -x "$CHROMIUM" ]] || die "no Chromium at $CHROMIUM (run scripts/setup.sh --browser, or set EPOCHLAB_CHROMIUM)"
[[ -d e2e/node_modules/playwright-core ]] || die "e2e/node_modules has no playwright-core (run make setup)"
serve_site "$SITE"
EPOCHLAB_CHROMIUM="$CHROMIUM" node e2e/bench/drop-to-paint.mjs --profile --drops 20 --warmup 3 --cases 200x4,1000x4 "$@"
