package ledgertest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
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
//
// Issue 38 adds the transaction's own rules (time and ledger bounds,
// min_seq_num, min_seq_age and min_seq_ledger_gap, bump_sequence, an
// account whose sequence number is far ahead) and answers that contradict
// themselves: the preflight runs as the relay runs it (the reads, their
// validation, then the rules), and such an answer is unchecked, never a
// verdict.
func TestPreflightAgreesWithTheDouble(t *testing.T) {
	const cases = 3000
	rng := rand.New(rand.NewPCG(21, 14))
	var a agreement
	for n := range cases {
		c := newPropertyCase(t, rng)
		a.check(t, n, c, c.build(t, rng))
	}
	t.Logf("%d cases: %s", cases, a)
	if a.landed < cases/10 || a.refused < cases/10 || a.uncertain > cases/5 || a.unchecked < cases/100 {
		t.Errorf("the generator is lopsided: %d landed, %d refused, %d uncertain, %d unchecked of %d", a.landed, a.refused, a.uncertain, a.unchecked, cases)
	}
	for _, code := range []string{"tx_too_early", "tx_too_late", "tx_bad_minseq_age_or_gap", "op_seq_num_too_far", "tx_bad_seq"} {
		if a.codes[code] == 0 {
			t.Errorf("no case refused with %s: %v", code, a.codes)
		}
	}
}

// TestPreflightAgreesWithTheDoubleOnPoolsAndClaims is the property of
// TestPreflightAgreesWithTheDouble with issue 38's pool share (removed
// before its asset's trustline, after it, or not at all) and claimable
// balances (claimed once, twice or not; claimable, or not at all) drawn
// into the cases, under both backends (issue 38 items 6 and 7).
func TestPreflightAgreesWithTheDoubleOnPoolsAndClaims(t *testing.T) {
	const cases = 1500
	rng := rand.New(rand.NewPCG(38, 67))
	var a agreement
	for n := range cases {
		c := newPropertyCase(t, rng, withPoolsAndClaims)
		env := c.build(t, rng)
		if !c.contradicts {
			if got, want := verdict(c.h.PreflightRPC(env).Preflight), verdict(c.h.Preflight(env).Preflight); got != want {
				t.Fatalf("case %d: through RPC %s, through Horizon %s\n%s", n, got, want, c.describe(env))
			}
		}
		a.check(t, n, c, env)
	}
	t.Logf("%d cases: %s", cases, a)
	if a.landed == 0 || a.refused == 0 {
		t.Errorf("no case landed or none was refused: %s", a)
	}
	for _, code := range []string{"op_cannot_delete", "op_cannot_claim", "op_does_not_exist"} {
		if a.codes[code] == 0 {
			t.Errorf("no case refused with %s: %v", code, a.codes)
		}
	}
}

// agreement counts how a property's cases went: each checked, with check,
// against the double's answer.
type agreement struct {
	landed, refused, memo, uncertain, unchecked int
	codes                                       map[string]int // the refusals, by code
}

func (a agreement) String() string {
	return fmt.Sprintf("%d landed, %d refused with the same code, %d uncertain, %d unchecked, %d memo_required blockers; refused with: %v", a.landed, a.refused, a.uncertain, a.unchecked, a.memo, a.codes)
}

// check runs the preflight of case n's close env as the relay runs it
// (through Horizon) and fails the test unless the double agrees: landable
// when it applies the close, blocked with the same first code when it
// refuses it, unchecked exactly on an answer that contradicts itself.
func (a *agreement) check(t *testing.T, n int, c *propertyCase, env xdr.TransactionEnvelope) {
	t.Helper()
	if a.codes == nil {
		a.codes = map[string]int{}
	}
	run := c.h.Preflight(env)
	got := run.Preflight
	if c.contradicts {
		if got.State != ledger.PreflightUnchecked {
			t.Fatalf("case %d: an answer that contradicts itself gave %s %+v, want unchecked\n%s", n, got.State, got.Blockers, c.describe(env))
		}
		a.unchecked++
		return
	}
	ledgerBlockers := got.Blockers[:0:0]
	for _, b := range got.Blockers {
		if b.Code != ledger.MemoRequired {
			ledgerBlockers = append(ledgerBlockers, b)
		} else {
			a.memo++
		}
	}
	state := got.State
	if state == ledger.PreflightBlocked && len(ledgerBlockers) == 0 {
		// SEP-29's blockers only: the ledger's own verdict is the
		// preflight's without them (landable, or uncertain).
		state = ledger.CheckClose(env, withoutMemoRequired(c.read(t), c.closing)).State
	}
	status, code := c.submit(t, env)
	if (code == "tx_too_early" || code == "tx_bad_minseq_age_or_gap") && len(ledgerBlockers) > 0 && ledgerBlockers[0].Code != code {
		// A bound the close waits for, and something else that stops
		// it once reached: the ledger's answer then.
		c.reachBounds(env, ledgerBlockers[0].Code != "op_seq_num_too_far")
		status, code = c.submit(t, env)
	}

	switch {
	case state == ledger.PreflightUnchecked:
		t.Fatalf("case %d: unchecked on answers that hold together\n%s", n, c.describe(env))
	case state == ledger.PreflightUncertain:
		a.uncertain++
	case len(ledgerBlockers) == 0:
		if status != http.StatusOK {
			t.Fatalf("case %d: preflight %s %+v, the double refused with %s\n%s", n, got.State, got.Blockers, code, c.describe(env))
		}
		a.landed++
	default:
		if status == http.StatusOK || code != ledgerBlockers[0].Code {
			t.Fatalf("case %d: preflight blocked by %+v, the double answered %d %s\n%s", n, ledgerBlockers, status, code, c.describe(env))
		}
		a.codes[code]++
		a.refused++
	}
}

// propertyNow is the double's clock in the property tests: time bounds are
// drawn around it.
var propertyNow = time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)

type propertyCase struct {
	h                             *ledgertest.Handler
	master                        *keypair.Full
	closing, dest, issuer, absent string
	usd, eur                      xdr.Asset
	offers                        []int64
	trust                         map[string]int64 // asset code → balance
	data                          []string
	seq                           int64
	pool                          bool       // it holds a USD/XLM pool share (issue 38 item 6)
	claims                        []string   // claimable balances a close may claim (issue 38 item 7)
	x                             *rand.Rand // the pool share's and the claims' own draws
	// contradicts: the double answers, as Horizon, an account that
	// contradicts itself (a count below what it lists, a negative count,
	// no native balance).
	contradicts bool
}

// caseOption draws more into a property case.
type caseOption int

// withPoolsAndClaims: a pool share, and claimable balances for the
// account (issue 38 items 6 and 7).
const withPoolsAndClaims caseOption = 1

func newPropertyCase(t *testing.T, rng *rand.Rand, opts ...caseOption) *propertyCase {
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
	// Balances the reserve cannot cover, and ones that can: the
	// transaction's rules below refuse closes too, so enough must be
	// able to land.
	c.h.Fund(c.closing, []int64{2 * xlm, 3 * xlm, 10 * xlm, 100 * xlm, 100 * xlm, 100 * xlm, 2*xlm + 300}[rng.IntN(7)])
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
	c.h.SetClock(func() time.Time { return propertyNow })
	if len(opts) > 0 && opts[0] == withPoolsAndClaims {
		c.poolsAndClaims(xlm)
	}
	switch rng.IntN(30) {
	case 0:
		// Far ahead: a merge in the next ledger fails (op_seq_num_too_far).
		c.h.SetSequence(c.closing, 100<<32)
	case 1, 2:
		// The sequence number changed half a minute ago, in ledger 1: the
		// ledger min_seq_age and min_seq_ledger_gap count from.
		c.h.SetSequenceChange(c.closing, 1, uint64(propertyNow.Unix()-30))
	}
	acc, _ := c.h.AccountState(c.closing)
	c.seq = acc.Sequence
	if rng.IntN(60) == 0 {
		c.contradicts = true
		switch rng.IntN(3) {
		case 0:
			// Fewer sub-entries than listed: a data entry not counted (an
			// answer set as given lists no offers).
			if acc.Data == nil {
				acc.Data = map[string]string{}
			}
			acc.Data["uncounted"] = "eA=="
			acc.SubentryCount = int32(len(acc.Balances) - 1 + len(acc.Data) + len(acc.Signers) - 1 - 1)
		case 1:
			acc.SubentryCount = -1 - rng.Int32N(5)
		default:
			acc.Balances = slices.DeleteFunc(acc.Balances, func(b horizon.Balance) bool { return b.Type == "native" })
		}
		c.h.SetAccountDetail(acc)
	}
	return c
}

// poolsAndClaims gives the closing account, from c's own stream of draws
// (so that the cases' other draws are TestPreflightAgreesWithTheDouble's),
// a USD/XLM pool share when it trusts USD, and native claimable balances:
// claimable throughout, ended, until within the window (uncertain), until
// after it, or another's; sponsored by the issuer or by the account.
func (c *propertyCase) poolsAndClaims(xlm int64) {
	x := rand.New(rand.NewPCG(propertySeq.Add(1), 38))
	c.x = x
	if _, ok := c.trust["USD"]; ok && x.IntN(3) == 0 {
		c.h.AddTrustline(c.closing, ledgertest.Trustline{Pool: &ledgertest.Pool{A: c.usd, B: ledgertest.Native()}})
		c.pool = true
	}
	for range []int{0, 1, 1, 2}[x.IntN(4)] {
		who := c.closing
		if x.IntN(10) == 0 {
			who = c.dest
		}
		pred := txnbuild.UnconditionalPredicate
		switch x.IntN(12) {
		case 0:
			pred = txnbuild.BeforeAbsoluteTimePredicate(propertyNow.Unix() - 60)
		case 1:
			pred = txnbuild.BeforeAbsoluteTimePredicate(propertyNow.Unix() + 100*3600)
		case 2:
			pred = txnbuild.BeforeRelativeTimePredicate(3600)
		}
		sponsor := c.issuer
		if x.IntN(4) == 0 {
			sponsor = c.closing
		}
		c.claims = append(c.claims, c.h.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: xlm, Sponsor: sponsor,
			Claimants: []ledgertest.Claimant{{Destination: who, Predicate: pred}}}))
	}
}

// propertySeq numbers the cases' own streams (propertyCase.x).
var propertySeq atomic.Uint64

// poolAndClaims adds to ops, from c's own stream, the removal of the pool
// share (mostly before the USD trustline's, sometimes after:
// op_cannot_delete) and the claims (mostly once each, sometimes never or
// twice: op_does_not_exist).
func (c *propertyCase) poolAndClaims(ops []txnbuild.Operation, usd txnbuild.CreditAsset) []txnbuild.Operation {
	if c.x == nil {
		return ops
	}
	if c.pool && c.x.IntN(10) > 0 {
		pool := txnbuild.LiquidityPoolShareChangeTrustAsset{LiquidityPoolParameters: txnbuild.LiquidityPoolParameters{AssetA: txnbuild.NativeAsset{}, AssetB: usd, Fee: txnbuild.LiquidityPoolFeeV18}}
		at := slices.IndexFunc(ops, func(op txnbuild.Operation) bool {
			ct, ok := op.(*txnbuild.ChangeTrust)
			return ok && ct.Line == usd.MustToChangeTrustAsset()
		})
		if at < 0 || c.x.IntN(8) == 0 {
			at = c.x.IntN(len(ops) + 1)
		}
		ops = slices.Insert(ops, at, txnbuild.Operation(&txnbuild.ChangeTrust{Line: pool, Limit: "0"}))
	}
	for _, id := range c.claims {
		for range []int{0, 2, 1, 1, 1, 1}[c.x.IntN(6)] {
			ops = slices.Insert(ops, c.x.IntN(len(ops)+1), txnbuild.Operation(&txnbuild.ClaimClaimableBalance{BalanceID: id}))
		}
	}
	return ops
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
	ops = c.poolAndClaims(ops, usd)
	into := c.dest
	switch rng.IntN(10) {
	case 0:
		into = c.absent
	case 1:
		into = c.issuer
	}
	if rng.IntN(14) == 0 {
		// bump_sequence before the merge: below (nothing), ahead within
		// reach, or far ahead (op_seq_num_too_far).
		ops = append(ops, &txnbuild.BumpSequence{BumpTo: []int64{50, c.seq + 10, 100 << 32}[rng.IntN(3)]})
	}
	ops = append(ops, &txnbuild.AccountMerge{Destination: into})
	seq := c.seq + 1
	if rng.IntN(15) == 0 {
		seq += 1
	}
	pre := txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()}
	now, hour := propertyNow.Unix(), int64(time.Hour/time.Second)
	if rng.IntN(14) == 0 {
		// Around the double's clock: reached, within the window, past it;
		// until never, later, or already passed.
		pre.TimeBounds = txnbuild.NewTimebounds([]int64{0, now - hour, now - hour, now - hour, now + hour, now + 80*hour}[rng.IntN(6)], []int64{0, 0, now + 2*hour, now + 2*hour, now + 2*hour, now - 10}[rng.IntN(6)])
		if pre.TimeBounds.MaxTime != 0 && pre.TimeBounds.MinTime > pre.TimeBounds.MaxTime {
			pre.TimeBounds.MaxTime = 0
		}
	}
	if rng.IntN(14) == 0 {
		// The double's latest ledger is 1: the next is 2.
		pre.LedgerBounds = &txnbuild.LedgerBounds{
			MinLedger: []uint32{0, 0, 2, 2, 100, 1_000_000}[rng.IntN(6)],
			MaxLedger: []uint32{0, 0, 3, 50, 50, 2}[rng.IntN(6)],
		}
		if lb := pre.LedgerBounds; lb.MaxLedger != 0 && lb.MinLedger > lb.MaxLedger {
			lb.MaxLedger = 0
		}
	}
	if rng.IntN(16) == 0 {
		// min_seq_num: the close's number past the account's next one.
		seq = c.seq + 3
		min := c.seq + []int64{-5, -5, 0, 1, 3}[rng.IntN(5)]
		pre.MinSequenceNumber = &min
	}
	if rng.IntN(16) == 0 {
		pre.MinSequenceNumberAge = []uint64{0, 10, 10, uint64(hour), uint64(80 * hour)}[rng.IntN(5)]
		pre.MinSequenceNumberLedgerGap = []uint32{0, 1, 1, 100, 1_000_000}[rng.IntN(5)]
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
		Preconditions: pre,
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

// withoutMemoRequired is s without the config.memo_required entries of the
// accounts other than closing: what the ledger's rules see of it.
func withoutMemoRequired(s ledger.LedgerState, closing string) ledger.LedgerState {
	for id, a := range s.Accounts {
		if a != nil && id != closing && a.MemoRequiredBy() {
			c := *a
			c.Data = maps.Clone(a.Data)
			delete(c.Data, "config.memo_required")
			c.NumSubEntries--
			s.Accounts[id] = &c
		}
	}
	return s
}

// reachBounds moves the double's clock and ledger to where env's min_time,
// min_ledger, min_seq_age and min_seq_ledger_gap are reached and, with
// merge, to a ledger whose starting sequence number is past the account's
// after env (and its bump_sequence), where the preflight left the merge's
// sequence rule to a later ledger; each as far as the plan's window
// reaches (a bound past it is the preflight's blocker, and stays unmet).
// A close applied and failed cannot be tried again, so the double moves
// once, before the one try.
func (c *propertyCase) reachBounds(env xdr.TransactionEnvelope, merge bool) {
	at, next := uint64(propertyNow.Unix()), uint64(2) // the double's latest ledger is 1
	end, last := at+uint64(ledger.SigningWindow/time.Second), 1+uint64(ledger.WindowLedgers)
	acc, _ := c.h.AccountState(c.closing)
	seqTime, _ := strconv.ParseUint(acc.SequenceTime, 10, 64)
	toTime := func(t uint64) {
		if t <= end {
			at = max(at, t)
		}
	}
	toLedger := func(l uint64) {
		if l <= last {
			next = max(next, l)
		}
	}
	if tb := env.TimeBounds(); tb != nil {
		toTime(uint64(tb.MinTime))
	}
	if a := env.MinSeqAge(); a != nil {
		toTime(seqTime + uint64(*a))
	}
	if lb := env.LedgerBounds(); lb != nil {
		toLedger(uint64(lb.MinLedger))
	}
	if g := env.MinSeqLedgerGap(); g != nil {
		toLedger(uint64(acc.SequenceLedger) + uint64(*g))
	}
	if merge {
		seq := env.SeqNum()
		for _, op := range env.Operations() {
			if op.Body.Type == xdr.OperationTypeBumpSequence {
				seq = max(seq, int64(op.Body.MustBumpSequenceOp().BumpTo))
			}
		}
		toLedger(uint64(seq>>32) + 1)
	}
	c.h.SetClock(func() time.Time { return time.Unix(int64(at), 0) })
	c.h.CloseLedgers(int32(next - 2))
}

func (c *propertyCase) describe(env xdr.TransactionEnvelope) string {
	var b strings.Builder
	acc, _ := c.h.AccountState(c.closing)
	j, _ := json.Marshal(acc)
	fmt.Fprintf(&b, "closing account: %s\n", j)
	if env.Type == xdr.EnvelopeTypeEnvelopeTypeTx {
		cond, _ := json.Marshal(env.V1.Tx.Cond)
		fmt.Fprintf(&b, "preconditions: %s (the double's clock %d)\n", cond, propertyNow.Unix())
	}
	for i, op := range env.Operations() {
		fmt.Fprintf(&b, "op %d: %s\n", i, op.Body.Type)
	}
	return b.String()
}
