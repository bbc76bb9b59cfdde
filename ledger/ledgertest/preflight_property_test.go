package ledgertest_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestPreflightAgreesWithTheDouble is issue 21's property: for random
// accounts and closes made of CONTRACT 14's operations, the preflight's
// verdict on the state the double serves as Horizon equals what the double
// answers at POST /transactions: landable when it applies the close, blocked
// with the same first code when it refuses it. The two are written apart
// (ledger.CheckClose and the double's apply.go), each from stellar-core's
// source, so a rule one of them gets wrong shows here.
func TestPreflightAgreesWithTheDouble(t *testing.T) {
	const cases = 3000
	rng := rand.New(rand.NewPCG(21, 14))
	var landed, refused, memo, uncertain int
	for n := range cases {
		c := newPropertyCase(t, rng)
		state := c.read(t)
		env := c.build(t, rng)
		got := ledger.CheckClose(env, state)
		status, code := c.submit(t, env)

		ledgerBlockers := got.Blockers[:0:0]
		for _, b := range got.Blockers {
			if b.Code != ledger.MemoRequired {
				ledgerBlockers = append(ledgerBlockers, b)
			} else {
				memo++
			}
		}
		switch {
		case got.State == ledger.PreflightUncertain:
			uncertain++
		case len(ledgerBlockers) == 0:
			if status != http.StatusOK {
				t.Fatalf("case %d: preflight %s %+v, the double refused with %s\n%s", n, got.State, got.Blockers, code, c.describe(env))
			}
			landed++
		default:
			if status == http.StatusOK || code != ledgerBlockers[0].Code {
				t.Fatalf("case %d: preflight blocked by %+v, the double answered %d %s\n%s", n, ledgerBlockers, status, code, c.describe(env))
			}
			refused++
		}
	}
	t.Logf("%d cases: %d landed, %d refused with the same code, %d uncertain, %d memo_required blockers", cases, landed, refused, uncertain, memo)
	if landed < cases/10 || refused < cases/10 || uncertain > cases/5 {
		t.Errorf("the generator is lopsided: %d landed, %d refused, %d uncertain of %d", landed, refused, uncertain, cases)
	}
}

type propertyCase struct {
	h                             *ledgertest.Handler
	master                        *keypair.Full
	closing, dest, issuer, absent string
	usd, eur                      xdr.Asset
	offers                        []int64
	trust                         map[string]int64 // asset code → balance
	data                          []string
	seq                           int64
}

func newPropertyCase(t *testing.T, rng *rand.Rand) *propertyCase {
	t.Helper()
	c := &propertyCase{
		h:      ledgertest.NewHandler(),
		master: keypair.MustRandom(),
		dest:   keypair.MustRandom().Address(),
		issuer: keypair.MustRandom().Address(),
		absent: keypair.MustRandom().Address(),
		trust:  map[string]int64{},
	}
	c.closing = c.master.Address()
	c.usd = ledgertest.Credit("USD", c.issuer)
	c.eur = ledgertest.Credit("EURC", c.issuer)
	xlm := int64(10_000_000)
	c.h.Fund(c.closing, []int64{2 * xlm, 3 * xlm, 10 * xlm, 100 * xlm, 2*xlm + 300}[rng.IntN(5)])
	c.h.Fund(c.dest, 5*xlm)
	c.h.Fund(c.issuer, 5*xlm)
	if rng.IntN(10) == 0 {
		c.h.SetFlags(c.closing, uint32(xdr.AccountFlagsAuthImmutableFlag))
	}
	if rng.IntN(12) == 0 {
		c.h.SetSponsorship(c.closing, 1, 0)
	}
	if rng.IntN(6) == 0 {
		c.h.SetData(c.dest, "config.memo_required", []byte("1"), "")
	}
	if rng.IntN(3) == 0 {
		c.h.AddTrustline(c.dest, ledgertest.Trustline{Asset: c.usd, Limit: []int64{0, 3 * xlm}[rng.IntN(2)], Unauthorized: rng.IntN(4) == 0})
	}
	for _, a := range []struct {
		code  string
		asset xdr.Asset
	}{{"USD", c.usd}, {"EURC", c.eur}} {
		if rng.IntN(2) == 0 {
			bal := []int64{0, 0, xlm, 50 * xlm}[rng.IntN(4)]
			c.h.AddTrustline(c.closing, ledgertest.Trustline{Asset: a.asset, Balance: bal, Unauthorized: rng.IntN(10) == 0})
			c.trust[a.code] = bal
		}
	}
	if _, ok := c.trust["USD"]; ok {
		for range rng.IntN(3) {
			id := c.h.AddOffer(c.closing, ledgertest.Offer{Selling: ledgertest.Native(), Buying: c.usd, Amount: xlm / 10, Price: xdr.Price{N: 1, D: 2}})
			c.offers = append(c.offers, id)
		}
	}
	for i := range rng.IntN(3) {
		name := fmt.Sprintf("entry-%d", i)
		c.h.SetData(c.closing, name, []byte("v"), "")
		c.data = append(c.data, name)
	}
	acc, _ := c.h.AccountState(c.closing)
	c.seq = acc.Sequence
	return c
}

// read is what a relay reads of the ledger for the close.
func (c *propertyCase) read(t *testing.T) ledger.LedgerState {
	t.Helper()
	s, err := c.h.ReadState(c.closing, c.dest, c.issuer, c.absent)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// build makes a close of CONTRACT 14's operations, mostly the clean-up a
// wallet makes before a merge, with mistakes mixed in.
func (c *propertyCase) build(t *testing.T, rng *rand.Rand) xdr.TransactionEnvelope {
	t.Helper()
	usd := txnbuild.CreditAsset{Code: "USD", Issuer: c.issuer}
	eur := txnbuild.CreditAsset{Code: "EURC", Issuer: c.issuer}
	var ops []txnbuild.Operation
	for _, id := range c.offers {
		if rng.IntN(6) > 0 {
			ops = append(ops, &txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "0", Price: xdr.Price{N: 1, D: 2}, OfferID: id})
		}
	}
	if rng.IntN(12) == 0 {
		ops = append(ops, &txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: usd, Amount: "0", Price: xdr.Price{N: 1, D: 2}, OfferID: 999_999})
	}
	for _, a := range []txnbuild.CreditAsset{usd, eur} {
		bal, ok := c.trust[a.Code]
		if ok && bal > 0 && rng.IntN(5) > 0 {
			pay := bal
			if rng.IntN(6) == 0 {
				pay = bal + 1
			}
			dest := c.issuer
			if rng.IntN(5) == 0 {
				dest = c.dest
			}
			ops = append(ops, &txnbuild.Payment{Destination: dest, Amount: amount.StringFromInt64(pay), Asset: a})
		}
		if (ok && rng.IntN(5) > 0) || rng.IntN(15) == 0 {
			ops = append(ops, &txnbuild.ChangeTrust{Line: a.MustToChangeTrustAsset(), Limit: "0"})
		}
	}
	for _, name := range c.data {
		if rng.IntN(6) > 0 {
			ops = append(ops, &txnbuild.ManageData{Name: name})
		}
	}
	if rng.IntN(12) == 0 {
		ops = append(ops, &txnbuild.ManageData{Name: "missing"})
	}
	if rng.IntN(4) == 0 {
		ops = append(ops, &txnbuild.Payment{Destination: []string{c.dest, c.absent}[rng.IntN(2)], Amount: []string{"1", "2.5", "90"}[rng.IntN(3)], Asset: txnbuild.NativeAsset{}})
	}
	if rng.IntN(6) == 0 {
		ops = append(ops, &txnbuild.CreateAccount{Destination: []string{c.dest, c.absent}[rng.IntN(2)], Amount: []string{"0.5", "1", "5"}[rng.IntN(3)]})
	}
	if rng.IntN(8) == 0 {
		ops = append(ops, &txnbuild.SetOptions{ClearFlags: []txnbuild.AccountFlag{txnbuild.AuthRevocable}})
	}
	rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
	into := c.dest
	switch rng.IntN(10) {
	case 0:
		into = c.absent
	case 1:
		into = c.issuer
	}
	ops = append(ops, &txnbuild.AccountMerge{Destination: into})
	seq := c.seq + 1
	if rng.IntN(15) == 0 {
		seq += 1
	}
	fee := int64(100)
	if rng.IntN(20) == 0 {
		fee = 50
	}
	var memo txnbuild.Memo
	if rng.IntN(3) == 0 {
		memo = txnbuild.MemoID(rng.Uint64N(1000))
	}
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: c.closing, Sequence: seq},
		Operations:    ops,
		BaseFee:       fee,
		Memo:          memo,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
	})
	if err != nil {
		t.Fatal(err)
	}
	tx, err = tx.Sign(network.TestNetworkPassphrase, c.master)
	if err != nil {
		t.Fatal(err)
	}
	return tx.ToXDR()
}

// submit posts env to the double; code is the first failing result code
// (the transaction's, else the first operation's not a success).
func (c *propertyCase) submit(t *testing.T, env xdr.TransactionEnvelope) (int, string) {
	t.Helper()
	b64, err := xdr.MarshalBase64(env)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/transactions", strings.NewReader(url.Values{"tx": {b64}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	c.h.ServeHTTP(rec, req)
	if rec.Code == http.StatusOK {
		return rec.Code, ""
	}
	var p struct {
		Extras struct {
			ResultCodes struct {
				Transaction string   `json:"transaction"`
				Operations  []string `json:"operations"`
			} `json:"result_codes"`
		} `json:"extras"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("the double's refusal %d: %v: %s", rec.Code, err, rec.Body.String())
	}
	rc := p.Extras.ResultCodes
	if rc.Transaction != "tx_failed" {
		return rec.Code, rc.Transaction
	}
	for _, op := range rc.Operations {
		if op != "op_success" {
			return rec.Code, op
		}
	}
	return rec.Code, rc.Transaction
}

func (c *propertyCase) describe(env xdr.TransactionEnvelope) string {
	var b strings.Builder
	acc, _ := c.h.AccountState(c.closing)
	j, _ := json.Marshal(acc)
	fmt.Fprintf(&b, "closing account: %s\n", j)
	for i, op := range env.Operations() {
		fmt.Fprintf(&b, "op %d: %s\n", i, op.Body.Type)
	}
	return b.String()
}
