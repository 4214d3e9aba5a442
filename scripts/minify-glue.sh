#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): in release builds, minify the JavaScript that wasm-bindgen generates
# (the glue and inline snippets) with terser, from e2e/node_modules. It is part of the gzipped download
# budget, and Trunk's own minifier cannot parse the glue of wasm-bindgen 0.2.130 (it warns and copies it
# as it is). Before that, the names the wasm imports from its glue and exports to it are shortened by
# binaryen's `--minify-imports-and-exports-and-modules`, whose printed renaming scripts/rename-glue.mjs applies
# to the glue (about 5 KB of the page's gzipped download). Debug builds (`trunk serve`) keep both readable.
# Trunk.toml turns off Subresource Integrity hashes, which would be computed before this hook runs; the files
# are served from the page's own origin.
set -euo pipefail
[[ "${TRUNK_PROFILE:-}" == "release" ]] || exit 0
here="$(cd "$(dirname "$0")" && pwd)"
terser="$here/../e2e/node_modules/.bin/terser"
wasm_opt="$here/../e2e/node_modules/.bin/wasm-opt"
[[ -x "$terser" && -x "$wasm_opt" ]] || { echo "minify-glue.sh: no terser or wasm-opt in e2e/node_modules (run make setup)" >&2; exit 1; }
node="$(command -v node)" || { echo "minify-glue.sh: no node on PATH (run make setup)" >&2; exit 1; }
# The wasm's target features section is stripped (index.html), so its features are named: Rust's defaults for
# wasm32-unknown-unknown and SIMD (.cargo/config.toml). This second run rewrites the whole wasm, not only its
# names: the optimisation levels (no optimisation pipeline runs) let binaryen's writer optimise the stack code
# again as Trunk's `wasm-opt -Oz` run did (without them the code section is 0.8 KB larger), and
# `--reorder-locals` drops the scratch locals that reading the stack code back in adds (14 bytes, but 48 gzipped
# on the page).
features=(--enable-simd --enable-reference-types --enable-bulk-memory --enable-bulk-memory-opt
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue
  --enable-call-indirect-overlong)
while IFS= read -r -d '' js; do
  # The wasm's names first, while the glue beside it still names the originals.
  wasm="${js%.js}_bg.wasm"
  if [[ -f "$wasm" ]]; then
    "$wasm_opt" "$wasm" "${features[@]}" -ol 2 -s 2 --reorder-locals --minify-imports-and-exports-and-modules \
      -o "$wasm.min" >"$wasm.map"
    "$node" "$here/rename-glue.mjs" "$wasm.map" "$js"
    mv "$wasm.min" "$wasm"
    rm "$wasm.map"
  fi
  # The checker's worker and the lessons' module are classic scripts (wasm-bindgen's no-modules glue defines
  # the global `wasm_bindgen`, which their loaders call): minified as scripts, or that name would be dropped.
  if [[ "$(basename "$js")" == checker-worker*.js || "$(basename "$js")" == epochlab-lessons*.js ]]; then
    "$terser" "$js" --compress --mangle --output "$js"
  else
    "$terser" "$js" --module --compress --mangle --output "$js"
  fi
done < <(find "${TRUNK_STAGING_DIR:?}" -name '*.js' -print0)
