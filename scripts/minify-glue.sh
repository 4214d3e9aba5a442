#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): in release builds, minify the JavaScript that wasm-bindgen generates
# (the glue and inline snippets) with terser, from e2e/node_modules. It is part of the gzipped download
# budget, and Trunk's own minifier cannot parse the glue of wasm-bindgen 0.2.130 (it warns and copies it
# as it is). Before that, the names the wasm imports from its glue are shortened (minify-imports.mjs, about
# 5 KB of the page's gzipped download). Debug builds (`trunk serve`) keep both readable. Trunk.toml turns off
# Subresource Integrity hashes, which would be computed before this hook runs; the files are served from the
# page's own origin.
set -euo pipefail
[[ "${TRUNK_PROFILE:-}" == "release" ]] || exit 0
here="$(cd "$(dirname "$0")" && pwd)"
terser="$here/../e2e/node_modules/.bin/terser"
[[ -x "$terser" ]] || { echo "minify-glue.sh: no terser at $terser (run make setup)" >&2; exit 1; }
node="$(command -v node)" || { echo "minify-glue.sh: no node on PATH (run make setup)" >&2; exit 1; }
while IFS= read -r -d '' js; do
  # The glue's import names first (scripts/minify-imports.mjs), while the wasm beside it is still the one
  # they name.
  wasm="${js%.js}_bg.wasm"
  if [[ -f "$wasm" ]]; then
    "$node" "$here/minify-imports.mjs" "$wasm" "$js"
  fi
  # The checker's worker and the lessons' module are classic scripts (wasm-bindgen's no-modules glue defines
  # the global `wasm_bindgen`, which their loaders call): minified as scripts, or that name would be dropped.
  if [[ "$(basename "$js")" == checker-worker*.js || "$(basename "$js")" == epochlab-lessons*.js ]]; then
    "$terser" "$js" --compress --mangle --output "$js"
  else
    "$terser" "$js" --module --compress --mangle --output "$js"
  fi
done < <(find "${TRUNK_STAGING_DIR:?}" -name '*.js' -print0)
