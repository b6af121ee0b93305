#!/usr/bin/env bash
# release.sh — the release archives of one commit, reproducible (docs/release.md).
#
#   scripts/release.sh VERSION [OUTDIR]     (make release VERSION=X.Y.Z; OUTDIR defaults to dist)
#   RELEASE_REF=COMMIT scripts/release.sh …  another commit than HEAD (make release-check pins one)
#
# Builds, from 'git archive' of the commit (never the working tree's uncommitted changes):
#   OUTDIR/arbiter-VERSION-linux-amd64.tar.gz   arbiter, org.arbiter.console.desktop,
#                                               org.arbiter.console.png, README.md, LICENSE,
#                                               THIRD_PARTY_NOTICES
#   OUTDIR/arbiter-VERSION-windows-amd64.zip    arbiter.exe (the console program, cgo with
#                                               MinGW-w64), README.md, LICENSE, THIRD_PARTY_NOTICES
#   OUTDIR/SHA256SUMS                           the SHA-256 of both
#
# The same commit gives the same bytes, wherever it is checked out and whenever it is built:
#   - go build -trimpath (no folder names), -buildvcs=false (the commit is stamped with -X
#     instead, from git), -ldflags '-s -w -buildid=' (no symbol table, no DWARF, no build id);
#     the Windows linker is told --no-insert-timestamp (no link time in the PE header);
#   - every file's mtime is SOURCE_DATE_EPOCH, the commit's time (git log -1 --format=%ct),
#     unless SOURCE_DATE_EPOCH is set; owner and group 0, modes 0755/0644, names in order;
#   - tar --sort=name --format=gnu, gzip -n (no name or time in the gzip header); zip -X -D
#     (no extra attributes, no directory entries) with TZ=UTC.
#
# Needs: go, git, gcc, x86_64-w64-mingw32-gcc (scripts/deps.sh --cross), tar, gzip, zip.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH" LC_ALL=C TZ=UTC

version=${1:-}
out=${2:-dist}
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release: give the version as X.Y.Z (e.g. make release VERSION=1.0.0), not '${version}'" >&2
	exit 2
fi
for c in go git gcc x86_64-w64-mingw32-gcc tar gzip zip sha256sum; do
	if ! command -v "$c" >/dev/null 2>&1; then
		echo "release: '$c' is not installed; run 'scripts/deps.sh --cross' (MinGW-w64) or install it" >&2
		exit 3
	fi
done

ref=${RELEASE_REF:-HEAD}
commit=$(git rev-parse --verify "$ref^{commit}")
if [[ "$ref" == HEAD && -n "$(git status --porcelain --untracked-files=no)" ]]; then
	echo "release: the working tree has uncommitted changes; the release is built from HEAD ${commit:0:12} without them" >&2
fi
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct "$commit")}

# A fresh build folder: -trimpath makes its name irrelevant (Go maps the module folders for cgo's C
# compiler too, -ffile-prefix-map), which 'make release-check' proves by building in two.
build=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-release.XXXXXX")
trap 'rm -rf "$build"' EXIT
mkdir -p "$build/src" "$build/stage"
git archive --format=tar "$commit" | tar -x -C "$build/src"

ldflags="-s -w -buildid= -X arbiter/cli.releaseVersion=$version -X arbiter/cli.releaseCommit=$commit"
gobuild() { # GOOS CC OUT [extra ldflags]
	echo "release: GOOS=$1 GOARCH=amd64 CGO_ENABLED=1 CC=$2 go build -trimpath -o $3" >&2
	(cd "$build/src" && GOOS=$1 GOARCH=amd64 CGO_ENABLED=1 CC=$2 GOFLAGS=-buildvcs=false \
		go build -trimpath -ldflags "$ldflags${4:+ $4}" -o "$3" .)
}

linux="arbiter-$version-linux-amd64"
windows="arbiter-$version-windows-amd64"
mkdir -p "$build/stage/$linux" "$build/stage/$windows"
gobuild linux gcc "$build/stage/$linux/arbiter"
gobuild windows x86_64-w64-mingw32-gcc "$build/stage/$windows/arbiter.exe" "-extldflags=-Wl,--no-insert-timestamp"
for d in "$linux" "$windows"; do
	cp "$build/src/packaging/README.md" "$build/src/LICENSE" "$build/src/THIRD_PARTY_NOTICES" "$build/stage/$d/"
done
cp "$build/src/packaging/org.arbiter.console.desktop" "$build/stage/$linux/"
cp "$build/src/assets/icon.png" "$build/stage/$linux/org.arbiter.console.png"

# Modes and times the same on every machine.
find "$build/stage" -type d -exec chmod 0755 {} +
find "$build/stage" -type f -exec chmod 0644 {} +
chmod 0755 "$build/stage/$linux/arbiter" "$build/stage/$windows/arbiter.exe"
find "$build/stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/$linux.tar.gz" "$out/$windows.zip"
(cd "$build/stage" && tar --sort=name --format=gnu --owner=0 --group=0 --numeric-owner \
	--mtime="@$SOURCE_DATE_EPOCH" -cf - "$linux" | gzip -n -9 >"$out/$linux.tar.gz")
(cd "$build/stage" && find "$windows" -type f | sort | zip -q -X -D -9 "$out/$windows.zip" -@)
(cd "$out" && sha256sum "$linux.tar.gz" "$windows.zip" >SHA256SUMS)

echo "release: $version from ${commit:0:12} (SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH):" >&2
(cd "$out" && ls -l "$linux.tar.gz" "$windows.zip" SHA256SUMS >&2 && cat SHA256SUMS >&2)
