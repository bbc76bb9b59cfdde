package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// defaultHorizon is the public account API of each network, used by watch
// when neither --horizon-url nor the environment names one.
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

func (c *cli) publish(args []string) int {
	fs := newFlagSet("publish", "publish [flags] [XDR|-]",
		"Publish a partly signed account-close transaction (base64 XDR, as an argument\n"+
			"or on standard input) and print the plan id. The envelope must already carry a\n"+
			"signature of a signer of the account; with --sign, the CLI adds one first.")
	o := c.commonFlags(fs, 30*time.Second)
	network := fs.String("network", c.networkDefault(), "mainnet, testnet or futurenet (env "+envNetwork+")")
	sign := fs.Bool("sign", false, "sign with the secret from $"+envSecret+" (or standard input) before publishing")
	pos, code, done := c.parse(fs, args, -1, "")
	if done {
		return code
	}
	if len(pos) > 1 {
		return c.fail("publish", o.json, usagef("%d arguments given, at most 1 expected", len(pos)))
	}
	if *sign && c.getenv(envSecret) == "" && (len(pos) == 0 || pos[0] == "-") {
		return c.fail("publish", o.json, usagef("--sign reads the secret from standard input, so give the XDR as an argument, or set %s", envSecret))
	}
	x, err := c.readInput(pos, "transaction XDR")
	if err != nil {
		return c.fail("publish", o.json, err)
	}
	if *sign {
		kp, err := c.readSecret(envSecret)
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
	cl, err := o.client()
	if err != nil {
		return c.fail("publish", o.json, err)
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	id, err := cl.Publish(ctx, *network, x)
	if err != nil {
		return c.fail("publish", o.json, err)
	}
	if o.json {
		c.printJSON(map[string]any{"ok": true, "id": id, "network": *network})
	} else {
		fmt.Fprintf(c.stdout, "published plan %s on %s\n", id, *network)
	}
	return exitOK
}

func (c *cli) get(args []string) int {
	fs := newFlagSet("get", "get [flags] PLAN_ID", "Print a plan's network and current merged envelope.")
	o := c.commonFlags(fs, 30*time.Second)
	pos, code, done := c.parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	cl, err := o.client()
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
			"or, when that is unset, from the first line of standard input; never from an\n"+
			"argument. The plan is fetched, its transaction signed locally under the plan's\n"+
			"network, and only the signature is sent.")
	o := c.commonFlags(fs, 30*time.Second)
	secretEnv := fs.String("secret-env", envSecret, "name of the environment variable holding the secret")
	pos, code, done := c.parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	kp, err := c.readSecret(*secretEnv)
	if err != nil {
		return c.fail("sign", o.json, err)
	}
	cl, err := o.client()
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
		"Follow a plan and print each new state with its progress (e.g. weight 2/3),\n"+
			"computed locally: every signature is verified against the account's signers\n"+
			"and high threshold, read from Horizon (--horizon-url). Ends when the plan\n"+
			"expires, on Ctrl-C, or with --until-complete when the threshold is met.")
	o := c.commonFlags(fs, 0)
	horizonURL := fs.String("horizon-url", c.getenv(envHorizon), "account API (Horizon) base URL (env "+envHorizon+"; default: the network's public Horizon)")
	until := fs.Bool("until-complete", false, "exit 0 once the threshold is met (exit 1 if the plan expires first)")
	poll := fs.Duration("poll", 2*time.Second, "polling interval while the stream refuses this watcher (503)")
	pos, code, done := c.parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	cl, err := client.New(o.url, client.WithUserAgent("closerelay-cli/1"), client.WithPollInterval(*poll))
	if err != nil {
		return c.fail("watch", o.json, usagef("--url: %v", err))
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	if c.signals != nil {
		var stop context.CancelFunc
		ctx, stop = c.signals(ctx)
		defer stop()
	}

	var acct *wallet.Account
	met := false
	err = cl.Watch(ctx, pos[0], func(s client.State) error {
		if acct == nil {
			a, err := c.readAccount(ctx, *horizonURL, s)
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
			fmt.Fprintf(c.stderr, "stream refused (%v); polling every %s for %s\n", n.Err, *poll, n.Wait)
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
	}
	return c.fail("watch", o.json, err)
}

// readAccount reads the closed account from the account API: never from the
// relay, whose claims the progress check exists to verify.
func (c *cli) readAccount(ctx context.Context, horizonURL string, s client.State) (wallet.Account, error) {
	if horizonURL == "" {
		horizonURL = defaultHorizon[s.Network]
	}
	if horizonURL == "" {
		return wallet.Account{}, usagef("no account API for network %q: set --horizon-url", s.Network)
	}
	id, err := wallet.CloseAccount(s.XDR)
	if err != nil {
		return wallet.Account{}, err
	}
	return wallet.NewHorizon(horizonURL, &http.Client{Timeout: 15 * time.Second}).Account(ctx, id)
}

func (c *cli) printState(jsonOut bool, s client.State, p wallet.Progress) {
	if jsonOut {
		c.printJSON(map[string]any{
			"id": s.ID, "version": s.Version, "network": s.Network, "xdr": s.XDR, "signers": s.Signers,
			"polled": s.Polled, "weight": p.Weight, "needed": p.Needed, "met": p.Met(),
		})
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
		fmt.Fprint(c.stdout, " — threshold met: ready to submit")
	}
	fmt.Fprintln(c.stdout)
}
