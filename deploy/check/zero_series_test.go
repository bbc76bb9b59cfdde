package check

import (
	"slices"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/metrics"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// TestAlertSelectedSeriesExistAtStart: every series of the service's own
// metrics that an alert selects with an equality matcher (result="…",
// outcome="error", …) exists in a fresh registry, at zero. A series born on
// the first event has no earlier sample, so increase() and rate() miss that
// event and an "any failure" alert would never fire on the first one.
func TestAlertSelectedSeriesExistAtStart(t *testing.T) {
	mfs, err := metrics.New().Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	// family -> label -> values present at start
	present := map[string]map[string][]string{}
	for _, mf := range mfs {
		ls := map[string][]string{}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				ls[lp.GetName()] = append(ls[lp.GetName()], lp.GetValue())
			}
		}
		present[mf.GetName()] = ls
	}
	series := seriesNames()
	checked := 0
	for _, g := range loadRules(t).Groups {
		for _, r := range g.Rules {
			node, err := promql.ParseExpr(r.Expr)
			if err != nil {
				t.Fatalf("alert %s: %v", r.Alert, err)
			}
			parser.Inspect(node, func(n parser.Node, _ []parser.Node) error {
				v, ok := n.(*parser.VectorSelector)
				if !ok {
					return nil
				}
				family := series[v.Name]
				if !strings.HasPrefix(family, metrics.Namespace+"_") || strings.HasPrefix(family, metrics.Namespace+"_http_") {
					return nil // the HTTP middleware's series appear with their first request
				}
				if _, ok := serviceMetrics[family]; !ok {
					return nil
				}
				for _, m := range v.LabelMatchers {
					if m.Type != labels.MatchEqual || m.Name == "__name__" || slices.Contains(targetLabels, m.Name) {
						continue
					}
					checked++
					if !slices.Contains(present[family][m.Name], m.Value) {
						t.Errorf("alert %s selects %s{%s=%q}, which a fresh registry lacks: create it at zero in metrics.New",
							r.Alert, v.Name, m.Name, m.Value)
					}
				}
				return nil
			})
		}
	}
	if checked == 0 {
		t.Fatal("no alert selects a service series by label value: the walk above no longer sees the rules")
	}
}
