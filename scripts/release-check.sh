#!/usr/bin/env bash
# release-check.sh VERSION — proves that 'make release' is reproducible: it builds the release of
# HEAD (the commit it is when the check starts, RELEASE_REF for both builds) twice, each from its
# own 'git archive' in its own temporary folder, into build/release-check/a
# and build/release-check/b, and compares the archives byte for byte (and SHA256SUMS). With
# RELEASE_COLD=1 the second build runs with an empty Go build cache (every package and all the C
# code of GLFW compiled again: many minutes), so that a cached result cannot hide a build that
# differs. Exit 0 when both are the same, 1 when not (the differing files named).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/release-check.sh VERSION}
RELEASE_REF=$(git rev-parse --verify "${RELEASE_REF:-HEAD}^{commit}")
export RELEASE_REF
rm -rf build/release-check
mkdir -p build/release-check
bash scripts/release.sh "$version" build/release-check/a
if [[ -n "${RELEASE_COLD:-}" ]]; then
	cache=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-release-cache.XXXXXX")
	trap 'chmod -R u+w "$cache" 2>/dev/null; rm -rf "$cache"' EXIT
	echo "release-check: the second build with an empty build cache ($cache)" >&2
	GOCACHE="$cache" bash scripts/release.sh "$version" build/release-check/b
else
	bash scripts/release.sh "$version" build/release-check/b
fi
status=0
for f in "arbiter-$version-linux-amd64.tar.gz" "arbiter-$version-windows-amd64.zip" SHA256SUMS; do
	if cmp -s "build/release-check/a/$f" "build/release-check/b/$f"; then
		echo "release-check: $f: the same bytes twice ($(sha256sum <"build/release-check/a/$f" | cut -c1-16)…)"
	else
		echo "release-check: $f DIFFERS between build/release-check/a and build/release-check/b" >&2
		status=1
	fi
done
exit $status
