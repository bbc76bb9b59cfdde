package loadkit_test

import (
	"strings"
	"testing"

	"github.com/closerelay/closerelay/loadkit"
)

func TestRawRates(t *testing.T) {
	out := "goos: linux\nBenchmarkRawEd25519Verify     \t   50000\t     40000 ns/op\n" +
		"BenchmarkRawEd25519Verify-2   \t  100000\t     25000 ns/op\nPASS\n"
	rates, err := loadkit.RawRates(strings.NewReader(out))
	if err != nil || rates[1] != 25000 || rates[2] != 40000 {
		t.Fatalf("rates %v, %v", rates, err)
	}
	if _, err := loadkit.RawRates(strings.NewReader("PASS\n")); err == nil {
		t.Fatal("no benchmark line: no error")
	}
}

func TestReportVerdicts(t *testing.T) {
	raw := map[int]float64{1: 20000, 2: 40000}
	run := func(label string, s loadkit.K6Summary) loadkit.Run {
		return loadkit.Run{Label: label, K6: &s, ServerCPU: 1, HasCPUTime: true}
	}
	runs := []loadkit.Run{
		run("replay", loadkit.K6Summary{Scenario: "replay", VUs: 64, Rows: []loadkit.K6Row{{Name: "replay", Requests: 320000, RPS: 16000, P99: 19}}}),
		run("fresh", loadkit.K6Summary{Scenario: "fresh", Rows: []loadkit.K6Row{{Name: "fresh", Requests: 1000, RPS: 15000, P99: 30}}}),
		run("attack", loadkit.K6Summary{Scenario: "attack", Attackers: 32, Rows: []loadkit.K6Row{
			{Name: "attack", Requests: 100, RPS: 10}, {Name: "honest", Requests: 10, RPS: 1, P99: 150}, {Name: "other", Requests: 10, RPS: 1, P99: 5}}}),
		run("replay-wrk", loadkit.K6Summary{Scenario: "replay-wrk", VUs: 64, Rows: []loadkit.K6Row{{Name: "replay", Requests: 1000, RPS: 15000, P99: 5}}}),
		{Label: "missing"},
	}
	var out strings.Builder
	v := loadkit.Report(&out, raw, runs)
	if len(v) != 4 || !v[0].Met || v[1].Met || v[2].Met || v[3].Met || !strings.Contains(v[3].Target, "[wrk]") {
		t.Fatalf("verdicts %+v", v)
	}
	for _, want := range []string{"0.800×1c", "3.1 µs of CPU per request", "0.375×2c", "honest p99 150.0 ms", "missing                (no k6 summary)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}
