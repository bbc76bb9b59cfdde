// Command closerelay is the server: the signing relay and the mediator
// co-signing route on LISTEN_ADDR, metrics and health on OPS_ADDR, until
// SIGTERM or SIGINT. All configuration comes from the environment (docs/operating.md,
// "Running the service"). The command line for people is closerelayctl; the
// demo and the load tools are closerelaylab.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"github.com/closerelay/closerelay/internal/buildinfo"
	"github.com/closerelay/closerelay/internal/server"
)

// Exit statuses: 0 after a drain, 1 when serving failed, 2 for an invalid
// configuration or command line.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

func main() {
	// The server never writes a heap profile, so it does not sample its
	// allocations for one: at Go's default rate (one sample every 512 KiB)
	// the sampling's stack walks were 1 to 2 % of the CPU a new signer
	// costs in profiles of a burst. Set first, as runtime asks.
	runtime.MemProfileRate = 0
	os.Exit(run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run is main with its world injected, so tests can run it in process.
func run(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0, len(args) == 1 && args[0] == "serve":
	case len(args) == 1 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version"):
		fmt.Fprintf(stdout, "closerelay %s (revision %s, %s)\n", buildinfo.Version(), buildinfo.Revision(), buildinfo.GoVersion())
		return exitOK
	case len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help"):
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "closerelay: takes no arguments (configuration comes from the environment)\n\n%s", usage)
		return exitUsage
	}
	cfg, err := server.ParseEnv(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "closerelay: invalid configuration: %v\n", err)
		return exitUsage
	}
	log := server.NewLogger(cfg, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if err := server.Run(ctx, server.Options{Config: cfg, Log: log}); err != nil {
		log.Error("serve failed", "err", err)
		if cerr := (*server.ConfigError)(nil); errors.As(err, &cerr) {
			return exitUsage // cluster mode's bucket on disk, say
		}
		return exitFailed
	}
	return exitOK
}

const usage = `Usage: closerelay [serve]
       closerelay --version

Serve the relay API on LISTEN_ADDR (default :8080) and metrics and health on
OPS_ADDR (default :9090) until SIGTERM or SIGINT, then drain and exit 0.
All configuration comes from the environment: LISTEN_ADDR, OPS_ADDR,
HORIZON_URL_MAINNET, HORIZON_URL_TESTNET, HORIZON_URL_FUTURENET, LEDGER_API,
RPC_URL_MAINNET, RPC_URL_TESTNET, RPC_URL_FUTURENET, HORIZON_TIMEOUT,
HORIZON_CONCURRENCY, PREFLIGHT_MAX_AGE, PREFLIGHT_MAX_ACCOUNTS,
LEDGER_CALLS_PER_CLIENT, LEDGER_CALLS_PER_ACCOUNT, MEDIATOR_SECRET,
TRUSTED_PROXY_HOPS, RATE_LIMITS, SSE_HEARTBEAT, CORS_ALLOW_ORIGINS, PLANS_PER_ACCOUNT, LOG_LEVEL,
LOG_FORMAT, SHUTDOWN_TIMEOUT, FORWARD_BUDGET, FORWARD_RETENTION, PUBLIC_URL,
WALLETCONNECT_PROJECT_ID, and for cluster mode NATS_URL, NATS_BUCKET,
NATS_REPLICAS. See docs/operating.md for their meaning and defaults.

The command line for people (build, publish, get, sign, watch, ready, submit,
status, mediator) is closerelayctl. The demo and the load tools, which start a
relay of their own (demo, load local, load prepare, load routes, load admit,
load floor), are closerelaylab.
`
