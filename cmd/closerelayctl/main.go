// Command closerelayctl is closerelay's command line for people: publish a
// close, build one, sign it, watch it, drive a mediator flow, run the whole
// flow as a demo, and set up load runs. It talks to a relay over HTTP, like
// any wallet; the server itself is the closerelay binary.
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
	case "publish":
		return c.publish(args[1:])
	case "get":
		return c.get(args[1:])
	case "sign":
		return c.sign(args[1:])
	case "watch":
		return c.watch(args[1:])
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
  closerelayctl publish [XDR|-]     publish a partly signed close; prints the plan id
  closerelayctl get PLAN_ID         print a plan's current envelope
  closerelayctl sign PLAN_ID        add your signature (secret from $CLOSERELAY_SECRET or stdin)
  closerelayctl watch PLAN_ID       follow a plan, printing progress such as "weight 2/3"
  closerelayctl mediator COMMAND    mint, forward, cosign, resume: mediator flows
  closerelayctl demo                the whole flow end to end on loopback
  closerelayctl load COMMAND        local, prepare: set up a load run and write its payload
  closerelayctl help                this text

Commands take --url (env CLOSERELAY_URL, default http://127.0.0.1:8080),
--json and --help. Exit codes: 0 ok, 1 refused by the server, 2 usage,
3 network or transport failure.
`
