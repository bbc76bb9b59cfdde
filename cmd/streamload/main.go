// Command streamload is the stream half of closerelay's load kit (issue 7):
// it opens many event streams (GET /api/plan/{id}/events) to the plans of a
// payload file written by `closerelaylab load local` or `load prepare`, sends
// each plan one new co-signer's partial a second, and reports how long the
// resulting events took to reach every subscriber, how many were lost, and
// how much resident memory the relay spends per idle stream.
//
// The client is lean on purpose: one raw TCP connection per stream with a
// hand-written HTTP/1.1 request, two 4 KB buffers (the socket's, the lines')
// and one goroutine, instead of net/http's client with its per-connection
// goroutines and buffers, and it scans each event for its version and
// signer count rather than decoding its JSON. The generator runs on the same
// small machine as the relay it measures, and must fit beside it at
// 18,000-25,000 streams (about 17 KiB of its own each). Source addresses
// cycle through 127.0.0.0/8, so ephemeral ports never run out.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = `Usage: streamload -payload FILE [flags]

Opens -subscribers event streams to each of -plans plans of a load payload
(written by 'closerelaylab load local' or 'closerelaylab load prepare'), at most
-rate new streams a second. Once every stream has received its first event and
-settle has passed, it reads the relay's resident memory again and then, for
-duration, sends each plan the next of its valid partials every -interval
(plans staggered across the interval; a plan that runs out stops). Each event
is matched to the sign request that caused it by its number of signers (its
version moves in step), and delivery latency is the time the event reached the
subscriber minus the time the request was sent; the fan-out spread is the time
it reached the subscriber minus the time it reached the plan's first one (the
fan-out alone, without the sign request). A subscriber that falls behind may
be sent a newer state instead of one it has not read (CONTRACT section 5):
such states are counted as skipped, apart from lost ones.

The relay's memory per stream is (RSS with the streams idle - RSS before them)
/ streams, from /proc/<serverPid>/status when the payload gives the relay's pid,
else from the ops listener's process_resident_memory_bytes; the ops metrics'
Go heap, stacks and goroutines are reported beside it. Target: <= 12 KiB at
5,000 streams (-plans 100).
Both processes' CPU time comes from /proc/<pid>/stat.

Every stream is one descriptor here and one in the relay: RLIMIT_NOFILE is
raised to its hard limit, and when the lower of the two processes' limits,
less -fd-reserve, cannot hold the requested streams, fewer plans are measured
and the summary says so.

Exit status: 0 when the run completed (whatever it measured), 1 when it could
not (bad payload, no stream opened, -timeout), 2 on bad flags.

Flags:
`

func flags(fs *flag.FlagSet) *options {
	o := &options{}
	fs.StringVar(&o.payload, "payload", "", "the load kit's payload `file` (JSON: relay, ops, serverPid, plans[].id, plans[].valid); required")
	fs.IntVar(&o.plans, "plans", 0, "plans to load, the payload's first ones; 0: all of them, up to 500")
	fs.IntVar(&o.subscribers, "subscribers", 50, "streams per plan (the relay refuses the 51st with 503)")
	fs.DurationVar(&o.duration, "duration", 20*time.Second, "how long to keep signing once every stream is open")
	fs.DurationVar(&o.interval, "interval", time.Second, "time between two partials sent to one plan")
	fs.IntVar(&o.rate, "rate", 2000, "new streams opened per second, at most")
	fs.IntVar(&o.dialers, "dialers", 64, "streams being opened at once, at most (dial, request, first event)")
	fs.IntVar(&o.sources, "sources", 1024, "loopback source addresses to cycle through (127.0.0.1, 127.0.0.2, …) when the relay is on 127.0.0.0/8;\nLinux routes all of 127.0.0.0/8 to lo, macOS only 127.0.0.1 (use 1 there)")
	fs.IntVar(&o.fdReserve, "fd-reserve", 2000, "descriptors kept free of streams in each process, for sign requests, metrics scrapes and the relay's own files")
	fs.DurationVar(&o.handshake, "handshake-timeout", 10*time.Second, "bound on opening one stream, up to its first event")
	fs.DurationVar(&o.settle, "settle", 2*time.Second, "idle wait between the last stream opening and the second memory reading")
	fs.DurationVar(&o.drain, "drain", 5*time.Second, "after the last sign request, how long to wait for events still on their way")
	fs.BoolVar(&o.lockstep, "lockstep", false, "send a plan its next partial only once each of its streams has the previous state, so that no\nsubscriber can skip one (the rate then follows delivery); a correctness check, not a load figure")
	fs.DurationVar(&o.timeout, "timeout", 3*time.Minute, "bound on the whole run; it then stops and reports what it has")
	return o
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("streamload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := flags(fs)
	asJSON := fs.Bool("json", false, "print the summary as JSON on standard output (the human one goes to standard error)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if err := o.check(); err != nil || fs.NArg() > 0 {
		if err == nil {
			err = fmt.Errorf("unexpected arguments %q", fs.Args())
		}
		fmt.Fprintf(stderr, "streamload: %v (see -help)\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := Run(ctx, *o, stderr)
	if res != nil {
		human := stdout
		if *asJSON {
			human = stderr
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			_ = enc.Encode(res)
		}
		writeSummary(human, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "streamload: %v\n", err)
		return 1
	}
	return 0
}

func (o *options) check() error {
	switch {
	case o.payload == "":
		return fmt.Errorf("-payload is required")
	case o.plans < 0:
		return fmt.Errorf("-plans must not be negative")
	case o.subscribers < 1 || o.rate < 1 || o.dialers < 1 || o.sources < 1:
		return fmt.Errorf("-subscribers, -rate, -dialers and -sources must be at least 1")
	case o.sources > 254*65536:
		return fmt.Errorf("-sources: 127.0.0.0/8 has %d usable addresses", 254*65536)
	case o.fdReserve < 0:
		return fmt.Errorf("-fd-reserve must not be negative")
	case o.interval <= 0 || o.duration < 0 || o.handshake <= 0 || o.settle < 0 || o.drain < 0 || o.timeout <= 0:
		return fmt.Errorf("-interval, -handshake-timeout and -timeout must be positive; -duration, -settle and -drain not negative")
	}
	return nil
}
