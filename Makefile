# lotbook: `make run` starts the demo, `make test` runs every test, `make bench` prints the figures.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

GO        ?= go
NPM       ?= npm
BIN       := bin/lotbook
GOTIMEOUT ?= 30m
# The web build is embedded in the binary (web/embed.go), so it must exist before any go command.
WEB_SRC   := $(shell find web/src web/public web/scripts web/index.html web/vite.config.* web/tsconfig*.json web/package.json -type f 2>/dev/null)
GO_SRC    := $(shell find . -name '*.go' -not -path './web/*' -not -path './bin/*' 2>/dev/null) go.mod go.sum
# npm script presence, so targets call only what the web app provides.
has_script = $(shell node -e 'process.exit((require("./web/package.json").scripts||{})["$(1)"]?0:1)' 2>/dev/null && echo yes)

.PHONY: run test bench lint web-deps web-test web-build go-test e2e clean

web/node_modules/.package-lock.json: web/package.json web/package-lock.json
	$(NPM) --prefix web ci --no-audit --no-fund
	@touch $@

web-deps: web/node_modules/.package-lock.json

web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SRC)
	$(NPM) --prefix web run build
	@touch $@

$(BIN): web/dist/index.html $(GO_SRC)
	@mkdir -p bin
	$(GO) build -o $(BIN) ./cmd/lotbook

run: $(BIN)
	$(BIN) serve --demo

# The layer rules (eslint.config.js) are part of the web tests, so a boundary break fails CI.
web-test: web-deps
	$(NPM) --prefix web run lint
	$(NPM) --prefix web test

# The crash test runs the binary from LOTBOOK_BIN (its test result is cached on the binary's stat).
go-test: web/dist/index.html $(BIN)
	$(GO) vet ./...
	LOTBOOK_BIN="$(CURDIR)/$(BIN)" $(GO) test -timeout $(GOTIMEOUT) ./...

# Browser tests drive Debian's Chromium against the real binary (see README).
e2e: $(BIN)
	@if [ "$(call has_script,e2e)" = yes ]; then \
		LOTBOOK_BIN="$(CURDIR)/$(BIN)" $(NPM) --prefix web run e2e; \
	else echo "e2e: web/package.json has no e2e script yet, skipped"; fi

# Every part runs even when an earlier one fails, so that one failure does not hide the others.
test:
	@failed=""; \
	for part in web-test web-build go-test e2e; do \
		$(MAKE) --no-print-directory $$part || failed="$$failed $$part"; \
	done; \
	if [ -n "$$failed" ]; then echo "make test: FAILED:$$failed"; exit 1; fi; \
	echo "make test: all passed"

web-build: web/dist/index.html

lint: web/dist/index.html
	@out="$$(gofmt -l $$(find . -name '*.go' -not -path './web/*' -not -path './bin/*'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run go mod tidy"; exit 1; }
	$(GO) vet ./...
	$(NPM) --prefix web run typecheck
	$(NPM) --prefix web run lint

# BENCH_FLAGS passes options to ops/bench, e.g. BENCH_FLAGS="-growth-log DIR" (ops/deploy/SCALING.md).
bench: $(BIN)
	$(GO) run ./ops/bench -bin $(BIN) $(BENCH_FLAGS)

clean:
	rm -rf bin web/dist
