package loadkit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The targets of issues 16 and 27, read in one `make bench-load` run on
// the two-core machine. Throughputs are ratios to the raw
// crypto/ed25519.Verify rates measured in the same run
// (BenchmarkRawEd25519Verify at -cpu 1,2 at its start, and again before
// and after each new-signer burst).
const (
	// New signers: bursts on fresh relays in which every request adds a
	// signer its plan did not have (`closerelaylab load admit`), as counted
	// by the relay. Each burst's rate is read against the two-core raw rate
	// read around it, and the median of those ratios decides.
	TargetNewSignersRatio = 0.5  // × the two-core raw rate
	TargetNewSignersP99   = 20.0 // ms, sign requests during the burst
	// MinAdmitBursts is the fewest bursts that decide the new-signer rows:
	// one burst of 9,500 lasts under a second here.
	MinAdmitBursts    = 3
	TargetReplayRatio = 2.0  // replays on one plan, × the one-core raw rate
	TargetReplayP99   = 10.0 // ms, replays at TargetConnections
	TargetConnections = 64
	TargetFanOutP99   = 3.0  // ms, one change to 50 subscribers (the fan-out spread)
	TargetIdleKiB     = 12.0 // KiB of relay RSS per idle stream
	TargetIdleStreams = 5000 // streams open when the idle memory is read
	TargetHonestP99   = 10.0 // ms, the honest co-signer under TargetAttackers
	TargetAttackers   = 32   // connections of expensive invalid partials
)

// Group is one group of requests of an HTTP run: the whole run, or one role
// of the attack (attacker, honest, other). Latencies are in milliseconds.
type Group struct {
	Requests float64 `json:"requests"`
	Wrong    float64 `json:"wrong"` // answers other than the kind's expected status, or none
	RPS      float64 `json:"rps"`
	P50      float64 `json:"p50"`
	P95      float64 `json:"p95"`
	P99      float64 `json:"p99"`
	Max      float64 `json:"max"`
	// P50Uncorrected and P99Uncorrected are wrk's percentiles before its
	// correction for coordinated omission (loadkit/wrk/latency.lua); zero
	// for k6, which does not correct.
	P50Uncorrected float64 `json:"p50Uncorrected,omitempty"`
	P99Uncorrected float64 `json:"p99Uncorrected,omitempty"`
}

// WrongShare is the share of the group's answers that were wrong; 1 when
// it sent nothing.
func (g Group) WrongShare() float64 {
	if g.Requests == 0 {
		return 1
	}
	return g.Wrong / g.Requests
}

// Run is one HTTP load run (k6 or wrk) of a bench-load session.
type Run struct {
	Name        string // scenario: replay, fresh, attack, …
	Generator   string // k6 or wrk
	Connections int
	Attackers   int
	Seconds     float64
	Groups      map[string]Group // "all", and the attack's roles
	// Crossed lists the k6 thresholds the run crossed ("metric: expression").
	Crossed    []string
	ServerCPU  float64 // seconds of the relay's CPU time during the run
	HasCPUTime bool
}

// All is the whole run's group.
func (r *Run) All() Group { return r.Groups["all"] }

// k6Metric is one metric of k6's --summary-export (its legacy JSON summary):
// numbers by statistic, and thresholds by expression, true when crossed.
type k6Metric struct {
	values     map[string]float64
	thresholds map[string]bool
}

// ReadK6Export reads the file `k6 run --summary-export` wrote for one run of
// loadkit/k6/sign.js: the requests tagged phase=run, each role of the attack,
// the load_* gauges and the thresholds crossed.
func ReadK6Export(path string) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw struct {
		Metrics map[string]map[string]json.RawMessage `json:"metrics"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("loadkit: %s: %w", path, err)
	}
	if len(raw.Metrics) == 0 {
		return nil, fmt.Errorf("loadkit: %s: no metrics", path)
	}
	metrics := map[string]k6Metric{}
	for name, fields := range raw.Metrics {
		m := k6Metric{values: map[string]float64{}}
		for k, v := range fields {
			if k == "thresholds" {
				if err := json.Unmarshal(v, &m.thresholds); err != nil {
					return nil, fmt.Errorf("loadkit: %s: %s thresholds: %w", path, name, err)
				}
				continue
			}
			var f float64
			if json.Unmarshal(v, &f) == nil {
				m.values[k] = f
			}
		}
		metrics[name] = m
	}
	run := &Run{Generator: "k6", Groups: map[string]Group{}}
	run.Connections = int(metrics["load_connections"].values["value"])
	run.Attackers = int(metrics["load_attackers"].values["value"])
	run.Seconds = metrics["load_seconds"].values["value"]
	group := func(tag string) (Group, bool) {
		reqs, ok := metrics["http_reqs{"+tag+"}"]
		if !ok {
			return Group{}, false
		}
		d := metrics["http_req_duration{"+tag+"}"].values
		g := Group{Requests: reqs.values["count"], P50: d["med"], P95: d["p(95)"], P99: d["p(99)"], Max: d["max"]}
		// A rate metric's "passes" are its true samples: failed requests.
		if f, ok := metrics["http_req_failed{"+tag+"}"]; ok {
			g.Wrong = f.values["passes"]
		} else {
			g.Wrong = g.Requests // not checked: count none as right
		}
		if run.Seconds > 0 {
			g.RPS = g.Requests / run.Seconds
		} else {
			g.RPS = reqs.values["rate"]
		}
		return g, true
	}
	if g, ok := group("phase:run"); ok {
		run.Groups["all"] = g
	}
	for _, role := range []string{"attacker", "honest", "other"} {
		if g, ok := group("role:" + role); ok {
			run.Groups[role] = g
		}
	}
	for name, m := range metrics {
		for expr, crossed := range m.thresholds {
			if crossed {
				run.Crossed = append(run.Crossed, name+": "+expr)
			}
		}
	}
	sort.Strings(run.Crossed)
	return run, nil
}

// wrkResult is what loadkit/wrk/sign.lua writes to SUMMARY_JSON.
type wrkResult struct {
	Generator   string  `json:"generator"`
	Scenario    string  `json:"scenario"`
	Connections int     `json:"connections"`
	Seconds     float64 `json:"seconds"`
	Requests    float64 `json:"requests"`
	Wrong       float64 `json:"wrong"`
	P50         float64 `json:"p50"`
	P95         float64 `json:"p95"`
	P99         float64 `json:"p99"`
	Max         float64 `json:"max"`
	// Absent from summaries written before loadkit/wrk/latency.lua.
	P50Uncorrected float64 `json:"p50Uncorrected"`
	P99Uncorrected float64 `json:"p99Uncorrected"`
}

// ReadWrk reads one wrk run's SUMMARY_JSON.
func ReadWrk(path string) (*Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var w wrkResult
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("loadkit: %s: %w", path, err)
	}
	if w.Seconds <= 0 {
		return nil, fmt.Errorf("loadkit: %s: no duration", path)
	}
	return &Run{Name: w.Scenario, Generator: "wrk", Connections: w.Connections, Seconds: w.Seconds, Groups: map[string]Group{
		"all": {Requests: w.Requests, Wrong: w.Wrong, RPS: w.Requests / w.Seconds, P50: w.P50, P95: w.P95, P99: w.P99, Max: w.Max,
			P50Uncorrected: w.P50Uncorrected, P99Uncorrected: w.P99Uncorrected},
	}}, nil
}

// StreamFigures is the part of cmd/streamload's -json output the verdicts
// read.
type StreamFigures struct {
	Plans              int    `json:"plans"`
	SubscribersPerPlan int    `json:"subscribersPerPlan"`
	StreamsRequested   int    `json:"streamsRequested"`
	StreamsAttempted   int    `json:"streamsAttempted"`
	StreamsOpen        int    `json:"streamsOpen"`
	Capped             string `json:"capped"`
	Signing            struct {
		Sent    int `json:"sent"`
		Failed  int `json:"failed"`
		Changed int `json:"changed"`
	} `json:"signing"`
	Events struct {
		Expected int `json:"expected"`
		Received int `json:"received"`
		Skipped  int `json:"skipped"`
		Lost     int `json:"lost"`
	} `json:"events"`
	Delivery StreamLatency `json:"deliveryLatencyMs"`
	FanOut   StreamLatency `json:"fanOutSpreadMs"`
	Server   struct {
		KiBPerStream float64 `json:"kibPerStream"`
	} `json:"server"`
	Errors []struct {
		Kind  string `json:"kind"`
		Count int    `json:"count"`
	} `json:"errors"`
	Error string `json:"error"`
}

// StreamLatency is a latency of the stream load, in milliseconds.
type StreamLatency struct {
	Samples int     `json:"samples"`
	P50     float64 `json:"p50"`
	P99     float64 `json:"p99"`
	Max     float64 `json:"max"`
}

// ReadStreams reads cmd/streamload's -json output.
func ReadStreams(path string) (*StreamFigures, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s StreamFigures
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("loadkit: %s: %w", path, err)
	}
	return &s, nil
}

// ReadRoutes reads `closerelaylab load routes --json` output.
func ReadRoutes(path string) (*RoutesResult, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r RoutesResult
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("loadkit: %s: %w", path, err)
	}
	return &r, nil
}

// RawRates reads `go test -bench BenchmarkRawEd25519Verify -cpu 1,2` output
// and returns verifications per second by GOMAXPROCS (1 for the line
// without a -N suffix). Both rates must be there: a session's throughputs
// are read against both.
func RawRates(r io.Reader) (map[int]float64, error) { return rawRates(r, 1, 2) }

// rawRates is RawRates for output that must hold a rate at each of procs
// (the raw rate taken before a new-signer burst is run at -cpu 2 only).
func rawRates(r io.Reader, procs ...int) (map[int]float64, error) {
	rates := map[int]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "BenchmarkRawEd25519Verify") || f[3] != "ns/op" {
			continue
		}
		ns, err := strconv.ParseFloat(f[2], 64)
		if err != nil || ns <= 0 {
			return nil, fmt.Errorf("loadkit: bad benchmark line %q", sc.Text())
		}
		n := 1
		if i := strings.LastIndexByte(f[0], '-'); i >= 0 {
			if v, err := strconv.Atoi(f[0][i+1:]); err == nil {
				n = v
			}
		}
		rates[n] = 1e9 / ns
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, n := range procs {
		if rates[n] == 0 {
			return nil, fmt.Errorf("loadkit: no BenchmarkRawEd25519Verify result at -cpu %d", n)
		}
	}
	return rates, nil
}

// rawReading is one `-cpu 1,2` run of BenchmarkRawEd25519Verify:
// verifications per second on one core and on two.
type rawReading struct{ one, two float64 }

// quiet reports whether the reading was taken on two free cores, as
// quietRow's check of the start's rates.
func (r rawReading) quiet() bool { return r.two >= MinRawScaling*r.one }

// burstRaw reads a burst's raw file: the `-cpu 1,2` readings taken before
// and after it, in order. It returns the highest two-core rate among the
// quiet readings. Other work on the host only ever lowers a reading, so the
// highest is the closest to what the cores could do around the burst, and
// the burst's ratio to it the least kind; a reading whose two-core rate is
// under MinRawScaling × its one-core rate was taken while something else
// held a core, and would flatter the burst. It fails when the file holds no
// reading or only busy ones (the burst is then read against the run's
// start rate). A two-core line without its one-core line (a file of an
// older kit, `-cpu 2` only) is a reading whose quiet cannot be told, and
// counts.
func burstRaw(r io.Reader) (float64, error) {
	var readings []rawReading
	one := 0.0
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 && f[0] == "goos:" {
			one = 0 // a run's first line: a one-core rate before it is another reading's
			continue
		}
		if len(f) < 4 || !strings.HasPrefix(f[0], "BenchmarkRawEd25519Verify") || f[3] != "ns/op" {
			continue
		}
		ns, err := strconv.ParseFloat(f[2], 64)
		if err != nil || ns <= 0 {
			return 0, fmt.Errorf("loadkit: bad benchmark line %q", sc.Text())
		}
		if !strings.HasSuffix(f[0], "-2") {
			one = 1e9 / ns
			continue
		}
		readings = append(readings, rawReading{one: one, two: 1e9 / ns})
		one = 0
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	best := 0.0
	var busy []string
	for _, rd := range readings {
		if rd.one > 0 && !rd.quiet() {
			busy = append(busy, fmt.Sprintf("2-core %.0f/s = %.2f × 1-core %.0f/s", rd.two, rd.two/rd.one, rd.one))
			continue
		}
		best = max(best, rd.two)
	}
	switch {
	case len(readings) == 0:
		return 0, errors.New("loadkit: no BenchmarkRawEd25519Verify result at -cpu 2")
	case best == 0:
		return 0, fmt.Errorf("loadkit: every reading taken on a busy machine (%s)", strings.Join(busy, "; "))
	}
	return best, nil
}

// readRaw reads a file of BenchmarkRawEd25519Verify output that must hold a
// rate at each of procs.
func readRaw(path string, procs ...int) (map[int]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return rawRates(f, procs...)
}

// Session is everything one bench-load run measured. A nil field, or a run
// absent from Runs, was not measured; Missing says why.
type Session struct {
	// Raw holds the verifications per second at GOMAXPROCS 1 and 2 taken at
	// the start of the run (raw.txt), which every throughput but the
	// new-signer bursts' is read against.
	Raw     map[int]float64
	Runs    map[string]*Run // by "GENERATOR/SCENARIO": k6/replay, wrk/fresh, …
	Streams *StreamFigures
	Routes  *RoutesResult
	// Admit holds the new-signer bursts (admit-N.json), each on a fresh
	// relay, in N's order.
	Admit []*AdmitBurst
	// AdmitTwoThreads is the one burst from two wrk threads (admit2t.json),
	// shown beside the deciding bursts and never deciding; nil when it was
	// not run (no wrk).
	AdmitTwoThreads *AdmitBurst
	// Floor holds the floor bursts (floor-N.json): the burst admit-N sent
	// again right after it, to `closerelaylab load floor` (HTTP and one
	// verification, no relay), in N's order. Shown, never deciding.
	Floor   []*AdmitBurst
	Missing map[string]string
}

// AdmitBurst is one burst of `closerelaylab load admit`, the relay's CPU
// time during it and the two-core raw rate taken just before it.
type AdmitBurst struct {
	AdmitResult
	Name       string // admit-N, or admit2t
	ServerCPU  float64
	HasCPUTime bool
	// Raw2 is the two-core raw rate read around the burst, its server
	// ready and idle: the highest of the quiet readings taken before and
	// after it (raw-NAME.txt, burstRaw), which the burst's ratio is read
	// against: a burst lasts under a second, minutes after raw.txt, and the
	// shared host's raw rate drifts over minutes (31,000 to 39,000 a second
	// on two cores), which a ratio to raw.txt's would count as the relay's.
	// 0 when the file is absent or unreadable (RawErr says why): the burst
	// is then read against the run's start raw rate, and the table says so.
	Raw2   float64
	RawErr string
}

// raw2 is the two-core raw rate b is read against: its own, else start,
// the run's start rate.
func (b *AdmitBurst) raw2(start float64) float64 {
	if b.Raw2 > 0 {
		return b.Raw2
	}
	return start
}

// rawMissing says why b has no raw rate of its own.
func (b *AdmitBurst) rawMissing() string {
	if b.RawErr != "" {
		return b.RawErr
	}
	return "no raw-" + b.Name + ".txt"
}

// rawFile names the file of b.raw2's rate.
func (b *AdmitBurst) rawFile() string {
	if b.Raw2 > 0 {
		return "raw-" + b.Name + ".txt"
	}
	return "raw.txt"
}

// The files of a session directory, as bench-load.sh writes them.
var (
	requiredRuns = []string{"k6/replay", "k6/fresh", "k6/attack"}
	optionalRuns = []string{"wrk/replay", "wrk/replay-t2", "wrk/fresh", "k6/attack-quiet", "k6/admit", "k6/mix"}
)

// LoadSession reads a bench-load directory: raw.txt, k6-NAME.json (k6's
// --summary-export), wrk-NAME.json, cpu-GEN-NAME.txt ("TICKS CLK_TCK": the
// relay's CPU time during the run), admit-N.json and admit2t.json with their
// cpu-admit-N.txt and cpu-admit2t.txt and the raw rates read before and
// after them (raw-admit-N.txt, raw-admit2t.txt: -cpu 1,2 each time), the
// floor bursts floor-N.json with theirs (cpu-floor-N.txt, raw-floor-N.txt),
// routes.json and streamload.json. Files that are absent or unreadable are recorded in
// Missing, never an error: the verdicts count them as targets not met; a
// burst without its raw rate is read against raw.txt's (AdmitBurst.RawErr).
// Only raw.txt is required.
func LoadSession(dir string) (*Session, error) {
	raw, err := readRaw(filepath.Join(dir, "raw.txt"), 1, 2)
	if err != nil {
		return nil, err
	}
	s := &Session{Raw: raw, Runs: map[string]*Run{}, Missing: map[string]string{}}
	for _, key := range append(append([]string{}, requiredRuns...), optionalRuns...) {
		gen, name, _ := strings.Cut(key, "/")
		path := filepath.Join(dir, gen+"-"+name+".json")
		var r *Run
		if gen == "wrk" {
			r, err = ReadWrk(path)
		} else {
			r, err = ReadK6Export(path)
		}
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) || slices.Contains(requiredRuns, key) {
				s.Missing[key] = err.Error()
			}
			continue
		}
		r.Name = name
		r.ServerCPU, r.HasCPUTime = readCPU(filepath.Join(dir, "cpu-"+gen+"-"+name+".txt"))
		s.Runs[key] = r
	}
	s.Admit = readBursts(dir, "admit", s.Missing)
	s.Floor = readBursts(dir, "floor", s.Missing)
	// Not an admit-N.json, so that the glob above never counts it among
	// the deciding bursts.
	if a, err := readBurst(dir, "admit2t"); err == nil {
		s.AdmitTwoThreads = a
	} else if !errors.Is(err, fs.ErrNotExist) {
		s.Missing["admit2t"] = err.Error()
	}
	if st, err := ReadStreams(filepath.Join(dir, "streamload.json")); err == nil {
		s.Streams = st
	} else {
		s.Missing["streamload"] = err.Error()
	}
	if rt, err := ReadRoutes(filepath.Join(dir, "routes.json")); err == nil {
		s.Routes = rt
	} else {
		s.Missing["routes"] = err.Error()
	}
	return s, nil
}

// readBursts reads the bursts KIND-N.json of dir in N's order; one that
// does not read is recorded in missing.
func readBursts(dir, kind string, missing map[string]string) []*AdmitBurst {
	paths, _ := filepath.Glob(filepath.Join(dir, kind+"-*.json"))
	sort.Slice(paths, func(i, j int) bool { return burstNumber(paths[i]) < burstNumber(paths[j]) })
	var out []*AdmitBurst
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		a, err := readBurst(dir, name)
		if err != nil {
			missing[name] = err.Error()
			continue
		}
		out = append(out, a)
	}
	return out
}

// readBurst reads the burst NAME.json of dir, its server's CPU time during
// it (cpu-NAME.txt) and the two-core raw rate read around it (raw-NAME.txt,
// burstRaw).
func readBurst(dir, name string) (*AdmitBurst, error) {
	b, err := os.ReadFile(filepath.Join(dir, name+".json"))
	if err != nil {
		return nil, err
	}
	a := &AdmitBurst{Name: name}
	if err := json.Unmarshal(b, &a.AdmitResult); err != nil {
		return nil, fmt.Errorf("loadkit: %s.json: %w", name, err)
	}
	a.ServerCPU, a.HasCPUTime = readCPU(filepath.Join(dir, "cpu-"+name+".txt"))
	rawName := "raw-" + name + ".txt"
	f, err := os.Open(filepath.Join(dir, rawName))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			a.RawErr = rawName + " absent"
		} else {
			a.RawErr = rawName + ": " + err.Error()
		}
		return a, nil
	}
	defer f.Close()
	if a.Raw2, err = burstRaw(f); err != nil {
		a.RawErr = rawName + ": " + err.Error()
	}
	return a, nil
}

// readCPU reads a cpu-*.txt file: "TICKS CLK_TCK", the relay's CPU time
// during a run.
func readCPU(path string) (float64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	var ticks, hz float64
	if n, _ := fmt.Sscan(string(b), &ticks, &hz); n == 2 && hz > 0 {
		return ticks / hz, true
	}
	return 0, false
}

// burstNumber is N of a path ending in KIND-N.json (0 if none).
func burstNumber(path string) int {
	base := strings.TrimSuffix(filepath.Base(path), ".json")
	n, _ := strconv.Atoi(base[strings.LastIndexByte(base, '-')+1:])
	return n
}

// Verdict is a row's outcome.
type Verdict int

const (
	Met    Verdict = iota
	NotMet         // a target not met, or a check failed: bench-load exits non-zero
	Info           // shown for comparison; decides nothing
)

func (v Verdict) String() string {
	switch v {
	case Met:
		return "met"
	case NotMet:
		return "NOT MET"
	}
	return "info"
}

// Row is one line of the verdict table.
type Row struct {
	Check    bool   // a correctness check rather than one of the targets
	What     string // the target or check
	Source   string // the run it is read from
	Measured string
	Ratio    string // to the raw rate, for throughputs
	Bound    string
	Verdict  Verdict
}

// Evaluate decides every target and check of a session. The replay and
// fresh throughputs are decided by wrk's run when there is one (a lighter
// generator, so less of the two cores goes to making load; bench-load.sh
// runs it with one thread) and by k6's otherwise; the other generator's row
// is Info, and so are the replays and the new-signer burst from two wrk
// threads. A target read from a run whose answers were wrong is not met,
// whatever its figure.
func Evaluate(s *Session) []Row {
	one, two := s.Raw[1], s.Raw[2]
	var rows []Row

	rows = append(rows, newSignerRows(s.Admit, unreadBursts(s.Missing), two)...)
	rows = append(rows, floorRows(s.Floor, s.Admit, two)...)
	// The same burst from two wrk threads instead of one: what the
	// generator's second thread, competing with the relay for the two
	// cores, costs the rate and the tail.
	if b := s.AdmitTwoThreads; b != nil {
		note, invalid := "", ""
		if b.P99Uncorrected > 0 {
			note = fmt.Sprintf(" (uncorrected %.2f)", b.P99Uncorrected)
		}
		if why := burstProblem(b); why != "" {
			invalid = " [INVALID: " + why + "]"
		}
		// Read like a deciding burst: against its own raw rate.
		ratio := fmt.Sprintf("%.3f × burst's 2-core raw", b.RPS/b.raw2(two))
		if b.Raw2 == 0 {
			ratio = fmt.Sprintf("%.3f × start 2-core raw", b.RPS/two)
			note += "; read against the run's start raw rate (" + b.rawMissing() + ")"
		}
		rows = append(rows, Row{What: NewSignersTwoThreadsWhat, Source: admitSource(b.Generator, b.Threads),
			Measured: fmt.Sprintf("%.0f/s at %d connections, p99 %.2f ms%s; admitted/requests %.0f/%d%s",
				b.RPS, b.Connections, b.P99, note, b.Admitted, b.Requests, invalid),
			Ratio: ratio, Verdict: Info})
	} else if why, ok := s.Missing["admit2t"]; ok {
		rows = append(rows, Row{What: NewSignersTwoThreadsWhat, Source: "wrk admit", Measured: "no result: " + why, Verdict: Info})
	}

	// ratio 0: the row is shown for what it measures and decides nothing.
	throughput := func(name, what string, base float64, baseName string, ratio float64, p99 bool) {
		deciding := "k6/" + name
		if _, ok := s.Runs["wrk/"+name]; ok {
			deciding = "wrk/" + name
		}
		for _, key := range []string{"wrk/" + name, "k6/" + name} {
			r, ok := s.Runs[key]
			if !ok {
				if key == deciding {
					rows = append(rows, missingRow(what, key, s.Missing[key]))
				}
				continue
			}
			verdict := func(met bool) Verdict {
				if key != deciding || (ratio == 0 && !p99) {
					return Info
				}
				if met {
					return Met
				}
				return NotMet
			}
			a := r.All()
			valid, why := runValid(r)
			src := strings.Replace(key, "/", " ", 1)
			conn := r.Connections == TargetConnections
			bound := fmt.Sprintf("≥ %g × %s", ratio, baseName)
			if ratio == 0 {
				bound = ""
			}
			rows = append(rows, Row{What: what, Source: src,
				Measured: fmt.Sprintf("%.0f/s at %d connections%s", a.RPS, r.Connections, why),
				Ratio:    fmt.Sprintf("%.3f × %s", a.RPS/base, baseName),
				Bound:    bound,
				Verdict:  verdict(valid && conn && a.RPS >= ratio*base)})
			if p99 {
				rows = append(rows, Row{What: fmt.Sprintf("  replays p99 at %d connections", TargetConnections), Source: src,
					Measured: fmt.Sprintf("p99 %.2f ms (p50 %.2f)%s%s", a.P99, a.P50, uncorrectedNote(a), why),
					Bound:    fmt.Sprintf("< %g ms", TargetReplayP99),
					Verdict:  verdict(valid && conn && a.P99 < TargetReplayP99)})
			}
		}
	}
	// The publisher's alternative signatures: one verification each of a
	// signer the plan already holds, no merge, no version. Not new signers.
	throughput("fresh", FreshWhat, two, "2-core raw", 0, false)
	throughput("replay", "replays on one plan", one, "1-core raw", TargetReplayRatio, true)
	// The same replays from two wrk threads instead of one: the share of
	// the tail that is the generator's second thread on the relay's two
	// cores.
	if r, ok := s.Runs["wrk/replay-t2"]; ok {
		a := r.All()
		_, why := runValid(r)
		rows = append(rows, Row{What: ReplayTwoThreadsWhat, Source: "wrk replay-t2",
			Measured: fmt.Sprintf("%.0f/s, p99 %.2f ms (p50 %.2f)%s at %d connections%s", a.RPS, a.P99, a.P50, uncorrectedNote(a), r.Connections, why),
			Ratio:    fmt.Sprintf("%.3f × 1-core raw", a.RPS/one), Verdict: Info})
	}

	// The honest co-signer under attack.
	const honestWhat = "honest co-signer p99 under 32 expensive connections"
	if r, ok := s.Runs["k6/attack"]; ok {
		h, has := r.Groups["honest"]
		valid, why := runValid(r)
		met := valid && has && h.Requests > 0 && r.Attackers == TargetAttackers && h.P99 < TargetHonestP99
		measured := fmt.Sprintf("p99 %.2f ms (p50 %.2f) with %d attackers%s", h.P99, h.P50, r.Attackers, why)
		if q, ok := s.Runs["k6/attack-quiet"]; ok {
			measured += fmt.Sprintf("; quiet p99 %.2f ms", q.Groups["honest"].P99)
		}
		rows = append(rows, Row{What: honestWhat, Source: "k6 attack", Measured: measured, Bound: fmt.Sprintf("< %g ms", TargetHonestP99), Verdict: metIf(met)})
		if o, ok := r.Groups["other"]; ok {
			rows = append(rows, Row{What: "  other plans' p99 under the same attack", Source: "k6 attack", Measured: fmt.Sprintf("p99 %.2f ms (p50 %.2f)", o.P99, o.P50), Verdict: Info})
		}
	} else {
		rows = append(rows, missingRow(honestWhat, "k6/attack", s.Missing["k6/attack"]))
	}

	// Streams.
	const fanWhat, idleWhat = "fan-out of one change to 50 subscribers, p99", "relay memory per idle stream at 5,000 streams"
	if st := s.Streams; st != nil {
		why := ""
		if st.Error != "" {
			why = "; the run failed: " + st.Error
		}
		rows = append(rows, Row{What: fanWhat, Source: "streamload",
			Measured: fmt.Sprintf("p99 %.2f ms (p50 %.2f, max %.1f) over %d deliveries%s", st.FanOut.P99, st.FanOut.P50, st.FanOut.Max, st.FanOut.Samples, why),
			Bound:    fmt.Sprintf("< %g ms", TargetFanOutP99),
			Verdict:  metIf(st.Error == "" && st.FanOut.Samples > 0 && st.FanOut.P99 < TargetFanOutP99)})
		rows = append(rows, Row{What: "  delivery from the sign request, p99", Source: "streamload",
			Measured: fmt.Sprintf("p99 %.2f ms (p50 %.2f)", st.Delivery.P99, st.Delivery.P50), Verdict: Info})
		idleWhy := why
		if st.StreamsOpen < TargetIdleStreams {
			idleWhy += fmt.Sprintf("; only %d streams open", st.StreamsOpen)
		}
		rows = append(rows, Row{What: idleWhat, Source: "streamload",
			Measured: fmt.Sprintf("%.1f KiB at %d streams%s", st.Server.KiBPerStream, st.StreamsOpen, idleWhy),
			Bound:    fmt.Sprintf("≤ %g KiB", TargetIdleKiB),
			Verdict:  metIf(st.Error == "" && st.StreamsOpen >= TargetIdleStreams && st.Server.KiBPerStream > 0 && st.Server.KiBPerStream <= TargetIdleKiB)})
	} else {
		rows = append(rows, missingRow(fanWhat, "streamload", s.Missing["streamload"]), missingRow(idleWhat, "streamload", s.Missing["streamload"]))
	}

	// Checks: the raw rates were taken on a quiet machine. On two free
	// cores the two-core rate is about twice the one-core rate; well under
	// that, something else was running while the ruler was read, and every
	// ratio to it is too kind (or, for the bursts read against their own
	// raw rate, the start-of-run figures are).
	rows = append(rows, quietRow(one, two))

	// Checks: every run answered as it must.
	keys := make([]string, 0, len(s.Runs))
	for k := range s.Runs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		r := s.Runs[key]
		valid, why := runValid(r)
		a := r.All()
		rows = append(rows, Row{Check: true, What: "answers with the expected status", Source: strings.Replace(key, "/", " ", 1),
			Measured: fmt.Sprintf("%.0f wrong of %.0f%s", a.Wrong, a.Requests, why), Bound: "< 1 in 1,000", Verdict: metIf(valid)})
	}
	if rt := s.Routes; rt != nil {
		p := rt.Problems()
		measured := fmt.Sprintf("%d wrong of %d over %d routes, %.0f/s", rt.Unexpected, rt.Requests, len(rt.Routes), rt.RPS)
		if len(p) > 0 {
			measured += "; " + strings.Join(p, "; ")
		}
		rows = append(rows, Row{Check: true, What: "every route answers as it must (mix)", Source: "load routes", Measured: measured, Bound: "< 1 in 1,000 per route", Verdict: metIf(len(p) == 0)})
	} else {
		rows = append(rows, Row{Check: true, What: "every route answers as it must (mix)", Source: "load routes", Measured: "no result: " + s.Missing["routes"], Verdict: NotMet})
	}
	if st := s.Streams; st != nil {
		rows = append(rows, Row{Check: true, What: "every stream opened, every event delivered", Source: "streamload",
			Measured: fmt.Sprintf("%d of %d streams open; %d events lost of %d; %d of %d sign requests failed", st.StreamsOpen, st.StreamsAttempted, st.Events.Lost, st.Events.Expected, st.Signing.Failed, st.Signing.Sent),
			Bound:    "all; 0 lost; 0 failed",
			Verdict:  metIf(st.Error == "" && st.StreamsOpen > 0 && st.StreamsOpen == st.StreamsAttempted && st.Events.Lost == 0 && st.Signing.Failed == 0 && st.Signing.Changed > 0)})
	}
	return rows
}

// MinRawScaling is the least two-core raw rate, as a multiple of the
// one-core rate, that passes for two free cores (about 2 when nothing else
// runs; 2.0-2.1 on the two-core machine the targets were set on).
const MinRawScaling = 1.6

// QuietWhat is the check that the raw rates were taken on two free cores.
const QuietWhat = "the raw rates were taken on two free cores"

// quietRow checks that the two-core raw rate is at least MinRawScaling
// times the one-core rate.
func quietRow(one, two float64) Row {
	row := Row{Check: true, What: QuietWhat, Source: "raw.txt", Bound: fmt.Sprintf("2-core ≥ %g × 1-core", MinRawScaling)}
	if one <= 0 || two <= 0 {
		row.Measured, row.Verdict = "no raw rates", NotMet
		return row
	}
	row.Measured = fmt.Sprintf("2-core %.0f/s = %.2f × 1-core %.0f/s", two, two/one, one)
	row.Verdict = metIf(two >= MinRawScaling*one)
	return row
}

// The rows' names that the tests and BENCHMARKS.md refer to.
const (
	NewSignersWhat    = "new signers admitted (median burst)"
	NewSignersP99What = "sign p99 during the bursts (median)"
	// NewSignersStartRawWhat is shown, never decided: the median burst's
	// rate read against the run's start raw rate rather than each burst's
	// own, so that the host's drift between the two stays in view.
	NewSignersStartRawWhat = "  the same against the run's start raw rate"
	FreshWhat              = "verifications of a known signer (alternative signatures)"
	// ReplayTwoThreadsWhat and NewSignersTwoThreadsWhat are shown, never
	// decided: the deciding replay run and bursts are wrk's with one thread
	// (or k6's and Go's), which drives 64 connections as fast as two while
	// the second thread would take the relay's cores and add its own wait
	// to the tail.
	ReplayTwoThreadsWhat     = "  replays from two wrk threads"
	NewSignersTwoThreadsWhat = "  new signers from two wrk threads (one burst)"
	// FloorWhat and FloorShareWhat are shown, never decided: the same
	// bursts against `closerelaylab load floor`, and the relay's bursts as
	// a share of them.
	FloorWhat      = "  the floor: the same bursts, HTTP and one verification, no relay"
	FloorShareWhat = "  the relay's bursts as a share of the floor beside each (median)"
)

// uncorrectedNote shows wrk's percentiles before its correction for
// coordinated omission, when the run has them.
func uncorrectedNote(g Group) string {
	if g.P99Uncorrected == 0 {
		return ""
	}
	return fmt.Sprintf("; uncorrected p99 %.2f (p50 %.2f)", g.P99Uncorrected, g.P50Uncorrected)
}

// newSignerRows decide the new-signer targets from the admit bursts. Each
// burst's ratio is its rate over the two-core raw rate read around it
// (start, the run's start rate, when it has none: said in the row), since
// the host's raw rate drifts over the minutes between the start of the run
// and a burst under a second long; the median ratio decides, shown with its
// range, beside the median rate and its range. An info row under it reads
// the median rate against start, to show both readings. The p99 row is the
// median burst's p99. A burst counts only when the relay admitted exactly
// as many signers as it was sent requests, every answer was 200 and it ran
// at TargetConnections; the bursts must all come from one generator with
// one thread count, and fewer than MinAdmitBursts such bursts decide
// nothing but NOT MET.
func newSignerRows(bursts []*AdmitBurst, unread []string, start float64) []Row {
	if len(bursts) == 0 {
		return []Row{missingRow(NewSignersWhat, "load/admit", "no admit burst"), missingRow(NewSignersP99What, "load/admit", "no admit burst")}
	}
	var rates, ratios, raws, p99s, raw99s []float64
	var fellBack []string
	why := unread // a burst that left no figures failed: it is not left out
	requests, admitted := 0.0, 0.0
	gen, threads := bursts[0].Generator, bursts[0].Threads
	for _, b := range bursts {
		switch {
		case b.Generator != gen:
			// One generator decides: their figures are not alike (wrk's
			// percentiles are corrected, Go's CPU share is larger).
			why = append(why, fmt.Sprintf("%s: generator %s, not %s", b.Name, b.Generator, gen))
		case b.Threads != threads:
			// Nor are one wrk thread's and two's: the second competes
			// with the relay for its cores and adds to the tail.
			why = append(why, fmt.Sprintf("%s: %d wrk threads, not %d", b.Name, b.Threads, threads))
		}
		requests += float64(b.Requests)
		admitted += b.Admitted
		if p := burstProblem(b); p != "" {
			why = append(why, b.Name+": "+p)
		}
		if b.Raw2 > 0 {
			raws = append(raws, b.Raw2)
		} else {
			fellBack = append(fellBack, b.rawMissing())
		}
		rates = append(rates, b.RPS)
		ratios = append(ratios, b.RPS/b.raw2(start))
		p99s = append(p99s, b.P99)
		raw99s = append(raw99s, b.P99Uncorrected)
	}
	if len(bursts) < MinAdmitBursts {
		why = append(why, fmt.Sprintf("%d burst(s), fewer than %d", len(bursts), MinAdmitBursts))
	}
	valid := len(why) == 0
	suffix := ""
	if !valid {
		suffix = " [INVALID: " + strings.Join(why, "; ") + "]"
	}
	fallback := ""
	if len(fellBack) > 0 {
		fallback = fmt.Sprintf("; %d of %d bursts read against the run's start raw rate (%s)", len(fellBack), len(bursts), strings.Join(fellBack, "; "))
	}
	src := fmt.Sprintf("%s ×%d", admitSource(gen, threads), len(bursts))
	rate, rlo, rhi := medianRange(rates)
	ratio, qlo, qhi := medianRange(ratios)
	p99, plo, phi := medianRange(p99s)
	note := ""
	if raw, _, _ := medianRange(raw99s); raw > 0 {
		note = fmt.Sprintf("; uncorrected %.2f", raw)
	}
	own := "none taken"
	if raw, lo, hi := medianRange(raws); len(raws) > 0 {
		own = fmt.Sprintf("median %.0f/s [%.0f–%.0f]", raw, lo, hi)
	}
	return []Row{
		{What: NewSignersWhat, Source: src,
			Measured: fmt.Sprintf("%.0f/s [%.0f–%.0f] at %d connections; admitted/requests %.0f/%.0f%s%s", rate, rlo, rhi, bursts[0].Connections, admitted, requests, fallback, suffix),
			Ratio:    fmt.Sprintf("%.3f [%.3f–%.3f] × burst's 2-core raw", ratio, qlo, qhi),
			Bound:    fmt.Sprintf("≥ %g × burst's 2-core raw", TargetNewSignersRatio),
			Verdict:  metIf(valid && ratio >= TargetNewSignersRatio)},
		{What: NewSignersStartRawWhat, Source: src,
			Measured: fmt.Sprintf("median %.0f/s against raw.txt's 2-core %.0f/s; the bursts' own: %s", rate, start, own),
			Ratio:    fmt.Sprintf("%.3f × start 2-core raw", rate/start),
			Verdict:  Info},
		{What: "  " + NewSignersP99What, Source: src,
			Measured: fmt.Sprintf("p99 %.2f ms [%.2f–%.2f]%s%s", p99, plo, phi, note, suffix),
			Bound:    fmt.Sprintf("< %g ms", TargetNewSignersP99),
			Verdict:  metIf(valid && p99 < TargetNewSignersP99)},
	}
}

// floorRows show the floor bursts, when the run has them: their median
// rate against each one's own raw rate, and each relay burst's rate as a
// share of the floor burst sent right after it (the same payload, order and
// generator), paired by N, so that the host's drift over the run cancels
// out. Info: the floor decides nothing. Its second row says what share of
// the median floor the new-signer target asks of the relay.
func floorRows(floor, admit []*AdmitBurst, start float64) []Row {
	if len(floor) == 0 {
		return nil
	}
	var rates, ratios, shares []float64
	var why []string
	conns := 0
	for _, f := range floor {
		if p := floorProblem(f); p != "" {
			why = append(why, f.Name+": "+p)
			continue
		}
		conns = f.Connections
		rates = append(rates, f.RPS)
		ratios = append(ratios, f.RPS/f.raw2(start))
		for _, a := range admit {
			if burstNumber(a.Name) == burstNumber(f.Name) && burstProblem(a) == "" && a.RPS > 0 {
				shares = append(shares, a.RPS/f.RPS)
			}
		}
	}
	suffix := ""
	if len(why) > 0 {
		suffix = " [left out: " + strings.Join(why, "; ") + "]"
	}
	src := fmt.Sprintf("wrk floor (1 thread) ×%d", len(rates))
	if len(rates) == 0 {
		return []Row{{What: FloorWhat, Source: "wrk floor", Measured: "no valid floor burst" + suffix, Verdict: Info}}
	}
	rate, rlo, rhi := medianRange(rates)
	ratio, qlo, qhi := medianRange(ratios)
	rows := []Row{{What: FloorWhat, Source: src,
		Ratio:    fmt.Sprintf("%.3f [%.3f–%.3f] × burst's 2-core raw", ratio, qlo, qhi),
		Measured: fmt.Sprintf("%.0f/s [%.0f–%.0f] at %d connections%s", rate, rlo, rhi, conns, suffix),
		Verdict:  Info}}
	if len(shares) > 0 {
		share, slo, shi := medianRange(shares)
		rows = append(rows, Row{What: FloorShareWhat, Source: src,
			Ratio: fmt.Sprintf("%.2f [%.2f–%.2f] × floor", share, slo, shi),
			Measured: fmt.Sprintf("%d pairs; %g × burst's 2-core raw is %.2f × the median floor", len(shares),
				TargetNewSignersRatio, TargetNewSignersRatio/ratio),
			Verdict: Info})
	}
	return rows
}

// floorProblem says why a floor burst did not measure the floor at
// TargetConnections, or "" when it did: every request answered 200.
func floorProblem(b *AdmitBurst) string {
	switch {
	case b.Requests == 0 || b.RPS <= 0:
		return "no requests"
	case b.Wrong > 0:
		return fmt.Sprintf("%d answers not 200", b.Wrong)
	case b.Connections != TargetConnections:
		return fmt.Sprintf("%d connections", b.Connections)
	}
	return ""
}

// burstProblem says why a burst did not measure new signers at
// TargetConnections, or "" when it did.
func burstProblem(b *AdmitBurst) string {
	switch {
	case b.Admitted < 0:
		return "admitted count unread (" + b.MetricsError + ")"
	case b.Admitted != float64(b.Requests):
		return fmt.Sprintf("%.0f admitted of %d requests", b.Admitted, b.Requests)
	case b.Wrong > 0:
		return fmt.Sprintf("%d answers not 200", b.Wrong)
	case b.Connections != TargetConnections:
		return fmt.Sprintf("%d connections", b.Connections)
	}
	return ""
}

// admitSource names the generator of admit bursts as the table's source
// column shows it: "load admit" for closerelaylab's, "wrk admit (N
// threads)" for wrk's (its summary always has them).
func admitSource(generator string, threads int) string {
	switch {
	case generator != "wrk":
		return "load admit"
	case threads <= 0:
		return "wrk admit"
	case threads == 1:
		return "wrk admit (1 thread)"
	}
	return fmt.Sprintf("wrk admit (%d threads)", threads)
}

// unreadBursts lists the admit bursts whose file could not be read.
func unreadBursts(missing map[string]string) []string {
	var out []string
	for name, err := range missing {
		if strings.HasPrefix(name, "admit-") {
			out = append(out, name+": "+err)
		}
	}
	sort.Strings(out)
	return out
}

// medianRange is the median (the mean of the middle two of an even count),
// least and greatest of v.
func medianRange(v []float64) (med, lo, hi float64) {
	if len(v) == 0 {
		return 0, 0, 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	n := len(v)
	med = v[n/2]
	if n%2 == 0 {
		med = (v[n/2-1] + v[n/2]) / 2
	}
	return med, v[0], v[n-1]
}

// runValid says whether a run's answers can be trusted: it sent requests,
// fewer than MaxUnexpected of them (of each role) were wrong, and k6 crossed
// no threshold but the latency ones (which are targets, decided above).
func runValid(r *Run) (bool, string) {
	var why []string
	if len(r.Groups) == 0 || r.All().Requests == 0 {
		why = append(why, "no request sent")
	}
	names := make([]string, 0, len(r.Groups))
	for name := range r.Groups {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if g := r.Groups[name]; g.Requests > 0 && g.WrongShare() > MaxUnexpected {
			why = append(why, fmt.Sprintf("%.1f %% of %s answers wrong", 100*g.WrongShare(), name))
		}
	}
	for _, c := range r.Crossed {
		if !strings.Contains(c, ": p(") {
			why = append(why, "threshold crossed: "+c)
		}
	}
	if len(why) == 0 {
		return true, ""
	}
	return false, " [INVALID: " + strings.Join(why, "; ") + "]"
}

func metIf(ok bool) Verdict {
	if ok {
		return Met
	}
	return NotMet
}

func missingRow(what, key, why string) Row {
	if why == "" {
		why = "not run"
	}
	return Row{What: what, Source: strings.Replace(key, "/", " ", 1), Measured: "no result: " + why, Verdict: NotMet}
}

// Passed reports whether no row is NotMet.
func Passed(rows []Row) bool {
	for _, r := range rows {
		if r.Verdict == NotMet {
			return false
		}
	}
	return true
}

// Report prints a session: the raw rates, each HTTP run's figures, the
// mixed load's routes, then one table of every target and check with its
// verdict. It returns the rows.
func Report(w io.Writer, s *Session) []Row {
	one, two := s.Raw[1], s.Raw[2]
	fmt.Fprintf(w, "raw crypto/ed25519.Verify in this run: %.0f/s on one core, %.0f/s on two (RunParallel)\n\n", one, two)

	fmt.Fprintf(w, "%-18s %-9s %9s %9s %9s %9s %9s %9s %13s %10s\n", "run", "group", "req", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "ratio", "srv µs/req")
	keys := make([]string, 0, len(s.Runs))
	for k := range s.Runs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		r := s.Runs[key]
		names := []string{"all", "attacker", "honest", "other"}
		for _, name := range names {
			g, ok := r.Groups[name]
			if !ok || g.Requests == 0 {
				continue
			}
			ratio, perReq := "-", "-"
			if name == "all" {
				// A throughput run's ratio to its raw rate; an attack's
				// req/s is set by its arrival rates and attackers.
				if r.Name != "attack" && r.Name != "attack-quiet" {
					base, baseName := two, "2c"
					if strings.HasPrefix(r.Name, "replay") { // replay and replay-t2
						base, baseName = one, "1c"
					}
					ratio = fmt.Sprintf("%.3f×%s", g.RPS/base, baseName)
				}
				if r.HasCPUTime {
					perReq = fmt.Sprintf("%.1f", 1e6*r.ServerCPU/g.Requests)
				}
			}
			fmt.Fprintf(w, "%-18s %-9s %9.0f %9.0f %9.2f %9.2f %9.2f %9.1f %13s %10s\n",
				strings.Replace(key, "/", " ", 1), name, g.Requests, g.RPS, g.P50, g.P95, g.P99, g.Max, ratio, perReq)
		}
	}
	bursts := s.Admit
	if s.AdmitTwoThreads != nil {
		bursts = append(slices.Clone(bursts), s.AdmitTwoThreads)
	}
	bursts = append(slices.Clone(bursts), s.Floor...)
	for _, b := range bursts {
		gen := "load"
		if b.Generator == "wrk" {
			gen = "wrk"
		}
		perReq := "-"
		if b.HasCPUTime && b.Requests > 0 {
			perReq = fmt.Sprintf("%.1f", 1e6*b.ServerCPU/float64(b.Requests))
		}
		admitted := fmt.Sprintf("admitted %.0f of %d", b.Admitted, b.Requests)
		switch {
		case strings.HasPrefix(b.Name, "floor-"):
			admitted = fmt.Sprintf("%d wrong of %d (the floor: no relay)", b.Wrong, b.Requests)
		case b.Admitted < 0:
			admitted = fmt.Sprintf("admitted ? of %d", b.Requests)
		}
		// Each burst's ratio is to the raw rate read around it,
		// the one its verdict reads; raw.txt's when it has none.
		rawNote := ""
		if b.Raw2 == 0 {
			rawNote = " (" + b.rawMissing() + ")"
		}
		fmt.Fprintf(w, "%-18s %-9s %9d %9.0f %9.2f %9.2f %9.2f %9.1f %13s %10s  %s; 2c raw %.0f/s of %s%s\n",
			gen+" "+b.Name, "all", b.Requests, b.RPS, b.P50, b.P95, b.P99, b.Max, fmt.Sprintf("%.3f×2c", b.RPS/b.raw2(two)), perReq,
			admitted, b.raw2(two), b.rawFile(), rawNote)
	}
	if rt := s.Routes; rt != nil {
		fmt.Fprintln(w)
		WriteRoutes(w, rt)
	}

	rows := Evaluate(s)
	fmt.Fprintf(w, "\ntargets (issues 16 and 27) and checks, ratios to the raw rates of this run (1-core %.0f/s, 2-core %.0f/s; each new-signer burst's to the 2-core rate read around it):\n", one, two)
	wWhat, wSrc, wRatio, wBound := 4, 6, 5, 5
	for _, r := range rows {
		wWhat = max(wWhat, len([]rune(r.What)))
		wSrc = max(wSrc, len(r.Source))
		wRatio = max(wRatio, len([]rune(r.Ratio)))
		wBound = max(wBound, len([]rune(r.Bound)))
	}
	pad := func(s string, n int) string { return s + strings.Repeat(" ", max(0, n-len([]rune(s)))) }
	line := func(verdict, what, src, ratio, bound, measured string) {
		fmt.Fprintf(w, "  %s  %s  %s  %s  %s  %s\n", pad(verdict, 7), pad(what, wWhat), pad(src, wSrc), pad(ratio, wRatio), pad(bound, wBound), measured)
	}
	line("verdict", "target", "source", "ratio", "bound", "measured")
	for i, r := range rows {
		if r.Check && (i == 0 || !rows[i-1].Check) {
			fmt.Fprintln(w)
			line("verdict", "check", "source", "", "bound", "measured")
		}
		line(r.Verdict.String(), r.What, r.Source, r.Ratio, r.Bound, r.Measured)
	}
	notMet := 0
	for _, r := range rows {
		if r.Verdict == NotMet {
			notMet++
		}
	}
	if notMet == 0 {
		fmt.Fprintln(w, "\nevery target met, every check passed")
	} else {
		fmt.Fprintf(w, "\n%d target(s) or check(s) NOT MET\n", notMet)
	}
	return rows
}
