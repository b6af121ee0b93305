#!/usr/bin/env bash
# gui-check: build the real binary, run the console under Xvfb on a fresh
# database, drive it with xdotool like a user (accept the New match dialog,
# start the game, three moves by clicking squares, a fourth typed into the
# move field, pause, resume), save screenshots to build/screenshots/, quit,
# and check that the database holds those events.
#
# Needs: Xvfb, xdotool, ImageMagick (import), sqlite3 (optional).
# The console writes the board's pixel geometry to $ARBITER_GUI_GEOMETRY
# ("x y square flipped"), from which the squares' centres are computed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH

for tool in Xvfb xdotool import; do
	command -v "$tool" >/dev/null || { echo "gui-check: $tool is not installed (make deps-test)"; exit 1; }
done

mkdir -p bin build/screenshots
echo "gui-check: go build -o bin/arbiter ."
go build -o bin/arbiter .

work=$(mktemp -d)
db="$work/match.db"
geom="$work/geometry"
shots=build/screenshots
rm -f "$shots"/*.png

# a free display
disp=99
while [ -e "/tmp/.X11-unix/X$disp" ] || [ -e "/tmp/.X$disp-lock" ]; do disp=$((disp + 1)); done
export DISPLAY=":$disp"

xvfb_pid=""
app_pid=""
cleanup() {
	[ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
	[ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done

LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 FYNE_SCALE=1 ARBITER_GUI_GEOMETRY="$geom" HOME="$work" \
	bin/arbiter --db "$db" >"$work/app.log" 2>&1 &
app_pid=$!

fail() {
	echo "gui-check: FAIL: $*"
	echo "--- app log:"; cat "$work/app.log" || true
	exit 1
}

wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Arbiter' | head -1) || fail "the window did not appear within 30 s"
[ -n "$wid" ] || fail "the window did not appear"
echo "gui-check: window $wid"
xdotool windowmove "$wid" 0 0 windowsize "$wid" 1280 800 || true

# wait until the UI has settled: the board geometry is written after layout
for _ in $(seq 100); do [ -s "$geom" ] && break; sleep 0.1; done
[ -s "$geom" ] || fail "the console never laid out its board"
sleep 1

shot() { sleep 1; import -window "$wid" "$shots/$1.png"; echo "gui-check: screenshot $shots/$1.png"; }
key() { xdotool key --window "$wid" --clearmodifiers "$@"; sleep 0.4; }

shot 01-new-match-dialog
key Return # accept the New match dialog with the 1996 defaults
sleep 0.5
key Return # close the "Match created" note
key ctrl+g # start the next game
sleep 0.5
shot 02-game-started

# click a square: centre computed from the board geometry (in window pixels)
click() {
	read -r bx by sq flipped <"$geom"
	local file rank col row
	file=$(($(printf '%d' "'${1:0:1}") - 97))
	rank=$((${1:1:1} - 1))
	if [ "$flipped" = "true" ]; then col=$((7 - file)); row=$rank; else col=$file; row=$((7 - rank)); fi
	local x=$((bx + col * sq + sq / 2)) y=$((by + row * sq + sq / 2))
	xdotool mousemove --window "$wid" "$x" "$y" click 1
	sleep 0.3
}

# White is whoever the lots chose: the moves are the same either way
click e2; click e4
click e7; click e5
click g1; click f3
shot 03-three-moves
xdotool type --window "$wid" --delay 50 "Nc6"
key Return
sleep 0.5
shot 04-four-moves
key ctrl+p # the arbiter pauses
shot 05-paused
key ctrl+r # and resumes
sleep 1.2 # let the running clock tick once
shot 06-resumed

key ctrl+q # quit: a clock runs, so the console asks; Enter confirms
key Return
for _ in $(seq 50); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$app_pid" 2>/dev/null; then
	fail "the console did not quit after Ctrl+Q and Enter"
fi
app_pid=""

status=$(bin/arbiter --db "$db" status --json) || fail "status failed"
ply=$(printf '%s' "$status" | grep -o '"ply": *[0-9]*' | grep -o '[0-9]*$')
[ "$ply" = "4" ] || fail "the database holds ply ${ply:-none}, want 4"
if command -v sqlite3 >/dev/null; then
	kinds=$(sqlite3 "$db" "select kind from events order by seq" | tr '\n' ' ')
	want="match.new game.start move move move move pause resume "
	[ "$kinds" = "$want" ] || fail "events are '$kinds', want '$want'"
	echo "gui-check: events: $kinds"
fi
# the light theme (FYNE_THEME=light), on the same record: the game resumes
# where the clocks stand; Reports → Verify the record shows the head
LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 FYNE_SCALE=1 FYNE_THEME=light HOME="$work" \
	bin/arbiter --db "$db" >"$work/app2.log" 2>&1 &
app_pid=$!
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^Arbiter' | head -1) || fail "the window did not appear again"
xdotool windowmove "$wid" 0 0 windowsize "$wid" 1280 800 || true
sleep 1
shot 07-light
key ctrl+shift+v
shot 08-verify
key Return
key ctrl+q
key Return
for _ in $(seq 50); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$app_pid" 2>/dev/null && fail "the console did not quit the second time"
app_pid=""
# The live broadcast's spectator page in headless Chromium (issue 18).
bash scripts/broadcast-check.sh || fail "the broadcast check failed"
echo "gui-check: ok (screenshots in $shots)"
