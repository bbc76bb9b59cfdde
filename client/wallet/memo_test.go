package wallet_test

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/mediator"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

var (
	hexLower = strings.Repeat("0a", 32)
	hexUpper = strings.Repeat("0A", 32)
)

// TestParseMemo: each form, its one spelling, and each bad form refused
// with an error that names it. The relay's own parser (mediator.ParseMemo)
// agrees on every case, so a memo the client accepts is one the relay mints.
func TestParseMemo(t *testing.T) {
	good := map[string]string{
		"text:deposit 42":                 "text:deposit 42",
		"text:" + strings.Repeat("é", 14): "text:" + strings.Repeat("é", 14), // 28 bytes
		"id:0":                            "id:0",
		"id:18446744073709551615":         "id:18446744073709551615",
		"hash:" + hexUpper:                "hash:" + hexLower,
		"return:" + hexLower:              "return:" + hexLower,
	}
	for in, want := range good {
		m, err := wallet.ParseMemo(in)
		if err != nil || m.String() != want {
			t.Errorf("ParseMemo(%q) = %q, %v; want %q", in, m, err, want)
		}
		if rm, err := mediator.ParseMemo(in); err != nil || rm.String() != want {
			t.Errorf("the relay reads %q as %q, %v; want %q", in, rm, err, want)
		}
	}
	bad := map[string]string{
		"":                                "text:…, id:…, hash:… or return:…",
		"deposit":                         "text:…, id:…, hash:… or return:…",
		"memo:1":                          `type is text, id, hash or return, not "memo"`,
		"TEXT:a":                          `type is text, id, hash or return, not "TEXT"`,
		"text:":                           "a text: memo is 1 to 28 bytes",
		"text:" + strings.Repeat("x", 29): "a text: memo is 1 to 28 bytes of UTF-8 (this one is 29 bytes)",
		"text:\xff":                       "a text: memo is 1 to 28 bytes of UTF-8",
		"id:":                             "an id: memo is an unsigned 64-bit decimal number",
		"id:-1":                           "an id: memo is an unsigned 64-bit decimal number",
		"id:+1":                           "an id: memo is an unsigned 64-bit decimal number",
		"id:007":                          "without sign or leading zeros",
		"id:18446744073709551616":         "an id: memo is an unsigned 64-bit decimal number",
		"id:1e3":                          "an id: memo is an unsigned 64-bit decimal number",
		"hash:abc":                        "a hash: memo is 64 hex digits (32 bytes), not 3 characters",
		"hash:" + strings.Repeat("g", 64): "a hash: memo is 64 hex digits (32 bytes)",
		"return:" + hexLower + "00":       "a return: memo is 64 hex digits (32 bytes), not 66 characters",
		"return:":                         "a return: memo is 64 hex digits",
	}
	for in, want := range bad {
		if m, err := wallet.ParseMemo(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseMemo(%q) = %q, %v; want an error with %q", in, m, err, want)
		}
		if _, err := mediator.ParseMemo(in); err == nil {
			t.Errorf("the relay accepts %q, which the client refuses", in)
		}
	}
}

// TestFiveMemoFlowTokens: a five-part token minted by the relay's mediator
// is read everywhere a token is read, with the memo it commits to, and the
// record of its forward holds that memo.
func TestFiveMemoFlowTokens(t *testing.T) {
	s := service(t)
	dest := keypair.MustRandom().Address()
	for _, in := range []string{"text:ref 42", "id:12345", "hash:" + hexUpper, "return:" + hexLower} {
		want, err := wallet.ParseMemo(in)
		if err != nil {
			t.Fatal(err)
		}
		token, pub, err := s.MintMemo(dest, in)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(token, "."); n != 4 {
			t.Fatalf("the relay minted %d parts, want 5", n+1)
		}
		tok, err := wallet.ParseFlowToken(token)
		if err != nil || tok.Destination != dest || tok.Memo != want || time.Until(tok.Expiry) < 14*time.Minute {
			t.Fatalf("ParseFlowToken(%s) = %+v, %v", in, tok, err)
		}
		flow, err := wallet.NewMemoFlow(client.Flow{FlowToken: token, MediatorPublicKey: pub}, dest, want)
		if err != nil || flow.Memo != want {
			t.Fatalf("NewMemoFlow = %+v, %v", flow, err)
		}
		other, _ := wallet.ParseMemo("id:1")
		if _, err := wallet.NewMemoFlow(client.Flow{FlowToken: token, MediatorPublicKey: pub}, dest, other); err == nil || !strings.Contains(err.Error(), "commits to memo") {
			t.Fatalf("a token for another memo: %v", err)
		}
		memo, err := want.Txn()
		if err != nil {
			t.Fatal(err)
		}
		_, x := buildForward(t, wallet.ForwardParams{Mediator: pub, Sequence: 1 << 32, Destination: dest, Amount: "3", Memo: memo})
		if _, _, err := s.Cosign(x, token, "testnet"); err != nil {
			t.Fatalf("the relay refuses the forward built with %s: %v", in, err)
		}
		rec, err := wallet.NewRecord("testnet", flow, x, time.Now())
		if err != nil || rec.Memo != want || rec.Validate() != nil {
			t.Fatalf("record: %+v, %v", rec, err)
		}
		// A forward with another memo is refused before it is sent, and
		// its record does not validate.
		_, wrong := buildForward(t, wallet.ForwardParams{Mediator: pub, Sequence: 1 << 32, Destination: dest, Amount: "3", Memo: txnbuild.MemoID(1)})
		if _, err := wallet.CosignForward(t.Context(), nil, "testnet", flow, wrong); err == nil || !strings.Contains(err.Error(), "not the memo "+in[:4]) {
			t.Fatalf("CosignForward of another memo: %v", err)
		}
		if rec, err := wallet.NewRecord("testnet", flow, wrong, time.Now()); err == nil {
			if err := rec.Validate(); err == nil || !strings.Contains(err.Error(), "commits to") {
				t.Fatalf("a record with another memo validates: %v", err)
			}
		}
	}
	// Tampered memo parts are refused: not base64url, padded, not a memo,
	// not the one spelling (uppercase hex).
	token, _, err := s.MintMemo(dest, "id:7")
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(token, ".")
	for _, part := range []string{"!!", base64.URLEncoding.EncodeToString([]byte("id:7")), base64.RawURLEncoding.EncodeToString([]byte("id:07")),
		base64.RawURLEncoding.EncodeToString([]byte("hash:" + hexUpper)), ""} {
		p := append([]string(nil), parts...)
		p[3] = part
		if tok, err := wallet.ParseFlowToken(strings.Join(p, ".")); err == nil {
			t.Errorf("memo part %q read as %+v", part, tok)
		}
	}
	if _, err := wallet.ParseFlowToken(token + ".x"); err == nil || !strings.Contains(err.Error(), "four dot-separated parts, or five") {
		t.Errorf("six parts: %v", err)
	}
}

// TestForwardAmount: the payment is the balance less the fee of two
// operations and the mediator's 1-unit minimum (CONTRACT section 16), and
// a balance that leaves nothing is refused.
func TestForwardAmount(t *testing.T) {
	if got, err := wallet.ForwardAmount(102_0000000, 100); err != nil || got != 100_9999800 {
		t.Fatalf("ForwardAmount(102 XLM, 100) = %d, %v", got, err)
	}
	if got, err := wallet.ForwardAmount(1_0000201, 100); err != nil || got != 1 {
		t.Fatalf("ForwardAmount(just enough) = %d, %v", got, err)
	}
	for _, c := range []struct{ balance, fee int64 }{{1_0000200, 100}, {0, 100}, {-1, 100}, {5_0000000, 99}, {5_0000000, 1 << 62}} {
		if got, err := wallet.ForwardAmount(c.balance, c.fee); err == nil {
			t.Errorf("ForwardAmount(%d, %d) = %d", c.balance, c.fee, got)
		}
	}
}
