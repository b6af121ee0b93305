#!/usr/bin/env bash
# gui-cpu: CPU use and peak memory of the console with a running clock in a
# game in progress,
# compared with an idle minimal Fyne window, and with a minimal window of the
# console's size whose label changes once a second (Fyne repaints the whole
# window on any change: that repaint is the floor for any running clock),
# all under Xvfb.
#
#   scripts/gui-cpu.sh [SECONDS]     (default 30 s per run, 3 runs each)
#
# Prints the median of 3 runs as
#   console_cpu_pct=.. console_rss_mb=.. minimal_cpu_pct=.. minimal_rss_mb=.. ticking_cpu_pct=.. ticking_rss_mb=..
# where cpu_pct is the percentage of one core (utime+stime from
# /proc/PID/stat over the measured interval) and rss_mb is VmHWM.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH
secs=${1:-30}
runs=3

mkdir -p bin
go build -o bin/arbiter .
go build -o bin/gui-minimal ./gui/internal/minimal

work=$(mktemp -d)
disp=99
while [ -e "/tmp/.X11-unix/X$disp" ] || [ -e "/tmp/.X$disp-lock" ]; do disp=$((disp + 1)); done
export DISPLAY=":$disp"
xvfb_pid=""
pid=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null || true
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done

# a database with game 1 of 1996 in progress: the first 30 moves played, so
# the scoresheet holds 30 rows, and White's clock running (for hours)
db="$work/bench.db"
bin/arbiter --db "$db" match new --title "ACM Chess Challenge" --player "Garry Kasparov" --player "Deep Blue" \
	--computer "Deep Blue" --operator "Feng-hsiung Hsu" --white "Deep Blue" >/dev/null
bin/arbiter --db "$db" game start >/dev/null
for mv in e4 c5 c3 d5 exd5 Qxd5 d4 Nf6 Nf3 Bg4 Be2 e6 h3 Bh5 O-O Nc6 Be3 cxd4 cxd4 Bb4 \
	a3 Ba5 Nc3 Qd6 Nb5 Qe7 Ne5 Bxe2 Qxe2 O-O Rac1 Rac8 Bg5 Bb6 Bxf6 gxf6 Nc4 Rfd8 Nxb6 axb6 \
	Rfd1 f5 Qe3 Qf6 d5 Rxd5 Rxd5 exd5 b3 Kh8 Qxb6 Rg8 Qc5 d4 Nd6 f4 Nxb7 Ne5 Qd5 f3; do
	bin/arbiter --db "$db" move "$mv" >/dev/null
done

hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# measure CMD...: start it, let it settle 3 s, measure for $secs s.
measure() {
	HOME="$work" LANG=en_US.UTF-8 FYNE_SCALE=1 "$@" >/dev/null 2>&1 &
	pid=$!
	sleep 3
	kill -0 "$pid" || { echo "gui-cpu: $1 exited early" >&2; exit 1; }
	local t0 t1
	t0=$(ticks "$pid")
	sleep "$secs"
	t1=$(ticks "$pid")
	local hwm
	hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
	kill "$pid"; wait "$pid" 2>/dev/null || true
	pid=""
	awk -v a="$t0" -v b="$t1" -v hz="$hz" -v s="$secs" -v kb="$hwm" 'BEGIN { printf "%.2f %.1f\n", (b - a) / hz / s * 100, kb / 1024 }'
}

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

declare -a ccpu crss mcpu mrss tcpu trss
for i in $(seq $runs); do
	read -r c r < <(measure bin/arbiter --db "$db" --as operator)
	ccpu+=("$c"); crss+=("$r")
	read -r c r < <(measure bin/gui-minimal)
	mcpu+=("$c"); mrss+=("$r")
	read -r c r < <(measure bin/gui-minimal -tick)
	tcpu+=("$c"); trss+=("$r")
done
echo "console_cpu_pct=$(printf '%s\n' "${ccpu[@]}" | median) console_rss_mb=$(printf '%s\n' "${crss[@]}" | median) minimal_cpu_pct=$(printf '%s\n' "${mcpu[@]}" | median) minimal_rss_mb=$(printf '%s\n' "${mrss[@]}" | median) ticking_cpu_pct=$(printf '%s\n' "${tcpu[@]}" | median) ticking_rss_mb=$(printf '%s\n' "${trss[@]}" | median)"
