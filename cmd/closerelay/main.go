// Command closerelay serves the signing relay and the mediator co-signing
// route (no arguments), and drives them from the command line (subcommands).
// See README.md for the configuration table and the subcommands.
package main

import (
	"fmt"
	"os"

	"github.com/closerelay/closerelay/internal/buildinfo"
)

func main() { os.Exit(run(os.Args[1:])) }

// run dispatches to a subcommand; with none, the process serves.
func run(args []string) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		fmt.Printf("closerelay %s (revision %s, %s)\n", buildinfo.Version(), buildinfo.Revision(), buildinfo.GoVersion())
		return exitOK
	}
	if len(args) == 0 || args[0] == "serve" {
		if len(args) > 1 {
			return serveHelp(args[1:])
		}
		return serveMain()
	}
	return osCLI().dispatch(args)
}

// dispatch runs a client subcommand (everything but serving) in c's world.
func (c *cli) dispatch(args []string) int {
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
	fmt.Fprintf(c.stderr, "closerelay: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// serveHelp answers `serve --help`; serving itself takes no arguments,
// only the environment.
func serveHelp(args []string) int {
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Print(serveUsage)
		return exitOK
	}
	fmt.Fprintf(os.Stderr, "closerelay serve: takes no arguments (configuration comes from the environment)\n\n%s", serveUsage)
	return exitUsage
}

const serveUsage = `Usage: closerelay [serve]

Serve the relay API on LISTEN_ADDR (default :8080) and metrics and health on
OPS_ADDR (default :9090) until SIGTERM or SIGINT. All configuration comes from
the environment: LISTEN_ADDR, OPS_ADDR, HORIZON_URL_MAINNET, HORIZON_URL_TESTNET,
HORIZON_URL_FUTURENET, HORIZON_TIMEOUT, MEDIATOR_SECRET, TRUSTED_PROXY_HOPS,
RATE_LIMITS, SSE_HEARTBEAT, CORS_ALLOW_ORIGINS, LOG_LEVEL, LOG_FORMAT,
SHUTDOWN_TIMEOUT. See README.md for their meaning and defaults.
`

const usage = `closerelay: a signing relay and mediator co-signer for Stellar account closes.

Usage:
  closerelay                     serve (configuration from the environment; see README.md)
  closerelay serve               the same
  closerelay publish [XDR|-]     publish a partly signed close; prints the plan id
  closerelay get PLAN_ID         print a plan's current envelope
  closerelay sign PLAN_ID        add your signature (secret from $CLOSERELAY_SECRET or stdin)
  closerelay watch PLAN_ID       follow a plan, printing progress such as "weight 2/3"
  closerelay mediator COMMAND    mint, forward, cosign, resume: mediator flows
  closerelay demo                the whole flow end to end on loopback
  closerelay load COMMAND        local, prepare: set up a load run and write its payload
  closerelay --version           print the build's version
  closerelay help                this text

Client commands take --url (env CLOSERELAY_URL, default http://127.0.0.1:8080),
--json and --help. Exit codes: 0 ok, 1 refused by the server, 2 usage,
3 network or transport failure.
`
