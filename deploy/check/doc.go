// Package check validates closerelay's operator artifacts under deploy/: the
// Kubernetes manifests decode strictly into the official API types and keep
// their security and probe settings, the Prometheus rules and the Grafana
// dashboard name only metrics the service really exports, the container and
// systemd files keep their invariants, and a binary built the way the
// Containerfile builds it serves the probes and metrics the manifests expect.
//
// It is a separate module so that k8s.io/api and the Prometheus parser stay
// out of the service's go.mod. Run it with deploy/check.sh, or here with
// go test ./... (promtool and systemd-analyze are run by the script only).
package check
