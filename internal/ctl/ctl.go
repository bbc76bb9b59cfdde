// Package ctl is closerelayctl, the command line people install: build,
// publish, sign, watch, ready, submit and the mediator flows, all as a
// client of a relay over HTTP. Its plumbing (CLI: flags, output, exit
// codes) is exported for closerelaylab's demo and load tools (package lab),
// which start a relay in process and so live apart: closerelayctl links no
// server package, no account-API double and no load kit.
package ctl

import "fmt"

// Main runs closerelayctl with args (without the program name) and returns
// its exit code.
func Main(args []string) int { return OS("closerelayctl").Run(args) }

// Run dispatches args to a closerelayctl subcommand in c's world and
// returns its exit code.
func (c *CLI) Run(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.Stderr, usage)
		return ExitUsage
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
	case "status":
		return c.status(args[1:])
	case "ready":
		return c.ready(args[1:])
	case "submit":
		return c.submit(args[1:])
	case "mediator":
		return c.mediator(args[1:])
	case "demo", "load":
		// They start a relay, which the installed client does not carry.
		fmt.Fprintf(c.Stderr, "closerelayctl: %s runs from closerelaylab (make demo; go run ./cmd/closerelaylab %s)\n", args[0], args[0])
		return ExitUsage
	case "-h", "-help", "--help", "help":
		fmt.Fprint(c.Stdout, usage)
		return ExitOK
	}
	fmt.Fprint(c.Stderr, c.UnknownCommand("closerelayctl", args[0], commandNames))
	return ExitUsage
}

// commandNames are closerelayctl's commands, for the suggestion a typo gets.
var commandNames = []string{"build", "publish", "get", "sign", "watch", "status", "ready", "submit", "mediator", "help"}

const usage = `closerelayctl: the command line of closerelay, a signing relay and mediator
co-signer for Stellar account closes.

Usage:
  closerelayctl build [flags]            build a close of --account into --destination; prints its XDR
  closerelayctl publish [flags] [XDR|-]  publish a partly signed close; prints the plan id
  closerelayctl get [flags] PLAN_ID      print a plan's current envelope
  closerelayctl sign [flags] PLAN_ID     add your signature (secret from $CLOSERELAY_SECRET or stdin)
  closerelayctl watch [flags] PLAN_ID    follow a plan and its progress ("weight 2/3")
  closerelayctl status [flags] PLAN_ID   print a plan's state: will it land (the preflight), weight, expiry, submission
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
