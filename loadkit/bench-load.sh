#!/usr/bin/env bash
# make bench-load: the load kit end to end on loopback, bounded in time
# (about 6 minutes), ending in one table of issues 16 and 27's targets, met or not,
# and a non-zero exit status when one is not. See docs/load-testing.md.
#
#   1. the raw crypto/ed25519.Verify rates (go test -bench
#      BenchmarkRawEd25519Verify -cpu 1,2): the one-core and two-core rates
#      every throughput is read against;
#   2. `closerelaylab load local` (PLANS published plans of 20 signers, SPARE
#      closes left to publish) on free ports, and against it: k6 replay and
#      fresh (and the same from wrk, one thread; its replays again from two
#      threads, as info), the mix of every route (`closerelaylab load
#      routes`), k6 attack without and with 32 attackers; the relay's CPU
#      time is read from /proc around each run;
#   3. new signers: ADMIT_BURSTS times, a fresh `closerelaylab load local`
#      of ADMIT_PLANS plans of 20 signers, the raw rates again while it is
#      idle (the ledger test binary, -test.cpu 1,2, 1 s each:
#      raw-admit-N.txt), then `closerelaylab load admit` against it (each
#      valid partial once: 19 new signers a plan, counted by the relay's
#      closerelay_signatures_total{result="admitted"}), sent by wrk (--wrk:
#      loadkit/wrk/admit.lua, 1 thread) when it is present and by Go's
#      clients otherwise, the relay's CPU time read around each burst; with
#      wrk, one more burst from two wrk threads (admit2t.json after
#      raw-admit2t.txt, info: it never decides). Each burst is read against
#      its own raw rate: it lasts under a second, minutes after step 1, and
#      this shared host's raw rate drifts over minutes. It is read again
#      right after the burst, and the higher two-core rate of the readings
#      taken on two free cores counts (a spell of other work on the host
#      only lowers one). With wrk, after each
#      burst the same one against `closerelaylab load floor` (floor-N.json,
#      info: HTTP and one verification, no relay), so that each relay burst
#      is also read as a share of the floor beside it;
#   4. a fresh `closerelaylab load local` of 100 plans and the stream load
#      (cmd/streamload: 5,000 streams, idle memory, then one signature per
#      plan a second);
#   5. loadkit/cmd/loadsummary: the figures, then the table; its exit status
#      is this script's.
#
# Needs Go. k6 is installed with `go install` when absent; wrk (the lighter
# generator that decides the throughput targets and sends the new-signer
# bursts when present) with apt-get
# when absent and this runs as root on Debian, unless WRK=none.
#
# wrk decides with one thread: on these two cores one thread sends new
# signers as fast as two and replays about a tenth slower (the relay is the
# bottleneck), and a second thread takes the cores from the relay's
# threads, its wait showing as tail latency (twice the p99). The two-thread
# runs are kept as info to show both.
#
# Environment: DURATION (each timed HTTP run, default 15s), STREAM_DURATION
# (default 20s), PLANS (default 450) and SPARE (default 50) for the sign
# relay, ADMIT_BURSTS (default 9) and ADMIT_PLANS (default 500: 9,500 new
# signers a burst), STREAM_PLANS (default 100: 5,000 streams), OUT (default
# bin/bench-load), K6 and WRK (binaries to use; WRK=none skips wrk).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
K6_VERSION=v1.8.1
DURATION=${DURATION:-15s}
STREAM_DURATION=${STREAM_DURATION:-20s}
PLANS=${PLANS:-450}
SPARE=${SPARE:-50}
STREAM_PLANS=${STREAM_PLANS:-100}
ADMIT_BURSTS=${ADMIT_BURSTS:-9}
ADMIT_PLANS=${ADMIT_PLANS:-500}
OUT=${OUT:-bin/bench-load}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
rm -f "$OUT"/k6-*.json "$OUT"/k6-*.txt "$OUT"/wrk-*.json "$OUT"/cpu-*.txt "$OUT"/routes.json "$OUT"/streamload.json "$OUT"/raw.txt "$OUT"/admit-*.json "$OUT"/admit2t.json \
	"$OUT"/raw-admit-*.txt "$OUT"/raw-admit2t.txt "$OUT"/floor-*.json "$OUT"/raw-floor-*.txt

GOBIN=$($GO env GOPATH)/bin
K6=${K6:-$(command -v k6 || echo "$GOBIN/k6")}
if [ ! -x "$K6" ]; then
	echo "== installing k6 $K6_VERSION with go install (once)"
	$GO install go.k6.io/k6@$K6_VERSION
	K6=$GOBIN/k6
fi
WRK=${WRK:-$(command -v wrk || true)}
if [ -z "$WRK" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "== installing wrk with apt-get (once; WRK=none skips it)"
	if apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq wrk >/dev/null 2>&1; }; then
		WRK=$(command -v wrk || true)
	fi
fi
[ "$WRK" = none ] && WRK=
echo "== building"
$GO build -o bin/closerelaylab ./cmd/closerelaylab
$GO build -o "$OUT/loadsummary" ./loadkit/cmd/loadsummary
$GO build -o "$OUT/streamload" ./cmd/streamload
# The raw benchmark's test binary, built once and run before each
# new-signer burst, so that nothing is compiled on the host then.
$GO test -c -o "$OUT/ledger.test" ./ledger

wrk_version() {
	if [ -z "$WRK" ]; then
		echo absent
		return
	fi
	"$WRK" -v 2>&1 | sed -n 1p | cut -d' ' -f1-2 || true
}

echo "== machine"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); revision: $(git describe --always --dirty 2>/dev/null || echo unknown)"
	echo "nproc: $(nproc); cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
	echo "go: $($GO env GOVERSION); k6: $("$K6" version | sed -n 1p); wrk: $(wrk_version)"
	echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "busiest processes before (%CPU over their lifetime, command):"
	ps -eo pcpu=,comm= --sort=-pcpu | sed -n 1,5p | sed 's/^/  /'
} | tee "$OUT/machine.txt"

echo "== raw crypto/ed25519.Verify (the physical limit every throughput is read against)"
$GO test -run '^$' -bench '^BenchmarkRawEd25519Verify$' -benchtime 2s -cpu 1,2 ./ledger | tee "$OUT/raw.txt"

SERVER=
RELAY=
stop_server() {
	if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
		kill -TERM "$SERVER"
		wait "$SERVER" || true
	fi
	SERVER=
}
trap stop_server EXIT

# start_server NAME [FLAGS...]: `closerelaylab load local` in the background
# on free ports, until its ready line, which names the relay's address.
start_server() {
	local name=$1
	shift
	start_cmd "$name" local --out "$OUT/payload-$name.json" "$@" || exit 1
}

# start_cmd NAME COMMAND [FLAGS...]: `closerelaylab load COMMAND` (local or
# floor) in the background, until its ready line names the address; it
# fails (status 1, its log shown) when the command exits or is not ready
# within 120 s.
start_cmd() {
	local name=$1
	shift
	local log="$OUT/server-$name.log"
	./bin/closerelaylab load "$@" >"$log" 2>&1 &
	SERVER=$!
	for _ in $(seq 1 240); do
		if grep -q '^ready ' "$log"; then
			head -1 "$log"
			RELAY=$(sed -n 's/^ready relay=\([^ ]*\) .*/\1/p' "$log")
			return 0
		fi
		if ! kill -0 "$SERVER" 2>/dev/null; then
			cat "$log"
			echo "closerelaylab load $1 exited before it was ready" >&2
			SERVER=
			return 1
		fi
		sleep 0.5
	done
	echo "closerelaylab load $1 not ready after 120 s" >&2
	stop_server
	return 1
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }

# k6_run NAME SCENARIO [-e VAR=VALUE...]: one k6 run; k6 prints its own
# summary (kept in k6-NAME.txt too) and --summary-export writes
# k6-NAME.json; the relay's CPU time goes to cpu-k6-NAME.txt. A crossed
# threshold makes k6 exit 99: loadsummary reads it from the export.
k6_run() {
	local name=$1 scenario=$2
	shift 2
	echo "-- k6 $name (SCENARIO=$scenario $*)"
	local before
	before=$(cpu_ticks)
	timeout 150 "$K6" run -q --no-usage-report -e PAYLOAD="$OUT/payload-sign.json" -e SCENARIO="$scenario" \
		-e DURATION="$DURATION" --summary-export "$OUT/k6-$name.json" "$@" loadkit/k6/sign.js 2>&1 | tee "$OUT/k6-$name.txt" || true
	echo "$(($(cpu_ticks) - before)) $(getconf CLK_TCK)" >"$OUT/cpu-k6-$name.txt"
}

# wrk_run KIND [THREADS [NAME]]: the same partials from wrk, a much lighter
# generator (C and LuaJIT), so that less of the two cores goes to making
# load; THREADS is wrk's -t (1: see the header), NAME the run's (KIND).
wrk_run() {
	local kind=$1 threads=${2:-1} name=${3:-$1}
	if [ -z "$WRK" ]; then
		echo "-- wrk absent (Debian: apt-get install wrk): wrk $name skipped; k6 decides the target"
		return 0
	fi
	echo "-- wrk $name (64 connections, $threads thread(s), $DURATION)"
	local before
	before=$(cpu_ticks)
	PAYLOAD="$OUT/payload-sign.json" KIND=$kind CONNECTIONS=64 SUMMARY_JSON="$OUT/wrk-$name.json" \
		timeout 150 "$WRK" -t"$threads" -c64 -d"$DURATION" -s loadkit/wrk/sign.lua "$RELAY" | grep "^wrk " || true
	echo "$(($(cpu_ticks) - before)) $(getconf CLK_TCK)" >"$OUT/cpu-wrk-$name.txt"
}

echo "== HTTP runs against closerelaylab load local"
start_server sign --plans "$PLANS" --spare "$SPARE" --signers 20
k6_run replay replay
wrk_run replay 1
# The same from two wrk threads (info): how much of the replay tail is the
# generator's second thread competing with the relay for the two cores.
wrk_run replay 2 replay-t2
k6_run fresh fresh
wrk_run fresh 1
echo "-- closerelaylab load routes (every route, 64 connections, $DURATION)"
timeout 150 ./bin/closerelaylab load routes --payload "$OUT/payload-sign.json" --duration "$DURATION" --json >"$OUT/routes.json" || true
k6_run attack-quiet attack -e ATTACKERS=0
k6_run attack attack -e ATTACKERS=32
stop_server

# admit_burst NAME SEED [FLAGS...]: one burst of new signers on a fresh
# `closerelaylab load local`, written to NAME.json, the relay's CPU time to
# cpu-NAME.txt, the raw rates read before and after it (the relay ready
# and idle: raw_reading) to raw-NAME.txt; FLAGS choose the generator. A raw run
# that fails leaves loadsummary to read the burst against raw.txt, which
# it says.
admit_burst() {
	local name=$1 seed=$2
	shift 2
	start_server "$name" --plans "$ADMIT_PLANS" --spare 0 --signers 20 --fresh 0 --strangers 0 --expensive 0
	rm -f "$OUT/raw-$name.txt"
	raw_reading "$name" before
	local before
	before=$(cpu_ticks)
	./bin/closerelaylab load admit --payload "$OUT/payload-$name.json" --connections 64 --seed "$seed" "$@" --json >"$OUT/$name.json" || true
	echo "$(($(cpu_ticks) - before)) $(getconf CLK_TCK)" >"$OUT/cpu-$name.txt"
	sed 's/^/  /' "$OUT/$name.json"
	echo
	raw_reading "$name" after
	stop_server
}

# floor_burst NAME SEED: with wrk, right after the relay's burst SEED, the
# same burst (the same payload, order and script) against `closerelaylab
# load floor`: the sign route through net/http and echo, one verification
# and a fixed answer of the relay's average size, nothing else. It is
# written to NAME.json, its own two-core raw rate to raw-NAME.txt, its CPU
# time to cpu-NAME.txt. loadsummary reads each relay burst as a share of
# the floor burst beside it (info): what of the machine, the generator and
# the HTTP stack the relay's own work takes.
floor_burst() {
	local name=$1 seed=$2
	[ -n "$WRK" ] || return 0
	# The floor decides nothing: one that does not start is left out.
	if ! start_cmd "$name" floor; then
		echo "  the floor did not start: $name left out"
		return 0
	fi
	rm -f "$OUT/raw-$name.txt"
	raw_reading "$name" before
	local before
	before=$(cpu_ticks)
	PAYLOAD="$OUT/payload-admit-$seed.json" THREADS=1 CONNECTIONS=64 SEED="$seed" SUMMARY_JSON="$OUT/$name.json" \
		timeout 150 "$WRK" -t1 -c64 -d60s --timeout 10s -s loadkit/wrk/admit.lua "$RELAY" | grep "^wrk " || true
	echo "$(($(cpu_ticks) - before)) $(getconf CLK_TCK)" >"$OUT/cpu-$name.txt"
	rm -f "$OUT/$name.json.done" "$OUT/$name.json.done.ready" # admit.lua's, which `load admit` removes for the relay's
	raw_reading "$name" after
	stop_server
}

# raw_reading NAME WHEN: the raw rates on one core and on two (the ledger's
# test binary, built once, -test.cpu 1,2, 1 s each), burst NAME's server
# idle, added to raw-NAME.txt. Each burst is read before and after it.
# loadsummary reads the burst against the higher two-core rate of the
# readings taken on two free cores (two-core ≥ 1.6 × one-core): a spell of
# other work on the host only lowers a reading, and a lowered one would make
# the burst's ratio look better than it was.
raw_reading() {
	"$OUT/ledger.test" -test.run '^$' -test.bench '^BenchmarkRawEd25519Verify$' -test.benchtime 1s -test.cpu 1,2 \
		>>"$OUT/raw-$1.txt" 2>&1 || true
	grep -h '^BenchmarkRawEd25519Verify' "$OUT/raw-$1.txt" | tail -n 2 | sed "s/^/  raw $2 /" || true
}

# wrk sends the bursts when it is present (each partial once, from one
# thread: see the header), Go's clients otherwise; loadsummary names which.
admit_gen=()
admit_by="closerelaylab load admit (Go's clients)"
if [ -n "$WRK" ]; then
	admit_gen=(--wrk "$WRK" --wrk-script loadkit/wrk/admit.lua --threads 1)
	admit_by="wrk (loadkit/wrk/admit.lua, 1 thread)"
fi
echo "== new signers: $ADMIT_BURSTS bursts, each on a fresh closerelaylab load local of $ADMIT_PLANS plans, sent by $admit_by"
for i in $(seq 1 "$ADMIT_BURSTS"); do
	admit_burst "admit-$i" "$i" "${admit_gen[@]}"
	floor_burst "floor-$i" "$i"
done
# One more from two wrk threads (info): what the generator's second thread
# costs the bursts' rate and tail. Its name is not admit-N, so loadsummary
# never counts it among the deciding bursts.
if [ -n "$WRK" ]; then
	echo "== new signers from two wrk threads (info): one burst on a fresh closerelaylab load local of $ADMIT_PLANS plans"
	admit_burst admit2t 1 --wrk "$WRK" --wrk-script loadkit/wrk/admit.lua --threads 2
fi

echo "== streams: cmd/streamload against a fresh closerelaylab load local"
start_server stream --plans "$STREAM_PLANS" --spare 0 --signers 20 --fresh 0 --strangers 0 --expensive 0
# -timeout 200s lets streamload stop itself and report before `timeout 240`
# would kill it. JSON to a file, progress and the human summary to the
# terminal and streamload.txt.
timeout 240 "$OUT/streamload" -payload "$OUT/payload-stream.json" -plans "$STREAM_PLANS" -duration "$STREAM_DURATION" -timeout 200s -json \
	2>&1 >"$OUT/streamload.json" | tee "$OUT/streamload.txt" || true
stop_server

echo
echo "== summary ($(cut -d' ' -f1-3 /proc/loadavg) load average after)"
cat "$OUT/machine.txt"
grep -h '^BenchmarkRawEd25519Verify' "$OUT/raw.txt"
status=0
"$OUT/loadsummary" "$OUT" | tee "$OUT/summary.txt" || status=$? # pipefail: loadsummary's status
echo
echo "files: $OUT"
exit "$status"
