# Arbiter — build, run and test on Debian 12.
#
#   make run         install missing system packages, build, open the console
#   make test        install test packages, gofmt check, go vet, all tests, GUI check; needs nothing
#                    beside the repository (the summary counts passed, failed and skipped tests)
#   make test-reference REFERENCE_DATA=DIR   the tests that read the reference files of others
#                    (DIR/unwinnable.tsv, unwinnable-chasolver.tsv, clk-samples.pgn, pgn-edge/)
#   make deps        system packages for building/running (idempotent)
#   make deps-test   system packages for the test suite (idempotent)
#   make build       bin/arbiter
#   make bench       benchmarks (scripts/bench.sh); REFERENCE_DATA=DIR: 6.9 on the whole reference files;
#                    CHASOLVER=FILE: CHA-Solver's analyzer beside arbiter unwinnable (nothing outside the
#                    repository is read unless named)
#   make fuzz        every Fuzz target for $(FUZZTIME) each (FUZZTIME=60s)
#   make crash-test  scripts/crash-test.sh
#   make station-test the stations' full chaos run (scripts/station-test.sh; minutes; a short one is in make test)
#   make engine-test a whole game against stockfish on the match's control (scripts/engine-test.sh; minutes; make test plays one on 20+1)
#   make gui-check   scripts/gui-check.sh (needs Xvfb)
#   make cross       bin/arbiter.exe for windows/amd64 (MinGW-w64 as cgo compiler) and
#                    the non-GUI packages for darwin/amd64, darwin/arm64 (CGO_ENABLED=0)
#   make cross-check every package but gui/ and main builds with CGO_ENABLED=0 for
#                    windows/amd64 and darwin/arm64 (part of make test)
#   make test-windows the core tests as Windows programs under Wine (part of make test)
#   make package-linux / package-windows   `fyne package` from a temporary copy
#   make release VERSION=X.Y.Z   dist/arbiter-X.Y.Z-linux-amd64.tar.gz, dist/arbiter-X.Y.Z-windows-amd64.zip
#                    and dist/SHA256SUMS from HEAD, reproducible (scripts/release.sh, docs/release.md)
#   make release-check VERSION=X.Y.Z   builds the release twice in two folders and compares the bytes
#                    (RELEASE_COLD=1: the second with an empty build cache)
#   make notices     regenerate THIRD_PARTY_NOTICES (internal/notices; make test checks it is current)
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

# REFERENCE_DATA=DIR names the folder of the reference files of others that the
# repository may not hold (make test-reference, make bench); the tests run in
# their packages' folders, so it is passed on as an absolute path (override: a
# variable given on make's command line would otherwise win over this one).
ifneq ($(strip $(REFERENCE_DATA)),)
override REFERENCE_DATA := $(abspath $(REFERENCE_DATA))
export REFERENCE_DATA
endif

.PHONY: all deps deps-test deps-cross build run test test-reference notices release release-check bench fuzz crash-test station-test engine-test gui-check clean \
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
	@$(GO) build -o bin/testsummary ./internal/testsummary
	@echo "ARBITER_REQUIRE_VALIDATORS=1 $(GO) test -json -count=1 -timeout $(TESTTIMEOUT) ./... | bin/testsummary -log $(TESTLOG)"; \
	env -u REFERENCE_DATA ARBITER_REQUIRE_VALIDATORS=1 $(GO) test -json -count=1 -timeout $(TESTTIMEOUT) ./... 2>&1 | \
		bin/testsummary -log $(TESTLOG) | tee bin/go-test.out
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
	echo "test: passed: go test ($$(grep -m1 -o 'tests: [0-9]* passed, [0-9]* failed, [0-9]* skipped' bin/go-test.out); the skipped are listed above), cross-check$$(command -v wine >/dev/null 2>&1 && echo ', test-windows'), gui-check $$( ((gui)) && echo passed || echo 'not run')"

# The packages whose tests read the reference files (internal/refdata).
REFDATA_PKGS = $$(grep -rl --include='*_test.go' --exclude-dir=node_modules '"arbiter/internal/refdata"' . | xargs -n1 dirname | sort -u)

test-reference:
	@[ -n "$(REFERENCE_DATA)" ] || { echo "make test-reference needs REFERENCE_DATA=DIR: the folder with unwinnable.tsv, unwinnable-chasolver.tsv, clk-samples.pgn and pgn-edge/ (e.g. REFERENCE_DATA=../shared/data)"; exit 2; }
	@mkdir -p bin
	@$(GO) build -o bin/testsummary ./internal/testsummary
	@echo "REFERENCE_DATA=$(REFERENCE_DATA) $(GO) test -json -count=1 <the packages that read it> | bin/testsummary -log bin/go-test-reference.log"; \
	$(GO) test -json -count=1 -timeout 60m $(REFDATA_PKGS) 2>&1 | bin/testsummary -log bin/go-test-reference.log

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

release: deps-cross
	@[ -n "$(VERSION)" ] || { echo "make release needs VERSION=X.Y.Z, e.g. make release VERSION=1.0.0"; exit 2; }
	bash scripts/release.sh $(VERSION) dist

release-check: deps-cross
	@[ -n "$(VERSION)" ] || { echo "make release-check needs VERSION=X.Y.Z, e.g. make release-check VERSION=1.0.0"; exit 2; }
	bash scripts/release-check.sh $(VERSION)

notices:
	$(GO) test -count=1 -run '^TestThirdPartyNoticesAreCurrent$$' ./internal/notices -update

clean:
	rm -rf bin build arbiter
