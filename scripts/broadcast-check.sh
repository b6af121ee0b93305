#!/usr/bin/env bash
# broadcast-check: build the real binary, play a game half-way into a fresh
# database (the last event a few seconds ago, so the clocks are live), serve
# it with `arbiter broadcast --listen 127.0.0.1:PORT`, check the routes with
# curl (PGN with WhiteClock/BlackClock, 304 on If-None-Match, 405 on POST, the
# event stream, no credentials), serve it again with `--delay 10m` and check
# that the delayed feed holds only the moves of ten minutes ago, and take
# screenshots of the spectator page with headless Chromium (Debian's
# `chromium`) into build/screenshots/: broadcast-{en,de}.png at 1280×800,
# broadcast-phone-{en,de}.png at 390×844 (a phone), broadcast-delayed.png.
# Called by scripts/gui-check.sh; runs alone too.
#
# Needs: chromium, curl. No internet: the page's font, style and script are
# embedded in the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH CGO_ENABLED=1 GOFLAGS=-buildvcs=false

for tool in chromium curl; do
	command -v "$tool" >/dev/null || { echo "broadcast-check: $tool is not installed (make deps-test)"; exit 1; }
done
mkdir -p bin build/screenshots
[ -x bin/arbiter ] && [ -z "$(find . \( -name '*.go' -o -path './broadcast/web/*' -o -path './assets/*' \) -newer bin/arbiter -print -quit)" ] || go build -o bin/arbiter .

work=$(mktemp -d)
srv_pid=""
late_pid=""
cleanup() {
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null || true
	[ -n "$late_pid" ] && kill "$late_pid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "broadcast-check: FAIL: $*"; cat "$work/srv.log" 2>/dev/null || true; exit 1; }

# 1996 game 6 up to 19... Rf8-ish, with a pause: Kasparov (White) to move, his clock running.
cat >"$work/game.txt" <<'SCRIPT'
0:00:00 match new --title "ACM Chess Challenge 1996" --site "Philadelphia, PA, USA" --player "Garry Kasparov" --player "Deep Blue" --computer "Deep Blue" --operator "Feng-hsiung Hsu" --arbiter "Mike Valvo" --white "Garry Kasparov" --tz America/New_York --games 6
0:00:01 game start
0:01:10 move Nf3
0:03:00 --as operator move d5
0:05:30 move d4
0:07:40 --as operator move c6
0:09:10 move c4
0:12:30 --as operator move e6
0:14:00 move Nbd2
0:16:20 --as operator move Nf6
0:19:00 move e3
0:21:10 --as operator move Nbd7
0:24:30 move Bd3
0:26:00 --as operator move Bd6
0:27:30 pause --reason "photographers' flashes in the hall"
0:29:45 resume
0:31:40 move e4
0:33:20 --as operator move dxe4
0:35:00 move Nxe4
0:37:10 --as operator move Nxe4
0:38:40 move Bxe4
SCRIPT
# The script's last line 20 s ago: the clocks shown are live.
start=$(date -u -d "@$(( $(date +%s) - 38*60 - 40 - 20 ))" +%Y-%m-%dT%H:%M:%SZ)
bin/arbiter --db "$work/m.db" --at "$start" play "$work/game.txt" >/dev/null

port=$((18000 + RANDOM % 2000))
bin/arbiter --db "$work/m.db" broadcast --listen "127.0.0.1:$port" >"$work/srv.log" 2>&1 &
srv_pid=$!
base="http://127.0.0.1:$port"
for _ in $(seq 50); do curl -fs -o /dev/null "$base/games.pgn" && break; sleep 0.1; done

curl -fs "$base/games.pgn" >"$work/g.pgn" || fail "GET /games.pgn failed"
grep -q '\[Result "\*"\]' "$work/g.pgn" || fail "the game in progress is not Result \"*\""
grep -q '\[%clk ' "$work/g.pgn" || fail "no [%clk] in /games.pgn"
etag=$(curl -fsI "$base/games.pgn" | tr -d '\r' | awk 'tolower($1)=="etag:" {print $2}')
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$base/games.pgn")" = 304 ] || fail "If-None-Match did not give 304"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$base/games.pgn")" = 405 ] || fail "POST was not refused with 405"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/game/1.pgn")" = 200 ] || fail "GET /game/1.pgn failed"
if curl -fs "$base/state.json" | grep -qi 'pin'; then fail "state.json mentions the PIN"; fi
grep -q '\[WhiteClock "' "$work/g.pgn" || fail "no WhiteClock tag in /games.pgn"
curl -fs --max-time 2 "$base/events" >"$work/events.txt" || true # the stream runs until cut
grep -q '^event: state' "$work/events.txt" || fail "the event stream sent no state"

# The same record delayed by 10 minutes: the moves of the last ten minutes
# (from 7. e4 at 0:31:40, the script's last line 20 s ago) are not served.
late_port=$((port + 1))
bin/arbiter --db "$work/m.db" broadcast --listen "127.0.0.1:$late_port" --delay 10m >"$work/late.log" 2>&1 &
late_pid=$!
late="http://127.0.0.1:$late_port"
for _ in $(seq 50); do curl -fs -o /dev/null "$late/games.pgn" && break; sleep 0.1; done
curl -fs "$late/games.pgn" >"$work/late.pgn" || fail "GET /games.pgn of the delayed feed failed"
# The record ten minutes ago: 6... Bd6 (0:26:00) and the pause (0:27:30), not 7. e4 (0:31:40).
grep -q '\[PlyCount "12"\]' "$work/late.pgn" || { cat "$work/late.pgn"; fail "the feed delayed by 10 minutes is not the game after 6... Bd6"; }
grep -q '\[PlyCount "17"\]' "$work/g.pgn" || fail "the live feed is not the game after 9. Bxe4"

shoot() { # url file width,height
	local prof; prof=$(mktemp -d)
	# The page holds its event stream open, so the load never goes idle:
	# --timeout (not --virtual-time-budget) takes the shot once it has loaded.
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" --timeout=5000 --hide-scrollbars \
		--screenshot="$2" --window-size="$3" "$1" >"$work/chromium.log" 2>&1 ||
		{ cat "$work/chromium.log"; rm -rf "$prof"; fail "chromium could not take the screenshot $2"; }
	rm -rf "$prof"
	[ -s "$2" ] || fail "no screenshot $2"
}
# The page's script runs and its event stream opens (no console error).
# A loaded machine starts chromium slowly: the page gets 5 s, then 15 s, then 30 s.
for wait in 5000 15000 30000; do
	prof=$(mktemp -d)
	timeout 90 chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$prof" \
		--enable-logging=stderr --v=0 --timeout=$wait --dump-dom "$base/?lang=en" >"$work/dom.html" 2>"$work/dom.log" || true
	rm -rf "$prof"
	grep -q 'data-stream="open"' "$work/dom.html" && break
done
grep -q 'data-stream="open"' "$work/dom.html" || { grep -i console "$work/dom.log" || true; fail "the page's event stream did not open"; }
if grep -qi 'Uncaught' "$work/dom.log"; then grep -i 'Uncaught' "$work/dom.log"; fail "the page's script failed"; fi
shoot "$base/?lang=en" build/screenshots/broadcast-en.png 1280,800
shoot "$base/?lang=de" build/screenshots/broadcast-de.png 1280,800
shoot "$base/?lang=en" build/screenshots/broadcast-phone-en.png 390,844
shoot "$base/?lang=de" build/screenshots/broadcast-phone-de.png 390,844
shoot "$late/?lang=en" build/screenshots/broadcast-delayed.png 1280,800
echo "broadcast-check: ok (build/screenshots/broadcast-{en,de,phone-en,phone-de,delayed}.png)"
