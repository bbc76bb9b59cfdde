#!/usr/bin/env bash
# make bench-hostile: CONTRACT section 9's hostile traffic against the real
# binary on loopback (cmd/floodcheck), about 30 seconds. It starts
# bin/closerelay on free ports with the production limits, then floods it
# with made-up methods, 1 MiB headers and stalled bodies, and prints one
# table; it exits 1 when a bound does not hold. Needs only Go, on Linux.
#
# Environment: METHODS (default 20000), HEADER_CONNS (2500), STALL_CONNS
# (3000), OUT (default bin/bench-hostile), BIN (the relay binary; default
# bin/closerelay, built first; set it to compare another build).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
OUT=${OUT:-bin/bench-hostile}
mkdir -p "$OUT"
echo "== building"
if [ -z "${BIN:-}" ]; then
	make --no-print-directory build >/dev/null
	BIN=bin/closerelay
fi
$GO build -o "$OUT/floodcheck" ./cmd/floodcheck

# The floods hold thousands of connections on each side.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); $(date -u '+%Y-%m-%d %H:%M UTC'); open files $(ulimit -n)"

LOG="$OUT/relay.log"
LISTEN_ADDR=127.0.0.1:0 OPS_ADDR=127.0.0.1:0 LOG_FORMAT=json \
	HORIZON_URL_TESTNET=http://127.0.0.1:9 "$BIN" 2>"$LOG" &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT

# The addresses the relay bound, from its "closerelay serving" line.
API= OPS=
for _ in $(seq 100); do
	line=$(grep -m1 '"msg":"closerelay serving"' "$LOG" || true)
	if [ -n "$line" ]; then
		API=$(echo "$line" | sed -E 's/.*"api":"([^"]+)".*/\1/')
		OPS=$(echo "$line" | sed -E 's/.*"ops":"([^"]+)".*/\1/')
		break
	fi
	sleep 0.1
done
if [ -z "$API" ] || [ -z "$OPS" ]; then
	echo "the relay did not start:"; cat "$LOG"; exit 1
fi
echo "== relay pid $SERVER, api $API, ops $OPS, version $("$BIN" --version 2>/dev/null || echo unknown)"

"$OUT/floodcheck" -api "$API" -ops "$OPS" -pid "$SERVER" \
	-methods "${METHODS:-20000}" -header-conns "${HEADER_CONNS:-2500}" -stall-conns "${STALL_CONNS:-3000}" \
	| tee "$OUT/table.md"
