// Command closerelayctl is closerelay's command line for people: publish a
// close, build one, sign it, watch it, fetch its submit-ready envelope, drive
// a mediator flow, run the whole flow as a demo, and set up load runs. It
// talks to a relay over HTTP, like any wallet; the server itself is the
// closerelay binary.
package main

import (
	"fmt"
	"os"
)

func main() { os.Exit(osCLI().run(os.Args[1:])) }

// run dispatches to a subcommand in c's world.
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
	case "demo":
		return c.demo(args[1:])
	case "load":
		return c.load(args[1:])
	case "-h", "-help", "--help", "help":
		fmt.Fprint(c.stdout, usage)
		return exitOK
	}
	fmt.Fprintf(c.stderr, "closerelayctl: unknown command %q\n\n%s", args[0], usage)
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
  closerelayctl demo [flags]             the whole flow end to end on loopback
  closerelayctl load COMMAND             local: a relay and account-API double to try the commands on;
                                         prepare: a load run's payload against a relay
  closerelayctl help                     this text

Every command takes --help and --json. Those that talk to a relay take --relay
(env CLOSERELAY_URL, default http://127.0.0.1:8080). Environment:
CLOSERELAY_URL, CLOSERELAY_NETWORK (default testnet), CLOSERELAY_SECRET (the
signing seed; else standard input), CLOSERELAY_HORIZON_URL (the account API;
build, watch and mediator forward read one only when it is given; submit
requires one). publish --submit asks the relay to submit the close once it is
ready; submit posts the submit-ready envelope to the account API itself.

Exit codes: 0 ok, 1 refused (by the relay, the account API, or a local check
such as an expired flow token), 2 usage or local input, 3 network or transport
failure.
`
