package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// The transaction's own rules in the preflight (CONTRACT section 18),
// through the relay's listener under each ledger API: the verdict in
// GET /status, and what the double answers when the same close, fully
// signed, is posted to it through the same face.

// trClose is w's close of ops then the merge into w.dest, at sequence
// number seq under pre: the envelope signed by the first signer (to
// publish), the one signed by both (to post), and the plan's id.
func (w pfWorld) trClose(t *testing.T, seq int64, pre txnbuild.Preconditions, ops ...txnbuild.Operation) (publish, full, id string) {
	t.Helper()
	ops = append(ops, &txnbuild.AccountMerge{Destination: w.dest})
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: w.acct.Address, Sequence: seq},
		Operations:    ops, BaseFee: 100, Preconditions: pre,
	})
	if err != nil {
		t.Fatal(err)
	}
	one, err := tx.Sign(network.TestNetworkPassphrase, w.acct.Keys[0])
	if err != nil {
		t.Fatal(err)
	}
	both, err := one.Sign(network.TestNetworkPassphrase, w.acct.Keys[1])
	if err != nil {
		t.Fatal(err)
	}
	if publish, err = one.Base64(); err != nil {
		t.Fatal(err)
	}
	if full, err = both.Base64(); err != nil {
		t.Fatal(err)
	}
	if id, err = tx.HashHex(network.TestNetworkPassphrase); err != nil {
		t.Fatal(err)
	}
	return publish, full, id
}

// trPost posts x to the double through api's face and returns the
// ledger's first failing code ("" when it applied x).
func trPost(t *testing.T, h *ledgertest.Server, api, x string) string {
	t.Helper()
	backends := h.Backends()
	if api == server.LedgerAPIRPC {
		backends = h.RPCBackends()
	}
	out := ledgerapi.New(ledgerapi.Options{Backends: backends, Timeout: 5 * time.Second}).Submit(t.Context(), ledger.Testnet, x, nil)
	if out.State == ledgerapi.SubmitSubmitted {
		return ""
	}
	if out.Code == ledger.TxFailed {
		for _, c := range out.OpCodes {
			if c != "op_success" {
				return c
			}
		}
	}
	return out.Code
}

func TestPreflightTransactionRulesThroughTheRelay(t *testing.T) {
	eachLedgerAPI(t, testPreflightTransactionRules)
}

func testPreflightTransactionRules(t *testing.T, api string) {
	r := startRelayAPI(t, api, httpapi.Options{}, 0, nil)
	hour := int64(time.Hour / time.Second)
	infinite := txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()}
	latest := func(t *testing.T) ledger.LatestLedger {
		l, err := ledgertest.InProcessClient(r.Horizon.Handler(), time.Second).Latest(t.Context(), ledger.Testnet)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	for _, tc := range []struct {
		name string
		// setup prepares the account (at sequence 100) and returns the
		// close's sequence number, preconditions and operations before
		// the merge.
		setup  func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation)
		state  string
		code   string // the first blocker's
		ledger string // what the double answers the close posted now; "" applied
	}{
		{"time bounds around now", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			now := time.Now().Unix()
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(now-hour, now+hour)}, nil
		}, "landable", "", ""},
		{"min time 80 hours ahead", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(time.Now().Unix()+80*hour, 0)}, nil
		}, "blocked", "tx_too_early", "tx_too_early"},
		{"min time 1 hour ahead", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(time.Now().Unix()+hour, 0)}, nil
		}, "uncertain", "", "tx_too_early"},
		{"min ledger a million ledgers ahead", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), LedgerBounds: &txnbuild.LedgerBounds{MinLedger: latest(t).Sequence + 1_000_000}}, nil
		}, "blocked", "tx_too_early", "tx_too_early"},
		{"min ledger 100 ledgers ahead", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), LedgerBounds: &txnbuild.LedgerBounds{MinLedger: latest(t).Sequence + 100}}, nil
		}, "uncertain", "", "tx_too_early"},
		{"max ledger 2", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), LedgerBounds: &txnbuild.LedgerBounds{MaxLedger: 2}}, nil
		}, "blocked", "tx_too_late", "tx_too_late"},
		{"max ledger ahead", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), LedgerBounds: &txnbuild.LedgerBounds{MaxLedger: latest(t).Sequence + 100}}, nil
		}, "landable", "", ""},
		{"min sequence number the account's is within", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			min := int64(90)
			return 105, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), MinSequenceNumber: &min}, nil
		}, "landable", "", ""},
		{"min sequence number past the account's", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			min := int64(102)
			return 105, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), MinSequenceNumber: &min}, nil
		}, "blocked", "tx_bad_seq", "tx_bad_seq"},
		{"min sequence age past the window", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			r.Horizon.SetSequenceChange(w.acct.Address, latest(t).Sequence, uint64(time.Now().Unix()))
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), MinSequenceNumberAge: uint64(80 * hour)}, nil
		}, "blocked", "tx_bad_minseq_age_or_gap", "tx_bad_minseq_age_or_gap"},
		{"min sequence age within the window", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			r.Horizon.SetSequenceChange(w.acct.Address, latest(t).Sequence, uint64(time.Now().Unix()))
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), MinSequenceNumberAge: uint64(hour)}, nil
		}, "uncertain", "", "tx_bad_minseq_age_or_gap"},
		{"min sequence age reached", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			r.Horizon.SetSequenceChange(w.acct.Address, latest(t).Sequence, uint64(time.Now().Unix()-2*hour))
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), MinSequenceNumberAge: uint64(hour)}, nil
		}, "landable", "", ""},
		{"min sequence ledger gap past the window", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			r.Horizon.SetSequenceChange(w.acct.Address, latest(t).Sequence, uint64(time.Now().Unix()))
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), MinSequenceNumberLedgerGap: 1_000_000}, nil
		}, "blocked", "tx_bad_minseq_age_or_gap", "tx_bad_minseq_age_or_gap"},
		{"min sequence ledger gap within the window", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			r.Horizon.SetSequenceChange(w.acct.Address, latest(t).Sequence, uint64(time.Now().Unix()))
			return 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout(), MinSequenceNumberLedgerGap: 100}, nil
		}, "uncertain", "", "tx_bad_minseq_age_or_gap"},
		{"sequence number far ahead", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			r.Horizon.SetSequence(w.acct.Address, 100<<32)
			return 100<<32 + 1, infinite, nil
		}, "blocked", "op_seq_num_too_far", "op_seq_num_too_far"},
		{"bumped far ahead", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			return 101, infinite, []txnbuild.Operation{&txnbuild.BumpSequence{BumpTo: 100 << 32}}
		}, "blocked", "op_seq_num_too_far", "op_seq_num_too_far"},
		{"bumped below", func(t *testing.T, w pfWorld) (int64, txnbuild.Preconditions, []txnbuild.Operation) {
			return 101, infinite, []txnbuild.Operation{&txnbuild.BumpSequence{BumpTo: 50}}
		}, "landable", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := pfNew(r)
			seq, pre, ops := tc.setup(t, w)
			x, full, id := w.trClose(t, seq, pre, ops...)
			ssePublish(t, r.Client, r.URL, x)
			p := pfGetStatus(t, r, id).Preflight
			if p == nil || p.State != tc.state {
				t.Fatalf("status.preflight = %+v, want %s", p, tc.state)
			}
			switch {
			case tc.code == "" && len(p.Blockers) != 0:
				t.Errorf("%s with blockers %+v", p.State, p.Blockers)
			case tc.code != "" && (len(p.Blockers) == 0 || p.Blockers[0].Code != tc.code || p.Blockers[0].Reason == ""):
				t.Errorf("blockers %+v, want first %s", p.Blockers, tc.code)
			}
			if got := trPost(t, r.Horizon, api, full); got != tc.ledger {
				t.Errorf("the double answered %q to the close posted, want %q", got, tc.ledger)
			}
		})
	}
}

// TestPreflightLatestLedgerUnread: a failed read of the latest ledger
// leaves the rules that need it unchecked: the run is unchecked, the
// publish answers 200.
func TestPreflightLatestLedgerUnread(t *testing.T) {
	eachLedgerAPI(t, func(t *testing.T, api string) {
		r := startRelayAPI(t, api, httpapi.Options{}, 0, nil)
		w := pfNew(r)
		r.Horizon.FailLatest(true)
		x, _, id := w.trClose(t, 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()})
		if res := sbPublish(t, r.Client, r.URL, x, nil); res.status != http.StatusOK {
			t.Fatalf("publish: %d %s", res.status, res.body)
		}
		if p := pfGetStatus(t, r, id).Preflight; p == nil || p.State != "unchecked" || len(p.Blockers) != 0 {
			t.Fatalf("status.preflight = %+v, want unchecked", p)
		}
	})
}

// TestPreflightSelfContradictingAnswers (CONTRACT section 18): an account
// answer that contradicts itself makes the run unchecked, never a verdict
// built on it. The double's Stellar RPC face serves the ledger's own
// counts, so these answers are Horizon's (ledgerapi's tests give RPC's).
func TestPreflightSelfContradictingAnswers(t *testing.T) {
	r := startRelay(t, httpapi.Options{}, 0, nil)
	for _, tc := range []struct {
		name string
		edit func(w pfWorld, d *horizon.Account)
	}{
		{"no sub-entry and a trustline", func(w pfWorld, d *horizon.Account) {
			r.Horizon.AddTrustline(w.acct.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", w.issuer)})
			*d, _ = r.Horizon.AccountState(w.acct.Address)
			d.SubentryCount = 0
		}},
		{"a negative count and a trustline", func(w pfWorld, d *horizon.Account) {
			r.Horizon.AddTrustline(w.acct.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", w.issuer)})
			*d, _ = r.Horizon.AccountState(w.acct.Address)
			d.SubentryCount = -5
		}},
		{"fewer sub-entries than extra signers", func(w pfWorld, d *horizon.Account) {
			d.SubentryCount = 0
		}},
		{"a data entry not counted", func(w pfWorld, d *horizon.Account) {
			d.Data = map[string]string{"note": "eA=="}
		}},
		{"no balances", func(w pfWorld, d *horizon.Account) {
			d.Balances = nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := pfNew(r)
			d, _ := r.Horizon.AccountState(w.acct.Address)
			tc.edit(w, &d)
			r.Horizon.SetAccountDetail(d)
			x, _, id := w.trClose(t, 101, txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()})
			ssePublish(t, r.Client, r.URL, x)
			if p := pfGetStatus(t, r, id).Preflight; p == nil || p.State != "unchecked" || len(p.Blockers) != 0 {
				t.Fatalf("status.preflight = %+v, want unchecked", p)
			}
		})
	}
}
