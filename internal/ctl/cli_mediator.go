package ctl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/ledgerapi/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

const mediatorUsage = `Usage: closerelayctl mediator COMMAND [flags]

Mediator flows, for destinations that need a memo (SPEC "Mediator flow"):

  mint DESTINATION      mint a flow committed to DESTINATION; prints the flow token and mediator key
  forward               build the unsigned forward (payment with memo + merge) of a flow's mediator
  cosign [XDR|-]        have the mediator co-sign a forward, verify its signature, print the envelope
  resume RECORD_FILE    resume a forward whose co-signing did not complete, from its recovery record

Run closerelayctl mediator COMMAND --help for each command's flags. mint, cosign
and resume talk to the relay (--relay, env CLOSERELAY_URL); every command takes
--json. To build the mediator close plan itself: closerelayctl build --mediator.
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
		"Mint a mediator flow committed to DESTINATION (a G… account). The token is\n"+
			"checked to commit to DESTINATION before it is printed; it lives 15 minutes.")
	o := c.CommonFlags(fs, 30*time.Second)
	pos, code, done := c.Parse(fs, args, 1, "DESTINATION")
	if done {
		return code
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("mediator mint", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	minted, err := cl.MediatorMint(ctx, pos[0])
	if err != nil {
		return c.Fail("mediator mint", o.JSON, err)
	}
	flow, err := wallet.NewMediatorFlow(minted, pos[0])
	if err != nil {
		return c.Fail("mediator mint", o.JSON, err)
	}
	if o.JSON {
		c.PrintJSON(map[string]any{"ok": true, "flowToken": flow.Token, "mediatorPublicKey": flow.MediatorPublicKey,
			"destination": flow.Destination, "expiry": flow.Expiry.UTC().Format(time.RFC3339)})
		return ExitOK
	}
	fmt.Fprintf(c.Stdout, "flow token: %s\nmediator:   %s\ndestination: %s\nexpires:    %s\n",
		flow.Token, flow.MediatorPublicKey, flow.Destination, flow.Expiry.UTC().Format(time.RFC3339))
	return ExitOK
}

// memoFrom reads --memo-text and --memo-id into a txnbuild memo.
func memoFrom(text, id string) (txnbuild.Memo, error) {
	switch {
	case text != "" && id != "":
		return nil, Usagef("give --memo-text or --memo-id, not both")
	case text != "":
		if len(text) > 28 {
			return nil, Usagef("--memo-text holds at most 28 bytes")
		}
		return txnbuild.MemoText(text), nil
	case id != "":
		n, err := strconv.ParseUint(id, 10, 64)
		if err != nil {
			return nil, Usagef("--memo-id must be an unsigned 64-bit number")
		}
		return txnbuild.MemoID(n), nil
	}
	return nil, Usagef("the destination needs a memo: give --memo-text or --memo-id")
}

func (c *CLI) mediatorForward(args []string) int {
	fs := NewFlagSet("mediator forward", "mediator forward [flags]",
		"Build the unsigned forward of a mediator flow: a native payment of --amount with\n"+
			"the memo, then an account merge, both from the mediator to --destination, valid\n"+
			"for --valid-for (at most 1h). Prints its base64 XDR.")
	jsonOut := new(bool)
	JSONFlag(fs, jsonOut)
	mediatorKey := fs.String("mediator", "", "the flow's mediator public key (G…)")
	dest := fs.String("destination", "", "the flow's destination (G…)")
	amount := fs.String("amount", "", "native amount to pay with the memo, e.g. 100.5")
	memoText := fs.String("memo-text", "", "text memo (up to 28 bytes)")
	memoID := fs.String("memo-id", "", "id memo (unsigned 64-bit)")
	seq := fs.Int64("sequence", -1, "the mediator account's current sequence number (default: read from --horizon-url)")
	horizonURL := c.HorizonFlag(fs, "to read the mediator's sequence number from")
	rpcURL := c.RPCFlag(fs, "to read the mediator's sequence number from")
	validFor := fs.Duration("valid-for", wallet.DefaultForwardTimeout, "time bound of the forward (at most 1h)")
	if _, code, done := c.Parse(fs, args, 0, ""); done {
		return code
	}
	memo, err := memoFrom(*memoText, *memoID)
	if err != nil {
		return c.Fail("mediator forward", *jsonOut, err)
	}
	if *mediatorKey == "" || *dest == "" || *amount == "" {
		return c.Fail("mediator forward", *jsonOut, Usagef("--mediator, --destination and --amount are required"))
	}
	if *seq < 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		switch {
		case *rpcURL != "":
			n := ledger.Testnet // the one backend's key: its URL says which network it is
			api := ledgerapi.New(ledgerapi.Options{Backends: rpc.Backends(map[ledger.Network]string{n: *rpcURL}, c.Transport), Timeout: 30 * time.Second})
			acct, err := api.Account(ctx, n, *mediatorKey)
			if err != nil {
				return c.Fail("mediator forward", *jsonOut, err)
			}
			*seq = acct.Sequence
		case *horizonURL != "":
			acct, err := c.Horizon(*horizonURL).Account(ctx, *mediatorKey)
			if err != nil {
				return c.Fail("mediator forward", *jsonOut, err)
			}
			*seq = acct.Sequence
		default:
			return c.Fail("mediator forward", *jsonOut, Usagef("give --sequence, or --horizon-url or --rpc-url to read it"))
		}
	}
	tx, err := wallet.BuildForward(wallet.ForwardParams{
		Mediator: *mediatorKey, Sequence: *seq, Destination: *dest, Amount: *amount, Memo: memo, Timeout: *validFor,
	})
	if err != nil {
		return c.Fail("mediator forward", *jsonOut, Usagef("%v", err))
	}
	x, err := tx.Base64()
	if err != nil {
		return c.Fail("mediator forward", *jsonOut, err)
	}
	if *jsonOut {
		c.PrintJSON(map[string]any{"ok": true, "xdr": x, "maxTime": tx.Timebounds().MaxTime})
	} else {
		fmt.Fprintln(c.Stdout, x)
	}
	return ExitOK
}

func (c *CLI) mediatorCosign(args []string) int {
	fs := NewFlagSet("mediator cosign", "mediator cosign [flags] [XDR|-]",
		"Send a forward (base64 XDR, as an argument or on standard input) to the mediator\n"+
			"with its flow token, verify the answer (same transaction, and an ed25519\n"+
			"signature by the flow's mediator key over its hash), and print the co-signed\n"+
			"envelope. With --record, a forward that could not be co-signed is saved to that\n"+
			"file, to be completed later with 'closerelayctl mediator resume'.")
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
	committed, _, err := wallet.ParseFlowToken(*token)
	if err != nil {
		return c.Fail("mediator cosign", o.JSON, Usagef("%v", err))
	}
	flow, err := wallet.NewMediatorFlow(client.Flow{FlowToken: *token, MediatorPublicKey: *mediatorKey}, committed)
	if err != nil {
		return c.Fail("mediator cosign", o.JSON, Usagef("%v", err))
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
			if rerr := c.saveRecord(*record, *network, flow, x, err); rerr != nil {
				fmt.Fprintf(c.Stderr, "closerelayctl mediator cosign: could not write the recovery record: %s\n", Message(rerr))
			} else if !o.JSON {
				fmt.Fprintf(c.Stderr, "recovery record written to %s; complete it with: closerelayctl mediator resume %s\n", *record, *record)
			}
		}
		return c.Fail("mediator cosign", o.JSON, err)
	}
	c.printCosigned(o.JSON, out, flow.MediatorPublicKey, false)
	return ExitOK
}

func (c *CLI) saveRecord(path, network string, flow wallet.MediatorFlow, forwardXDR string, cause error) error {
	rec, err := wallet.NewRecord(network, flow, forwardXDR, time.Now())
	if err != nil {
		return err
	}
	rec.LastError = cause.Error()
	return rec.Save(path)
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
		"Complete a forward from its recovery record: check the flow token is still live,\n"+
			"rebuild the forward with fresh time bounds if the stored one expired, send it to\n"+
			"the mediator, verify the signature and print the co-signed envelope. On failure\n"+
			"the record keeps the last error; on success, submit the envelope and delete it.")
	o := c.CommonFlags(fs, 30*time.Second)
	pos, code, done := c.Parse(fs, args, 1, "RECORD_FILE")
	if done {
		return code
	}
	rec, err := wallet.LoadRecord(pos[0])
	if err != nil {
		return c.Fail("mediator resume", o.JSON, Usagef("%v", err))
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
			err = &RefusedError{fmt.Errorf("%w: the mediator will not co-sign this flow any more; its funds need the operator's help", err)}
		}
		return c.Fail("mediator resume", o.JSON, err)
	}
	c.printCosigned(o.JSON, res.Cosigned, rec.MediatorPublicKey, res.Rebuilt)
	return ExitOK
}
