#!/usr/bin/env bash
# The lichess-heavy set of 7,966 positions for the 'arbiter unwinnable' timing of issue 12
# (docs/unwinnable.md, "The lichess-heavy set"), built from the two reference files in the folder
# UNWINNABLE_DATA (else REFERENCE_DATA; e.g. ../shared/data, never looked for unless named), in this order:
#   1. the 300 lichess time-outs of unwinnable.tsv (every row whose source names lichess),
#   2. every 8th lichess row of unwinnable-chasolver.tsv (rows 1, 9, 17, … of its lichess rows: 5,452),
#   3. every 2nd community row of unwinnable-chasolver.tsv (rows 1, 3, 5, …: 2,234),
# then the first 7,966 of them (the last 20 community rows are left out): 5,752 lichess and
# 2,214 community positions. CHA-Solver's figures of issue 12 (61 µs a lichess position, 11 ms a
# community one) make such a mix about 24 s, its full mode's time on the issue's set.
#
#   scripts/unwinnable-set.sh OUT   writes OUT ('FEN<TAB>COLOUR' lines, the input of arbiter
#                                   unwinnable) and OUT.labels ('VERDICT<TAB>FEN<TAB>COLOUR', the labels)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/unwinnable-set.sh OUT}
data=${UNWINNABLE_DATA:-${REFERENCE_DATA:-}}
[ -n "$data" ] || { echo "scripts/unwinnable-set.sh needs UNWINNABLE_DATA=DIR (or REFERENCE_DATA=DIR): the folder with unwinnable.tsv and unwinnable-chasolver.tsv" >&2; exit 2; }
{
	awk -F'\t' 'NR > 1 && $4 ~ /lichess/' "$data/unwinnable.tsv"
	awk -F'\t' 'NR > 1 && $4 ~ /lichess/ && n++ % 8 == 0' "$data/unwinnable-chasolver.tsv"
	awk -F'\t' 'NR > 1 && $4 !~ /lichess/ && n++ % 2 == 0' "$data/unwinnable-chasolver.tsv"
} | head -n 7966 >"$out.rows"
awk -F'\t' '{ print $1 "\t" $2 }' "$out.rows" >"$out"
awk -F'\t' '{ print $3 "\t" $1 "\t" $2 }' "$out.rows" >"$out.labels"
rm -f "$out.rows"
n=$(wc -l <"$out")
[ "$n" = 7966 ] || { echo "unwinnable-set.sh: $n positions, want 7966 (are the reference files complete?)" >&2; exit 1; }
