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

# The page's first download: the app's wasm, its wasm-bindgen glue and any inline JS snippets, gzip -9. The
# lessons' module and the checker's worker load on first use and are not part of it. `make test` fails at the
# ceiling (scripts/check-size.sh); `make bench` prints the figure.
FIRST_DOWNLOAD_CEILING=260000
gz() { gzip -9 -c "$1" | wc -c; }
first_download_wasm() { find "$1" -name 'epochlab-web*.wasm' | sort; }
first_download_js() { find "$1" \( -name 'epochlab-web*.js' -o -path '*/snippets/*.js' \) | sort; }

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
ok() { printf '    ok: %s\n' "$*"; }
die() {
  printf '\033[1;31merror:\033[0m %s\n' "$*" >&2
  exit 1
}

# serve_site DIR: serve DIR (which holds the build in DIR/epochlab/) with python's http.server on a free loopback
# port, in the background until the script exits. Exports EPOCHLAB_BASE_URL once the server answers.
SERVED_PIDS=()
serve_site() {
  local site="$1" port server
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >"$site/server.log" 2>&1 &
  server=$!
  # Every server this script started stops with it (a comparison serves two builds).
  SERVED_PIDS+=("$server")
  trap 'kill "${SERVED_PIDS[@]}" 2>/dev/null || true' EXIT
  export EPOCHLAB_BASE_URL="http://127.0.0.1:$port/epochlab/"
  for _ in $(seq 50); do
    python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$EPOCHLAB_BASE_URL" \
      2>/dev/null && return 0
    kill -0 "$server" 2>/dev/null || die "the static server exited (see $site/server.log)"
    sleep 0.1
  done
  die "the static server did not answer at $EPOCHLAB_BASE_URL"
}
