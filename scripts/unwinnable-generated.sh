#!/usr/bin/env bash
# Issue 29's check: N hard positions from the generator (unwinnable/generate_test.go) with a seed,
# decided by 'arbiter unwinnable' at its default limit and labelled by CHA-Solver 3.0 (MIT, not
# part of the project) in the same run; every verdict must be decided and agree with CHA-Solver's
# wherever CHA-Solver decides, except where the analyser's helpmate, replayed through notnil, refutes
# CHA-Solver's "unwinnable" (counted as chasolver-wrong; docs/unwinnable.md, "Hard positions, generated").
#
#   scripts/unwinnable-generated.sh SEED N [DIR]
#
# writes DIR/generated-SEED.txt ('FEN COLOUR'), .arbiter (arbiter's output) and .chasolver
# (CHA-Solver's), DIR default build/bench, and one line of counts and times to stdout:
#   unwinnable-generated seed=S positions=N undetermined=U wrong=W chasolver-wrong=R chasolver-undetermined=C
#     seconds=T user=T chasolver-seconds=T chasolver-user=T kinds=KIND:U/W,…
# CHASOLVER names CHA-Solver's analyzer (e.g. ../shared/tools/chasolver/analyzer; no default: nothing
# beside the repository is read unless named); without it
# the arbiter's verdicts are counted alone (wrong=- chasolver-…=-). The exit status is 1 when a
# verdict is undetermined or disagrees (a refuted label of CHA-Solver's is not a disagreement).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH CGO_ENABLED=1 GOFLAGS=-buildvcs=false
seed=${1:?usage: scripts/unwinnable-generated.sh SEED N [DIR]}
n=${2:?usage: scripts/unwinnable-generated.sh SEED N [DIR]}
dir=${3:-build/bench}
cha=${CHASOLVER:-}
mkdir -p "$dir"
dir=$(realpath "$dir")
rows="$dir/generated-$seed.txt"
go test -count=1 -run '^TestTheGeneratorMakesLegalPositions$' ./unwinnable/ -args \
	-generate "$rows" -generate.seed "$seed" -generate.n "$n" >/dev/null
bin="$dir/arbiter-generated"
go build -o "$bin" .
# timed FILE CMD…: CMD's wall and user seconds into FILE.time (its stderr dropped).
timed() {
	local out=$1
	shift
	local TIMEFORMAT='%R %U'
	{ time "$@" 2>/dev/null; } 2>"$out.time"
}
timed "$dir/generated-$seed.arbiter" "$bin" unwinnable <"$rows" >"$dir/generated-$seed.arbiter"
read -r secs user <"$dir/generated-$seed.arbiter.time"
rm -f "$bin"
chasecs=- chauser=- havecha=0
if [ -x "$cha" ]; then
	havecha=1
	timed "$dir/generated-$seed.chasolver" "$cha" <"$rows" >"$dir/generated-$seed.chasolver"
	read -r chasecs chauser <"$dir/generated-$seed.chasolver.time"
else
	echo "unwinnable-generated: no CHA-Solver${cha:+ at $cha} (name it with CHASOLVER=PATH): the verdicts are counted alone" >&2
	: >"$dir/generated-$seed.chasolver"
fi
# A disagreement where the analyser says winnable and CHA-Solver unwinnable is settled by the
# analyser's helpmate: replayed through notnil/chess (TestAHelpmateRefutesAnUnwinnableLabel
# -refute), a line that mates refutes CHA-Solver's label (chasolver-wrong); every other
# disagreement counts as wrong.
disputed="$dir/generated-$seed.disputed"
paste <(cut -d' ' -f1 "$dir/generated-$seed.chasolver") "$dir/generated-$seed.arbiter" |
	awk -F'\t' '$1 == "unwinnable" && $2 == "winnable"' | cut -f2- >"$disputed"
refuted=0
if [ -s "$disputed" ]; then
	if go test -count=1 -run '^TestAHelpmateRefutesAnUnwinnableLabel$' ./unwinnable/ -args -refute "$disputed" >"$disputed.replay" 2>&1; then
		refuted=$(wc -l <"$disputed")
	else
		echo "unwinnable-generated: a disputed helpmate does not replay to a mate (see $disputed.replay)" >&2
	fi
fi
# The kinds take turns (chains, composed, race, crowd): row i is kind i%4.
awk -F'\t' -v seed="$seed" -v secs="$secs" -v user="$user" -v cs="$chasecs" -v cu="$chauser" -v refuted="$refuted" \
	-v labels="$dir/generated-$seed.chasolver" -v havecha="$havecha" '
	BEGIN { while (havecha && (getline line < labels) > 0) { split(line, w, " "); label[++nl] = w[1] } }
	{
		i = FNR; kind = (i - 1) % 4; n++
		if ($1 == "undetermined") { u++; uk[kind]++ }
		if (havecha) {
			if (label[i] == "undetermined") c++
			else if ($1 != "undetermined" && $1 != label[i]) {
				if (refuted && $1 == "winnable" && label[i] == "unwinnable") { r++; print "CHA-SOLVER REFUTED\t" $0 "\tCHA-Solver: " label[i] " (the helpmate replays to a mate)" > "/dev/stderr" }
				else { bad++; wk[kind]++; print "DISAGREES\t" $0 "\tCHA-Solver: " label[i] > "/dev/stderr" }
			}
		}
	}
	END {
		split("chains composed race crowd", names, " ")
		kinds = ""
		for (k = 0; k < 4; k++) kinds = kinds sprintf("%s%s:%d/%d", k ? "," : "", names[k + 1], uk[k] + 0, wk[k] + 0)
		printf "unwinnable-generated seed=%s positions=%d undetermined=%d wrong=%s chasolver-wrong=%s chasolver-undetermined=%s seconds=%s user=%s chasolver-seconds=%s chasolver-user=%s kinds=%s\n",
			seed, n, u + 0, havecha ? bad + 0 : "-", havecha ? r + 0 : "-", havecha ? c + 0 : "-", secs, user, cs, cu, kinds
		exit (u + bad > 0)
	}' "$dir/generated-$seed.arbiter"
