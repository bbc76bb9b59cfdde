package relay

import (
	"encoding/json"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/plan"
)

// FlowVerifier verifies a publish's flow token (mediator.Service.VerifyFlow):
// the flow it commits to and its mediator's address, or
// MEDIATOR_NOT_CONFIGURED, or INVALID_FLOW_TOKEN.
type FlowVerifier func(flowToken string) (flow *mediator.Flow, mediatorAddress string, err error)

// checkFlow is publish's check of its optional "flowToken" (CONTRACT
// section 16), run right after SUBMIT_UNSUPPORTED: nil without one;
// otherwise the flow the plan is to keep, or the first failure, in this
// order, each 400 BAD_FLOW with a reason unless said otherwise:
//
//  1. the field is a non-empty string;
//  2. the publish has "submit": true (only a plan the relay submits has a
//     forward for the relay to run);
//  3. a master is configured (500 MEDIATOR_NOT_CONFIGURED otherwise);
//  4. the token verifies (SPEC's seven checks: it is fresh now);
//  5. it commits a memo (a five-part token, CONTRACT section 13);
//  6. the close's first operation is create_account of the flow's
//     mediator with 2 units of the native asset, and
//  7. every merge of the close merges into that mediator.
//
// raw is the body's "flowToken" as given, nil when the body has none.
func checkFlow(raw json.RawMessage, submit bool, close *ledger.Close, verify FlowVerifier) (*plan.Flow, error) {
	if raw == nil {
		return nil, nil
	}
	if verify == nil {
		verify = unconfigured
	}
	var token string
	if err := json.Unmarshal(raw, &token); err != nil || token == "" {
		return nil, errcode.New(errcode.BadFlow, "flowToken must be a non-empty string")
	}
	if !submit {
		return nil, errcode.New(errcode.BadFlow, `flowToken needs "submit": true: the relay runs the forward of a close it submits`)
	}
	flow, mediatorAddress, err := verify(token)
	switch code := errcode.CodeOf(err); {
	case err == nil:
	case code == errcode.MediatorNotConfigured:
		return nil, err
	case code == errcode.InvalidFlowToken:
		return nil, errcode.New(errcode.BadFlow, "the flow token is invalid or has expired; mint a new flow")
	default:
		return nil, err // internal
	}
	if flow.Memo.IsZero() {
		return nil, errcode.New(errcode.BadFlow, "the flow token commits no memo; mint the flow with memo=<type>:<value>")
	}
	if reason := ledger.CheckMediatorClose(close.Envelope, mediatorAddress); reason != "" {
		return nil, errcode.New(errcode.BadFlow, reason)
	}
	return &plan.Flow{Nonce: flow.Nonce, Destination: flow.Destination, Memo: flow.Memo.String(), Token: token}, nil
}

// unconfigured is the FlowVerifier of a relay without a master.
func unconfigured(string) (*mediator.Flow, string, error) {
	return nil, "", errcode.New(errcode.MediatorNotConfigured, "no mediator master is configured")
}
