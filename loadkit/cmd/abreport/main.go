// Command abreport prints what loadkit/bench-ab.sh measured: every round's
// admit and replay figures of the old and the new build against the raw
// rates of the round, the medians per build, and new over old.
//
//	abreport DIR ROUNDS
//
// Exit status 0 when both builds have figures, 1 when one has none, 2 on
// a usage or file error.
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/closerelay/closerelay/loadkit"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	rounds := 0
	if len(args) == 2 {
		rounds, _ = strconv.Atoi(args[1])
	}
	if rounds < 1 {
		fmt.Fprintln(stderr, "usage: abreport DIR ROUNDS (the directory and rounds of bench-ab.sh)")
		return 2
	}
	rs, err := loadkit.LoadAB(args[0], rounds)
	if err != nil {
		fmt.Fprintln(stderr, "abreport:", err)
		return 2
	}
	if admit, replay := loadkit.WriteAB(stdout, rs); admit == 0 || replay == 0 {
		return 1
	}
	return 0
}
