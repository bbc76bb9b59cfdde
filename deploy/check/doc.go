// Package check validates closerelay's operator artifacts under deploy/: the
// Kubernetes manifests decode strictly into the official API types and keep
// their security and probe settings; both kustomizations (single mode in
// deploy/kubernetes, cluster mode's overlay in deploy/kubernetes-cluster)
// build with kustomize's own library, and the cluster one runs several
// replicas against NATS with a rollout, budget and network policy to match;
// the PrometheusRule and the dashboard ConfigMap carry exactly
// deploy/prometheus/alerts.yml and deploy/grafana/closerelay.json (go test
// -run TestKubernetesCopies -update regenerates them); the Prometheus rules
// and the Grafana dashboard name only metrics the service really exports; the
// container, systemd and HAProxy files keep their invariants; and a binary
// built the way the Containerfile builds it serves the probes and metrics the
// manifests expect, alone and behind the shipped HAProxy configuration.
//
// It is a separate module so that k8s.io/api, kustomize and the Prometheus
// parser stay out of the service's go.mod. Run it with deploy/check.sh, or
// here with go test ./... (promtool, haproxy -c and systemd-analyze are run by
// the script only; the HAProxy test skips without haproxy installed).
package check
