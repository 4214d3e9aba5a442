#!/usr/bin/env bash
# `make bench`: speed, measured and printed, never asserted. Three parts:
#   1. the size of the release build's first download, WebAssembly plus its JS glue, each gzipped -9 (under
#      the 260 KB ceiling that `make test` checks, scripts/check-size.sh; the aim is 250 KB);
#   2. drop-to-paint in headless Chromium (e2e/bench/drop-to-paint.mjs; the budget is 16 ms, one frame): real
#      pointer drops onto generated scenarios of growing size, printed as a table: 200 events under three
#      variants (the figure measured since the start), then 200, 500 and 1,000 under four, so that the growth
#      with the event count alone shows. At the limit (MAX_EVENTS, 1,000) the scenario holds 999 events and the
#      drop makes 1,000, since the app refuses a 1,001st. It runs before the core's benchmark, whose compile
#      and run would otherwise still be heating this 2-core machine;
#      then scrubbing (ArrowRight held across a 1,000-event scenario: steps and frames per second, goal 60) and
#      opening a 1,000-event link to its first paint (goal under 300 ms; beside it the landing page, the
#      opened page as static HTML, the floor, and an empty page), e2e/bench/scrub-and-open.mjs;
#   3. the replication core's benchmark (cargo bench -p epochlab-core --bench rerun), if it exists;
#   4. the model checker: unique states per second natively, ours and stateright 0.31's BFS over the same
#      model (cargo bench -p epochlab-core --bench checker, memory per state too), then as wasm in its Web
#      Worker in headless Chromium (e2e/bench/checker-worker.mjs), with the ratios.
# scripts/profile-drop.sh profiles the drops of part 2 instead (which functions take the time, what grows).
# Nothing here fails on a number; the script fails only if a step cannot run at all.
#
# BASE=<commit> (make bench BASE=...): that commit is checked out in target/bench-base, built with the same
# options, and measured beside the working tree by the same harness: its size, and drop-to-paint alternating
# between the two builds, each figure with its ratio. A day's absolute figure on a shared machine says little.
#
#   scripts/bench.sh [--drops N] [--warmup N] [--cases 200x3,200x4,500x4,1000x4]
#       (passed to drop-to-paint.mjs: drops and warm-ups per case, defaults 60 and 5; cases EVENTSxVARIANTS)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# The release build measured here, in its own folder so `trunk serve` (dist/) and the e2e build are untouched.
SITE="$ROOT/dist-bench"
# Counted in thousands of bytes (the stricter reading).
CEILING_BYTES=$FIRST_DOWNLOAD_CEILING
AIM_BYTES=250000

say "[1/4] release build: scripts/release-build.sh --public-url /epochlab/ --dist $SITE/epochlab"
scripts/release-build.sh --public-url /epochlab/ --dist "$SITE/epochlab"

# Every .wasm and .js of the page's first download: the app's wasm and its wasm-bindgen glue, and inline JS
# snippets in snippets/. The lessons' module and the checker's worker load on first use: printed apart.
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1000 }'; }
# first_download DIR: the first download's gzipped bytes in DIR (the total), printed with its parts in SIZE_LINE.
first_download() {
  local dir="$1" wasm js f wasm_bytes=0 js_bytes=0 total raw ceiling aim
  mapfile -t wasm < <(first_download_wasm "$dir")
  mapfile -t js < <(first_download_js "$dir")
  [[ ${#wasm[@]} -gt 0 && ${#js[@]} -gt 0 ]] || die "no .wasm or .js in $dir/"
  for f in "${wasm[@]}"; do wasm_bytes=$((wasm_bytes + $(gz "$f"))); done
  for f in "${js[@]}"; do js_bytes=$((js_bytes + $(gz "$f"))); done
  total=$((wasm_bytes + js_bytes))
  raw=$(cat "${wasm[@]}" "${js[@]}" | wc -c)
  ceiling=$([[ $total -lt $CEILING_BYTES ]] && echo "under" || echo "OVER")
  aim=$([[ $total -lt $AIM_BYTES ]] && echo "under" || echo "over")
  SIZE_LINE="size: wasm + JS, gzip -9: $(kb $total) ($total bytes: wasm $(kb $wasm_bytes), JS $(kb $js_bytes); $(kb "$raw") before gzip); $ceiling the 260 KB ceiling, $aim the 250 KB aim"
  SIZE_BYTES=$total
}
first_download "$SITE/epochlab"
size_line="$SIZE_LINE"
work_size_bytes=$SIZE_BYTES
echo "$size_line"
# Loaded on first use (the lessons and the panels' module, the checker's worker), not part of the figure above.
mapfile -t later < <(find "$SITE/epochlab" -maxdepth 1 \( -name '*.wasm' -o -name '*.js' \) ! -name 'epochlab-web*' | sort)
for f in "${later[@]}"; do echo "  loaded on first use: $(basename "$f"), gzip -9: $(kb "$(gz "$f")")"; done

before_site=""
if [[ -n "${BASE:-}" ]]; then
  base_commit="$(git rev-parse --verify "$BASE^{commit}")" || die "BASE=$BASE is not a commit"
  base_tree="$ROOT/target/bench-base"
  before_site="$ROOT/dist-bench-base"
  say "[1/4] BASE $BASE ($base_commit): checked out in $base_tree, built into $before_site/epochlab"
  git worktree remove --force "$base_tree" 2>/dev/null || rm -rf "$base_tree"
  git worktree add --detach --force "$base_tree" "$base_commit" >/dev/null
  ln -sfn "$ROOT/e2e/node_modules" "$base_tree/e2e/node_modules"
  # A target folder of its own, kept across runs: a shared one would leave BASE's binaries where the working
  # tree's next build (whose fingerprint is still fresh) picks them up.
  # Built as that commit ships: with its own release-build.sh where it has one (the standard library rebuilt
  # for size), with plain `trunk build --release` before it did.
  build=(trunk build --release)
  [[ -x "$base_tree/scripts/release-build.sh" ]] && build=(scripts/release-build.sh)
  (cd "$base_tree" && CARGO_TARGET_DIR="$ROOT/target/bench-base-target" "${build[@]}" --public-url /epochlab/ --dist "$before_site/epochlab")
  first_download "$before_site/epochlab"
  base_size_bytes=$SIZE_BYTES
  echo "BASE $SIZE_LINE"
  size_line="$size_line; BASE $(kb "$base_size_bytes"), ratio x$(awk -v a="$work_size_bytes" -v b="$base_size_bytes" 'BEGIN { printf "%.3f", a / b }')"
fi

say "[2/4] drop-to-paint in headless Chromium (e2e/bench/drop-to-paint.mjs)"
[[ -x "$CHROMIUM" ]] || die "no Chromium at $CHROMIUM (run scripts/setup.sh --browser, or set EPOCHLAB_CHROMIUM)"
[[ -d e2e/node_modules/playwright-core ]] || die "e2e/node_modules has no playwright-core (run make setup)"
if [[ -n "$before_site" ]]; then
  serve_site "$before_site"
  before_url="$EPOCHLAB_BASE_URL"
fi
serve_site "$SITE"
paint_out="$(EPOCHLAB_CHROMIUM="$CHROMIUM" node e2e/bench/drop-to-paint.mjs "$@")"
echo "$paint_out"
scrub_out="$(EPOCHLAB_CHROMIUM="$CHROMIUM" node e2e/bench/scrub-and-open.mjs)"
echo "$scrub_out"
compare_out=""
if [[ -n "$before_site" ]]; then
  say "[2/4] drop-to-paint, BASE $BASE against the working tree, alternating"
  compare_out="$(EPOCHLAB_CHROMIUM="$CHROMIUM" EPOCHLAB_BEFORE_URL="$before_url" node e2e/bench/drop-to-paint.mjs "$@")"
  echo "$compare_out"
  base_scrub="$(EPOCHLAB_CHROMIUM="$CHROMIUM" EPOCHLAB_BASE_URL="$before_url" node e2e/bench/scrub-and-open.mjs | sed 's/^/BASE /')"
  echo "$base_scrub"
  compare_out="$compare_out"$'\n'"$base_scrub"
fi

say "[3/4] core benchmark: cargo bench -p epochlab-core --bench rerun"
if [[ -f crates/epochlab-core/benches/rerun.rs ]] && grep -q 'name = "rerun"' crates/epochlab-core/Cargo.toml; then
  cargo bench -p epochlab-core --bench rerun
else
  echo "    skipped: the core's rerun benchmark does not exist yet (crates/epochlab-core/benches/rerun.rs)"
fi

say "[4/4] model checker: wasm in the worker (headless Chromium), then natively, ours and stateright's"
worker_out="$(EPOCHLAB_CHROMIUM="$CHROMIUM" node e2e/bench/checker-worker.mjs)"
echo "$worker_out"
# "wasm-worker NAME: N states T s R states/s" -> "NAME=R;..." for the native bench to print beside its own.
wasm_rates="$(sed -n 's/^wasm-worker \(.*\): .* s \([0-9]*\) states\/s$/\1=\2/p' <<<"$worker_out" | paste -sd';')"
checker_out="$(EPOCHLAB_WASM_RATES="$wasm_rates" cargo bench -p epochlab-core --bench checker)"
echo "$checker_out"

echo
printf '\033[1;34m==>\033[0m make bench figures (measurements on this machine, not assertions):\n'
echo "    $size_line"
# The drop-to-paint table and its growth lines: the end of its output, from the table's title on.
sed -n "/^drop-to-paint by scenario size/,/^(measurements/p" <<<"$paint_out" | sed '$d' | sed 's/^/    /'
sed 's/^/    /' <<<"$scrub_out"
[[ -z "$compare_out" ]] || sed 's/^/    /' <<<"$compare_out"
sed -n '/^model checker/,$p' <<<"$checker_out" | sed 's/^/    /'
