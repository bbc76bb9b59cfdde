package actor

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
)

// TestCheckRecordShapes: the fields of a record the envelope cannot check
// are refused out of shape (ErrStoredFields), and accepted in every shape
// the relay writes them.
func TestCheckRecordShapes(t *testing.T) {
	flow := func(mod func(f *planstore.ForwardRecord)) func(r *planstore.Record) {
		return func(r *planstore.Record) {
			f := &planstore.ForwardRecord{Seq: 1, Nonce: testNonce1, Destination: destination, Memo: "text:a", Token: "t"}
			mod(f)
			r.Forward = f
		}
	}
	blocked := &planstore.PreflightRecord{State: "blocked", Blockers: []planstore.BlockerRecord{{Op: -2, Code: "op_no_destination"}}}
	for name, tc := range map[string]struct {
		mod func(r *planstore.Record)
		ok  bool
	}{
		"a fresh plan": {func(*planstore.Record) {}, true},
		"a submitted plan": {func(r *planstore.Record) {
			r.Submission = planstore.SubmissionRecord{Submit: true, Seq: 3, State: plan.SubmissionSubmitted, Hash: testHash, Ledger: 7}
		}, true},
		"a blocked submission": {func(r *planstore.Record) {
			r.Submission = planstore.SubmissionRecord{Submit: true, Seq: 1, State: plan.SubmissionBlocked, Code: "memo_required", Preflight: blocked}
		}, true},
		"a flow, forwarded": {flow(func(f *planstore.ForwardRecord) {
			f.State, f.Hash, f.Amount = plan.ForwardForwarded, testHash, "47.9999600"
		}), true},
		"a forward without a flow": {func(r *planstore.Record) { r.Forward = &planstore.ForwardRecord{Seq: 1} }, true},

		"an unknown submission state": {func(r *planstore.Record) { r.Submission.State = "landed" }, false},
		"a submission hash not hex":   {func(r *planstore.Record) { r.Submission.Hash = strings.Repeat("Z", 64) }, false},
		"a submission hash too short": {func(r *planstore.Record) { r.Submission.Hash = "ab" }, false},
		"a negative ledger":           {func(r *planstore.Record) { r.Submission.Ledger = -1 }, false},
		"an oversized reason":         {func(r *planstore.Record) { r.Submission.Reason = strings.Repeat("x", maxStoredText+1) }, false},
		"an oversized tried envelope": {func(r *planstore.Record) { r.Submission.Tried = strings.Repeat("A", ledger.MaxXDRLength+1) }, false},
		"a signer's weight above 255": {func(r *planstore.Record) { r.Set = []planstore.Signer{{Address: destination, Weight: 256}} }, false},
		"an unknown preflight state":  {func(r *planstore.Record) { r.Preflight = &planstore.PreflightRecord{State: "fine"} }, false},
		"blocked without a blocker":   {func(r *planstore.Record) { r.Preflight = &planstore.PreflightRecord{State: "blocked"} }, false},
		"landable with a blocker": {func(r *planstore.Record) {
			r.Preflight = &planstore.PreflightRecord{State: "landable", Blockers: blocked.Blockers}
		}, false},
		"a blocker of operation 100": {func(r *planstore.Record) {
			r.Preflight = &planstore.PreflightRecord{State: "blocked", Blockers: []planstore.BlockerRecord{{Op: 100, Code: "x"}}}
		}, false},
		"a flow nonce not 32 hex":     {flow(func(f *planstore.ForwardRecord) { f.Nonce = "n1" }), false},
		"a flow destination not G…":   {flow(func(f *planstore.ForwardRecord) { f.Destination = "GD" }), false},
		"a flow without its token":    {flow(func(f *planstore.ForwardRecord) { f.Token = "" }), false},
		"an unknown forward state":    {flow(func(f *planstore.ForwardRecord) { f.State = "sent" }), false},
		"a forward hash not hex":      {flow(func(f *planstore.ForwardRecord) { f.Hash = "<b>" }), false},
		"an oversized forward amount": {flow(func(f *planstore.ForwardRecord) { f.Amount = strings.Repeat("9", 33) }), false},
	} {
		var r planstore.Record
		tc.mod(&r)
		err := checkRecord(r)
		if tc.ok && err != nil {
			t.Errorf("%s: refused: %v", name, err)
		}
		if !tc.ok && !errors.Is(err, ledger.ErrStoredFields) {
			t.Errorf("%s: %v, want ErrStoredFields", name, err)
		}
	}
}

// TestCheckExpiry: a stored expiry may be the signing window ahead of now
// on a publishing instance whose clock runs up to maxClockSkew ahead, and
// no further.
func TestCheckExpiry(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	if err := checkExpiry(now.Add(ledger.SigningWindow+maxClockSkew), now); err != nil {
		t.Errorf("at the bound: %v", err)
	}
	if err := checkExpiry(now.Add(ledger.SigningWindow+maxClockSkew+time.Second), now); !errors.Is(err, ledger.ErrStoredFields) {
		t.Errorf("past the bound: %v, want ErrStoredFields", err)
	}
}
