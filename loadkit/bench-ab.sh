#!/usr/bin/env bash
# make bench-ab OLD=REV [NEW=REV]: the load kit's replay and admit figures
# of two revisions in one session, alternating A B A B …, each read against
# the raw crypto/ed25519.Verify rates taken in the same round (issue 20's
# done-means: within 5 % of the figures before the change). About
# ROUNDS × 2 × (10 s + DURATION) once built.
#
# Each revision is checked out with `git worktree add --detach` into a
# temporary directory and its `load local` built there (closerelaylab, or
# closerelayctl before the command moved); the worktrees are removed at the
# end. The load generators are this tree's, the same for both: one round of
# one build is
#   1. a fresh `load local --plans PLANS --fresh 0 --strangers 0
#      --expensive 0` of that build;
#   2. `closerelaylab load admit`: every valid partial once, each a new
#      signer (refused as a figure unless the relay counted every one),
#      sent by wrk's one thread (loadkit/wrk/admit.lua) when wrk is there,
#      as `make bench-load` sends its bursts, else by Go's clients;
#   3. wrk's one thread (loadkit/wrk/sign.lua, KIND=replay, 64 connections,
#      DURATION), as `make bench-load` decides, replaying plan 0's
#      partials, now admitted; k6's replay scenario when wrk is absent (a
#      heavier generator: say so when comparing).
# and each round starts with the raw rates (BenchmarkRawEd25519Verify at
# -cpu 1,2, -benchtime 1s). It prints every run and, per build, the median
# ratio of admit to the two-core raw rate and of replays to the one-core raw
# rate, then NEW over OLD.
#
# Environment: OLD (required), NEW (default HEAD), ROUNDS (default 3),
# DURATION (wrk's, default 10s), PLANS (default 500), OUT (default
# bin/bench-ab).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
OLD=${OLD:?set OLD to the revision to compare with (make bench-ab OLD=REV)}
NEW=${NEW:-HEAD}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
PLANS=${PLANS:-500}
OUT=${OUT:-bin/bench-ab}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/*.json "$OUT"/*.txt "$OUT"/*.log

WRK=${WRK:-$(command -v wrk || true)}
K6=${K6:-$(command -v k6 || echo "$($GO env GOPATH)/bin/k6")}
if [ -z "$WRK" ] && [ ! -x "$K6" ]; then
	echo "bench-ab: neither wrk (apt-get install wrk) nor k6 (make bench-load installs it) is installed" >&2
	exit 2
fi

TMP=$(mktemp -d)
WORKTREES=()
SERVER=
cleanup() {
	if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
		kill -TERM "$SERVER"
		wait "$SERVER" || true
	fi
	for w in "${WORKTREES[@]}"; do
		git worktree remove --force "$w" >/dev/null 2>&1 || true
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

echo "== building: the generators from this tree; load local of $OLD and $NEW in temporary worktrees"
$GO build -o "$TMP/gen" ./cmd/closerelaylab
# build NAME REV: the binary that has `load local` at REV, as $TMP/NAME.
build() {
	local name=$1 rev=$2 wt="$TMP/wt-$1"
	git worktree add --detach "$wt" "$rev" >/dev/null 2>&1
	WORKTREES+=("$wt")
	local pkg=./cmd/closerelaylab
	[ -d "$wt/cmd/closerelaylab" ] || pkg=./cmd/closerelayctl
	(cd "$wt" && $GO build -o "$TMP/$name" "$pkg")
	echo "$name: $(git rev-parse --short "$rev") ($pkg)"
}
build old "$OLD"
build new "$NEW"

echo "== machine"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); nproc: $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$WRK" ]; then echo "replay generator: wrk"; else echo "replay generator: k6 (wrk absent: the figures are the generator's as much as the relay's)"; fi

# run NAME ROUND: one round of one build; figures to $OUT/NAME-ROUND.*
run() {
	local name=$1 round=$2 log="$OUT/server-$1-$2.log" payload="$OUT/payload-$1-$2.json"
	"$TMP/$name" load local --plans "$PLANS" --spare 0 --signers 20 --fresh 0 --strangers 0 --expensive 0 --out "$payload" >"$log" 2>&1 &
	SERVER=$!
	for _ in $(seq 1 240); do
		grep -q '^ready ' "$log" && break
		kill -0 "$SERVER" 2>/dev/null || { cat "$log"; echo "load local of $name exited before ready" >&2; exit 1; }
		sleep 0.5
	done
	grep -q '^ready ' "$log" || { echo "load local of $name not ready after 120 s" >&2; exit 1; }
	local relay
	relay=$(sed -n 's/^ready relay=\([^ ]*\) .*/\1/p' "$log")
	local gen=()
	[ -n "$WRK" ] && gen=(--wrk "$WRK" --wrk-script loadkit/wrk/admit.lua --threads 1)
	"$TMP/gen" load admit --payload "$payload" --connections 64 --seed "$round" "${gen[@]}" --json >"$OUT/admit-$name-$round.json" || true
	if [ -n "$WRK" ]; then
		PAYLOAD="$payload" KIND=replay CONNECTIONS=64 SUMMARY_JSON="$OUT/replay-$name-$round.json" \
			timeout 120 "$WRK" -t1 -c64 -d"$DURATION" -s loadkit/wrk/sign.lua "$relay" >/dev/null || true
	else
		timeout 150 "$K6" run -q --no-usage-report -e PAYLOAD="$payload" -e SCENARIO=replay -e DURATION="$DURATION" \
			--summary-export "$OUT/replay-k6-$name-$round.json" loadkit/k6/sign.js >/dev/null 2>&1 || true
	fi
	kill -TERM "$SERVER"
	wait "$SERVER" || true
	SERVER=
}

for round in $(seq 1 "$ROUNDS"); do
	echo "== round $round of $ROUNDS"
	$GO test -run '^$' -bench '^BenchmarkRawEd25519Verify$' -benchtime 1s -cpu 1,2 ./ledger >"$OUT/raw-$round.txt"
	# Alternate which build goes first, so that neither always follows the
	# raw rates.
	if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
	for name in $order; do
		run "$name" "$round"
	done
done

echo
$GO run ./loadkit/cmd/abreport "$OUT" "$ROUNDS"
