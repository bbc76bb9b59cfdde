package ctl

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/closerelay/closerelay/ledgerapi/rpc"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

const mediatorUsage = `Usage: closerelayctl mediator COMMAND [flags]

Mediator flows, for destinations that need a memo (docs/API.md section 6):

  mint DESTINATION      mint a flow committed to DESTINATION (and, with --memo, to the
                        forward's memo); prints the flow token and mediator key
  forward               build the forward (payment with memo + merge) of a flow's mediator,
                        paying its whole balance; with --submit co-sign and submit it too
  cosign [XDR|-]        have the mediator co-sign a forward, verify its signature, print the envelope
  resume RECORD_FILE    resume a forward whose co-signing did not complete, from its recovery record

A multisig close through a mediator is published with its memo-committed token
and --submit (closerelayctl publish --submit --flow-token TOKEN): the relay then
submits the close and runs the forward itself, however late the last signature
comes. A single-signer close runs its forward with mediator forward --submit.

Run closerelayctl mediator COMMAND --help for each command's flags. mint, cosign
and resume talk to the relay (--relay, env CLOSERELAY_URL), and forward with
--submit; every command takes --json. To build the mediator close plan itself:
closerelayctl build --mediator.
`

func (c *CLI) mediator(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.Stderr, mediatorUsage)
		return ExitUsage
	}
	switch args[0] {
	case "mint":
		return c.mediatorMint(args[1:])
	case "forward":
		return c.mediatorForward(args[1:])
	case "cosign":
		return c.mediatorCosign(args[1:])
	case "resume":
		return c.mediatorResume(args[1:])
	case "-h", "-help", "--help", "help":
		fmt.Fprint(c.Stdout, mediatorUsage)
		return ExitOK
	}
	fmt.Fprint(c.Stderr, c.UnknownCommand("closerelayctl mediator", args[0], []string{"mint", "forward", "cosign", "resume", "help"}))
	return ExitUsage
}

func (c *CLI) mediatorMint(args []string) int {
	fs := NewFlagSet("mediator mint", "mediator mint [flags] DESTINATION",
		"Mint a mediator flow committed to DESTINATION (a G… account). With --memo the\n"+
			"token also commits to the forward's memo (five parts, docs/API.md 6.1): the mediator\n"+
			"co-signs only a forward that carries it, and the relay runs the forward itself\n"+
			"of a close published with the token and --submit. The token is checked to\n"+
			"commit to DESTINATION (and the memo) before it is printed; it lives 15 minutes.")
	o := c.CommonFlags(fs, 30*time.Second)
	memoIn := memoFlag(fs, "commit the forward to this memo: `text:…|id:…|hash:…|return:…` (hash and return: 64 hex digits)")
	pos, code, done := c.Parse(fs, args, 1, "DESTINATION")
	if done {
		return code
	}
	var memo wallet.Memo
	if *memoIn != "" || flagGiven(fs, "memo") {
		var err error
		if memo, err = parseMemoFlag("--memo", *memoIn); err != nil {
			return c.Fail("mediator mint", o.JSON, err)
		}
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("mediator mint", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	var minted client.Flow
	if memo.IsZero() {
		minted, err = cl.MediatorMint(ctx, pos[0])
	} else {
		minted, err = cl.MediatorMintMemo(ctx, pos[0], memo.String())
	}
	if err != nil {
		return c.Fail("mediator mint", o.JSON, err)
	}
	flow, err := wallet.NewMemoFlow(minted, pos[0], memo)
	if err != nil {
		return c.Fail("mediator mint", o.JSON, err)
	}
	if o.JSON {
		out := map[string]any{"ok": true, "flowToken": flow.Token, "mediatorPublicKey": flow.MediatorPublicKey,
			"destination": flow.Destination, "expiry": flow.Expiry.UTC().Format(time.RFC3339)}
		if !memo.IsZero() {
			out["memo"] = memo.String()
		}
		c.PrintJSON(out)
		return ExitOK
	}
	fmt.Fprintf(c.Stdout, "flow token: %s\nmediator:   %s\ndestination: %s\n", flow.Token, flow.MediatorPublicKey, flow.Destination)
	if !memo.IsZero() {
		fmt.Fprintf(c.Stdout, "memo:       %s\n", memo)
	}
	fmt.Fprintf(c.Stdout, "expires:    %s\n", flow.Expiry.UTC().Format(time.RFC3339))
	return ExitOK
}

// memoFlag registers --memo, which takes the forms wallet.ParseMemo reads.
func memoFlag(fs *FlagSet, usage string) *string { return fs.String("memo", "", usage) }

// parseMemoFlag reads a memo flag's value (wallet.ParseMemo, the one parser
// of the text:, id:, hash: and return: forms); a bad one is a usage error
// naming the flag and the form.
func parseMemoFlag(name, value string) (wallet.Memo, error) {
	m, err := wallet.ParseMemo(value)
	if err != nil {
		return wallet.Memo{}, Usagef("%s: %s", name, Message(err))
	}
	return m, nil
}

// forwardMemo is the forward's memo from --memo, or from the deprecated
// --memo-text and --memo-id, or else the memo the flow token commits to;
// one given beside a committed memo must be that memo.
func forwardMemo(memo, text, id string, committed wallet.Memo) (wallet.Memo, error) {
	given := 0
	for _, v := range []string{memo, text, id} {
		if v != "" {
			given++
		}
	}
	if given > 1 {
		return wallet.Memo{}, Usagef("give one of --memo, --memo-text and --memo-id")
	}
	name, in := "--memo", memo
	switch {
	case text != "":
		name, in = "--memo-text", "text:"+text
	case id != "":
		name, in = "--memo-id", "id:"+id
	case memo == "":
		if committed.IsZero() {
			return wallet.Memo{}, Usagef("the forward needs a memo: give --memo (text:…, id:…, hash:… or return:…), or a --token minted with --memo")
		}
		return committed, nil
	}
	m, err := parseMemoFlag(name, in)
	if err != nil {
		return wallet.Memo{}, err
	}
	if !committed.IsZero() && m != committed {
		return wallet.Memo{}, Usagef("%s %s: the flow token commits to memo %s, and the mediator co-signs no other (FORWARD_MEMO_NOT_COMMITTED)", name, m, committed)
	}
	return m, nil
}

// ledgerAPI is the account API of --horizon-url, or of --rpc-url when that
// is given, for network n; nil when neither is. A URL that is not http(s)
// is a usage error: nothing could be read from it or submitted to it.
func (c *CLI) ledgerAPI(n ledger.Network, horizonURL, rpcURL string, timeout time.Duration) (*ledgerapi.Client, error) {
	name, raw := "--horizon-url", horizonURL
	if rpcURL != "" {
		name, raw = "--rpc-url", rpcURL
	}
	if raw == "" {
		return nil, nil
	}
	if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, Usagef("%s %q is not an http(s) URL", name, raw)
	}
	backends := horizon.Backends(map[ledger.Network]string{n: horizonURL}, c.Transport)
	if rpcURL != "" {
		backends = rpc.Backends(map[ledger.Network]string{n: rpcURL}, c.Transport)
	}
	return ledgerapi.New(ledgerapi.Options{Backends: backends, Timeout: timeout}), nil
}

// forwardOptions are mediator forward's settings once its flags are read.
type forwardOptions struct {
	*Common
	token, mediator, destination, amount string
	memo, memoText, memoID               string
	network, horizonURL, rpcURL          string
	sequence, fee                        int64
	validFor                             time.Duration
	submit                               bool
	record                               string
}

func (c *CLI) mediatorForward(args []string) int {
	fs := NewFlagSet("mediator forward", "mediator forward [flags]",
		"Build the forward of a mediator flow: a native payment with the memo, then an\n"+
			"account merge, both from the mediator to the flow's destination, valid for\n"+
			"--valid-for (at most 1h). --token gives the destination and, for a token minted\n"+
			"with --memo, the memo. The mediator's sequence number and balance are read from\n"+
			"the account API (--horizon-url or --rpc-url), and the payment carries the whole\n"+
			"balance less the fee and the 1 XLM the mediator must keep, which the merge then\n"+
			"carries (docs/API.md 3.8): no amount to work out. Prints the unsigned forward's\n"+
			"base64 XDR.\n\n"+
			"With --submit (and --token) the forward is co-signed by the mediator, its\n"+
			"signature verified, and submitted to the ledger through the account API, as\n"+
			"`closerelayctl submit` does: this completes a single-signer close through a\n"+
			"mediator once the close has landed. With --record, a forward that could not be\n"+
			"co-signed is saved to that file for `closerelayctl mediator resume`.\n\n"+
			"Offline, --sequence with --amount builds the forward unchecked.")
	o := forwardOptions{}
	o.Common = c.CommonFlags(fs, 2*time.Minute)
	fs.StringVar(&o.token, "token", "", "the flow token (from mediator mint): the forward's destination, and its memo when the token commits to one")
	fs.StringVar(&o.mediator, "mediator", "", "the flow's mediator public key (G…)")
	fs.StringVar(&o.destination, "destination", "", "the flow's destination (G…; default: the one --token commits to)")
	fs.StringVar(&o.amount, "amount", "", "native amount the payment carries (default: the mediator's balance less the fee and its 1 XLM minimum; more is refused)")
	mf := memoFlag(fs, "the forward's memo: `text:…|id:…|hash:…|return:…` (default: the memo --token commits to)")
	fs.StringVar(&o.memoText, "memo-text", "", "deprecated: --memo text:…")
	fs.StringVar(&o.memoID, "memo-id", "", "deprecated: --memo id:…")
	fs.hide("memo-text")
	fs.hide("memo-id")
	fs.Int64Var(&o.sequence, "sequence", -1, "the mediator account's current sequence number, to build offline with --amount (unchecked)")
	fs.Int64Var(&o.fee, "fee", txnbuild.MinBaseFee, "fee per operation in stroops (at least 100); the close's fee per operation if it paid more")
	network := c.networkFlag(fs)
	horizonURL := c.HorizonFlag(fs, "to read the mediator's sequence number and balance from, and to submit to")
	rpcURL := c.RPCFlag(fs, "to read the mediator's sequence number and balance from, and to submit to")
	fs.DurationVar(&o.validFor, "valid-for", wallet.DefaultForwardTimeout, "time bound of the forward (at most 1h)")
	fs.BoolVar(&o.submit, "submit", false, "co-sign the forward (needs --token) and submit it to the ledger through the account API")
	fs.StringVar(&o.record, "record", "", "with --submit, write a recovery record to this file if co-signing does not complete")
	if _, code, done := c.Parse(fs, args, 0, ""); done {
		return code
	}
	o.memo, o.network, o.horizonURL, o.rpcURL = *mf, *network, *horizonURL, *rpcURL
	if o.rpcURL != "" {
		o.horizonURL = "" // the one given beside it, or by the environment, is not used
	}
	return c.runForward(o)
}

func (c *CLI) runForward(o forwardOptions) int {
	fail := func(err error) int { return c.Fail("mediator forward", o.JSON, err) }
	if _, err := wallet.Passphrase(o.network); err != nil {
		return fail(Usagef("--network: %v", err))
	}
	n := ledger.Network(o.network)
	var flow *wallet.MediatorFlow
	var committed wallet.Memo
	if o.token != "" {
		tok, err := wallet.ParseFlowToken(o.token)
		if err != nil {
			return fail(Usagef("--token: %s", Message(err)))
		}
		if o.destination == "" {
			o.destination = tok.Destination
		}
		if o.mediator == "" {
			return fail(Usagef("--mediator is required: the flow token does not name its mediator (mediator mint prints it)"))
		}
		f, err := wallet.NewMediatorFlow(client.Flow{FlowToken: o.token, MediatorPublicKey: o.mediator}, o.destination)
		if err != nil {
			return fail(Usagef("%s", Message(err)))
		}
		flow, committed = &f, f.Memo
	}
	memo, err := forwardMemo(o.memo, o.memoText, o.memoID, committed)
	if err != nil {
		return fail(err)
	}
	txMemo, err := memo.Txn()
	if err != nil {
		return fail(Usagef("%s", Message(err)))
	}
	api, err := c.ledgerAPI(n, o.horizonURL, o.rpcURL, 30*time.Second)
	if err != nil {
		return fail(err)
	}
	switch {
	case o.mediator == "" || o.destination == "":
		return fail(Usagef("--mediator and --token (or --destination) are required"))
	case o.fee < txnbuild.MinBaseFee:
		return fail(Usagef("--fee must be at least %d stroops per operation, the network's minimum", txnbuild.MinBaseFee))
	case o.submit && flow == nil:
		return fail(Usagef("--submit needs --token: the mediator co-signs only under its flow token"))
	case o.submit && api == nil:
		return fail(Usagef("--submit needs --horizon-url (or %s) or --rpc-url (or %s): the ledger API to read the mediator from and submit to", EnvHorizon, EnvRPC))
	case o.record != "" && !o.submit:
		return fail(Usagef("--record goes with --submit: without it nothing is co-signed"))
	case api == nil && o.sequence < 0:
		return fail(Usagef("give --horizon-url or --rpc-url to read the mediator's sequence number and balance, or --sequence and --amount to build offline"))
	case api == nil && o.amount == "":
		return fail(Usagef("offline (--sequence without an account API) the mediator's balance is unknown: give --amount, or --horizon-url or --rpc-url to pay the whole balance"))
	}
	if o.submit && !flow.Expiry.After(time.Now()) {
		return fail(&RefusedError{fmt.Errorf("the flow token expired at %s: the mediator no longer co-signs its forward. %s",
			flow.Expiry.UTC().Format(time.RFC3339), afterExpiry(*flow))})
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	seq, payStroops := o.sequence, int64(-1)
	if o.amount != "" {
		if payStroops, err = amount.ParseInt64(o.amount); err != nil || payStroops <= 0 {
			return fail(Usagef("--amount %q is not a positive amount of XLM with at most 7 decimals", o.amount))
		}
	}
	note := ""
	if api != nil {
		acct, err := api.Account(ctx, n, o.mediator)
		if errors.Is(err, ledgerapi.ErrNoAccount) {
			return fail(&RefusedError{fmt.Errorf("the mediator %s does not exist on %s: the close that creates it has not landed yet (submit it first), or its forward already ran and merged it", o.mediator, o.network)})
		}
		if err != nil {
			return fail(err)
		}
		if o.sequence < 0 {
			seq = acct.Sequence
		} else if o.sequence != acct.Sequence {
			return fail(&RefusedError{fmt.Errorf("--sequence %d is not the mediator's: the account API says %d", o.sequence, acct.Sequence)})
		}
		most, err := wallet.ForwardAmount(acct.Balance, o.fee)
		if err != nil {
			return fail(&RefusedError{errors.New(Message(err))})
		}
		switch {
		case payStroops < 0:
			payStroops = most
		case payStroops > most:
			return fail(&RefusedError{fmt.Errorf("--amount %s would not leave the mediator its 1 XLM minimum balance and the fee: it holds %s XLM, so at most %s (the default)",
				o.amount, amount.StringFromInt64(acct.Balance), amount.StringFromInt64(most))})
		case payStroops < most:
			note = fmt.Sprintf("the payment carries %s XLM of %s: the rest, %s XLM, reaches %s by the merge, which an exchange may not credit",
				amount.StringFromInt64(payStroops), amount.StringFromInt64(most), amount.StringFromInt64(most-payStroops), o.destination)
		}
	}
	pay := amount.StringFromInt64(payStroops)
	tx, err := wallet.BuildForward(wallet.ForwardParams{
		Mediator: o.mediator, Sequence: seq, Destination: o.destination, Amount: pay, Memo: txMemo, BaseFee: o.fee, Timeout: o.validFor,
	})
	if err != nil {
		return fail(Usagef("%s", Message(err)))
	}
	x, err := tx.Base64()
	if err != nil {
		return fail(err)
	}
	if note != "" && !o.JSON {
		fmt.Fprintf(c.Stderr, "closerelayctl mediator forward: %s\n", note)
	}
	if !o.submit {
		if o.JSON {
			out := map[string]any{"ok": true, "xdr": x, "maxTime": tx.Timebounds().MaxTime, "amount": pay, "memo": memo.String(), "sequence": tx.SequenceNumber()}
			if note != "" {
				out["note"] = note
			}
			c.PrintJSON(out)
		} else {
			fmt.Fprintln(c.Stdout, x)
		}
		return ExitOK
	}
	cl, err := c.Client(o.Common)
	if err != nil {
		return fail(err)
	}
	out, err := wallet.CosignForward(ctx, cl, o.network, *flow, x)
	if err != nil {
		if o.record != "" {
			c.writeRecord(o.record, o.network, *flow, x, err, o.JSON, "mediator forward")
		}
		return fail(err)
	}
	if !o.JSON {
		fmt.Fprintf(c.Stderr, "co-signed by mediator %s (signature verified over hash %s); submitting: pay %s XLM with memo %s to %s, then merge\n",
			flow.MediatorPublicKey, out.Hash, pay, memo, o.destination)
	}
	return c.submitForward(ctx, api, n, out.SignedXDR, pay, memo, o.Common, "mediator forward")
}

// submitForward posts a co-signed forward through api with ledgerapi's
// retries, as `closerelayctl submit` posts a close, and reports the outcome.
func (c *CLI) submitForward(ctx context.Context, api *ledgerapi.Client, n ledger.Network, signedXDR, pay string, memo wallet.Memo, o *Common, cmd string) int {
	retries := 0
	res := api.Submit(ctx, n, signedXDR, func(a ledgerapi.SubmitAttempt) {
		retries++
		if !o.JSON {
			fmt.Fprintf(c.Stderr, "retrying (try %d) after %s\n", a.Try, a.Cause)
		}
	})
	switch res.State {
	case ledgerapi.SubmitSubmitted:
		if o.JSON {
			c.PrintJSON(map[string]any{"ok": true, "hash": res.Hash, "ledger": res.Ledger, "amount": pay, "memo": memo.String(), "xdr": signedXDR, "retries": retries})
		} else {
			fmt.Fprintf(c.Stdout, "forwarded: transaction %s in ledger %d paid %s XLM with memo %s, and merged the mediator\n", res.Hash, res.Ledger, pay, memo)
		}
		return ExitOK
	case ledgerapi.SubmitFailed:
		if res.Tries == 0 && res.Code == ledgerapi.SubmitCodeUnconfigured {
			return c.Fail(cmd, o.JSON, Usagef("the ledger API URL is not usable"))
		}
		if o.JSON {
			c.PrintJSON(map[string]any{"ok": false, "code": res.Code, "reason": res.Reason, "hash": res.Hash, "opCodes": res.OpCodes})
		} else {
			fmt.Fprintf(c.Stderr, "closerelayctl %s: the ledger refused the forward: %s (%s)\n", cmd, res.Code, res.Reason)
		}
		return ExitRefused
	}
	err := res.Err
	if err == nil {
		err = errors.New(res.Reason)
	}
	return c.Fail(cmd, o.JSON, fmt.Errorf("no answer from the account API: %s: %w", res.Reason, err))
}

// afterExpiry says what becomes of a flow's funds once its token has
// expired: the relay runs the forward of a close published with a
// memo-committed token and submit (CONTRACT 16); nothing else moves them.
func afterExpiry(flow wallet.MediatorFlow) string {
	if flow.Memo.IsZero() {
		return fmt.Sprintf("This token commits no memo, so the relay does not run its forward (that needs a token minted with --memo): "+
			"funds merged into the mediator %s stay there, and only the relay's operator, who holds the master secret, can move them.", flow.MediatorPublicKey)
	}
	return fmt.Sprintf("If the close was published to the relay with this token and --submit (closerelayctl publish --submit --flow-token), "+
		"the relay runs the forward itself once it has submitted the close, whatever the token's expiry: it pays %s the mediator's whole balance "+
		"less the fee and 1 XLM, with memo %s, and merges the mediator %s into it (closerelayctl status PLAN_ID shows the forward). "+
		"Otherwise funds merged into the mediator stay there, and only the relay's operator, who holds the master secret, can move them.",
		flow.Destination, flow.Memo, flow.MediatorPublicKey)
}

func (c *CLI) mediatorCosign(args []string) int {
	fs := NewFlagSet("mediator cosign", "mediator cosign [flags] [XDR|-]",
		"Send a forward (base64 XDR, as an argument or on standard input) to the mediator\n"+
			"with its flow token, verify the answer (same transaction, and an ed25519\n"+
			"signature by the flow's mediator key over its hash), and print the co-signed\n"+
			"envelope. A forward whose memo is not the one the token commits to is refused\n"+
			"before it is sent. With --record, a forward that could not be co-signed is\n"+
			"saved to that file, to be completed later with 'closerelayctl mediator resume'.")
	o := c.CommonFlags(fs, 30*time.Second)
	token := fs.String("token", "", "the flow token (from mediator mint)")
	mediatorKey := fs.String("mediator", "", "the flow's mediator public key (default: the forward's source)")
	network := c.networkFlag(fs)
	record := fs.String("record", "", "write a recovery record to this file if co-signing does not complete")
	pos, code, done := c.Parse(fs, args, -1, "")
	if done {
		return code
	}
	if len(pos) > 1 {
		return c.Fail("mediator cosign", o.JSON, Usagef("%d arguments given, at most 1 expected", len(pos)))
	}
	if *token == "" {
		return c.Fail("mediator cosign", o.JSON, Usagef("--token is required"))
	}
	x, err := c.readInput(pos, "forward XDR")
	if err != nil {
		return c.Fail("mediator cosign", o.JSON, err)
	}
	fwd, _, err := wallet.ForwardOf(x)
	if err != nil {
		return c.Fail("mediator cosign", o.JSON, Usagef("%v", err))
	}
	if *mediatorKey == "" {
		*mediatorKey = fwd.Mediator
	}
	tok, err := wallet.ParseFlowToken(*token)
	if err != nil {
		return c.Fail("mediator cosign", o.JSON, Usagef("--token: %s", Message(err)))
	}
	flow, err := wallet.NewMediatorFlow(client.Flow{FlowToken: *token, MediatorPublicKey: *mediatorKey}, tok.Destination)
	if err != nil {
		return c.Fail("mediator cosign", o.JSON, Usagef("%v", err))
	}
	if !flow.Memo.IsZero() {
		if m, err := wallet.MemoOf(fwd.Memo); err != nil || m != flow.Memo {
			return c.Fail("mediator cosign", o.JSON, Usagef("the forward carries memo %q, but the flow token commits to %s: the mediator would refuse it (FORWARD_MEMO_NOT_COMMITTED)", m.String(), flow.Memo))
		}
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("mediator cosign", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	out, err := wallet.CosignForward(ctx, cl, *network, flow, x)
	if err != nil {
		if *record != "" {
			c.writeRecord(*record, *network, flow, x, err, o.JSON, "mediator cosign")
		}
		return c.Fail("mediator cosign", o.JSON, err)
	}
	c.printCosigned(o.JSON, out, flow.MediatorPublicKey, false)
	return ExitOK
}

// writeRecord saves the recovery record of a forward that could not be
// co-signed, and says so.
func (c *CLI) writeRecord(path, network string, flow wallet.MediatorFlow, forwardXDR string, cause error, jsonOut bool, cmd string) {
	rec, err := wallet.NewRecord(network, flow, forwardXDR, time.Now())
	if err == nil {
		rec.LastError = cause.Error()
		err = rec.Save(path)
	}
	if err != nil {
		fmt.Fprintf(c.Stderr, "closerelayctl %s: could not write the recovery record: %s\n", cmd, Message(err))
	} else if !jsonOut {
		fmt.Fprintf(c.Stderr, "recovery record written to %s; complete it with: closerelayctl mediator resume %s\n", path, path)
	}
}

func (c *CLI) printCosigned(jsonOut bool, out client.Cosigned, mediatorKey string, rebuilt bool) {
	if jsonOut {
		c.PrintJSON(map[string]any{"ok": true, "signedXdr": out.SignedXDR, "hash": out.Hash, "mediatorPublicKey": mediatorKey, "rebuilt": rebuilt})
		return
	}
	if rebuilt {
		fmt.Fprintln(c.Stdout, "the stored forward had expired: rebuilt with fresh time bounds (same sequence, amount and memo)")
	}
	fmt.Fprintf(c.Stdout, "co-signed by mediator %s (signature verified over hash %s)\n%s\n", mediatorKey, out.Hash, out.SignedXDR)
}

func (c *CLI) mediatorResume(args []string) int {
	fs := NewFlagSet("mediator resume", "mediator resume [flags] RECORD_FILE",
		"Complete a forward from its recovery record while its flow token lives: rebuild\n"+
			"the forward with fresh time bounds if the stored one expired, send it to the\n"+
			"mediator, verify the signature and print the co-signed envelope; with --submit\n"+
			"submit it through the account API too, and delete the record once it landed.\n"+
			"On failure the record keeps the last error. Once the token has expired the\n"+
			"mediator co-signs no more, and resume says what becomes of the funds: the relay\n"+
			"runs the forward of a close published with a memo-committed token and --submit;\n"+
			"with --plan, resume reads that plan's status from the relay and says what the\n"+
			"relay has done or will do with this forward (exit 0 once it has forwarded).")
	o := c.CommonFlags(fs, 2*time.Minute)
	submit := fs.Bool("submit", false, "submit the co-signed forward to the ledger through the account API")
	planID := fs.String("plan", "", "the close's plan id (as publish printed it): once the token has expired, read from the relay what became of the forward")
	horizonURL := c.HorizonFlag(fs, "to submit to (with --submit)")
	rpcURL := c.RPCFlag(fs, "to submit to (with --submit)")
	pos, code, done := c.Parse(fs, args, 1, "RECORD_FILE")
	if done {
		return code
	}
	rec, err := wallet.LoadRecord(pos[0])
	if err != nil {
		return c.Fail("mediator resume", o.JSON, Usagef("%v", err))
	}
	if *planID != "" {
		if err := checkPlanID(*planID); err != nil {
			return c.Fail("mediator resume", o.JSON, Usagef("--plan: %s", Message(err)))
		}
	}
	if *rpcURL != "" {
		*horizonURL = ""
	}
	api, err := c.ledgerAPI(ledger.Network(rec.Network), *horizonURL, *rpcURL, 30*time.Second)
	if err != nil {
		return c.Fail("mediator resume", o.JSON, err)
	}
	if *submit && api == nil {
		return c.Fail("mediator resume", o.JSON, Usagef("--submit needs --horizon-url (or %s) or --rpc-url (or %s): the ledger API to submit to", EnvHorizon, EnvRPC))
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("mediator resume", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	if !o.JSON {
		fmt.Fprintf(c.Stdout, "resuming the forward of %s (recorded %s): pay %s with memo %s via mediator %s on %s\n",
			pos[0], rec.Time.Format(time.RFC3339), rec.Destination, rec.Memo, rec.MediatorPublicKey, rec.Network)
	}
	res, err := wallet.Resume(ctx, cl, rec, wallet.ResumeOptions{})
	if err != nil {
		rec.LastError = err.Error()
		if serr := rec.Save(pos[0]); serr != nil {
			fmt.Fprintf(c.Stderr, "closerelayctl mediator resume: could not update the record: %s\n", Message(serr))
		}
		if errors.Is(err, wallet.ErrFlowExpired) {
			flow, ferr := rec.Flow()
			if ferr != nil {
				return c.Fail("mediator resume", o.JSON, ferr)
			}
			if *planID != "" {
				return c.resumeFromRelay(ctx, cl, *planID, pos[0], rec, o.JSON)
			}
			err = &RefusedError{fmt.Errorf("%w: the mediator no longer co-signs this forward. %s (closerelayctl mediator resume --plan PLAN_ID reads which from the relay)", err, afterExpiry(flow))}
		}
		return c.Fail("mediator resume", o.JSON, err)
	}
	if !*submit {
		c.printCosigned(o.JSON, res.Cosigned, rec.MediatorPublicKey, res.Rebuilt)
		return ExitOK
	}
	fwd, _, err := wallet.ForwardOf(res.Envelope)
	if err != nil {
		return c.Fail("mediator resume", o.JSON, err)
	}
	if !o.JSON {
		fmt.Fprintf(c.Stderr, "co-signed by mediator %s (signature verified over hash %s); submitting\n", rec.MediatorPublicKey, res.Hash)
	}
	code = c.submitForward(ctx, api, ledger.Network(rec.Network), res.SignedXDR, fwd.Amount, rec.Memo, o, "mediator resume")
	if code == ExitOK {
		if err := os.Remove(pos[0]); err != nil {
			fmt.Fprintf(c.Stderr, "closerelayctl mediator resume: the forward landed, but the record could not be deleted: %v\n", err)
		}
	}
	return code
}

// resumeFromRelay says, once a record's token has expired, what the relay
// has done or will do with its forward, from plan id's status (CONTRACT
// section 16): it runs the forward of a close published with the flow
// token and submit, and status.forward is null until that close's
// submission succeeds, then pending, forwarded or failed. The plan must be
// a close through the record's mediator. Exit 0 once the relay has
// forwarded (the record, now done with, is deleted), 1 otherwise.
func (c *CLI) resumeFromRelay(ctx context.Context, cl *client.Client, id, path string, rec wallet.Record, jsonOut bool) int {
	fail := func(err error) int { return c.Fail("mediator resume", jsonOut, err) }
	p, err := cl.Get(ctx, id)
	if err != nil {
		return fail(err)
	}
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(p.XDR, &env); err != nil {
		return fail(err)
	}
	if why := ledger.CheckMediatorClose(env, rec.MediatorPublicKey); why != "" {
		return fail(Usagef("plan %s is not a close through this record's mediator %s: %s", id, rec.MediatorPublicKey, why))
	}
	st, err := cl.StatusWire(ctx, id)
	if err != nil {
		return fail(err)
	}
	dest := fmt.Sprintf("%s with memo %s", rec.Destination, rec.Memo)
	operator := "the funds wait in the mediator " + rec.MediatorPublicKey + ", and only the relay's operator, who holds the master secret, can move them"
	var msg string
	code := ExitRefused
	switch f, sub := st.Forward, st.Submission; {
	case f != nil && f.State == "forwarded":
		msg = fmt.Sprintf("the relay has forwarded the funds: transaction %s in ledger %d paid %s XLM to %s, and merged the mediator into it; nothing is left to do",
			f.Hash, f.Ledger, f.Amount, dest)
		code = ExitOK
	case f != nil && f.State == "pending":
		msg = fmt.Sprintf("the relay submitted the close and is running the forward now: it pays %s the mediator's whole balance less the fee and 1 XLM, then merges the mediator into it (closerelayctl watch %s tells when it is done)", dest, id)
	case f != nil && f.State == "failed":
		msg = fmt.Sprintf("the relay's forward failed (%s) and it gave up after its retries: %s", f.Code, operator)
	case f != nil:
		msg = "the relay reports the forward as " + f.State
	case sub != nil && sub.State == "submitted":
		msg = "the relay submitted the close but runs no forward for it: it was published without the flow token (closerelayctl publish --submit --flow-token); " + operator
	case !st.Submit:
		msg = "the plan was not published with --submit: the relay neither submits the close nor runs its forward; once someone else submits it, " + operator
	default:
		msg = fmt.Sprintf("the relay has not submitted the close yet (%s); once it has, it runs the forward if the close was published with the flow token, and closerelayctl status %s then shows it (a forward line); without the token, %s",
			submissionText(st), id, operator)
	}
	if jsonOut {
		c.PrintJSON(map[string]any{"ok": code == ExitOK, "id": st.ID, "expired": true, "submission": st.Submission, "forward": st.Forward, "reason": msg})
	} else if code == ExitOK {
		fmt.Fprintf(c.Stdout, "the flow token has expired, but %s\n", msg)
	} else {
		fmt.Fprintf(c.Stderr, "closerelayctl mediator resume: the flow token has expired: the mediator no longer co-signs this forward; %s\n", msg)
	}
	if code == ExitOK {
		if err := os.Remove(path); err != nil {
			fmt.Fprintf(c.Stderr, "closerelayctl mediator resume: the forward landed, but the record could not be deleted: %v\n", err)
		}
	}
	return code
}

// publishedFlow is the flow a publish carries to the relay.
type publishedFlow struct {
	wallet.FlowToken
	token string
}

// publishFlow decides the flow token a publish carries (docs/API.md 3.8):
// --flow-token, or else the token of `build --json` input when the close
// is published with --submit. The relay runs the forward only of a
// memo-committed, fresh token on a close it submits, so a token that cannot
// be that is refused here (exit 2 for --flow-token, 1 for an expired one);
// one that came from build's output without --submit, or without a memo, is
// not sent, and the command says what then becomes of the forward.
func (c *CLI) publishFlow(given, fromBuild string, submit, jsonOut bool) (*publishedFlow, error) {
	token := given
	if token == "" {
		if fromBuild == "" {
			return nil, nil
		}
		tok, err := wallet.ParseFlowToken(fromBuild)
		if err != nil {
			return nil, Usagef("the input's flowToken: %s", Message(err))
		}
		switch {
		case !submit:
			if !jsonOut {
				fmt.Fprintln(c.Stderr, "closerelayctl publish: this close pays a mediator; without --submit the relay does not run its forward: publish with --submit so it does, or co-sign and submit the forward yourself (closerelayctl mediator forward --submit) before its token expires")
			}
			return nil, nil
		case tok.Memo.IsZero():
			if !jsonOut {
				fmt.Fprintf(c.Stderr, "closerelayctl publish: this close pays a mediator whose token commits no memo, so the relay submits the close but does not run its forward: co-sign and submit it yourself (closerelayctl mediator forward --submit) before %s\n", tok.Expiry.UTC().Format(time.RFC3339))
			}
			return nil, nil
		}
		token = fromBuild
	}
	tok, err := wallet.ParseFlowToken(token)
	switch {
	case err != nil:
		return nil, Usagef("--flow-token: %s", Message(err))
	case !submit:
		return nil, Usagef("--flow-token goes with --submit: the relay runs the forward only of a close it submits")
	case tok.Memo.IsZero():
		return nil, Usagef("--flow-token commits no memo: the relay runs the forward only of a flow minted with --memo (closerelayctl mediator mint --memo …)")
	case !tok.Expiry.After(time.Now()):
		return nil, &RefusedError{fmt.Errorf("the flow token expired at %s: the relay takes only a fresh one at publish (BAD_FLOW); mint a new flow (mediator mint --memo) and build the close again", tok.Expiry.UTC().Format(time.RFC3339))}
	}
	return &publishedFlow{FlowToken: tok, token: token}, nil
}
