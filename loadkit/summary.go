package loadkit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// K6Summary is what loadkit/k6/sign.js writes to SUMMARY_JSON.
type K6Summary struct {
	Scenario     string   `json:"scenario"`
	VUs          int      `json:"vus"`
	Attackers    int      `json:"attackers"`
	Duration     string   `json:"duration"`
	Mix          string   `json:"mix"`
	ChecksPassed *float64 `json:"checksPassed"`
	ThresholdsOK bool     `json:"thresholdsOK"`
	Rows         []K6Row  `json:"rows"`
}

// K6Row is one group of requests: the whole run, or one role of the attack.
type K6Row struct {
	Name     string  `json:"name"`
	Requests float64 `json:"requests"`
	RPS      float64 `json:"rps"`
	P50      float64 `json:"p50"`
	P95      float64 `json:"p95"`
	P99      float64 `json:"p99"`
	Max      float64 `json:"max"`
}

// Row returns the row named name.
func (s *K6Summary) Row(name string) (K6Row, bool) {
	for _, r := range s.Rows {
		if r.Name == name {
			return r, true
		}
	}
	return K6Row{}, false
}

// ReadK6Summary loads a SUMMARY_JSON file.
func ReadK6Summary(path string) (*K6Summary, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s K6Summary
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("loadkit: %s: %w", path, err)
	}
	return &s, nil
}

// RawRates reads `go test -bench BenchmarkRawEd25519Verify -cpu 1,2` output
// and returns verifications per second by GOMAXPROCS (1 for the line
// without a -N suffix).
func RawRates(r io.Reader) (map[int]float64, error) {
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
		procs := 1
		if i := strings.LastIndexByte(f[0], '-'); i >= 0 {
			if n, err := strconv.Atoi(f[0][i+1:]); err == nil {
				procs = n
			}
		}
		rates[procs] = 1e9 / ns
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if rates[1] == 0 {
		return nil, fmt.Errorf("loadkit: no BenchmarkRawEd25519Verify result at -cpu 1")
	}
	return rates, nil
}

// Run is one k6 run of a load session with the relay's CPU time during it.
type Run struct {
	Label      string
	K6         *K6Summary
	ServerCPU  float64 // seconds of the relay process's user+system time during the run
	HasCPUTime bool
}

// Verdict is one of the targets against a measured figure.
type Verdict struct {
	Target   string
	Measured string
	Met      bool
}

// Report prints the load session's figures as ratios to the raw rates and
// returns the verdicts on the targets.
func Report(w io.Writer, raw map[int]float64, runs []Run) []Verdict {
	one, two := raw[1], raw[2]
	if two == 0 {
		two = 2 * one
	}
	fmt.Fprintf(w, "raw ed25519 verification: %.0f/s on one core, %.0f/s on two (RunParallel)\n\n", one, two)
	fmt.Fprintf(w, "%-22s %-9s %9s %9s %9s %9s %9s %10s %10s\n", "run", "group", "req", "req/s", "p50 ms", "p95 ms", "p99 ms", "ratio", "srv µs/req")
	var verdicts []Verdict
	for _, r := range runs {
		if r.K6 == nil {
			fmt.Fprintf(w, "%-22s (no k6 summary)\n", r.Label)
			continue
		}
		scenario, generator, _ := strings.Cut(r.K6.Scenario, "-")
		if generator == "" {
			generator = "k6"
		}
		base, baseName := two, "2c"
		if scenario == "replay" {
			base, baseName = one, "1c"
		}
		for i, row := range r.K6.Rows {
			if row.Requests == 0 {
				continue
			}
			// The ratio and the relay's CPU per request describe the whole
			// run (row 0); an attack's roles share them.
			ratio, perReq := "-", "-"
			if i == 0 {
				ratio = fmt.Sprintf("%.3f×%s", row.RPS/base, baseName)
				if r.HasCPUTime {
					perReq = fmt.Sprintf("%.1f", 1e6*r.ServerCPU/row.Requests)
				}
			}
			fmt.Fprintf(w, "%-22s %-9s %9.0f %9.0f %9.2f %9.2f %9.2f %10s %10s\n",
				r.Label, row.Name, row.Requests, row.RPS, row.P50, row.P95, row.P99, ratio, perReq)
		}
		all := r.K6.Rows[0]
		switch {
		case scenario == "replay":
			capacity := ""
			if r.HasCPUTime && r.ServerCPU > 0 {
				perCore := all.Requests / r.ServerCPU
				capacity = fmt.Sprintf("; the relay spent %.1f µs of CPU per request: %.0f/s per core = %.3f × one-core raw", 1e6/perCore, perCore, perCore/one)
			}
			verdicts = append(verdicts, Verdict{
				Target:   "replays on one plan ≥ 0.8 × one-core raw rate, p99 < 20 ms at 64 connections [" + generator + "]",
				Measured: fmt.Sprintf("%.0f req/s = %.3f × %.0f/s, p99 %.1f ms (%d VUs)%s", all.RPS, all.RPS/one, one, all.P99, r.K6.VUs, capacity),
				Met:      all.RPS >= 0.8*one && all.P99 < 20,
			})
		case scenario == "fresh":
			verdicts = append(verdicts, Verdict{
				Target:   "new valid signatures across plans ≥ 0.4 × two-core raw rate [" + generator + "]",
				Measured: fmt.Sprintf("%.0f req/s = %.3f × %.0f/s, p99 %.1f ms", all.RPS, all.RPS/two, two, all.P99),
				Met:      all.RPS >= 0.4*two,
			})
		case scenario == "attack" && r.K6.Attackers > 0:
			if h, ok := r.K6.Row("honest"); ok {
				verdicts = append(verdicts, Verdict{
					Target:   fmt.Sprintf("honest co-signer p99 < 100 ms under %d connections of expensive partials [%s]", r.K6.Attackers, generator),
					Measured: fmt.Sprintf("honest p99 %.1f ms (p50 %.1f); other plans p99 %.1f ms", h.P99, h.P50, rowP99(r.K6, "other")),
					Met:      h.P99 < 100,
				})
			}
		}
		if r.K6.ChecksPassed != nil && *r.K6.ChecksPassed < 1 {
			fmt.Fprintf(w, "%-22s WARNING: only %.2f %% of answers had the expected status\n", r.Label, 100**r.K6.ChecksPassed)
		}
	}
	fmt.Fprintln(w, "\ntargets (ratios to the raw rates measured in this run):")
	for _, v := range verdicts {
		mark := "NOT MET"
		if v.Met {
			mark = "met"
		}
		fmt.Fprintf(w, "  [%s] %s: %s\n", mark, v.Target, v.Measured)
	}
	return verdicts
}

func rowP99(s *K6Summary, name string) float64 {
	if r, ok := s.Row(name); ok {
		return r.P99
	}
	return math.NaN()
}
