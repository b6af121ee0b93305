# Arbiter — build, run and test on Debian 12.
#
#   make run         install missing system packages, build, open the console
#   make test        install test packages, gofmt check, go vet, all tests, GUI check
#   make deps        system packages for building/running (idempotent)
#   make deps-test   system packages for the test suite (idempotent)
#   make build       bin/arbiter
#   make bench       benchmarks (scripts/bench.sh if present)
#   make fuzz        every Fuzz target for $(FUZZTIME) each (FUZZTIME=60s)
#   make crash-test  scripts/crash-test.sh
#   make station-test the stations' full chaos run (scripts/station-test.sh; minutes; a short one is in make test)
#   make engine-test a whole game against stockfish (scripts/engine-test.sh; minutes; four moves are in make test)
#   make gui-check   scripts/gui-check.sh (needs Xvfb)
#   make cross       bin/arbiter.exe for windows/amd64 (MinGW-w64 as cgo compiler) and
#                    the non-GUI packages for darwin/amd64, darwin/arm64 (CGO_ENABLED=0)
#   make cross-check every package but gui/ and main builds with CGO_ENABLED=0 for
#                    windows/amd64 and darwin/arm64 (part of make test)
#   make test-windows the core tests as Windows programs under Wine (part of make test)
#   make package-linux / package-windows   `fyne package` from a temporary copy
#   make clean       remove build output

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

export PATH := /usr/local/go/bin:$(PATH)
export GOFLAGS := -buildvcs=false
export CGO_ENABLED := 1

GO          ?= go
BIN         := bin/arbiter
FUZZTIME    ?= 60s
TESTTIMEOUT ?= 15m
TESTLOG     := bin/go-test.log
PGNCHECK    := tools/pgncheck
ARGS        ?=

.PHONY: all deps deps-test deps-cross build run test bench fuzz crash-test station-test engine-test gui-check clean \
	cross cross-check test-windows package-linux package-windows

all: build

deps:
	bash scripts/deps.sh

deps-test:
	bash scripts/deps.sh --test

build:
	@mkdir -p bin
	$(GO) build -o $(BIN) .

run: deps build
	$(BIN) $(ARGS)

test: deps-test
	@if [ -f $(PGNCHECK)/package-lock.json ] && \
	   { [ ! -d $(PGNCHECK)/node_modules ] || [ $(PGNCHECK)/package-lock.json -nt $(PGNCHECK)/node_modules ]; }; then \
		echo "npm ci --prefix $(PGNCHECK)"; \
		npm ci --prefix $(PGNCHECK); \
		touch $(PGNCHECK)/node_modules; \
	fi
	@echo "gofmt -l ."; \
	unformatted="$$(gofmt -l .)"; \
	if [ -n "$$unformatted" ]; then \
		echo "gofmt: these files are not formatted; run 'gofmt -w' on them:"; \
		echo "$$unformatted"; \
		exit 1; \
	fi
	$(GO) vet ./...
	@mkdir -p bin
	@echo "ARBITER_REQUIRE_VALIDATORS=1 $(GO) test -count=1 -timeout $(TESTTIMEOUT) ./..."; \
	status=0; \
	ARBITER_REQUIRE_VALIDATORS=1 $(GO) test -count=1 -timeout $(TESTTIMEOUT) ./... 2>&1 | tee $(TESTLOG) || status=$$?; \
	ok=$$(grep -c '^ok ' $(TESTLOG) || true); \
	failed=$$(grep -Ec '^FAIL[[:space:]]' $(TESTLOG) || true); \
	notests=$$(grep -c 'no test files' $(TESTLOG) || true); \
	echo "go test summary: $$ok packages ok, $$failed packages FAILED, $$notests without test files (full log: $(TESTLOG))"; \
	exit $$status
	@$(MAKE) --no-print-directory cross-check
	@if command -v wine >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory test-windows; \
	else \
		echo "test-windows skipped: wine is not installed (scripts/deps.sh --test installs it)"; \
	fi
	@if command -v Xvfb >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory gui-check; \
		gui=1; \
	else \
		echo "gui-check skipped: Xvfb is not installed"; \
		gui=0; \
	fi; \
	echo "test: $$(( $$(grep -c '^ok ' $(TESTLOG)) + gui )) passed, 0 failed"

bench:
	@if [ -f scripts/bench.sh ]; then \
		bash scripts/bench.sh; \
	else \
		$(GO) test -run '^$$' -bench . -benchmem ./...; \
	fi

fuzz:
	@targets=0; \
	while IFS= read -r file; do \
		dir="$$(dirname "$$file")/"; \
		for name in $$(grep -oE '^func Fuzz[A-Za-z0-9_]*' "$$file" | sed 's/^func //'); do \
			targets=$$((targets + 1)); \
			echo "$(GO) test -run '^\$$' -fuzz '^$$name\$$' -fuzztime $(FUZZTIME) $$dir"; \
			$(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) "$$dir"; \
		done; \
	done < <(grep -rlE --include='*_test.go' --exclude-dir=node_modules --exclude-dir=testdata --exclude-dir=.git '^func Fuzz' . | sort); \
	echo "fuzz: ran $$targets target(s) for $(FUZZTIME) each"

crash-test:
	bash scripts/crash-test.sh

station-test:
	bash scripts/station-test.sh

engine-test: deps-test
	bash scripts/engine-test.sh

gui-check:
	bash scripts/gui-check.sh

# Packages that must build without cgo on every platform: all but the GUI.
CORE_PKGS = $$($(GO) list ./... | grep -v -e '^arbiter$$' -e '^arbiter/gui')

deps-cross:
	bash scripts/deps.sh --cross

cross-check:
	@for target in windows/amd64 darwin/arm64 darwin/amd64; do \
		echo "GOOS=$${target%/*} GOARCH=$${target#*/} CGO_ENABLED=0 $(GO) vet <core packages>"; \
		GOOS=$${target%/*} GOARCH=$${target#*/} CGO_ENABLED=0 $(GO) vet $(CORE_PKGS); \
	done

cross: deps-cross cross-check
	@mkdir -p bin
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc $(GO) build -o bin/arbiter.exe .

test-windows:
	bash scripts/wine-test.sh

# fyne package rewrites FyneApp.toml (it increments Build) and writes next to
# the sources, so it runs in a temporary copy of the tree; only the package
# comes back, into bin/. Needs the fyne tool: go install fyne.io/tools/cmd/fyne@v1.7.4
FYNE ?= fyne
package-linux package-windows: package-%:
	@command -v $(FYNE) >/dev/null 2>&1 || { echo "make $@: the fyne tool is not installed; run 'go install fyne.io/tools/cmd/fyne@v1.7.4' (it lands in $$($(GO) env GOPATH)/bin)"; exit 1; }
	@mkdir -p bin
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	git ls-files -z | xargs -0 cp --parents -t "$$tmp"; \
	cd "$$tmp"; \
	if [ "$*" = windows ]; then \
		GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc $(FYNE) package --os windows --release; \
		cp Arbiter.exe "$(CURDIR)/bin/Arbiter.exe"; echo "bin/Arbiter.exe"; \
	else \
		$(FYNE) package --os linux --release; \
		cp Arbiter.tar.xz "$(CURDIR)/bin/Arbiter.tar.xz"; echo "bin/Arbiter.tar.xz"; \
	fi

clean:
	rm -rf bin build arbiter
