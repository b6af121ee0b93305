#!/usr/bin/env bash
# The stations' chaos run: three record holders as child processes and an
# operator's laptop play a scripted game while holders (the authority
# included) are SIGKILLed (ARBITER_STATION_KILLS, default 20) and frozen with
# SIGSTOP (ARBITER_STATION_STOPS, default 5); then the failover run of
# issue 24: four stations as processes, the authority SIGKILLed
# ARBITER_STATION_FAILOVERS times (default 20), each time the next move at a
# surviving holder committed within 20 s and the killed station rejoining
# within 60 s. See docs/stations.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/go/bin:$PATH GOFLAGS=-buildvcs=false CGO_ENABLED=1
ARBITER_STATION_CLUSTER=1 go test -count=1 -timeout 10m -run '^TestStationLoneRecordHolder' -v ./cli/
ARBITER_STATION_CLUSTER=1 go test -count=1 -timeout 10m -run '^TestThreeHolders' -v ./station/
ARBITER_STATION_CHAOS=1 go test -count=1 -timeout 30m -run '^TestChaos' -v ./station/
ARBITER_STATION_FAILOVERS=${ARBITER_STATION_FAILOVERS:-20} go test -count=1 -timeout 30m -run '^(TestAFailoverAlwaysFinishes|TestAPressGivenWhileTheAuthorityIsFrozenIsChargedToTheInstantItWasGiven)$' -v ./cli/
