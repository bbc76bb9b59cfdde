package lab

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/internal/ctl"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/loadkit"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// defaultHorizon is the public account API of each network. `load prepare`,
// which is for real testnet accounts, falls back to it; closerelayctl's
// commands read an account API only when one is named.
var defaultHorizon = map[string]string{
	"mainnet":   "https://horizon.stellar.org",
	"testnet":   "https://horizon-testnet.stellar.org",
	"futurenet": "https://horizon-futurenet.stellar.org",
}

// The load kit's limits. A plan's envelope carries at most
// ledger.MaxSignatures signatures, so an account of more signers could not
// have every valid partial admitted; the relay holds at most 500 plans.
const (
	maxLoadSigners = ledger.MaxSignatures
	maxLoadPlans   = 500
	// By default `load local` is a stack to try the commands on: a few
	// accounts of a few signers, leaving the relay room for the plans a
	// person publishes. The load kit (loadkit/bench-load.sh) asks for its
	// sizes with --plans, --spare and --signers.
	defaultLoadPlans   = 3
	defaultLoadSigners = 3
	defaultLoadSpare   = 0
)

// defaultLocalDir is where `load local` writes its payload and keys files
// unless told otherwise: under the user's cache directory (else the
// system's temporary one), never the working tree, which is often a
// checkout of this repository.
func defaultLocalDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "closerelay", "load-local")
}

const loadUsage = `Usage: closerelaylab load COMMAND [flags]

Prepare load runs against a relay and write the payload file that the k6
script (loadkit/k6/sign.js) and the stream load (cmd/streamload) replay.

Commands:
  local     run the account-API double and the real relay in this process on
            loopback, with RATE_LIMITS=off, publish --plans plans of --signers
            signers each, write the payload and the accounts' keys, print the
            relay, ops and account-API addresses, and serve until SIGINT/SIGTERM;
            small (--plans 2 --signers 3), it is a stack to try every command on
  prepare   publish one plan of a real (testnet) account to a relay and write
            the payload; signer secrets come from a file or standard input
  routes    send a payload's relay a mix of every route (publish, get, sign,
            status, events, mediator mint and co-sign) at realistic ratios
            and report each route's throughput, latency and wrong answers
  admit     send every valid partial of a payload once (each a new signer)
            and report the burst's rate, latency and the signers the relay
            counted as admitted
  floor     serve the floor a relay cannot go below on this machine (the sign
            route through net/http and echo, one verification, a fixed
            answer) for the load kit to send the same burst to

Each command takes --help and --json. See docs/command-line.md and
docs/load-testing.md.
`

func (c *tool) load(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.Stderr, "closerelaylab load: missing command\n\n"+loadUsage)
		return ctl.ExitUsage
	}
	switch args[0] {
	case "local":
		return c.loadLocal(args[1:])
	case "prepare":
		return c.loadPrepare(args[1:])
	case "routes":
		return c.loadRoutes(args[1:])
	case "admit":
		return c.loadAdmit(args[1:])
	case "floor":
		return c.loadFloor(args[1:])
	case "-h", "-help", "--help", "help":
		fmt.Fprint(c.Stdout, loadUsage)
		return ctl.ExitOK
	}
	fmt.Fprint(c.Stderr, c.UnknownCommand("closerelaylab load", args[0], []string{"local", "prepare", "routes", "admit", "floor", "help"}))
	return ctl.ExitUsage
}

// countFlags registers the per-plan counts of the optional partials.
func countFlags(fs *ctl.FlagSet) *loadkit.Counts {
	n := &loadkit.Counts{}
	fs.IntVar(&n.Fresh, "fresh", 8, "distinct valid signatures by the publisher per plan (each costs the relay a verification)")
	fs.IntVar(&n.Strangers, "strangers", 4, "partials signed by non-signers per plan")
	fs.IntVar(&n.Expensive, "expensive", 4, "expensive invalid partials per plan (canonical S, valid R, a real signer's hint)")
	return n
}

func checkCounts(n *loadkit.Counts) error {
	if n.Fresh < 0 || n.Strangers < 0 || n.Expensive < 0 || n.Fresh > 1000 || n.Strangers > 1000 || n.Expensive > 1000 {
		return ctl.Usagef("--fresh, --strangers and --expensive take 0 to 1000")
	}
	return nil
}

// localOptions are `load local`'s settings; tests run it in process.
type localOptions struct {
	listen, ops string // loopback host:port of the API and the ops listener
	plans       int
	spare       int // closes prepared but not published (Payload.Spare)
	signers     int // per account, the master (the publisher) included
	counts      loadkit.Counts
	dir         string    // where out and keys default to; defaultLocalDir() when empty
	publicURL   string    // the relay's PUBLIC_URL; empty: none
	ledgerAPI   string    // the relay's LEDGER_API: horizon (when empty) or rpc, both faces of the double
	rateLimits  bool      // RATE_LIMITS on, as in production (default off, for load)
	noMediator  bool      // no MEDIATOR_SECRET: the mediator routes answer MEDIATOR_NOT_CONFIGURED
	subEntries  []int     // account numbers (from 1) given what the demo's account holds, so that their plans are blocked
	out         string    // payload path; dir/load-payload.json when empty
	keys        string    // keys file path; beside out when empty
	json        bool      // print the ready report as JSON
	logs        io.Writer // the relay's logs; discarded when nil
	cpuProfile  string    // when set, a CPU profile from ready to stop is written here
	memProfile  string    // when set, a heap profile taken at stop, before the relay drains, is written here
	// ready, when set, is called once the payload is written.
	ready func(*loadkit.Payload)
}

func (c *tool) loadLocal(args []string) int {
	fs := ctl.NewFlagSet("load local", "load local [flags]",
		"Start the account-API double and the real relay in this process, on loopback\n"+
			"only, wired as the closerelay binary wires it, with RATE_LIMITS=off,\n"+
			"TRUSTED_PROXY_HOPS=0 and a fresh MEDIATOR_SECRET (and PUBLIC_URL when\n"+
			"--public-url is given). Create --plans accounts of\n"+
			"--signers signers each (the master key publishes; the others are co-signers),\n"+
			"publish one close plan per account over HTTP, write the payload file (--out)\n"+
			"and the keys file (--keys), print a line starting with \"ready\" that names the\n"+
			"relay, ops and account-API addresses and both files, and serve until SIGINT\n"+
			"or SIGTERM. --spare more accounts get a signed close that is written to the\n"+
			"payload unpublished, for `load routes` to publish. The listeners take free\n"+
			"ports unless --listen and --ops name them; the ready line says which.\n\n"+
			"Both files go to --dir (default: closerelay/load-local under the user's cache\n"+
			"directory, e.g. ~/.cache/closerelay/load-local; never the working tree), which\n"+
			"the ready line names. The keys file (mode 0600) is a shell file: sourcing it sets\n"+
			"CLOSERELAY_URL, CLOSERELAY_HORIZON_URL and CLOSERELAY_NETWORK for this stack,\n"+
			"and per account n ACCOUNT_n, PLAN_n (the plan published for it), and per\n"+
			"signer m SIGNER_n_m and SECRET_n_m (the master key is the last signer). The\n"+
			"accounts exist only on this process's account-API double.\n\n"+
			"--ledger-api is the relay's LEDGER_API: horizon (the default) has it read and\n"+
			"submit through the double's Horizon face, rpc through its Stellar RPC face\n"+
			"(the account-API address followed by /rpc); the double's state is the same.\n"+
			"--rate-limits runs the relay with RATE_LIMITS on, as in production, and\n"+
			"--no-mediator without a MEDIATOR_SECRET, so that a client's tests meet\n"+
			"RATE_LIMITED and MEDIATOR_NOT_CONFIGURED from the real relay.\n\n"+
			"--sub-entries N[,N…] gives account N what most real accounts hold (a USD\n"+
			"trustline with 50 USD, an offer and a data entry), as the demo's account:\n"+
			"its plan, a bare merge, is then blocked (op_has_sub_entries), and\n"+
			"`closerelayctl status \"$PLAN_N\"` shows what a co-signer of such a close sees.\n\n"+
			"By default it is small, a stack to try the commands on (3 accounts of 3\n"+
			"signers); the load kit passes the sizes it needs.")
	o := localOptions{}
	fs.StringVar(&o.listen, "listen", "127.0.0.1:0", "API address (loopback only; port 0: a free port)")
	fs.StringVar(&o.ops, "ops", "127.0.0.1:0", "ops address: /metrics, /readyz (loopback only; port 0: a free port)")
	fs.IntVar(&o.plans, "plans", defaultLoadPlans, fmt.Sprintf("plans (accounts) to publish, 1 to %d with --spare", maxLoadPlans))
	fs.IntVar(&o.spare, "spare", defaultLoadSpare, "further accounts whose signed close is written to the payload unpublished (for load routes)")
	fs.IntVar(&o.signers, "signers", defaultLoadSigners, fmt.Sprintf("signers per account, the master included, 2 to %d", maxLoadSigners))
	counts := countFlags(fs)
	fs.StringVar(&o.dir, "dir", "", "`directory` of the payload and keys files (default: closerelay/load-local in the user's cache directory)")
	fs.StringVar(&o.out, "out", "", "payload file to write (default: load-payload.json in --dir)")
	fs.StringVar(&o.keys, "keys", "", "keys file to write (default: load-keys.env beside --out)")
	fs.StringVar(&o.publicURL, "public-url", "", "the relay's PUBLIC_URL, the base `URL` co-signers reach it at (SEP-7 callbacks, page links)")
	fs.StringVar(&o.ledgerAPI, "ledger-api", "horizon", "the relay's LEDGER_API: horizon or rpc (the double's Horizon or Stellar RPC face)")
	fs.BoolVar(&o.rateLimits, "rate-limits", false, "run the relay with RATE_LIMITS on (the production limits), not off")
	fs.BoolVar(&o.noMediator, "no-mediator", false, "run the relay without a MEDIATOR_SECRET")
	fs.Func("sub-entries", "give these `accounts` (numbers from 1, comma-separated) a trustline with a balance, an offer and a data entry: their plans are blocked", func(v string) error {
		for f := range strings.SplitSeq(v, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return fmt.Errorf("%q is not an account number (1, 2, …)", f)
			}
			o.subEntries = append(o.subEntries, n)
		}
		return nil
	})
	ctl.JSONFlag(fs, &o.json)
	verbose := fs.Bool("verbose", false, "show the relay's logs on standard error")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of this process, from ready to stop, to this file (go tool pprof)")
	fs.StringVar(&o.memProfile, "memprofile", "", "write a heap profile of this process (sampled every 512 bytes) to this file when it is stopped,\nafter a GC and before the relay drains, so that streams still open then are in it (go tool pprof)")
	if _, code, done := c.Parse(fs, args, 0, ""); done {
		return code
	}
	o.counts = *counts
	if *verbose {
		o.logs = c.Stderr
	}
	ctx := context.Background()
	if c.Signals != nil {
		var stop context.CancelFunc
		ctx, stop = c.Signals(ctx)
		defer stop()
	}
	if err := runLoadLocal(ctx, c.Stdout, o); err != nil {
		return c.Fail("load local", o.json, err)
	}
	return ctl.ExitOK
}

// runLoadLocal is `load local`: it returns once ctx ends and the relay has
// drained, or at the first failure.
func runLoadLocal(ctx context.Context, out io.Writer, o localOptions) (err error) {
	switch {
	case o.plans < 1 || o.plans > maxLoadPlans:
		return ctl.Usagef("--plans must be 1 to %d", maxLoadPlans)
	case o.spare < 0 || o.plans+o.spare > maxLoadPlans:
		return ctl.Usagef("--spare must be 0 to %d less --plans (the relay holds %d plans)", maxLoadPlans, maxLoadPlans)
	case o.signers < 2 || o.signers > maxLoadSigners:
		return ctl.Usagef("--signers must be 2 to %d (a plan's envelope carries at most %d signatures)", maxLoadSigners, ledger.MaxSignatures)
	case !isLoopback(o.listen) || !isLoopback(o.ops):
		return ctl.Usagef("--listen and --ops must be loopback addresses (127.0.0.0/8, [::1], localhost)")
	case o.ledgerAPI != "" && o.ledgerAPI != "horizon" && o.ledgerAPI != "rpc":
		return ctl.Usagef("--ledger-api must be horizon or rpc, not %q", o.ledgerAPI)
	}
	if o.ledgerAPI == "" {
		o.ledgerAPI = "horizon"
	}
	for _, n := range o.subEntries {
		if n > o.plans {
			return ctl.Usagef("--sub-entries %d: there are %d published accounts (--plans)", n, o.plans)
		}
	}
	if err := checkCounts(&o.counts); err != nil {
		return err
	}
	if o.memProfile != "" {
		// Every 512 bytes rather than every 512 KiB: per-stream figures
		// need the small allocations too.
		runtime.MemProfileRate = 512
	} else {
		runtime.MemProfileRate = 0 // as cmd/closerelay serves: no heap profile
	}
	if o.out == "" {
		if o.dir == "" {
			o.dir = defaultLocalDir()
		}
		o.out = filepath.Join(o.dir, "load-payload.json")
	}
	if o.keys == "" {
		o.keys = filepath.Join(filepath.Dir(o.out), "load-keys.env")
	}
	for _, d := range []string{filepath.Dir(o.out), filepath.Dir(o.keys)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return ctl.Usagef("the directory of the payload and keys files: %v", err)
		}
	}
	start := time.Now()

	double := ledgertest.NewHandler()
	rateLimits, mediatorSecret := "off", keypair.MustRandom().Seed() // so the mediator commands can be tried too
	if o.rateLimits {
		rateLimits = "on"
	}
	if o.noMediator {
		mediatorSecret = ""
	}
	stack, err := startLocalStack(double, map[string]string{
		"LISTEN_ADDR":        o.listen,
		"OPS_ADDR":           o.ops,
		"HORIZON_TIMEOUT":    "10s",
		"RATE_LIMITS":        rateLimits,
		"TRUSTED_PROXY_HOPS": "0",
		"MEDIATOR_SECRET":    mediatorSecret,
		"SHUTDOWN_TIMEOUT":   "5s",
		"LOG_FORMAT":         "text",
		"PUBLIC_URL":         o.publicURL,
		"LEDGER_API":         o.ledgerAPI,
	}, o.logs)
	if err != nil {
		return err
	}
	defer func() {
		if serr := stack.stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	relayURL, opsURL := stack.relayURL, stack.opsURL
	pageBase := relayURL
	if o.publicURL != "" {
		pageBase = strings.TrimSuffix(o.publicURL, "/")
	}

	// Accounts, each with signers-1 extra signers and its master (last),
	// and one close per account signed by the master.
	passphrase := ledger.Testnet.Passphrase()
	closes := make([]signedClose, o.plans+o.spare)
	accts := make([]ledgertest.Account, o.plans+o.spare)
	for i := range closes {
		acct := ledgertest.NewAccount(o.signers-1, 1)
		accts[i] = acct
		double.AddAccount(acct)
		if slices.Contains(o.subEntries, i+1) {
			if _, err := addSubEntries(double, acct.Address); err != nil {
				return err
			}
		}
		// A close the ledger would take, so that its page and status say
		// landable: the next sequence number (the double's accounts are at
		// 1<<32) into an account that exists.
		dest := keypair.MustRandom().Address()
		double.Fund(dest, 10_0000000)
		signed, _ := ledgertest.BuildClose(acct.Master, dest, 1<<32+1, 0, passphrase, acct.Master)
		closes[i] = signedClose{xdr: signed, keys: acct.Keys, publisher: len(acct.Keys) - 1}
	}
	cl, err := client.New(relayURL, client.WithUserAgent("closerelay-load/1"))
	if err != nil {
		return err
	}
	plans, err := publishPlans(ctx, cl, ledger.Testnet, closes[:o.plans], o.counts)
	if err != nil {
		return err
	}
	spare, err := spareCloses(ledger.Testnet, closes[o.plans:])
	if err != nil {
		return err
	}
	p := &loadkit.Payload{Relay: relayURL, Ops: opsURL, Network: string(ledger.Testnet), ServerPID: os.Getpid(), Plans: plans, Spare: spare}
	if err := loadkit.Write(o.out, p); err != nil {
		return fmt.Errorf("write the payload: %w", err)
	}
	if err := writeKeys(o.keys, stack, ledger.Testnet, accts, append(plans, spare...)); err != nil {
		return fmt.Errorf("write the keys: %w", err)
	}
	prepared := time.Since(start).Round(time.Millisecond)
	if o.json {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(map[string]any{
			"ready": true, "relay": relayURL, "ops": opsURL, "horizon": stack.horizonURL, "rpc": ledgertest.RPCURL(stack.horizonURL), "ledgerApi": o.ledgerAPI, "network": string(ledger.Testnet),
			"payload": o.out, "keys": o.keys, "page": pageBase + "/plan/" + plans[0].ID, "subEntries": append([]int{}, o.subEntries...), "plans": o.plans, "spare": o.spare, "signers": o.signers, "pid": os.Getpid(), "preparedMillis": prepared.Milliseconds(),
		})
	} else {
		spare := ""
		if o.spare > 0 {
			spare = fmt.Sprintf(" spare=%d", o.spare)
		}
		fmt.Fprintf(out, "ready relay=%s ops=%s horizon=%s payload=%s keys=%s plans=%d%s signers=%d pid=%d prepared_in=%s\n",
			relayURL, opsURL, stack.horizonURL, o.out, o.keys, o.plans, spare, o.signers, os.Getpid(), prepared)
		fmt.Fprintf(out, "relay %s, ops %s, account-API double (Horizon) %s, network testnet\n", relayURL, opsURL, stack.horizonURL)
		if o.ledgerAPI == "rpc" {
			fmt.Fprintf(out, "LEDGER_API=rpc: the relay reads and submits through the double's Stellar RPC face, %s\n", ledgertest.RPCURL(stack.horizonURL))
		}
		fmt.Fprintf(out, "the %d accounts' signer secrets are in %s (mode 0600); from another shell:\n  . %s\n", o.plans+o.spare, o.keys, sourcePath(o.keys))
		fmt.Fprintf(out, "published one plan per account, PLAN_1 to PLAN_%d in the keys file: each account's master merging it into a fresh account, signed by the master alone\n", o.plans)
		for _, n := range o.subEntries {
			fmt.Fprintf(out, "account %d holds a trustline with 50 USD, an offer and a data entry (--sub-entries): PLAN_%d, a bare merge, is blocked (op_has_sub_entries)\n", n, n)
		}
		fmt.Fprintf(out, "the co-signers' page of account 1's plan (PLAN_1): %s/plan/%s\n", pageBase, plans[0].ID)
		fmt.Fprintln(out, "serving until Ctrl-C (SIGINT) or SIGTERM")
	}
	if o.ready != nil {
		o.ready(p)
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}
	<-ctx.Done()
	if !o.json {
		// The keys file outlives the stack; its accounts do not.
		fmt.Fprintf(out, "stopping; the keys file %s stays (its accounts lived only in this process: its secrets open nothing now; delete it, or run load local again, which writes it anew)\n", o.keys)
	}
	if o.memProfile != "" {
		if err := writeHeapProfile(o.memProfile); err != nil {
			return fmt.Errorf("--memprofile: %w", err)
		}
	}
	return nil
}

// writeHeapProfile writes the live heap, as of a fresh GC, to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	err = pprof.WriteHeapProfile(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// sourcePath is path as the shell's "." command takes it: a bare name would
// be looked up in $PATH.
func sourcePath(path string) string {
	if filepath.IsAbs(path) || strings.HasPrefix(path, "./") || strings.HasPrefix(path, "../") {
		return path
	}
	return "./" + path
}

// writeKeys writes the keys file of `load local`: a shell file that sets
// the variables the commands read for this stack, and per account its
// address, its plan and its signers' addresses and secrets. It is created
// with mode 0600 (then renamed over path), since it holds secrets; they
// are secrets of accounts that exist only on this process's double.
func writeKeys(path string, stack *localStack, network ledger.Network, accts []ledgertest.Account, plans []loadkit.Plan) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# closerelaylab load local (pid %d): the relay, its account-API double, and the\n", os.Getpid())
	b.WriteString("# accounts created on that double with their signers' secret seeds. The accounts\n")
	b.WriteString("# exist only while that process runs. Keep this file private. From a shell:\n")
	fmt.Fprintf(&b, "#   . %s\n", sourcePath(path))
	fmt.Fprintf(&b, "export %s='%s'\n", ctl.EnvURL, stack.relayURL)
	fmt.Fprintf(&b, "export %s='%s'\n", ctl.EnvHorizon, stack.horizonURL)
	fmt.Fprintf(&b, "export %s='%s'\n", ctl.EnvNetwork, network)
	fmt.Fprintf(&b, "OPS_URL='%s'\n", stack.opsURL)
	for i, a := range accts {
		n := i + 1
		fmt.Fprintf(&b, "\n# account %d: %d signers of weight %d, high threshold %d; the last is its master key,\n",
			n, len(a.Keys), a.Signers[0].Weight, a.Thresholds.HighThreshold)
		fmt.Fprintf(&b, "# which signed the close of plan PLAN_%d (published, unless the account is one of --spare)\n", n)
		fmt.Fprintf(&b, "ACCOUNT_%d='%s'\nPLAN_%d='%s'\n", n, a.Address, n, plans[i].ID)
		for j, k := range a.Keys {
			fmt.Fprintf(&b, "SIGNER_%d_%d='%s' SECRET_%d_%d='%s'\n", n, j+1, k.Address(), n, j+1, k.Seed())
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".load-keys-*") // mode 0600
	if err != nil {
		return err
	}
	_, werr := f.WriteString(b.String())
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), path)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}

// isLoopback reports whether host:port names a loopback host.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// signedClose is one close to publish, signed by keys[publisher].
type signedClose struct {
	xdr       string
	keys      []*keypair.Full
	publisher int
}

// publishPlans publishes each close (a few at a time) and prepares its
// partials on every core. The plans keep the order of closes.
func publishPlans(ctx context.Context, cl *client.Client, network ledger.Network, closes []signedClose, counts loadkit.Counts) ([]loadkit.Plan, error) {
	ins := make([]loadkit.PlanInput, len(closes))
	errs := make([]error, len(closes))
	next := make(chan int)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range next {
				ins[i], errs[i] = publishOne(ctx, cl, network, closes[i])
			}
		})
	}
	for i := range closes {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	plans, err := loadkit.BuildPlans(ins, counts)
	if err != nil {
		return nil, err
	}
	for i := range plans {
		plans[i].Close = closes[i].xdr
	}
	return plans, nil
}

// spareCloses prepares closes that are not published: each plan's id (its
// transaction hash), its Close and its co-signers' Valid partials.
func spareCloses(network ledger.Network, closes []signedClose) ([]loadkit.Plan, error) {
	ins := make([]loadkit.PlanInput, len(closes))
	for i, sc := range closes {
		env, err := ledger.DecodeEnvelope(sc.xdr)
		if err != nil {
			return nil, err
		}
		hash, err := ledger.HashEnvelope(env, network.Passphrase())
		if err != nil {
			return nil, err
		}
		ins[i] = loadkit.PlanInput{ID: hex.EncodeToString(hash[:]), Envelope: env, Passphrase: network.Passphrase(), Keys: sc.keys, Publisher: sc.publisher}
	}
	plans, err := loadkit.BuildPlans(ins, loadkit.Counts{})
	if err != nil {
		return nil, err
	}
	for i := range plans {
		plans[i].Close = closes[i].xdr
		plans[i].Forged = nil
	}
	return plans, nil
}

func publishOne(ctx context.Context, cl *client.Client, network ledger.Network, sc signedClose) (loadkit.PlanInput, error) {
	id, err := cl.Publish(ctx, string(network), sc.xdr)
	if err != nil {
		return loadkit.PlanInput{}, fmt.Errorf("publish: %w", err)
	}
	env, err := ledger.DecodeEnvelope(sc.xdr)
	if err != nil {
		return loadkit.PlanInput{}, err
	}
	return loadkit.PlanInput{ID: id, Envelope: env, Passphrase: network.Passphrase(), Keys: sc.keys, Publisher: sc.publisher}, nil
}

func (c *tool) loadPrepare(args []string) int {
	fs := ctl.NewFlagSet("load prepare", "load prepare [flags]",
		"Publish one close plan of a real account to a relay (--relay) and write the\n"+
			"payload file (--out) for the k6 script and the stream load.\n\n"+
			"The signer secrets (S… seeds, one per line; blank lines and lines starting\n"+
			"with # are skipped) are read from --secrets FILE, or from standard input when\n"+
			"it is - (the default); never from an argument. The first secret publishes;\n"+
			"the account is its address unless --account says otherwise. The account is\n"+
			"read from --horizon-url for its sequence number.\n\n"+
			"The payload holds real signatures of a close into --destination: once every\n"+
			"signer's partial is sent the envelope may be submittable, so --destination\n"+
			"must be an account you control. mainnet is refused.")
	o := c.CommonFlags(fs, time.Minute)
	netName := fs.String("network", "testnet", "testnet or futurenet")
	secrets := fs.String("secrets", "-", "file of signer secrets, one per line (- : standard input)")
	account := fs.String("account", "", "account to close (default: the first secret's address)")
	destination := fs.String("destination", "", "G… account that would receive the funds (required)")
	horizonURL := c.HorizonFlag(fs, "to read the account from (default: the network's public Horizon)")
	counts := countFlags(fs)
	out := fs.String("out", "load-payload.json", "payload file to write")
	if _, code, done := c.Parse(fs, args, 0, ""); done {
		return code
	}
	if err := c.runLoadPrepare(o, ledger.Network(*netName), *secrets, *account, *destination, *horizonURL, *counts, *out); err != nil {
		return c.Fail("load prepare", o.JSON, err)
	}
	return ctl.ExitOK
}

func (c *tool) runLoadPrepare(o *ctl.Common, network ledger.Network, secretsPath, account, destination, horizonURL string,
	counts loadkit.Counts, out string) error {
	if network != ledger.Testnet && network != ledger.Futurenet {
		return ctl.Usagef("--network must be testnet or futurenet (a load run publishes real signatures)")
	}
	if destination == "" {
		return ctl.Usagef("--destination is required: the account that would receive the closed account's funds")
	}
	if err := checkCounts(&counts); err != nil {
		return err
	}
	keys, err := c.readSecrets(secretsPath)
	if err != nil {
		return err
	}
	if account == "" {
		account = keys[0].Address()
	}
	if horizonURL == "" {
		horizonURL = defaultHorizon[string(network)]
	}
	cl, err := c.Client(o, client.WithUserAgent("closerelay-load/1"))
	if err != nil {
		return err
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()

	acc, err := c.Horizon(horizonURL).Account(ctx, account)
	if err != nil {
		return err
	}
	batches, err := wallet.BuildClose(wallet.CloseParams{Account: account, Sequence: acc.Sequence, Destination: destination})
	if err != nil {
		return ctl.Usagef("%v", err)
	}
	unsigned, err := batches[len(batches)-1].Base64()
	if err != nil {
		return err
	}
	signed, err := wallet.SignPartial(unsigned, string(network), keys[0])
	if err != nil {
		return err
	}
	plans, err := publishPlans(ctx, cl, network, []signedClose{{xdr: signed, keys: keys, publisher: 0}}, counts)
	if err != nil {
		return err
	}
	p := &loadkit.Payload{Relay: strings.TrimSuffix(o.Relay, "/"), Network: string(network), Plans: plans}
	if err := loadkit.Write(out, p); err != nil {
		return fmt.Errorf("write the payload: %w", err)
	}
	if o.JSON {
		c.PrintJSON(map[string]any{"ok": true, "id": plans[0].ID, "account": account, "network": string(network), "secrets": len(keys), "payload": out})
		return nil
	}
	fmt.Fprintf(c.Stdout, "published plan %s of %s on %s with %d signer secret(s); payload written to %s\n",
		plans[0].ID, account, network, len(keys), out)
	return nil
}

// readSecrets reads S… seeds, one per line, from path or standard input
// ("-"). No value is ever shown, not even in an error.
func (c *tool) readSecrets(path string) ([]*keypair.Full, error) {
	r := c.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, ctl.Usagef("--secrets: %v", err)
		}
		defer f.Close()
		r = f
	}
	var keys []*keypair.Full
	seen := map[string]bool{}
	sc := bufio.NewScanner(io.LimitReader(r, 1<<16))
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		kp, err := keypair.ParseFull(s)
		if err != nil {
			return nil, ctl.Usagef("secrets line %d is not a valid S… seed (value not shown)", line)
		}
		if seen[kp.Address()] {
			continue
		}
		seen[kp.Address()] = true
		keys = append(keys, kp)
	}
	if err := sc.Err(); err != nil {
		return nil, ctl.Usagef("read the secrets: %v", err)
	}
	if len(keys) == 0 || len(keys) > maxLoadSigners {
		return nil, ctl.Usagef("give 1 to %d signer secrets (got %d)", maxLoadSigners, len(keys))
	}
	return keys, nil
}

func (c *tool) loadRoutes(args []string) int {
	fs := ctl.NewFlagSet("load routes", "load routes [flags]",
		"Send the relay of a payload (--payload, written by `load local`) a mix of every\n"+
			"route from --connections clients for --duration, and print each route's\n"+
			"requests, throughput, latency (p50, p95, p99, max; for events, up to the first\n"+
			"event) and answers other than the one the route must give.\n\n"+
			"The default mix is one close as the relay sees it (loadkit.DefaultRouteMix):\n"+
			"  "+loadkit.DefaultRouteMix+"\n"+
			"publish creates the payload's spare plans, then re-publishes; sign sends their\n"+
			"co-signers' partials as new signers, else replays and fresh signatures; events\n"+
			"opens a stream, waits for its first event and holds it --hold in the background;\n"+
			"cosign mints a flow of its own, builds the forward a wallet would, and asks the\n"+
			"mediator to co-sign it. The relay must run with RATE_LIMITS=off (load local\n"+
			"does) and a MEDIATOR_SECRET, or the mix must leave mint and cosign out.\n\n"+
			"Exit status 1 when a route of the mix sent nothing or more than one answer in\n"+
			"1,000 of a route had another status than expected.")
	payload := fs.String("payload", filepath.Join(defaultLocalDir(), "load-payload.json"), "payload file (closerelaylab load local --out)")
	o := loadkit.RoutesOptions{}
	fs.IntVar(&o.Connections, "connections", 64, "concurrent clients, one request at a time each")
	fs.DurationVar(&o.Duration, "duration", 15*time.Second, "how long to send")
	fs.StringVar(&o.Mix, "mix", loadkit.DefaultRouteMix, "route weights, ROUTE:WEIGHT,… (routes: "+strings.Join(loadkit.RouteOrder, ", ")+")")
	fs.DurationVar(&o.Hold, "hold", 2*time.Second, "how long a stream stays open after its first event")
	var asJSON bool
	ctl.JSONFlag(fs, &asJSON)
	if _, code, done := c.Parse(fs, args, 0, ""); done {
		return code
	}
	if o.Connections < 1 || o.Connections > 4096 || o.Duration <= 0 || o.Hold <= 0 {
		return c.Fail("load routes", asJSON, ctl.Usagef("--connections takes 1 to 4096; --duration and --hold must be positive"))
	}
	if _, err := loadkit.ParseRouteMix(o.Mix); err != nil {
		return c.Fail("load routes", asJSON, ctl.Usagef("--mix: %v", err))
	}
	p, err := loadkit.Read(*payload)
	if err != nil {
		return c.Fail("load routes", asJSON, ctl.Usagef("--payload: %v", err))
	}
	o.Payload = p
	ctx := context.Background()
	if c.Signals != nil {
		var stop context.CancelFunc
		ctx, stop = c.Signals(ctx)
		defer stop()
	}
	res, err := loadkit.RunRoutes(ctx, o)
	if err != nil {
		return c.Fail("load routes", asJSON, err)
	}
	problems := res.Problems()
	if asJSON {
		c.PrintJSON(res)
	} else {
		loadkit.WriteRoutes(c.Stdout, res)
	}
	if len(problems) > 0 {
		return ctl.ExitRefused
	}
	return ctl.ExitOK
}

func (c *tool) loadAdmit(args []string) int {
	fs := ctl.NewFlagSet("load admit", "load admit [flags]",
		"Send the relay of a payload (--payload, written by `load local`) every valid\n"+
			"partial of every plan once, in a shuffled order, from --connections clients:\n"+
			"each request adds a signer its plan did not have. Print the burst's rate,\n"+
			"latency (p50, p95, p99, max) and the relay's own count of the signers it\n"+
			"admitted meanwhile (closerelay_signatures_total{result=\"admitted\"} on its ops\n"+
			"listener, read before and after). Run it once per fresh relay: sent again, the\n"+
			"partials are replays.\n\n"+
			"With --wrk, wrk sends the burst (loadkit/wrk/admit.lua, each partial once\n"+
			"across --threads threads), a lighter generator on the relay's cores.\n\n"+
			"Exit status 1 when an answer was not 200 or the relay admitted another number\n"+
			"of signers than requests were sent.")
	payload := fs.String("payload", "load-payload.json", "payload file (closerelaylab load local --out)")
	o := loadkit.AdmitOptions{}
	fs.IntVar(&o.Connections, "connections", 64, "concurrent clients, one request at a time each")
	seed := fs.Int64("seed", 1, "the order the partials are sent in")
	w := loadkit.WrkAdmit{}
	fs.StringVar(&w.Wrk, "wrk", "", "send the burst with this wrk binary (4.1 or later) instead of Go's clients")
	fs.StringVar(&w.Script, "wrk-script", "loadkit/wrk/admit.lua", "with --wrk: the burst's script")
	fs.IntVar(&w.Threads, "threads", 2, "with --wrk: wrk's threads (they must divide --connections)")
	var asJSON bool
	ctl.JSONFlag(fs, &asJSON)
	if _, code, done := c.Parse(fs, args, 0, ""); done {
		return code
	}
	if o.Connections < 1 || o.Connections > 4096 {
		return c.Fail("load admit", asJSON, ctl.Usagef("--connections takes 1 to 4096"))
	}
	if w.Wrk != "" && (w.Threads < 1 || o.Connections%w.Threads != 0) {
		return c.Fail("load admit", asJSON, ctl.Usagef("--threads takes a divisor of --connections (wrk gives each thread connections/threads)"))
	}
	o.Seed = uint64(*seed)
	p, err := loadkit.Read(*payload)
	if err != nil {
		return c.Fail("load admit", asJSON, ctl.Usagef("--payload: %v", err))
	}
	o.Payload = p
	ctx := context.Background()
	if c.Signals != nil {
		var stop context.CancelFunc
		ctx, stop = c.Signals(ctx)
		defer stop()
	}
	var res *loadkit.AdmitResult
	if w.Wrk != "" {
		w.Payload = *payload
		res, err = loadkit.RunAdmitWrk(ctx, o, w)
	} else {
		res, err = loadkit.RunAdmit(ctx, o)
	}
	if err != nil {
		return c.Fail("load admit", asJSON, err)
	}
	if asJSON {
		c.PrintJSON(res)
	} else {
		loadkit.WriteAdmit(c.Stdout, res)
	}
	if !res.Valid() {
		return ctl.ExitRefused
	}
	return ctl.ExitOK
}
