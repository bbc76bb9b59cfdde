package httpapi_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The preflight through the relay's real listener (CONTRACT section 14):
// for each blocker code, publish answers 200, GET /status carries the
// verdict with the blocker and its reason, and the sign answer and every
// event carry landable. The double applies the same close with
// stellar-core's rules, so each case also checks what the ledger would do.

type pfStatus struct {
	Preflight *struct {
		State    string `json:"state"`
		Blockers []struct {
			Op     int    `json:"op"`
			Code   string `json:"code"`
			Reason string `json:"reason"`
		} `json:"blockers"`
		Checked string `json:"checked"`
	} `json:"preflight"`
	Submission *struct {
		State string `json:"state"`
		Code  string `json:"code"`
	} `json:"submission"`
}

func pfGetStatus(t *testing.T, r *testRelay, id string) pfStatus {
	t.Helper()
	res := send(t, r.Client, http.MethodGet, r.URL+"/api/plan/"+id+"/status", nil, nil)
	if res.status != http.StatusOK {
		t.Fatalf("status: %d %s", res.status, res.body)
	}
	checkSchema(t, "StatusOK", res.body)
	var s pfStatus
	if err := json.Unmarshal(res.body, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// pfWorld is an account of two signers (threshold 2), funded, at sequence
// 100, and a destination the ledger holds.
type pfWorld struct {
	acct   ledgertest.Account
	dest   string
	issuer string
}

func pfNew(r *testRelay) pfWorld {
	w := pfWorld{acct: ledgertest.NewAccount(2, 1), dest: keypair.MustRandom().Address(), issuer: keypair.MustRandom().Address()}
	w.acct.Thresholds.HighThreshold = 2
	r.Horizon.AddAccount(w.acct)
	r.Horizon.SetSequence(w.acct.Address, 100)
	r.Horizon.Fund(w.dest, 10_0000000)
	r.Horizon.Fund(w.issuer, 10_0000000)
	return w
}

// close is the account's close of ops then the merge into into, signed by
// its first signer (not enough alone).
func (w pfWorld) close(t *testing.T, seq int64, into string, ops ...txnbuild.Operation) (string, string) {
	t.Helper()
	ops = append(ops, &txnbuild.AccountMerge{Destination: into})
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: w.acct.Address, Sequence: seq},
		Operations:    ops, BaseFee: 100,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewTimeout(3600)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if tx, err = tx.Sign(network.TestNetworkPassphrase, w.acct.Keys[0]); err != nil {
		t.Fatal(err)
	}
	x, err := tx.Base64()
	if err != nil {
		t.Fatal(err)
	}
	id, err := tx.HashHex(network.TestNetworkPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	return x, id
}

func TestPreflightVerdictsThroughTheRelay(t *testing.T) {
	eachLedgerAPI(t, testPreflightVerdicts)
}

// testPreflightVerdicts runs under each ledger API: Horizon lists what the
// account holds, Stellar RPC reads what the close names; the verdicts are
// the same (CONTRACT section 15).
func testPreflightVerdicts(t *testing.T, api string) {
	r := startRelayAPI(t, api, httpapi.Options{}, 0, nil)
	for _, tc := range []struct {
		name   string
		setup  func(w pfWorld) (seq int64, into string, ops []txnbuild.Operation)
		state  string
		code   string // the first blocker's
		reason string // a part of its reason
	}{
		{"landable", func(w pfWorld) (int64, string, []txnbuild.Operation) { return 101, w.dest, nil }, "landable", "", ""},
		{"sub-entries", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			usd := ledgertest.Credit("USD", w.issuer)
			r.Horizon.AddTrustline(w.acct.Address, ledgertest.Trustline{Asset: usd, Balance: 50_0000000})
			r.Horizon.AddOffer(w.acct.Address, ledgertest.Offer{Selling: usd, Buying: ledgertest.Native(), Amount: 1_0000000, Price: xdr.Price{N: 1, D: 1}})
			r.Horizon.SetData(w.acct.Address, "note", []byte("x"), "")
			return 101, w.dest, nil
		}, "blocked", "op_has_sub_entries", "USD ("},
		{"no account", func(w pfWorld) (int64, string, []txnbuild.Operation) { return 101, keypair.MustRandom().Address(), nil }, "blocked", "op_no_account", "does not exist"},
		{"immutable", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			r.Horizon.SetFlags(w.acct.Address, uint32(xdr.AccountFlagsAuthImmutableFlag))
			return 101, w.dest, nil
		}, "blocked", "op_immutable_set", "AUTH_IMMUTABLE"},
		{"sponsor", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			r.Horizon.SetSponsorship(w.acct.Address, 2, 0)
			return 101, w.dest, nil
		}, "blocked", "op_is_sponsor", "2 entries"},
		{"bad seq", func(w pfWorld) (int64, string, []txnbuild.Operation) { return 105, w.dest, nil }, "blocked", "tx_bad_seq", "used since"},
		{"memo required", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			r.Horizon.SetData(w.dest, "config.memo_required", []byte("1"), "")
			return 101, w.dest, nil
		}, "blocked", "memo_required", "requires a memo"},
		{"insufficient balance", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			a, _ := r.Horizon.AccountState(w.acct.Address)
			// Its reserve, (2 + sub-entries) × 0.5 XLM, and 50 stroops:
			// less than the fee bid of 100.
			r.Horizon.SetBalance(w.acct.Address, (2+int64(a.SubentryCount))*5_000_000+50)
			return 101, w.dest, nil
		}, "blocked", "tx_insufficient_balance", "fee bid"},
		{"payment underfunded", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			return 101, w.dest, []txnbuild.Operation{&txnbuild.Payment{Destination: w.dest, Amount: "1000000", Asset: txnbuild.NativeAsset{}}}
		}, "blocked", "op_underfunded", "available"},
		{"trustline not empty", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			usd := txnbuild.CreditAsset{Code: "USD", Issuer: w.issuer}
			r.Horizon.AddTrustline(w.acct.Address, ledgertest.Trustline{Asset: ledgertest.Credit("USD", w.issuer), Balance: 1})
			return 101, w.dest, []txnbuild.Operation{&txnbuild.ChangeTrust{Line: usd.MustToChangeTrustAsset(), Limit: "0"}}
		}, "blocked", "op_invalid_limit", "can only be removed empty"},
		{"offer not found", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			return 101, w.dest, []txnbuild.Operation{&txnbuild.ManageSellOffer{Selling: txnbuild.NativeAsset{}, Buying: txnbuild.CreditAsset{Code: "USD", Issuer: w.issuer}, Amount: "0", Price: xdr.Price{N: 1, D: 1}, OfferID: 77}}
		}, "blocked", "op_offer_not_found", "no offer 77"},
		{"data name not found", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			return 101, w.dest, []txnbuild.Operation{&txnbuild.ManageData{Name: "gone"}}
		}, "blocked", "op_data_name_not_found", `"gone"`},
		{"create an account that exists", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			return 101, w.dest, []txnbuild.Operation{&txnbuild.CreateAccount{Destination: w.issuer, Amount: "2"}}
		}, "blocked", "op_already_exists", "already exists"},
		// Issue 38 items 6 and 7: a claim read by id, pool shares' use.
		{"claim, then merge", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			id := r.Horizon.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: 3_0000000, Claimants: []ledgertest.Claimant{{Destination: w.acct.Address, Predicate: txnbuild.UnconditionalPredicate}}})
			return 101, w.dest, []txnbuild.Operation{&txnbuild.ClaimClaimableBalance{BalanceID: id}}
		}, "landable", "", ""},
		{"claim of another claimant", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			id := r.Horizon.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: 3_0000000, Claimants: []ledgertest.Claimant{{Destination: w.dest, Predicate: txnbuild.UnconditionalPredicate}}})
			return 101, w.dest, []txnbuild.Operation{&txnbuild.ClaimClaimableBalance{BalanceID: id}}
		}, "blocked", "op_cannot_claim", "not a claimant"},
		{"claim twice", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			id := r.Horizon.AddClaimableBalance(ledgertest.ClaimableBalance{Asset: ledgertest.Native(), Amount: 3_0000000, Claimants: []ledgertest.Claimant{{Destination: w.acct.Address, Predicate: txnbuild.UnconditionalPredicate}}})
			return 101, w.dest, []txnbuild.Operation{&txnbuild.ClaimClaimableBalance{BalanceID: id}, &txnbuild.ClaimClaimableBalance{BalanceID: id}}
		}, "blocked", "op_does_not_exist", "does not exist"},
		{"a trustline a pool share uses", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			usd := ledgertest.Credit("USD", w.issuer)
			r.Horizon.AddTrustline(w.acct.Address, ledgertest.Trustline{Asset: usd})
			r.Horizon.AddTrustline(w.acct.Address, ledgertest.Trustline{Pool: &ledgertest.Pool{A: usd, B: ledgertest.Native()}})
			line := txnbuild.CreditAsset{Code: "USD", Issuer: w.issuer}
			return 101, w.dest, []txnbuild.Operation{&txnbuild.ChangeTrust{Line: line.MustToChangeTrustAsset(), Limit: "0"}}
		}, "blocked", "op_cannot_delete", "pool shares"},
		{"a pool share, then its asset's trustline", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			usd := ledgertest.Credit("USD", w.issuer)
			r.Horizon.AddTrustline(w.acct.Address, ledgertest.Trustline{Asset: usd})
			r.Horizon.AddTrustline(w.acct.Address, ledgertest.Trustline{Pool: &ledgertest.Pool{A: usd, B: ledgertest.Native()}})
			line := txnbuild.CreditAsset{Code: "USD", Issuer: w.issuer}
			pool := txnbuild.LiquidityPoolShareChangeTrustAsset{LiquidityPoolParameters: txnbuild.LiquidityPoolParameters{AssetA: txnbuild.NativeAsset{}, AssetB: line, Fee: txnbuild.LiquidityPoolFeeV18}}
			return 101, w.dest, []txnbuild.Operation{&txnbuild.ChangeTrust{Line: pool, Limit: "0"}, &txnbuild.ChangeTrust{Line: line.MustToChangeTrustAsset(), Limit: "0"}}
		}, "landable", "", ""},
		{"uncertain", func(w pfWorld) (int64, string, []txnbuild.Operation) {
			return 101, w.dest, []txnbuild.Operation{&txnbuild.PathPaymentStrictSend{SendAsset: txnbuild.NativeAsset{}, SendAmount: "1", Destination: w.dest, DestAsset: txnbuild.NativeAsset{}, DestMin: "1"}}
		}, "uncertain", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := pfNew(r)
			seq, into, ops := tc.setup(w)
			x, id := w.close(t, seq, into, ops...)
			ssePublish(t, r.Client, r.URL, x)

			st := pfGetStatus(t, r, id)
			p := st.Preflight
			if p == nil || p.State != tc.state {
				t.Fatalf("status.preflight = %+v, want %s", p, tc.state)
			}
			if _, err := time.Parse(time.RFC3339, p.Checked); err != nil || !strings.HasSuffix(p.Checked, "Z") {
				t.Errorf("checked %q is not RFC 3339 in UTC", p.Checked)
			}
			reason := tc.reason
			if api == "rpc" && tc.code == "op_has_sub_entries" {
				// RPC reads entries by key: it counts what it cannot name.
				reason = "3 sub-entries the ledger API did not list"
			}
			switch {
			case tc.code == "" && len(p.Blockers) != 0:
				t.Errorf("%s with blockers %+v", p.State, p.Blockers)
			case tc.code != "" && (len(p.Blockers) == 0 || p.Blockers[0].Code != tc.code || !strings.Contains(p.Blockers[0].Reason, reason)):
				t.Errorf("blockers %+v, want first %s naming %q", p.Blockers, tc.code, reason)
			}

			// landable: true, false or null, in the stream and the sign answer.
			want := map[string]string{"landable": "true", "blocked": "false", "uncertain": "null"}[tc.state]
			s := sseOpen(t, r.Client, r.URL, id, nil)
			ev := s.next(t, time.Minute)
			var data map[string]json.RawMessage
			if err := json.Unmarshal([]byte(ev.Data), &data); err != nil || string(data["landable"]) != want {
				t.Errorf("event landable = %s, want %s", data["landable"], want)
			}
			partial := ledgertest.SignXDR(ledgertest.StripSignatures(x), network.TestNetworkPassphrase, w.acct.Keys[1])
			code, body, err := ssePost(t.Context(), r.Client, r.URL+"/api/plan/"+id+"/sign", map[string]string{"xdr": partial})
			if err != nil || code != http.StatusOK {
				t.Fatalf("sign: %d %s %v", code, body, err)
			}
			var signed map[string]json.RawMessage
			if err := json.Unmarshal(body, &signed); err != nil || string(signed["landable"]) != want {
				t.Errorf("sign answer landable = %s, want %s", signed["landable"], want)
			}
			s.Close()
		})
	}
}

// TestPreflightUncheckedNeverFailsThePublish: an account API answer whose
// balances do not parse leaves guard 6 its signers, and the preflight
// unchecked: the publish answers 200, landable is null.
func TestPreflightUncheckedNeverFailsThePublish(t *testing.T) {
	r := startRelay(t, httpapi.Options{}, 0, nil)
	w := pfNew(r)
	d, _ := r.Horizon.AccountState(w.acct.Address)
	d.Balances[len(d.Balances)-1].Balance = "lots"
	r.Horizon.SetAccountDetail(d)
	x, id := w.close(t, 101, w.dest)
	ssePublish(t, r.Client, r.URL, x)
	if p := pfGetStatus(t, r, id).Preflight; p == nil || p.State != "unchecked" || len(p.Blockers) != 0 {
		t.Fatalf("status.preflight = %+v, want unchecked", p)
	}
}

// TestBlockedCloseIsNeverPosted: a close published with submit whose
// preflight finds it blocked reaches its threshold, and is not posted: the
// submission is blocked with the blocker's code, told as submit_failed,
// and the ledger never saw it.
func TestBlockedCloseIsNeverPosted(t *testing.T) {
	eachLedgerAPI(t, testBlockedCloseIsNeverPosted)
}

func testBlockedCloseIsNeverPosted(t *testing.T, api string) {
	r := startRelayAPI(t, api, httpapi.Options{}, 0, nil)
	w := pfNew(r)
	r.Horizon.SetData(w.acct.Address, "note", []byte("x"), "")
	x, id := w.close(t, 101, w.dest)
	if res := sbPublish(t, r.Client, r.URL, x, map[string]any{"submit": true}); res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	s := sseOpen(t, r.Client, r.URL, id, nil)
	partial := ledgertest.SignXDR(ledgertest.StripSignatures(x), network.TestNetworkPassphrase, w.acct.Keys[1])
	sseSign(t, r.Client, r.URL, id, partial)
	ev := sbNext(t, s)
	if ev.Type != "submit_failed" || !strings.Contains(ev.Data, `"code":"op_has_sub_entries"`) {
		t.Fatalf("event %s %s, want submit_failed with op_has_sub_entries", ev.Type, ev.Data)
	}
	st := pfGetStatus(t, r, id)
	if st.Submission == nil || st.Submission.State != "blocked" || st.Submission.Code != "op_has_sub_entries" {
		t.Errorf("status.submission = %+v, want blocked op_has_sub_entries", st.Submission)
	}
	if n := r.Horizon.Submissions(); n != 0 {
		t.Errorf("%d submissions of a blocked close, want none", n)
	}
	s.Close()
	// A stream opened after the submission was found blocked is told its
	// outcome right after the state too (docs/API.md section 4); it used
	// to get the state, pings and expired only.
	later := sseOpen(t, r.Client, r.URL, id, nil)
	defer later.Close()
	if ev := sbNext(t, later); ev.Type != "submit_failed" || !strings.Contains(ev.Data, `"code":"op_has_sub_entries"`) {
		t.Fatalf("a later stream's second event %s %s, want submit_failed with op_has_sub_entries", ev.Type, ev.Data)
	}
}

// offersFault is the double's Horizon face with its offers route broken:
// answered 404, or never answered until the caller gives up.
type offersFault struct {
	next http.RoundTripper
	hang bool
}

func (f offersFault) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.URL.Path, "/offers") {
		return f.next.RoundTrip(req)
	}
	if f.hang {
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	rec := httptest.NewRecorder()
	rec.WriteHeader(http.StatusNotFound)
	return rec.Result(), nil
}

// TestPreflightReadFailuresNeverFailThePublish: the offers answering 404,
// or never, leave the preflight unchecked and the publish answered 200
// (CONTRACT section 14); never a 5xx. That the reads end at the account
// API's timeout is ledgerapi's TestStateIsBoundedByTheTimeout, in fake time.
func TestPreflightReadFailuresNeverFailThePublish(t *testing.T) {
	for _, hang := range []bool{false, true} {
		t.Run(map[bool]string{false: "404", true: "hang"}[hang], func(t *testing.T) {
			h := ledgertest.New()
			t.Cleanup(h.Close)
			w := pfWorld{acct: ledgertest.NewAccount(2, 1), dest: keypair.MustRandom().Address()}
			h.AddAccount(w.acct)
			h.SetSequence(w.acct.Address, 100)
			h.Fund(w.dest, 10_0000000)
			st, body := pfPublishThrough(t, w, offersFault{next: h.Handler().Transport(), hang: hang})
			if st.Preflight == nil || st.Preflight.State != "unchecked" {
				t.Errorf("status.preflight = %s, want unchecked", body)
			}
		})
	}
}

// offersLoop is the double's Horizon face with its offers route answering
// the first page whatever the cursor: an account API that pages in a loop.
type offersLoop struct{ next http.RoundTripper }

func (f offersLoop) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.URL.Path, "/offers") {
		q := req.URL.Query()
		q.Del("cursor")
		req = req.Clone(req.Context())
		req.URL.RawQuery = q.Encode()
	}
	return f.next.RoundTrip(req)
}

// TestPreflightOffersListingThatLoops: offers paging that never moves on
// (the first page of the account's 200 offers, whatever the cursor) ends
// the listing and leaves the preflight unchecked; it used to read 1,000
// offers, five copies of 200, and put every copy's id in the blocker's
// reason (issue 39 item 8).
func TestPreflightOffersListingThatLoops(t *testing.T) {
	h := ledgertest.New()
	t.Cleanup(h.Close)
	w := pfWorld{acct: ledgertest.NewAccount(2, 1), dest: keypair.MustRandom().Address()}
	h.AddAccount(w.acct)
	h.SetSequence(w.acct.Address, 100)
	h.Fund(w.dest, 10_0000000)
	usd := ledgertest.Credit("USD", keypair.MustRandom().Address())
	h.AddTrustline(w.acct.Address, ledgertest.Trustline{Asset: usd})
	for range 200 {
		h.AddOffer(w.acct.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: usd, Amount: 10, Price: xdr.Price{N: 1, D: 1}})
	}
	st, body := pfPublishThrough(t, w, offersLoop{next: h.Handler().Transport()})
	if st.Preflight == nil || st.Preflight.State != "unchecked" || len(st.Preflight.Blockers) != 0 {
		t.Errorf("status.preflight = %.600s, want unchecked", body)
	}
}

// pfPublishThrough starts a relay whose Horizon face is rt (the double's,
// altered), publishes w's close of sequence 101 and answers its status.
func pfPublishThrough(t *testing.T, w pfWorld, rt http.RoundTripper) (pfStatus, []byte) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	so := serverOptions(httpapi.Options{})
	so.Config.OpsAddr = "127.0.0.1:0"
	so.Config.HorizonTimeout = 2 * time.Second
	urls := map[ledger.Network]string{ledger.Testnet: "http://ledgertest.invalid"}
	so.Listener, so.Ledger = ln, horizonapi.Backends(urls, rt)
	rel, err := server.Start(so)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rel.Stop() })

	x, id := w.close(t, 101, w.dest)
	code, body, err := ssePost(t.Context(), http.DefaultClient, rel.APIURL+"/api/plan", map[string]string{"network": "testnet", "xdr": x})
	if err != nil || code != http.StatusOK {
		t.Fatalf("publish: %d %s %v", code, body, err)
	}
	res := send(t, http.DefaultClient, http.MethodGet, rel.APIURL+"/api/plan/"+id+"/status", nil, nil)
	var st pfStatus
	if err := json.Unmarshal(res.body, &st); err != nil {
		t.Fatalf("status: %s", res.body)
	}
	return st, res.body
}
