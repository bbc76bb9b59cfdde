package web_test

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/web"
)

// The decision first (issue 26): the page's heading and its first block say
// which account closes, where the funds go and how much, before the
// verdict, the progress and the ways to sign.

func pageOf(t *testing.T, d web.PageData) *node {
	t.Helper()
	srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	r := get(t, srv, "/plan/"+d.ID)
	if r.status != http.StatusOK {
		t.Fatalf("status %d\n%s", r.status, r.body)
	}
	return parseHTML(t, r.body)
}

// order returns the positions of the ids in document order, failing when
// one is missing.
func order(t *testing.T, doc *node, ids ...string) []int {
	t.Helper()
	pos := map[string]int{}
	i := 0
	doc.walk(func(n *node) {
		if id, ok := n.attr["id"]; ok {
			if _, seen := pos[id]; !seen {
				pos[id] = i
			}
		}
		i++
	})
	var out []int
	for _, id := range ids {
		p, ok := pos[id]
		if !ok {
			t.Fatalf("no #%s", id)
		}
		out = append(out, p)
	}
	return out
}

func inOrder(t *testing.T, doc *node, ids ...string) {
	t.Helper()
	pos := order(t, doc, ids...)
	for i := 1; i < len(pos); i++ {
		if pos[i] < pos[i-1] {
			t.Errorf("#%s comes before #%s; want the order %v", ids[i], ids[i-1], ids)
		}
	}
}

func TestDecisionComesFirst(t *testing.T) {
	d, c := samplePlan(t, nil)
	d.Preflight = ledger.PreflightRun{Preflight: ledger.Preflight{State: ledger.PreflightLandable}, Checked: now}
	d.Funds = &web.Funds{Native: 1_000_5000000, Read: now.Add(-time.Minute)}
	doc := pageOf(t, d)

	h1 := doc.byTag("h1")[0].textContent()
	if want := "Close account " + c.Closing[:5] + "\u2060…\u2060" + c.Closing[51:] + " and send its funds to " + c.Dest[:5] + "\u2060…\u2060" + c.Dest[51:] + " Testnet"; h1 != want {
		t.Errorf("h1 %q, want %q", h1, want)
	}
	inOrder(t, doc, "decision", "preflight", "status", "sep7-link", "paste", "ops", "xdr-current")
	if got := fact(t, doc.byID(t, "decision"), "Account closed"); got != c.Closing {
		t.Errorf("account closed %q", got)
	}
	if got := fact(t, doc.byID(t, "decision"), "Funds go to"); got != c.Dest {
		t.Errorf("funds go to %q", got)
	}
	// 1,000.5 XLM less the 0.00002 XLM fee less the 12.5 XLM paid to a
	// third party.
	amount := doc.byID(t, "funds-amount").textContent()
	if !strings.HasPrefix(amount, "987.99998 XLM: the balance of 1000.5 XLM read from the ledger at 2026-11-24 11:59:00 UTC, less the 0.00002 XLM fee, less what the operations below send elsewhere.") {
		t.Errorf("how much: %q", amount)
	}
	leaves := doc.byID(t, "leaves").byTag("li")
	if len(leaves) != 1 || leaves[0].textContent() != "send 12.5 XLM to "+c.Payee+" ⚠ not to the destination" {
		t.Errorf("leaves: %d %q", len(leaves), leaves[0].textContent())
	}
	// The master key is marked among the signers, in words.
	for _, li := range doc.byID(t, "signers").byTag("li") {
		master := li.attr["data-key"] == c.Closing
		if master != strings.Contains(li.textContent(), "master key") || master != (li.attr["data-master"] == "true") {
			t.Errorf("signer %s: master %v, text %q", li.attr["data-key"], master, li.textContent())
		}
	}
}

func TestDecisionWithoutABalance(t *testing.T) {
	d, _ := samplePlan(t, nil)
	doc := pageOf(t, d)
	if got := doc.byID(t, "funds-amount").textContent(); !strings.HasPrefix(got, "The account's whole XLM balance, less the 0.00002 XLM fee; the relay did not read the balance.") {
		t.Errorf("how much without a read: %q", got)
	}
}

// mediatorClose is a close through a mediator (CONTRACT section 16): op 0
// creates the mediator with 2 XLM, op 1 returns 10 USD to its issuer, the
// merge goes into the mediator.
func mediatorClose(t *testing.T) (web.PageData, string, string) {
	t.Helper()
	closing, med := ledgertest.Keypair(1), ledgertest.Keypair(7)
	usd := txnbuild.CreditAsset{Code: "USD", Issuer: ledgertest.Keypair(8).Address()}
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: closing.Address(), Sequence: 42},
		Operations: []txnbuild.Operation{
			&txnbuild.CreateAccount{Destination: med.Address(), Amount: "2"},
			&txnbuild.Payment{Destination: usd.Issuer, Amount: "10", Asset: usd},
			&txnbuild.AccountMerge{Destination: med.Address()},
		},
		BaseFee:       100,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, expiry.Unix()+60)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if tx, err = tx.Sign(network.TestNetworkPassphrase, closing); err != nil {
		t.Fatal(err)
	}
	x, _ := tx.Base64()
	h, _ := tx.Hash(network.TestNetworkPassphrase)
	return web.PageData{ID: hex.EncodeToString(h[:]), Network: ledger.Testnet, XDR: x, Expiry: expiry, Threshold: 1, Weight: 1,
		Funds: &web.Funds{Native: 500_0000000, Read: now}}, closing.Address(), med.Address()
}

// TestMediatorCloseCountsTheTwoXLM: a close through a mediator says so in
// its heading and where the funds go, counts the mediator's 2 XLM in what
// reaches it, and lists the USD that leaves.
func TestMediatorCloseCountsTheTwoXLM(t *testing.T) {
	d, closing, med := mediatorClose(t)
	doc := pageOf(t, d)
	if h1 := doc.byTag("h1")[0].textContent(); h1 != "Close account "+closing[:5]+"\u2060…\u2060"+closing[51:]+" and send its funds through a mediator Testnet" {
		t.Errorf("h1 %q", h1)
	}
	// Published without its token: the relay runs no forward, and the page
	// says so rather than promise one (issue 43 item 8).
	if got := doc.byID(t, "funds-to").textContent(); got != "a mediator, "+med+", an account this close creates with 2 XLM and merges into. This close was published without its flow token, so the relay does not forward them and this page cannot say where they go: only the wallet that minted the flow can have the mediator's forward co-signed, within the token's 15 minutes" {
		t.Errorf("funds go to %q", got)
	}
	// 500 XLM less the 0.00003 XLM fee: all of it reaches the mediator,
	// its 2 XLM starting balance included.
	if got := doc.byID(t, "funds-amount").textContent(); !strings.HasPrefix(got, "499.99997 XLM to the mediator (2 XLM of it as its starting balance): the balance of 500 XLM read from the ledger at 2026-11-24 12:00:00 UTC, less the 0.00003 XLM fee, less what the operations below send elsewhere.") {
		t.Errorf("how much %q", got)
	}
	if leaves := doc.byID(t, "leaves").byTag("li"); len(leaves) != 1 || !strings.HasPrefix(leaves[0].textContent(), "return 10 USD") {
		t.Errorf("leaves %d", len(leaves))
	}
}

// TestMediatorFlowNamesDestinationAndMemo: with the plan's flow known
// (CONTRACT section 16; PageData.Flow), the page names the committed
// destination and memo, escaped like every text from outside.
func TestMediatorFlowNamesDestinationAndMemo(t *testing.T) {
	d, closing, _ := mediatorClose(t)
	exchange := ledgertest.Keypair(9).Address()
	d.Flow = &web.Flow{Destination: exchange, Memo: `text:<script>alert(1)</script>` + "\u202e"}
	srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	r := get(t, srv, "/plan/"+d.ID)
	if strings.Contains(r.body, "<script>alert") {
		t.Fatal("the memo reached the page unescaped")
	}
	doc := parseHTML(t, r.body)
	if h1 := doc.byTag("h1")[0].textContent(); h1 != "Close account "+closing[:5]+"\u2060…\u2060"+closing[51:]+" and send its funds through a mediator to "+exchange[:5]+"\u2060…\u2060"+exchange[51:]+" Testnet" {
		t.Errorf("h1 %q", h1)
	}
	if got := doc.byID(t, "flow-destination").textContent(); got != exchange {
		t.Errorf("flow destination %q", got)
	}
	if got := doc.byID(t, "flow-memo").textContent(); got != `text: "<script>alert(1)</script>\u202e"` {
		t.Errorf("flow memo %q", got)
	}
	// The forward is a payment with the memo, then a merge of the last
	// 1 XLM, which an exchange may not credit: the page does not say
	// everything arrives with the memo.
	if got := doc.byID(t, "funds-to").textContent(); !strings.HasSuffix(got, ": a payment of all but the mediator's last 1 XLM, less the fee, with memo "+`text: "<script>alert(1)</script>\u202e"`+" (contains control or invisible characters, shown escaped), then, in the same transaction, the merge of the mediator, which carries that last 1 XLM as an account merge, which the exchange may not credit by the memo") {
		t.Errorf("funds go to %q", got)
	}
	// Without a mediator close, a flow is not claimed.
	plain, _ := samplePlan(t, nil)
	plain.Flow = &web.Flow{Destination: exchange, Memo: "id:7"}
	if strings.Contains(get(t, newServer(t, &fakePlans{plans: map[string]web.PageData{plain.ID: plain}}), "/plan/"+plain.ID).body, "flow-memo") {
		t.Error("a flow shown for a close that does not go through a mediator")
	}
}

// TestWaysToSignFollowTheState: without JavaScript the server shows the
// ways to sign (link, QR code, paste form) only while they apply, and says
// why not once the plan is ready or submitted.
func TestWaysToSignFollowTheState(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ready     bool
		sub       plan.Submission
		open      bool
		closed    string
		outcome   string
		outcomeID string
	}{
		{name: "collecting", open: true},
		{name: "ready", ready: true, closed: "Signing is over: the signatures collected reach the threshold. Nothing more is needed from co-signers."},
		{name: "pending", ready: true, sub: plan.Submission{State: "pending"}, closed: "Signing is over: the signatures collected reach the threshold. Nothing more is needed from co-signers.",
			outcome: "Submitting the close to the ledger."},
		{name: "submitted", ready: true, sub: plan.Submission{State: "submitted", Hash: strings.Repeat("ab", 32), Ledger: 77},
			closed: "Signing is over: the close has been submitted to the ledger.", outcome: "Submitted: the ledger closed the account in ledger 77. Transaction " + strings.Repeat("ab", 32)},
		{name: "failed", ready: true, sub: plan.Submission{State: "failed", Code: "tx_bad_seq"}, closed: "Signing is over: the signatures collected reach the threshold. Nothing more is needed from co-signers.",
			outcome: "The ledger refused the close (tx_bad_seq). The relay tries again when the envelope changes."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, _ := samplePlan(t, nil)
			d.Ready, d.Submission = tc.ready, tc.sub
			if tc.ready {
				d.Weight = d.Threshold
			}
			doc := pageOf(t, d)
			ways, closed := doc.byID(t, "sign-ways"), doc.byID(t, "sign-closed")
			if ways.has("hidden") == tc.open || closed.has("hidden") != tc.open {
				t.Errorf("ways hidden %v, closed hidden %v; want the ways open %v", ways.has("hidden"), closed.has("hidden"), tc.open)
			}
			if got := closed.textContent(); got != tc.closed {
				t.Errorf("closed says %q, want %q", got, tc.closed)
			}
			sub := doc.byID(t, "submission")
			if got := sub.textContent(); got != tc.outcome || sub.has("hidden") != (tc.outcome == "") {
				t.Errorf("submission %q (hidden %v), want %q", got, sub.has("hidden"), tc.outcome)
			}
		})
	}
}

// TestForwardShown: the relay's forward (CONTRACT section 16), when the
// caller knows it, is said under the submission.
func TestForwardShown(t *testing.T) {
	d, _, _ := mediatorClose(t)
	d.Ready, d.Submission = true, plan.Submission{State: "submitted", Hash: "aa", Ledger: 9}
	d.Forward = &plan.Forward{State: "forwarded", Hash: "bb", Ledger: 10, Amount: "497.9999"}
	doc := pageOf(t, d)
	if got := doc.byID(t, "forward").textContent(); got != "Forwarded: 497.9999 XLM reached the destination in ledger 10. Transaction bb" {
		t.Errorf("forward %q", got)
	}
	d.Forward = &plan.Forward{State: "failed", Code: "tx_bad_seq"}
	if got := pageOf(t, d).byID(t, "forward").textContent(); got != "The mediator's forward failed (tx_bad_seq)." {
		t.Errorf("forward failed %q", got)
	}
}

// TestDecisionEscapesAssetCodes: an asset code is bytes the publisher
// chose; in the decision's list of what leaves it stays text.
func TestDecisionEscapesAssetCodes(t *testing.T) {
	d, _ := samplePlan(t, nil)
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(d.XDR, &env); err != nil {
		t.Fatal(err)
	}
	issuer := xdr.MustAddress(ledgertest.Keypair(8).Address())
	op := &env.V1.Tx.Operations[0]
	p := op.Body.MustPaymentOp()
	p.Asset = xdr.Asset{Type: xdr.AssetTypeAssetTypeCreditAlphanum4, AlphaNum4: &xdr.AlphaNum4{AssetCode: xdr.AssetCode4{'<', 'i', '>', '"'}, Issuer: issuer}}
	op.Body.PaymentOp = &p
	x, err := xdr.MarshalBase64(env)
	if err != nil {
		t.Fatal(err)
	}
	d.XDR = x
	srv := newServer(t, &fakePlans{plans: map[string]web.PageData{d.ID: d}})
	r := get(t, srv, "/plan/"+d.ID)
	if strings.Contains(r.body, `<i>"`) {
		t.Fatal("an asset code reached the page as markup")
	}
	doc := parseHTML(t, r.body)
	if len(doc.byTag("i")) != 0 {
		t.Fatal("an <i> element from an asset code")
	}
	leaves := doc.byID(t, "leaves").byTag("li")
	if len(leaves) != 1 || !strings.Contains(leaves[0].textContent(), `<i>"`) {
		t.Errorf("leaves %d: the asset code is not shown as text", len(leaves))
	}
}

// TestOutcomeLeadsThePage: once the close has an outcome the page leads
// with it, above the decision (CONTRACT 18): a landed close says so (its
// ledger, its transaction, a flow's forward) and no longer shows the
// ledger check's "This close will land"; a blocked submission says it was
// not posted; "ready to submit" is said only of a plan that is ready, not
// blocked and not submitted (a blocked, fully signed page used to say it
// in green).
func TestOutcomeLeadsThePage(t *testing.T) {
	d, _, _ := mediatorClose(t)
	d.Ready, d.Weight = true, d.Threshold
	d.Preflight = ledger.PreflightRun{Preflight: ledger.Preflight{State: ledger.PreflightLandable}, Checked: now}
	d.Submission = plan.Submission{State: "submitted", Hash: strings.Repeat("cd", 32), Ledger: 9}
	d.Forward = &plan.Forward{State: "forwarded", Hash: "bb", Ledger: 10, Amount: "497.9999"}
	doc := pageOf(t, d)
	lead := doc.byID(t, "lead")
	if lead.has("hidden") || lead.attr["data-state"] != "submitted" ||
		lead.textContent() != "The close landed The ledger closed the account in ledger 9. Forwarded: 497.9999 XLM reached the destination in ledger 10. Transaction "+strings.Repeat("cd", 32) {
		t.Errorf("lead of a landed close: hidden %v %q", lead.has("hidden"), lead.textContent())
	}
	inOrder(t, doc, "lead", "decision")
	if n := doc.all(func(m *node) bool { return m.attr["id"] == "preflight" }); len(n) != 0 {
		t.Error("a landed close's page still shows the ledger check's forecast")
	}
	if got := doc.byID(t, "status").textContent(); got != fmt.Sprintf("Weight %d of %d: submitted", d.Threshold, d.Threshold) {
		t.Errorf("status of a landed close %q", got)
	}

	d.Forward = nil
	d.Submission = plan.Submission{State: "blocked", Code: "op_has_sub_entries"}
	d.Preflight = ledger.PreflightRun{Preflight: ledger.Preflight{State: ledger.PreflightBlocked, Blockers: []ledger.Blocker{{Op: 1, Code: "op_has_sub_entries", Reason: "a trustline"}}}, Checked: now}
	doc = pageOf(t, d)
	if lead := doc.byID(t, "lead"); lead.has("hidden") || !strings.HasPrefix(lead.textContent(), "Not submitted: this close cannot land The ledger check just before submitting found that the ledger would refuse it (op_has_sub_entries)") {
		t.Errorf("lead of a blocked submission %q", lead.textContent())
	}
	st := doc.byID(t, "status")
	if got := st.textContent(); got != fmt.Sprintf("Weight %d of %d: threshold met, but the ledger would refuse this close", d.Threshold, d.Threshold) || strings.Contains(st.attr["class"], "is-ready") {
		t.Errorf("status of a blocked, fully signed close %q (class %q)", got, st.attr["class"])
	}

	d.Submission = plan.Submission{}
	if lead := pageOf(t, d).byID(t, "lead"); !lead.has("hidden") || lead.textContent() != "" {
		t.Errorf("lead before an outcome: hidden %v %q", lead.has("hidden"), lead.textContent())
	}
}
