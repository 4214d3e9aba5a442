#!/usr/bin/env bash
# Fails when the page's first download (its wasm and JS, gzip -9) reaches the ceiling in scripts/lib.sh.
#
#   scripts/check-size.sh DIR    DIR holds a release build
set -euo pipefail
source "$(dirname "$0")/lib.sh"

dir="${1:?usage: scripts/check-size.sh DIR}"
mapfile -t files < <(first_download_wasm "$dir"; first_download_js "$dir")
[[ ${#files[@]} -ge 2 ]] || die "no first download (epochlab-web*.wasm and .js) in $dir/"
total=0
for f in "${files[@]}"; do total=$((total + $(gz "$f"))); done
[[ $total -lt $FIRST_DOWNLOAD_CEILING ]] ||
  die "the first download is $total bytes gzipped, at or over the ceiling of $FIRST_DOWNLOAD_CEILING: load what the first paint does not need on first use"
ok "first download $total bytes gzipped, under the ceiling of $FIRST_DOWNLOAD_CEILING"
