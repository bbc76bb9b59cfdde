#!/usr/bin/env bash
# make deploy-check: validate every artifact under deploy/ with a real tool.
#
#   promtool check rules / test rules   deploy/prometheus (Debian's prometheus package)
#   haproxy -c                          deploy/haproxy/haproxy.cfg and
#                                       deploy/app-origin/haproxy.cfg (Debian's haproxy)
#   systemd-analyze verify              deploy/systemd/closerelay.service
#   go test ./... in deploy/check       manifests and both kustomizations (single
#                                       mode, deploy/kubernetes-cluster) decoded
#                                       strictly into k8s.io/api types, the
#                                       PrometheusRule and dashboard ConfigMap equal
#                                       to their plain files, dashboard and alert
#                                       queries against the exported metrics,
#                                       Containerfile, unit and HAProxy invariants,
#                                       the built binary's probes and /metrics,
#                                       SIGTERM drain, HAProxy in front of three
#                                       relays, and the app-origin examples
#                                       routing only closerelay's paths
#
# Runs on a fresh Debian machine with only Go installed: what is missing is
# installed with apt-get (as root, or through sudo otherwise). Safe to rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=
apt_install() {
	if [ -z "$apt_updated" ]; then
		as_root apt-get update -qq
		apt_updated=1
	fi
	# Debian's prometheus package (for promtool) also brings a Prometheus
	# server, which its postinst starts on :9090 where systemd is PID 1; on a
	# container CI machine nothing starts (checked: no prometheus process).
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}

command -v promtool >/dev/null || apt_install prometheus
command -v systemd-analyze >/dev/null || apt_install systemd
# Where the package's postinst may start HAProxy (systemd as PID 1, no
# policy-rc.d), it starts Debian's default configuration, which has no
# frontend and so listens on no port.
command -v haproxy >/dev/null || apt_install haproxy

step() { printf '\n== %s\n' "$*"; }

step "promtool $(promtool --version 2>&1 | sed -n 1p)"
promtool check rules deploy/prometheus/alerts.yml
promtool test rules deploy/prometheus/alerts_test.yml

step "haproxy $(haproxy -v | sed -n 1p)"
# haproxy_check FILE NAMES: haproxy -c on FILE, whose servers' names (the
# extended regular expression NAMES) a CI machine cannot resolve: init-addr
# lets HAProxy start without them, and -c reports each as a warning. Any
# other warning fails the check.
haproxy_check() {
	local cfg=$1 names=$2 out
	out=$(haproxy -c -f "$cfg" 2>&1) || {
		echo "$out" >&2
		exit 1
	}
	if grep -F '[WARNING]' <<<"$out" | grep -v -E "could not resolve address '($names)', disabling server\.\$" >&2; then
		echo "haproxy -c: warnings about $cfg (above)" >&2
		exit 1
	fi
	echo "$cfg: ok"
}
# The cluster's: servers closerelay-0..2.
haproxy_check deploy/haproxy/haproxy.cfg 'closerelay-[0-9]+'
# closerelay on an app's origin: servers closerelay and app.
haproxy_check deploy/app-origin/haproxy.cfg 'closerelay|app'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Readable by the unprivileged user TestBinaryServesProbesAndMetrics runs the
# binary as when this script runs as root.
chmod 0755 "$tmp"

step "build bin the way deploy/Containerfile does"
CGO_ENABLED=0 GOOS=linux go build -trimpath -buildvcs=false -ldflags "-s -w" \
	-o "$tmp/closerelay" ./cmd/closerelay

step "systemd-analyze $(systemd-analyze --version | sed -n 1p)"
# verify fails when ExecStart= names a program that does not exist, and a CI
# machine has no /usr/local/bin/closerelay (installing there would touch the
# host). So verify a copy of the unit, under its own name, whose ExecStart
# points at the binary just built; every other line is checked as shipped.
unit=deploy/systemd/closerelay.service
grep -q '^ExecStart=/usr/local/bin/closerelay$' "$unit" ||
	{ echo "$unit: ExecStart is no longer /usr/local/bin/closerelay; update deploy/check.sh" >&2; exit 1; }
mkdir "$tmp/unit"
sed "s|^ExecStart=/usr/local/bin/closerelay\$|ExecStart=$tmp/closerelay|" "$unit" >"$tmp/unit/closerelay.service"
# verify exits 0 on some warnings (an unknown key, a bad value it ignores):
# any line it prints about the unit fails the check too.
out=$(systemd-analyze verify --man=no "$tmp/unit/closerelay.service" 2>&1) || {
	echo "$out" >&2
	exit 1
}
if grep -F "closerelay.service" <<<"$out" >&2; then
	echo "systemd-analyze verify: warnings about $unit (above)" >&2
	exit 1
fi
echo "$unit: ok"

step "go test ./... in deploy/check"
# The binary test runs the same binary rather than building its own.
(cd deploy/check && CLOSERELAY_BIN="$tmp/closerelay" go test -count=1 ./...)

step "deploy-check passed"
