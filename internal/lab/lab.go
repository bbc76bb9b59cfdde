// Package lab is closerelaylab: closerelay's demo (`make demo`) and load
// tools. Each starts the relay in this process, wired as bin/closerelay
// wires it (internal/server), with the account-API double of
// ledger/ledgertest, on loopback only. It shares closerelayctl's plumbing
// (ctl.CLI: flags, output, exit codes) but not its link: closerelayctl, the
// client people install, carries no server, no double and no load kit.
package lab

import (
	"fmt"

	"github.com/closerelay/closerelay/internal/ctl"
)

// tool is one closerelaylab invocation: closerelayctl's world, with the
// commands that start a relay.
type tool struct{ *ctl.CLI }

// Main runs closerelaylab with args (without the program name) and returns
// its exit code.
func Main(args []string) int { return (&tool{ctl.OS("closerelaylab")}).run(args) }

// run dispatches to a closerelaylab subcommand in c's world.
func (c *tool) run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.Stderr, usage)
		return ctl.ExitUsage
	}
	switch args[0] {
	case "demo":
		return c.demo(args[1:])
	case "load":
		return c.load(args[1:])
	case "-h", "-help", "--help", "help":
		fmt.Fprint(c.Stdout, usage)
		return ctl.ExitOK
	}
	fmt.Fprint(c.Stderr, c.UnknownCommand("closerelaylab", args[0], []string{"demo", "load", "help"}))
	return ctl.ExitUsage
}

const usage = `closerelaylab: closerelay's demo and load tools. They start a relay and an
account-API double in this process, on loopback only; closerelayctl is the
command line that talks to a relay.

Usage:
  closerelaylab demo [flags]             the whole flow end to end on loopback
  closerelaylab load COMMAND             local: a relay and account-API double to try the commands on;
                                         prepare: a load run's payload against a relay;
                                         routes: every route's throughput against a payload's relay
  closerelaylab help                     this text

Every command takes --help and --json. Exit codes as closerelayctl's: 0 ok,
1 refused or failed, 2 usage or local input, 3 network or transport failure.
`
