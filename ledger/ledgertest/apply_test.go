package ledgertest_test

import (
	"encoding/hex"
	"errors"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

const xlm = 10_000_000 // stroops

// world is the cast of the rule tables: src sends the transaction (master
// weight 1, every threshold 1), other is a second account, issuer issues
// USD and EUR; all hold DefaultBalance unless a case changes it.
type world struct {
	h                  *ledgertest.Handler
	hc                 *horizonclient.Client
	src, other, issuer ledgertest.Account
	usd, eur           xdr.Asset
}

func newWorld(t *testing.T) *world {
	t.Helper()
	h := ledgertest.NewHandler()
	w := &world{
		h:      h,
		hc:     &horizonclient.Client{HorizonURL: "http://double.invalid/", HTTP: &http.Client{Transport: h.Transport()}},
		src:    ledgertest.DeterministicAccount(200, 0, 1),
		other:  ledgertest.DeterministicAccount(201, 0, 1),
		issuer: ledgertest.DeterministicAccount(202, 0, 1),
	}
	for _, a := range []ledgertest.Account{w.src, w.other, w.issuer} {
		h.AddAccount(a)
	}
	w.usd = ledgertest.Credit("USD", w.issuer.Address)
	w.eur = ledgertest.Credit("EUR", w.issuer.Address)
	return w
}

func (w *world) txUSD() txnbuild.CreditAsset {
	return txnbuild.CreditAsset{Code: "USD", Issuer: w.issuer.Address}
}

// submit sends ops from src at its next sequence number, signed by src and
// other (other's signature only when an operation names it as source).
func (w *world) submit(t *testing.T, ops []txnbuild.Operation, edit func(*xdr.TransactionEnvelope)) (string, []string, error) {
	t.Helper()
	seq, _ := w.h.Sequence(w.src.Address)
	b64, _ := ledgertest.BuildTx(w.src.Address, seq+1, 0, pass, ops)
	if edit != nil {
		b64 = mutate(t, b64, edit)
	}
	keys := []*ledgertestKey{{w.src}}
	for _, op := range ops {
		if op.GetSourceAccount() == w.other.Address {
			keys = append(keys, &ledgertestKey{w.other})
			break
		}
	}
	for _, k := range keys {
		b64 = ledgertest.SignXDR(b64, pass, k.a.Master)
	}
	_, err := w.hc.SubmitTransactionXDR(b64)
	if err == nil {
		return "", nil, nil
	}
	var herr *horizonclient.Error
	if !errors.As(err, &herr) {
		return "", nil, err
	}
	rc, rerr := herr.ResultCodes()
	if rerr != nil {
		return "", nil, rerr
	}
	return rc.TransactionCode, rc.OperationCodes, nil
}

type ledgertestKey struct{ a ledgertest.Account }

func (w *world) state(t *testing.T, id string) horizon.Account {
	t.Helper()
	acc, err := w.hc.AccountDetail(horizonclient.AccountRequest{AccountID: id})
	if err != nil {
		t.Fatalf("account %s: %v", id, err)
	}
	return acc
}

func (w *world) exists(id string) bool {
	_, ok := w.h.Sequence(id)
	return ok
}

func nativeOf(acc horizon.Account) string {
	for _, b := range acc.Balances {
		if b.Type == "native" {
			return b.Balance
		}
	}
	return ""
}

func creditOf(acc horizon.Account, code string) (horizon.Balance, bool) {
	for _, b := range acc.Balances {
		if b.Code == code {
			return b, true
		}
	}
	return horizon.Balance{}, false
}

// ruleCase is one row of the rule tables: a setup, the operations src
// submits, the codes the double must answer ("" for success) and what must
// hold afterwards.
type ruleCase struct {
	name  string
	setup func(w *world)
	ops   func(w *world) []txnbuild.Operation
	edit  func(w *world, env *xdr.TransactionEnvelope)
	tx    string
	opc   []string
	check func(t *testing.T, w *world)
}

// runRules runs each case in a fresh world, and checks what a refusal
// leaves: nothing changed for a transaction refused in validation; the fee
// charged, the sequence number consumed and nothing else for tx_failed.
func runRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			if c.setup != nil {
				c.setup(w)
			}
			ops := c.ops(w)
			var edit func(*xdr.TransactionEnvelope)
			if c.edit != nil {
				edit = func(env *xdr.TransactionEnvelope) { c.edit(w, env) }
			}
			before := map[string]horizon.Account{}
			for _, a := range []string{w.src.Address, w.other.Address, w.issuer.Address} {
				before[a], _ = w.h.AccountState(a)
			}
			tx, opc, err := w.submit(t, ops, edit)
			if err != nil {
				t.Fatal(err)
			}
			if tx != c.tx || !slices.Equal(opc, c.opc) {
				t.Fatalf("codes = %q %q, want %q %q", tx, opc, c.tx, c.opc)
			}
			switch c.tx {
			case "":
			case "tx_failed":
				if !isValidationCode(c.opc) {
					after, _ := w.h.AccountState(w.src.Address)
					b := before[w.src.Address]
					fee := int64(100 * len(ops))
					if after.Sequence != b.Sequence+1 || nativeOf(after) != amountString(parseAmount(t, nativeOf(b))-fee) {
						t.Errorf("tx_failed: sequence %d, balance %s; want %d and %s less the fee %d",
							after.Sequence, nativeOf(after), b.Sequence+1, nativeOf(b), fee)
					}
					// processSeqNum also records the ledger of the change
					// (TransactionUtils.cpp maybeUpdateAccountOnLedgerSeqUpdate).
					if after.SequenceLedger <= b.SequenceLedger || after.SequenceTime == "" {
						t.Errorf("tx_failed: sequence_ledger %d, sequence_time %q; want the ledger that consumed the number",
							after.SequenceLedger, after.SequenceTime)
					}
					a2, b2 := after, b
					a2.Sequence, b2.Sequence = 0, 0
					a2.SequenceLedger, b2.SequenceLedger = 0, 0
					a2.SequenceTime, b2.SequenceTime = "", ""
					a2.Balances, b2.Balances = nil, nil
					a2.LastModifiedLedger, b2.LastModifiedLedger = 0, 0
					if !reflect.DeepEqual(a2, b2) {
						t.Errorf("tx_failed changed the source beyond fee and sequence:\n%+v\n%+v", b2, a2)
					}
					break
				}
				fallthrough
			default:
				for id, b := range before {
					if after, _ := w.h.AccountState(id); !reflect.DeepEqual(after, b) {
						t.Errorf("refused in validation (%s) yet account %s changed", c.tx, id)
					}
				}
			}
			if c.check != nil {
				c.check(t, w)
			}
		})
	}
}

// isValidationCode reports whether a tx_failed's operation codes come from
// validation (doCheckValid), which charges nothing.
func isValidationCode(opc []string) bool {
	for _, c := range opc {
		switch c {
		case "op_malformed", "op_not_supported", "op_bad_flags", "op_bad_signer", "op_unknown_flag",
			"op_threshold_out_of_range", "op_data_invalid_name", "op_invalid_home_domain":
			return true
		}
	}
	return false
}

func parseAmount(t *testing.T, s string) int64 {
	t.Helper()
	v, err := amountParse(s)
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	return v
}

func fundedNative(t *testing.T, w *world, id string) int64 {
	t.Helper()
	v, ok := w.h.Balance(id)
	if !ok {
		t.Fatalf("%s unknown", id)
	}
	return v
}

func wantNative(t *testing.T, w *world, id string, want int64) {
	t.Helper()
	if got := fundedNative(t, w, id); got != want {
		t.Errorf("native balance of %.6s… = %d, want %d", id, got, want)
	}
}

func wantSubentries(t *testing.T, w *world, id string, want int32) {
	t.Helper()
	if got := w.state(t, id).SubentryCount; got != want {
		t.Errorf("subentry_count = %d, want %d", got, want)
	}
}

func ptr[T any](v T) *T { return &v }

func TestApplyCreateAccount(t *testing.T) {
	fresh := ledgertest.Keypair(300).Address()
	runRules(t, []ruleCase{
		{name: "creates", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: fresh, Amount: "5"}}
		}, check: func(t *testing.T, w *world) {
			wantNative(t, w, fresh, 5*xlm)
			wantNative(t, w, w.src.Address, ledgertest.DefaultBalance-5*xlm-100)
			acc := w.state(t, fresh)
			if acc.Sequence%(1<<32) != 0 || len(acc.Signers) != 1 || acc.Signers[0].Weight != 1 || acc.Thresholds != (horizon.AccountThresholds{}) {
				t.Errorf("new account = %+v", acc)
			}
		}},
		{name: "op_already_exists", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: w.other.Address, Amount: "5"}}
		}, tx: "tx_failed", opc: []string{"op_already_exists"}},
		{name: "op_low_reserve below two base reserves", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: fresh, Amount: "0.9999999"}}
		}, tx: "tx_failed", opc: []string{"op_low_reserve"}},
		{name: "exactly two base reserves", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: fresh, Amount: "1"}}
		}},
		{name: "op_underfunded: the reserve stays", setup: func(w *world) {
			w.h.SetBalance(w.src.Address, 6*xlm) // reserve 1 XLM, fee 100 stroops
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: fresh, Amount: "5"}}
		}, tx: "tx_failed", opc: []string{"op_underfunded"}},
		{name: "op_malformed: into itself", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.CreateAccount{Destination: w.src.Address, Amount: "5"}}
		}, tx: "tx_failed", opc: []string{"op_malformed"}},
	})
}

func TestApplyPayment(t *testing.T) {
	pay := func(dest string, amt string, asset txnbuild.Asset) func(w *world) []txnbuild.Operation {
		return func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.Payment{Destination: dest, Amount: amt, Asset: asset}}
		}
	}
	ghost := ledgertest.Keypair(301).Address()
	usdLines := func(srcBal, otherBal, otherLimit int64) func(w *world) {
		return func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: srcBal})
			w.h.AddTrustline(w.other.Address, ledgertest.Trustline{Asset: w.usd, Balance: otherBal, Limit: otherLimit})
		}
	}
	cases := []ruleCase{
		{name: "native", ops: func(w *world) []txnbuild.Operation {
			return pay(w.other.Address, "10", txnbuild.NativeAsset{})(w)
		}, check: func(t *testing.T, w *world) {
			wantNative(t, w, w.other.Address, ledgertest.DefaultBalance+10*xlm)
			wantNative(t, w, w.src.Address, ledgertest.DefaultBalance-10*xlm-100)
		}},
		{name: "op_no_destination", ops: pay(ghost, "10", txnbuild.NativeAsset{}), tx: "tx_failed", opc: []string{"op_no_destination"}},
		{name: "op_underfunded: native above the available balance", setup: func(w *world) {
			w.h.SetBalance(w.src.Address, 11*xlm)
		}, ops: func(w *world) []txnbuild.Operation {
			return pay(w.other.Address, "10", txnbuild.NativeAsset{})(w) // 11 - 0.00001 fee - 1 reserve < 10
		}, tx: "tx_failed", opc: []string{"op_underfunded"}},
		{name: "op_underfunded: selling liabilities are not available", setup: func(w *world) {
			w.h.SetBalance(w.src.Address, 20*xlm)
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd})
			w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.usd, Amount: 10 * xlm, Price: xdr.Price{N: 1, D: 1}})
		}, ops: func(w *world) []txnbuild.Operation {
			return pay(w.other.Address, "8", txnbuild.NativeAsset{})(w) // 20 - 2 reserve - 10 selling < 8
		}, tx: "tx_failed", opc: []string{"op_underfunded"}},
		{name: "op_line_full: native", setup: func(w *world) {
			w.h.SetBalance(w.other.Address, math.MaxInt64-5)
		}, ops: func(w *world) []txnbuild.Operation {
			return pay(w.other.Address, "0.0000010", txnbuild.NativeAsset{})(w)
		}, tx: "tx_failed", opc: []string{"op_line_full"}},
		{name: "native to oneself", ops: func(w *world) []txnbuild.Operation {
			return pay(w.src.Address, "1000000", txnbuild.NativeAsset{})(w)
		}},
		{name: "credit", setup: usdLines(50*xlm, 0, 0), ops: func(w *world) []txnbuild.Operation {
			return pay(w.other.Address, "20", w.txUSD())(w)
		}, check: func(t *testing.T, w *world) {
			if b, _ := creditOf(w.state(t, w.other.Address), "USD"); b.Balance != "20.0000000" {
				t.Errorf("destination USD = %s", b.Balance)
			}
			if b, _ := creditOf(w.state(t, w.src.Address), "USD"); b.Balance != "30.0000000" {
				t.Errorf("source USD = %s", b.Balance)
			}
		}},
		{name: "op_no_trust", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 50 * xlm})
		}, ops: func(w *world) []txnbuild.Operation { return pay(w.other.Address, "20", w.txUSD())(w) },
			tx: "tx_failed", opc: []string{"op_no_trust"}},
		{name: "op_not_authorized", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 50 * xlm})
			w.h.AddTrustline(w.other.Address, ledgertest.Trustline{Asset: w.usd, Unauthorized: true})
		}, ops: func(w *world) []txnbuild.Operation { return pay(w.other.Address, "20", w.txUSD())(w) },
			tx: "tx_failed", opc: []string{"op_not_authorized"}},
		{name: "op_not_authorized: maintain liabilities is not enough", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 50 * xlm})
			w.h.AddTrustline(w.other.Address, ledgertest.Trustline{Asset: w.usd, Flags: ledgertest.TrustAuthorizedToMaintainLiab})
		}, ops: func(w *world) []txnbuild.Operation { return pay(w.other.Address, "20", w.txUSD())(w) },
			tx: "tx_failed", opc: []string{"op_not_authorized"}},
		{name: "op_line_full: credit limit", setup: usdLines(50*xlm, 5*xlm, 10*xlm),
			ops: func(w *world) []txnbuild.Operation { return pay(w.other.Address, "6", w.txUSD())(w) },
			tx:  "tx_failed", opc: []string{"op_line_full"}},
		{name: "op_line_full: buying liabilities fill the line", setup: func(w *world) {
			usdLines(50*xlm, 0, 10*xlm)(w)
			w.h.AddOffer(w.other.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.usd, Amount: 8 * xlm, Price: xdr.Price{N: 1, D: 1}})
		}, ops: func(w *world) []txnbuild.Operation { return pay(w.other.Address, "3", w.txUSD())(w) },
			tx: "tx_failed", opc: []string{"op_line_full"}},
		{name: "op_src_no_trust", setup: func(w *world) {
			w.h.AddTrustline(w.other.Address, ledgertest.Trustline{Asset: w.usd})
		}, ops: func(w *world) []txnbuild.Operation { return pay(w.other.Address, "20", w.txUSD())(w) },
			tx: "tx_failed", opc: []string{"op_src_no_trust"}},
		{name: "op_src_not_authorized", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 50 * xlm, Unauthorized: true})
			w.h.AddTrustline(w.other.Address, ledgertest.Trustline{Asset: w.usd})
		}, ops: func(w *world) []txnbuild.Operation { return pay(w.other.Address, "20", w.txUSD())(w) },
			tx: "tx_failed", opc: []string{"op_src_not_authorized"}},
		{name: "op_underfunded: credit", setup: usdLines(10*xlm, 0, 0),
			ops: func(w *world) []txnbuild.Operation { return pay(w.other.Address, "20", w.txUSD())(w) },
			tx:  "tx_failed", opc: []string{"op_underfunded"}},
		{name: "op_underfunded: credit selling liabilities", setup: func(w *world) {
			usdLines(10*xlm, 0, 0)(w)
			w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: w.usd, Buying: ledgertest.Native(), Amount: 6 * xlm, Price: xdr.Price{N: 1, D: 1}})
		}, ops: func(w *world) []txnbuild.Operation { return pay(w.other.Address, "5", w.txUSD())(w) },
			tx: "tx_failed", opc: []string{"op_underfunded"}},
		{name: "back to the issuer, which needs no trustline", setup: usdLines(10*xlm, 0, 0),
			ops: func(w *world) []txnbuild.Operation { return pay(w.issuer.Address, "10", w.txUSD())(w) },
			check: func(t *testing.T, w *world) {
				if b, _ := creditOf(w.state(t, w.src.Address), "USD"); b.Balance != "0.0000000" {
					t.Errorf("source USD = %s", b.Balance)
				}
			}},
		{name: "op_malformed: amount 0", ops: func(w *world) []txnbuild.Operation {
			return pay(w.other.Address, "1", txnbuild.NativeAsset{})(w)
		}, edit: func(w *world, env *xdr.TransactionEnvelope) {
			env.V1.Tx.Operations[0].Body.PaymentOp.Amount = 0
		}, tx: "tx_failed", opc: []string{"op_malformed"}},
	}
	runRules(t, cases)

	// The issuer mints: its payments need no trustline of its own.
	w := newWorld(t)
	w.h.AddTrustline(w.other.Address, ledgertest.Trustline{Asset: w.usd})
	seq, _ := w.h.Sequence(w.issuer.Address)
	b64, _ := ledgertest.BuildTx(w.issuer.Address, seq+1, 0, pass,
		[]txnbuild.Operation{&txnbuild.Payment{Destination: w.other.Address, Amount: "7", Asset: w.txUSD()}}, w.issuer.Master)
	if _, err := w.hc.SubmitTransactionXDR(b64); err != nil {
		t.Fatalf("issuer's payment: %v", err)
	}
	if b, _ := creditOf(w.state(t, w.other.Address), "USD"); b.Balance != "7.0000000" {
		t.Errorf("minted USD = %s", b.Balance)
	}
}

func TestApplyOffers(t *testing.T) {
	var offerID int64
	withOffer := func(w *world) {
		w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 50 * xlm})
		offerID = w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: w.usd, Buying: ledgertest.Native(), Amount: 20 * xlm, Price: xdr.Price{N: 2, D: 1}})
	}
	sellDelete := func(w *world) []txnbuild.Operation {
		return []txnbuild.Operation{&txnbuild.ManageSellOffer{Selling: w.txUSD(), Buying: txnbuild.NativeAsset{}, Amount: "0", Price: xdr.Price{N: 2, D: 1}, OfferID: offerID}}
	}
	runRules(t, []ruleCase{
		{name: "sell offer deleted", setup: withOffer, ops: sellDelete, check: func(t *testing.T, w *world) {
			acc := w.state(t, w.src.Address)
			if b, _ := creditOf(acc, "USD"); acc.SubentryCount != 1 || b.SellingLiabilities != "0.0000000" {
				t.Errorf("after the delete: %d sub-entries, USD selling liabilities %s", acc.SubentryCount, b.SellingLiabilities)
			}
		}},
		{name: "buy offer deleted", setup: withOffer, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageBuyOffer{Selling: w.txUSD(), Buying: txnbuild.NativeAsset{}, Amount: "0", Price: xdr.Price{N: 1, D: 2}, OfferID: offerID}}
		}},
		{name: "op_offer_not_found", setup: withOffer, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageSellOffer{Selling: w.txUSD(), Buying: txnbuild.NativeAsset{}, Amount: "0", Price: xdr.Price{N: 2, D: 1}, OfferID: offerID + 1}}
		}, tx: "tx_failed", opc: []string{"op_offer_not_found"}},
		{name: "op_offer_not_found: another account's offer", setup: func(w *world) {
			w.h.AddTrustline(w.other.Address, ledgertest.Trustline{Asset: w.usd, Balance: 50 * xlm})
			offerID = w.h.AddOffer(w.other.Address, ledgertest.Offer{Selling: w.usd, Buying: ledgertest.Native(), Amount: 20 * xlm, Price: xdr.Price{N: 2, D: 1}})
		}, ops: sellDelete, tx: "tx_failed", opc: []string{"op_offer_not_found"}},
		{name: "op_not_supported: an offer with an amount", setup: withOffer, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageSellOffer{Selling: w.txUSD(), Buying: txnbuild.NativeAsset{}, Amount: "1", Price: xdr.Price{N: 2, D: 1}}}
		}, tx: "tx_failed", opc: []string{"op_not_supported"}},
		{name: "op_malformed: deleting offer 0", setup: withOffer, ops: sellDelete, edit: func(w *world, env *xdr.TransactionEnvelope) {
			env.V1.Tx.Operations[0].Body.ManageSellOfferOp.OfferId = 0
		}, tx: "tx_failed", opc: []string{"op_malformed"}},
	})
}

func TestApplyChangeTrust(t *testing.T) {
	remove := func(w *world) []txnbuild.Operation {
		return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: txnbuild.ChangeTrustAssetWrapper{Asset: w.txUSD()}, Limit: "0"}}
	}
	pool := func(w *world) ledgertest.Pool { return ledgertest.Pool{A: w.usd, B: ledgertest.Native()} }
	poolLine := func(w *world) txnbuild.ChangeTrustAsset {
		return txnbuild.LiquidityPoolShareChangeTrustAsset{LiquidityPoolParameters: txnbuild.LiquidityPoolParameters{
			AssetA: txnbuild.NativeAsset{}, AssetB: w.txUSD(), Fee: 30}}
	}
	runRules(t, []ruleCase{
		{name: "removed", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd})
		}, ops: remove, check: func(t *testing.T, w *world) {
			wantSubentries(t, w, w.src.Address, 0)
			if _, ok := creditOf(w.state(t, w.src.Address), "USD"); ok {
				t.Error("the trustline remains")
			}
		}},
		{name: "op_invalid_limit: a balance remains", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 1})
		}, ops: remove, tx: "tx_failed", opc: []string{"op_invalid_limit"}},
		{name: "op_invalid_limit: buying liabilities remain", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd})
			w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.usd, Amount: xlm, Price: xdr.Price{N: 1, D: 1}})
		}, ops: remove, tx: "tx_failed", opc: []string{"op_invalid_limit"}},
		{name: "op_invalid_limit: below the balance", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 10 * xlm})
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: txnbuild.ChangeTrustAssetWrapper{Asset: w.txUSD()}, Limit: "9"}}
		}, tx: "tx_failed", opc: []string{"op_invalid_limit"}},
		{name: "op_invalid_limit: removing a trustline the account lacks", ops: remove, tx: "tx_failed", opc: []string{"op_invalid_limit"}},
		{name: "op_cannot_delete: a pool share uses it", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd})
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Pool: ptr(pool(w))})
		}, ops: remove, tx: "tx_failed", opc: []string{"op_cannot_delete"}},
		{name: "pool share removed: two sub-entries, then its asset's line", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd})
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Pool: ptr(pool(w))})
		}, ops: func(w *world) []txnbuild.Operation {
			return append([]txnbuild.Operation{&txnbuild.ChangeTrust{Line: poolLine(w), Limit: "0"}}, remove(w)...)
		}, check: func(t *testing.T, w *world) { wantSubentries(t, w, w.src.Address, 0) }},
		{name: "created, authorized", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: txnbuild.ChangeTrustAssetWrapper{Asset: w.txUSD()}, Limit: "100"}}
		}, check: func(t *testing.T, w *world) {
			b, ok := creditOf(w.state(t, w.src.Address), "USD")
			if !ok || b.Limit != "100.0000000" || b.IsAuthorized == nil || !*b.IsAuthorized {
				t.Errorf("trustline = %+v", b)
			}
			wantSubentries(t, w, w.src.Address, 1)
		}},
		{name: "created unauthorized: the issuer requires authorization", setup: func(w *world) {
			w.h.SetFlags(w.issuer.Address, ledgertest.AuthRequired|ledgertest.AuthRevocable)
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: txnbuild.ChangeTrustAssetWrapper{Asset: w.txUSD()}, Limit: "100"}}
		}, check: func(t *testing.T, w *world) {
			if b, _ := creditOf(w.state(t, w.src.Address), "USD"); b.IsAuthorized == nil || *b.IsAuthorized {
				t.Errorf("trustline = %+v", b)
			}
		}},
		{name: "op_no_issuer", setup: func(w *world) { w.h.Remove(w.issuer.Address) }, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: txnbuild.ChangeTrustAssetWrapper{Asset: w.txUSD()}, Limit: "100"}}
		}, tx: "tx_failed", opc: []string{"op_no_issuer"}},
		{name: "op_low_reserve", setup: func(w *world) {
			w.h.SetBalance(w.src.Address, 1*xlm+4_999_999+100) // reserve 1 XLM + fee, half a reserve less a stroop
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: txnbuild.ChangeTrustAssetWrapper{Asset: w.txUSD()}, Limit: "100"}}
		}, tx: "tx_failed", opc: []string{"op_low_reserve"}},
		{name: "op_trust_line_missing: a pool share without its asset's line", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: poolLine(w), Limit: "100"}}
		}, tx: "tx_failed", opc: []string{"op_trust_line_missing"}},
		{name: "op_not_auth_maintain_liabilities", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Unauthorized: true})
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: poolLine(w), Limit: "100"}}
		}, tx: "tx_failed", opc: []string{"op_not_auth_maintain_liabilities"}},
		{name: "pool share created: two sub-entries", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd})
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: poolLine(w), Limit: "100"}}
		}, check: func(t *testing.T, w *world) { wantSubentries(t, w, w.src.Address, 3) }},
		{name: "op_malformed: the issuer trusting itself", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ChangeTrust{Line: txnbuild.ChangeTrustAssetWrapper{Asset: w.txUSD()}, Limit: "100"}}
		}, edit: func(w *world, env *xdr.TransactionEnvelope) {
			self := txnbuild.CreditAsset{Code: "USD", Issuer: w.src.Address}
			line, _ := txnbuild.ChangeTrustAssetWrapper{Asset: self}.ToXDR()
			env.V1.Tx.Operations[0].Body.ChangeTrustOp.Line = line
		}, tx: "tx_failed", opc: []string{"op_malformed"}},
	})
}

func TestApplyManageData(t *testing.T) {
	runRules(t, []ruleCase{
		{name: "removed", setup: func(w *world) { w.h.SetData(w.src.Address, "k", []byte("v"), "") },
			ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{&txnbuild.ManageData{Name: "k"}} },
			check: func(t *testing.T, w *world) {
				wantSubentries(t, w, w.src.Address, 0)
			}},
		{name: "op_data_name_not_found", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageData{Name: "k"}}
		}, tx: "tx_failed", opc: []string{"op_data_name_not_found"}},
		{name: "set", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageData{Name: "k", Value: []byte("v")}}
		}, check: func(t *testing.T, w *world) {
			if acc := w.state(t, w.src.Address); acc.Data["k"] != "dg==" || acc.SubentryCount != 1 {
				t.Errorf("data = %v, %d sub-entries", acc.Data, acc.SubentryCount)
			}
		}},
		{name: "replaced: no new reserve", setup: func(w *world) {
			w.h.SetData(w.src.Address, "k", []byte("v"), "")
			w.h.SetBalance(w.src.Address, 15*xlm/10+100)
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageData{Name: "k", Value: []byte("w")}}
		}},
		{name: "op_low_reserve", setup: func(w *world) { w.h.SetBalance(w.src.Address, 15*xlm/10-1+100) },
			ops: func(w *world) []txnbuild.Operation {
				return []txnbuild.Operation{&txnbuild.ManageData{Name: "k", Value: []byte("v")}}
			}, tx: "tx_failed", opc: []string{"op_low_reserve"}},
		{name: "op_data_invalid_name", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageData{Name: "k", Value: []byte("v")}}
		}, edit: func(w *world, env *xdr.TransactionEnvelope) {
			env.V1.Tx.Operations[0].Body.ManageDataOp.DataName = "k\n"
		}, tx: "tx_failed", opc: []string{"op_data_invalid_name"}},
	})
}

func TestApplySetOptions(t *testing.T) {
	signer := ledgertest.Keypair(302).Address()
	withSigner := func(w *world) {
		w.h.SetAccount(w.src.Address, []horizon.Signer{
			{Key: signer, Weight: 1, Type: "ed25519_public_key"},
			{Key: w.src.Address, Weight: 1, Type: "ed25519_public_key"},
		}, horizon.AccountThresholds{LowThreshold: 1, MedThreshold: 1, HighThreshold: 1})
	}
	setOpts := func(o txnbuild.SetOptions) func(w *world) []txnbuild.Operation {
		return func(w *world) []txnbuild.Operation { return []txnbuild.Operation{&o} }
	}
	runRules(t, []ruleCase{
		{name: "signer removed", setup: withSigner, ops: setOpts(txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: signer, Weight: 0}}),
			check: func(t *testing.T, w *world) {
				if acc := w.state(t, w.src.Address); len(acc.Signers) != 1 || acc.SubentryCount != 0 {
					t.Errorf("signers = %+v, %d sub-entries", acc.Signers, acc.SubentryCount)
				}
			}},
		{name: "signer added, thresholds changed", ops: setOpts(txnbuild.SetOptions{
			Signer: &txnbuild.Signer{Address: signer, Weight: 2}, HighThreshold: ptr(txnbuild.Threshold(3)), MasterWeight: ptr(txnbuild.Threshold(2)),
		}), check: func(t *testing.T, w *world) {
			acc := w.state(t, w.src.Address)
			if len(acc.Signers) != 2 || acc.SubentryCount != 1 || acc.Thresholds.HighThreshold != 3 || acc.Signers[1].Weight != 2 {
				t.Errorf("account = %+v", acc)
			}
		}},
		{name: "op_low_reserve: adding a signer", setup: func(w *world) { w.h.SetBalance(w.src.Address, 15*xlm/10-1+100) },
			ops: setOpts(txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: signer, Weight: 1}}),
			tx:  "tx_failed", opc: []string{"op_low_reserve"}},
		{name: "op_too_many_signers", setup: func(w *world) {
			var signers []horizon.Signer
			for i := range 20 {
				signers = append(signers, horizon.Signer{Key: ledgertest.Keypair(400 + i).Address(), Weight: 1, Type: "ed25519_public_key"})
			}
			w.h.SetAccount(w.src.Address, append(signers, horizon.Signer{Key: w.src.Address, Weight: 1, Type: "ed25519_public_key"}),
				horizon.AccountThresholds{LowThreshold: 1, MedThreshold: 1, HighThreshold: 1})
		}, ops: setOpts(txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: signer, Weight: 1}}),
			tx: "tx_failed", opc: []string{"op_too_many_signers"}},
		{name: "flags set", ops: setOpts(txnbuild.SetOptions{SetFlags: []txnbuild.AccountFlag{txnbuild.AuthRequired, txnbuild.AuthRevocable}}),
			check: func(t *testing.T, w *world) {
				if f := w.state(t, w.src.Address).Flags; !f.AuthRequired || !f.AuthRevocable || f.AuthImmutable {
					t.Errorf("flags = %+v", f)
				}
			}},
		{name: "op_cant_change: immutable", setup: func(w *world) { w.h.SetFlags(w.src.Address, ledgertest.AuthImmutable) },
			ops: setOpts(txnbuild.SetOptions{SetFlags: []txnbuild.AccountFlag{txnbuild.AuthRequired}}),
			tx:  "tx_failed", opc: []string{"op_cant_change"}},
		{name: "op_auth_revocable_required", ops: setOpts(txnbuild.SetOptions{SetFlags: []txnbuild.AccountFlag{txnbuild.AuthClawbackEnabled}}),
			tx: "tx_failed", opc: []string{"op_auth_revocable_required"}},
		{name: "op_invalid_inflation", ops: setOpts(txnbuild.SetOptions{InflationDestination: ptr(ledgertest.Keypair(303).Address())}),
			tx: "tx_failed", opc: []string{"op_invalid_inflation"}},
		{name: "op_bad_flags", ops: setOpts(txnbuild.SetOptions{SetFlags: []txnbuild.AccountFlag{txnbuild.AuthRequired}}),
			edit: func(w *world, env *xdr.TransactionEnvelope) {
				f := xdr.Uint32(ledgertest.AuthRequired)
				env.V1.Tx.Operations[0].Body.SetOptionsOp.ClearFlags = &f
			}, tx: "tx_failed", opc: []string{"op_bad_flags"}},
		{name: "op_unknown_flag", ops: setOpts(txnbuild.SetOptions{SetFlags: []txnbuild.AccountFlag{txnbuild.AuthRequired}}),
			edit: func(w *world, env *xdr.TransactionEnvelope) {
				f := xdr.Uint32(16)
				env.V1.Tx.Operations[0].Body.SetOptionsOp.SetFlags = &f
			}, tx: "tx_failed", opc: []string{"op_unknown_flag"}},
		{name: "op_threshold_out_of_range", ops: setOpts(txnbuild.SetOptions{LowThreshold: ptr(txnbuild.Threshold(1))}),
			edit: func(w *world, env *xdr.TransactionEnvelope) {
				v := xdr.Uint32(256)
				env.V1.Tx.Operations[0].Body.SetOptionsOp.LowThreshold = &v
			}, tx: "tx_failed", opc: []string{"op_threshold_out_of_range"}},
		{name: "op_bad_signer: the master as signer", ops: func(w *world) []txnbuild.Operation {
			return setOpts(txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: w.src.Address, Weight: 1}})(w)
		}, tx: "tx_failed", opc: []string{"op_bad_signer"}},
	})
}

func TestApplyAccountMerge(t *testing.T) {
	merge := func(w *world) []txnbuild.Operation {
		return []txnbuild.Operation{&txnbuild.AccountMerge{Destination: w.other.Address}}
	}
	ghost := ledgertest.Keypair(304).Address()
	runRules(t, []ruleCase{
		{name: "merged, the destination credited", ops: merge, check: func(t *testing.T, w *world) {
			if w.exists(w.src.Address) {
				t.Error("the merged account remains")
			}
			wantNative(t, w, w.other.Address, 2*ledgertest.DefaultBalance-100)
		}},
		{name: "signers do not block a merge", setup: func(w *world) {
			w.h.SetAccount(w.src.Address, []horizon.Signer{
				{Key: ledgertest.Keypair(305).Address(), Weight: 1, Type: "ed25519_public_key"},
				{Key: w.src.Address, Weight: 1, Type: "ed25519_public_key"},
			}, horizon.AccountThresholds{LowThreshold: 1, MedThreshold: 1, HighThreshold: 1})
		}, ops: merge},
		{name: "op_malformed: into itself", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.AccountMerge{Destination: w.src.Address}}
		}, tx: "tx_failed", opc: []string{"op_malformed"}},
		{name: "op_no_account", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.AccountMerge{Destination: ghost}}
		}, tx: "tx_failed", opc: []string{"op_no_account"}},
		{name: "op_immutable_set", setup: func(w *world) { w.h.SetFlags(w.src.Address, ledgertest.AuthImmutable) },
			ops: merge, tx: "tx_failed", opc: []string{"op_immutable_set"}},
		{name: "op_has_sub_entries: a trustline", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd})
		}, ops: merge, tx: "tx_failed", opc: []string{"op_has_sub_entries"}},
		{name: "op_has_sub_entries: an offer", setup: func(w *world) {
			w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.usd, Amount: xlm, Price: xdr.Price{N: 1, D: 1}})
		}, ops: merge, tx: "tx_failed", opc: []string{"op_has_sub_entries"}},
		{name: "op_has_sub_entries: a data entry", setup: func(w *world) {
			w.h.SetData(w.src.Address, "config.memo_required", []byte("1"), "")
		}, ops: merge, tx: "tx_failed", opc: []string{"op_has_sub_entries"}},
		{name: "op_seq_num_too_far", setup: func(w *world) {
			w.h.SetSequence(w.src.Address, 5<<32) // the double's next ledger is 2
		}, ops: merge, tx: "tx_failed", opc: []string{"op_seq_num_too_far"}},
		{name: "op_dest_full", setup: func(w *world) { w.h.SetBalance(w.other.Address, math.MaxInt64-10) },
			ops: merge, tx: "tx_failed", opc: []string{"op_dest_full"}},
		{name: "op_is_sponsor", setup: func(w *world) { w.h.SetSponsorship(w.src.Address, 1, 0) },
			ops: merge, tx: "tx_failed", opc: []string{"op_is_sponsor"}},
		{name: "op_is_sponsor: it pays another's data entry", setup: func(w *world) {
			w.h.SetData(w.other.Address, "k", []byte("v"), w.src.Address)
		}, ops: merge, tx: "tx_failed", opc: []string{"op_is_sponsor"}},
		{name: "the full close: cancel, pay back, remove, merge", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 50 * xlm})
			w.h.AddOffer(w.src.Address, ledgertest.Offer{ID: 77, Selling: w.usd, Buying: ledgertest.Native(), Amount: 10 * xlm, Price: xdr.Price{N: 1, D: 1}})
			w.h.SetData(w.src.Address, "k", []byte("v"), "")
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{
				&txnbuild.ManageSellOffer{Selling: w.txUSD(), Buying: txnbuild.NativeAsset{}, Amount: "0", Price: xdr.Price{N: 1, D: 1}, OfferID: 77},
				&txnbuild.Payment{Destination: w.issuer.Address, Amount: "50", Asset: w.txUSD()},
				&txnbuild.ChangeTrust{Line: txnbuild.ChangeTrustAssetWrapper{Asset: w.txUSD()}, Limit: "0"},
				&txnbuild.ManageData{Name: "k"},
				&txnbuild.AccountMerge{Destination: w.other.Address},
			}
		}, check: func(t *testing.T, w *world) {
			if w.exists(w.src.Address) {
				t.Error("the merged account remains")
			}
			wantNative(t, w, w.other.Address, 2*ledgertest.DefaultBalance-500)
		}},
		{name: "the bare merge of that account: op_has_sub_entries, the earlier ops roll back", setup: func(w *world) {
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 50 * xlm})
			w.h.SetData(w.src.Address, "k", []byte("v"), "")
		}, ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.ManageData{Name: "k"}, &txnbuild.AccountMerge{Destination: w.other.Address}}
		}, tx: "tx_failed", opc: []string{"op_success", "op_has_sub_entries"}},
	})
}

// TestApplyTransactionRules: the transaction-level rules, and what core
// reports for the operations after a failing one (it goes on applying
// them).
func TestApplyTransactionRules(t *testing.T) {
	ghost := ledgertest.Keypair(306).Address()
	payOther := func(w *world) txnbuild.Operation {
		return &txnbuild.Payment{Destination: w.other.Address, Amount: "1", Asset: txnbuild.NativeAsset{}}
	}
	runRules(t, []ruleCase{
		{name: "tx_insufficient_fee", ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{payOther(w), payOther(w)} },
			edit: func(w *world, env *xdr.TransactionEnvelope) { env.V1.Tx.Fee = 199 }, tx: "tx_insufficient_fee"},
		{name: "tx_insufficient_balance: the reserve is not available", setup: func(w *world) {
			w.h.SetBalance(w.src.Address, 1*xlm+99)
		}, ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{payOther(w)} }, tx: "tx_insufficient_balance"},
		{name: "tx_insufficient_balance: nor are selling liabilities", setup: func(w *world) {
			w.h.SetBalance(w.src.Address, 3*xlm)
			w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd})
			w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.usd, Amount: 2 * xlm, Price: xdr.Price{N: 1, D: 1}})
		}, ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{payOther(w)} }, tx: "tx_insufficient_balance"},
		{name: "tx_bad_seq", ops: func(w *world) []txnbuild.Operation { return []txnbuild.Operation{payOther(w)} },
			edit: func(w *world, env *xdr.TransactionEnvelope) { env.V1.Tx.SeqNum += 1 }, tx: "tx_bad_seq"},
		{name: "the operations after a failed one report their own codes", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{payOther(w), &txnbuild.Payment{Destination: ghost, Amount: "1", Asset: txnbuild.NativeAsset{}},
				payOther(w), &txnbuild.ManageData{Name: "nothing"}}
		}, tx: "tx_failed", opc: []string{"op_success", "op_no_destination", "op_success", "op_data_name_not_found"},
			check: func(t *testing.T, w *world) { wantNative(t, w, w.other.Address, ledgertest.DefaultBalance) }},
		{name: "op_no_source_account: an operation of a merged account", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.AccountMerge{Destination: w.other.Address},
				&txnbuild.Payment{Destination: w.other.Address, Amount: "1", Asset: txnbuild.NativeAsset{}, SourceAccount: w.src.Address}}
		}, tx: "tx_failed", opc: []string{"op_success", "op_no_source_account"}},
		{name: "op_not_supported: other operation types change nothing", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{payOther(w), &txnbuild.Inflation{}}
		}, tx: "tx_failed", opc: []string{"op_success", "op_not_supported"}},
		{name: "validation stops at the first invalid operation", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.AccountMerge{Destination: w.src.Address}, &txnbuild.Inflation{}}
		}, tx: "tx_failed", opc: []string{"op_malformed", "op_success"}},
		{name: "bump_sequence", ops: func(w *world) []txnbuild.Operation {
			return []txnbuild.Operation{&txnbuild.BumpSequence{BumpTo: 1<<32 + 50}}
		}, check: func(t *testing.T, w *world) {
			if seq, _ := w.h.Sequence(w.src.Address); seq != 1<<32+50 {
				t.Errorf("sequence = %d", seq)
			}
		}},
	})
}

// TestAccountJSON: GET /accounts/{id} shows the ledger's state as Horizon
// does, read with the SDK's client.
func TestAccountJSON(t *testing.T) {
	w := newWorld(t)
	sponsor := w.other.Address
	pool := ledgertest.Pool{A: ledgertest.Native(), B: w.usd}
	w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 50 * xlm, Limit: 1000 * xlm})
	w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.eur, Unauthorized: true, Sponsor: sponsor})
	w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Pool: &pool, Balance: 3 * xlm})
	w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: w.usd, Buying: ledgertest.Native(), Amount: 20 * xlm, Price: xdr.Price{N: 3, D: 2}})
	w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: w.usd, Amount: 4 * xlm, Price: xdr.Price{N: 1, D: 4}})
	w.h.SetData(w.src.Address, "config.memo_required", []byte("1"), "")
	w.h.SetFlags(w.src.Address, ledgertest.AuthRequired|ledgertest.AuthRevocable)

	acc := w.state(t, w.src.Address)
	// 1 + 1 + 2 (pool share) + 2 offers + 1 data entry.
	if acc.SubentryCount != 7 || acc.NumSponsored != 1 || acc.NumSponsoring != 0 || !acc.Flags.AuthRequired || !acc.Flags.AuthRevocable {
		t.Errorf("account = subentries %d, sponsored %d, sponsoring %d, flags %+v", acc.SubentryCount, acc.NumSponsored, acc.NumSponsoring, acc.Flags)
	}
	if o := w.state(t, sponsor); o.NumSponsoring != 1 {
		t.Errorf("sponsor's num_sponsoring = %d", o.NumSponsoring)
	}
	if acc.Data["config.memo_required"] != "MQ==" {
		t.Errorf("data = %v", acc.Data)
	}
	usd, _ := creditOf(acc, "USD")
	if usd.Balance != "50.0000000" || usd.Limit != "1000.0000000" || usd.SellingLiabilities != "20.0000000" ||
		usd.BuyingLiabilities != "1.0000000" || usd.Issuer != w.issuer.Address || usd.Type != "credit_alphanum4" || !*usd.IsAuthorized {
		t.Errorf("USD = %+v", usd)
	}
	eur, _ := creditOf(acc, "EUR")
	if *eur.IsAuthorized || *eur.IsAuthorizedToMaintainLiabilities || eur.Sponsor != sponsor {
		t.Errorf("EUR = %+v", eur)
	}
	var shares, native horizon.Balance
	for _, b := range acc.Balances {
		switch b.Type {
		case "liquidity_pool_shares":
			shares = b
		case "native":
			native = b
		}
	}
	id := pool.ID()
	if shares.Balance != "3.0000000" || !strings.EqualFold(shares.LiquidityPoolId, xdrHex(id[:])) {
		t.Errorf("pool shares = %+v", shares)
	}
	if native.SellingLiabilities != "4.0000000" || native.BuyingLiabilities != "30.0000000" {
		t.Errorf("native = %+v", native)
	}

	// A hand-made answer stays as given.
	odd := ledgertest.AccountDetail(ledgertest.Keypair(307).Address(), nil, horizon.AccountThresholds{})
	odd.AccountID = "GWHATEVER"
	w.h.SetAccountDetail(odd)
	if got := w.state(t, odd.ID); got.AccountID != "GWHATEVER" {
		t.Errorf("hand-made answer = %+v", got)
	}
}

// TestOffersPaging: GET /accounts/{id}/offers pages as Horizon does.
func TestOffersPaging(t *testing.T) {
	w := newWorld(t)
	w.h.AddTrustline(w.src.Address, ledgertest.Trustline{Asset: w.usd, Balance: 1000 * xlm})
	var ids []int64
	for i := range 25 {
		ids = append(ids, w.h.AddOffer(w.src.Address, ledgertest.Offer{Selling: w.usd, Buying: ledgertest.Native(), Amount: int64(i+1) * xlm, Price: xdr.Price{N: 1, D: 1}}))
	}
	var got []int64
	page, err := w.hc.Offers(horizonclient.OfferRequest{ForAccount: w.src.Address})
	for err == nil && len(page.Embedded.Records) > 0 {
		if len(page.Embedded.Records) > 10 {
			t.Fatalf("a page of %d, default limit 10", len(page.Embedded.Records))
		}
		for _, o := range page.Embedded.Records {
			if o.Seller != w.src.Address || o.Selling.Code != "USD" || o.Buying.Type != "native" || o.PriceR.N != 1 {
				t.Fatalf("offer = %+v", o)
			}
			got = append(got, o.ID)
		}
		page, err = w.hc.NextOffersPage(page)
	}
	if err != nil || !slices.Equal(got, ids) {
		t.Fatalf("paged %v (%v), want %v", got, err, ids)
	}
	desc, err := w.hc.Offers(horizonclient.OfferRequest{ForAccount: w.src.Address, Order: horizonclient.OrderDesc, Limit: 3, Cursor: "20"})
	if err != nil || len(desc.Embedded.Records) != 3 || desc.Embedded.Records[0].ID != 19 || desc.Embedded.Records[2].ID != 17 {
		t.Fatalf("desc page = %+v, %v", desc.Embedded.Records, err)
	}
	var herr *horizonclient.Error
	if _, err := w.hc.Offers(horizonclient.OfferRequest{ForAccount: w.src.Address, Limit: 201}); !errors.As(err, &herr) || herr.Problem.Status != 400 {
		t.Errorf("limit 201: %v, want 400", err)
	}
	if empty, err := w.hc.Offers(horizonclient.OfferRequest{ForAccount: ledgertest.Keypair(308).Address()}); err != nil || len(empty.Embedded.Records) != 0 {
		t.Errorf("unknown account: %+v, %v", empty, err)
	}
}

func amountString(v int64) string         { return amount.StringFromInt64(v) }
func amountParse(s string) (int64, error) { return amount.ParseInt64(s) }
func xdrHex(b []byte) string              { return hex.EncodeToString(b) }
