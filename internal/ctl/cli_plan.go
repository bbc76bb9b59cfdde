package ctl

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/wire"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// defaultHorizon is the public account API of each network. Only `load
// prepare`, which is for real testnet accounts, falls back to it: build,
// watch and mediator forward read an account API only when one is named.
var defaultHorizon = map[string]string{
	"mainnet":   "https://horizon.stellar.org",
	"testnet":   "https://horizon-testnet.stellar.org",
	"futurenet": "https://horizon-futurenet.stellar.org",
}

func (c *cli) networkDefault() string {
	if n := c.getenv(envNetwork); n != "" {
		return n
	}
	return "testnet"
}

// networkFlag registers --network.
func (c *cli) networkFlag(fs *flagSet) *string {
	return fs.String("network", c.networkDefault(), "mainnet, testnet or futurenet (env "+envNetwork+")")
}

// secretEnvFlag registers --secret-env, the variable the secret is read from.
func secretEnvFlag(fs *flagSet) *string {
	return fs.String("secret-env", envSecret, "name of the environment variable holding the secret (unset: read standard input)")
}

// horizonFlag registers --horizon-url, the account API to read accounts from.
func (c *cli) horizonFlag(fs *flagSet, what string) *string {
	return fs.String("horizon-url", c.getenv(envHorizon), "account API (Horizon) base `URL` "+what+" (env "+envHorizon+")")
}

// horizon reads accounts from the account API at url, on c's transport.
func (c *cli) horizon(url string) *wallet.Horizon {
	return wallet.NewHorizon(url, c.httpClient(15*time.Second))
}

func (c *cli) publish(args []string) int {
	fs := newFlagSet("publish", "publish [flags] [XDR|-]",
		"Publish a partly signed account-close transaction (base64 XDR, as an argument\n"+
			"or on standard input; `closerelayctl build --json` output is read too) and\n"+
			"print the plan id. The envelope must already carry a signature of a signer of\n"+
			"the account; with --sign, the CLI adds one first. --network must be the\n"+
			"network the transaction was built and signed for. With --submit the relay\n"+
			"submits the close to the ledger once its signatures reach the threshold\n"+
			"(a close whose transaction source is not the closing account is refused\n"+
			"with SUBMIT_UNSUPPORTED).")
	o := c.commonFlags(fs, 30*time.Second)
	network := c.networkFlag(fs)
	submit := fs.Bool("submit", false, "ask the relay to submit the close to the ledger once it is ready")
	sign := fs.Bool("sign", false, "sign with the secret from $"+envSecret+" (or standard input) before publishing")
	secretEnv := secretEnvFlag(fs)
	pos, code, done := c.parse(fs, args, -1, "")
	if done {
		return code
	}
	if len(pos) > 1 {
		return c.fail("publish", o.json, usagef("%d arguments given, at most 1 expected", len(pos)))
	}
	if *sign && c.getenv(*secretEnv) == "" && (len(pos) == 0 || pos[0] == "-") {
		return c.fail("publish", o.json, usagef("--sign reads the secret from standard input, so give the XDR as an argument, or set %s", *secretEnv))
	}
	x, err := c.readInput(pos, "transaction XDR")
	if err != nil {
		return c.fail("publish", o.json, err)
	}
	if x, err = fromBuildJSON(x, network, flagGiven(fs, "network")); err != nil {
		return c.fail("publish", o.json, err)
	}
	if *sign {
		kp, err := c.readSecret(*secretEnv)
		if err != nil {
			return c.fail("publish", o.json, err)
		}
		tx, err := txnbuild.TransactionFromXDR(x)
		if err != nil {
			return c.fail("publish", o.json, usagef("the XDR does not decode as a transaction envelope"))
		}
		inner, ok := tx.Transaction()
		passphrase, perr := wallet.Passphrase(*network)
		if !ok || perr != nil {
			return c.fail("publish", o.json, usagef("cannot sign: a classic transaction on mainnet, testnet or futurenet is needed"))
		}
		if inner, err = inner.Sign(passphrase, kp); err != nil {
			return c.fail("publish", o.json, usagef("sign: %v", err))
		}
		if x, err = inner.Base64(); err != nil {
			return c.fail("publish", o.json, err)
		}
	}
	cl, err := c.client(o)
	if err != nil {
		return c.fail("publish", o.json, err)
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	var popts []client.PublishOption
	if *submit {
		popts = append(popts, client.PublishSubmit())
	}
	id, err := cl.Publish(ctx, *network, x, popts...)
	if err != nil {
		return c.fail("publish", o.json, err)
	}
	if o.json {
		c.printJSON(map[string]any{"ok": true, "id": id, "network": *network, "submit": *submit})
	} else if *submit {
		fmt.Fprintf(c.stdout, "published plan %s on %s; the relay submits it once it is ready\n", id, *network)
	} else {
		fmt.Fprintf(c.stdout, "published plan %s on %s\n", id, *network)
	}
	return exitOK
}

// fromBuildJSON takes the envelope out of `build --json` output, and its
// network unless --network was given; any other input is returned as is.
func fromBuildJSON(in string, network *string, networkGiven bool) (string, error) {
	if !strings.HasPrefix(in, "{") {
		return in, nil
	}
	var b struct {
		XDR     string `json:"xdr"`
		Network string `json:"network"`
	}
	if err := json.Unmarshal([]byte(in), &b); err != nil || b.XDR == "" {
		return "", usagef("the input is JSON but not `closerelayctl build --json` output (no \"xdr\")")
	}
	if !networkGiven && b.Network != "" {
		*network = b.Network
	}
	return b.XDR, nil
}

// flagGiven reports whether flag name was set on the command line.
func flagGiven(fs *flagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

func (c *cli) get(args []string) int {
	fs := newFlagSet("get", "get [flags] PLAN_ID", "Print a plan's network and current merged envelope.")
	o := c.commonFlags(fs, 30*time.Second)
	pos, code, done := c.parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	cl, err := c.client(o)
	if err != nil {
		return c.fail("get", o.json, err)
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	p, err := cl.Get(ctx, pos[0])
	if err != nil {
		return c.fail("get", o.json, err)
	}
	if o.json {
		c.printJSON(map[string]any{"ok": true, "id": strings.ToLower(pos[0]), "network": p.Network, "xdr": p.XDR})
		return exitOK
	}
	fmt.Fprintf(c.stdout, "plan %s on %s, %d signature(s)\n%s\n", strings.ToLower(pos[0]), p.Network, signatureCount(p.XDR), p.XDR)
	return exitOK
}

func signatureCount(x string) int {
	tx, err := txnbuild.TransactionFromXDR(x)
	if err != nil {
		return 0
	}
	if inner, ok := tx.Transaction(); ok {
		return len(inner.Signatures())
	}
	return 0
}

func (c *cli) sign(args []string) int {
	fs := newFlagSet("sign", "sign [flags] PLAN_ID",
		"Add your signature to a plan. The secret seed (S…) is read from $"+envSecret+",\n"+
			"or, when that is unset, from standard input: its first line from a pipe, or\n"+
			"typed without echo at a terminal; never from an argument. The plan is fetched,\n"+
			"its transaction signed locally under the plan's network, and only the\n"+
			"signature is sent.")
	o := c.commonFlags(fs, 30*time.Second)
	secretEnv := secretEnvFlag(fs)
	pos, code, done := c.parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	kp, err := c.readSecret(*secretEnv)
	if err != nil {
		return c.fail("sign", o.json, err)
	}
	cl, err := c.client(o)
	if err != nil {
		return c.fail("sign", o.json, err)
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	p, err := cl.Get(ctx, pos[0])
	if err != nil {
		return c.fail("sign", o.json, err)
	}
	account, err := wallet.CloseAccount(p.XDR)
	if err != nil {
		return c.fail("sign", o.json, fmt.Errorf("the plan's envelope is not an account close: %w", err))
	}
	partial, err := wallet.SignPartial(p.XDR, p.Network, kp)
	if err != nil {
		return c.fail("sign", o.json, err)
	}
	s, err := cl.Sign(ctx, pos[0], partial)
	if err != nil {
		return c.fail("sign", o.json, err)
	}
	if o.json {
		c.printJSON(map[string]any{"ok": true, "id": strings.ToLower(pos[0]), "network": s.Network, "signer": kp.Address(), "signers": s.Signers, "xdr": s.XDR})
		return exitOK
	}
	fmt.Fprintf(c.stdout, "signed the close of %s on %s as %s\nthe plan now carries %d signature(s): %s\n",
		account, s.Network, kp.Address(), len(s.Signers), strings.Join(s.Signers, ", "))
	return exitOK
}

func (c *cli) watch(args []string) int {
	fs := newFlagSet("watch", "watch [flags] PLAN_ID",
		"Follow a plan and print each new state with its progress, e.g. \"v2 weight 2/3\":\n"+
			"the weight of the signers present and the threshold the close needs, as the\n"+
			"relay reports them (it weighs every signature against the account's signers and\n"+
			"thresholds, read from its account API at publish). For a relay that reports no\n"+
			"weight (an older one), and for states polled while the stream refuses this\n"+
			"watcher, an account API (--horizon-url or $"+envHorizon+") weighs each state\n"+
			"locally against the account's signers and high threshold; without one, watch\n"+
			"lists the signers the relay reports, unweighed. Ends when the plan expires, on\n"+
			"Ctrl-C, or with --until-complete when the threshold is met; then `closerelayctl\n"+
			"ready` prints the envelope to submit.")
	o := c.commonFlags(fs, 0)
	horizonURL := c.horizonFlag(fs, "to weigh signatures locally when the relay does not")
	until := fs.Bool("until-complete", false, "exit 0 once the threshold is met, 1 if the plan expires first")
	poll := fs.Duration("poll", 2*time.Second, "polling interval while the stream refuses this watcher (503)")
	pos, code, done := c.parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	cl, err := c.client(o, client.WithPollInterval(*poll))
	if err != nil {
		return c.fail("watch", o.json, err)
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	if c.signals != nil {
		var stop context.CancelFunc
		ctx, stop = c.signals(ctx)
		defer stop()
	}

	var acct *wallet.Account
	met, warned := false, false
	err = cl.Watch(ctx, pos[0], func(s client.State) error {
		if s.Submission != nil {
			c.printSubmission(o.json, s)
			return nil
		}
		switch {
		case s.Threshold > 0:
			// The relay weighed it: no account API is needed.
			met = s.Ready
			c.printRelayState(o.json, s)
		case *horizonURL != "":
			if acct == nil {
				id, err := wallet.CloseAccount(s.XDR)
				if err != nil {
					return err
				}
				a, err := c.horizon(*horizonURL).Account(ctx, id)
				if err != nil {
					return err
				}
				acct = &a
			}
			prog, err := wallet.Weigh(s.XDR, s.Network, *acct)
			if err != nil {
				return err
			}
			met = prog.Met()
			c.printState(o.json, s, prog)
		case !s.Polled && *until:
			// A relay older than the readiness fields, and nothing else to
			// weigh with: the threshold can never be seen met.
			return usagef("the relay reports no weight or threshold (an older relay): --until-complete needs --horizon-url or %s", envHorizon)
		default:
			if !s.Polled && !warned && !o.json {
				warned = true
				fmt.Fprintf(c.stderr, "the relay reports no weight or threshold (an older relay), and no account API is given (--horizon-url or %s): listing the signers the relay reports, not weighed\n", envHorizon)
			}
			c.printSignatures(o.json, s)
		}
		if met && *until {
			return client.ErrStopWatch
		}
		return nil
	}, client.WatchNotify(func(n client.Notice) {
		if o.json {
			return
		}
		switch n.Kind {
		case client.NoticePolling:
			fmt.Fprintf(c.stderr, "stream refused (%s); polling every %s for %s\n", message(n.Err), *poll, n.Wait)
		case client.NoticeReconnecting:
			fmt.Fprintf(c.stderr, "stream dropped; reconnecting in %s\n", n.Wait)
		}
	}))
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, client.ErrExpired):
		if o.json {
			c.printJSON(map[string]any{"ok": true, "id": strings.ToLower(pos[0]), "expired": true, "met": met})
		} else {
			fmt.Fprintln(c.stdout, "plan expired")
		}
		if *until && !met {
			return exitRefused
		}
		return exitOK
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		return exitOK // interrupted
	case errors.Is(err, wallet.ErrAccountNotFound):
		err = &refusedError{err}
	}
	return c.fail("watch", o.json, err)
}

// printSubmission prints the relay's submission outcome (`event:
// submitted` or `event: submit_failed`) as watch follows the plan.
func (c *cli) printSubmission(jsonOut bool, s client.State) {
	sub := s.Submission
	if jsonOut {
		// The relay's event data, named by the event it came in.
		if sub.State == "submitted" {
			c.printJSON(struct {
				Event string `json:"event"`
				wire.Submitted
			}{"submitted", wire.Submitted{ID: s.ID, Hash: sub.Hash, Ledger: int(sub.Ledger)}})
			return
		}
		c.printJSON(struct {
			Event string `json:"event"`
			wire.SubmitFailed
		}{"submit_failed", wire.SubmitFailed{ID: s.ID, Code: sub.Code, Reason: sub.Reason}})
		return
	}
	if sub.State == "submitted" {
		fmt.Fprintf(c.stdout, "submitted by the relay: transaction %s in ledger %d\n", sub.Hash, sub.Ledger)
		return
	}
	fmt.Fprintf(c.stdout, "the relay's submission failed: %s (%s); the next change of the submit-ready envelope tries again\n", sub.Code, sub.Reason)
}

// stateJSON is what watch prints of a state in JSON mode, with or without
// the weighing.
func stateJSON(s client.State) map[string]any {
	signers := s.Signers
	if signers == nil {
		signers = []string{}
	}
	return map[string]any{
		"id": s.ID, "version": s.Version, "network": s.Network, "xdr": s.XDR, "signers": signers,
		"signatures": signatureCount(s.XDR), "polled": s.Polled, "weighed": false,
	}
}

// printSignatures prints a state as the relay reports it, unweighed.
func (c *cli) printSignatures(jsonOut bool, s client.State) {
	if jsonOut {
		c.printJSON(stateJSON(s))
		return
	}
	via := fmt.Sprintf("v%d", s.Version)
	if s.Polled {
		via = "polled"
	}
	fmt.Fprintf(c.stdout, "%s %d signature(s)", via, signatureCount(s.XDR))
	if len(s.Signers) > 0 {
		keys := make([]string, len(s.Signers))
		for i, k := range s.Signers {
			keys[i] = shortKey(k)
		}
		fmt.Fprintf(c.stdout, " by %s", strings.Join(keys, ", "))
	}
	fmt.Fprintln(c.stdout, " (as the relay reports them; not weighed)")
}

// printRelayState prints a state with the weight and threshold the relay
// reports.
func (c *cli) printRelayState(jsonOut bool, s client.State) {
	if jsonOut {
		m := stateJSON(s)
		m["weighed"], m["weighedBy"] = true, "relay"
		m["weight"], m["threshold"], m["ready"] = s.Weight, s.Threshold, s.Ready
		m["needed"], m["met"] = s.Threshold, s.Ready
		c.printJSON(m)
		return
	}
	keys := make([]string, len(s.Signers))
	for i, k := range s.Signers {
		keys[i] = shortKey(k)
	}
	fmt.Fprintf(c.stdout, "v%d weight %d/%d signers: %s", s.Version, s.Weight, s.Threshold, strings.Join(keys, ", "))
	if s.Ready {
		fmt.Fprintf(c.stdout, " — threshold met: ready to submit (closerelayctl ready %s prints the envelope)", s.ID)
	}
	fmt.Fprintln(c.stdout)
}

// printState prints a state weighed locally against the account API.
func (c *cli) printState(jsonOut bool, s client.State, p wallet.Progress) {
	if jsonOut {
		m := stateJSON(s)
		m["weighed"], m["weighedBy"], m["weight"], m["needed"], m["met"] = true, "horizon", p.Weight, p.Needed, p.Met()
		c.printJSON(m)
		return
	}
	var keys []string
	for _, sg := range p.Signers {
		keys = append(keys, shortKey(sg.Key))
	}
	via := fmt.Sprintf("v%d", s.Version)
	if s.Polled {
		via = "polled"
	}
	fmt.Fprintf(c.stdout, "%s %s signers: %s", via, p, strings.Join(keys, ", "))
	if p.Unverified > 0 {
		fmt.Fprintf(c.stdout, " (%d signature(s) verify under no signer)", p.Unverified)
	}
	if p.Met() {
		fmt.Fprintf(c.stdout, " — threshold met: ready to submit (closerelayctl ready %s prints the envelope)", s.ID)
	}
	fmt.Fprintln(c.stdout)
}

func (c *cli) ready(args []string) int {
	fs := newFlagSet("ready", "ready [flags] PLAN_ID",
		"Print the plan's submit-ready envelope (base64 XDR) on standard output: the\n"+
			"fewest of its signatures that reach the close's threshold, largest weights\n"+
			"first, so the ledger uses every one (an envelope with every co-signer's\n"+
			"signature may fail with tx_bad_auth_extra). The signers, the weight and the\n"+
			"threshold go to standard error; --json prints the relay's whole answer. While\n"+
			"the plan is below its threshold the relay refuses with NOT_READY (exit 1).\n"+
			"closerelayctl submit PLAN_ID submits it to the ledger.")
	o := c.commonFlags(fs, 30*time.Second)
	pos, code, done := c.parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	cl, err := c.client(o)
	if err != nil {
		return c.fail("ready", o.json, err)
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	r, err := cl.Ready(ctx, pos[0])
	if err != nil {
		return c.fail("ready", o.json, err)
	}
	if o.json {
		c.printJSON(wire.Ready{
			OK: true, ID: r.ID, Network: r.Network, XDR: r.XDR, Signers: nonNilStrings(r.Signers),
			Weight: r.Weight, Threshold: r.Threshold,
		})
		return exitOK
	}
	keys := make([]string, len(r.Signers))
	for i, k := range r.Signers {
		keys[i] = shortKey(k)
	}
	fmt.Fprintf(c.stderr, "plan %s on %s: weight %d/%d with %d signature(s): %s\n", r.ID, r.Network, r.Weight, r.Threshold, len(r.Signers), strings.Join(keys, ", "))
	fmt.Fprintln(c.stdout, r.XDR)
	return exitOK
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
