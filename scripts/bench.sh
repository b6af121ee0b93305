#!/usr/bin/env bash
# make bench: one run of every benchmark of docs/performance.md, each figure
# printed beside its baseline measured in the same run, with ratio columns.
# No pass/fail: the goals are in the last column for the reader.
#
#   scripts/bench.sh            the table (build/bench/table.md) and raw output (build/bench/raw.txt)
#   SAMPLES=5000 scripts/bench.sh   more samples for the latency percentiles (default 2000)
#   REFERENCE_DATA=DIR scripts/bench.sh   (8) on the whole reference files of others in DIR
#                                   (unwinnable.tsv, unwinnable-chasolver.tsv) instead of the
#                                   project's sample (unwinnable/testdata); everything else needs
#                                   nothing beside the repository
#
# The cached match databases live in build/bench/ (rm -rf build/bench to rebuild them).
set -euo pipefail
if [ -n "${REFERENCE_DATA:-}" ]; then
	REFERENCE_DATA=$(realpath "$REFERENCE_DATA") # the benchmarks run in their packages' folders
	export REFERENCE_DATA
fi
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH CGO_ENABLED=1 GOFLAGS=-buildvcs=false
SAMPLES=${SAMPLES:-2000}
mkdir -p build/bench
RAW=build/bench/raw.txt
TABLE=build/bench/table.md
: >"$RAW"

run() { echo "+ $*" >&2; "$@" 2>&1 | tee -a "$RAW" | grep -E '^(Benchmark|ok|FAIL|---)' >&2; }

# (1) and (4): per-operation latencies, the same number of samples each.
run go test -count=1 -run '^$' -bench '^(BenchmarkRawAppendFsync|BenchmarkCommitOneEvent|BenchmarkMoveEntry)$' -benchtime "${SAMPLES}x" -benchmem ./bench/
# (2) and (5): open + rebuild at 1x, 10x, 100x; PGN and PDF export beside their baselines.
run go test -count=1 -timeout 60m -run '^$' -bench '^(BenchmarkOpenRebuild|BenchmarkExportPGN|BenchmarkExportPDF|BenchmarkBaselinePGN|BenchmarkBaselinePDF)$' -benchtime 2s -benchmem ./bench/
# (3): the clock.
run go test -count=1 -run '^$' -bench '^(BenchmarkPress|BenchmarkRemaining)$' -benchmem ./clock/
# (7): the live broadcast: commit to visible in /games.pgn; requests/s while the match is played, beside a static file server.
run go test -count=1 -run '^$' -bench '^BenchmarkBroadcastCommitToVisible$' -benchtime "${BROADCAST_SAMPLES:-200}x" ./broadcast/
run go test -count=1 -run '^$' -bench '^(BenchmarkBroadcastServe|BenchmarkStaticFileServe)$' -benchtime 3s ./broadcast/
# 2,000 spectators' pages (server-sent events) on one server process, beside one spectator, in one run:
# commit to visible at every spectator, and the server's memory.
run go test -count=1 -timeout 30m -run '^$' -bench '^BenchmarkBroadcastSpectators$' -benchtime "${SPECTATOR_COMMITS:-60}x" ./broadcast/
# Stations (docs/stations.md): a command from the operator's laptop to committed, beside the raw
# publish to the engine (R1, sync always) and a raw fsync, in one run; figures in raw.txt.
run go test -count=1 -run '^$' -bench '^(BenchmarkStationCommandFromLaptop|BenchmarkRawReplicatedPublishR1|BenchmarkRawReplicatedPublishR3)$' -benchtime "${SAMPLES}x" ./station/
# The record on one, two and three holders: the same command from the laptop, the three setups
# interleaved in one run (two holders: answered once the other holder's record holds it), and
# beside each three-holder command a raw R3 publish on the same three servers in the same loop
# (holders3-publish-r3-*: issue 29's judged baseline; the standalone R3 run above is printed beside it).
# As many commands as every other latency figure (SAMPLES): with 300 the p99 was the third slowest
# command and moved by half its value between quiet runs (docs/performance.md, "The station's p99 on a
# quiet machine"); STATION_SAMPLES=300 gives the old, shorter run.
run go test -count=1 -run '^$' -bench '^BenchmarkStationHolders$' -benchtime "${STATION_SAMPLES:-$SAMPLES}x" ./station/
# The failover stall: three holders as child processes, the authority SIGKILLed STATION_STALL times
# (default 10; each after the one killed before has caught up), to the next committed command; the
# median is in raw.txt ("killing the authority to the next commit"). STATION_STALL=0 leaves it out
# (it takes 2-4 minutes).
if [ "${STATION_STALL:-10}" != 0 ]; then
	ARBITER_STATION_STALL="${STATION_STALL:-10}" run go test -count=1 -timeout 30m -run '^TestChaosEveryAcknowledgedCommandOnceAndInOrder$' -v ./station/
fi
# (9) The computer's equipment (docs/engine.md): the human's move committed to the bridge's go line
# on one machine, and the engine's bestmove read to its move committed with --play, beside the
# plain move's commit (the human's, in the same loop); then at an operator's laptop, the human's move
# given at the arbiter's station to the go line at the laptop, beside the laptop's command round trip.
run go test -count=1 -run '^$' -bench '^BenchmarkEngineRelayOneMachine$' -benchtime "${ENGINE_SAMPLES:-1000}x" ./engine/
echo "+ ARBITER_ENGINE_BENCH=${ENGINE_LAPTOP_SAMPLES:-200} go test -run TestEngineRelayAtTheLaptopMeasured ./cli/" >&2
ARBITER_ENGINE_BENCH="${ENGINE_LAPTOP_SAMPLES:-200}" go test -count=1 -timeout 20m -run '^TestEngineRelayAtTheLaptopMeasured$' -v ./cli/ 2>&1 | tee -a "$RAW" | grep -E '^(engine-laptop|ok|FAIL|---)' >&2
# The engine's weight: the program built with and without stations (-tags nostation leaves out
# cli/station.go, the only importer of package station and of nats), stripped and not; the cold
# build times only with BENCH_COLD=1 (an empty GOCACHE each: many minutes on 2 cores).
for tags in "" nostation; do
	out="build/bench/arbiter${tags:+-$tags}"
	go build -tags "$tags" -o "$out" . && go build -tags "$tags" -ldflags="-s -w" -o "$out-stripped" .
	echo "station-size tags=${tags:-default} bytes=$(stat -c %s "$out") stripped=$(stat -c %s "$out-stripped")" | tee -a "$RAW" >&2
	if [ -n "${BENCH_COLD:-}" ]; then
		cache="$(mktemp -d)"
		t0=$(date +%s.%N)
		GOCACHE="$cache" go build -tags "$tags" -o "$out-cold" .
		echo "station-cold tags=${tags:-default} seconds=$(echo "$(date +%s.%N) - $t0" | bc)" | tee -a "$RAW" >&2
		rm -rf "$cache" "$out-cold"
	fi
	rm -f "$out" "$out-stripped"
done
# (8): Article 6.9, the helpmate analyser over every row of the reference files (the project's
# sample of CHA-Solver's rows; with REFERENCE_DATA both whole files instead), and the raw perft
# speed of its move generator beside notnil/chess in the same run (docs/unwinnable.md).
# The perft runs in the same go test as the reference files (right after them), so the positions/s
# of each file stand beside the raw generator and notnil speed of the same run.
# At the command's default limit (unwinnable.DefaultLimit): the target is 0 undetermined there.
UNWINNABLE_LIMIT=default run go test -count=1 -timeout 60m -run '^$' -bench '^(BenchmarkReferenceFiles|BenchmarkPerftBeside)$' -benchtime 1x ./unwinnable/
run go test -count=1 -run '^$' -bench '^BenchmarkDeadCheck$' -benchtime 5x ./unwinnable/
# The issue's timing: one 'arbiter unwinnable' run (the real command, both cores, default limit)
# over the lichess-heavy set of 7,966 positions (scripts/unwinnable-set.sh, from REFERENCE_DATA),
# against CHA-Solver's full mode on the issue's set (24 s); its verdicts are checked against the
# labels. Without REFERENCE_DATA, over the sample's set instead: its lichess rows and every 2nd
# community row (4,415 positions; no goal: another mix).
if [ -n "${REFERENCE_DATA:-}" ]; then
	SET=build/bench/unwinnable-7966.txt setname=reference
	UNWINNABLE_DATA="$REFERENCE_DATA" scripts/unwinnable-set.sh "$SET"
else
	SET=build/bench/unwinnable-sample.txt setname=sample
	{
		awk -F'\t' 'NR > 1 && $4 ~ /lichess/' unwinnable/testdata/unwinnable-chasolver-sample.tsv
		awk -F'\t' 'NR > 1 && $4 !~ /lichess/ && n++ % 2 == 0' unwinnable/testdata/unwinnable-chasolver-sample.tsv
	} >"$SET.rows"
	awk -F'\t' '{ print $1 "\t" $2 }' "$SET.rows" >"$SET"
	awk -F'\t' '{ print $3 "\t" $1 "\t" $2 }' "$SET.rows" >"$SET.labels"
	rm -f "$SET.rows"
fi
go build -o build/bench/arbiter-unwinnable .
t0=$(date +%s.%N)
build/bench/arbiter-unwinnable unwinnable <"$SET" >"$SET.out"
secs=$(echo "$(date +%s.%N) - $t0" | bc)
paste "$SET.labels" "$SET.out" | awk -F'\t' -v secs="$secs" -v set="$setname" -v load="$(cut -d' ' -f1-3 /proc/loadavg)" '
	{ n++; if ($4 == "undetermined") u++; else if ($4 != $1) w++ }
	END { printf "unwinnable-set seconds=%.1f positions=%d undetermined=%d wrong=%d set=%s load=%s\n", secs, n, u, w, set, load }' | tee -a "$RAW" >&2
rm -f build/bench/arbiter-unwinnable
# Issue 29: the set beside CHA-Solver 3.0 in the same run, where it is given (CHASOLVER=FILE, its
# analyzer, e.g. ../shared/tools/chasolver/analyzer; not part of the project, and never looked for
# beside the repository): the goal is at most 0.6 of its time.
CHASOLVER=${CHASOLVER:-}
if [ -n "$CHASOLVER" ] && [ ! -x "$CHASOLVER" ]; then
	echo "bench: CHASOLVER=$CHASOLVER is not an executable file, so CHA-Solver is left out of this run" | tee -a "$RAW" >&2
fi
if [ -n "$CHASOLVER" ] && [ -x "$CHASOLVER" ]; then
	TIMEFORMAT='%R %U'
	{ time "$CHASOLVER" <"$SET" >"$SET.chasolver" 2>/dev/null; } 2>"$SET.chasolver.time"
	read -r chasecs chauser <"$SET.chasolver.time"
	echo "unwinnable-set-chasolver seconds=$chasecs user=$chauser arbiter-seconds=$secs ratio=$(echo "scale=2; $secs / $chasecs" | bc) load=$(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$RAW" >&2
fi
# Issue 29: the generator's hard rows (unwinnable/testdata/generated-hard.tsv, CHA-Solver's labels)
# at the default limit: the goal is 0 wrong, 0 undetermined; and UNWINNABLE_GENERATED fresh rows
# (default 20000; 0: none) of the seed UNWINNABLE_SEED (default: today's date) decided, and labelled
# by CHA-Solver where it is at hand (scripts/unwinnable-generated.sh).
run go test -count=1 -timeout 60m -run '^$' -bench '^BenchmarkGeneratedHardRows$' -benchtime 1x ./unwinnable/
if [ "${UNWINNABLE_GENERATED:-20000}" != 0 ]; then
	CHASOLVER="$CHASOLVER" scripts/unwinnable-generated.sh "${UNWINNABLE_SEED:-$(date +%Y%m%d)}" "${UNWINNABLE_GENERATED:-20000}" build/bench 2>>"$RAW" | tee -a "$RAW" >&2 || true
fi
# (6): the console under Xvfb, beside a minimal Fyne window (scripts/gui-cpu.sh, by the GUI's owner).
GUI=build/bench/gui.txt
if [ -f scripts/gui-cpu.sh ] && command -v Xvfb >/dev/null 2>&1; then
	echo "+ bash scripts/gui-cpu.sh" >&2
	bash scripts/gui-cpu.sh 2>&1 | tee "$GUI" >&2 || echo "gui-cpu.sh failed (exit $?)" >>"$GUI"
else
	echo "not measured: scripts/gui-cpu.sh or Xvfb is missing" >"$GUI"
fi

awk -v gui="$GUI" '
function us(ns) { return ns >= 1e6 ? sprintf("%.2f ms", ns / 1e6) : (ns >= 1e3 ? sprintf("%.1f µs", ns / 1e3) : sprintf("%.1f ns", ns)) }
function ratio(a, b) { return (b > 0 && a != "") ? sprintf("%.2f", a / b) : "–" }
/^engine-laptop / {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); el[kv[1]] = kv[2] }
}
/^unwinnable-set / {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "seconds") uset = kv[2]; if (kv[1] == "positions") uset_n = kv[2]; if (kv[1] == "undetermined") uset_u = kv[2]; if (kv[1] == "wrong") uset_w = kv[2]; if (kv[1] == "set") uset_set = kv[2] }
	uset_load = $0; sub(/.*load=/, "", uset_load)
}
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 3; i < NF; i += 2) v[name, $(i + 1)] = $i
}
END {
	print "| # | measure | figure | baseline (same run) | ratio | goal |"
	print "|---|---|---|---|---|---|"
	# the baseline interleaved with the commits in the same loop (same noise); else the standalone one
	r50 = v["BenchmarkCommitOneEvent", "raw-p50-ns"]; r99 = v["BenchmarkCommitOneEvent", "raw-p99-ns"]
	if (r50 == "") { r50 = v["BenchmarkRawAppendFsync", "p50-ns"]; r99 = v["BenchmarkRawAppendFsync", "p99-ns"] }
	c50 = v["BenchmarkCommitOneEvent", "p50-ns"]; c99 = v["BenchmarkCommitOneEvent", "p99-ns"]
	printf "| 1 | commit one event, p50 | %s | raw append + fsync p50 %s | %s | – |\n", us(c50), us(r50), ratio(c50, r50)
	printf "| 1 | commit one event, p99 | %s | raw append + fsync p99 %s | %s | ≤ 1.5 |\n", us(c99), us(r99), ratio(c99, r99)
	x1 = v["BenchmarkOpenRebuild/x1", "ns/op"]; e1 = v["BenchmarkOpenRebuild/x1", "events"]; pe1 = v["BenchmarkOpenRebuild/x1", "ns/event"]
	printf "| 2 | open + rebuild the 6-game match (%d events) | %s | goal 50 ms | %s | < 50 ms |\n", e1, us(x1), ratio(x1, 50e6)
	for (k = 10; k <= 100; k *= 10) {
		n = "BenchmarkOpenRebuild/x" k
		printf "| 2 | open + rebuild at %d× (%d events) | %s = %s/event | 1× %s/event | %s per event | linear (≈ 1) |\n", k, v[n, "events"], us(v[n, "ns/op"]), us(v[n, "ns/event"]), us(pe1), ratio(v[n, "ns/event"], pe1)
	}
	printf "| 3 | clock press | %s, %d allocs | 1 µs | %s | 0 allocs, ≪ 1 µs |\n", us(v["BenchmarkPress", "ns/op"]), v["BenchmarkPress", "allocs/op"], ratio(v["BenchmarkPress", "ns/op"], 1000)
	printf "| 3 | remaining-time read | %s, %d allocs | 1 µs | %s | 0 allocs, ≪ 1 µs |\n", us(v["BenchmarkRemaining", "ns/op"]), v["BenchmarkRemaining", "allocs/op"], ratio(v["BenchmarkRemaining", "ns/op"], 1000)
	m50 = v["BenchmarkMoveEntry", "p50-ns"]; m99 = v["BenchmarkMoveEntry", "p99-ns"]
	printf "| 4 | move entry end to end, p50 | %s | raw append + fsync p50 %s | %s | – |\n", us(m50), us(r50), ratio(m50, r50)
	printf "| 4 | move entry end to end, p99 | %s | raw append + fsync p99 %s | %s | < 2 ms |\n", us(m99), us(r99), ratio(m99, r99)
	# The three goals of issue 29, each judged against the baseline measured in the same loop (same
	# noise); the standalone baseline (another benchmark, another moment) beside it for comparison.
	sa = "BenchmarkStationHolders"; sr = "BenchmarkRawReplicatedPublishR3"
	h50 = v[sa, "holders3-p50-ns"]; h99 = v[sa, "holders3-p99-ns"]
	i50 = v[sa, "holders3-publish-r3-p50-ns"]; i99 = v[sa, "holders3-publish-r3-p99-ns"]
	p50 = v[sr, "publish-r3-p50-ns"]; p99 = v[sr, "publish-r3-p99-ns"]
	printf "| 29 | issue 29: a command from the laptop, 3 record holders (holders3), p50 | %s | raw R3 publish in the same loop p50 %s (standalone BenchmarkRawReplicatedPublishR3 p50 %s) | %s judged (standalone %s) | ≤ 3 |\n", us(h50), us(i50), us(p50), ratio(h50, i50), ratio(h50, p50)
	printf "| 29 | issue 29: a command from the laptop, 3 record holders (holders3), p99 | %s | raw R3 publish in the same loop p99 %s (standalone BenchmarkRawReplicatedPublishR3 p99 %s) | %s judged (standalone %s) | ≤ 2 |\n", us(h99), us(i99), us(p99), ratio(h99, i99), ratio(h99, p99)
	a99 = v["BenchmarkRawAppendFsync", "p99-ns"]
	printf "| 29 | issue 29: commit one event, p99 | %s | raw append + fsync in the same loop p99 %s (standalone BenchmarkRawAppendFsync p99 %s) | %s judged (standalone %s) | ≤ 1.5 |\n", us(c99), us(v["BenchmarkCommitOneEvent", "raw-p99-ns"]), us(a99), ratio(c99, v["BenchmarkCommitOneEvent", "raw-p99-ns"]), ratio(c99, a99)
	mc99 = v["BenchmarkMoveEntry", "commit-p99-ns"]
	printf "| 29 | issue 29: move entry end to end, p99 | %s | commit one event in the same loop p99 %s (standalone BenchmarkCommitOneEvent p99 %s) | %s judged (standalone %s) | ≤ 1.5 |\n", us(m99), us(mc99), us(c99), ratio(m99, mc99), ratio(m99, c99)
	printf "| 5 | PGN export, 6 games | %s | notnil/chess writes the 6 games: %s | %s | – |\n", us(v["BenchmarkExportPGN", "ns/op"]), us(v["BenchmarkBaselinePGN", "ns/op"]), ratio(v["BenchmarkExportPGN", "ns/op"], v["BenchmarkBaselinePGN", "ns/op"])
	printf "| 5 | PDF report, 6 games | %s | fpdf, the moves as plain text: %s | %s | – |\n", us(v["BenchmarkExportPDF", "ns/op"]), us(v["BenchmarkBaselinePDF", "ns/op"]), ratio(v["BenchmarkExportPDF", "ns/op"], v["BenchmarkBaselinePDF", "ns/op"])
	b50 = v["BenchmarkBroadcastCommitToVisible", "p50-ns"]; b99 = v["BenchmarkBroadcastCommitToVisible", "p99-ns"]
	printf "| 7 | broadcast: commit to visible in /games.pgn, p50 | %s | poll interval 100 ms | %s | – |\n", us(b50), ratio(b50, 100e6)
	printf "| 7 | broadcast: commit to visible in /games.pgn, p99 | %s | goal 1 s | %s | < 1 s |\n", us(b99), ratio(b99, 1e9)
	printf "| 7 | broadcast: GET /games.pgn while the match is played | %d req/s | net/http static file server, same bytes: %d req/s | %s | – |\n", v["BenchmarkBroadcastServe", "req/s"], v["BenchmarkStaticFileServe", "req/s"], ratio(v["BenchmarkBroadcastServe", "req/s"], v["BenchmarkStaticFileServe", "req/s"])
	s1 = "BenchmarkBroadcastSpectators/spectators=1"; s2 = "BenchmarkBroadcastSpectators/spectators=2000"
	printf "| 7 | broadcast: commit to visible at every one of 2,000 spectators (event streams), p50 / p99 | %s / %s | one spectator, same run: %s / %s | p99: %s | p99 ≤ 500 ms |\n", us(v[s2, "all-p50-ns"]), us(v[s2, "all-p99-ns"]), us(v[s1, "all-p50-ns"]), us(v[s1, "all-p99-ns"]), ratio(v[s2, "all-p99-ns"], v[s1, "all-p99-ns"])
	printf "| 7 | broadcast: commit to visible at a spectator, each of 2,000, p50 / p99 | %s / %s | one spectator, same run: %s / %s | p99: %s | – |\n", us(v[s2, "p50-ns"]), us(v[s2, "p99-ns"]), us(v[s1, "p50-ns"]), us(v[s1, "p99-ns"]), ratio(v[s2, "p99-ns"], v[s1, "p99-ns"])
	printf "| 7 | broadcast: server memory (RSS, peak) with 2,000 spectators | %.1f MB, %.1f MB | one spectator: %.1f MB, %.1f MB | %s | – |\n", v[s2, "rss-bytes"] / 1e6, v[s2, "peak-bytes"] / 1e6, v[s1, "rss-bytes"] / 1e6, v[s1, "peak-bytes"] / 1e6, ratio(v[s2, "rss-bytes"], v[s1, "rss-bytes"])
	e = "BenchmarkEngineRelayOneMachine"
	if (v[e, "relay-p99-ns"] != "") {
		printf "| 9 | engine: a move of the human committed → go written, one machine, p50 / p99 | %s / %s | that move committed, same loop: %s / %s | p99: %s | p99 ≤ 5 ms |\n", us(v[e, "relay-p50-ns"]), us(v[e, "relay-p99-ns"]), us(v[e, "commit-p50-ns"]), us(v[e, "commit-p99-ns"]), ratio(v[e, "relay-p99-ns"], v[e, "commit-p99-ns"])
		printf "| 9 | engine: bestmove read → the move committed with --play (transcript fsync + one commit), p50 / p99 | %s / %s | a plain move committed: %s / %s | p99: %s | – |\n", us(v[e, "play-p50-ns"]), us(v[e, "play-p99-ns"]), us(v[e, "commit-p50-ns"]), us(v[e, "commit-p99-ns"]), ratio(v[e, "play-p99-ns"], v[e, "commit-p99-ns"])
	}
	if (el["relay-p99-ns"] != "")
		printf "| 9 | engine at the operator laptop: a move of the human given at the arbiter station → go written, p50 / p99 (%d samples) | %s / %s | a command of the laptop, round trip: %s / %s | p99: %s | ≤ 2 |\n", el["samples"], us(el["relay-p50-ns"]), us(el["relay-p99-ns"]), us(el["roundtrip-p50-ns"]), us(el["roundtrip-p99-ns"]), ratio(el["relay-p99-ns"], el["roundtrip-p99-ns"])
	nf = split("unwinnable/community unwinnable/lichess unwinnable-chasolver/community unwinnable-chasolver/lichess unwinnable-chasolver-sample/community unwinnable-chasolver-sample/lichess", files, " ")
	for (f = 1; f <= nf; f++) {
		n = "BenchmarkReferenceFiles/" files[f]
		if (v[n, "rows"] == "") continue
		gp = v["BenchmarkPerftBeside/initial/generator", "nodes/s"]; np = v["BenchmarkPerftBeside/initial/notnil", "nodes/s"]
		printf "| 8 | 6.9 analyser, %s: %d rows | %d wrong, %d undetermined, %.0f positions/s (%.0f searched a row) | same go test: perft of the generator %.1f M nodes/s, of notnil %.2f M nodes/s | positions/s per M perft nodes/s: %s | 0 wrong, 0 undetermined |\n", substr(n, 25), v[n, "rows"], v[n, "wrong"], v[n, "undetermined"], v[n, "positions/s"], v[n, "searched/row"], gp / 1e6, np / 1e6, ratio(v[n, "positions/s"], gp / 1e6)
		base = (files[f] ~ /lichess/) ? 61 : 11000
		printf "| 8 | 6.9 analyser, %s: one position mean / p99 | %s / %s | CHA-Solver (issue 12) %s a position | %s | mean < 100 µs, p99 < 1 ms (lichess rows) |\n", substr(n, 25), us(v[n, "mean-µs"] * 1000), us(v[n, "p99-µs"] * 1000), us(base * 1000), ratio(v[n, "mean-µs"], base)
		if (v[n, "proof-mean-plies"] != "") printf "| 8 | 6.9 analyser, %s: helpmate written (as found), mean / longest | %.1f / %d plies | – | – | short, natural proofs |\n", substr(n, 25), v[n, "proof-mean-plies"], v[n, "proof-max-plies"]
	}
	if (uset != "" && uset_set == "sample") printf "| 8 | `arbiter unwinnable` over the sample'"'"'s set (its lichess rows, every 2nd community row; the lichess-heavy set needs REFERENCE_DATA): %d positions, %d wrong, %d undetermined (load %s) | %.1f s | – | – | – |\n", uset_n, uset_w, uset_u, uset_load, uset
	else if (uset != "") printf "| 8 | `arbiter unwinnable` over the lichess-heavy set (scripts/unwinnable-set.sh): %d positions, %d wrong, %d undetermined (load %s) | %.1f s | CHA-Solver full mode 24 s (issue 12) | %s | ≤ 24 s |\n", uset_n, uset_w, uset_u, uset_load, uset, ratio(uset, 24)
	d50 = v["BenchmarkDeadCheck", "p50-ns"]; d99 = v["BenchmarkDeadCheck", "p99-ns"]
	if (d99 != "") printf "| 8 | per-move dead-position check, p50 / p99 (%d lichess positions) | %s / %s | goal 1 ms | %s | p99 < 1 ms |\n", v["BenchmarkDeadCheck", "positions"], us(d50), us(d99), ratio(d99, 1e6)
	for (f = 1; f <= 2; f++) {
		n = (f == 1) ? "BenchmarkPerftBeside/initial" : "BenchmarkPerftBeside/Kiwipete"
		gn = v[n "/generator", "nodes/s"]; nn = v[n "/notnil", "nodes/s"]
		if (gn == "") continue
		printf "| 8 | perft %s, generator | %.1f M nodes/s | notnil/chess %.2f M nodes/s | %s | – |\n", substr(n, 22), gn / 1e6, nn / 1e6, ratio(gn, nn)
	}
	while ((getline line < gui) > 0) {
		n = split(line, kv, /[ \t]+/)
		for (i = 1; i <= n; i++) if (split(kv[i], p, "=") == 2) g[p[1]] = p[2]
	}
	if ("console_cpu_pct" in g) {
		printf "| 6 | console under Xvfb, clock running: CPU of one core | %.2f %% | minimal Fyne window %.2f %% | %s | ≤ 1.5 |\n", g["console_cpu_pct"], g["minimal_cpu_pct"], ratio(g["console_cpu_pct"], g["minimal_cpu_pct"])
		if (g["ticking_cpu_pct"] != "")
			printf "| 6 | the same console CPU | %.2f %% | minimal window of the same size, label changing once a second %.2f %% | %s | – |\n", g["console_cpu_pct"], g["ticking_cpu_pct"], ratio(g["console_cpu_pct"], g["ticking_cpu_pct"])
		printf "| 6 | console under Xvfb: RSS | %.1f MB | minimal Fyne window %.1f MB | %s | < 200 MB |\n", g["console_rss_mb"], g["minimal_rss_mb"], ratio(g["console_rss_mb"], g["minimal_rss_mb"])
	} else {
		printf "| 6 | console under Xvfb | not measured (see below) | minimal Fyne window | – | CPU ratio ≤ 1.5, RSS < 200 MB |\n"
	}
}' "$RAW" >"$TABLE"
{
	echo
	echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(go version | cut -d' ' -f3)"
	echo "Disk of build/bench: $(df -hT build/bench | awk 'NR==2 {print $1 " (" $2 ")"}')"
	echo
	echo "(6) console under Xvfb (scripts/gui-cpu.sh):"
	sed 's/^/    /' "$GUI"
	echo
	echo "Stations (docs/stations.md), one run:"
	awk '/^BenchmarkStationCommandFromLaptop/ { for (i = 3; i < NF; i++) v[$(i+1)] = $i }
		/^BenchmarkRawReplicatedPublishR[13]/ || /^BenchmarkStationHolders/ { for (i = 3; i < NF; i++) v[$(i+1)] = $i }
		/^station-size/ { split($2, t, "="); split($3, b, "="); split($4, s, "="); size[t[2]] = b[2]; strip[t[2]] = s[2] }
		/^station-cold/ { split($2, t, "="); split($3, c, "="); cold[t[2]] = c[2] }
		/killing the authority to the next commit/ { sub(/.*commit: /, ""); stall = $0 }
		END {
			ms = 1e6
			if ("laptop-p50-ns" in v) printf "    command from the laptop to committed: p50 %.2f ms, p99 %.2f ms; raw publish R1 p50 %.2f / p99 %.2f ms; raw publish R3 p50 %.2f / p99 %.2f ms; raw fsync p50 %.2f / p99 %.2f ms\n", v["laptop-p50-ns"]/ms, v["laptop-p99-ns"]/ms, v["publish-p50-ns"]/ms, v["publish-p99-ns"]/ms, v["publish-r3-p50-ns"]/ms, v["publish-r3-p99-ns"]/ms, v["fsync-p50-ns"]/ms, v["fsync-p99-ns"]/ms
			if ("holders3-publish-r3-p50-ns" in v) printf "    issue 29: three holders p50 %.2f / p99 %.2f ms against the raw R3 publish in the same loop p50 %.2f / p99 %.2f ms (match stream led by the authority: %d, raw stream led by the same server: %d)\n", v["holders3-p50-ns"]/ms, v["holders3-p99-ns"]/ms, v["holders3-publish-r3-p50-ns"]/ms, v["holders3-publish-r3-p99-ns"]/ms, v["holders3-match-leader-at-authority"], v["holders3-raw-leader-as-match"]
			if ("holders1-p50-ns" in v) printf "    the same command by record holders (one run, interleaved, no TLS): one p50 %.2f / p99 %.2f ms; two p50 %.2f / p99 %.2f ms (%.2fx one at p50); three p50 %.2f / p99 %.2f ms (%.2fx)\n", v["holders1-p50-ns"]/ms, v["holders1-p99-ns"]/ms, v["holders2-p50-ns"]/ms, v["holders2-p99-ns"]/ms, v["holders2-p50-ns"]/v["holders1-p50-ns"], v["holders3-p50-ns"]/ms, v["holders3-p99-ns"]/ms, v["holders3-p50-ns"]/v["holders1-p50-ns"]
			if (stall != "") printf "    failover stall (SIGKILL of the authority to the next commit): %s\n", stall
			if ("default" in size) printf "    binary: %.1f MB (%.1f MB stripped) with stations, %.1f MB (%.1f MB stripped) without: +%.1f MB, +%.1f MB stripped\n", size["default"]/1e6, strip["default"]/1e6, size["nostation"]/1e6, strip["nostation"]/1e6, (size["default"]-size["nostation"])/1e6, (strip["default"]-strip["nostation"])/1e6
			if ("default" in cold) printf "    cold build: %.0f s with stations, %.0f s without\n", cold["default"], cold["nostation"]
			else print "    cold build: not measured (BENCH_COLD=1)"
		}' "$RAW"
} >>"$TABLE"
echo
cat "$TABLE"
