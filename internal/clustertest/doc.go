// Package clustertest holds the three-instance test of cluster mode
// (CONTRACT section 12) on loopback: three closerelay processes built from
// cmd/closerelay, a three-node NATS cluster (internal/natstest) with the
// bucket on three replicas, and Debian's HAProxy in front in round robin, as
// deploy/haproxy runs them. A signing run across many plans goes on while a
// relay is killed with SIGKILL and started again, then a NATS server is
// shut down, then every relay is restarted in turn; at the end every sign
// that was answered 200 must be in the plans' final envelopes, and every
// watcher must have reconnected and reached the final version.
//
// It runs with `make test-cluster` (which installs haproxy when missing and
// sets CLOSERELAY_CLUSTER_TEST=1) and in .ci/run; a plain `go test ./...`
// skips it. With CLUSTER_REPORT=file it writes its figures there as JSON
// for BENCHMARKS.md.
package clustertest
