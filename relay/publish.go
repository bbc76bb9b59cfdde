package relay

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// PublishRequest is a publish as the wire decoded it (CONTRACT section 4).
type PublishRequest struct {
	// XDR is the close's envelope, base64.
	XDR string
	// Network is the network's identifier as given; "" when the body had
	// none or not a string, which guard 2 refuses like any other.
	Network string
	// Submit asks the relay to submit the close once it is ready
	// (CONTRACT section 10); a re-publish may set it, never unset it.
	Submit bool
	// Malformed is what the wire found wrong with an optional field (a
	// submit that is not a boolean: BAD_REQUEST), or nil. It is answered
	// right after guard 1, before guard 2.
	Malformed error
	// FlowToken is the body's "flowToken" as given (CONTRACT section 16),
	// nil when absent; checked right after SUBMIT_UNSUPPORTED.
	FlowToken json.RawMessage
}

// Publish is POST /api/plan: SPEC's guards 1 to 8 in order, with CONTRACT's
// EXPIRED and SUBMIT_UNSUPPORTED right after guard 3. It returns the plan
// id, for a new plan and for a re-publish that merged alike. Each step
// below is one guard; a new check slots in as one more call, in its place.
func (s *Service) Publish(ctx context.Context, req PublishRequest) (id string, err error) {
	x, err := CheckXDR("xdr", req.XDR) // guard 1
	if err != nil {
		return "", err
	}
	if req.Malformed != nil {
		return "", req.Malformed
	}
	network, err := checkNetwork(req.Network) // guard 2
	if err != nil {
		return "", err
	}
	closeTx, err := ledger.ParseClose(x, network) // guard 3
	if err != nil {
		return "", err // coded: NOT_A_CLOSE, or BAD_NETWORK
	}
	now := s.now()
	if err := checkExpiry(closeTx, now); err != nil {
		return "", err
	}
	if err := checkSubmit(closeTx, req.Submit); err != nil {
		return "", err
	}
	flow, err := checkFlow(req.FlowToken, req.Submit, closeTx, s.flows) // CONTRACT section 16
	if err != nil {
		return "", err
	}
	id = hex.EncodeToString(closeTx.Hash[:])

	// Guard 4: a re-publish merges into the existing plan.
	if plan, err := s.plans.Lookup(ctx, id); err == nil {
		return s.republish(ctx, plan, x, req.Submit, flow)
	} else if !errors.Is(err, actor.ErrNotFound) {
		return "", s.failure(err)
	}
	// Guard 5: the relay's limit, then the closing account's.
	if err := s.plans.CheckCapacity(ctx, closeTx.Account); err != nil {
		return "", s.failure(err)
	}
	acc, signers, err := s.readAccount(ctx, network, closeTx.Account) // guard 6
	if err != nil {
		return "", err
	}
	// Guard 7: ledger admits the signatures and builds the plan, whose
	// expiry is the one checked above (same publish instant, same maxTime).
	published, counts, err := ledger.AdmitPlan(ctx, s.sweeps, closeTx, signers, now)
	switch {
	case errors.Is(err, ledger.ErrUnsigned):
		s.metrics.Signatures(metrics.SignatureDropped, counts.Dropped)
		return "", errcode.New(errcode.Unsigned, "the transaction carries no signature from a signer of the account")
	case err != nil:
		return "", err // the client has gone while a signature waited for a sweep, or a bug of ours
	}
	// The preflight (CONTRACT section 14), once guard 7 has passed.
	// A flow's forward is part of it (section 18).
	published = published.WithPreflight(s.preflight(ctx, network, acc, closeTx.Envelope, flow.FlowForward(), now))
	// Guard 8: insert atomically with the second capacity check and the
	// second expiry check (the account API round trip took time).
	create := s.plans.Create
	switch {
	case flow != nil:
		create = func(ctx context.Context, p *ledger.AdmittedPlan) (*actor.Plan, bool, error) {
			return s.plans.CreateForwarding(ctx, p, *flow)
		}
	case req.Submit:
		create = s.plans.CreateSubmitting
	}
	plan, created, err := create(ctx, published)
	if err != nil {
		return "", s.failure(err)
	}
	if !created {
		// A racing publish of the same id won: merge ours into it (guard 4).
		return s.republish(ctx, plan, x, req.Submit, flow)
	}
	s.metrics.Signatures(metrics.SignatureAdmitted, counts.Admitted)
	s.metrics.Signatures(metrics.SignatureDuplicate, counts.Duplicates)
	s.metrics.Signatures(metrics.SignatureDropped, counts.Dropped)
	s.log.Info("plan created", "id", id, "network", string(network), "signatures", counts.Admitted, "expiry", published.Expiry())
	return id, nil
}

// checkNetwork is guard 2. Resolution falls back to testnet for any other
// string, so the resolved identifier is compared with the one given.
func checkNetwork(name string) (ledger.Network, error) {
	network := ledger.ResolveNetwork(name)
	if string(network) != name {
		return "", errcode.New(errcode.BadNetwork, "network must be one of mainnet, testnet, futurenet")
	}
	return network, nil
}

// checkExpiry is CONTRACT section 4's EXPIRED, right after guard 3: the
// plan's expiry must be in the future.
func checkExpiry(closeTx *ledger.Close, now time.Time) error {
	if !ledger.PlanExpiry(now, closeTx.MaxTime).After(now) {
		return errcode.New(errcode.Expired, "the transaction's maxTime leaves no signing window")
	}
	return nil
}

// checkSubmit is CONTRACT section 10's SUBMIT_UNSUPPORTED, right after
// EXPIRED, for a new plan and a re-publish alike (the same transaction, so
// the same answer): the relay cannot submit a close another account must
// sign as its source.
func checkSubmit(closeTx *ledger.Close, submit bool) error {
	if submit && !closeTx.SourceIsAccount() {
		return errcode.New(errcode.SubmitUnsupported, "the transaction's source is not the account being closed, so the relay cannot submit it; publish without submit and submit it yourself")
	}
	return nil
}

// Accounts reads an account's state with its signer set, and runs the
// preflight of a close from it: *ledgerapi.Client does both.
type Accounts interface {
	Read(ctx context.Context, n ledger.Network, account string) (ledger.AccountState, *ledger.SignerSet, error)
	PreflightWith(ctx context.Context, n ledger.Network, acc ledger.AccountState, env xdr.TransactionEnvelope, fwd *ledger.FlowForward, now time.Time) ledger.PreflightRun
}

// readAccount is guard 6: the closing account's signer set, and its whole
// state, so that the preflight reuses the read.
// The round trip happens here, in the publishing request's goroutine, so
// the supervisor never waits on I/O.
func (s *Service) readAccount(ctx context.Context, network ledger.Network, account string) (acc ledger.AccountState, signers *ledger.SignerSet, err error) {
	acc, signers, err = s.accounts.Read(ctx, network, account)
	if err != nil {
		if ctx.Err() != nil {
			return acc, nil, ctx.Err()
		}
		return acc, nil, errcode.New(errcode.AccountUnreachable, "the account could not be read from the account API")
	}
	return acc, signers, nil
}

// preflight is CONTRACT section 14's run at publish, once guard 7 has
// passed: the account's offers and the accounts the close pays or merges
// into, and with a flow (fwd not nil) the account its forward pays (CONTRACT
// section 18), bounded by the account API's timeout. A failed read is an
// unchecked run, never a failed publish.
func (s *Service) preflight(ctx context.Context, network ledger.Network, acc ledger.AccountState, env xdr.TransactionEnvelope, fwd *ledger.FlowForward, now time.Time) ledger.PreflightRun {
	run := s.accounts.PreflightWith(ctx, network, acc, env, fwd, now)
	s.metrics.Preflight(string(run.State), blockerCodes(run.Blockers))
	return run
}

func blockerCodes(bs []ledger.Blocker) []string {
	codes := make([]string, len(bs))
	for i, b := range bs {
		codes[i] = b.Code
	}
	return codes
}

// republish merges a published envelope into an existing plan (guard 4):
// a merge the checks refuse is REJECTED, with the check's reason. The
// merge sets submit when asked (a re-publish may set it, never unset it)
// and the flow: a re-publish may give a plan without one a flow, never
// change it (BAD_FLOW, and nothing is merged). The plan takes the three in
// one step (actor.Plan.Republish), so a flow another publish set meanwhile,
// here or on another instance, is seen before anything is merged.
func (s *Service) republish(ctx context.Context, plan *actor.Plan, x string, submit bool, flow *plan.Flow) (string, error) {
	if flow != nil {
		if kept := plan.Forward().Flow; kept != nil && !kept.Same(*flow) {
			return "", errFlowChanged
		}
	}
	admitted, err := plan.Canonical().CheckPartial(ctx, s.sweeps, x, plan.Known)
	if err == nil {
		err = plan.Republish(ctx, admitted, submit, flow)
		if errors.Is(err, actor.ErrFlowConflict) {
			return "", errFlowChanged
		}
		err = s.failure(err)
	}
	if err != nil {
		var ce *errcode.Error
		if errors.As(err, &ce) && ce.Code != errcode.NotFound && ce.Code != errcode.Unavailable {
			return "", errcode.New(errcode.Rejected, ce.Reason)
		}
		return "", err
	}
	return plan.ID(), nil
}

var errFlowChanged = errcode.New(errcode.BadFlow, "the plan keeps another flow (nonce, destination or memo); a flow is never changed")
