#!/usr/bin/env bash
# The computer's equipment against Debian's stockfish, a whole game: from a
# FEN at move 38 with --tc 40/120:20/60:60, --play and --ponder, the human's
# moves chosen by the test, to the game's end; every go line against
# 'status --at', and 'arbiter verify' over the transcript (docs/engine.md).
# Minutes; make test plays the same game with Deep Blue on 20+1 (seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH GOFLAGS=-buildvcs=false CGO_ENABLED=1
[ -x /usr/games/stockfish ] || { echo "engine-test: /usr/games/stockfish is not installed (scripts/deps.sh --test)"; exit 1; }
ARBITER_ENGINE_FULL=1 go test -count=1 -timeout 30m -run '^TestEngineFullGameAgainstStockfish$' -v ./cli/
