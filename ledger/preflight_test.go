package ledger_test

import (
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The preflight's rules, one case per result code (CONTRACT section 14),
// on a close built with the SDK as a wallet builds it.

const xlm = 10_000_000

// latest is the ledger the preflight's states were read at: ledger 1000,
// closed at a fixed time.
var latest = ledger.LatestLedger{Sequence: 1000, CloseTime: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}

type world struct {
	closing, dest, issuer, other string
	state                        ledger.LedgerState
}

var usd, eur txnbuild.CreditAsset

// newWorld is a closing account with 100 XLM, signers none but its master,
// a destination with 10 XLM, and an issuer of USD and EUR.
func newWorld(t testing.TB) *world {
	t.Helper()
	w := &world{
		closing: keypair.MustRandom().Address(),
		dest:    keypair.MustRandom().Address(),
		issuer:  keypair.MustRandom().Address(),
		other:   keypair.MustRandom().Address(),
	}
	usd = txnbuild.CreditAsset{Code: "USD", Issuer: w.issuer}
	eur = txnbuild.CreditAsset{Code: "EURC", Issuer: w.issuer}
	w.state = ledger.LedgerState{Latest: latest, Accounts: map[string]*ledger.AccountState{
		w.closing: {Sequence: 100, Balance: 100 * xlm, OffersComplete: true},
		w.dest:    {Sequence: 5, Balance: 10 * xlm, OffersComplete: true},
		w.issuer:  {Sequence: 7, Balance: 10 * xlm, OffersComplete: true},
		w.other:   nil, // read, and it does not exist
	}}
	return w
}

func (w *world) acc() *ledger.AccountState { return w.state.Accounts[w.closing] }

func xdrAsset(t testing.TB, a txnbuild.Asset) xdr.Asset {
	t.Helper()
	x, err := a.ToXDR()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// holdUSD gives the closing account a USD trustline with balance (stroops).
func (w *world) hold(t *testing.T, a txnbuild.CreditAsset, balance int64) {
	w.acc().Trustlines = append(w.acc().Trustlines, ledger.Trustline{
		Asset: xdrAsset(t, a), Balance: balance, Limit: 1_000_000 * xlm, Flags: xdr.TrustLineFlagsAuthorizedFlag,
	})
	w.acc().NumSubEntries++
}

func (w *world) close(t testing.TB, memo txnbuild.Memo, ops ...txnbuild.Operation) xdr.TransactionEnvelope {
	t.Helper()
	return w.closeWith(t, 101, 100*int64(max(1, len(ops))), memo, ops...)
}

func (w *world) closeWith(t testing.TB, seq, fee int64, memo txnbuild.Memo, ops ...txnbuild.Operation) xdr.TransactionEnvelope {
	t.Helper()
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: w.closing, Sequence: seq},
		Operations:    ops,
		BaseFee:       fee / int64(max(1, len(ops))),
		Memo:          memo,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
	})
	if err != nil {
		t.Fatal(err)
	}
	env := tx.ToXDR()
	return env
}

func merge(dest string) *txnbuild.AccountMerge { return &txnbuild.AccountMerge{Destination: dest} }

func wantVerdict(t *testing.T, got ledger.Preflight, state ledger.PreflightState, codes ...string) {
	t.Helper()
	if got.State != state {
		t.Fatalf("state %s %+v, want %s %v", got.State, got.Blockers, state, codes)
	}
	if len(got.Blockers) != len(codes) {
		t.Fatalf("blockers %+v, want codes %v", got.Blockers, codes)
	}
	for i, c := range codes {
		if got.Blockers[i].Code != c || got.Blockers[i].Reason == "" {
			t.Fatalf("blocker %d: %+v, want code %s with a reason", i, got.Blockers[i], c)
		}
	}
}

func TestPreflightBareMergeLands(t *testing.T) {
	w := newWorld(t)
	got := ledger.CheckClose(w.close(t, nil, merge(w.dest)), w.state)
	wantVerdict(t, got, ledger.PreflightLandable)
	if l := got.Landable(); l == nil || !*l {
		t.Errorf("Landable() = %v, want true", l)
	}
	if w.state.Accounts[w.closing] == nil || w.acc().Balance != 100*xlm {
		t.Error("the preflight changed the state it was given")
	}
}

func TestPreflightSubEntriesNamed(t *testing.T) {
	w := newWorld(t)
	w.hold(t, usd, 50*xlm)
	w.acc().Offers = []ledger.Offer{{ID: 42, Selling: xdrAsset(t, txnbuild.NativeAsset{}), Buying: xdrAsset(t, usd), Amount: 5 * xlm, Price: xdr.Price{N: 1, D: 1}}}
	w.acc().NativeSelling = 5 * xlm
	w.acc().Trustlines[0].Buying = 5 * xlm
	w.acc().Data = map[string][]byte{"note": []byte("x")}
	w.acc().NumSubEntries += 2
	got := ledger.CheckClose(w.close(t, nil, merge(w.dest)), w.state)
	wantVerdict(t, got, ledger.PreflightBlocked, "op_has_sub_entries")
	r := got.Blockers[0].Reason
	for _, want := range []string{"1 trustline: USD (" + w.issuer + ")", "1 offer: id 42", `1 data entry: "note"`} {
		if !strings.Contains(r, want) {
			t.Errorf("reason %q does not name %q", r, want)
		}
	}
	if got.Blockers[0].Op != 0 {
		t.Errorf("op %d, want 0", got.Blockers[0].Op)
	}

	// The close that cleans up first lands: cancel the offer, pay the USD
	// back to its issuer, remove the trustline and the data entry, merge.
	full := w.close(t, nil,
		&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "0", Price: xdr.Price{N: 1, D: 1}, OfferID: 42},
		&txnbuild.Payment{Destination: w.issuer, Amount: "50", Asset: usd},
		&txnbuild.ChangeTrust{Line: usd.MustToChangeTrustAsset(), Limit: "0"},
		&txnbuild.ManageData{Name: "note"},
		merge(w.dest),
	)
	wantVerdict(t, ledger.CheckClose(full, w.state), ledger.PreflightLandable)
}

func TestPreflightCodes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, w *world)
		ops   func(w *world) []txnbuild.Operation
		memo  txnbuild.Memo
		seq   int64 // 0: the next one
		fee   int64 // 0: the network's
		state ledger.PreflightState
		codes []string
	}{
		{name: "no account", ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{merge(w.other)} },
			state: ledger.PreflightBlocked, codes: []string{"op_no_account"}},
		{name: "immutable", setup: func(t *testing.T, w *world) { w.acc().Flags = ledger.AccountFlags{AuthImmutable: true} },
			ops:   func(w *world) []txnbuild.Operation { return []txnbuild.Operation{merge(w.dest)} },
			state: ledger.PreflightBlocked, codes: []string{"op_immutable_set"}},
		{name: "sponsor", setup: func(t *testing.T, w *world) { w.acc().NumSponsoring = 2 },
			ops:   func(w *world) []txnbuild.Operation { return []txnbuild.Operation{merge(w.dest)} },
			state: ledger.PreflightBlocked, codes: []string{"op_is_sponsor"}},
		{name: "signers are no sub-entries to a merge", setup: func(t *testing.T, w *world) {
			w.acc().Signers = []ledger.AccountSigner{{Type: ledger.SignerEd25519, Key: keypair.MustRandom().Address(), Weight: 1}}
			w.acc().NumSubEntries = 1
		}, ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{merge(w.dest)} }, state: ledger.PreflightLandable},
		{name: "bad seq", seq: 105, ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{merge(w.dest)} },
			state: ledger.PreflightBlocked, codes: []string{"tx_bad_seq"}},
		{name: "insufficient fee", fee: 50, ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{merge(w.dest)} },
			state: ledger.PreflightBlocked, codes: []string{"tx_insufficient_fee"}},
		{name: "insufficient balance", setup: func(t *testing.T, w *world) { w.acc().Balance = 2*ledger.DefaultBaseReserve + 50 },
			ops:   func(w *world) []txnbuild.Operation { return []txnbuild.Operation{merge(w.dest)} },
			state: ledger.PreflightBlocked, codes: []string{"tx_insufficient_balance"}},
		{name: "memo required", setup: func(t *testing.T, w *world) {
			w.state.Accounts[w.dest].Data = map[string][]byte{"config.memo_required": []byte("1")}
		}, ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{merge(w.dest)} },
			state: ledger.PreflightBlocked, codes: []string{"memo_required"}},
		{name: "memo required of the account itself, selling to itself", setup: func(t *testing.T, w *world) {
			w.acc().Data = map[string][]byte{"config.memo_required": []byte("1")}
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.PathPaymentStrictSend{SendAsset: txnbuild.NativeAsset{}, SendAmount: "1", Destination: w.closing, DestAsset: usd, DestMin: "1"}, merge(w.dest)}
		}, state: ledger.PreflightUncertain},
		{name: "memo given", memo: txnbuild.MemoID(7), setup: func(t *testing.T, w *world) {
			w.state.Accounts[w.dest].Data = map[string][]byte{"config.memo_required": []byte("1")}
		}, ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{merge(w.dest)} }, state: ledger.PreflightLandable},
		{name: "memo required, then a failure", setup: func(t *testing.T, w *world) {
			w.state.Accounts[w.dest].Data = map[string][]byte{"config.memo_required": []byte("1")}
			w.hold(t, usd, 0)
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.dest, Amount: "1", Asset: txnbuild.NativeAsset{}}, merge(w.dest), merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"memo_required", "memo_required", "op_has_sub_entries"}},
		{name: "payment underfunded", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.dest, Amount: "99", Asset: txnbuild.NativeAsset{}}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_underfunded"}},
		{name: "payment no destination", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.other, Amount: "1", Asset: txnbuild.NativeAsset{}}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_no_destination"}},
		{name: "payment no trust", setup: func(t *testing.T, w *world) { w.hold(t, usd, 5*xlm) }, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.dest, Amount: "5", Asset: usd}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_no_trust"}},
		{name: "payment src no trust", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.issuer, Amount: "5", Asset: usd}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_src_no_trust"}},
		{name: "payment src not authorized", setup: func(t *testing.T, w *world) {
			w.hold(t, usd, 5*xlm)
			w.acc().Trustlines[0].Flags = xdr.TrustLineFlagsAuthorizedToMaintainLiabilitiesFlag
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.issuer, Amount: "5", Asset: usd}}
		}, state: ledger.PreflightBlocked, codes: []string{"op_src_not_authorized"}},
		{name: "payment over the credit balance", setup: func(t *testing.T, w *world) { w.hold(t, usd, 5*xlm) }, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.issuer, Amount: "6", Asset: usd}}
		}, state: ledger.PreflightBlocked, codes: []string{"op_underfunded"}},
		{name: "payment not authorized at the destination", setup: func(t *testing.T, w *world) {
			w.hold(t, usd, 5*xlm)
			w.state.Accounts[w.dest].Trustlines = []ledger.Trustline{{Asset: xdrAsset(t, usd), Limit: 100 * xlm}}
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.dest, Amount: "5", Asset: usd}}
		}, state: ledger.PreflightBlocked, codes: []string{"op_not_authorized"}},
		{name: "payment line full", setup: func(t *testing.T, w *world) {
			w.hold(t, usd, 5*xlm)
			w.state.Accounts[w.dest].Trustlines = []ledger.Trustline{{Asset: xdrAsset(t, usd), Limit: 4 * xlm, Flags: xdr.TrustLineFlagsAuthorizedFlag}}
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.dest, Amount: "5", Asset: usd}}
		}, state: ledger.PreflightBlocked, codes: []string{"op_line_full"}},
		{name: "payment back to an issuer that is gone", setup: func(t *testing.T, w *world) {
			w.hold(t, usd, 5*xlm)
			w.state.Accounts[w.issuer] = nil
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: w.issuer, Amount: "5", Asset: usd}, &txnbuild.ChangeTrust{Line: usd.MustToChangeTrustAsset(), Limit: "0"}, merge(w.dest)}
		}, state: ledger.PreflightLandable},
		{name: "trustline not empty", setup: func(t *testing.T, w *world) { w.hold(t, usd, 1) }, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: usd.MustToChangeTrustAsset(), Limit: "0"}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_invalid_limit"}},
		{name: "trustline absent", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: eur.MustToChangeTrustAsset(), Limit: "0"}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_invalid_limit"}},
		{name: "offer not found", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "0", Price: xdr.Price{N: 1, D: 1}, OfferID: 9}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_offer_not_found"}},
		{name: "offer not listed", setup: func(t *testing.T, w *world) { w.acc().OffersComplete = false; w.acc().NumSubEntries = 1 }, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "0", Price: xdr.Price{N: 1, D: 1}, OfferID: 9}, merge(w.dest)}
		}, state: ledger.PreflightUncertain},
		{name: "offer malformed", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{merge(w.dest), &txnbuild.ManageSellOffer{Selling: usd, Buying: usd, Amount: "0", Price: xdr.Price{N: 1, D: 1}, OfferID: 9}}
		}, state: ledger.PreflightBlocked, codes: []string{"op_malformed"}},
		{name: "data not found", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageData{Name: "gone"}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_data_name_not_found"}},
		{name: "create account exists", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: w.dest, Amount: "2"}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_already_exists"}},
		{name: "create account low reserve", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: w.other, Amount: "0.5"}, merge(w.other)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_low_reserve"}},
		{name: "create account underfunded", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: w.other, Amount: "99.5"}, merge(w.other)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_underfunded"}},
		{name: "create then merge into it", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: w.other, Amount: "2"}, merge(w.other)}
		}, state: ledger.PreflightLandable},
		{name: "remove a signer, then merge", setup: func(t *testing.T, w *world) {
			w.acc().Signers = []ledger.AccountSigner{{Type: ledger.SignerEd25519, Key: w.dest, Weight: 1}}
			w.acc().NumSubEntries = 1
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: w.dest, Weight: 0}}, merge(w.dest)}
		}, state: ledger.PreflightLandable},
		{name: "flags of an immutable account", setup: func(t *testing.T, w *world) { w.acc().Flags = ledger.AccountFlags{AuthImmutable: true} }, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.SetOptions{ClearFlags: []txnbuild.AccountFlag{txnbuild.AuthImmutable}}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_cant_change"}},
		{name: "unread destination", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{merge(keypair.MustRandom().Address())}
		}, state: ledger.PreflightUncertain},
		{name: "path payment", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.PathPaymentStrictSend{SendAsset: txnbuild.NativeAsset{}, SendAmount: "1", Destination: w.dest, DestAsset: usd, DestMin: "1"}, merge(w.dest)}
		}, state: ledger.PreflightUncertain},
		{name: "a failure before the uncertain operation decides", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageData{Name: "gone"}, &txnbuild.PathPaymentStrictSend{SendAsset: txnbuild.NativeAsset{}, SendAmount: "1", Destination: w.dest, DestAsset: usd, DestMin: "1"}, merge(w.dest)}
		}, state: ledger.PreflightBlocked, codes: []string{"op_data_name_not_found"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			if tc.setup != nil {
				tc.setup(t, w)
			}
			ops := tc.ops(w)
			seq, fee := tc.seq, tc.fee
			if seq == 0 {
				seq = 101
			}
			if fee == 0 {
				fee = 100 * int64(len(ops))
			}
			wantVerdict(t, ledger.CheckClose(w.closeWith(t, seq, fee, tc.memo, ops...), w.state), tc.state, tc.codes...)
		})
	}
}

// FuzzCheckClose: whatever close a wallet publishes and whatever the ledger
// API said of the accounts, the preflight answers without panicking, never
// changes the state it is given, and keeps its shape: blockers exactly when
// blocked, in operation order with the transaction's first, each with a code
// and a reason.
func FuzzCheckClose(f *testing.F) {
	w := newWorld(f)
	seed := func(ops ...txnbuild.Operation) {
		env := w.close(f, nil, ops...)
		raw, err := env.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw, int64(100*xlm), uint32(0), int64(0), uint32(0))
	}
	seed(merge(w.dest))
	seed(&txnbuild.Payment{Destination: w.issuer, Amount: "50", Asset: usd}, &txnbuild.ChangeTrust{Line: usd.MustToChangeTrustAsset(), Limit: "0"}, merge(w.dest))
	seed(&txnbuild.CreateAccount{Destination: w.other, Amount: "2"}, &txnbuild.ManageData{Name: "x"}, merge(w.other))
	f.Fuzz(func(t *testing.T, raw []byte, balance int64, subEntries uint32, usdBalance int64, flags uint32) {
		var env xdr.TransactionEnvelope
		if err := env.UnmarshalBinary(raw); err != nil {
			return
		}
		state := ledger.LedgerState{Latest: latest, Accounts: map[string]*ledger.AccountState{
			w.closing: {Sequence: 100, Balance: balance, NumSubEntries: subEntries, Flags: ledger.AccountFlags{AuthImmutable: flags&4 != 0, AuthRevocable: flags&2 != 0, AuthRequired: flags&1 != 0, AuthClawbackEnabled: flags&8 != 0},
				Trustlines:     []ledger.Trustline{{Asset: xdrAsset(t, usd), Balance: usdBalance, Limit: 1 << 62, Flags: xdr.TrustLineFlagsAuthorizedFlag}},
				Data:           map[string][]byte{"x": []byte("1")},
				OffersComplete: true},
			w.dest:   {Balance: 10 * xlm, Data: map[string][]byte{"config.memo_required": []byte("1")}},
			w.issuer: {Balance: 10 * xlm},
			w.other:  nil,
		}}
		before := *state.Accounts[w.closing]
		got := ledger.CheckClose(env, state)
		if after := state.Accounts[w.closing]; after == nil || after.Balance != before.Balance || after.NumSubEntries != before.NumSubEntries || len(after.Data) != 1 {
			t.Fatal("the preflight changed the state it was given")
		}
		switch got.State {
		case ledger.PreflightBlocked:
			if len(got.Blockers) == 0 {
				t.Fatal("blocked without a blocker")
			}
		case ledger.PreflightLandable, ledger.PreflightUncertain:
			if len(got.Blockers) != 0 {
				t.Fatalf("%s with blockers %+v", got.State, got.Blockers)
			}
		default:
			t.Fatalf("state %q", got.State)
		}
		for i, b := range got.Blockers {
			if b.Code == "" || b.Reason == "" || b.Op < ledger.TxBlocker || b.Op >= len(env.Operations()) {
				t.Fatalf("blocker %+v", b)
			}
			if i > 0 && b.Op < got.Blockers[i-1].Op {
				t.Fatalf("blockers out of order: %+v", got.Blockers)
			}
		}
	})
}
