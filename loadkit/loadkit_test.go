package loadkit_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/loadkit"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
)

func TestBuildPlan(t *testing.T) {
	acct := ledgertest.NewAccount(3, 1)
	pass := network.TestNetworkPassphrase
	signed, _ := ledgertest.BuildClose(acct.Master, keypair.MustRandom().Address(), 2, 0, pass, acct.Master)
	c, err := ledger.ParseClose(signed, ledger.Testnet)
	if err != nil {
		t.Fatal(err)
	}
	publisher := len(acct.Keys) - 1
	set := ledger.NewSignerSet(signersOf(acct))
	gate := ledger.NewSweepGate(ledger.DefaultSweepSlots())
	published, _, err := ledger.AdmitPlan(t.Context(), gate, c, set, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	canon := published.Canonical()
	plans, err := loadkit.BuildPlans([]loadkit.PlanInput{{ID: "p", Envelope: c.Envelope, Passphrase: pass, Keys: acct.Keys, Publisher: publisher}},
		loadkit.Counts{Fresh: 3, Strangers: 2, Expensive: 2})
	if err != nil {
		t.Fatal(err)
	}
	p := plans[0]
	if len(p.Signers) != 4 || len(p.Valid) != 3 || len(p.Forged) != 3 || len(p.Fresh) != 3 || len(p.Strangers) != 2 || len(p.Expensive) != 2 {
		t.Fatalf("counts: %d signers, %d valid, %d forged, %d fresh, %d strangers, %d expensive",
			len(p.Signers), len(p.Valid), len(p.Forged), len(p.Fresh), len(p.Strangers), len(p.Expensive))
	}
	wantSigner := func(kind string, partials []string, want func(i int) int) {
		t.Helper()
		for i, x := range partials {
			got, err := canon.CheckPartial(t.Context(), gate, x, nil)
			if err != nil || len(got) != 1 || got[0].Signer != want(i) {
				t.Errorf("%s %d: %v, %v; want signer %d", kind, i, got, err, want(i))
			}
		}
	}
	wantSigner("valid", p.Valid, func(i int) int { return i })
	wantSigner("forged", p.Forged, func(i int) int { return i })
	wantSigner("fresh", p.Fresh, func(int) int { return publisher })
	for kind, partials := range map[string][]string{"stranger": p.Strangers, "expensive": p.Expensive} {
		for i, x := range partials {
			if _, err := canon.CheckPartial(t.Context(), gate, x, nil); ledger.CodeOf(err) != ledger.CodeRejected {
				t.Errorf("%s %d: %v, want REJECTED", kind, i, err)
			}
		}
	}

	path := filepath.Join(t.TempDir(), "payload.json")
	if err := loadkit.Write(path, &loadkit.Payload{Relay: "http://127.0.0.1:1", Network: "testnet", Plans: plans}); err != nil {
		t.Fatal(err)
	}
	back, err := loadkit.Read(path)
	if err != nil || len(back.Plans) != 1 || back.Plans[0].Fresh[2] != p.Fresh[2] {
		t.Fatalf("read back: %v", err)
	}
}

func signersOf(a ledgertest.Account) []ledger.Signer {
	out := make([]ledger.Signer, len(a.Keys))
	for i, kp := range a.Keys {
		out[i] = ledger.Signer{Address: kp.Address(), Weight: 1}
	}
	return out
}
