package check

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
)

var update = flag.Bool("update", false, "rewrite the Kubernetes copies of the alert rules and the dashboard from deploy/prometheus and deploy/grafana")

// kubeCopy is a Kubernetes manifest that carries a plain file of deploy/
// verbatim, indented, after a marker line. Operators edit the plain file
// (promtool and Grafana read it); the manifest is regenerated from it.
type kubeCopy struct {
	manifest, source string
	marker           string // the manifest's line after which the source follows
	indent           string
	// carried is the part of the source the manifest holds.
	carried func(src []byte) ([]byte, error)
	// same reports how manifest and source differ in content, if they do.
	same func(man, src []byte) error
}

var kubeCopies = []kubeCopy{
	{
		manifest: deployPath("kubernetes", "prometheusrule.yaml"),
		source:   deployPath("prometheus", "alerts.yml"),
		marker:   "spec:",
		indent:   "  ",
		// From "groups:" on: the header comment talks about the plain file.
		carried: func(src []byte) ([]byte, error) {
			i := bytes.Index(src, []byte("\ngroups:\n"))
			if i < 0 {
				return nil, fmt.Errorf("no top-level groups: line")
			}
			return src[i+1:], nil
		},
		same: sameRules,
	},
	{
		manifest: deployPath("kubernetes", "grafana-dashboard.yaml"),
		source:   deployPath("grafana", "closerelay.json"),
		marker:   "  closerelay.json: |",
		indent:   "    ",
		carried:  func(src []byte) ([]byte, error) { return src, nil },
		same:     sameDashboard,
	},
}

// generate returns the manifest man with everything after the marker line
// replaced by the carried part of src, indented (blank lines stay empty).
func (c kubeCopy) generate(man, src []byte) ([]byte, error) {
	part, err := c.carried(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.source, err)
	}
	var out bytes.Buffer
	found := false
	for _, line := range strings.SplitAfter(string(man), "\n") {
		out.WriteString(line)
		if strings.TrimRight(line, "\n") == c.marker {
			found = true
			break
		}
	}
	if !found {
		return nil, fmt.Errorf("%s: no line %q", c.manifest, c.marker)
	}
	for _, line := range strings.SplitAfter(strings.TrimRight(string(part), "\n")+"\n", "\n") {
		if strings.TrimSpace(line) != "" {
			out.WriteString(c.indent)
		}
		out.WriteString(line)
	}
	return out.Bytes(), nil
}

// sameRules decodes the PrometheusRule man and the rule file src strictly
// into the Prometheus Operator's types (a field the CRD does not know would
// be dropped by the API server without a word) and compares the groups.
func sameRules(man, src []byte) error {
	var rule monitoringv1.PrometheusRule
	if err := unmarshalStrict(man, &rule); err != nil {
		return fmt.Errorf("PrometheusRule: strict decode: %w", err)
	}
	if rule.APIVersion != "monitoring.coreos.com/v1" || rule.Kind != "PrometheusRule" {
		return fmt.Errorf("got %s/%s, want monitoring.coreos.com/v1/PrometheusRule", rule.APIVersion, rule.Kind)
	}
	var plain monitoringv1.PrometheusRuleSpec
	if err := unmarshalStrict(src, &plain); err != nil {
		return fmt.Errorf("alerts.yml does not decode strictly as a PrometheusRule spec: %w", err)
	}
	if len(plain.Groups) == 0 {
		return fmt.Errorf("alerts.yml: no groups")
	}
	if !reflect.DeepEqual(rule.Spec, plain) {
		return fmt.Errorf("the PrometheusRule's groups differ from alerts.yml:\n%s", firstDiff(rule.Spec, plain))
	}
	return nil
}

// sameDashboard compares the dashboard ConfigMap man (decoded strictly)
// with the dashboard JSON src, as JSON values.
func sameDashboard(man, src []byte) error {
	var cm corev1.ConfigMap
	if err := unmarshalStrict(man, &cm); err != nil {
		return fmt.Errorf("ConfigMap: strict decode: %w", err)
	}
	if cm.APIVersion != "v1" || cm.Kind != "ConfigMap" {
		return fmt.Errorf("got %s/%s, want v1/ConfigMap", cm.APIVersion, cm.Kind)
	}
	if len(cm.Data) != 1 || len(cm.BinaryData) != 0 {
		return fmt.Errorf("want the one data key closerelay.json, have %d data and %d binaryData keys", len(cm.Data), len(cm.BinaryData))
	}
	var inMap, inFile any
	if err := json.Unmarshal([]byte(cm.Data["closerelay.json"]), &inMap); err != nil {
		return fmt.Errorf("ConfigMap closerelay.json: %w", err)
	}
	if err := json.Unmarshal(src, &inFile); err != nil {
		return fmt.Errorf("closerelay.json: %w", err)
	}
	if !reflect.DeepEqual(inMap, inFile) {
		return fmt.Errorf("the ConfigMap's dashboard differs from closerelay.json:\n%s", firstDiff(inMap, inFile))
	}
	return nil
}

// TestKubernetesCopies: the PrometheusRule holds exactly the groups of
// deploy/prometheus/alerts.yml and the dashboard ConfigMap exactly the JSON
// of deploy/grafana/closerelay.json. With -update, both manifests are first
// regenerated from those files (what precedes the marker line is kept).
func TestKubernetesCopies(t *testing.T) {
	for _, c := range kubeCopies {
		src := readFile(t, c.source)
		man := readFile(t, c.manifest)
		if *update {
			b, err := c.generate(man, src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(c.manifest, b, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s from %s", rel(c.manifest), rel(c.source))
			man = b
		}
		if err := c.same(man, src); err != nil {
			t.Errorf("%s: %v\n  edit %s, then: cd deploy/check && go test -run TestKubernetesCopies -update", rel(c.manifest), err, rel(c.source))
		}
	}

	m := loadManifests(t)
	// The same Prometheus must pick up the rules and the scrape config.
	if m.rule.Labels["release"] != m.monitor.Labels["release"] {
		t.Errorf("PrometheusRule release label %q differs from the ServiceMonitor's %q", m.rule.Labels["release"], m.monitor.Labels["release"])
	}
	if m.dashboard.Labels["grafana_dashboard"] != "1" {
		t.Error(`dashboard ConfigMap: the Grafana sidecar loads ConfigMaps labelled grafana_dashboard: "1"`)
	}
}

// TestKubernetesCopiesDetectDrift guards the guard: a regenerated copy
// equals its source, and a change to the source alone is noticed.
func TestKubernetesCopiesDetectDrift(t *testing.T) {
	drift := map[string][2]string{
		// One rule's for:, and one panel's title.
		"alerts.yml":      {"        for: 2m\n", "        for: 3m\n"},
		"closerelay.json": {`"title": "Plan churn"`, `"title": "Plan churn!"`},
	}
	for _, c := range kubeCopies {
		src := readFile(t, c.source)
		gen, err := c.generate(readFile(t, c.manifest), src)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.same(gen, src); err != nil {
			t.Errorf("%s regenerated from %s does not equal it: %v", c.manifest, c.source, err)
		}
		d := drift[filepath.Base(c.source)]
		changed := bytes.Replace(src, []byte(d[0]), []byte(d[1]), 1)
		if bytes.Equal(changed, src) {
			t.Fatalf("%s: %q not found; update this test", c.source, d[0])
		}
		if err := c.same(gen, changed); err == nil {
			t.Errorf("%s: a change to %s went unnoticed", c.manifest, c.source)
		}
	}
}

// firstDiff shows the first differing line of the two values as indented
// JSON, enough to find the drift.
func firstDiff(a, b any) string {
	aj, _ := json.MarshalIndent(a, "", " ")
	bj, _ := json.MarshalIndent(b, "", " ")
	al, bl := strings.Split(string(aj), "\n"), strings.Split(string(bj), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("  line %d: manifest %s\n  line %d: plain    %s", i+1, strings.TrimSpace(x), i+1, strings.TrimSpace(y))
		}
	}
	return "  (equal as JSON)"
}

// rel names a file of the checkout as from its root.
func rel(p string) string { return strings.TrimPrefix(filepath.ToSlash(p), repoRoot+"/") }
