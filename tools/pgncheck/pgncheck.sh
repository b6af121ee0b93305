#!/bin/sh
# pgncheck.sh FILE — validate a PGN file with two independent readers
# (pgn-extract and chess.js) and check that both reach the same final
# position in every game. Exit 0 only if both accept every game and agree.
set -u
file=${1:?usage: pgncheck.sh FILE.pgn}
here=$(cd "$(dirname "$0")" && pwd)
pgnextract=${PGN_EXTRACT:-/usr/games/pgn-extract}

if [ ! -x "$pgnextract" ]; then
	echo "pgncheck: $pgnextract not found; install it with: apt-get install -y pgn-extract" >&2
	exit 2
fi
if [ ! -d "$here/node_modules/chess.js" ]; then
	echo "pgncheck: chess.js missing; run: npm install --prefix $here" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# pgn-extract: -F appends the final FEN as a comment; -C drops the input's
# comments so that the only quoted comment left is that FEN. It exits 0 on
# some errors, so any output on stderr counts as a failure.
"$pgnextract" -s -F -C -N -V --notags --noresults -w 1000 "$file" >"$tmp/pe.out" 2>"$tmp/pe.err"
rc=$?
if [ $rc -ne 0 ] || [ -s "$tmp/pe.err" ]; then
	echo "pgncheck: pgn-extract rejected $file (exit $rc):" >&2
	cat "$tmp/pe.err" >&2
	exit 1
fi
# Keep the FEN from each { "..." } comment and drop its en-passant field.
grep -o '{ "[^"]*" }' "$tmp/pe.out" | sed 's/^{ "//; s/" }$//' |
	awk '{ $4 = ""; print $1, $2, $3, $5, $6 }' >"$tmp/pe.fens"

if ! node "$here/check.mjs" "$file" >"$tmp/cj.fens" 2>"$tmp/cj.err"; then
	echo "pgncheck: chess.js rejected $file:" >&2
	cat "$tmp/cj.err" >&2
	exit 1
fi

if ! cmp -s "$tmp/pe.fens" "$tmp/cj.fens"; then
	echo "pgncheck: pgn-extract and chess.js disagree on the final positions in $file:" >&2
	diff "$tmp/pe.fens" "$tmp/cj.fens" >&2
	exit 1
fi
if [ ! -s "$tmp/pe.fens" ]; then
	echo "pgncheck: no games found in $file" >&2
	exit 1
fi
echo "pgncheck: $(wc -l <"$tmp/pe.fens") games accepted by pgn-extract and chess.js, final positions agree"
