package ctl

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/wire"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"golang.org/x/term"
)

// networkFlag registers --network, in any case (Testnet is testnet). Its
// default is $CLOSERELAY_NETWORK, else testnet; a value of the variable
// that names no network is refused, with the names, unless --network is
// given.
func (c *CLI) networkFlag(fs *FlagSet) *string {
	p := new(string)
	*p = "testnet"
	if env := c.Getenv(EnvNetwork); env != "" {
		if err := (networkValue{p}).Set(env); err != nil {
			*p = env
			fs.checks = append(fs.checks, func() error {
				if flagGiven(fs, "network") {
					return nil
				}
				return Usagef("%s=%q names no network: want mainnet, testnet or futurenet (in any case)", EnvNetwork, env)
			})
		}
	}
	fs.Var(networkValue{p}, "network", "mainnet, testnet or futurenet (env "+EnvNetwork+")")
	return p
}

// secretEnvFlag registers --secret-env, the variable the secret is read from.
func secretEnvFlag(fs *FlagSet) *string {
	return fs.String("secret-env", EnvSecret, "name of the environment variable holding the secret (unset: read standard input)")
}

// HorizonFlag registers --horizon-url, the account API to read accounts from.
func (c *CLI) HorizonFlag(fs *FlagSet, what string) *string {
	return fs.String("horizon-url", c.Getenv(EnvHorizon), "account API (Horizon) base `URL` "+what+" (env "+EnvHorizon+")")
}

// RPCFlag is --rpc-url: a Stellar RPC endpoint, beside --horizon-url
// (CONTRACT section 15).
func (c *CLI) RPCFlag(fs *FlagSet, what string) *string {
	return fs.String("rpc-url", c.Getenv(EnvRPC), "Stellar RPC endpoint `URL` "+what+", instead of --horizon-url (env "+EnvRPC+")")
}

// Horizon reads accounts from the account API at url, on c's transport.
func (c *CLI) Horizon(url string) *wallet.Horizon {
	return wallet.NewHorizon(url, c.httpClient(15*time.Second))
}

func (c *CLI) publish(args []string) int {
	fs := NewFlagSet("publish", "publish [flags] [XDR|-]",
		"Publish a partly signed account-close transaction (base64 XDR, as an argument\n"+
			"or on standard input; `closerelayctl build --json` output is read too) and\n"+
			"print the plan id. The envelope must already carry a signature of a signer of\n"+
			"the account; with --sign, the CLI adds one first. --network must be the\n"+
			"network the transaction was built and signed for. With --submit the relay\n"+
			"submits the close to the ledger once its signatures reach the threshold\n"+
			"(a close whose transaction source is not the closing account is refused\n"+
			"with SUBMIT_UNSUPPORTED). A close through a mediator published with --submit\n"+
			"and its memo-committed flow token (--flow-token, or read from `build --json`)\n"+
			"has the relay run the forward too, once the close has landed (docs/API.md 3.8).\n"+
			"The relay's verdict (will the close land?) is printed on standard error after\n"+
			"publishing; a close it says the ledger would refuse (blocked) stays published\n"+
			"but exits 1, unless --force.")
	o := c.CommonFlags(fs, 30*time.Second)
	network := c.networkFlag(fs)
	submit := fs.Bool("submit", false, "ask the relay to submit the close to the ledger once it is ready")
	flowToken := fs.String("flow-token", "", "with --submit: the close's memo-committed mediator flow `token`, so that the relay runs its forward (default: the token of build --json input)")
	sign := fs.Bool("sign", false, "sign with the secret from $"+EnvSecret+" (or standard input) before publishing")
	force := fs.Bool("force", false, "exit 0 even when the relay's preflight says the ledger would refuse the close (it is published either way)")
	secretEnv := secretEnvFlag(fs)
	pos, code, done := c.Parse(fs, args, -1, "")
	if done {
		return code
	}
	if len(pos) > 1 {
		return c.Fail("publish", o.JSON, Usagef("%d arguments given, at most 1 expected", len(pos)))
	}
	if *sign && c.Getenv(*secretEnv) == "" && (len(pos) == 0 || pos[0] == "-") {
		return c.Fail("publish", o.JSON, Usagef("--sign reads the secret from standard input, so give the XDR as an argument, or set %s", *secretEnv))
	}
	x, err := c.readInput(pos, "transaction XDR")
	if err != nil {
		return c.Fail("publish", o.JSON, err)
	}
	built, err := fromBuildJSON(x, network, flagGiven(fs, "network"))
	if err != nil {
		return c.Fail("publish", o.JSON, err)
	}
	x = built.XDR
	flow, err := c.publishFlow(*flowToken, built.FlowToken, *submit, o.JSON)
	if err != nil {
		return c.Fail("publish", o.JSON, err)
	}
	if *sign {
		kp, err := c.readSecret(*secretEnv)
		if err != nil {
			return c.Fail("publish", o.JSON, err)
		}
		tx, err := txnbuild.TransactionFromXDR(x)
		if err != nil {
			return c.Fail("publish", o.JSON, Usagef("the XDR does not decode as a transaction envelope"))
		}
		inner, ok := tx.Transaction()
		passphrase, perr := wallet.Passphrase(*network)
		if !ok || perr != nil {
			return c.Fail("publish", o.JSON, Usagef("cannot sign: a classic transaction on mainnet, testnet or futurenet is needed"))
		}
		if inner, err = inner.Sign(passphrase, kp); err != nil {
			return c.Fail("publish", o.JSON, Usagef("sign: %v", err))
		}
		if x, err = inner.Base64(); err != nil {
			return c.Fail("publish", o.JSON, err)
		}
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("publish", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	var popts []client.PublishOption
	if *submit {
		popts = append(popts, client.PublishSubmit())
	}
	if flow != nil {
		popts = append(popts, client.PublishFlowToken(flow.token))
	}
	// The relay answers a publish the same whether it opened a plan or
	// merged into an open one (CONTRACT 4). The plan id is the
	// transaction's hash, so asking for its status first tells which, and
	// whether an earlier publish asked the relay to submit it (a
	// re-publish can set submit, never unset it).
	var before *wire.Status
	if pid := localPlanID(x, *network); pid != "" {
		if st, err := cl.StatusWire(ctx, pid); err == nil {
			before = &st
		}
	}
	id, err := cl.Publish(ctx, *network, x, popts...)
	if err != nil {
		var apiErr *client.Error
		if errors.As(err, &apiErr) && apiErr.Code == "UNSIGNED" {
			err = withHint(err, unsignedHint(x, *network))
		}
		return c.Fail("publish", o.JSON, err)
	}
	merged := before != nil
	submitting := *submit || (before != nil && before.Submit)
	page := strings.TrimSuffix(o.Relay, "/") + "/plan/" + id
	// The relay ran its preflight at publish: its verdict is the publish's
	// outcome (CONTRACT 18). A blocked close stays published, to be looked
	// at, but the exit status says not to collect signatures on it.
	after, verr := cl.StatusWire(ctx, id)
	blocked := verr == nil && blockedBy(after) != "" && !*force
	code = ExitOK
	if blocked {
		code = ExitRefused
	}
	if o.JSON {
		out := map[string]any{"ok": !blocked, "id": id, "network": *network, "submit": submitting, "merged": merged, "page": page}
		if verr == nil {
			out["preflight"] = after.Preflight
		}
		if blocked {
			out["code"] = "BLOCKED"
		}
		if flow != nil {
			out["forward"] = map[string]any{"destination": flow.Destination, "memo": flow.Memo.String()}
		}
		c.PrintJSON(out)
		return code
	}
	line := fmt.Sprintf("published plan %s on %s", id, *network)
	if merged {
		line += ": merged into the open plan"
	}
	switch {
	case flow != nil:
		line += fmt.Sprintf("; the relay submits it once it is ready, then forwards the mediator's funds to %s with memo %s", flow.Destination, flow.Memo)
	case submitting:
		line += "; the relay submits it once it is ready"
	}
	fmt.Fprintln(c.Stdout, line)
	// Standard output stays one line, the id third, for scripts.
	fmt.Fprintf(c.Stderr, "the co-signers' page: %s\n", page)
	if verr != nil {
		fmt.Fprintf(c.Stderr, "the relay's verdict could not be read (%s): whether the close would land is not known\n", Message(verr))
		return code
	}
	writeVerdict(c.Stderr, after, "sign")
	if left := expiresIn(after, time.Now()); left >= 0 && left < minSigningWindow {
		// A close built long ago, or with a short --valid-for: the
		// co-signers may not have the time to sign it.
		fmt.Fprintf(c.Stderr, "the plan ends in %s (%s): little time for co-signers to sign; build the close again with a longer --valid-for if they need more\n", left.Round(time.Second), after.Expiry)
	}
	if blocked {
		fmt.Fprintf(c.Stderr, "%s publish: published, but the relay says the ledger would refuse this close (%s): fix what blocks it and build it again; do not collect signatures on this one\n", c.Name(), blockedBy(after))
	}
	return code
}

// expiresIn is how long st's plan has left at now; -1 when its expiry does
// not parse.
func expiresIn(st wire.Status, now time.Time) time.Duration {
	exp, err := time.Parse(time.RFC3339, st.Expiry)
	if err != nil {
		return -1
	}
	return max(exp.Sub(now), 0)
}

// localPlanID is the id the relay gives the close x on network: its
// transaction hash; "" when x does not decode.
func localPlanID(x, network string) string {
	passphrase, err := wallet.Passphrase(network)
	if err != nil {
		return ""
	}
	env, err := ledger.DecodeEnvelope(x)
	if err != nil {
		return ""
	}
	hash, err := ledger.HashEnvelope(env, passphrase)
	if err != nil {
		return ""
	}
	return hex.EncodeToString(hash[:])
}

// buildOutput is what publish reads of its input: the envelope, and the
// flow token of a mediator close from `build --json` output.
type buildOutput struct {
	XDR       string `json:"xdr"`
	Network   string `json:"network"`
	FlowToken string `json:"flowToken"`
}

// fromBuildJSON takes the envelope (and a mediator close's flow token) out
// of `build --json` output, and its network unless --network was given;
// any other input is the envelope as it is.
func fromBuildJSON(in string, network *string, networkGiven bool) (buildOutput, error) {
	if !strings.HasPrefix(in, "{") {
		return buildOutput{XDR: in}, nil
	}
	var b buildOutput
	if err := json.Unmarshal([]byte(in), &b); err != nil || b.XDR == "" {
		return buildOutput{}, Usagef("the input is JSON but not `closerelayctl build --json` output (no \"xdr\")")
	}
	if !networkGiven && b.Network != "" {
		*network = b.Network
	}
	return b, nil
}

// flagGiven reports whether flag name was set on the command line.
func flagGiven(fs *FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

func (c *CLI) get(args []string) int {
	fs := NewFlagSet("get", "get [flags] PLAN_ID", "Print a plan's network and current merged envelope.")
	o := c.CommonFlags(fs, 30*time.Second)
	pos, code, done := c.Parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	if err := checkPlanID(pos[0]); err != nil {
		return c.Fail("get", o.JSON, err)
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("get", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	p, err := cl.Get(ctx, pos[0])
	if err != nil {
		return c.Fail("get", o.JSON, err)
	}
	if o.JSON {
		c.PrintJSON(map[string]any{"ok": true, "id": strings.ToLower(pos[0]), "network": p.Network, "xdr": p.XDR})
		return ExitOK
	}
	fmt.Fprintf(c.Stdout, "plan %s on %s, %d signature(s)\n%s\n", strings.ToLower(pos[0]), p.Network, signatureCount(p.XDR), p.XDR)
	return ExitOK
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

func (c *CLI) sign(args []string) int {
	fs := NewFlagSet("sign", "sign [flags] PLAN_ID",
		"Add your signature to a plan. The secret seed (S…) is read from $"+EnvSecret+",\n"+
			"or, when that is unset, from standard input: its first line from a pipe, or\n"+
			"typed without echo at a terminal; never from an argument. The plan is fetched,\n"+
			"its transaction checked to hash to PLAN_ID under the plan's network (a relay\n"+
			"cannot have you sign another one), what it does printed on standard error,\n"+
			"operation by operation, with the relay's verdict (will it land?), and at a\n"+
			"terminal confirmed unless --yes; it is then signed locally and only the\n"+
			"signature is sent. A close the relay says the ledger would refuse (blocked)\n"+
			"is not signed: exit 1 with its blockers, unless --force.")
	o := c.CommonFlags(fs, 30*time.Second)
	secretEnv := secretEnvFlag(fs)
	yes := fs.Bool("yes", false, "sign without asking, after printing what the close does")
	force := fs.Bool("force", false, forceUsage)
	pos, code, done := c.Parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	if err := checkPlanID(pos[0]); err != nil {
		return c.Fail("sign", o.JSON, err)
	}
	kp, err := c.readSecret(*secretEnv)
	if err != nil {
		return c.Fail("sign", o.JSON, err)
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("sign", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	p, err := cl.Get(ctx, pos[0])
	if err != nil {
		return c.Fail("sign", o.JSON, err)
	}
	account, err := wallet.CloseAccount(p.XDR)
	if err != nil {
		return c.Fail("sign", o.JSON, fmt.Errorf("the plan's envelope is not an account close: %w", err))
	}
	env, err := ledger.DecodeEnvelope(p.XDR)
	if err != nil {
		return c.Fail("sign", o.JSON, fmt.Errorf("the plan's envelope does not decode: %w", err))
	}
	if hash, err := ledger.HashEnvelope(env, ledger.Network(p.Network).Passphrase()); err != nil || hex.EncodeToString(hash[:]) != strings.ToLower(pos[0]) {
		return c.Fail("sign", o.JSON, &RefusedError{fmt.Errorf("the relay answered a transaction that does not hash to plan %s on %s: not signed", strings.ToLower(pos[0]), p.Network)})
	}
	fmt.Fprintf(c.Stderr, "the close of %s on %s:\n", account, p.Network)
	for i, op := range env.Operations() {
		fmt.Fprintf(c.Stderr, "  %d. %s\n", i+1, ledger.Describe(op, env.SourceAccount()))
	}
	// The relay's verdict comes before the question (CONTRACT 18): a close
	// the ledger would refuse is not signed unless --force, and one the
	// relay could not rate is said to be so.
	already := false
	st, err := cl.StatusWire(ctx, pos[0])
	if err != nil {
		fmt.Fprintf(c.Stderr, "the relay's verdict could not be read (%s): whether the close would land is not known\n", Message(err))
	} else {
		already = slices.Contains(st.Signers, kp.Address())
		writeVerdict(c.Stderr, st, "sign")
		if blockedBy(st) != "" {
			if !*force {
				return c.Fail("sign", o.JSON, refuseBlocked(st, "sign", "signed"))
			}
			fmt.Fprintln(c.Stderr, "--force: signing it all the same")
		}
	}
	if !*yes && c.interactive() {
		fmt.Fprint(c.Stderr, "sign it? [y/N] ")
		answer, _ := bufio.NewReader(c.Stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			return c.Fail("sign", o.JSON, &RefusedError{errors.New("not signed: you did not confirm")})
		}
	}
	partial, err := wallet.SignPartial(p.XDR, p.Network, kp)
	if err != nil {
		return c.Fail("sign", o.JSON, err)
	}
	s, err := cl.Sign(ctx, pos[0], partial)
	if err != nil {
		return c.Fail("sign", o.JSON, err)
	}
	if o.JSON {
		c.PrintJSON(map[string]any{"ok": true, "id": strings.ToLower(pos[0]), "network": s.Network, "signer": kp.Address(), "signers": s.Signers, "xdr": s.XDR})
		return ExitOK
	}
	if already {
		fmt.Fprintf(c.Stdout, "%s had signed this close already: nothing changed\n", kp.Address())
	} else {
		fmt.Fprintf(c.Stdout, "signed the close of %s on %s as %s\n", account, s.Network, kp.Address())
	}
	fmt.Fprintf(c.Stdout, "the plan now carries %d signature(s): %s\n", len(s.Signers), strings.Join(s.Signers, ", "))
	if s.Threshold > 0 {
		state := fmt.Sprintf("%d more needed", s.Threshold-s.Weight)
		if s.Ready {
			state = "threshold met"
		}
		fmt.Fprintf(c.Stdout, "weight %d/%d: %s\n", s.Weight, s.Threshold, state)
	}
	return ExitOK
}

// interactive reports whether standard input is a terminal, where a person
// can be asked before signing.
func (c *CLI) interactive() bool {
	f, ok := c.Stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (c *CLI) watch(args []string) int {
	fs := NewFlagSet("watch", "watch [flags] PLAN_ID",
		"Follow a plan and print each new state with its progress, e.g. \"v2 weight 2/3\":\n"+
			"the weight of the signers present and the threshold the close needs, as the\n"+
			"relay reports them (it weighs every signature against the account's signers and\n"+
			"thresholds, read from its account API at publish). For a relay that reports no\n"+
			"weight (an older one), and for states polled while the stream refuses this\n"+
			"watcher, an account API (--horizon-url or $"+EnvHorizon+") weighs each state\n"+
			"locally against the account's signers and high threshold; without one, watch\n"+
			"lists the signers the relay reports, unweighed. Ends when the plan expires, on\n"+
			"Ctrl-C, or with --until-complete when the threshold is met (then `closerelayctl\n"+
			"ready` prints the envelope to submit) or, for a plan the relay submits, on the\n"+
			"submission's outcome and a flow's forward (exit 1 when either fails). The relay's submission and the mediator\n"+
			"forward it runs are printed as they happen (--json: the relay's submitted,\n"+
			"submit_failed, forwarded and forward_failed event data, named by \"event\").")
	o := c.CommonFlags(fs, 0)
	horizonURL := c.HorizonFlag(fs, "to weigh signatures locally when the relay does not")
	until := fs.Bool("until-complete", false, "exit 0 once the threshold is met, 1 if the plan expires first")
	poll := fs.Duration("poll", 2*time.Second, "polling interval while the stream refuses this watcher (503)")
	pos, code, done := c.Parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	if err := checkPlanID(pos[0]); err != nil {
		return c.Fail("watch", o.JSON, err)
	}
	cl, err := c.Client(o, client.WithPollInterval(*poll))
	if err != nil {
		return c.Fail("watch", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	if c.Signals != nil {
		var stop context.CancelFunc
		ctx, stop = c.Signals(ctx)
		defer stop()
	}

	// A plan the relay submits is complete on its submission's outcome
	// (and a flow's forward), not on readiness (CONTRACT 18): whether it is
	// one is in its status.
	// A relay older than the status route answers none: it runs no
	// submission either.
	submitPlan := false
	if st, err := cl.StatusWire(ctx, pos[0]); err == nil {
		submitPlan = st.Submit
	}
	var acct *wallet.Account
	met, warned := false, false
	outcome := error(nil) // with --until-complete: why the watch ended short of success
	lastVerdict := "none yet"
	err = cl.Watch(ctx, pos[0], func(s client.State) error {
		if s.Submission != nil {
			// submit_failed tells a refusal by the ledger and a close the
			// relay did not post (blocked) alike: the status says which.
			if s.Submission.State != "submitted" {
				if st, err := cl.StatusWire(ctx, pos[0]); err == nil && st.Submission != nil && st.Submission.State == "blocked" {
					s.Submission.State = "blocked"
				}
			}
			c.printSubmission(o.JSON, s)
			if !*until {
				if s.Submission.State == "submitted" && !o.JSON {
					fmt.Fprintln(c.Stderr, "(watch follows the plan until it expires, or Ctrl-C; --until-complete ends on the outcome)")
				}
				return nil
			}
			if s.Submission.State != "submitted" {
				outcome = &RefusedError{fmt.Errorf("the relay's submission ended %s (%s)", s.Submission.Code, s.Submission.Reason)}
				return client.ErrStopWatch
			}
			// A flow's forward is pending once its close has landed; the
			// watch goes on to its outcome.
			if st, err := cl.Status(ctx, pos[0]); err == nil && st.Forward != nil {
				if st.Forward.State == "pending" {
					return nil
				}
				c.printForward(o.JSON, client.State{ID: s.ID, Forward: st.Forward})
				if st.Forward.State != "forwarded" {
					outcome = &RefusedError{fmt.Errorf("the relay's forward failed (%s)", st.Forward.Code)}
				}
			}
			return client.ErrStopWatch
		}
		if s.Forward != nil {
			c.printForward(o.JSON, s)
			if !*until {
				return nil
			}
			if s.Forward.State != "forwarded" {
				outcome = &RefusedError{fmt.Errorf("the relay's forward failed (%s)", s.Forward.Code)}
			}
			return client.ErrStopWatch
		}
		switch {
		case s.Threshold > 0:
			// The relay weighed it: no account API is needed.
			met = s.Ready
			var pf *wire.Preflight
			if verdict := landableText(s.Landable); verdict != lastVerdict {
				// The verdict is new or changed: the relay's status says
				// why (one request, no ledger call); a relay that cannot
				// answer it leaves the landable flag alone.
				lastVerdict = verdict
				if st, err := cl.StatusWire(ctx, pos[0]); err == nil {
					pf = st.Preflight
				}
			}
			c.printRelayState(o.JSON, s, pf, submitPlan)
		case *horizonURL != "":
			if acct == nil {
				id, err := wallet.CloseAccount(s.XDR)
				if err != nil {
					return err
				}
				a, err := c.Horizon(*horizonURL).Account(ctx, id)
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
			c.printState(o.JSON, s, prog)
		case !s.Polled && *until:
			// A relay older than the readiness fields, and nothing else to
			// weigh with: the threshold can never be seen met.
			return Usagef("the relay reports no weight or threshold (an older relay): --until-complete needs --horizon-url or %s", EnvHorizon)
		default:
			if !s.Polled && !warned && !o.JSON {
				warned = true
				fmt.Fprintf(c.Stderr, "the relay reports no weight or threshold (an older relay), and no account API is given (--horizon-url or %s): listing the signers the relay reports, not weighed\n", EnvHorizon)
			}
			c.printSignatures(o.JSON, s)
		}
		if met && *until && !submitPlan {
			return client.ErrStopWatch
		}
		return nil
	}, client.WatchNotify(func(n client.Notice) {
		if o.JSON {
			return
		}
		switch n.Kind {
		case client.NoticePolling:
			fmt.Fprintf(c.Stderr, "stream refused (%s); polling every %s for %s\n", Message(n.Err), *poll, n.Wait)
		case client.NoticeReconnecting:
			fmt.Fprintf(c.Stderr, "stream dropped; reconnecting in %s\n", n.Wait)
		}
	}))
	switch {
	case err == nil && outcome != nil:
		return c.Fail("watch", o.JSON, outcome)
	case err == nil:
		return ExitOK
	case errors.Is(err, client.ErrExpired):
		if o.JSON {
			c.PrintJSON(map[string]any{"ok": true, "id": strings.ToLower(pos[0]), "expired": true, "met": met})
		} else {
			fmt.Fprintln(c.Stdout, "plan expired")
		}
		if *until && !met {
			return ExitRefused
		}
		return ExitOK
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		return ExitOK // interrupted
	case errors.Is(err, wallet.ErrAccountNotFound):
		err = &RefusedError{err}
	}
	return c.Fail("watch", o.JSON, err)
}

// printSubmission prints the relay's submission outcome (`event:
// submitted` or `event: submit_failed`) as watch follows the plan.
func (c *CLI) printSubmission(jsonOut bool, s client.State) {
	sub := s.Submission
	if jsonOut {
		// The relay's event data, named by the event it came in.
		if sub.State == "submitted" {
			c.PrintJSON(struct {
				Event string `json:"event"`
				wire.Submitted
			}{"submitted", wire.Submitted{ID: s.ID, Hash: sub.Hash, Ledger: sub.Ledger}})
			return
		}
		c.PrintJSON(struct {
			Event string `json:"event"`
			wire.SubmitFailed
		}{"submit_failed", wire.SubmitFailed{ID: s.ID, Code: sub.Code, Reason: sub.Reason}})
		return
	}
	switch sub.State {
	case "submitted":
		fmt.Fprintf(c.Stdout, "submitted by the relay: transaction %s in ledger %d\n", sub.Hash, sub.Ledger)
		return
	case "blocked":
		fmt.Fprintf(c.Stdout, "not submitted: the ledger would refuse this close (%s: %s), so the relay did not post it; fix what blocks it, then build and publish a new close\n", sub.Code, sub.Reason)
		return
	}
	fmt.Fprintf(c.Stdout, "the relay's submission failed: %s (%s); the next change of the submit-ready envelope tries again\n", sub.Code, sub.Reason)
}

// printForward prints the outcome of the mediator forward the relay runs
// (`event: forwarded` or `event: forward_failed`, CONTRACT section 16) as
// watch follows the plan.
func (c *CLI) printForward(jsonOut bool, s client.State) {
	f := s.Forward
	if jsonOut {
		// The relay's event data, named by the event it came in.
		if f.State == "forwarded" {
			c.PrintJSON(struct {
				Event string `json:"event"`
				wire.Forwarded
			}{"forwarded", wire.Forwarded{ID: s.ID, Hash: f.Hash, Ledger: f.Ledger, Amount: f.Amount}})
			return
		}
		c.PrintJSON(struct {
			Event string `json:"event"`
			wire.ForwardFailed
		}{"forward_failed", wire.ForwardFailed{ID: s.ID, Code: f.Code, Reason: f.Reason}})
		return
	}
	if f.State == "forwarded" {
		fmt.Fprintf(c.Stdout, "forwarded by the relay: transaction %s in ledger %d paid %s XLM to the committed destination with the committed memo, and merged the mediator into it\n",
			f.Hash, f.Ledger, f.Amount)
		return
	}
	fmt.Fprintf(c.Stdout, "the relay's forward failed: %s (%s); it gave up after its retries, and the funds wait in the mediator: only the relay's operator, who holds the master secret, can move them\n", f.Code, f.Reason)
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
		"landable": s.Landable,
	}
}

// printSignatures prints a state as the relay reports it, unweighed.
func (c *CLI) printSignatures(jsonOut bool, s client.State) {
	if jsonOut {
		c.PrintJSON(stateJSON(s))
		return
	}
	via := fmt.Sprintf("v%d", s.Version)
	if s.Polled {
		via = "polled"
	}
	fmt.Fprintf(c.Stdout, "%s %d signature(s)", via, signatureCount(s.XDR))
	if len(s.Signers) > 0 {
		keys := make([]string, len(s.Signers))
		for i, k := range s.Signers {
			keys[i] = ShortKey(k)
		}
		fmt.Fprintf(c.Stdout, " by %s", strings.Join(keys, ", "))
	}
	fmt.Fprintln(c.Stdout, " (as the relay reports them; not weighed)")
}

// landableText is the state's landable flag as watch prints it after the
// weight: "" when the relay could not tell (uncertain, unchecked, or a
// relay older than the preflight).
func landableText(l *bool) string {
	switch {
	case l == nil:
		return ""
	case *l:
		return "landable"
	}
	return "blocked: do not sign"
}

// printRelayState prints a state with the weight and threshold the relay
// reports, and whether the close would land. pf is the relay's preflight
// when the verdict is new or changed (nil otherwise, or when the relay's
// status could not be read): a blocked one is followed by its blockers, an
// uncertain or unchecked one by a line that says so.
func (c *CLI) printRelayState(jsonOut bool, s client.State, pf *wire.Preflight, submitPlan bool) {
	if jsonOut {
		m := stateJSON(s)
		m["weighed"], m["weighedBy"] = true, "relay"
		m["weight"], m["threshold"], m["ready"] = s.Weight, s.Threshold, s.Ready
		m["needed"], m["met"] = s.Threshold, s.Ready
		if pf != nil {
			m["preflight"] = pf
		}
		c.PrintJSON(m)
		return
	}
	// One write per state: watch often runs in the background of a shell
	// whose other commands print to the same terminal or pipe, and a line
	// written in pieces can be split by theirs.
	var b strings.Builder
	defer func() { _, _ = io.WriteString(c.Stdout, b.String()) }()
	keys := make([]string, len(s.Signers))
	for i, k := range s.Signers {
		keys[i] = ShortKey(k)
	}
	fmt.Fprintf(&b, "v%d weight %d/%d signers: %s", s.Version, s.Weight, s.Threshold, strings.Join(keys, ", "))
	blocked := s.Landable != nil && !*s.Landable
	if v := landableText(s.Landable); v != "" {
		fmt.Fprintf(&b, " — %s", v)
	}
	switch {
	case s.Ready && blocked:
		fmt.Fprint(&b, " — threshold met, but the ledger would refuse this close: do not submit it")
	case s.Ready && submitPlan:
		fmt.Fprint(&b, " — threshold met: the relay submits it")
	case s.Ready:
		fmt.Fprintf(&b, " — threshold met: ready to submit (closerelayctl ready %s prints the envelope)", s.ID)
	}
	fmt.Fprintln(&b)
	switch {
	case pf == nil:
	case pf.State == client.PreflightBlocked:
		fmt.Fprintln(&b, "do not sign this close: the ledger would refuse it")
		writeBlockers(&b, pf.Blockers)
	case pf.State == client.PreflightUncertain || pf.State == client.PreflightUnchecked:
		fmt.Fprintln(&b, "preflight: "+PreflightText(pf))
	}
}

// printState prints a state weighed locally against the account API.
func (c *CLI) printState(jsonOut bool, s client.State, p wallet.Progress) {
	if jsonOut {
		m := stateJSON(s)
		m["weighed"], m["weighedBy"], m["weight"], m["needed"], m["met"] = true, "horizon", p.Weight, p.Needed, p.Met()
		c.PrintJSON(m)
		return
	}
	var b strings.Builder // one write per state, as in printRelayState
	defer func() { _, _ = io.WriteString(c.Stdout, b.String()) }()
	var keys []string
	for _, sg := range p.Signers {
		keys = append(keys, ShortKey(sg.Key))
	}
	via := fmt.Sprintf("v%d", s.Version)
	if s.Polled {
		via = "polled"
	}
	fmt.Fprintf(&b, "%s %s signers: %s", via, p, strings.Join(keys, ", "))
	if p.Unverified > 0 {
		fmt.Fprintf(&b, " (%d signature(s) verify under no signer)", p.Unverified)
	}
	if p.Met() {
		fmt.Fprintf(&b, " — threshold met: ready to submit (closerelayctl ready %s prints the envelope)", s.ID)
	}
	fmt.Fprintln(&b)
}

func (c *CLI) ready(args []string) int {
	fs := NewFlagSet("ready", "ready [flags] PLAN_ID",
		"Print the plan's submit-ready envelope (base64 XDR) on standard output: the\n"+
			"fewest of its signatures that reach the close's threshold, largest weights\n"+
			"first, so the ledger uses every one (an envelope with every co-signer's\n"+
			"signature may fail with tx_bad_auth_extra). The signers, the weight and the\n"+
			"threshold go to standard error; --json prints the relay's whole answer. While\n"+
			"the plan is below its threshold the relay refuses with NOT_READY (exit 1).\n"+
			"closerelayctl submit PLAN_ID submits it to the ledger.")
	o := c.CommonFlags(fs, 30*time.Second)
	pos, code, done := c.Parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	if err := checkPlanID(pos[0]); err != nil {
		return c.Fail("ready", o.JSON, err)
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("ready", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	r, err := cl.Ready(ctx, pos[0])
	if err != nil {
		return c.Fail("ready", o.JSON, err)
	}
	if o.JSON {
		c.PrintJSON(wire.Ready{
			OK: true, ID: r.ID, Network: r.Network, XDR: r.XDR, Signers: nonNilStrings(r.Signers),
			Weight: r.Weight, Threshold: r.Threshold,
		})
		return ExitOK
	}
	keys := make([]string, len(r.Signers))
	for i, k := range r.Signers {
		keys[i] = ShortKey(k)
	}
	fmt.Fprintf(c.Stderr, "plan %s on %s: weight %d/%d with %d signature(s): %s\n", r.ID, r.Network, r.Weight, r.Threshold, len(r.Signers), strings.Join(keys, ", "))
	fmt.Fprintln(c.Stdout, r.XDR)
	return ExitOK
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
