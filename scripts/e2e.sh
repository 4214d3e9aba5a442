#!/usr/bin/env bash
# Runs the Playwright tests against a release build served as a static site under /epochlab/ (a sub-path, as
# on a blog), from python3's http.server on 127.0.0.1.
#
#   scripts/e2e.sh SITE_DIR [playwright args...]   SITE_DIR holds the build in SITE_DIR/epochlab/
#                                                  (scripts/release-build.sh --public-url /epochlab/ --dist SITE_DIR/epochlab)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

site="${1:?usage: scripts/e2e.sh SITE_DIR [playwright args...]}"
shift
[[ -f "$site/epochlab/index.html" ]] || die "no build in $site/epochlab/ (run a release build with --public-url /epochlab/)"

serve_site "$site"
echo "Serving $site at $EPOCHLAB_BASE_URL"

cd "$ROOT/e2e"
playwright test "$@"
