#!/usr/bin/env bash
# Everything `make test` checks, in order, stopping at the first failure. Run scripts/setup.sh --browser first.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# The release build the browser tests load, in its own folder so a running `trunk serve` (dist/) is untouched.
E2E_SITE="$ROOT/dist-e2e"
# The wasm test runner allows 20 s per test file by default; a cold headless Chromium can need more.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"

steps=(
  "format|cargo fmt --all --check"
  "clippy|cargo clippy --workspace --all-targets -- -D warnings"
  "native tests|cargo test --workspace"
  "wasm tests (headless Chromium)|cargo test -p epochlab --target $WASM_TARGET"
  "release build|scripts/release-build.sh --public-url /epochlab/ --dist $E2E_SITE/epochlab"
  "first download under its ceiling|scripts/check-size.sh $E2E_SITE/epochlab"
  "e2e tests (Playwright)|scripts/e2e.sh $E2E_SITE"
)

# join A B C -> "A, B, C"
join() {
  local IFS=$'\x1f'
  local s="$*"
  echo "${s//$'\x1f'/, }"
}

start=$SECONDS
done_steps=()
n=0
for step in "${steps[@]}"; do
  n=$((n + 1))
  name="${step%%|*}"
  cmd="${step#*|}"
  say "[$n/${#steps[@]}] $name: $cmd"
  t0=$SECONDS
  if ! eval "$cmd"; then
    echo
    printf '\033[1;31mmake test FAILED\033[0m at step %d/%d, %s (%s), after %ds.\n' \
      "$n" "${#steps[@]}" "$name" "$cmd" $((SECONDS - start)) >&2
    [[ ${#done_steps[@]} -eq 0 ]] || echo "Passed before it: $(join "${done_steps[@]}")" >&2
    exit 1
  fi
  done_steps+=("$name $((SECONDS - t0))s")
done

printf '\033[1;32mmake test passed\033[0m in %ds: %s\n' $((SECONDS - start)) "$(join "${done_steps[@]}")"
