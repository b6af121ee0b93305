#!/usr/bin/env bash
# deps.sh — install the system packages Arbiter needs on Debian 12, and check Go.
#
# Usage:
#   scripts/deps.sh          packages to build and run the console
#   scripts/deps.sh --test   the above plus what the test suite needs (with Wine and
#                            MinGW-w64, to run the core tests as Windows programs)
#   scripts/deps.sh --cross  the build packages plus the MinGW-w64 C compiler
#                            that `make cross` and `make release` use for the Windows
#                            console, and zip for the release's Windows archive
#
# The script is idempotent: each package is checked with dpkg-query and only the
# missing ones are installed, with apt-get (through sudo when not run as root).
# `apt-get update` runs only when something must be installed. Go itself cannot
# be installed from here; the script checks that Go >= 1.26 is on PATH (or in
# /usr/local/go/bin) and says how to install it when it is not.
set -euo pipefail

GO_MIN_MAJOR=1
GO_MIN_MINOR=26

build_pkgs=(
	gcc libc6-dev pkg-config
	libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev
	fonts-dejavu-core
)
test_pkgs=(xvfb xauth xdotool imagemagick pgn-extract poppler-utils sqlite3 python3 desktop-file-utils chromium curl wine wine64 gcc-mingw-w64-x86-64 stockfish)
cross_pkgs=(gcc-mingw-w64-x86-64 zip)

want_test=0
want_cross=0
case "${1:-}" in
"") ;;
--test) want_test=1 ;;
--cross) want_cross=1 ;;
-h | --help)
	sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
*)
	echo "deps.sh: unknown option '$1'; use no option for build packages, --test for test packages too or --cross for the Windows cross-compiler." >&2
	exit 2
	;;
esac

log() { echo "deps: $*"; }

# --- Go -----------------------------------------------------------------------
export PATH="/usr/local/go/bin:$PATH"

go_help() {
	cat >&2 <<MSG
deps: Arbiter needs Go ${GO_MIN_MAJOR}.${GO_MIN_MINOR} or newer, $1.
      Install it from the official tarball for linux/amd64 (this script cannot download toolchains):
        sudo rm -rf /usr/local/go && sudo tar -C /usr/local -xzf go1.${GO_MIN_MINOR}.<patch>.linux-amd64.tar.gz
      then make sure /usr/local/go/bin is on PATH (the Makefile adds it) and run this again.
MSG
	exit 1
}

if ! command -v go >/dev/null 2>&1; then
	go_help "but no 'go' command was found on PATH or in /usr/local/go/bin"
fi
go_ver_line="$(go version 2>/dev/null || true)"
# "go version go1.26.8 linux/amd64" -> 1 26
if [[ "$go_ver_line" =~ go([0-9]+)\.([0-9]+) ]]; then
	go_major="${BASH_REMATCH[1]}"
	go_minor="${BASH_REMATCH[2]}"
	if ((go_major < GO_MIN_MAJOR || (go_major == GO_MIN_MAJOR && go_minor < GO_MIN_MINOR))); then
		go_help "but '$(command -v go)' is go${go_major}.${go_minor}"
	fi
	log "go ok: ${go_ver_line#go version }"
else
	go_help "but 'go version' printed '${go_ver_line}', which is not a release version this script understands"
fi

# --- Debian packages ----------------------------------------------------------
if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: dpkg-query/apt-get not found; this script supports Debian 12. Install the packages listed in scripts/deps.sh by hand." >&2
	exit 1
fi

pkgs=("${build_pkgs[@]}")
if ((want_cross)); then
	pkgs+=("${cross_pkgs[@]}")
fi
if ((want_test)); then
	pkgs+=("${test_pkgs[@]}")
	# Node may come from elsewhere (e.g. /usr/bin/node from another source); only
	# fall back to Debian's nodejs/npm when the commands are missing.
	if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
		command -v node >/dev/null 2>&1 || pkgs+=(nodejs)
		command -v npm >/dev/null 2>&1 || pkgs+=(npm)
	fi
fi

installed() {
	# Prints one status per installed architecture; any "installed" counts.
	dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null | grep -qx installed
}

missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
	log "all ${#pkgs[@]} system packages present"
	exit 0
fi

SUDO=()
if ((EUID != 0)); then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		echo "deps: missing packages (${missing[*]}) and not root; run 'make deps' as root or install sudo." >&2
		exit 1
	fi
fi

log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"

still=()
for p in "${missing[@]}"; do
	installed "$p" || still+=("$p")
done
if ((${#still[@]})); then
	echo "deps: apt-get finished but these packages are still not installed: ${still[*]}; check the apt output above." >&2
	exit 1
fi
log "done"
