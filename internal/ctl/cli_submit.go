package ctl

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/closerelay/closerelay/ledgerapi/rpc"
)

// submit is `closerelayctl submit PLAN_ID`: fetch the plan's submit-ready
// envelope from the relay and post it to the account API (Horizon's POST
// /transactions) itself, retrying timeouts, 429 and 5xx like the relay
// does (ledgerapi.Client.Submit), until an answer or --timeout.
func (c *CLI) submit(args []string) int {
	fs := NewFlagSet("submit", "submit [flags] PLAN_ID",
		"Fetch the plan's submit-ready envelope (as `closerelayctl ready` prints it) and\n"+
			"submit it to the ledger through the account API given with --horizon-url (or\n"+
			"$"+EnvHorizon+") or the Stellar RPC endpoint given with --rpc-url (or\n"+
			"$"+EnvRPC+"); one is required. It retries the same envelope on a timeout, 429 or\n"+
			"5xx until an answer or --timeout. Prints the transaction hash and the ledger it\n"+
			"closed in. A refusal by the ledger exits 1 with its result code (tx_bad_seq,\n"+
			"tx_bad_auth, ...). For a plan published with --submit the relay submits it\n"+
			"itself; `closerelayctl watch` shows the outcome. The relay's verdict is read\n"+
			"first: a close it says the ledger would refuse (blocked), or has submitted\n"+
			"already, is not posted (exit 1), unless --force.")
	o := c.CommonFlags(fs, 2*time.Minute)
	horizonURL := c.HorizonFlag(fs, "to submit to")
	rpcURL := c.RPCFlag(fs, "to submit to")
	force := fs.Bool("force", false, forceUsage)
	pos, code, done := c.Parse(fs, args, 1, "PLAN_ID")
	if done {
		return code
	}
	if err := checkPlanID(pos[0]); err != nil {
		return c.Fail("submit", o.JSON, err)
	}
	if *rpcURL != "" {
		*horizonURL = "" // the one given beside it, or by the environment, is not used
	}
	if *horizonURL == "" && *rpcURL == "" {
		return c.Fail("submit", o.JSON, Usagef("--horizon-url (or %s) or --rpc-url (or %s) is required: the ledger API to submit to", EnvHorizon, EnvRPC))
	}
	cl, err := c.Client(o)
	if err != nil {
		return c.Fail("submit", o.JSON, err)
	}
	ctx, cancel := o.Context(context.Background())
	defer cancel()
	// The relay's verdict first (CONTRACT 18): a close it found blocked,
	// at its preflight or at its own submission, is not posted unless
	// --force, for the ledger would take its fee and sequence number and
	// refuse it; nor, unless --force, one the relay has submitted already.
	if st, err := cl.StatusWire(ctx, pos[0]); err != nil {
		// Only a relay older than the status route (a 404 without a code)
		// goes on without a verdict; an unknown plan or an unreachable
		// relay fails here, once.
		var apiErr *client.Error
		if !errors.As(err, &apiErr) || apiErr.Code != "" {
			return c.Fail("submit", o.JSON, err)
		}
		if !o.JSON {
			fmt.Fprintf(c.Stderr, "the relay's verdict could not be read (%s): whether the close would land is not known\n", Message(err))
		}
	} else {
		if !o.JSON {
			writeVerdict(c.Stderr, st, "submit")
		}
		switch sub := st.Submission; {
		case blockedBy(st) != "" && !*force:
			return c.Fail("submit", o.JSON, refuseBlocked(st, "submit", "submitted"))
		case sub != nil && sub.State == "submitted" && !*force:
			return c.Fail("submit", o.JSON, &RefusedError{fmt.Errorf("not submitted: the relay submitted this close already, transaction %s in ledger %d", sub.Hash, sub.Ledger)})
		case blockedBy(st) != "":
			fmt.Fprintln(c.Stderr, "--force: submitting it all the same")
		}
	}
	r, err := cl.Ready(ctx, pos[0])
	if err != nil {
		return c.Fail("submit", o.JSON, err)
	}
	network := ledger.Network(r.Network)
	backends := horizon.Backends(map[ledger.Network]string{network: *horizonURL}, c.Transport)
	apiURL, apiFlag := *horizonURL, "--horizon-url"
	if *rpcURL != "" {
		backends = rpc.Backends(map[ledger.Network]string{network: *rpcURL}, c.Transport)
		apiURL, apiFlag = *rpcURL, "--rpc-url"
	}
	api := ledgerapi.New(ledgerapi.Options{Backends: backends, Timeout: 30 * time.Second})
	retries := 0
	out := api.Submit(ctx, network, r.XDR, func(a ledgerapi.SubmitAttempt) {
		retries++
		if !o.JSON {
			fmt.Fprintf(c.Stderr, "retrying (try %d) after %s\n", a.Try, a.Cause)
		}
	})
	switch out.State {
	case ledgerapi.SubmitSubmitted:
		if o.JSON {
			c.PrintJSON(map[string]any{"ok": true, "id": r.ID, "network": r.Network, "hash": out.Hash, "ledger": out.Ledger, "retries": retries})
		} else {
			fmt.Fprintf(c.Stdout, "submitted plan %s: transaction %s in ledger %d\n", r.ID, out.Hash, out.Ledger)
		}
		return ExitOK
	case ledgerapi.SubmitFailed:
		if out.Tries == 0 && out.Code == ledgerapi.SubmitCodeUnconfigured {
			return c.Fail("submit", o.JSON, Usagef("%s %q is not a usable ledger API URL", apiFlag, apiURL))
		}
		if o.JSON {
			c.PrintJSON(map[string]any{"ok": false, "id": r.ID, "code": out.Code, "reason": out.Reason, "hash": out.Hash, "opCodes": out.OpCodes})
		} else {
			fmt.Fprintf(c.Stderr, "closerelayctl submit: the ledger refused the transaction: %s (%s)\n", out.Code, out.Reason)
		}
		return ExitRefused
	}
	err = out.Err
	if err == nil {
		err = errors.New(out.Reason)
	}
	return c.Fail("submit", o.JSON, fmt.Errorf("no answer from the account API: %s: %w", out.Reason, err))
}
