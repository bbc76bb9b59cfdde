// Command loadsummary prints the summary of a `make bench-load` session:
// every k6 run's throughput and latency as ratios to the raw ed25519 rates
// measured in the same session, the relay's CPU time per request, and the
// issue's targets, met or not.
//
//	loadsummary -raw DIR/raw.txt -dir DIR replay fresh admit mix attack-quiet attack
//
// Each name reads DIR/k6-NAME.json (k6's SUMMARY_JSON) and, when present,
// DIR/cpu-NAME.txt ("TICKS CLK_TCK": the relay's CPU time during the run).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/closerelay/closerelay/loadkit"
)

func main() {
	rawPath := flag.String("raw", "", "output of go test -bench BenchmarkRawEd25519Verify -cpu 1,2")
	dir := flag.String("dir", ".", "directory of the k6-NAME.json and cpu-NAME.txt files")
	flag.Parse()
	f, err := os.Open(*rawPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadsummary:", err)
		os.Exit(1)
	}
	raw, err := loadkit.RawRates(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadsummary:", err)
		os.Exit(1)
	}
	var runs []loadkit.Run
	for _, name := range flag.Args() {
		r := loadkit.Run{Label: name}
		if s, err := loadkit.ReadK6Summary(filepath.Join(*dir, "k6-"+name+".json")); err == nil {
			r.K6 = s
		}
		var ticks, hz float64
		if b, err := os.ReadFile(filepath.Join(*dir, "cpu-"+name+".txt")); err == nil {
			if n, _ := fmt.Sscan(string(b), &ticks, &hz); n == 2 && hz > 0 {
				r.ServerCPU, r.HasCPUTime = ticks/hz, true
			}
		}
		runs = append(runs, r)
	}
	loadkit.Report(os.Stdout, raw, runs)
}
