#!/usr/bin/env bash
# wine-test.sh — run the core packages' tests as Windows programs under Wine.
#
# Usage: scripts/wine-test.sh [PACKAGE...]
#
# Default: the packages whose tests pass under Debian 12's Wine 8.0 (clock,
# scoresheet, internal/phrase, internal/quietlocale, internal/timesource);
# then the Windows program itself, built as the release builds it, must
# start under Wine and answer --version. The packages that write files in t.TempDir (store, match,
# cli, report, internal/demo) cannot pass there: Go 1.26's os.RemoveAll
# deletes with FileDispositionInformationEx, which Wine 8.0 answers with
# "Invalid function", so every test's TempDir cleanup fails (docs/cli.md,
# "Windows"). Give packages to run them anyway.
#
# Needs Debian's wine, wine64 and gcc-mingw-w64-x86-64 (scripts/deps.sh --test).
# The tests are cross-compiled with CGO_ENABLED=0 for windows/amd64 and run by
# `go test -exec wine` in a Wine prefix of their own (bin/wine, made on first
# use). Wine 8.0 has no bcryptprimitives.dll, without which no Go >= 1.22
# program starts, so a stand-in (scripts/wine/bcryptprimitives.c) is built into
# that prefix. Exit status: that of go test; 3 when Wine or MinGW is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH" GOFLAGS=-buildvcs=false

for c in wine x86_64-w64-mingw32-gcc; do
	if ! command -v "$c" >/dev/null 2>&1; then
		echo "wine-test: '$c' is not installed; run 'scripts/deps.sh --test' first." >&2
		exit 3
	fi
done

export WINEPREFIX="$PWD/bin/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" WINEARCH=win64
dll="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
if [[ ! -f "$WINEPREFIX/system.reg" ]]; then
	mkdir -p "$WINEPREFIX"
	echo "wine-test: creating the Wine prefix $WINEPREFIX"
	wineboot -i >/dev/null 2>&1 || true
	wineserver -w || true
fi
if [[ ! -f "$dll" || scripts/wine/bcryptprimitives.c -nt "$dll" ]]; then
	x86_64-w64-mingw32-gcc -O2 -shared -o "$dll" \
		scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32
fi

# The first wine command starts wineserver and Wine's background services
# (services.exe, winedevice.exe, ...), which would inherit go test's output
# pipe and keep it open after the test ends ("Test I/O incomplete 1m0s after
# exiting"): start them first with their output elsewhere, keep the server
# up for the whole run, and stop it at the end.
wineserver -k 2>/dev/null || true
wineserver -p </dev/null >/dev/null 2>&1
wine cmd /c exit </dev/null >/dev/null 2>&1 || true
trap 'wineserver -k 2>/dev/null || true' EXIT

wintest() {
	echo "GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -exec wine -count=1 $*"
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -exec wine -count=1 -timeout 10m "$@"
}
# The Windows program as 'make release' builds it (scripts/release.sh: cgo with MinGW-w64,
# -trimpath, no symbols, no build id, no link time), started under Wine: it must answer --version
# with its version, its platform and its licence, and exit 0. Building it cold compiles Fyne's
# and GLFW's C code with MinGW (docs/release.md has the times).
windows_program() {
	local exe=bin/arbiter.exe out
	echo "GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc go build -trimpath -ldflags '-s -w -buildid= …' -o $exe ."
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
		go build -trimpath -ldflags "-s -w -buildid= -extldflags=-Wl,--no-insert-timestamp" -o "$exe" . || return 1
	echo "wine $exe --version"
	if ! out=$(wine "$exe" --version </dev/null 2>/dev/null | tr -d '\r'); then
		echo "wine-test: $exe --version failed under Wine" >&2
		return 1
	fi
	echo "$out" | sed 's/^/    /'
	if ! grep -Eq '^arbiter [0-9][^ ]* \(.*windows/amd64' <<<"$out" || ! grep -q 'MIT licence' <<<"$out"; then
		echo "wine-test: $exe --version did not name its version, windows/amd64 and the MIT licence" >&2
		return 1
	fi
	echo "ok  	the Windows program starts under Wine and answers --version"
}

status=0
if (($# == 0)); then
	wintest ./clock/ ./scoresheet/ ./internal/phrase/ ./internal/quietlocale/ ./internal/timesource/ || status=$?
	windows_program || status=1
else
	wintest "$@" || status=$?
fi
exit $status
