#!/usr/bin/env bash
# make bench-load: the load kit end to end on loopback, bounded in time
# (about 3 minutes). Needs only Go: k6 is installed with `go install` when
# it is absent. See README.md, "Load testing".
#
#   1. the raw ed25519 rate (go test -bench BenchmarkRawEd25519Verify -cpu 1,2);
#   2. `closerelayctl load local` (500 plans of 20 signers) and the k6 sign
#      scenarios against it: replay, fresh, admit, mix, attack (quiet, then
#      32 attackers), plus replay and fresh from wrk when it is installed;
#      the relay's CPU time is read from /proc around each run;
#   3. a fresh `closerelayctl load local` and the stream load (cmd/streamload);
#   4. the summary: every figure as a ratio to the raw rates of step 1.
#
# Environment: DURATION (each timed k6 scenario, default 15s), STREAM_DURATION
# (default 20s), PLANS (default 500), OUT (default bin/bench-load), K6 (a k6
# binary to use), LISTEN/OPS (default 127.0.0.1:18080 and 127.0.0.1:19090).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
K6_VERSION=v1.8.1
DURATION=${DURATION:-15s}
STREAM_DURATION=${STREAM_DURATION:-20s}
PLANS=${PLANS:-500}
OUT=${OUT:-bin/bench-load}
LISTEN=${LISTEN:-127.0.0.1:18080}
OPS=${OPS:-127.0.0.1:19090}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd) # k6 resolves open() against the script's directory
rm -f "$OUT"/k6-*.json "$OUT"/cpu-*.txt

GOBIN=$($GO env GOPATH)/bin
K6=${K6:-$(command -v k6 || echo "$GOBIN/k6")}
if [ ! -x "$K6" ]; then
	echo "== installing k6 $K6_VERSION with go install (once)"
	$GO install go.k6.io/k6@$K6_VERSION
	K6=$GOBIN/k6
fi
echo "== building"
$GO build -o bin/closerelayctl ./cmd/closerelayctl
$GO build -o "$OUT/loadsummary" ./loadkit/cmd/loadsummary

echo "== machine"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "nproc: $(nproc); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "go: $($GO env GOVERSION); k6: $("$K6" version | head -1)"
	echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "busiest processes before (%CPU over their lifetime, command):"
	ps -eo pcpu=,comm= --sort=-pcpu | head -5 | sed 's/^/  /'
} | tee "$OUT/machine.txt"

echo "== raw ed25519 verification (the physical limit every figure is read against)"
$GO test -run '^$' -bench '^BenchmarkRawEd25519Verify$' -benchtime 2s -cpu 1,2 ./ledger | tee "$OUT/raw.txt"

SERVER=
stop_server() {
	if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
		kill -TERM "$SERVER"
		wait "$SERVER" || true
	fi
	SERVER=
}
trap stop_server EXIT

# start_server NAME: `closerelayctl load local` in the background, until ready.
start_server() {
	local log="$OUT/server-$1.log"
	./bin/closerelayctl load local --plans "$PLANS" --listen "$LISTEN" --ops "$OPS" --out "$OUT/payload-$1.json" >"$log" 2>&1 &
	SERVER=$!
	for _ in $(seq 1 240); do
		if grep -q '^ready ' "$log"; then
			cat "$log"
			return 0
		fi
		if ! kill -0 "$SERVER" 2>/dev/null; then
			cat "$log"
			echo "closerelayctl load local exited before it was ready" >&2
			exit 1
		fi
		sleep 0.5
	done
	echo "closerelayctl load local not ready after 120 s" >&2
	exit 1
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }

# k6_run NAME SCENARIO [-e VAR=VALUE...]: one k6 run, bounded by its
# scenario; its figures go to k6-NAME.json and the relay's CPU time to
# cpu-NAME.txt. A crossed threshold is a finding, not a failure of the kit.
k6_run() {
	local name=$1 scenario=$2
	shift 2
	echo "-- k6 $name (SCENARIO=$scenario $*)"
	local before
	before=$(cpu_ticks)
	timeout 150 "$K6" run -q --no-usage-report -e PAYLOAD="$OUT/payload-sign.json" -e SCENARIO="$scenario" \
		-e DURATION="$DURATION" -e SUMMARY_JSON="$OUT/k6-$name.json" "$@" loadkit/k6/sign.js 2>&1 |
		grep -v 'level=error msg="thresholds on metrics' || true
	echo "$(($(cpu_ticks) - before)) $(getconf CLK_TCK)" >"$OUT/cpu-$name.txt"
}

echo "== sign path: k6 against closerelayctl load local"
start_server sign
k6_run replay replay
# The same replays and fresh signatures from wrk when it is installed: a
# lighter generator (the issue's reference figures were taken with it), so
# less of the two cores goes to generating load. Optional.
wrk_run() {
	local kind=$1
	if ! command -v wrk >/dev/null; then
		echo "-- wrk not installed (Debian: apt-get install wrk): $kind-wrk skipped"
		return 0
	fi
	echo "-- wrk $kind-wrk (64 connections, $DURATION)"
	local before
	before=$(cpu_ticks)
	PAYLOAD="$OUT/payload-sign.json" KIND=$kind CONNECTIONS=64 SUMMARY_JSON="$OUT/k6-$kind-wrk.json" \
		timeout 150 wrk -t2 -c64 -d"$DURATION" -s loadkit/wrk/sign.lua "http://$LISTEN" | grep -- "-wrk" || true
	echo "$(($(cpu_ticks) - before)) $(getconf CLK_TCK)" >"$OUT/cpu-$kind-wrk.txt"
}
wrk_run replay
k6_run fresh fresh
wrk_run fresh
k6_run admit admit
k6_run mix mix
k6_run attack-quiet attack -e ATTACKERS=0
k6_run attack attack -e ATTACKERS=32
stop_server

echo "== streams: cmd/streamload against a fresh closerelayctl load local"
start_server stream
# -timeout 200s lets streamload stop itself and report before `timeout 240`
# would kill `go run` and perhaps leave its child behind. JSON to a file,
# progress and the human summary to the terminal and streamload.txt.
timeout 240 $GO run ./cmd/streamload -payload "$OUT/payload-stream.json" -duration "$STREAM_DURATION" -timeout 200s -json 2>&1 >"$OUT/streamload.json" | tee "$OUT/streamload.txt" || true
stop_server

echo
echo "== summary ($(cut -d' ' -f1-3 /proc/loadavg) load average after)"
cat "$OUT/machine.txt"
grep -h '^BenchmarkRawEd25519Verify' "$OUT/raw.txt"
"$OUT/loadsummary" -raw "$OUT/raw.txt" -dir "$OUT" replay replay-wrk fresh fresh-wrk admit mix attack-quiet attack | tee "$OUT/summary.txt"
echo
echo "stream load ($OUT/streamload.txt):"
sed -n '/^closerelay stream load/,$p' "$OUT/streamload.txt"
