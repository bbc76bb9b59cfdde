package mediator_test

import (
	"crypto/rand"
	"testing"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/mediator"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The relay's own forward (CONTRACT section 16) goes through Cosign's
// validation, the memo commitment included, but not through the token's
// expiry: a plan keeps its flow past it. VerifyFlow is publish's check of
// the token: fresh now, with the flow's mediator.
func TestSignForwardAndVerifyFlow(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	clock := now
	svc := mediator.New(mediator.Options{Secret: mt.Secret, Now: func() time.Time { return clock }})
	m, _ := mediator.ParseMaster(mt.Secret)
	memo, _ := mediator.ParseMemo("id:42")
	token, med, err := m.MintMemo(rand.Reader, mt.Dest, memo, now)
	if err != nil {
		t.Fatal(err)
	}
	flow, addr, err := svc.VerifyFlow(token)
	if err != nil || addr != med || flow.Destination != mt.Dest || flow.Memo.String() != "id:42" {
		t.Fatalf("VerifyFlow: %+v %s %v", flow, addr, err)
	}
	if got, err := svc.FlowAddress(flow.Nonce); err != nil || got != med {
		t.Errorf("FlowAddress = %s %v, want %s", got, err, med)
	}

	clock = now.Add(time.Hour) // the token has expired
	if _, _, err := svc.VerifyFlow(token); errcode.CodeOf(err) != errcode.InvalidFlowToken {
		t.Errorf("VerifyFlow of an expired token: %v", err)
	}
	build := func(dest string, memo xdr.Memo) string {
		f := mt.NewForward(med, dest, uint64(clock.Add(5*time.Minute).Unix()))
		f.Memo = &memo
		return f.B64()
	}
	if _, _, err := svc.SignForward(build(mt.Dest, xdr.MemoID(42)), token, ledger.Testnet); err != nil {
		t.Errorf("SignForward after the token expired: %v", err)
	}
	for name, tc := range map[string]struct {
		x    string
		code errcode.Code
	}{
		"another destination": {build(mt.OtherDest, xdr.MemoID(42)), errcode.DestinationNotCommitted},
		"another memo":        {build(mt.Dest, xdr.MemoID(43)), errcode.MemoNotCommitted},
		"no memo":             {build(mt.Dest, xdr.Memo{Type: xdr.MemoTypeMemoNone}), errcode.MemoNotCommitted},
	} {
		if _, _, err := svc.SignForward(tc.x, token, ledger.Testnet); errcode.CodeOf(err) != tc.code {
			t.Errorf("%s: %v, want %s", name, err, tc.code)
		}
	}
	// The token's MAC still decides: a forged one signs nothing.
	forged := token[:len(token)-1] + map[bool]string{true: "1", false: "0"}[token[len(token)-1] == '0']
	if _, _, err := svc.SignForward(build(mt.Dest, xdr.MemoID(42)), forged, ledger.Testnet); errcode.CodeOf(err) != errcode.InvalidFlowToken {
		t.Errorf("SignForward under a forged token: %v, want INVALID_FLOW_TOKEN", err)
	}
	if _, _, err := mediator.New(mediator.Options{}).VerifyFlow(token); errcode.CodeOf(err) != errcode.MediatorNotConfigured {
		t.Errorf("VerifyFlow without a master: %v", err)
	}
}
