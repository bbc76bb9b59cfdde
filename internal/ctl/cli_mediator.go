package ctl

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
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

func (c *cli) mediator(args []string) int {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, mediatorUsage)
		return exitUsage
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
		fmt.Fprint(c.stdout, mediatorUsage)
		return exitOK
	}
	fmt.Fprintf(c.stderr, "closerelayctl mediator: unknown command %q\n\n%s", args[0], mediatorUsage)
	return exitUsage
}

func (c *cli) mediatorMint(args []string) int {
	fs := newFlagSet("mediator mint", "mediator mint [flags] DESTINATION",
		"Mint a mediator flow committed to DESTINATION (a G… account). The token is\n"+
			"checked to commit to DESTINATION before it is printed; it lives 15 minutes.")
	o := c.commonFlags(fs, 30*time.Second)
	pos, code, done := c.parse(fs, args, 1, "DESTINATION")
	if done {
		return code
	}
	cl, err := c.client(o)
	if err != nil {
		return c.fail("mediator mint", o.json, err)
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	minted, err := cl.MediatorMint(ctx, pos[0])
	if err != nil {
		return c.fail("mediator mint", o.json, err)
	}
	flow, err := wallet.NewMediatorFlow(minted, pos[0])
	if err != nil {
		return c.fail("mediator mint", o.json, err)
	}
	if o.json {
		c.printJSON(map[string]any{"ok": true, "flowToken": flow.Token, "mediatorPublicKey": flow.MediatorPublicKey,
			"destination": flow.Destination, "expiry": flow.Expiry.UTC().Format(time.RFC3339)})
		return exitOK
	}
	fmt.Fprintf(c.stdout, "flow token: %s\nmediator:   %s\ndestination: %s\nexpires:    %s\n",
		flow.Token, flow.MediatorPublicKey, flow.Destination, flow.Expiry.UTC().Format(time.RFC3339))
	return exitOK
}

// memoFrom reads --memo-text and --memo-id into a txnbuild memo.
func memoFrom(text, id string) (txnbuild.Memo, error) {
	switch {
	case text != "" && id != "":
		return nil, usagef("give --memo-text or --memo-id, not both")
	case text != "":
		if len(text) > 28 {
			return nil, usagef("--memo-text holds at most 28 bytes")
		}
		return txnbuild.MemoText(text), nil
	case id != "":
		n, err := strconv.ParseUint(id, 10, 64)
		if err != nil {
			return nil, usagef("--memo-id must be an unsigned 64-bit number")
		}
		return txnbuild.MemoID(n), nil
	}
	return nil, usagef("the destination needs a memo: give --memo-text or --memo-id")
}

func (c *cli) mediatorForward(args []string) int {
	fs := newFlagSet("mediator forward", "mediator forward [flags]",
		"Build the unsigned forward of a mediator flow: a native payment of --amount with\n"+
			"the memo, then an account merge, both from the mediator to --destination, valid\n"+
			"for --valid-for (at most 1h). Prints its base64 XDR.")
	jsonOut := new(bool)
	jsonFlag(fs, jsonOut)
	mediatorKey := fs.String("mediator", "", "the flow's mediator public key (G…)")
	dest := fs.String("destination", "", "the flow's destination (G…)")
	amount := fs.String("amount", "", "native amount to pay with the memo, e.g. 100.5")
	memoText := fs.String("memo-text", "", "text memo (up to 28 bytes)")
	memoID := fs.String("memo-id", "", "id memo (unsigned 64-bit)")
	seq := fs.Int64("sequence", -1, "the mediator account's current sequence number (default: read from --horizon-url)")
	horizonURL := c.horizonFlag(fs, "to read the mediator's sequence number from")
	validFor := fs.Duration("valid-for", wallet.DefaultForwardTimeout, "time bound of the forward (at most 1h)")
	if _, code, done := c.parse(fs, args, 0, ""); done {
		return code
	}
	memo, err := memoFrom(*memoText, *memoID)
	if err != nil {
		return c.fail("mediator forward", *jsonOut, err)
	}
	if *mediatorKey == "" || *dest == "" || *amount == "" {
		return c.fail("mediator forward", *jsonOut, usagef("--mediator, --destination and --amount are required"))
	}
	if *seq < 0 {
		if *horizonURL == "" {
			return c.fail("mediator forward", *jsonOut, usagef("give --sequence, or --horizon-url to read it"))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		acct, err := c.horizon(*horizonURL).Account(ctx, *mediatorKey)
		if err != nil {
			return c.fail("mediator forward", *jsonOut, err)
		}
		*seq = acct.Sequence
	}
	tx, err := wallet.BuildForward(wallet.ForwardParams{
		Mediator: *mediatorKey, Sequence: *seq, Destination: *dest, Amount: *amount, Memo: memo, Timeout: *validFor,
	})
	if err != nil {
		return c.fail("mediator forward", *jsonOut, usagef("%v", err))
	}
	x, err := tx.Base64()
	if err != nil {
		return c.fail("mediator forward", *jsonOut, err)
	}
	if *jsonOut {
		c.printJSON(map[string]any{"ok": true, "xdr": x, "maxTime": tx.Timebounds().MaxTime})
	} else {
		fmt.Fprintln(c.stdout, x)
	}
	return exitOK
}

func (c *cli) mediatorCosign(args []string) int {
	fs := newFlagSet("mediator cosign", "mediator cosign [flags] [XDR|-]",
		"Send a forward (base64 XDR, as an argument or on standard input) to the mediator\n"+
			"with its flow token, verify the answer (same transaction, and an ed25519\n"+
			"signature by the flow's mediator key over its hash), and print the co-signed\n"+
			"envelope. With --record, a forward that could not be co-signed is saved to that\n"+
			"file, to be completed later with 'closerelayctl mediator resume'.")
	o := c.commonFlags(fs, 30*time.Second)
	token := fs.String("token", "", "the flow token (from mediator mint)")
	mediatorKey := fs.String("mediator", "", "the flow's mediator public key (default: the forward's source)")
	network := c.networkFlag(fs)
	record := fs.String("record", "", "write a recovery record to this file if co-signing does not complete")
	pos, code, done := c.parse(fs, args, -1, "")
	if done {
		return code
	}
	if len(pos) > 1 {
		return c.fail("mediator cosign", o.json, usagef("%d arguments given, at most 1 expected", len(pos)))
	}
	if *token == "" {
		return c.fail("mediator cosign", o.json, usagef("--token is required"))
	}
	x, err := c.readInput(pos, "forward XDR")
	if err != nil {
		return c.fail("mediator cosign", o.json, err)
	}
	fwd, _, err := wallet.ForwardOf(x)
	if err != nil {
		return c.fail("mediator cosign", o.json, usagef("%v", err))
	}
	if *mediatorKey == "" {
		*mediatorKey = fwd.Mediator
	}
	committed, _, err := wallet.ParseFlowToken(*token)
	if err != nil {
		return c.fail("mediator cosign", o.json, usagef("%v", err))
	}
	flow, err := wallet.NewMediatorFlow(client.Flow{FlowToken: *token, MediatorPublicKey: *mediatorKey}, committed)
	if err != nil {
		return c.fail("mediator cosign", o.json, usagef("%v", err))
	}
	cl, err := c.client(o)
	if err != nil {
		return c.fail("mediator cosign", o.json, err)
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	out, err := wallet.CosignForward(ctx, cl, *network, flow, x)
	if err != nil {
		if *record != "" {
			if rerr := c.saveRecord(*record, *network, flow, x, err); rerr != nil {
				fmt.Fprintf(c.stderr, "closerelayctl mediator cosign: could not write the recovery record: %s\n", message(rerr))
			} else if !o.json {
				fmt.Fprintf(c.stderr, "recovery record written to %s; complete it with: closerelayctl mediator resume %s\n", *record, *record)
			}
		}
		return c.fail("mediator cosign", o.json, err)
	}
	c.printCosigned(o.json, out, flow.MediatorPublicKey, false)
	return exitOK
}

func (c *cli) saveRecord(path, network string, flow wallet.MediatorFlow, forwardXDR string, cause error) error {
	rec, err := wallet.NewRecord(network, flow, forwardXDR, time.Now())
	if err != nil {
		return err
	}
	rec.LastError = cause.Error()
	return rec.Save(path)
}

func (c *cli) printCosigned(jsonOut bool, out client.Cosigned, mediatorKey string, rebuilt bool) {
	if jsonOut {
		c.printJSON(map[string]any{"ok": true, "signedXdr": out.SignedXDR, "hash": out.Hash, "mediatorPublicKey": mediatorKey, "rebuilt": rebuilt})
		return
	}
	if rebuilt {
		fmt.Fprintln(c.stdout, "the stored forward had expired: rebuilt with fresh time bounds (same sequence, amount and memo)")
	}
	fmt.Fprintf(c.stdout, "co-signed by mediator %s (signature verified over hash %s)\n%s\n", mediatorKey, out.Hash, out.SignedXDR)
}

func (c *cli) mediatorResume(args []string) int {
	fs := newFlagSet("mediator resume", "mediator resume [flags] RECORD_FILE",
		"Complete a forward from its recovery record: check the flow token is still live,\n"+
			"rebuild the forward with fresh time bounds if the stored one expired, send it to\n"+
			"the mediator, verify the signature and print the co-signed envelope. On failure\n"+
			"the record keeps the last error; on success, submit the envelope and delete it.")
	o := c.commonFlags(fs, 30*time.Second)
	pos, code, done := c.parse(fs, args, 1, "RECORD_FILE")
	if done {
		return code
	}
	rec, err := wallet.LoadRecord(pos[0])
	if err != nil {
		return c.fail("mediator resume", o.json, usagef("%v", err))
	}
	cl, err := c.client(o)
	if err != nil {
		return c.fail("mediator resume", o.json, err)
	}
	ctx, cancel := o.context(context.Background())
	defer cancel()
	if !o.json {
		fmt.Fprintf(c.stdout, "resuming the forward of %s (recorded %s): pay %s with memo %s via mediator %s on %s\n",
			pos[0], rec.Time.Format(time.RFC3339), rec.Destination, rec.Memo, rec.MediatorPublicKey, rec.Network)
	}
	res, err := wallet.Resume(ctx, cl, rec, wallet.ResumeOptions{})
	if err != nil {
		rec.LastError = err.Error()
		if serr := rec.Save(pos[0]); serr != nil {
			fmt.Fprintf(c.stderr, "closerelayctl mediator resume: could not update the record: %s\n", message(serr))
		}
		if errors.Is(err, wallet.ErrFlowExpired) {
			err = &refusedError{fmt.Errorf("%w: the mediator will not co-sign this flow any more; its funds need the operator's help", err)}
		}
		return c.fail("mediator resume", o.json, err)
	}
	c.printCosigned(o.json, res.Cosigned, rec.MediatorPublicKey, res.Rebuilt)
	return exitOK
}
