package check

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOperatingMetricsTable: the metrics table of docs/operating.md names
// every closerelay_* family the service exports (the families of
// metrics_test.go, each cross-checked against the real registry, the
// middleware or the binary), and no family the service does not export.
func TestOperatingMetricsTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "operating.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, s, ok := strings.Cut(string(b), "| metric | type | labels | meaning |\n")
	if !ok {
		t.Fatal("docs/operating.md has no metrics table (| metric | type | labels | meaning |)")
	}
	s, _, _ = strings.Cut(s, "\n\n")
	named := map[string]bool{}
	for row := range strings.SplitSeq(s, "\n") {
		first, _, _ := strings.Cut(strings.TrimPrefix(row, "| "), " | ")
		for _, m := range regexp.MustCompile("`(closerelay_[a-z_]+)`").FindAllStringSubmatch(first, -1) {
			named[m[1]] = true
		}
	}
	exported := map[string]bool{}
	for _, families := range []map[string]metricInfo{serviceMetrics, eventMetrics, httpMetrics, startMetrics} {
		for name := range families {
			exported[name] = true
		}
	}
	for name := range exported {
		if !named[name] {
			t.Errorf("docs/operating.md's metrics table does not name %s, which the service exports", name)
		}
	}
	for name := range named {
		if !exported[name] {
			t.Errorf("docs/operating.md's metrics table names %s, which the service does not export", name)
		}
	}
}
