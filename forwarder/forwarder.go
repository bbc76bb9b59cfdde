// Package forwarder runs a mediator forward for the relay (CONTRACT section
// 16): once a plan's close has landed, it reads the mediator's account,
// builds the forward from it (ledger.BuildForward: pure), has it validated
// and signed by the same code as POST /api/mediator/sign
// (mediator.Service.SignForward), and submits it with the submission's
// retries (ledgerapi.Client.Submit). It is the production actor.Forwarder:
// the plan's loop calls it on a goroutine of its own and takes the outcome
// back through its mailbox.
//
// What a try does when it goes wrong:
//
//   - the account cannot be read (a timeout, a 5xx, an account the ledger
//     API does not show yet): read again after the backoff, until ctx
//     ends: the plan's loop bounds every forward by its retry budget
//     (actor.Options.ForwardBudget), then settles it failed;
//   - the ledger refuses the forward (a sequence number another
//     transaction used, a time bound passed, anything else): build it again
//     from a fresh read and try again, up to MaxRefusals refusals, then
//     report the last refusal's code;
//   - the forward's own time bounds pass while its submission is still
//     retried (the ledger API keeps timing out): it can never land, so a
//     new one is built;
//   - the mediator is gone after a forward was sent (its answer was lost):
//     the sent forward is posted again, and the ledger API answers one it
//     holds with its success.
//
// A forward only ever pays the flow's destination with the flow's memo:
// it is built from the plan's flow, and signed only when it passes the
// mediator's validation against what the flow's token commits to (its
// MAC, not the plan's record, is the authority).
package forwarder

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/plan"
)

// Codes of failed forwards that the ledger did not give.
const (
	// CodeBadFlow: the plan's flow does not parse (a store written by
	// something else); nothing was built.
	CodeBadFlow = "bad_flow"
	// CodeUnfunded: the mediator's balance does not cover the fee, the
	// kept unit and a payment; the preflight's blocker of the same
	// forward has the same code.
	CodeUnfunded = ledger.CodeForwardUnderfunded
	// CodeMediatorGone: the mediator account no longer exists and no
	// forward of the relay's took it.
	CodeMediatorGone = "mediator_gone"
)

// MaxRefusals is how many ledger refusals a forward takes, each followed
// by a rebuild, before it is reported failed.
const MaxRefusals = 3

// maxMissingReads is how many reads may find no mediator account, before
// any forward was sent, before the forward fails: the ledger API may lag
// the close's ledger by a few seconds, not by this many backoffs.
const maxMissingReads = 8

// Ledger is what a forward needs of the ledger API; *ledgerapi.Client is
// the production one.
type Ledger interface {
	Account(ctx context.Context, n ledger.Network, account string) (ledger.AccountState, error)
	Submit(ctx context.Context, n ledger.Network, envelopeXDR string, observe func(ledgerapi.SubmitAttempt)) ledgerapi.SubmitOutcome
	Backoff(retry int) time.Duration
}

// Signer derives a flow's mediator and validates and signs its forwards;
// *mediator.Service is the production one.
type Signer interface {
	FlowAddress(nonce string) (string, error)
	// SignForward validates and signs a forward under the flow's token,
	// which decides what may be signed: the plan's flow is the store's word.
	SignForward(envelopeXDR, flowToken string, n ledger.Network) (signedXDR, hashHex string, err error)
}

// Options configure a Forwarder.
type Options struct {
	Ledger Ledger
	Signer Signer
	// Now is the clock the forward's time bounds are built from;
	// time.Now when nil.
	Now func() time.Time
}

// Forwarder runs forwards. It is safe for concurrent use: it holds nothing
// but its options.
type Forwarder struct {
	ledger Ledger
	signer Signer
	now    func() time.Time
}

// New returns a Forwarder for o.
func New(o Options) *Forwarder {
	f := &Forwarder{ledger: o.Ledger, signer: o.Signer, now: o.Now}
	if f.now == nil {
		f.now = time.Now
	}
	return f
}

// Forward implements actor.Forwarder; see the package's doc for what each
// try does.
func (f *Forwarder) Forward(ctx context.Context, job plan.ForwardJob, retried func()) plan.Forward {
	memo, err := mediator.ParseMemo(job.Flow.Memo)
	if err != nil {
		return failed(CodeBadFlow, "the plan's flow does not carry a memo the relay can read", "")
	}
	flow := mediator.Flow{Nonce: job.Flow.Nonce, Destination: job.Flow.Destination, Memo: memo}
	address, err := f.signer.FlowAddress(flow.Nonce)
	if err != nil {
		return failed(string(codeOf(err)), "the relay cannot derive the flow's mediator", "")
	}
	var (
		sent       string // the last forward sent, signed
		sentHash   string
		sentAmount string
		refusals   int
		missing    int
		last       plan.Forward // the last refusal
	)
	for try := 1; ; try++ {
		if try > 1 {
			if !f.wait(ctx, try-1) {
				return plan.Forward{}
			}
			if retried != nil {
				retried()
			}
		}
		acc, err := f.ledger.Account(ctx, job.Network, address)
		switch {
		case ctx.Err() != nil:
			return plan.Forward{}
		case err != nil && errors.Is(err, ledgerapi.ErrNoAccount) && sent != "":
			// Gone: the forward sent last may have landed with its answer
			// lost. Posting it again asks the ledger API, which answers a
			// transaction it holds with its success.
			out := f.ledger.Submit(ctx, job.Network, sent, nil)
			switch out.State {
			case ledgerapi.SubmitSubmitted:
				return plan.Forward{State: plan.ForwardForwarded, Hash: out.Hash, Ledger: int64(out.Ledger), Amount: sentAmount}
			case ledgerapi.SubmitAbandoned:
				return plan.Forward{}
			}
			if last.State == "" {
				last = failed(CodeMediatorGone, "the mediator account is gone, and not by the relay's forward", sentHash)
			}
			return last
		case err != nil && errors.Is(err, ledgerapi.ErrNoAccount):
			if missing++; missing >= maxMissingReads {
				return failed(CodeMediatorGone, "the mediator account does not exist", "")
			}
			continue
		case err != nil:
			continue // unreachable for now: read again after the backoff
		}
		fwd, err := ledger.BuildForward(ledger.ForwardSpec{
			Mediator: acc, Destination: flow.Destination, Memo: memo.XDR(), FeePerOp: job.FeePerOp, Now: f.now(),
		})
		if errors.Is(err, ledger.ErrForwardUnfunded) {
			return failed(CodeUnfunded, fmt.Sprintf("the mediator holds %s, which does not cover the forward's fee and the unit it keeps", ledger.Units(acc.Balance)), "")
		} else if err != nil {
			return failed(CodeBadFlow, "the forward cannot be built: "+err.Error(), "")
		}
		unsigned, err := ledger.EncodeEnvelope(fwd.Envelope)
		if err != nil {
			return failed(ledgerapi.SubmitCodeMalformed, "the forward does not encode", "")
		}
		signed, hash, err := f.signer.SignForward(unsigned, job.Flow.Token, job.Network)
		if err != nil {
			// Never sent: the forward built from the plan's flow is not what
			// the flow's token commits to (a record written by something
			// else), or a bug of ours.
			return failed(string(codeOf(err)), "the forward failed the mediator's validation under the flow's token", "")
		}
		sent, sentHash, sentAmount = signed, hash, ledger.Units(fwd.Amount)
		// Retried as a submission is, but only while the forward's time
		// bounds hold: past them it can never land, and a new one is built.
		sctx, cancel := context.WithTimeout(ctx, ledger.ForwardTimeout)
		out := f.ledger.Submit(sctx, job.Network, signed, func(ledgerapi.SubmitAttempt) {
			if retried != nil {
				retried()
			}
		})
		cancel()
		switch out.State {
		case ledgerapi.SubmitSubmitted:
			return plan.Forward{State: plan.ForwardForwarded, Hash: out.Hash, Ledger: int64(out.Ledger), Amount: sentAmount}
		case ledgerapi.SubmitAbandoned:
			if ctx.Err() != nil {
				return plan.Forward{}
			}
			continue // its time bounds passed: build a new one
		}
		last = failed(out.Code, out.Reason, out.Hash)
		if refusals++; refusals >= MaxRefusals {
			return last
		}
	}
}

// wait waits the backoff before retry number retry, or until ctx ends
// (false).
func (f *Forwarder) wait(ctx context.Context, retry int) bool {
	t := time.NewTimer(f.ledger.Backoff(retry))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func failed(code, reason, hash string) plan.Forward {
	return plan.Forward{State: plan.ForwardFailed, Code: code, Reason: reason, Hash: hash}
}

// codeOf is err's code, or INTERNAL for an error that carries none.
func codeOf(err error) errcode.Code {
	if c := errcode.CodeOf(err); c != "" {
		return c
	}
	return errcode.Internal
}
