// Command loadsummary prints the summary of a `make bench-load` session and
// decides it: every HTTP run's throughput and latency as ratios to the raw
// crypto/ed25519.Verify rates measured in the same session, the relay's CPU
// time per request, the mixed load's routes, then one table of every target
// of issue 16 and every correctness check, met or not.
//
//	loadsummary DIR
//
// DIR holds what loadkit/bench-load.sh wrote (loadkit.LoadSession lists the
// files). Exit status 0 when every target is met and every check passes, 1
// when one is not (a run that is missing counts as not met), 2 when DIR has
// no raw rates.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/closerelay/closerelay/loadkit"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprintln(stderr, "usage: loadsummary DIR (the directory bench-load.sh wrote)")
		return 2
	}
	s, err := loadkit.LoadSession(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "loadsummary:", err)
		return 2
	}
	if !loadkit.Passed(loadkit.Report(stdout, s)) {
		return 1
	}
	return 0
}
