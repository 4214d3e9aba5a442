#!/usr/bin/env bash
# Runs the Playwright tests against a release build served as a static site under /epochlab/ (a sub-path, as
# on a blog), from python3's http.server on 127.0.0.1.
#
#   scripts/e2e.sh SITE_DIR [playwright args...]   SITE_DIR holds the build in SITE_DIR/epochlab/
#                                                  (trunk build --release --public-url /epochlab/ --dist SITE_DIR/epochlab)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

site="${1:?usage: scripts/e2e.sh SITE_DIR [playwright args...]}"
shift
[[ -f "$site/epochlab/index.html" ]] || die "no build in $site/epochlab/ (run a release build with --public-url /epochlab/)"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >"$site/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT

export EPOCHLAB_BASE_URL="http://127.0.0.1:$port/epochlab/"
for _ in $(seq 50); do
  python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$EPOCHLAB_BASE_URL" \
    2>/dev/null && break
  kill -0 "$server" 2>/dev/null || die "the static server exited (see $site/server.log)"
  sleep 0.1
done
echo "Serving $site at $EPOCHLAB_BASE_URL"

cd "$ROOT/e2e"
playwright test "$@"
