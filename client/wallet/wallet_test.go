package wallet_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/mediator"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

func accountOf(a ledgertest.Account) wallet.Account {
	out := wallet.Account{ID: a.Address, Sequence: 1 << 32, HighThreshold: int(a.Thresholds.HighThreshold)}
	for _, s := range a.Signers {
		out.Signers = append(out.Signers, wallet.Signer{Key: s.Key, Weight: int(s.Weight), Type: s.Type})
	}
	return out
}

func TestWeigh(t *testing.T) {
	a := ledgertest.NewAccount(2, 1) // Keys: two signers then the master; high threshold 3
	acct := accountOf(a)
	dest := keypair.MustRandom().Address()
	unsigned, hash := ledgertest.BuildClose(a.Master, dest, 2, 0, passphrase)
	stranger := keypair.MustRandom()

	tests := []struct {
		name       string
		xdr        string
		weight     int
		unverified int
		signers    []string
	}{
		{"none", unsigned, 0, 0, nil},
		{"one", ledgertest.SignXDR(unsigned, passphrase, a.Keys[0]), 1, 0, []string{a.Keys[0].Address()}},
		{"all three", ledgertest.SignXDR(unsigned, passphrase, a.Keys[2], a.Keys[0], a.Keys[1]), 3, 0,
			[]string{a.Keys[2].Address(), a.Keys[0].Address(), a.Keys[1].Address()}},
		{"stranger adds nothing", ledgertest.SignXDR(unsigned, passphrase, a.Keys[0], stranger), 1, 1, []string{a.Keys[0].Address()}},
		{"duplicate counted once", ledgertest.SignXDR(unsigned, passphrase, a.Keys[0], a.Keys[0]), 1, 1, []string{a.Keys[0].Address()}},
		// A valid signature under another signer's hint is still found (pass
		// two), and counts for its real signer only.
		{"forged hint", ledgertest.AppendSignatures(unsigned, ledgertest.ForgedSignature(hash, a.Keys[1], a.Keys[0].Hint())), 1, 0, []string{a.Keys[1].Address()}},
		// A stranger's signature under a signer's hint counts for nobody.
		{"stranger with signer hint", ledgertest.AppendSignatures(unsigned, ledgertest.ForgedSignature(hash, stranger, a.Keys[0].Hint())), 0, 1, nil},
		{"replayed under many hints", ledgertest.AppendSignatures(unsigned,
			ledgertest.ForgedSignature(hash, a.Keys[0], [4]byte{1}), ledgertest.ForgedSignature(hash, a.Keys[0], [4]byte{2})), 1, 1, []string{a.Keys[0].Address()}},
		{"other network", ledgertest.SignXDR(unsigned, network.PublicNetworkPassphrase, a.Keys[0], a.Keys[1]), 0, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := wallet.Weigh(tt.xdr, "testnet", acct)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, s := range p.Signers {
				keys = append(keys, s.Key)
			}
			if p.Weight != tt.weight || p.Unverified != tt.unverified || !reflect.DeepEqual(keys, tt.signers) || p.Needed != 3 || p.Account != a.Address {
				t.Fatalf("Weigh = %+v, want weight %d unverified %d signers %v", p, tt.weight, tt.unverified, tt.signers)
			}
			if p.Met() != (tt.weight >= 3) || p.String() != "weight "+string(rune('0'+tt.weight))+"/3" {
				t.Fatalf("Met %v String %q", p.Met(), p.String())
			}
		})
	}
}

func TestWeighRules(t *testing.T) {
	a := ledgertest.NewAccount(1, 2)
	acct := accountOf(a)
	x, _ := ledgertest.BuildClose(a.Master, keypair.MustRandom().Address(), 2, 0, passphrase, a.Keys[0], a.Keys[1])
	// Weight 0 signers and non-ed25519 signers never count.
	acct.Signers[0].Weight = 0
	acct.Signers = append(acct.Signers, wallet.Signer{Key: a.Keys[0].Address(), Weight: 5, Type: "sha256_hash"})
	acct.HighThreshold = 0
	p, err := wallet.Weigh(x, "testnet", acct)
	if err != nil || p.Weight != 2 || p.Needed != 1 || !p.Met() {
		t.Fatalf("Weigh = %+v, %v", p, err)
	}
	if _, err := wallet.Weigh(x, "pubnet", acct); err == nil {
		t.Fatal("unknown network accepted")
	}
	if _, err := wallet.Weigh("garbage", "testnet", acct); err == nil {
		t.Fatal("garbage accepted")
	}
	fb := ledgertest.FeeBump(x, keypair.MustRandom(), passphrase)
	if _, err := wallet.Weigh(fb, "testnet", acct); err == nil {
		t.Fatal("fee-bump accepted")
	}
}

func TestCheckThresholdReadsAccountAPI(t *testing.T) {
	h := ledgertest.New()
	defer h.Close()
	a := ledgertest.NewAccount(2, 1)
	h.AddAccount(a)
	x, _ := ledgertest.BuildClose(a.Master, keypair.MustRandom().Address(), 2, 0, passphrase, a.Keys[0], a.Keys[1])
	api := wallet.NewHorizon(h.URL, nil)
	p, err := wallet.CheckThreshold(context.Background(), api, x, "testnet")
	if err != nil || p.String() != "weight 2/3" || p.Met() {
		t.Fatalf("CheckThreshold = %v, %v", p, err)
	}
	acct, err := api.Account(context.Background(), a.Address)
	if err != nil || acct.Sequence != 1<<32 || len(acct.Signers) != 3 || acct.HighThreshold != 3 {
		t.Fatalf("Account = %+v, %v", acct, err)
	}
	other, _ := ledgertest.BuildClose(keypair.MustRandom(), a.Address, 2, 0, passphrase)
	if _, err := wallet.CheckThreshold(context.Background(), api, other, "testnet"); !errors.Is(err, wallet.ErrAccountNotFound) {
		t.Fatalf("unknown account: %v", err)
	}
	h.SetStalled(true)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := api.Account(ctx, a.Address); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("stalled: %v", err)
	}
}

func TestCloseAccount(t *testing.T) {
	a := ledgertest.NewAccount(0, 1)
	feePayer := keypair.MustRandom()
	x, _ := ledgertest.BuildTx(feePayer.Address(), 2, 0, passphrase, []txnbuild.Operation{
		&txnbuild.AccountMerge{Destination: feePayer.Address(), SourceAccount: a.Address},
	})
	if got, err := wallet.CloseAccount(x); err != nil || got != a.Address {
		t.Fatalf("CloseAccount = %s, %v; want the merge's own source", got, err)
	}
	pay, _ := ledgertest.BuildPayment(a.Master, feePayer.Address(), 2, passphrase)
	if _, err := wallet.CloseAccount(pay); err == nil {
		t.Fatal("a payment has no account to close")
	}
}

func TestSignPartial(t *testing.T) {
	a := ledgertest.NewAccount(2, 1)
	x, _ := ledgertest.BuildClose(a.Master, keypair.MustRandom().Address(), 2, 0, passphrase, a.Keys[0])
	partial, err := wallet.SignPartial(x, "testnet", a.Keys[1])
	if err != nil {
		t.Fatal(err)
	}
	p, err := wallet.Weigh(partial, "testnet", accountOf(a))
	if err != nil || len(p.Signers) != 1 || p.Signers[0].Key != a.Keys[1].Address() || p.Unverified != 0 {
		t.Fatalf("partial carries %+v, %v; want only the new signature", p, err)
	}
	if _, err := wallet.SignPartial(x, "public", a.Keys[1]); err == nil {
		t.Fatal("unknown network accepted")
	}
}

// service is the relay's own mediator, in process: what the builders must
// satisfy.
func service(t *testing.T) *mediator.Service {
	t.Helper()
	return mediator.New(mediator.Options{Secret: keypair.MustRandom().Seed()})
}

func mint(t *testing.T, s *mediator.Service, dest string) wallet.MediatorFlow {
	t.Helper()
	token, pub, err := s.Mint(dest)
	if err != nil {
		t.Fatal(err)
	}
	flow, err := wallet.NewMediatorFlow(client.Flow{FlowToken: token, MediatorPublicKey: pub}, dest)
	if err != nil {
		t.Fatal(err)
	}
	return flow
}

func TestFlowTokens(t *testing.T) {
	s := service(t)
	dest := keypair.MustRandom().Address()
	token, pub, err := s.Mint(dest)
	if err != nil {
		t.Fatal(err)
	}
	got, err := wallet.ParseFlowToken(token)
	if err != nil || got.Destination != dest || !got.Memo.IsZero() || time.Until(got.Expiry) < 14*time.Minute || time.Until(got.Expiry) > 15*time.Minute {
		t.Fatalf("ParseFlowToken = %+v, %v", got, err)
	}
	if _, err := wallet.NewMediatorFlow(client.Flow{FlowToken: token, MediatorPublicKey: pub}, keypair.MustRandom().Address()); err == nil {
		t.Fatal("a token for another destination was accepted")
	}
	if _, err := wallet.NewMediatorFlow(client.Flow{FlowToken: token}, dest); err == nil {
		t.Fatal("a flow without the mediator key was accepted")
	}
	for _, bad := range []string{"", "a.b.c", "A" + token[1:], strings.Replace(token, ".", ".x", 1), token + "00"} {
		if _, err := wallet.ParseFlowToken(bad); err == nil {
			t.Errorf("ParseFlowToken(%q) succeeded", bad)
		}
	}
}

func TestBuildCloseMediatorPlan(t *testing.T) {
	a := ledgertest.NewAccount(2, 1)
	dest := keypair.MustRandom().Address()
	flow := mint(t, service(t), dest)
	now := time.Unix(1_800_000_000, 0)
	batches, err := wallet.BuildClose(wallet.CloseParams{
		Account: a.Address, Sequence: 1 << 32, Destination: dest, Flow: &flow,
		Prelude: []txnbuild.Operation{&txnbuild.ManageData{Name: "k"}},
		Now:     func() time.Time { return now },
	})
	if err != nil || len(batches) != 1 {
		t.Fatalf("BuildClose = %d batches, %v", len(batches), err)
	}
	tx := batches[0]
	ops := tx.Operations()
	create, ok := ops[0].(*txnbuild.CreateAccount)
	if !ok || create.Destination != flow.MediatorPublicKey || create.Amount != wallet.MediatorFunding {
		t.Fatalf("op0 = %#v, want create_account of the mediator with 2", ops[0])
	}
	merge, ok := ops[len(ops)-1].(*txnbuild.AccountMerge)
	if !ok || merge.Destination != flow.MediatorPublicKey {
		t.Fatalf("last op = %#v, want a merge into the mediator", ops[len(ops)-1])
	}
	if tx.SequenceNumber() != 1<<32+1 || tx.Timebounds().MaxTime != now.Add(72*time.Hour).Unix() {
		t.Fatalf("seq %d maxTime %d", tx.SequenceNumber(), tx.Timebounds().MaxTime)
	}
	// The relay takes it as an account close of a.
	c, err := ledger.ParseClose(signedXDR(t, tx, a.Keys[0]), ledger.Testnet)
	if err != nil || c.Account != a.Address {
		t.Fatalf("ParseClose = %+v, %v", c, err)
	}
}

func TestBuildCloseRules(t *testing.T) {
	a := ledgertest.NewAccount(0, 1)
	dest := keypair.MustRandom().Address()
	flow := mint(t, service(t), dest)
	base := wallet.CloseParams{Account: a.Address, Sequence: 10, Destination: dest}

	// Without a flow: a plain merge into the destination.
	b, err := wallet.BuildClose(base)
	if err != nil || len(b) != 1 || len(b[0].Operations()) != 1 || b[0].Operations()[0].(*txnbuild.AccountMerge).Destination != dest {
		t.Fatalf("plain close: %v", err)
	}
	// A direct close with a memo carries it on its transaction.
	p := base
	p.Memo = txnbuild.MemoID(42)
	b, err = wallet.BuildClose(p)
	if err != nil || len(b) != 1 || b[0].Memo() != txnbuild.MemoID(42) {
		t.Fatalf("close with a memo: %v", err)
	}
	// Batches of at most 100 operations, consecutive sequence numbers, the
	// mediator's creation first and the merge last.
	p = base
	p.Flow = &flow
	for range 150 {
		p.Prelude = append(p.Prelude, &txnbuild.BumpSequence{BumpTo: 0})
	}
	b, err = wallet.BuildClose(p)
	if err != nil || len(b) != 2 || len(b[0].Operations()) != 100 || len(b[1].Operations()) != 52 {
		t.Fatalf("batches: %d, %v", len(b), err)
	}
	if b[0].SequenceNumber() != 11 || b[1].SequenceNumber() != 12 {
		t.Fatalf("sequences %d %d", b[0].SequenceNumber(), b[1].SequenceNumber())
	}
	if _, ok := b[0].Operations()[0].(*txnbuild.CreateAccount); !ok {
		t.Fatal("the first batch does not start with create_account")
	}

	bad := map[string]func(*wallet.CloseParams){
		"flow without token":    func(p *wallet.CloseParams) { f := flow; f.Token = ""; p.Flow = &f },
		"flow without key":      func(p *wallet.CloseParams) { f := flow; f.MediatorPublicKey = ""; p.Flow = &f },
		"flow for another dest": func(p *wallet.CloseParams) { p.Flow = &flow; p.Destination = keypair.MustRandom().Address() },
		"foreign prelude source": func(p *wallet.CloseParams) {
			p.Prelude = []txnbuild.Operation{&txnbuild.BumpSequence{SourceAccount: dest}}
		},
		"prelude merge": func(p *wallet.CloseParams) {
			p.Prelude = []txnbuild.Operation{&txnbuild.AccountMerge{Destination: dest}}
		},
		"flow with a memo":  func(p *wallet.CloseParams) { p.Flow = &flow; p.Memo = txnbuild.MemoID(1) },
		"bad account":       func(p *wallet.CloseParams) { p.Account = "G" },
		"merge into itself": func(p *wallet.CloseParams) { p.Destination = p.Account },
	}
	for name, mutate := range bad {
		p := base
		mutate(&p)
		if _, err := wallet.BuildClose(p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestBuildForwardIsAccepted(t *testing.T) {
	s := service(t)
	dest := keypair.MustRandom().Address()
	flow := mint(t, s, dest)
	for _, memo := range []txnbuild.Memo{txnbuild.MemoText("exchange 123"), txnbuild.MemoID(987654321), txnbuild.MemoHash{1, 2, 3}, txnbuild.MemoReturn{31: 0xee}} {
		tx, x := buildForward(t, wallet.ForwardParams{
			Mediator: flow.MediatorPublicKey, Sequence: 1 << 32, Destination: dest, Amount: "25.5", Memo: memo,
		})
		if err := mediator.ValidateForward(x, flow.MediatorPublicKey, dest, time.Now()); err != nil {
			t.Fatalf("ValidateForward: %v", err)
		}
		signed, hash, err := s.Cosign(x, flow.Token, "testnet")
		if err != nil {
			t.Fatalf("Cosign: %v", err)
		}
		if err := wallet.VerifyCosigned(x, signed, hash, "testnet", flow.MediatorPublicKey); err != nil {
			t.Fatalf("VerifyCosigned: %v", err)
		}
		if tb := tx.Timebounds(); tb.MaxTime <= time.Now().Unix() || tb.MaxTime > time.Now().Add(301*time.Second).Unix() {
			t.Fatalf("maxTime %d is not about now+300s", tb.MaxTime)
		}
		back, _, err := wallet.ForwardOf(x)
		if err != nil || back.Mediator != flow.MediatorPublicKey || back.Destination != dest || back.Amount != "25.5000000" || back.Memo != memo || back.Sequence != 1<<32 {
			t.Fatalf("ForwardOf = %+v, %v", back, err)
		}
	}
}

func TestBuildForwardRules(t *testing.T) {
	m, d := keypair.MustRandom().Address(), keypair.MustRandom().Address()
	ok := wallet.ForwardParams{Mediator: m, Sequence: 1, Destination: d, Amount: "1", Memo: txnbuild.MemoID(1)}
	if _, err := wallet.BuildForward(ok); err != nil {
		t.Fatal(err)
	}
	bad := map[string]func(*wallet.ForwardParams){
		"no memo":          func(p *wallet.ForwardParams) { p.Memo = nil },
		"too long a bound": func(p *wallet.ForwardParams) { p.Timeout = 3601 * time.Second },
		"to the mediator":  func(p *wallet.ForwardParams) { p.Destination = m },
		"bad mediator":     func(p *wallet.ForwardParams) { p.Mediator = "x" },
		"bad amount":       func(p *wallet.ForwardParams) { p.Amount = "lots" },
	}
	for name, mutate := range bad {
		p := ok
		mutate(&p)
		if _, err := wallet.BuildForward(p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	p := ok
	p.Timeout = wallet.MaxForwardTimeout
	if _, err := wallet.BuildForward(p); err != nil {
		t.Fatalf("an hour is allowed: %v", err)
	}
}

func TestVerifyCosignedRefusesForgeries(t *testing.T) {
	s := service(t)
	dest := keypair.MustRandom().Address()
	flow := mint(t, s, dest)
	tx, x := buildForward(t, wallet.ForwardParams{Mediator: flow.MediatorPublicKey, Sequence: 1, Destination: dest, Amount: "1", Memo: txnbuild.MemoID(1)})
	signed, hash, err := s.Cosign(x, flow.Token, "testnet")
	if err != nil {
		t.Fatal(err)
	}
	other, _ := buildForward(t, wallet.ForwardParams{Mediator: flow.MediatorPublicKey, Sequence: 2, Destination: dest, Amount: "1", Memo: txnbuild.MemoID(1)})
	ox := signedXDR(t, other, keypair.MustRandom())
	ix := signedXDR(t, tx, keypair.MustRandom())

	cases := map[string][4]string{ // sent, signed, hash, network
		"unsigned":          {x, x, "", "testnet"},
		"another tx":        {x, ox, "", "testnet"},
		"another signer":    {x, ix, "", "testnet"},
		"wrong hash":        {x, signed, strings.Repeat("0", 64), "testnet"},
		"another network":   {x, signed, "", "mainnet"},
		"garbage":           {x, "AAAA", "", "testnet"},
		"fee-bump answered": {x, ledgertest.FeeBump(signed, keypair.MustRandom(), passphrase), "", "testnet"},
	}
	for name, c := range cases {
		if err := wallet.VerifyCosigned(c[0], c[1], c[2], c[3], flow.MediatorPublicKey); !errors.Is(err, wallet.ErrNotCosigned) {
			t.Errorf("%s: %v, want ErrNotCosigned", name, err)
		}
	}
	if err := wallet.VerifyCosigned(x, signed, strings.ToUpper(hash), "testnet", flow.MediatorPublicKey); err != nil {
		t.Fatalf("upper-case hash: %v", err)
	}
}

func TestRecordRoundTrip(t *testing.T) {
	s := service(t)
	dest := keypair.MustRandom().Address()
	flow := mint(t, s, dest)
	_, x := buildForward(t, wallet.ForwardParams{Mediator: flow.MediatorPublicKey, Sequence: 1 << 32, Destination: dest, Amount: "3", Memo: txnbuild.MemoText("memo 1")})
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	rec, err := wallet.NewRecord("testnet", flow, x, now)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Memo != (wallet.Memo{Type: "text", Value: "memo 1"}) || rec.Destination != dest || rec.MediatorPublicKey != flow.MediatorPublicKey || rec.Envelope != x {
		t.Fatalf("record = %+v", rec)
	}
	rec.LastError = "connection refused"
	path := filepath.Join(t.TempDir(), "forward.json")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("record file mode %v, %v; want 0600", fi.Mode(), err)
	}
	back, err := wallet.LoadRecord(path)
	if err != nil || !reflect.DeepEqual(back, rec) {
		t.Fatalf("LoadRecord = %+v, %v\nwant %+v", back, err, rec)
	}
	// Saving again replaces the file whole.
	rec.LastError = ""
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	if back, err = wallet.LoadRecord(path); err != nil || back.LastError != "" {
		t.Fatalf("second save did not replace the record: %+v, %v", back, err)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil || len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v, %v", entries, err)
	}

	// A record whose parts disagree is refused on load.
	tampered := rec
	tampered.Destination = keypair.MustRandom().Address()
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := tampered.Save(bad); err != nil {
		t.Fatal(err)
	}
	if _, err := wallet.LoadRecord(bad); err == nil {
		t.Fatal("a record with another destination loaded")
	}
	tampered = rec
	tampered.Memo.Value = "memo 2"
	if err := tampered.Save(bad); err != nil {
		t.Fatal(err)
	}
	if _, err := wallet.LoadRecord(bad); err == nil {
		t.Fatal("a record with another memo loaded")
	}
	if _, err := wallet.LoadRecord(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("a missing record loaded")
	}
}

func TestMemoConversions(t *testing.T) {
	for _, m := range []txnbuild.Memo{txnbuild.MemoText("abc"), txnbuild.MemoID(18446744073709551615), txnbuild.MemoHash{0xab, 31: 1}, txnbuild.MemoReturn{7}} {
		r, err := wallet.MemoOf(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := r.Txn()
		if err != nil || back != m {
			t.Fatalf("%v -> %v -> %v, %v", m, r, back, err)
		}
	}
	for _, bad := range []wallet.Memo{{Type: "id", Value: "-1"}, {Type: "text", Value: strings.Repeat("x", 29)}, {Type: "hash", Value: ""},
		{Type: "id", Value: "007"}, {Type: "return", Value: strings.Repeat("AB", 32)}, {Type: "memo", Value: "x"}} {
		if _, err := bad.Txn(); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if _, err := wallet.MemoOf(nil); err == nil {
		t.Error("no memo accepted")
	}
}
