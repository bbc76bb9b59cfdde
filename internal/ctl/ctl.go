// Package ctl is closerelay's command lines: closerelayctl, the client
// people install (build, publish, sign, watch, ready, submit, mediator),
// and closerelaylab, the demo and the load tools, which start a relay in
// process. Both run through one package so that their flags, output and
// exit codes are the same; the relay itself is passed in (StartRelay) by
// closerelaylab only, so closerelayctl links no server package.
package ctl

import (
	"fmt"
	"log/slog"
)

// StartRelay starts a relay in this process with getenv as its
// environment, logging to log. apiURL and opsURL are its listeners' base
// URLs; stop drains it. closerelaylab passes internal/localrelay.Start, the
// composition root of bin/closerelay; closerelayctl passes none.
type StartRelay func(getenv func(string) string, log *slog.Logger) (apiURL, opsURL string, stop func() error, err error)

// The programs' names, as their messages and help begin.
const (
	progCtl = "closerelayctl"
	progLab = "closerelaylab"
)

// Main runs closerelayctl with args (without the program name) and returns
// its exit code.
func Main(args []string) int { return osCLI().run(args) }

// Lab runs closerelaylab with args, starting relays with start.
func Lab(args []string, start StartRelay) int {
	c := osCLI()
	c.startRelay = start
	return c.runLab(args)
}

// run dispatches to a closerelayctl subcommand in c's world.
func (c *cli) run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "build":
		return c.build(args[1:])
	case "publish":
		return c.publish(args[1:])
	case "get":
		return c.get(args[1:])
	case "sign":
		return c.sign(args[1:])
	case "watch":
		return c.watch(args[1:])
	case "ready":
		return c.ready(args[1:])
	case "submit":
		return c.submit(args[1:])
	case "mediator":
		return c.mediator(args[1:])
	case "demo", "load":
		// They start a relay, which the installed client does not carry.
		fmt.Fprintf(c.stderr, "closerelayctl: %s runs from %s (make demo; go run ./cmd/%s %s)\n", args[0], progLab, progLab, args[0])
		return exitUsage
	case "-h", "-help", "--help", "help":
		fmt.Fprint(c.stdout, usage)
		return exitOK
	}
	fmt.Fprintf(c.stderr, "closerelayctl: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// runLab dispatches to a closerelaylab subcommand in c's world.
func (c *cli) runLab(args []string) int {
	c.prog = progLab
	if len(args) == 0 {
		fmt.Fprint(c.stderr, labUsage)
		return exitUsage
	}
	switch args[0] {
	case "demo":
		return c.demo(args[1:])
	case "load":
		return c.load(args[1:])
	case "-h", "-help", "--help", "help":
		fmt.Fprint(c.stdout, labUsage)
		return exitOK
	}
	fmt.Fprintf(c.stderr, "%s: unknown command %q\n\n%s", progLab, args[0], labUsage)
	return exitUsage
}

const usage = `closerelayctl: the command line of closerelay, a signing relay and mediator
co-signer for Stellar account closes.

Usage:
  closerelayctl build [flags]            build a close of --account into --destination; prints its XDR
  closerelayctl publish [flags] [XDR|-]  publish a partly signed close; prints the plan id
  closerelayctl get [flags] PLAN_ID      print a plan's current envelope
  closerelayctl sign [flags] PLAN_ID     add your signature (secret from $CLOSERELAY_SECRET or stdin)
  closerelayctl watch [flags] PLAN_ID    follow a plan and its progress ("weight 2/3")
  closerelayctl ready [flags] PLAN_ID    print the plan's submit-ready envelope once its threshold is met
  closerelayctl submit [flags] PLAN_ID   submit the plan's submit-ready envelope to the ledger (--horizon-url)
  closerelayctl mediator COMMAND         mint, forward, cosign, resume: mediator flows
  closerelayctl help                     this text

Every command takes --help and --json. Those that talk to a relay take --relay
(env CLOSERELAY_URL, default http://127.0.0.1:8080). Environment:
CLOSERELAY_URL, CLOSERELAY_NETWORK (default testnet), CLOSERELAY_SECRET (the
signing seed; else standard input), CLOSERELAY_HORIZON_URL (the account API;
build, watch and mediator forward read one only when it is given; submit
requires one). publish --submit asks the relay to submit the close once it is
ready; submit posts the submit-ready envelope to the account API itself.

The demo and the load tools start a relay of their own: they are
closerelaylab demo and closerelaylab load (make demo).

Exit codes: 0 ok, 1 refused (by the relay, the account API, or a local check
such as an expired flow token), 2 usage or local input, 3 network or transport
failure.
`

const labUsage = `closerelaylab: closerelay's demo and load tools. They start a relay and an
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
