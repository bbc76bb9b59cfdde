package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/mediator"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/closerelay/closerelay/metrics"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// CONTRACT section 13 through a real listener: minting a flow that commits
// the forward's memo, and co-signing under it.

// memoQuery is "?destination=…&memo=…", percent-encoded as a wallet sends it.
func memoQuery(dest, memo string) string {
	return "?" + url.Values{"destination": {dest}, "memo": {memo}}.Encode()
}

// mintMemo mints a flow for dest committing memo; it must answer 200 with
// exactly SPEC's two fields.
func (r *medRelay) mintMemo(t *testing.T, dest, memo string) (token, pub string) {
	t.Helper()
	res := r.get(t, memoQuery(dest, memo))
	medNoStore(t, res)
	if res.status != http.StatusOK {
		t.Fatalf("mint with memo %q: status %d body %s", memo, res.status, res.body)
	}
	var raw map[string]any
	if err := json.Unmarshal(res.body, &raw); err != nil {
		t.Fatal(err)
	}
	token, _ = raw["flowToken"].(string)
	pub, _ = raw["mediatorPublicKey"].(string)
	if len(raw) != 2 || token == "" || pub == "" {
		t.Fatalf("mint body %s, want exactly flowToken and mediatorPublicKey", res.body)
	}
	return token, pub
}

// memoForward is the accepted forward of the flow, carrying memo.
func (r *medRelay) memoForward(pub string, memo xdr.Memo) string {
	f := mt.NewForward(pub, medDest, r.maxTime(10*time.Minute))
	f.Memo = &memo
	return f.B64()
}

// TestMedMintMemoEachType: each memo type mints a five-part token whose
// fourth part is the canonical memo in base64url, under a MAC over the four
// parts before it; it verifies to a flow committing that memo, and the
// forward carrying the memo is co-signed.
func TestMedMintMemoEachType(t *testing.T) {
	r := medStart(t, medSecret, nil)
	master, err := mediator.ParseMaster(medSecret)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range mt.Commitments() {
		t.Run(c.Token, func(t *testing.T) {
			token, pub := r.mintMemo(t, medDest, c.Query)
			parts := strings.Split(token, ".")
			if len(parts) != 5 {
				t.Fatalf("token %q has %d parts, want 5", token, len(parts))
			}
			if !medNonceRE.MatchString(parts[0]) || !medExpRE.MatchString(parts[1]) || parts[2] != medDest || !medMACRE.MatchString(parts[4]) {
				t.Errorf("token %q is not nonce.expiry.destination.memo.mac", token)
			}
			if want := base64.RawURLEncoding.EncodeToString([]byte(c.Token)); parts[3] != want {
				t.Errorf("memo part %q, want %q (base64url of %q)", parts[3], want, c.Token)
			}
			if mac := master.TokenMemoMAC(parts[0], parts[1], parts[2], parts[3]); mac != parts[4] {
				t.Errorf("MAC %s, want %s", parts[4], mac)
			}
			if kp, err := master.FlowKeypair(parts[0]); err != nil || kp.Address() != pub {
				t.Errorf("mediatorPublicKey %s is not the flow key of nonce %s", pub, parts[0])
			}
			flow, ok := mediator.VerifyToken(master, token, r.now())
			if !ok || flow.Memo.String() != c.Token || flow.Destination != medDest {
				t.Fatalf("VerifyToken = %+v, %v", flow, ok)
			}
			envelope := r.memoForward(pub, c.Memo)
			medWantSigned(t, r.cosign(t, envelope, token, "testnet"), envelope, pub, network.TestNetworkPassphrase)
		})
	}
	// Without a memo parameter the token keeps SPEC's four parts.
	if token, _ := r.mint(t, medDest); strings.Count(token, ".") != 3 {
		t.Errorf("token without memo %q, want four parts", token)
	}
}

func TestMedMintInvalidMemo(t *testing.T) {
	r := medStart(t, medSecret, nil)
	d := "?destination=" + medDest
	cases := map[string]string{
		"empty":            d + "&memo=",
		"no type":          d + "&memo=deposit",
		"unknown type":     d + "&memo=note:1",
		"uppercase type":   d + "&memo=TEXT:x",
		"empty text":       d + "&memo=text:",
		"text of 29 bytes": memoQuery(medDest, "text:"+strings.Repeat("x", 29)),
		"text not UTF-8":   d + "&memo=text:%FF",
		"negative id":      d + "&memo=id:-1",
		"id leading zero":  d + "&memo=id:042",
		"id beyond uint64": d + "&memo=id:18446744073709551616",
		"id with space":    memoQuery(medDest, "id: 1"),
		"short hash":       d + "&memo=hash:" + strings.Repeat("ab", 31),
		"non-hex return":   d + "&memo=return:" + strings.Repeat("zz", 32),
		"memo twice":       d + "&memo=id:1&memo=id:1",
		"memo first":       "?memo=id:1&destination=" + medDest + "&memo=id:2",
	}
	for name, q := range cases {
		t.Run(name, func(t *testing.T) {
			medWantErr(t, r.get(t, q), http.StatusBadRequest, "INVALID_MEMO")
		})
	}
	if n := metricValue(t, r.metrics, rejectionsTotal, "route", metrics.RouteMediatorMint, "code", "INVALID_MEMO"); n != float64(len(cases)) {
		t.Errorf("rejections_total{mediator_mint,INVALID_MEMO} = %v, want %d", n, len(cases))
	}
}

// TestMedMintMemoPrecedence: destination, then memo, then configuration.
func TestMedMintMemoPrecedence(t *testing.T) {
	fresh := medStart(t, medSecret, nil)
	if n := metricValue(t, fresh.metrics, rejectionsTotal, "route", metrics.RouteMediatorMint, "code", "INVALID_MEMO"); n != 0 {
		t.Errorf("rejections_total{mediator_mint,INVALID_MEMO} not created at zero: %v", n)
	}
	for _, secret := range []string{medSecret, "", "S" + strings.Repeat("A", 55)} {
		r := medStart(t, secret, nil)
		for _, q := range []string{
			"?memo=bogus", "?destination=&memo=", "?destination=nope&memo=id:1",
			memoQuery(mt.Muxed(medDest, 3), "text:"), "?destination=nope&memo=id:1&memo=id:2",
		} {
			medWantErr(t, r.get(t, q), http.StatusBadRequest, "INVALID_DESTINATION")
		}
		medWantErr(t, r.get(t, memoQuery(medDest, "id:x")), http.StatusBadRequest, "INVALID_MEMO")
		medWantErr(t, r.get(t, "?destination="+medDest+"&memo=id:1&memo=id:2"), http.StatusBadRequest, "INVALID_MEMO")
		if secret != medSecret {
			reason := medWantErr(t, r.get(t, memoQuery(medDest, "id:1")), http.StatusInternalServerError, "MEDIATOR_NOT_CONFIGURED")
			if low := strings.ToLower(reason); strings.Contains(low, "seed") || strings.Contains(low, "malformed") {
				t.Errorf("reason %q leaks the configuration detail", reason)
			}
		}
	}
}

// TestMedCosignMemoCommitted runs mediatortest's memo table through the
// route for each memo type: the committed memo is signed; no memo, another
// value or another type answers FORWARD_MEMO_NOT_COMMITTED; a wrong
// destination still answers first, and the time bounds answer only once the
// memo is right.
func TestMedCosignMemoCommitted(t *testing.T) {
	r := medStart(t, medSecret, nil)
	var refused float64
	for _, c := range mt.Commitments() {
		t.Run(c.Token, func(t *testing.T) {
			token, pub := r.mintMemo(t, medDest, c.Query)
			seen := map[string]bool{}
			for _, tc := range mt.MemoCases(pub, medDest, r.now(), c.Memo) {
				t.Run(tc.Name, func(t *testing.T) {
					res := r.cosign(t, tc.B64, token, "testnet")
					if tc.Want == "" {
						medWantSigned(t, res, tc.B64, pub, network.TestNetworkPassphrase)
						return
					}
					reason := medWantErr(t, res, http.StatusBadRequest, tc.Want)
					if !strings.Contains(reason, tc.ReasonHas) {
						t.Errorf("reason %q does not contain %q", reason, tc.ReasonHas)
					}
					seen[tc.Want] = true
					if tc.Want == mt.MemoNotCommitted {
						refused++
					}
				})
			}
			for _, code := range []string{mt.MemoNotCommitted, "FORWARD_DESTINATION_NOT_COMMITTED", "MISSING_TIME_BOUNDS", "TIME_BOUNDS_EXCESSIVE"} {
				if !seen[code] {
					t.Errorf("no case answered %s", code)
				}
			}
		})
	}
	if got := metricSum(t, r.metrics, cosignTotal, "result", mt.MemoNotCommitted); got != refused || refused == 0 {
		t.Errorf("cosign_total{%s} = %v, want %v", mt.MemoNotCommitted, got, refused)
	}
}

// TestMedCosignMemoRegression: the point of the commitment. Under a
// five-part token, a forward that pays the committed destination but carries
// another memo (here: none, and the committed bytes under the other hash
// type) is refused, and no signature comes back.
func TestMedCosignMemoRegression(t *testing.T) {
	r := medStart(t, medSecret, nil)
	var h xdr.Hash
	copy(h[:], strings.Repeat("k", 32))
	token, pub := r.mintMemo(t, medDest, "hash:"+strings.Repeat("6b", 32))
	for name, memo := range map[string]xdr.Memo{
		"none":                      {Type: xdr.MemoTypeMemoNone},
		"same as return":            xdr.MemoRetHash(h),
		"exchange's other customer": xdr.MemoHash(xdr.Hash{1}),
	} {
		t.Run(name, func(t *testing.T) {
			res := r.cosign(t, r.memoForward(pub, memo), token, "testnet")
			medWantErr(t, res, http.StatusBadRequest, mt.MemoNotCommitted)
			if strings.Contains(string(res.body), "signedXdr") {
				t.Fatalf("refusal carries an envelope: %s", res.body)
			}
		})
	}
	envelope := r.memoForward(pub, xdr.MemoHash(h))
	medWantSigned(t, r.cosign(t, envelope, token, "testnet"), envelope, pub, network.TestNetworkPassphrase)
}

// TestMedCosignFourPartAnyMemo: a token minted without memo keeps today's
// behaviour and co-signs a forward carrying any memo, or none.
func TestMedCosignFourPartAnyMemo(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	memos := []xdr.Memo{{Type: xdr.MemoTypeMemoNone}}
	for _, c := range mt.Commitments() {
		memos = append(memos, c.Memo)
		memos = append(memos, mt.OtherMemos(c.Memo)[1:]...)
	}
	for _, memo := range memos {
		envelope := r.memoForward(pub, memo)
		res := r.cosign(t, envelope, token, "mainnet")
		if res.status != http.StatusOK {
			t.Errorf("memo %+v: status %d body %s", memo, res.status, res.body)
			continue
		}
		medWantSigned(t, res, envelope, pub, network.PublicNetworkPassphrase)
	}
}

// TestMedMemoTokenTampering: any change to a five-part token's memo part,
// or moving a memo between token shapes, answers INVALID_FLOW_TOKEN.
func TestMedMemoTokenTampering(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mintMemo(t, medDest, "text:de>>?~") // base64url "dGV4dDpkZT4-P34"
	four, _ := r.mint(t, medDest)
	p, fp := strings.Split(token, "."), strings.Split(four, ".")
	b64 := base64.RawURLEncoding.EncodeToString
	join := func(s ...string) string { return strings.Join(s, ".") }
	envelope := r.memoForward(pub, xdr.MemoText("de>>?~"))
	padded := base64.URLEncoding.EncodeToString([]byte("text:de>>?~"))
	std := base64.RawStdEncoding.EncodeToString([]byte("text:de>>?~"))
	if p[3] == padded || p[3] == std || !strings.Contains(padded, "=") || !strings.Contains(std, "+") {
		t.Fatalf("memo part %q, padded %q, standard %q: the cases below would not differ", p[3], padded, std)
	}
	for name, tok := range map[string]string{
		"another text":         join(p[0], p[1], p[2], b64([]byte("text:de>>?!")), p[4]),
		"another type":         join(p[0], p[1], p[2], b64([]byte("id:77")), p[4]),
		"padded memo part":     join(p[0], p[1], p[2], padded, p[4]),
		"standard base64":      join(p[0], p[1], p[2], std, p[4]),
		"plain memo text":      join(p[0], p[1], p[2], "text:de>>?~", p[4]),
		"line break in part":   join(p[0], p[1], p[2], p[3][:4]+"\n"+p[3][4:], p[4]),
		"empty memo part":      join(p[0], p[1], p[2], "", p[4]),
		"memo part dropped":    join(p[0], p[1], p[2], p[4]),
		"memo added to four":   join(fp[0], fp[1], fp[2], p[3], fp[3]),
		"memo part duplicated": join(p[0], p[1], p[2], p[3], p[3], p[4]),
		"flipped MAC":          join(p[0], p[1], p[2], p[3], strings.Repeat("0", 64)),
		"swapped destination":  join(p[0], p[1], medOtherDest, p[3], p[4]),
	} {
		t.Run(name, func(t *testing.T) {
			medWantErr(t, r.cosign(t, envelope, tok, "testnet"), http.StatusBadRequest, "INVALID_FLOW_TOKEN")
		})
	}
	t.Run("untampered", func(t *testing.T) {
		medWantSigned(t, r.cosign(t, envelope, token, "testnet"), envelope, pub, network.TestNetworkPassphrase)
	})
	t.Run("expiry", func(t *testing.T) {
		tok, pb := r.mintMemo(t, medDest, "id:9")
		r.clock.Advance(15 * time.Minute)
		medWantErr(t, r.cosign(t, r.memoForward(pb, xdr.MemoID(9)), tok, "testnet"), http.StatusBadRequest, "INVALID_FLOW_TOKEN")
	})
}
