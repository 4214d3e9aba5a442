# Epochlab. `make serve` to play with it, `make test` to check everything. See README.md.
# Long logic lives in scripts/; the tools are pinned there (scripts/lib.sh) and installed by scripts/setup.sh.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# Where the static site will live, e.g. `make build PUBLIC_URL=/epochlab/` for https://example.org/epochlab/.
PUBLIC_URL ?= /
PORT ?= 8080

# Cargo's bin dir (trunk, wasm-bindgen) and binaryen's wasm-opt from npm, so Trunk never downloads a tool.
export PATH := $(or $(CARGO_HOME),$(HOME)/.cargo)/bin:$(CURDIR)/e2e/node_modules/.bin:$(PATH)
export TRUNK_SKIP_VERSION_CHECK := true

.PHONY: help setup serve build test bench

help:
	@echo "make serve                       build and serve the app at http://127.0.0.1:$(PORT)/, rebuilding on change"
	@echo "make test                        fmt, clippy, native + wasm tests, release build, Playwright e2e tests"
	@echo "make build [PUBLIC_URL=/path/]   static site in dist/"
	@echo "make bench [BASE=<commit>]       speed, measured not asserted: sizes, drop-to-paint, scrubbing, opening, core, checker;"
	@echo "                                 with BASE, that commit is built and measured beside the working tree (ratios)"
	@echo "make setup                       install the pinned tools (the first run compiles trunk: ~8 minutes)"

setup:
	@scripts/setup.sh

serve: setup
	@echo "Epochlab will be at http://127.0.0.1:$(PORT)/ once the first build finishes (Ctrl-C stops it)."
	trunk serve --address 127.0.0.1 --port $(PORT)

build: setup
	scripts/release-build.sh --public-url $(PUBLIC_URL)
	@echo "Static site in dist/, to be served at $(PUBLIC_URL)"

test:
	@scripts/setup.sh --browser
	@scripts/test.sh

# Prints the release build's gzipped wasm+JS size, the core's rerun benchmark and drop-to-paint in headless
# Chromium. Measurements only: nothing fails on a number.
# `make bench BASE=<commit>` builds that commit beside the working tree and measures both, alternating.
bench:
	@scripts/setup.sh --browser
	@BASE="$(BASE)" scripts/bench.sh
