package loadkit

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// ABRound is one round of loadkit/bench-ab.sh for one build: its admit
// burst and its replay run, with the raw rates of the round.
type ABRound struct {
	Build, Round     string
	Raw1, Raw2       float64 // verifications per second on one core and on two
	Admit            *AdmitResult
	Replay           *Run
	AdmitErr, RepErr string
}

// AdmitRatio is the burst's rate over the two-core raw rate; 0 when the
// burst did not measure new signers (AdmitResult.Valid).
func (r ABRound) AdmitRatio() float64 {
	if r.Admit == nil || !r.Admit.Valid() || r.Raw2 == 0 {
		return 0
	}
	return r.Admit.RPS / r.Raw2
}

// ReplayRatio is the replay rate over the one-core raw rate; 0 when the
// run's answers were wrong.
func (r ABRound) ReplayRatio() float64 {
	if r.Replay == nil || r.Raw1 == 0 {
		return 0
	}
	if ok, _ := runValid(r.Replay); !ok {
		return 0
	}
	return r.Replay.All().RPS / r.Raw1
}

// LoadAB reads the files bench-ab.sh wrote for rounds 1 to rounds of the
// builds old and new.
func LoadAB(dir string, rounds int) ([]ABRound, error) {
	var out []ABRound
	for i := 1; i <= rounds; i++ {
		round := strconv.Itoa(i)
		f, err := os.Open(filepath.Join(dir, "raw-"+round+".txt"))
		if err != nil {
			return nil, err
		}
		raw, err := RawRates(f)
		f.Close()
		if err != nil {
			return nil, err
		}
		for _, build := range []string{"old", "new"} {
			r := ABRound{Build: build, Round: round, Raw1: raw[1], Raw2: raw[2]}
			if b, err := os.ReadFile(filepath.Join(dir, "admit-"+build+"-"+round+".json")); err != nil {
				r.AdmitErr = err.Error()
			} else if err := json.Unmarshal(b, &r.Admit); err != nil {
				r.AdmitErr = err.Error()
			}
			if run, err := ReadWrk(filepath.Join(dir, "replay-"+build+"-"+round+".json")); err == nil {
				r.Replay = run
			} else if run, err2 := ReadK6Export(filepath.Join(dir, "replay-k6-"+build+"-"+round+".json")); err2 == nil {
				r.Replay = run
			} else {
				r.RepErr = err.Error()
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// WriteAB prints every round and, per build, the median ratios and the
// ratio of NEW's medians to OLD's. It returns NEW/OLD for admit and replay
// (0 when a build has no valid figure).
func WriteAB(w io.Writer, rounds []ABRound) (admit, replay float64) {
	fmt.Fprintf(w, "%-5s %-5s %9s %9s %10s %9s %8s %10s %9s %8s\n", "round", "build", "raw 1c/s", "raw 2c/s", "admit/s", "admit p99", "×2c", "replay/s", "rep. p99", "×1c")
	ratios := map[string][2][]float64{}
	for _, r := range rounds {
		adm, ap99, rep, rp99 := "-", "-", "-", "-"
		if r.Admit != nil {
			adm, ap99 = fmt.Sprintf("%.0f", r.Admit.RPS), fmt.Sprintf("%.2f", r.Admit.P99)
			if !r.Admit.Valid() {
				adm += fmt.Sprintf(" (INVALID: %.0f admitted of %d, %d wrong)", r.Admit.Admitted, r.Admit.Requests, r.Admit.Wrong)
			}
		}
		if r.Replay != nil {
			rep, rp99 = fmt.Sprintf("%.0f", r.Replay.All().RPS), fmt.Sprintf("%.2f", r.Replay.All().P99)
		}
		fmt.Fprintf(w, "%-5s %-5s %9.0f %9.0f %10s %9s %8.3f %10s %9s %8.3f\n", r.Round, r.Build, r.Raw1, r.Raw2, adm, ap99, r.AdmitRatio(), rep, rp99, r.ReplayRatio())
		rs := ratios[r.Build]
		if v := r.AdmitRatio(); v > 0 {
			rs[0] = append(rs[0], v)
		}
		if v := r.ReplayRatio(); v > 0 {
			rs[1] = append(rs[1], v)
		}
		ratios[r.Build] = rs
	}
	med := func(build string, i int) float64 {
		m, _, _ := medianRange(ratios[build][i])
		return m
	}
	fmt.Fprintln(w)
	for _, b := range []string{"old", "new"} {
		_, alo, ahi := medianRange(ratios[b][0])
		_, rlo, rhi := medianRange(ratios[b][1])
		fmt.Fprintf(w, "%s: admit %.3f × 2-core raw [%.3f–%.3f] over %d valid bursts; replay %.3f × 1-core raw [%.3f–%.3f] over %d runs\n",
			b, med(b, 0), alo, ahi, len(ratios[b][0]), med(b, 1), rlo, rhi, len(ratios[b][1]))
	}
	if o := med("old", 0); o > 0 {
		admit = med("new", 0) / o
	}
	if o := med("old", 1); o > 0 {
		replay = med("new", 1) / o
	}
	fmt.Fprintf(w, "new/old: admit %.3f, replay %.3f (medians of the ratios to each round's raw rate)\n", admit, replay)
	return admit, replay
}
