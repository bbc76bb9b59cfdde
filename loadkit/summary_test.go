package loadkit_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
	for _, bad := range []string{"PASS\n", "BenchmarkRawEd25519Verify 1 40000 ns/op\n", "BenchmarkRawEd25519Verify-2 1 x ns/op\n"} {
		if _, err := loadkit.RawRates(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// rawAdmit is what bench-load.sh's ledger.test writes to raw-admit-N.txt
// right before a burst (-test.cpu 2 only) when two cores verify rate2 a
// second.
func rawAdmit(rate2 float64) string {
	return fmt.Sprintf("goos: linux\ngoarch: amd64\npkg: github.com/closerelay/closerelay/ledger\ncpu: AMD EPYC\n"+
		"BenchmarkRawEd25519Verify-2   \t   38940\t     %.2f ns/op\nPASS\n", 1e9/rate2)
}

// TestRawAdmitFile: a burst's raw file holds the two-core rate only, which
// the burst reads; raw.txt must hold both.
func TestRawAdmitFile(t *testing.T) {
	dir := t.TempDir()
	s := passingSession()
	writeSession(t, dir, s)
	if err := os.WriteFile(filepath.Join(dir, "raw-admit-3.txt"), []byte(rawAdmit(36000)), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := loadkit.LoadSession(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b := got.Admit[2]; fmt.Sprintf("%.0f", b.Raw2) != "36000" || b.RawErr != "" || fmt.Sprintf("%.0f", got.Admit[0].Raw2) != "40000" {
		t.Fatalf("bursts' raw rates %+v, %+v", got.Admit[2], got.Admit[0])
	}
	if _, err := loadkit.RawRates(strings.NewReader(rawAdmit(36000))); err == nil {
		t.Error("raw.txt without its one-core rate: no error")
	}

	// Read before and after the burst, the second during a spell of other
	// work: the higher reading counts, so the burst's ratio is not
	// flattered by the spell (20,800/s over 25,000 would be 0.832).
	both := rawAdmit(38000) + rawAdmit(25000)
	if err := os.WriteFile(filepath.Join(dir, "raw-admit-4.txt"), []byte(both), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err = loadkit.LoadSession(dir); err != nil {
		t.Fatal(err)
	}
	if b := got.Admit[3]; fmt.Sprintf("%.0f", b.Raw2) != "38000" {
		t.Fatalf("burst read before and after: raw %.0f, want the higher, 38000", b.Raw2)
	}

	// Read at -cpu 1,2, as bench-load.sh reads them: a reading whose
	// two-core rate is under 1.6 × its one-core rate was taken while
	// something else held a core, and does not count even when it is the
	// higher (here the host was faster during it); a burst with only such
	// readings is read against the start's rate, and says why.
	for name, body := range map[string]string{
		"raw-admit-4.txt": rawAdmit12(30000, 45000) + rawAdmit12(19000, 37000), // 1.50 ×, then 1.95 ×
		"raw-admit-5.txt": rawAdmit12(19000, 25000),                            // 1.32 ×
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got, err = loadkit.LoadSession(dir); err != nil {
		t.Fatal(err)
	}
	if b := got.Admit[3]; fmt.Sprintf("%.0f", b.Raw2) != "37000" {
		t.Errorf("a busy reading and a quiet one: raw %.0f, want the quiet one's 37000", b.Raw2)
	}
	if b := got.Admit[4]; b.Raw2 != 0 || b.RawErr != "raw-admit-5.txt: loadkit: every reading taken on a busy machine (2-core 25000/s = 1.32 × 1-core 19000/s)" {
		t.Errorf("only a busy reading: raw %.0f, %q", b.Raw2, b.RawErr)
	}

	// A run cut short before its two-core line, then one cut before its
	// one-core line: the second's two-core rate is not read against the
	// first's one-core rate (1.5 ×, busy), but as a reading of its own.
	cut := "goos: linux\nBenchmarkRawEd25519Verify     \t   19000\t     50000.00 ns/op\n" +
		"goos: linux\nBenchmarkRawEd25519Verify-2   \t   38940\t     33333.33 ns/op\nPASS\n"
	if err := os.WriteFile(filepath.Join(dir, "raw-admit-5.txt"), []byte(cut), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err = loadkit.LoadSession(dir); err != nil {
		t.Fatal(err)
	}
	if b := got.Admit[4]; fmt.Sprintf("%.0f", b.Raw2) != "30000" {
		t.Errorf("readings cut short: raw %.0f (%s), want the second's own 30000", b.Raw2, b.RawErr)
	}
}

// rawAdmit12 is a raw file of one `-cpu 1,2` reading.
func rawAdmit12(rate1, rate2 float64) string {
	return fmt.Sprintf("goos: linux\nBenchmarkRawEd25519Verify     \t   19000\t     %.2f ns/op\n"+
		"BenchmarkRawEd25519Verify-2   \t   38940\t     %.2f ns/op\nPASS\n", 1e9/rate1, 1e9/rate2)
}

// TestNewSignersPerBurstRaw: each burst is read against the raw rate taken
// right before it, not the run's start rate; the start reading is shown
// under it as info.
func TestNewSignersPerBurstRaw(t *testing.T) {
	// The host was slower at the start: 21,000/s over 44,000 would be
	// 0.477, not met; over each burst's own 40,000 it is 0.525.
	s := passingSession()
	s.Raw = map[int]float64{1: 20000, 2: 44000}
	s.AdmitTwoThreads = twoThreadBurst()
	rows := loadkit.Evaluate(s)
	if r := findRow(t, rows, strings.TrimSpace(loadkit.NewSignersTwoThreadsWhat)); r.Ratio != "0.250 × burst's 2-core raw" {
		t.Errorf("two-thread burst row %+v", r)
	}
	if r := findRow(t, rows, loadkit.NewSignersWhat); r.Verdict != loadkit.Met || r.Ratio != "0.525 [0.512–0.550] × burst's 2-core raw" ||
		strings.Contains(r.Measured, "start raw rate") {
		t.Errorf("slow start: %+v", r)
	}
	if r := findRow(t, rows, strings.TrimSpace(loadkit.NewSignersStartRawWhat)); r.Verdict != loadkit.Info || r.Ratio != "0.477 × start 2-core raw" ||
		r.Measured != "median 21000/s against raw.txt's 2-core 44000/s; the bursts' own: median 40000/s [40000–40000]" {
		t.Errorf("start reading: %+v", r)
	}
	if !loadkit.Passed(rows) {
		t.Errorf("failed: %+v", rows)
	}

	// The reverse: the host was slower before the bursts than at the start.
	s = passingSession()
	for _, b := range s.Admit {
		b.Raw2 = 44000
	}
	rows = loadkit.Evaluate(s)
	if r := findRow(t, rows, loadkit.NewSignersWhat); r.Verdict != loadkit.NotMet || r.Ratio != "0.477 [0.466–0.500] × burst's 2-core raw" {
		t.Errorf("slow bursts: %+v", r)
	}
	if r := findRow(t, rows, strings.TrimSpace(loadkit.NewSignersStartRawWhat)); r.Verdict != loadkit.Info || r.Ratio != "0.525 × start 2-core raw" {
		t.Errorf("start reading: %+v", r)
	}
}

// TestNewSignersMedianOfRatios: the median of the bursts' ratios decides
// (the mean of the middle two of an even count), not the median rate over
// a raw rate.
func TestNewSignersMedianOfRatios(t *testing.T) {
	s := passingSession()
	s.Raw = map[int]float64{1: 20000, 2: 42000}
	s.Admit = s.Admit[:4]
	for i, f := range [][2]float64{{18000, 40000}, {21000, 42000}, {20000, 39000}, {25000, 40000}} {
		s.Admit[i].RPS, s.Admit[i].Raw2 = f[0], f[1]
	}
	// Ratios 0.450, 0.500, 0.513 and 0.625: median 0.506. The median rate,
	// 20,500, is 0.512 of the bursts' median raw rate and 0.488 of the
	// start's.
	rows := loadkit.Evaluate(s)
	if r := findRow(t, rows, loadkit.NewSignersWhat); r.Verdict != loadkit.Met || r.Ratio != "0.506 [0.450–0.625] × burst's 2-core raw" ||
		!strings.HasPrefix(r.Measured, "20500/s [18000–25000] at 64 connections") {
		t.Errorf("new signers row %+v", r)
	}
	if r := findRow(t, rows, strings.TrimSpace(loadkit.NewSignersStartRawWhat)); r.Ratio != "0.488 × start 2-core raw" {
		t.Errorf("start reading: %+v", r)
	}
}

// TestNewSignersRawFallback: a burst whose raw file is absent or unreadable
// is read against the run's start raw rate, and the row, the two-thread
// burst's row and the figures say so.
func TestNewSignersRawFallback(t *testing.T) {
	dir := t.TempDir()
	s := passingSession()
	for _, b := range s.Admit {
		b.Raw2 = 38000
	}
	s.AdmitTwoThreads = twoThreadBurst()
	writeSession(t, dir, s)
	if err := os.Remove(filepath.Join(dir, "raw-admit-2.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "raw-admit2t.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "raw-admit-4.txt"), []byte("PASS\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := loadkit.LoadSession(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Missing) != 0 || got.Admit[1].Raw2 != 0 || got.Admit[1].RawErr != "raw-admit-2.txt absent" || got.Admit[3].Raw2 != 0 {
		t.Fatalf("missing %v, bursts %+v %+v", got.Missing, got.Admit[1], got.Admit[3])
	}
	var out strings.Builder
	rows := loadkit.Report(&out, got)
	r := findRow(t, rows, loadkit.NewSignersWhat)
	if r.Verdict != loadkit.Met || !strings.HasSuffix(r.Measured, "; 2 of 5 bursts read against the run's start raw rate "+
		"(raw-admit-2.txt absent; raw-admit-4.txt: loadkit: no BenchmarkRawEd25519Verify result at -cpu 2)") {
		t.Errorf("new signers row %+v", r)
	}
	// 21,000, 22,000 and 21,500 over 38,000; 20,500 and 20,800 over 40,000.
	if r.Ratio != "0.553 [0.512–0.579] × burst's 2-core raw" {
		t.Errorf("ratios %q", r.Ratio)
	}
	if r := findRow(t, rows, strings.TrimSpace(loadkit.NewSignersTwoThreadsWhat)); r.Ratio != "0.250 × start 2-core raw" ||
		!strings.Contains(r.Measured, "; read against the run's start raw rate (raw-admit2t.txt absent)") {
		t.Errorf("two-thread burst row %+v", r)
	}
	for _, w := range []string{"0.553×2c", "2c raw 38000/s of raw-admit-1.txt", "0.512×2c", "2c raw 40000/s of raw.txt (raw-admit-2.txt absent)",
		"2c raw 40000/s of raw.txt (raw-admit2t.txt absent)"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("report lacks %q:\n%s", w, out.String())
		}
	}
}

// raw is 20,000 verifications a second on one core, 40,000 on two.
var raw = map[int]float64{1: 20000, 2: 40000}

func group(rps, p99 float64) loadkit.Group {
	return loadkit.Group{Requests: rps * 10, RPS: rps, P50: p99 / 4, P95: p99 / 2, P99: p99, Max: 2 * p99}
}

// passingSession meets every target with some room, as a quiet run might.
func passingSession() *loadkit.Session {
	s := &loadkit.Session{Raw: raw, Runs: map[string]*loadkit.Run{
		"k6/replay": {Name: "replay", Generator: "k6", Connections: 64, Seconds: 10, Groups: map[string]loadkit.Group{"all": group(41000, 8)}},
		"k6/fresh":  {Name: "fresh", Generator: "k6", Connections: 64, Seconds: 10, Groups: map[string]loadkit.Group{"all": group(21000, 30)}},
		"k6/attack": {Name: "attack", Generator: "k6", Connections: 32, Attackers: 32, Seconds: 10, Groups: map[string]loadkit.Group{
			"all": group(700, 50), "attacker": group(660, 55), "honest": group(20, 6), "other": group(20, 5)}},
	}, Missing: map[string]string{}}
	for i, rps := range []float64{21000, 20500, 22000, 20800, 21500} {
		s.Admit = append(s.Admit, admitBurst(i+1, rps, 15))
	}
	s.Streams = &loadkit.StreamFigures{Plans: 100, SubscribersPerPlan: 50, StreamsRequested: 5000, StreamsAttempted: 5000, StreamsOpen: 5000,
		FanOut: loadkit.StreamLatency{Samples: 1000, P50: 0.3, P99: 2.5, Max: 9}, Delivery: loadkit.StreamLatency{Samples: 1000, P50: 1, P99: 8}}
	s.Streams.Server.KiBPerStream = 11.5
	s.Streams.Signing.Sent, s.Streams.Signing.Changed = 100, 100
	s.Streams.Events.Expected, s.Streams.Events.Received = 5000, 5000
	s.Routes = &loadkit.RoutesResult{Requests: 1000, RPS: 100, Routes: []loadkit.RouteFigures{
		{Route: loadkit.RoutePublish, Weight: 1, Requests: 500, Statuses: map[string]int{"200": 500}},
		{Route: loadkit.RouteEvents, Weight: 1, Requests: 500, Statuses: map[string]int{"200": 500}},
	}}
	return s
}

// admitBurst is a valid burst of 9,500 new signers at rps, with a two-core
// raw rate of its own equal to the start's (raw).
func admitBurst(n int, rps, p99 float64) *loadkit.AdmitBurst {
	return &loadkit.AdmitBurst{Name: fmt.Sprintf("admit-%d", n), Raw2: raw[2], AdmitResult: loadkit.AdmitResult{
		Generator: "closerelaylab", Connections: 64, Plans: 500, Requests: 9500, Seconds: 9500 / rps, RPS: rps,
		P50: p99 / 4, P95: p99 / 2, P99: p99, Max: 2 * p99, Admitted: 9500}}
}

// wrkBursts makes every burst of s wrk's (loadkit/wrk/admit.lua through
// `load admit --wrk`): one thread, as bench-load.sh sends them, and
// percentiles before wrk's correction a little below the corrected ones.
func wrkBursts(s *loadkit.Session) {
	for _, b := range s.Admit {
		b.Generator, b.Threads = "wrk", 1
		b.P50Uncorrected, b.P99Uncorrected = b.P50*0.8, b.P99*0.8
	}
}

// twoThreadBurst is the info burst bench-load.sh sends from two wrk
// threads (admit2t.json): valid, slower and with a longer tail than the
// deciding ones.
func twoThreadBurst() *loadkit.AdmitBurst {
	b := admitBurst(0, 10000, 30)
	b.Name, b.Generator, b.Threads = "admit2t", "wrk", 2
	b.P50Uncorrected, b.P99Uncorrected = 6, 24
	return b
}

func findRow(t *testing.T, rows []loadkit.Row, what string) loadkit.Row {
	t.Helper()
	for _, r := range rows {
		if strings.TrimSpace(r.What) == what {
			return r
		}
	}
	t.Fatalf("no row %q in %+v", what, rows)
	return loadkit.Row{}
}

func TestEvaluatePassing(t *testing.T) {
	rows := loadkit.Evaluate(passingSession())
	if !loadkit.Passed(rows) {
		t.Fatalf("a passing session failed: %+v", rows)
	}
	for _, what := range []string{loadkit.NewSignersWhat, loadkit.NewSignersP99What, "replays on one plan", "replays p99 at 64 connections",
		"honest co-signer p99 under 32 expensive connections", "fan-out of one change to 50 subscribers, p99",
		"relay memory per idle stream at 5,000 streams"} {
		if r := findRow(t, rows, what); r.Verdict != loadkit.Met {
			t.Errorf("%s: %v", what, r.Verdict)
		}
	}
	if r := findRow(t, rows, "replays on one plan"); r.Ratio != "2.050 × 1-core raw" || r.Bound != "≥ 2 × 1-core raw" {
		t.Errorf("replay row %+v", r)
	}
	// The median of 20,500, 20,800, 21,000, 21,500 and 22,000 a second.
	if r := findRow(t, rows, loadkit.NewSignersWhat); r.Ratio != "0.525 [0.512–0.550] × burst's 2-core raw" || r.Bound != "≥ 0.5 × burst's 2-core raw" ||
		!strings.Contains(r.Measured, "21000/s [20500–22000]") || !strings.Contains(r.Measured, "admitted/requests 47500/47500") {
		t.Errorf("new signers row %+v", r)
	}
	// The alternative signatures of a known signer decide nothing.
	if r := findRow(t, rows, loadkit.FreshWhat); r.Verdict != loadkit.Info || r.Bound != "" {
		t.Errorf("fresh row %+v", r)
	}
}

// TestEvaluateFailing changes one thing at a time in a passing session and
// checks that exactly the row it concerns, and so the session, fails.
func TestEvaluateFailing(t *testing.T) {
	for _, tc := range []struct {
		name, row string
		change    func(s *loadkit.Session)
	}{
		{"new signers too slow", loadkit.NewSignersWhat, func(s *loadkit.Session) {
			for _, b := range s.Admit[:3] {
				b.RPS = 19000
			}
		}},
		{"new signers tail", loadkit.NewSignersP99What, func(s *loadkit.Session) {
			for _, b := range s.Admit[2:] {
				b.P99 = 20
			}
		}},
		// A burst whose requests did not all add a signer (a relay that was
		// not fresh: its partials were replays) measured something else.
		{"replays counted as new signers", loadkit.NewSignersWhat, func(s *loadkit.Session) { s.Admit[1].Admitted = 0 }},
		{"one signer short", loadkit.NewSignersWhat, func(s *loadkit.Session) { s.Admit[4].Admitted = 9499 }},
		{"admitted unread", loadkit.NewSignersWhat, func(s *loadkit.Session) { s.Admit[0].Admitted, s.Admit[0].MetricsError = -1, "refused" }},
		{"burst answers wrong", loadkit.NewSignersP99What, func(s *loadkit.Session) { s.Admit[0].Wrong = 1 }},
		{"burst at 32 connections", loadkit.NewSignersWhat, func(s *loadkit.Session) { s.Admit[0].Connections = 32 }},
		{"a burst without figures", loadkit.NewSignersWhat, func(s *loadkit.Session) { s.Missing["admit-6"] = "unexpected end of JSON input" }},
		{"too few bursts", loadkit.NewSignersWhat, func(s *loadkit.Session) { s.Admit = s.Admit[:2] }},
		{"no bursts", loadkit.NewSignersWhat, func(s *loadkit.Session) { s.Admit = nil }},
		// The same from wrk's bursts: its corrected p99 decides, an
		// answer wrk's own count would miss (not 200, not above 399)
		// fails, and so does a partial left without its answer.
		{"wrk bursts too slow", loadkit.NewSignersWhat, func(s *loadkit.Session) {
			wrkBursts(s)
			for _, b := range s.Admit[:3] {
				b.RPS = 19000
			}
		}},
		{"wrk tail corrected", loadkit.NewSignersP99What, func(s *loadkit.Session) {
			wrkBursts(s)
			for _, b := range s.Admit {
				b.P99, b.P99Uncorrected = 21, 15
			}
		}},
		{"wrk burst answer not 200", loadkit.NewSignersP99What, func(s *loadkit.Session) {
			wrkBursts(s)
			s.Admit[3].Wrong = 1
		}},
		{"wrk burst lost answers", loadkit.NewSignersWhat, func(s *loadkit.Session) {
			wrkBursts(s)
			s.Admit[2].Wrong, s.Admit[2].Admitted = 3, 9497
		}},
		{"wrk burst sent a partial twice", loadkit.NewSignersWhat, func(s *loadkit.Session) {
			wrkBursts(s)
			s.Admit[4].Admitted = 9499 // one partial a duplicate, all 200
		}},
		{"bursts of two generators", loadkit.NewSignersWhat, func(s *loadkit.Session) {
			s.Admit[1].Generator, s.Admit[1].Threads = "wrk", 1
		}},
		{"wrk bursts of two thread counts", loadkit.NewSignersP99What, func(s *loadkit.Session) {
			wrkBursts(s)
			s.Admit[2].Threads = 2
		}},
		{"replay too slow", "replays on one plan", func(s *loadkit.Session) { s.Runs["k6/replay"].Groups["all"] = group(39000, 8) }},
		{"replay tail", "replays p99 at 64 connections", func(s *loadkit.Session) { s.Runs["k6/replay"].Groups["all"] = group(41000, 10) }},
		{"replay at 32 connections", "replays p99 at 64 connections", func(s *loadkit.Session) { s.Runs["k6/replay"].Connections = 32 }},
		{"honest tail", "honest co-signer p99 under 32 expensive connections", func(s *loadkit.Session) { s.Runs["k6/attack"].Groups["honest"] = group(20, 10) }},
		{"too few attackers", "honest co-signer p99 under 32 expensive connections", func(s *loadkit.Session) { s.Runs["k6/attack"].Attackers = 16 }},
		{"no attack run", "honest co-signer p99 under 32 expensive connections", func(s *loadkit.Session) { delete(s.Runs, "k6/attack") }},
		{"fan-out tail", "fan-out of one change to 50 subscribers, p99", func(s *loadkit.Session) { s.Streams.FanOut.P99 = 3 }},
		{"fan-out unmeasured", "fan-out of one change to 50 subscribers, p99", func(s *loadkit.Session) { s.Streams.FanOut = loadkit.StreamLatency{} }},
		{"idle memory", "relay memory per idle stream at 5,000 streams", func(s *loadkit.Session) { s.Streams.Server.KiBPerStream = 12.5 }},
		{"idle at fewer streams", "relay memory per idle stream at 5,000 streams", func(s *loadkit.Session) { s.Streams.StreamsOpen = 4999 }},
		{"no stream run", "relay memory per idle stream at 5,000 streams", func(s *loadkit.Session) { s.Streams = nil }},
		{"events lost", "every stream opened, every event delivered", func(s *loadkit.Session) { s.Streams.Events.Lost = 1 }},
		{"routes wrong", "every route answers as it must (mix)", func(s *loadkit.Session) {
			s.Routes.Routes[0].Unexpected, s.Routes.Routes[0].Statuses = 1, map[string]int{"200": 499, "500": 1}
		}},
		{"no routes run", "every route answers as it must (mix)", func(s *loadkit.Session) { s.Routes = nil }},
		// Wrong statuses make a run's figures worthless: its target fails
		// with it, however fast it was.
		{"replay statuses", "replays on one plan", func(s *loadkit.Session) {
			g := s.Runs["k6/replay"].Groups["all"]
			g.Wrong = g.Requests
			s.Runs["k6/replay"].Groups["all"] = g
		}},
		{"attack statuses", "honest co-signer p99 under 32 expensive connections", func(s *loadkit.Session) {
			g := s.Runs["k6/attack"].Groups["attacker"]
			g.Wrong = 1 + g.Requests*loadkit.MaxUnexpected
			s.Runs["k6/attack"].Groups["attacker"] = g
		}},
		// Raw rates taken while something else ran: the ruler is short.
		{"machine busy at the raw rates", loadkit.QuietWhat, func(s *loadkit.Session) { s.Raw = map[int]float64{1: 20000, 2: 31000} }},
		{"no raw rates", loadkit.QuietWhat, func(s *loadkit.Session) { s.Raw = map[int]float64{} }},
		{"k6 threshold crossed", "replays on one plan", func(s *loadkit.Session) {
			s.Runs["k6/replay"].Crossed = []string{"http_reqs{phase:run}: count>0"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := passingSession()
			tc.change(s)
			rows := loadkit.Evaluate(s)
			if loadkit.Passed(rows) {
				t.Fatal("the session passed")
			}
			if r := findRow(t, rows, tc.row); r.Verdict != loadkit.NotMet {
				t.Errorf("row %q: %+v", tc.row, r)
			}
		})
	}
}

// TestWrkDecidesThroughput: with a wrk run, wrk's figure decides the
// throughput target and k6's is shown for comparison; wrong statuses in
// either still fail the session.
func TestWrkDecidesThroughput(t *testing.T) {
	s := passingSession()
	s.Runs["k6/fresh"].Groups["all"] = group(8000, 30)
	s.Runs["wrk/fresh"] = &loadkit.Run{Name: "fresh", Generator: "wrk", Connections: 64, Seconds: 10, Groups: map[string]loadkit.Group{"all": group(21000, 70)}}
	s.Runs["k6/replay"].Groups["all"] = group(30000, 8)
	s.Runs["wrk/replay"] = &loadkit.Run{Name: "replay", Generator: "wrk", Connections: 64, Seconds: 10, Groups: map[string]loadkit.Group{"all": group(41000, 8)}}
	rows := loadkit.Evaluate(s)
	if !loadkit.Passed(rows) {
		t.Fatalf("failed: %+v", rows)
	}
	var verdicts []string
	for _, r := range rows {
		if r.What == loadkit.FreshWhat || r.What == "replays on one plan" {
			verdicts = append(verdicts, r.Source+"="+r.Verdict.String())
		}
	}
	if strings.Join(verdicts, " ") != "wrk fresh=info k6 fresh=info wrk replay=met k6 replay=info" {
		t.Fatalf("throughput rows %v", verdicts)
	}
	// Two wrk threads' replays are shown beside, read against the one-core
	// rate like the deciding run, and never decide: neither a rate below
	// the target nor a tail past it fails the session.
	s.Runs["wrk/replay-t2"] = &loadkit.Run{Name: "replay-t2", Generator: "wrk", Connections: 64, Seconds: 10, Groups: map[string]loadkit.Group{"all": group(30000, 50)}}
	rows = loadkit.Evaluate(s)
	if r := findRow(t, rows, strings.TrimSpace(loadkit.ReplayTwoThreadsWhat)); r.Verdict != loadkit.Info || r.Source != "wrk replay-t2" ||
		r.Ratio != "1.500 × 1-core raw" || r.Bound != "" || !strings.Contains(r.Measured, "30000/s, p99 50.00 ms") {
		t.Fatalf("two-thread replay row %+v", r)
	}
	if !loadkit.Passed(rows) {
		t.Fatalf("the two-thread replay decided: %+v", rows)
	}
	if r := findRow(t, rows, "replays on one plan"); r.Source != "wrk replay" || r.Ratio != "2.050 × 1-core raw" {
		t.Fatalf("deciding replay row %+v", r)
	}
	g := s.Runs["k6/fresh"].Groups["all"]
	g.Wrong = g.Requests
	s.Runs["k6/fresh"].Groups["all"] = g
	if loadkit.Passed(loadkit.Evaluate(s)) {
		t.Fatal("k6's wrong statuses passed because wrk decided the target")
	}
}

// TestWrkDecidesNewSigners: bursts from wrk decide the new-signer rows
// like Go's, named as wrk's, with the percentiles before wrk's correction
// shown beside the decided ones.
func TestWrkDecidesNewSigners(t *testing.T) {
	s := passingSession()
	wrkBursts(s)
	rows := loadkit.Evaluate(s)
	if !loadkit.Passed(rows) {
		t.Fatalf("failed: %+v", rows)
	}
	if r := findRow(t, rows, loadkit.NewSignersWhat); r.Source != "wrk admit (1 thread) ×5" || r.Verdict != loadkit.Met || r.Ratio != "0.525 [0.512–0.550] × burst's 2-core raw" {
		t.Errorf("new signers row %+v", r)
	}
	if r := findRow(t, rows, loadkit.NewSignersP99What); r.Source != "wrk admit (1 thread) ×5" || !strings.Contains(r.Measured, "p99 15.00 ms [15.00–15.00]; uncorrected 12.00") {
		t.Errorf("p99 row %+v", r)
	}
	// Go's bursts show no uncorrected figure: they measure latencies as they are.
	if r := findRow(t, loadkit.Evaluate(passingSession()), loadkit.NewSignersP99What); r.Source != "load admit ×5" || strings.Contains(r.Measured, "uncorrected") {
		t.Errorf("Go's p99 row %+v", r)
	}
}

// TestNewSignersOneThreadCount: the deciding bursts are all from one
// generator with one thread count; a burst from another count makes both
// rows not met, naming it, however good their figures.
func TestNewSignersOneThreadCount(t *testing.T) {
	s := passingSession()
	wrkBursts(s)
	s.Admit[2].Threads = 2
	rows := loadkit.Evaluate(s)
	if loadkit.Passed(rows) {
		t.Fatal("bursts of one and two wrk threads passed")
	}
	for _, what := range []string{loadkit.NewSignersWhat, loadkit.NewSignersP99What} {
		if r := findRow(t, rows, what); r.Verdict != loadkit.NotMet || !strings.Contains(r.Measured, "[INVALID: admit-3: 2 wrk threads, not 1]") {
			t.Errorf("%s: %+v", what, r)
		}
	}
	// All five from two threads: one count, so they decide, and the source
	// names it.
	for _, b := range s.Admit {
		b.Threads = 2
	}
	rows = loadkit.Evaluate(s)
	if r := findRow(t, rows, loadkit.NewSignersWhat); r.Verdict != loadkit.Met || r.Source != "wrk admit (2 threads) ×5" {
		t.Errorf("bursts of two threads: %+v", r)
	}
}

// TestTwoThreadBurstIsInfo: the burst from two wrk threads is shown beside
// the deciding bursts, against the two-core rate, with its uncorrected p99
// and its admitted count, and decides nothing: not the new-signer rows,
// which it leaves as the five one-thread bursts make them, nor the session,
// even when it is slow, its tail is past the target or it is INVALID.
func TestTwoThreadBurstIsInfo(t *testing.T) {
	s := passingSession()
	wrkBursts(s)
	want := loadkit.Evaluate(s)
	s.AdmitTwoThreads = twoThreadBurst()
	rows := loadkit.Evaluate(s)
	if !loadkit.Passed(rows) {
		t.Fatalf("the two-thread burst decided: %+v", rows)
	}
	r := findRow(t, rows, strings.TrimSpace(loadkit.NewSignersTwoThreadsWhat))
	if r.Verdict != loadkit.Info || r.Source != "wrk admit (2 threads)" || r.Ratio != "0.250 × burst's 2-core raw" || r.Bound != "" ||
		r.Measured != "10000/s at 64 connections, p99 30.00 ms (uncorrected 24.00); admitted/requests 9500/9500" {
		t.Fatalf("two-thread burst row %+v", r)
	}
	for _, what := range []string{loadkit.NewSignersWhat, loadkit.NewSignersP99What} {
		if got, w := findRow(t, rows, what), findRow(t, want, what); got != w {
			t.Errorf("%s: %+v, without the two-thread burst %+v", what, got, w)
		}
	}

	s.AdmitTwoThreads.Admitted = 9499
	rows = loadkit.Evaluate(s)
	if r := findRow(t, rows, strings.TrimSpace(loadkit.NewSignersTwoThreadsWhat)); r.Verdict != loadkit.Info ||
		!strings.HasSuffix(r.Measured, "admitted/requests 9499/9500 [INVALID: 9499 admitted of 9500 requests]") {
		t.Fatalf("invalid two-thread burst row %+v", r)
	}
	s.AdmitTwoThreads.Admitted, s.AdmitTwoThreads.Wrong = 9500, 2
	if r := findRow(t, loadkit.Evaluate(s), strings.TrimSpace(loadkit.NewSignersTwoThreadsWhat)); !strings.HasSuffix(r.Measured, "[INVALID: 2 answers not 200]") {
		t.Fatalf("two-thread burst with wrong answers %+v", r)
	}
	if r := findRow(t, rows, loadkit.NewSignersWhat); r.Verdict != loadkit.Met {
		t.Errorf("an invalid two-thread burst failed the deciding bursts: %+v", r)
	}
}

// k6Export writes a file shaped like `k6 run --summary-export` of
// loadkit/k6/sign.js (k6 v1.8's legacy JSON summary).
func k6Export(t *testing.T, path string, connections, attackers int, seconds float64, groups map[string]loadkit.Group, crossed map[string]bool) {
	t.Helper()
	m := map[string]any{
		"http_reqs":        map[string]any{"count": 1.0, "rate": 1.0},
		"load_connections": map[string]any{"value": connections, "min": connections, "max": connections},
		"load_attackers":   map[string]any{"value": attackers, "min": attackers, "max": attackers},
		"load_seconds":     map[string]any{"value": seconds, "min": seconds, "max": seconds},
	}
	for name, g := range groups {
		tag := "phase:run"
		if name != "all" {
			tag = "role:" + name
		}
		th := func(expr string) map[string]any {
			return map[string]any{"thresholds": map[string]bool{expr: crossed[name+" "+expr]}}
		}
		reqs := th("count>0")
		reqs["count"], reqs["rate"] = g.Requests, g.Requests/(seconds+1)
		m["http_reqs{"+tag+"}"] = reqs
		failed := th("rate<0.001")
		failed["passes"], failed["fails"], failed["value"] = g.Wrong, g.Requests-g.Wrong, g.Wrong/g.Requests
		m["http_req_failed{"+tag+"}"] = failed
		dur := th("max<10000")
		dur["avg"], dur["med"], dur["p(95)"], dur["p(99)"], dur["max"], dur["count"] = g.P50, g.P50, g.P95, g.P99, g.Max, g.Requests
		m["http_req_duration{"+tag+"}"] = dur
	}
	b, err := json.MarshalIndent(map[string]any{"root_group": map[string]any{}, "metrics": m}, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestReadK6Export(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k6-attack.json")
	honest := group(20, 6)
	honest.Wrong = 3
	k6Export(t, path, 32, 32, 10, map[string]loadkit.Group{"all": group(700, 50), "honest": honest},
		map[string]bool{"honest rate<0.001": true})
	r, err := loadkit.ReadK6Export(path)
	if err != nil {
		t.Fatal(err)
	}
	h := r.Groups["honest"]
	if r.Connections != 32 || r.Attackers != 32 || r.Seconds != 10 || h.Requests != 200 || h.Wrong != 3 || h.RPS != 20 || h.P99 != 6 || r.All().Requests != 7000 {
		t.Fatalf("run %+v, honest %+v", r, h)
	}
	if len(r.Crossed) != 1 || r.Crossed[0] != "http_req_failed{role:honest}: rate<0.001" {
		t.Fatalf("crossed %v", r.Crossed)
	}
	if _, err := loadkit.ReadK6Export(filepath.Join(t.TempDir(), "absent.json")); err == nil {
		t.Error("absent file: no error")
	}
	empty := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(empty, []byte(`{"metrics":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadkit.ReadK6Export(empty); err == nil {
		t.Error("no metrics: no error")
	}
}

// writeSession writes s's runs in the files bench-load.sh writes.
func writeSession(t *testing.T, dir string, s *loadkit.Session) {
	t.Helper()
	rawTxt := fmt.Sprintf("BenchmarkRawEd25519Verify \t1\t%.0f ns/op\nBenchmarkRawEd25519Verify-2 \t1\t%.0f ns/op\n", 1e9/s.Raw[1], 1e9/s.Raw[2])
	write := func(name string, v any) {
		var b []byte
		switch v := v.(type) {
		case string:
			b = []byte(v)
		default:
			var err error
			if b, err = json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("raw.txt", rawTxt)
	for key, r := range s.Runs {
		gen, name, _ := strings.Cut(key, "/")
		if gen == "wrk" {
			a := r.All()
			write("wrk-"+name+".json", map[string]any{"generator": "wrk", "scenario": name, "connections": r.Connections, "seconds": r.Seconds,
				"requests": a.Requests, "wrong": a.Wrong, "p50": a.P50, "p95": a.P95, "p99": a.P99, "max": a.Max,
				"p50Uncorrected": a.P50Uncorrected, "p99Uncorrected": a.P99Uncorrected})
			continue
		}
		k6Export(t, filepath.Join(dir, "k6-"+name+".json"), r.Connections, r.Attackers, r.Seconds, r.Groups, nil)
		write("cpu-k6-"+name+".txt", "150 100\n")
	}
	bursts := s.Admit
	if s.AdmitTwoThreads != nil {
		bursts = append(bursts[:len(bursts):len(bursts)], s.AdmitTwoThreads)
	}
	bursts = append(bursts[:len(bursts):len(bursts)], s.Floor...)
	for _, b := range bursts {
		write(b.Name+".json", b.AdmitResult)
		write("cpu-"+b.Name+".txt", "100 100\n")
		if b.Raw2 > 0 {
			write("raw-"+b.Name+".txt", rawAdmit(b.Raw2))
		}
	}
	if s.Streams != nil {
		write("streamload.json", s.Streams)
	}
	if s.Routes != nil {
		write("routes.json", s.Routes)
	}
}

// TestLoadSessionAndReport goes through the files: a passing session reads
// back as passing and prints one table; without its attack run it fails.
func TestLoadSessionAndReport(t *testing.T) {
	dir := t.TempDir()
	want := passingSession()
	writeSession(t, dir, want)
	s, err := loadkit.LoadSession(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Missing) != 0 || len(s.Runs) != 3 || !s.Runs["k6/replay"].HasCPUTime || s.Runs["k6/replay"].ServerCPU != 1.5 {
		t.Fatalf("session: missing %v, runs %v", s.Missing, s.Runs)
	}
	if len(s.Admit) != 5 || s.Admit[0].Name != "admit-1" || s.Admit[4].Name != "admit-5" || s.Admit[2].Admitted != 9500 || s.Admit[2].ServerCPU != 1 {
		t.Fatalf("admit bursts %+v", s.Admit)
	}
	var out strings.Builder
	rows := loadkit.Report(&out, s)
	if !loadkit.Passed(rows) {
		t.Fatalf("failed:\n%s", out.String())
	}
	for _, w := range []string{"raw crypto/ed25519.Verify in this run: 20000/s on one core, 40000/s on two",
		"2.050 × 1-core raw", "every target met, every check passed", "k6 replay          all",
		"load admit-1       all", "admitted 9500 of 9500; 2c raw 40000/s of raw-admit-1.txt", "0.525 [0.512–0.550] × burst's 2-core raw"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("report lacks %q:\n%s", w, out.String())
		}
	}

	if err := os.Remove(filepath.Join(dir, "k6-attack.json")); err != nil {
		t.Fatal(err)
	}
	s, err = loadkit.LoadSession(dir)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	rows = loadkit.Report(&out, s)
	if loadkit.Passed(rows) || !strings.Contains(out.String(), "1 target(s) or check(s) NOT MET") {
		t.Fatalf("a session without its attack run passed:\n%s", out.String())
	}
	if r := findRow(t, rows, "honest co-signer p99 under 32 expensive connections"); !strings.Contains(r.Measured, "no result") {
		t.Errorf("row %+v", r)
	}
	if _, err := loadkit.LoadSession(t.TempDir()); err == nil {
		t.Error("a directory without raw.txt: no error")
	}

	// wrk's bursts and replays read back with their generator and their
	// percentiles before wrk's correction.
	dir = t.TempDir()
	want = passingSession()
	wrkBursts(want)
	replay := group(41000, 8)
	replay.P50Uncorrected, replay.P99Uncorrected = 0.05, 6.5
	want.Runs["wrk/replay"] = &loadkit.Run{Name: "replay", Generator: "wrk", Connections: 64, Seconds: 10, Groups: map[string]loadkit.Group{"all": replay}}
	// Two wrk threads' replays, read against the one-core rate like the others.
	want.Runs["wrk/replay-t2"] = &loadkit.Run{Name: "replay-t2", Generator: "wrk", Connections: 64, Seconds: 10, Groups: map[string]loadkit.Group{"all": group(39000, 15)}}
	// The two-thread burst reads back beside the deciding bursts, not among them.
	want.AdmitTwoThreads = twoThreadBurst()
	writeSession(t, dir, want)
	if s, err = loadkit.LoadSession(dir); err != nil {
		t.Fatal(err)
	}
	if b := s.Admit[0]; b.Generator != "wrk" || b.Threads != 1 || b.P99Uncorrected != 12 {
		t.Fatalf("wrk burst %+v", b)
	}
	if b := s.AdmitTwoThreads; len(s.Admit) != 5 || b == nil || b.Name != "admit2t" || b.Threads != 2 || b.P99Uncorrected != 24 || b.ServerCPU != 1 {
		t.Fatalf("bursts %+v, two-thread burst %+v", s.Admit, b)
	}
	if _, ok := s.Runs["wrk/replay-t2"]; !ok || len(s.Missing) != 0 {
		t.Fatalf("runs %v, missing %v", s.Runs, s.Missing)
	}
	out.Reset()
	rows = loadkit.Report(&out, s)
	if !loadkit.Passed(rows) {
		t.Fatalf("failed:\n%s", out.String())
	}
	for _, w := range []string{"wrk admit-1        all", "p99 8.00 ms (p50 2.00); uncorrected p99 6.50 (p50 0.05)",
		"wrk replay-t2      all", "1.950×1c", "wrk admit2t        all", "0.250×2c", "wrk admit (1 thread) ×5", "wrk admit (2 threads)"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("report lacks %q:\n%s", w, out.String())
		}
	}

	// A two-thread burst that left no figures is shown as such, and still
	// decides nothing.
	if err := os.WriteFile(filepath.Join(dir, "admit2t.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err = loadkit.LoadSession(dir); err != nil {
		t.Fatal(err)
	}
	rows = loadkit.Evaluate(s)
	if r := findRow(t, rows, strings.TrimSpace(loadkit.NewSignersTwoThreadsWhat)); s.AdmitTwoThreads != nil || r.Verdict != loadkit.Info ||
		!strings.HasPrefix(r.Measured, "no result: loadkit: admit2t.json: ") || !loadkit.Passed(rows) {
		t.Fatalf("unreadable two-thread burst: %+v", r)
	}
}

// floorBurst is the floor burst bench-load.sh sends right after admit-n:
// wrk's summary of admit.lua against `load floor`, which counts no
// admitted signers.
func floorBurst(n int, rps float64) *loadkit.AdmitBurst {
	b := admitBurst(n, rps, 5)
	b.Name, b.Generator, b.Threads, b.Admitted = fmt.Sprintf("floor-%d", n), "wrk", 1, -1
	return b
}

// TestFloorRows: the floor bursts read back from their files, show their
// median ratio to their own raw rates and each relay burst as a share of
// the floor burst of the same N, decide nothing, and leave out a floor
// burst with a wrong answer (with its pair).
func TestFloorRows(t *testing.T) {
	s := passingSession()
	wrkBursts(s)
	// Relay bursts 21000, 20500, 22000, 20800, 21500 against floors of
	// 30000 to 35000: shares 0.70, 0.66, 0.69, 0.65, 0.65.
	for i, rps := range []float64{30000, 31000, 32000, 32000, 33000} {
		s.Floor = append(s.Floor, floorBurst(i+1, rps))
	}
	s.Floor[4].Raw2 = 50000 // its own raw rate: 0.660 × raw
	dir := t.TempDir()
	writeSession(t, dir, s)
	s, err := loadkit.LoadSession(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Floor) != 5 || s.Floor[0].Name != "floor-1" || s.Floor[4].Raw2 != 50000 || len(s.Admit) != 5 {
		t.Fatalf("floor bursts %+v, admit %d", s.Floor, len(s.Admit))
	}
	var out strings.Builder
	rows := loadkit.Report(&out, s)
	if !loadkit.Passed(rows) {
		t.Fatalf("the floor rows decided something:\n%s", out.String())
	}
	floor := findRow(t, rows, strings.TrimSpace(loadkit.FloorWhat))
	// Ratios 0.750, 0.775, 0.800, 0.800 and 33000/50000 = 0.660.
	if floor.Verdict != loadkit.Info || floor.Ratio != "0.775 [0.660–0.800] × burst's 2-core raw" || !strings.Contains(floor.Measured, "32000/s [30000–33000]") {
		t.Errorf("floor row %+v", floor)
	}
	share := findRow(t, rows, strings.TrimSpace(loadkit.FloorShareWhat))
	// 21000/30000, 20500/31000, 22000/32000, 20800/32000, 21500/33000;
	// the target, 0.5 × raw, is 0.5/0.775 = 0.65 of the median floor.
	if share.Verdict != loadkit.Info || share.Ratio != "0.66 [0.65–0.70] × floor" || !strings.Contains(share.Measured, "5 pairs; 0.5 × burst's 2-core raw is 0.65 × the median floor") {
		t.Errorf("share row %+v", share)
	}
	if !strings.Contains(out.String(), "wrk floor-1") || !strings.Contains(out.String(), "0 wrong of 9500 (the floor: no relay)") {
		t.Errorf("report lacks the floor bursts:\n%s", out.String())
	}

	// A floor burst with a wrong answer is left out, and so is its pair.
	s.Floor[1].Wrong = 3
	rows = loadkit.Evaluate(s)
	floor = findRow(t, rows, strings.TrimSpace(loadkit.FloorWhat))
	share = findRow(t, rows, strings.TrimSpace(loadkit.FloorShareWhat))
	if !strings.Contains(floor.Measured, "[left out: floor-2: 3 answers not 200]") || floor.Source != "wrk floor (1 thread) ×4" || !strings.HasPrefix(share.Measured, "4 pairs") {
		t.Errorf("with a wrong floor answer: %+v / %+v", floor, share)
	}
	// Without floor bursts (no wrk) there are no floor rows.
	s.Floor = nil
	for _, r := range loadkit.Evaluate(s) {
		if strings.Contains(r.What, "floor") {
			t.Errorf("floor row without floor bursts: %+v", r)
		}
	}
}
