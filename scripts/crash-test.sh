#!/usr/bin/env bash
# make crash-test: kill a long scripted match 50 times (SIGKILL at random
# instants and at injected fault points inside a commit), fill its disk, make
# it read-only, back it up while it is played — and check after each blow that
# nothing acknowledged was lost. See docs/reliability.md.
#
#   scripts/crash-test.sh [-kills N] [-seed S]     (arguments go to internal/crashtest)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH CGO_ENABLED=1 GOFLAGS=-buildvcs=false
mkdir -p bin build
echo "go build -o bin/arbiter ."
go build -o bin/arbiter .
echo "go build -o build/crashtest ./internal/crashtest"
go build -o build/crashtest ./internal/crashtest
exec build/crashtest -bin bin/arbiter -work build/crash "$@"
