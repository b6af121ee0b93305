#!/usr/bin/env bash
# broadcast-check: build the real binary, play a game half-way into a fresh
# database (the last event a few seconds ago, so the clocks are live), serve
# it with `arbiter broadcast --listen 127.0.0.1:PORT`, check the routes with
# curl (PGN, 304 on If-None-Match, 405 on POST, no credentials), and take
# screenshots of the spectator page in English and German with headless
# Chromium (Debian's `chromium`) into build/screenshots/broadcast-{en,de}.png.
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
[ -x bin/arbiter ] && [ -z "$(find . -name '*.go' -newer bin/arbiter -print -quit)" ] || go build -o bin/arbiter .

work=$(mktemp -d)
srv_pid=""
cleanup() {
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null || true
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

shoot() { # lang file
	local prof; prof=$(mktemp -d)
	timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" --virtual-time-budget=3000 --hide-scrollbars \
		--screenshot="$2" --window-size=1280,800 "$base/?lang=$1" >"$work/chromium.log" 2>&1 ||
		{ cat "$work/chromium.log"; rm -rf "$prof"; fail "chromium could not take the $1 screenshot"; }
	rm -rf "$prof"
	[ -s "$2" ] || fail "no screenshot $2"
}
shoot en build/screenshots/broadcast-en.png
shoot de build/screenshots/broadcast-de.png
echo "broadcast-check: ok (build/screenshots/broadcast-en.png, broadcast-de.png)"
