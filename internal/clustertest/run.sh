#!/usr/bin/env bash
# make test-cluster: the three-instance cluster test (internal/clustertest)
# against Debian's HAProxy, installed here when missing (as root, or through
# sudo), as deploy/check.sh installs its tools. Figures go to
# bin/cluster-report.json (CLUSTER_REPORT) for BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

if ! command -v haproxy >/dev/null; then
	as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
	as_root apt-get update -qq
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy
fi
haproxy -v | sed -n 1p
mkdir -p bin
CLOSERELAY_CLUSTER_TEST=1 CLUSTER_REPORT="${CLUSTER_REPORT:-$PWD/bin/cluster-report.json}" \
	go test -count=1 -v -timeout 10m -run '^TestThreeInstancesBehindHAProxy$' ./internal/clustertest/
