package check

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
	"sigs.k8s.io/yaml"
)

var promql = parser.NewParser(parser.Options{})

// queryUse records what one expression selects, for the report.
type queryUse struct {
	where string
	names []string
}

// checkExpr parses expr and checks that every selector names a series the
// service exports, with labels that series carries and, for closed label
// sets, values it can take. It returns the series names selected.
func checkExpr(t reporter, where, expr string) []string {
	t.Helper()
	node, err := promql.ParseExpr(expr)
	if err != nil {
		t.Errorf("%s: %v\n  expr: %s", where, err, expr)
		return nil
	}
	series := seriesNames()
	families := allMetrics()
	var names []string

	// allowedLabels is what a selector of this series may match or group by.
	allowedLabels := func(name string) []string {
		fam := families[series[name]]
		out := append(slices.Clone(targetLabels), fam.labels...)
		if strings.HasSuffix(name, "_bucket") && fam.typ.String() == "HISTOGRAM" {
			out = append(out, "le")
		}
		return out
	}

	parser.Inspect(node, func(n parser.Node, path []parser.Node) error {
		switch v := n.(type) {
		case *parser.VectorSelector:
			name := v.Name
			for _, m := range v.LabelMatchers {
				if m.Name == model.MetricNameLabel && m.Type == labels.MatchEqual {
					name = m.Value
				}
			}
			if name == "" {
				t.Errorf("%s: selector %s names no metric", where, v)
				return nil
			}
			names = append(names, name)
			if _, ok := series[name]; !ok {
				t.Errorf("%s: %s is not a series closerelay exports", where, name)
				return nil
			}
			allowed := allowedLabels(name)
			for _, m := range v.LabelMatchers {
				if m.Name == model.MetricNameLabel {
					continue
				}
				if !slices.Contains(allowed, m.Name) {
					t.Errorf("%s: %s has no label %q (has %v)", where, name, m.Name, allowed)
					continue
				}
				if m.Type != labels.MatchEqual {
					continue
				}
				values, closed := closedLabelValues[m.Name]
				if mv, ok := closedMetricLabelValues[series[name]][m.Name]; ok {
					values, closed = mv, true
				}
				if closed && !slices.Contains(values, m.Value) {
					t.Errorf("%s: %s{%s=%q} can never match: the service emits %v", where, name, m.Name, m.Value, values)
				}
			}
		case *parser.AggregateExpr:
			if v.Without {
				return nil
			}
			// Grouping labels must exist on some series aggregated.
			var allowed []string
			parser.Inspect(v.Expr, func(n parser.Node, _ []parser.Node) error {
				if vs, ok := n.(*parser.VectorSelector); ok {
					name := vs.Name
					if _, known := series[name]; known {
						allowed = append(allowed, allowedLabels(name)...)
					}
				}
				return nil
			})
			for _, g := range v.Grouping {
				if !slices.Contains(allowed, g) {
					t.Errorf("%s: grouping by %q, which no aggregated series carries", where, g)
				}
			}
		}
		return nil
	})
	return names
}

// ---- Grafana dashboard ------------------------------------------------------

type dashboard struct {
	SchemaVersion int     `json:"schemaVersion"`
	UID           string  `json:"uid"`
	Title         string  `json:"title"`
	Panels        []panel `json:"panels"`
	Templating    struct {
		List []struct {
			Name       string          `json:"name"`
			Type       string          `json:"type"`
			Query      json.RawMessage `json:"query"`
			Definition string          `json:"definition"`
			Datasource *datasource     `json:"datasource"`
		} `json:"list"`
	} `json:"templating"`
}

type datasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

type panel struct {
	ID         int         `json:"id"`
	Type       string      `json:"type"`
	Title      string      `json:"title"`
	Datasource *datasource `json:"datasource"`
	GridPos    struct {
		H, W, X, Y int
	} `json:"gridPos"`
	Targets []struct {
		RefID      string      `json:"refId"`
		Expr       string      `json:"expr"`
		Datasource *datasource `json:"datasource"`
	} `json:"targets"`
	Panels []panel `json:"panels"` // collapsed rows
}

// grafanaVars stands in for the dashboard's variables when parsing.
var grafanaVars = strings.NewReplacer(
	"${__rate_interval}", "5m", "$__rate_interval", "5m",
	"${__interval}", "1m", "$__interval", "1m",
	"${__range}", "6h", "$__range", "6h",
	"${job}", "closerelay", "$job", "closerelay",
	"${instance}", ".*", "$instance", ".*",
)

func loadDashboard(t *testing.T) dashboard {
	t.Helper()
	var d dashboard
	if err := json.Unmarshal(readFile(t, deployPath("grafana", "closerelay.json")), &d); err != nil {
		t.Fatalf("closerelay.json: %v", err)
	}
	return d
}

func flatPanels(ps []panel) []panel {
	var out []panel
	for _, p := range ps {
		out = append(out, p)
		out = append(out, flatPanels(p.Panels)...)
	}
	return out
}

var labelValuesQuery = regexp.MustCompile(`^label_values\((.+),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$`)

func TestDashboardQueries(t *testing.T) {
	d := loadDashboard(t)
	if d.SchemaVersion < 36 {
		t.Errorf("schemaVersion %d: the datasource-variable form used needs 36+", d.SchemaVersion)
	}
	if d.UID == "" || d.Title == "" {
		t.Error("dashboard needs a uid and a title")
	}

	vars := map[string]string{}
	for _, v := range d.Templating.List {
		vars[v.Name] = v.Type
		if v.Type == "datasource" {
			var q string
			if err := json.Unmarshal(v.Query, &q); err != nil || q != "prometheus" {
				t.Errorf("variable %s: want a prometheus datasource variable", v.Name)
			}
			continue
		}
		if v.Type != "query" {
			continue
		}
		if v.Datasource == nil || v.Datasource.UID != "${datasource}" {
			t.Errorf("variable %s: must query ${datasource}", v.Name)
		}
		m := labelValuesQuery.FindStringSubmatch(v.Definition)
		if m == nil {
			t.Errorf("variable %s: %q is not label_values(selector, label)", v.Name, v.Definition)
			continue
		}
		checkExpr(t, "variable "+v.Name, grafanaVars.Replace(m[1]))
	}
	if vars["datasource"] != "datasource" {
		t.Error(`dashboard needs a "datasource" variable of type datasource`)
	}

	var used []queryUse
	ids := map[int]string{}
	for _, p := range flatPanels(d.Panels) {
		if prev, dup := ids[p.ID]; dup {
			t.Errorf("panel id %d used by %q and %q", p.ID, prev, p.Title)
		}
		ids[p.ID] = p.Title
		if p.GridPos.W <= 0 || p.GridPos.X < 0 || p.GridPos.X+p.GridPos.W > 24 || p.GridPos.H <= 0 {
			t.Errorf("panel %q: gridPos %+v outside the 24-column grid", p.Title, p.GridPos)
		}
		if p.Type == "row" {
			continue
		}
		if p.Datasource == nil || p.Datasource.UID != "${datasource}" {
			t.Errorf("panel %q: datasource must be ${datasource}", p.Title)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			if tg.Datasource != nil && tg.Datasource.UID != "${datasource}" {
				t.Errorf("panel %q query %s: datasource must be ${datasource}", p.Title, tg.RefID)
			}
			where := fmt.Sprintf("panel %q query %s", p.Title, tg.RefID)
			used = append(used, queryUse{where, checkExpr(t, where, grafanaVars.Replace(tg.Expr))})
		}
	}
	checkNoOverlap(t, flatPanels(d.Panels))

	// The panels the operators asked for, by the series they must show.
	covered := map[string]bool{}
	for _, u := range used {
		for _, n := range u.names {
			covered[n] = true
		}
	}
	for _, n := range []string{
		"closerelay_plans_open", "closerelay_cluster_plans_open", "closerelay_stream_subscribers", "closerelay_signatures_total",
		"closerelay_http_request_duration_seconds_bucket", "closerelay_rejections_total",
		"closerelay_account_api_duration_seconds_bucket", "closerelay_rate_limited_total",
		"closerelay_mediator_cosign_total",
		"closerelay_store_available", "closerelay_store_request_duration_seconds_bucket",
		"closerelay_store_request_duration_seconds_count", "closerelay_store_conflicts_total",
		"closerelay_preflight_total", "closerelay_preflight_blockers_total",
	} {
		if !covered[n] {
			t.Errorf("no dashboard panel shows %s", n)
		}
	}
	logNames(t, "dashboard", used)
}

func checkNoOverlap(t *testing.T, ps []panel) {
	t.Helper()
	for i, a := range ps {
		for _, b := range ps[i+1:] {
			ag, bg := a.GridPos, b.GridPos
			if ag.X < bg.X+bg.W && bg.X < ag.X+ag.W && ag.Y < bg.Y+bg.H && bg.Y < ag.Y+ag.H {
				t.Errorf("panels %q and %q overlap", a.Title, b.Title)
			}
		}
	}
}

func logNames(t *testing.T, what string, used []queryUse) {
	set := map[string]bool{}
	for _, u := range used {
		for _, n := range u.names {
			set[n] = true
		}
	}
	var names []string
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("%s selects %d series names: %s", what, len(names), strings.Join(names, " "))
}

// ---- Prometheus rules ---------------------------------------------------------

func loadRules(t *testing.T) *rulefmt.RuleGroups {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	groups, errs := rulefmt.ParseFile(deployPath("prometheus", "alerts.yml"), false, model.UTF8Validation, promql, logger)
	for _, err := range errs {
		t.Error(err)
	}
	if groups == nil {
		t.FailNow()
	}
	return groups
}

func TestAlertRules(t *testing.T) {
	groups := loadRules(t)
	runbook := string(readFile(t, deployPath("RUNBOOK.md")))
	anchors := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^#{2,3} (.+)$`).FindAllStringSubmatch(runbook, -1) {
		anchors[githubAnchor(m[1])] = true
	}

	var used []queryUse
	alerts := map[string]bool{}
	for _, g := range groups.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				used = append(used, queryUse{"record " + r.Record, checkExpr(t, "record "+r.Record, r.Expr)})
				continue
			}
			where := "alert " + r.Alert
			if alerts[r.Alert] {
				t.Errorf("%s defined twice", where)
			}
			alerts[r.Alert] = true
			used = append(used, queryUse{where, checkExpr(t, where, r.Expr)})
			if !strings.HasPrefix(r.Alert, "Closerelay") {
				t.Errorf("%s: alert names start with Closerelay", where)
			}
			if s := r.Labels["severity"]; s != "critical" && s != "warning" && s != "info" {
				t.Errorf("%s: severity %q, want critical, warning or info", where, s)
			}
			for _, a := range []string{"summary", "description", "runbook_url"} {
				if strings.TrimSpace(r.Annotations[a]) == "" {
					t.Errorf("%s: annotation %s missing", where, a)
				}
			}
			url := r.Annotations["runbook_url"]
			_, anchor, _ := strings.Cut(url, "#")
			if !strings.Contains(url, "/deploy/RUNBOOK.md#") || !anchors[anchor] {
				t.Errorf("%s: runbook_url %q does not point at a section of deploy/RUNBOOK.md", where, url)
			}
		}
	}
	for _, want := range []string{
		"CloserelayDown", "CloserelayPlanCapacityHigh", "CloserelaySubscribersHigh",
		"CloserelayStreamsRejected", "CloserelayAccountAPIErrors", "CloserelayAccountAPISlow",
		"CloserelayRateLimitStorm", "CloserelayMediatorCosignFailures",
		"CloserelayStoreUnavailable", "CloserelayStoreErrors", "CloserelayStoreSlow",
		"CloserelayStoreConflicts", "CloserelayPreflightUnchecked", "CloserelayPreflightBlockedHigh",
	} {
		if !alerts[want] {
			t.Errorf("alert %s is missing", want)
		}
	}
	logNames(t, "alerts", used)

	// Every alert has a promtool unit test in which it fires.
	var tests struct {
		RuleFiles []string `json:"rule_files"`
		Tests     []struct {
			Name          string `json:"name"`
			AlertRuleTest []struct {
				Alertname string            `json:"alertname"`
				ExpAlerts []json.RawMessage `json:"exp_alerts"`
			} `json:"alert_rule_test"`
		} `json:"tests"`
	}
	if err := yaml.Unmarshal(readFile(t, deployPath("prometheus", "alerts_test.yml")), &tests); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tests.RuleFiles, "alerts.yml") {
		t.Error("alerts_test.yml must load alerts.yml")
	}
	fires := map[string]bool{}
	for _, tc := range tests.Tests {
		for _, a := range tc.AlertRuleTest {
			if !alerts[a.Alertname] {
				t.Errorf("alerts_test.yml %q tests unknown alert %s", tc.Name, a.Alertname)
			}
			if len(a.ExpAlerts) > 0 {
				fires[a.Alertname] = true
			}
		}
	}
	for a := range alerts {
		if !fires[a] {
			t.Errorf("alert %s has no promtool test case in which it fires", a)
		}
	}
}

// githubAnchor is GitHub's heading anchor: lower case, spaces to hyphens,
// punctuation other than hyphens and underscores dropped.
func githubAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// reporter is the part of *testing.T that checkExpr uses.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
}

// errCollector is a reporter that keeps the errors.
type errCollector struct{ errs []string }

func (c *errCollector) Helper() {}
func (c *errCollector) Errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// TestCheckExprCatchesMistakes guards the checker itself.
func TestCheckExprCatchesMistakes(t *testing.T) {
	var ok errCollector
	checkExpr(&ok, "guard", `sum by (route) (rate(closerelay_rate_limited_total{job="closerelay", route="plan_sign"}[5m]))`)
	if len(ok.errs) > 0 {
		t.Errorf("checkExpr refused a good query: %v", ok.errs)
	}
	for _, bad := range []string{
		`closerelay_plan_open`,                          // misspelt name
		`closerelay_account_api_duration_seconds`,       // histogram without suffix
		`closerelay_rate_limited_total{path="x"}`,       // label it does not carry
		`closerelay_rate_limited_total{route="sign"}`,   // value it never emits
		`sum by (code) (closerelay_rate_limited_total)`, // grouping by an absent label
		`closerelay_plans_open{le="1"}`,                 // le only on _bucket
		`rate(closerelay_plans_open[5m]`,                // syntax
	} {
		var c errCollector
		checkExpr(&c, "guard", bad)
		if len(c.errs) == 0 {
			t.Errorf("checkExpr accepted %s", bad)
		}
	}
}
