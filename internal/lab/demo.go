package lab

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/internal/ctl"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/wire"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// demoOptions tune the demo; the zero value is what `closerelaylab demo` runs.
type demoOptions struct {
	timeout   time.Duration // the whole demo fails after this; 60 s when zero
	logs      io.Writer     // the relay's logs; discarded when nil
	ledgerAPI string        // LEDGER_API: horizon (when empty) or rpc, both the double's
	outcome   *demoOutcome  // filled in with what the mediator close did, when set
	// keep, when set, keeps the relay serving after a successful demo until
	// it ends (Ctrl-C), so that the plan's page can be opened.
	keep context.Context
}

func (c *tool) demo(args []string) int {
	fs := ctl.NewFlagSet("demo", "demo [flags]",
		"Run the whole flow end to end, in process, on 127.0.0.1 only: an account-API\n"+
			"double holding a fresh account with three signers (weight 1 each, high\n"+
			"threshold 3) that holds what real accounts hold (a USD trustline with a\n"+
			"balance, an offer and a data entry), the relay with rate limits on and a fresh\n"+
			"MEDIATOR_SECRET, and the Go client: a bare merge the relay's preflight finds\n"+
			"blocked, then the close that empties the account first, landable: publish,\n"+
			"watch, co-sign to 3/3, submitted; then a 2-of-3 account closed through a\n"+
			"mediator to an exchange account that requires a memo (SEP-29): published with\n"+
			"its memo-committed flow token and submit, co-signed, the close and the forward\n"+
			"both submitted by the relay, the exchange credited with the memo. Exits 0\n"+
			"on success, 1 on any failure. LEDGER_API=rpc in the environment has the relay\n"+
			"read and submit through the double's Stellar RPC face instead of its Horizon\n"+
			"one. With --keep the relay keeps serving once the demo is done, so that the\n"+
			"plan's page can be opened, until Ctrl-C (make demo KEEP=1). To run the\n"+
			"commands yourself against such a stack, start `closerelaylab load local`.")
	timeout := fs.Duration("timeout", 60*time.Second, "fail if the demo takes longer")
	keep := fs.Bool("keep", false, "keep the relay serving after the demo, until Ctrl-C (SIGINT) or SIGTERM")
	verbose := fs.Bool("verbose", false, "show the relay's logs on standard error")
	jsonOut := new(bool)
	ctl.JSONFlag(fs, jsonOut)
	if _, code, done := c.Parse(fs, args, 0, ""); done {
		return code
	}
	var outcome demoOutcome
	opts := demoOptions{timeout: *timeout, ledgerAPI: c.Getenv("LEDGER_API"), outcome: &outcome}
	if *keep {
		ctx := context.Background()
		if c.Signals != nil {
			var stop context.CancelFunc
			ctx, stop = c.Signals(ctx)
			defer stop()
		}
		opts.keep = ctx
	}
	if *verbose {
		opts.logs = c.Stderr
	}
	narration := c.Stdout
	if *jsonOut {
		narration = io.Discard
	}
	err := runDemo(context.Background(), narration, opts)
	switch {
	case *jsonOut && err != nil:
		c.PrintJSON(wire.Error{OK: false, Code: "FAILED", Reason: ctl.Message(err)})
	case *jsonOut:
		c.PrintJSON(outcome)
	case err != nil:
		fmt.Fprintf(c.Stderr, "%s demo: FAILED: %s\n", c.Name(), ctl.Message(err))
	}
	if err != nil {
		return 1
	}
	return ctl.ExitOK
}

// narrator numbers the demo's steps on its output.
type narrator struct {
	w    io.Writer
	step int
}

func (n *narrator) stepf(format string, args ...any) {
	n.step++
	fmt.Fprintf(n.w, "\n[%d] "+format+"\n", append([]any{n.step}, args...)...)
}

func (n *narrator) notef(format string, args ...any) {
	fmt.Fprintf(n.w, "    "+format+"\n", args...)
}

// watched is one state seen by the demo's watcher, with its progress.
type watched struct {
	state    client.State
	progress wallet.Progress
}

// runDemo runs the demo, narrating on out. Every wait is bounded by
// opts.timeout, and everything it starts is stopped before it returns.
func runDemo(parent context.Context, out io.Writer, opts demoOptions) (err error) {
	if opts.timeout <= 0 {
		opts.timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeoutCause(parent, opts.timeout, fmt.Errorf("the demo did not finish within %s", opts.timeout))
	defer cancel()
	defer func() {
		if err != nil && context.Cause(ctx) != nil && ctx.Err() != nil {
			err = fmt.Errorf("%w (%v)", err, context.Cause(ctx))
		}
	}()
	if opts.outcome == nil {
		opts.outcome = new(demoOutcome)
	}
	opts.outcome.LedgerAPI = "horizon"
	if opts.ledgerAPI == "rpc" {
		opts.outcome.LedgerAPI = "rpc"
	}
	n := &narrator{w: out}
	fmt.Fprintln(out, "closerelaylab demo: the relay, its account-API double and the client all run in this process, on 127.0.0.1; nothing reaches the network.")

	// The account API double, on a loopback listener of its own.
	double := ledgertest.NewHandler()
	acct := ledgertest.NewAccount(2, 1) // two extra signers and the master, weight 1 each; high threshold 3
	double.AddAccount(acct)
	// What most real accounts hold: a trustline with a balance, an offer
	// and a data entry. A bare merge of it fails with op_has_sub_entries.
	issuer, err := addSubEntries(double, acct.Address)
	if err != nil {
		return err
	}
	names := map[string]string{
		acct.Keys[0].Address(): "signer A",
		acct.Keys[1].Address(): "signer B",
		acct.Master.Address():  "signer C (the master key)",
	}

	// The relay, wired exactly as `closerelay serve` wires it.
	stack, err := startLocalStack(double, map[string]string{
		"LISTEN_ADDR":      "127.0.0.1:0",
		"OPS_ADDR":         "127.0.0.1:0",
		"HORIZON_TIMEOUT":  "5s",
		"MEDIATOR_SECRET":  keypair.MustRandom().Seed(),
		"RATE_LIMITS":      "on",
		"SHUTDOWN_TIMEOUT": "5s",
		"LOG_FORMAT":       "text",
		"LEDGER_API":       opts.ledgerAPI,
	}, opts.logs)
	if err != nil {
		return err
	}
	defer func() {
		if serr := stack.stop(); serr != nil && err == nil {
			err = serr
		}
	}()
	horizonURL, relayURL, opsURL := stack.horizonURL, stack.relayURL, stack.opsURL
	n.stepf("account API double (Horizon's JSON shapes) on %s", horizonURL)
	n.notef("account %s: signers A, B and C (its master key), weight 1 each; high threshold 3", acct.Address)
	n.notef("it holds a trustline with 50 USD (issuer %s), an offer selling 10 USD and a data entry \"note\"", ctl.ShortKey(issuer))
	n.stepf("relay serving on %s (ops on %s), rate limits on, a fresh MEDIATOR_SECRET", relayURL, opsURL)
	if opts.ledgerAPI == "rpc" {
		n.notef("LEDGER_API=rpc: the relay reads and submits through the double's Stellar RPC face, %s", ledgertest.RPCURL(horizonURL))
	}
	if err := checkReady(ctx, opsURL); err != nil {
		return err
	}
	n.notef("GET %s/readyz: 200", opsURL)

	cl, err := client.New(relayURL, client.WithUserAgent("closerelay-demo/1"))
	if err != nil {
		return err
	}
	horizon := wallet.NewHorizon(horizonURL, nil)

	// Publish a close signed by one key.
	account, err := horizon.Account(ctx, acct.Address)
	if err != nil {
		return fmt.Errorf("read the account: %w", err)
	}
	destination := keypair.MustRandom().Address()
	double.Fund(destination, 10_0000000) // the ledger refuses a merge into an account that does not exist
	if opts.outcome.Blocked, err = demoBareMerge(ctx, n, cl, relayURL, acct, account, destination); err != nil {
		return err
	}

	// The close that lands: the clean-up closerelayctl build makes (cancel
	// the offer, pay the USD back to its issuer, remove the trustline and
	// the data entry), then the merge, from the state the account API
	// serves.
	state, err := double.ReadState(acct.Address, destination)
	if err != nil {
		return fmt.Errorf("read the account's state: %w", err)
	}
	prelude, err := wallet.CleanUp(wallet.CleanUpParams{
		Account: acct.Address, Destination: destination, State: state, Assets: wallet.AssetsReturn, Reserved: 1,
	})
	if err != nil {
		return fmt.Errorf("clean up: %w", err)
	}
	batches, err := wallet.BuildClose(wallet.CloseParams{Account: acct.Address, Sequence: account.Sequence, Destination: destination, Prelude: prelude})
	if err != nil {
		return err
	}
	if len(batches) != 1 {
		return fmt.Errorf("the close needs %d transactions, want one", len(batches))
	}
	closeXDR, err := batches[0].Base64()
	if err != nil {
		return err
	}
	signedA, err := wallet.SignPartial(closeXDR, "testnet", acct.Keys[0])
	if err != nil {
		return err
	}
	id, err := cl.Publish(ctx, "testnet", signedA, client.PublishSubmit())
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	n.stepf("signer A builds the close that empties the account first, and publishes it signed by A alone, asking the relay to submit it once ready (72 h time bound)")
	env := batches[0].ToXDR()
	for i, op := range env.Operations() {
		n.notef("op %d: %s", i+1, ledger.Describe(op, env.SourceAccount()))
	}
	n.notef("plan id %s (the transaction hash)", id)
	if opts.keep != nil {
		n.notef("a co-signer's page for it: %s/plan/%s (the relay keeps serving after the demo: --keep)", relayURL, id)
	} else {
		n.notef("a co-signer's page for it: %s/plan/%s (live while the demo runs; make demo KEEP=1 keeps it serving)", relayURL, id)
	}
	pageURL := relayURL + "/plan/" + id
	pst, err := cl.Status(ctx, id)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if pst.Preflight == nil || pst.Preflight.State != client.PreflightLandable {
		return fmt.Errorf("the relay's preflight of the full close: %+v, want landable", pst.Preflight)
	}
	n.notef("relay's preflight (GET /api/plan/{id}/status): %s", ctl.PreflightText(pst.Preflight))

	// A watcher: every state it receives is weighed locally against the
	// account API, and checked against the weight the relay reports.
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	states := make(chan watched, 8)
	submissions := make(chan client.Submission, 1)
	watchDone := make(chan error, 1)
	go func() {
		watchDone <- cl.Watch(watchCtx, id, func(s client.State) error {
			if s.Submission != nil {
				select {
				case submissions <- *s.Submission:
					return nil
				case <-watchCtx.Done():
					return watchCtx.Err()
				}
			}
			p, err := wallet.Weigh(s.XDR, s.Network, account)
			if err != nil {
				return err
			}
			if s.Weight != p.Weight || s.Threshold != p.Needed || s.Ready != p.Met() {
				return fmt.Errorf("the relay reports weight %d/%d at version %d, the local check %s", s.Weight, s.Threshold, s.Version, p)
			}
			if s.Landable == nil || !*s.Landable {
				return fmt.Errorf("the relay reports landable %v at version %d, want true", fmtLandable(s.Landable), s.Version)
			}
			select {
			case states <- watched{s, p}:
				return nil
			case <-watchCtx.Done():
				return watchCtx.Err()
			}
		})
	}()
	expect := func(weight int) error {
		select {
		case w := <-states:
			var who []string
			for _, s := range w.progress.Signers {
				who = append(who, strings.SplitN(names[s.Key], " ", 3)[1])
			}
			n.notef("watcher: version %d, %s (signed by %s), as the relay reports too; landable", w.state.Version, w.progress, strings.Join(who, ", "))
			if w.progress.Weight != weight {
				return fmt.Errorf("the watcher saw %s, want weight %d", w.progress, weight)
			}
			return nil
		case err := <-watchDone:
			return fmt.Errorf("the watcher ended: %v", err)
		case <-ctx.Done():
			return fmt.Errorf("no state reached the watcher: %w", ctx.Err())
		}
	}
	n.stepf("a watcher connects to the plan's event stream")
	if err := expect(1); err != nil {
		return err
	}

	for i, kp := range []*keypair.Full{acct.Keys[1], acct.Master} {
		p, err := cl.Get(ctx, id)
		if err != nil {
			return fmt.Errorf("get: %w", err)
		}
		partial, err := wallet.SignPartial(p.XDR, p.Network, kp)
		if err != nil {
			return err
		}
		s, err := cl.Sign(ctx, id, partial)
		if err != nil {
			return fmt.Errorf("sign as %s: %w", names[kp.Address()], err)
		}
		n.stepf("%s fetches the plan, signs it locally and sends only its signature", names[kp.Address()])
		if s.Landable == nil || !*s.Landable {
			return fmt.Errorf("the sign answer says landable %v, want true", fmtLandable(s.Landable))
		}
		n.notef("relay: merged; the envelope now carries %d signatures; landable", len(s.Signers))
		if err := expect(2 + i); err != nil {
			return err
		}
	}
	n.notef("threshold met: the relay submits the close to the ledger (the account API double's POST /transactions)")
	select {
	case sub := <-submissions:
		if sub.State != "submitted" {
			return fmt.Errorf("the relay's submission failed: %s (%s)", sub.Code, sub.Reason)
		}
		n.stepf("the watcher receives event: submitted")
		n.notef("transaction %s in ledger %d", sub.Hash, sub.Ledger)
	case err := <-watchDone:
		return fmt.Errorf("the watcher ended before the submission: %v", err)
	case <-ctx.Done():
		return fmt.Errorf("no submission reached the watcher: %w", ctx.Err())
	}
	st, err := cl.Status(ctx, id)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if !st.Submit || st.Submission == nil || st.Submission.State != "submitted" || st.Submission.Hash != id {
		return fmt.Errorf("status after the submission: submit %v, submission %+v", st.Submit, st.Submission)
	}
	n.notef("GET /api/plan/{id}/status: submission submitted, ledger %d", st.Submission.Ledger)
	opts.outcome.Closed = demoPlan{ID: id, Page: pageURL, Account: acct.Address, Destination: destination, Preflight: pst.Preflight.State,
		Hash: st.Submission.Hash, Ledger: st.Submission.Ledger}
	if err := checkClosed(ctx, horizonURL, acct.Address); err != nil {
		return err
	}
	if _, ok := double.AccountState(acct.Address); ok {
		return errors.New("the account API double still holds the closed account")
	}
	n.stepf("the account is closed: the account API answers 404 for %s; its offer, 50 USD, trustline and data entry went first", ctl.ShortKey(acct.Address))
	ready, err := cl.Ready(ctx, id)
	if err != nil {
		return fmt.Errorf("ready: %w", err)
	}
	var who []string
	for _, k := range ready.Signers {
		who = append(who, strings.SplitN(names[k], " ", 3)[1])
	}
	n.stepf("the relay hands out the submit-ready envelope (GET /api/plan/{id}/ready)")
	n.notef("%d signatures (%s), weight %d/%d: the fewest that reach the threshold, each used by the ledger's checks (the plan stays until its expiry)",
		len(ready.Signers), strings.Join(who, ", "), ready.Weight, ready.Threshold)
	stopWatch()
	if err := <-watchDone; err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("the watcher: %w", err)
	}

	// The mediator half closes an account of its own, 2-of-3, to an
	// exchange: the first account is gone.
	if err := demoMediator(ctx, n, cl, relayURL, double, horizon, opts.outcome); err != nil {
		return err
	}

	if opts.ledgerAPI == "rpc" {
		n.notef("through Stellar RPC: %d getLedgerEntries and %d sendTransaction calls", double.RPCCalls("getLedgerEntries"), double.RPCCalls("sendTransaction"))
	}
	if opts.keep != nil {
		// Past the demo's own deadline: only Ctrl-C ends it now.
		fmt.Fprintln(out, "\ndemo complete: OK")
		fmt.Fprintf(out, "the relay keeps serving on %s; the plan's page: %s\n", relayURL, pageURL)
		fmt.Fprintln(out, "stop it with Ctrl-C (SIGINT) or SIGTERM")
		<-opts.keep.Done()
	}
	if err := stack.stop(); err != nil {
		return err
	}
	stack.stop = func() error { return nil }
	n.stepf("relay drained and stopped")
	if opts.keep == nil {
		fmt.Fprintln(out, "\ndemo complete: OK")
	}
	opts.outcome.OK = true
	return nil
}

// demoBareMerge publishes, signed by A, the close a wallet that ignores
// sub-entries builds (one account_merge), and shows the relay's preflight
// find it blocked with op_has_sub_entries, with the reason: nobody should
// sign it. It is not submitted.
func demoBareMerge(ctx context.Context, n *narrator, cl *client.Client, relayURL string, acct ledgertest.Account, account wallet.Account, destination string) (demoPlan, error) {
	batches, err := wallet.BuildClose(wallet.CloseParams{Account: acct.Address, Sequence: account.Sequence, Destination: destination})
	if err != nil {
		return demoPlan{}, err
	}
	bare, err := batches[0].Base64()
	if err != nil {
		return demoPlan{}, err
	}
	signed, err := wallet.SignPartial(bare, "testnet", acct.Keys[0])
	if err != nil {
		return demoPlan{}, err
	}
	id, err := cl.Publish(ctx, "testnet", signed)
	if err != nil {
		return demoPlan{}, fmt.Errorf("publish the bare merge: %w", err)
	}
	// The whole id and its page: a prefix opens nothing.
	n.stepf("signer A first publishes a bare merge into %s (one account_merge, as a wallet that ignores sub-entries builds it)", ctl.ShortKey(destination))
	n.notef("plan id %s", id)
	n.notef("its page: %s/plan/%s", relayURL, id)
	st, err := cl.Status(ctx, id)
	if err != nil {
		return demoPlan{}, fmt.Errorf("status of the bare merge: %w", err)
	}
	pf := st.Preflight
	if pf == nil || pf.State != client.PreflightBlocked || len(pf.Blockers) == 0 || pf.Blockers[0].Code != "op_has_sub_entries" {
		return demoPlan{}, fmt.Errorf("the relay's preflight of the bare merge: %+v, want blocked with op_has_sub_entries", pf)
	}
	n.notef("relay's preflight (GET /api/plan/{id}/status): %s", ctl.PreflightText(pf))
	for _, b := range pf.Blockers {
		n.notef("op %d: %s: %s", b.Op+1, b.Code, b.Reason)
	}
	n.notef("do not sign this close: the ledger would refuse it, and its fee and sequence number would be spent")
	return demoPlan{ID: id, Page: relayURL + "/plan/" + id, Account: acct.Address, Destination: destination, Preflight: pf.State, Blockers: pf.Blockers}, nil
}

// fmtLandable is a landable flag as JSON writes it.
func fmtLandable(l *bool) string {
	if l == nil {
		return "null"
	}
	return fmt.Sprint(*l)
}

// demoOutcome is what the demo did: its three plans, which `demo --json`
// prints, and the account-API double, for the demo's tests to check the
// mediator close against the ledger itself.
type demoOutcome struct {
	Double    *ledgertest.Handler `json:"-"`
	OK        bool                `json:"ok"`
	LedgerAPI string              `json:"ledgerApi"` // horizon or rpc: the double's face the relay used
	Blocked   demoPlan            `json:"blocked"`   // the bare merge the preflight found blocked
	Closed    demoPlan            `json:"closed"`    // the close that empties the account first, landed
	Mediated  demoPlan            `json:"mediated"`  // the 2-of-3 close through the mediator to the exchange
	Exchange  string              `json:"exchange"`  // the memo-required exchange account
	Mediator  string              `json:"mediator"`  // the flow's mediator account
	Memo      string              `json:"memo"`      // the committed memo, "<type>:<value>"
	Forward   wire.Forward        `json:"forward"`   // the relay's forward of the mediated close, as status.forward
}

// demoPlan is one plan of the demo: its full id and page, what it closes,
// the relay's preflight verdict, and its transaction once submitted.
type demoPlan struct {
	ID          string         `json:"id"`
	Page        string         `json:"page"`
	Account     string         `json:"account"`
	Destination string         `json:"destination"`
	Preflight   string         `json:"preflight"`
	Blockers    []wire.Blocker `json:"blockers,omitempty"`
	Hash        string         `json:"hash,omitempty"`
	Ledger      int64          `json:"ledger,omitempty"`
}

// demoMemo is the memo the demo's exchange credits the deposit by.
const demoMemo = "text:deposit 42"

// demoMediator is the mediator half of the demo (CONTRACT section 16): an
// exchange account that requires a memo (SEP-29), a 2-of-3 account closed
// to it through a mediator under a memo-committed flow, published with the
// token and submit, its co-signers signing one after another; the relay
// submits the close, then runs the forward itself, and the exchange is
// credited by a payment carrying the memo. When outcome is not nil it is
// filled in.
func demoMediator(ctx context.Context, n *narrator, cl *client.Client, relayURL string, double *ledgertest.Handler, horizon *wallet.Horizon, outcome *demoOutcome) error {
	acct := ledgertest.NewAccount(2, 1)
	acct.Thresholds.HighThreshold = 2 // any two of its three keys close it
	double.AddAccount(acct)
	names := map[string]string{acct.Keys[0].Address(): "signer D", acct.Keys[1].Address(): "signer E", acct.Master.Address(): "signer F (the master key)"}
	exchange := keypair.MustRandom().Address()
	double.Fund(exchange, 10_0000000)
	if !double.SetMemoRequired(exchange) {
		return errors.New("the account API double refused to mark the exchange memo-required")
	}
	account, err := horizon.Account(ctx, acct.Address)
	if err != nil {
		return fmt.Errorf("read the account closed through the mediator: %w", err)
	}
	before, _ := double.Balance(acct.Address)
	n.stepf("an exchange account %s requires a memo on deposits (SEP-29: its data entry config.memo_required); it holds 10 XLM", ctl.ShortKey(exchange))
	n.notef("a second account %s holds %s XLM: signers D, E and F (its master key), weight 1 each; any two close it (high threshold 2)",
		ctl.ShortKey(acct.Address), amount.StringFromInt64(before))
	n.notef("an account_merge carries no memo, so closing straight into the exchange would leave the deposit uncredited: the close goes through a mediator")

	minted, err := cl.MediatorMintMemo(ctx, exchange, demoMemo)
	if err != nil {
		return fmt.Errorf("mediator mint: %w", err)
	}
	flow, err := wallet.NewMediatorFlow(minted, exchange)
	if err != nil {
		return err
	}
	n.stepf("signer D mints a mediator flow committed to the exchange and to memo %s (GET /api/mediator/sign?memo=…)", demoMemo)
	n.notef("mediator %s; the token lives until %s, but the relay's forward does not depend on it", ctl.ShortKey(flow.MediatorPublicKey), flow.Expiry.UTC().Format(time.TimeOnly)+" UTC")

	batches, err := wallet.BuildClose(wallet.CloseParams{Account: acct.Address, Sequence: account.Sequence, Destination: exchange, Flow: &flow})
	if err != nil {
		return err
	}
	planXDR, err := batches[0].Base64()
	if err != nil {
		return err
	}
	signed, err := wallet.SignPartial(planXDR, "testnet", acct.Keys[0])
	if err != nil {
		return err
	}
	id, err := cl.Publish(ctx, "testnet", signed, client.PublishSubmit(), client.PublishFlowToken(flow.Token))
	if err != nil {
		return fmt.Errorf("publish the mediator close: %w", err)
	}
	n.stepf("signer D builds the close through the mediator and publishes it signed by D alone, with the flow token and submit")
	n.notef("plan id %s, its page %s/plan/%s", id, relayURL, id)
	env := batches[0].ToXDR()
	for i, op := range env.Operations() {
		n.notef("op %d: %s", i+1, ledger.Describe(op, env.SourceAccount()))
	}

	// A watcher for the relay's submission and forward.
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	told := make(chan client.State, 4)
	watchDone := make(chan error, 1)
	go func() {
		watchDone <- cl.Watch(watchCtx, id, func(s client.State) error {
			if s.Submission == nil && s.Forward == nil {
				return nil
			}
			select {
			case told <- s:
				return nil
			case <-watchCtx.Done():
				return watchCtx.Err()
			}
		})
	}()
	next := func(what string) (client.State, error) {
		select {
		case s := <-told:
			return s, nil
		case err := <-watchDone:
			return client.State{}, fmt.Errorf("the watcher ended before the %s: %v", what, err)
		case <-ctx.Done():
			return client.State{}, fmt.Errorf("no %s reached the watcher: %w", what, ctx.Err())
		}
	}

	p, err := cl.Get(ctx, id)
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	partial, err := wallet.SignPartial(p.XDR, p.Network, acct.Keys[1])
	if err != nil {
		return err
	}
	s, err := cl.Sign(ctx, id, partial)
	if err != nil {
		return fmt.Errorf("sign as %s: %w", names[acct.Keys[1].Address()], err)
	}
	n.stepf("signer E fetches the plan, signs it locally and sends only its signature: weight %d/%d, threshold met", s.Weight, s.Threshold)
	if !s.Ready {
		return fmt.Errorf("the sign answer says weight %d/%d, not ready", s.Weight, s.Threshold)
	}

	sub, err := next("submission")
	if err != nil {
		return err
	}
	if sub.Submission == nil || sub.Submission.State != "submitted" {
		return fmt.Errorf("the relay's submission of the close: %+v, %+v", sub.Submission, sub.Forward)
	}
	n.stepf("the relay submits the close (event: submitted): transaction %s… in ledger %d", sub.Submission.Hash[:16], sub.Submission.Ledger)
	// The ledger's record of the close, not the mediator's balance: the
	// relay may have forwarded it already.
	var merged int64 = -1
	for _, c := range double.Credits(flow.MediatorPublicKey) {
		if c.Merge && c.From == acct.Address && c.Hash == sub.Submission.Hash {
			merged = c.Amount
		}
	}
	if merged < 0 {
		return errors.New("the ledger holds no merge of the account into the mediator")
	}
	n.notef("the account is gone: the close funded the mediator %s with %s XLM and merged the rest, %s XLM, into it",
		ctl.ShortKey(flow.MediatorPublicKey), amount.StringFromInt64(ledger.MediatorFunding), amount.StringFromInt64(merged))

	fw, err := next("forward")
	if err != nil {
		return err
	}
	f := fw.Forward
	if f == nil || f.State != "forwarded" {
		return fmt.Errorf("the relay's forward: %+v", f)
	}
	n.stepf("the relay builds, signs and submits the mediator's forward itself (event: forwarded): transaction %s… in ledger %d", f.Hash[:16], f.Ledger)
	n.notef("it pays the exchange %s XLM with memo %s, then merges the mediator into it: no one had to come back for it", f.Amount, demoMemo)
	stopWatch()
	if err := <-watchDone; err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("the watcher: %w", err)
	}

	// What the exchange sees: its credits as the ledger applied them.
	credits := double.Credits(exchange)
	if len(credits) != 2 || credits[0].Merge || !credits[1].Merge || credits[0].Hash != f.Hash {
		return fmt.Errorf("the exchange's credits: %+v, want the forward's payment then its merge", credits)
	}
	pay := credits[0]
	if !sameMemo(pay.Memo, demoMemo) || amount.StringFromInt64(pay.Amount) != f.Amount {
		return fmt.Errorf("the exchange was paid %s XLM with memo %+v, want %s with %s", amount.StringFromInt64(pay.Amount), pay.Memo, f.Amount, demoMemo)
	}
	after, _ := double.Balance(exchange)
	n.stepf("the exchange is credited: a payment of %s XLM with memo %s (what it credits the deposit by), and the mediator's last %s XLM by the merge",
		amount.StringFromInt64(pay.Amount), demoMemo, amount.StringFromInt64(credits[1].Amount))
	n.notef("the exchange now holds %s XLM; of the account's %s XLM only the two transactions' fees are spent", amount.StringFromInt64(after), amount.StringFromInt64(before))
	st, err := cl.Status(ctx, id)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if st.Forward == nil || st.Forward.State != "forwarded" || st.Forward.Hash != f.Hash {
		return fmt.Errorf("status.forward after the forward: %+v", st.Forward)
	}
	n.notef("GET /api/plan/{id}/status: forward forwarded, amount %s (closerelayctl status %s prints it too)", st.Forward.Amount, id)
	outcome.Double, outcome.Exchange, outcome.Mediator, outcome.Memo = double, exchange, flow.MediatorPublicKey, demoMemo
	outcome.Forward = wire.Forward{State: f.State, Hash: f.Hash, Ledger: f.Ledger, Amount: f.Amount, Code: f.Code}
	outcome.Mediated = demoPlan{ID: id, Page: relayURL + "/plan/" + id, Account: acct.Address, Destination: flow.MediatorPublicKey, Preflight: preflightState(st.Preflight),
		Hash: sub.Submission.Hash, Ledger: sub.Submission.Ledger}
	return nil
}

// sameMemo reports whether m, a transaction's memo, is want
// ("<type>:<value>").
func sameMemo(m xdr.Memo, want string) bool {
	w, err := wallet.ParseMemo(want)
	if err != nil {
		return false
	}
	tm, err := w.Txn()
	if err != nil {
		return false
	}
	wx, err := tm.ToXDR()
	if err != nil {
		return false
	}
	a, err1 := xdr.MarshalBase64(m)
	b, err2 := xdr.MarshalBase64(wx)
	return err1 == nil && err2 == nil && a == b
}

// checkClosed checks that the account API no longer serves account: the
// close was applied.
func checkClosed(ctx context.Context, horizonURL, account string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, horizonURL+"/accounts/"+account, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("read the closed account: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		return fmt.Errorf("the account API answers %d for the closed account, want 404", resp.StatusCode)
	}
	return nil
}

func checkReady(ctx context.Context, opsURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, opsURL+"/readyz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("readyz: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("readyz answered %d", resp.StatusCode)
	}
	return nil
}

// addSubEntries gives account what most real accounts hold, so that a bare
// merge of it fails with op_has_sub_entries: a trustline to a fresh
// issuer's USD with 50 USD, an offer selling 10 of them and a data entry
// "note". It returns the issuer.
func addSubEntries(double *ledgertest.Handler, account string) (string, error) {
	issuer := keypair.MustRandom().Address()
	double.Fund(issuer, 10_0000000)
	usd := ledgertest.Credit("USD", issuer)
	if !double.AddTrustline(account, ledgertest.Trustline{Asset: usd, Balance: 50_0000000}) ||
		double.AddOffer(account, ledgertest.Offer{Selling: usd, Buying: ledgertest.Native(), Amount: 10_0000000, Price: xdr.Price{N: 2, D: 1}}) == 0 ||
		!double.SetData(account, "note", []byte("demo"), "") {
		return "", errors.New("the account API double refused the account's entries")
	}
	return issuer, nil
}

// preflightState is a verdict's state, "" when the relay gave none.
func preflightState(p *client.Preflight) string {
	if p == nil {
		return ""
	}
	return p.State
}
