package mediator

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/closerelay/closerelay/errcode"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
)

// TestParseMemo: each type's accepted values and their one spelling.
func TestParseMemo(t *testing.T) {
	h := strings.Repeat("0123456789abcdef", 4)
	var hb xdr.Hash
	copy(hb[:], must(hex.DecodeString(h)))
	for _, tc := range []struct {
		in, canonical string
		memo          xdr.Memo
	}{
		{"text:x", "text:x", xdr.MemoText("x")},
		{"text:" + strings.Repeat("y", 28), "text:" + strings.Repeat("y", 28), xdr.MemoText(strings.Repeat("y", 28))},
		{"text:ÿ" + strings.Repeat("y", 26), "text:ÿ" + strings.Repeat("y", 26), xdr.MemoText("ÿ" + strings.Repeat("y", 26))}, // 28 bytes
		{"text: padded ", "text: padded ", xdr.MemoText(" padded ")},
		{"text:a:b.c", "text:a:b.c", xdr.MemoText("a:b.c")},
		{"text:id:5", "text:id:5", xdr.MemoText("id:5")},
		{"id:0", "id:0", xdr.MemoID(0)},
		{"id:4242", "id:4242", xdr.MemoID(4242)},
		{"id:18446744073709551615", "id:18446744073709551615", xdr.MemoID(math.MaxUint64)},
		{"hash:" + h, "hash:" + h, xdr.MemoHash(hb)},
		{"hash:" + strings.ToUpper(h), "hash:" + h, xdr.MemoHash(hb)},
		{"return:" + strings.ToUpper(h[:10]) + h[10:], "return:" + h, xdr.MemoRetHash(hb)},
	} {
		m, err := ParseMemo(tc.in)
		if err != nil {
			t.Errorf("ParseMemo(%q): %v", tc.in, err)
			continue
		}
		if m.IsZero() || m.String() != tc.canonical {
			t.Errorf("ParseMemo(%q) = %q, want %q", tc.in, m, tc.canonical)
		}
		if x := m.XDR(); !memoEqual(x, tc.memo) || !m.matches(tc.memo) {
			t.Errorf("ParseMemo(%q).XDR() = %+v, want %+v", tc.in, x, tc.memo)
		}
		// The canonical spelling reads back as itself.
		if again, err := ParseMemo(m.String()); err != nil || again != m {
			t.Errorf("ParseMemo(%q) = %v, %v; want %v", m.String(), again, err, m)
		}
	}
}

func TestParseMemoInvalid(t *testing.T) {
	h := strings.Repeat("ab", 32)
	for _, in := range []string{
		"", ":", "text", "text:", "4242", "memo:x", "TEXT:x", "Text:x", "ID:1", "id 1", " text:x", "none:", "none:x",
		"text:" + strings.Repeat("y", 29),
		"text:ÿ" + strings.Repeat("y", 27), // 29 bytes, 28 characters
		"text:\xff", "text:a\xc3",
		"id:", "id:-1", "id:+1", "id: 1", "id:1 ", "id:01", "id:00", "id:1e3", "id:0x10", "id:1_000",
		"id:18446744073709551616", "id:99999999999999999999999",
		"hash:", "hash:" + h[:62], "hash:" + h + "00", "hash:" + h[:63] + "g", "hash:0x" + h[:62], "hash: " + h[:63],
		"return:", "return:" + h[:63], "ret:" + h, "return_hash:" + h,
	} {
		m, err := ParseMemo(in)
		var e *errcode.Error
		if !errors.As(err, &e) || e.Code != errcode.InvalidMemo || e.Status() != http.StatusBadRequest || e.Reason == "" {
			t.Errorf("ParseMemo(%q) = %v, %v; want INVALID_MEMO", in, m, err)
		}
		if !m.IsZero() {
			t.Errorf("ParseMemo(%q) refused but returned %v", in, m)
		}
	}
}

// TestCommitmentsCanonical: mediatortest's commitments (which the HTTP tests
// use) are spelled as this package spells them.
func TestCommitmentsCanonical(t *testing.T) {
	for _, c := range mt.Commitments() {
		m, err := ParseMemo(c.Query)
		if err != nil {
			t.Fatalf("%q: %v", c.Query, err)
		}
		if m.String() != c.Token || !memoEqual(m.XDR(), c.Memo) {
			t.Errorf("%q reads as %q / %+v, want %q / %+v", c.Query, m, m.XDR(), c.Token, c.Memo)
		}
	}
}

// TestMemoTokenPart: the part is base64url without padding of the canonical
// spelling, and only that exact text reads back.
func TestMemoTokenPart(t *testing.T) {
	if (Memo{}).TokenPart() != "" || (Memo{}).String() != "" {
		t.Fatal("the zero Memo renders a part")
	}
	for _, c := range mt.Commitments() {
		m := must(ParseMemo(c.Query))
		part := m.TokenPart()
		if want := base64.RawURLEncoding.EncodeToString([]byte(c.Token)); part != want {
			t.Errorf("%q: part %q, want %q", c.Query, part, want)
		}
		if strings.ContainsAny(part, "=.+/") || len(part) > maxMemoPartLen {
			t.Errorf("%q: part %q is not unpadded base64url of at most %d characters", c.Query, part, maxMemoPartLen)
		}
		if back, ok := memoFromTokenPart(part); !ok || back != m {
			t.Errorf("%q: part %q reads back as %v, %v", c.Query, part, back, ok)
		}
	}
	// The longest memo fits the bound.
	long := must(ParseMemo("return:" + strings.Repeat("f", 64)))
	if n := len(long.TokenPart()); n != maxMemoPartLen {
		t.Errorf("longest part is %d characters, bound %d", n, maxMemoPartLen)
	}

	b64 := base64.RawURLEncoding.EncodeToString
	text := b64([]byte("text:deposit"))
	for name, part := range map[string]string{
		"empty":                 "",
		"uppercase hash":        b64([]byte("hash:" + strings.Repeat("AB", 32))),
		"uppercase return":      b64([]byte("return:" + strings.Repeat("Ab", 32))),
		"leading zero id":       b64([]byte("id:007")),
		"empty text":            b64([]byte("text:")),
		"not a memo":            b64([]byte("deposit")),
		"unknown type":          b64([]byte("memo:1")),
		"padded":                base64.URLEncoding.EncodeToString([]byte("text:dep")),
		"standard alphabet":     base64.StdEncoding.EncodeToString([]byte("text:>>>?")),
		"line break":            text[:4] + "\n" + text[4:],
		"carriage return":       text[:4] + "\r" + text[4:],
		"trailing bits":         "dGV4dDp4eB", // "text:xx" is dGV4dDp4eA
		"one character":         "d",
		"hex of a MAC":          strings.Repeat("ab", 32),
		"longer than any memo":  b64([]byte("text:" + strings.Repeat("y", 70))),
		"plain canonical text":  "text:deposit",
		"part of another token": text + ".x",
	} {
		if m, ok := memoFromTokenPart(part); ok {
			t.Errorf("%s: %q accepted as %v", name, part, m)
		}
	}
	if got := base64.RawURLEncoding.EncodeToString([]byte("text:xx")); got != "dGV4dDp4eA" {
		t.Fatalf("trailing-bits case is stale: %s", got)
	}
}

// TestMintMemoToken: a minted five-part token, its MAC recomputed here from
// CONTRACT section 13's message without this package's helpers, and the
// flow it verifies to.
func TestMintMemoToken(t *testing.T) {
	m := testMaster(t)
	raw := strkey.MustDecode(strkey.VersionByteSeed, testSecret)
	for _, c := range mt.Commitments() {
		memo := must(ParseMemo(c.Query))
		token, pub, err := m.MintMemo(bytes.NewReader(must(hex.DecodeString(testNonce))), testDest, memo, t0)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(token, ".")
		if len(parts) != 5 {
			t.Fatalf("%q: token %q has %d parts, want 5", c.Query, token, len(parts))
		}
		exp := strconv.FormatInt(t0.Add(TokenLifetime).UnixMilli(), 10)
		part := base64.RawURLEncoding.EncodeToString([]byte(c.Token))
		if parts[0] != testNonce || parts[1] != exp || parts[2] != testDest || parts[3] != part {
			t.Errorf("%q: token %q", c.Query, token)
		}
		mac := hmac.New(sha256.New, raw)
		mac.Write([]byte("mediator-flow-token:" + testNonce + "." + exp + "." + testDest + "." + part))
		if want := hex.EncodeToString(mac.Sum(nil)); parts[4] != want {
			t.Errorf("%q: MAC %s, want %s", c.Query, parts[4], want)
		}
		if parts[4] == m.TokenMAC(testNonce, exp, testDest) {
			t.Errorf("%q: the five-part MAC is the four-part one", c.Query)
		}
		if token != m.NewMemoToken(testNonce, t0.Add(TokenLifetime).UnixMilli(), testDest, memo) {
			t.Errorf("%q: NewMemoToken differs from MintMemo", c.Query)
		}
		// The flow key does not depend on the memo.
		if kp := must(m.FlowKeypair(testNonce)); pub != kp.Address() {
			t.Errorf("%q: mediator %s, want %s", c.Query, pub, kp.Address())
		}
		flow, ok := VerifyToken(m, token, t0)
		if !ok || flow.Memo != memo || flow.Nonce != testNonce || flow.Destination != testDest {
			t.Errorf("%q: VerifyToken = %+v, %v", c.Query, flow, ok)
		}
		// An uppercase MAC verifies, as for four parts (CONTRACT 8).
		up := strings.Join(append(parts[:4:4], strings.ToUpper(parts[4])), ".")
		if _, ok := VerifyToken(m, up, t0); !ok {
			t.Errorf("%q: uppercase MAC refused", c.Query)
		}
	}
	// The zero Memo mints SPEC's four parts, the same token as Mint.
	a, _, err := m.Mint(bytes.NewReader(make([]byte, 16)), testDest, t0)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := m.MintMemo(bytes.NewReader(make([]byte, 16)), testDest, Memo{}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if a != b || strings.Count(a, ".") != 3 {
		t.Errorf("Mint %q, MintMemo without a memo %q", a, b)
	}
	if flow, ok := VerifyToken(m, a, t0); !ok || !flow.Memo.IsZero() {
		t.Errorf("four-part flow %+v, %v", flow, ok)
	}
}

// TestVerifyMemoTokenTampering changes one part of a five-part token at a
// time, and moves the memo between token shapes; nothing verifies.
func TestVerifyMemoTokenTampering(t *testing.T) {
	m := testMaster(t)
	memo := must(ParseMemo("text:deposit 1"))
	token, _, err := m.MintMemo(bytes.NewReader(bytes.Repeat([]byte{7}, 16)), testDest, memo, t0)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(token, ".")
	exp := must(strconv.ParseInt(parts[1], 10, 64))
	b64 := base64.RawURLEncoding.EncodeToString
	replacements := [5][]string{
		{testNonce},
		{strconv.FormatInt(exp+1, 10)},
		{otherDest},
		{
			b64([]byte("text:deposit 2")), b64([]byte("text:Deposit 1")), b64([]byte("id:1")),
			b64([]byte("text:deposit 1 ")), "", parts[3] + "A", parts[3][:len(parts[3])-1],
		},
		{flipHex(parts[4]), m.TokenMAC(parts[0], parts[1], parts[2])},
	}
	for i, alts := range replacements {
		for _, alt := range alts {
			p := slices.Clone(parts)
			p[i] = alt
			if _, ok := VerifyToken(m, strings.Join(p, "."), t0); ok {
				t.Errorf("part %d tampered to %q still verifies", i, alt)
			}
		}
	}
	for name, tok := range map[string]string{
		"memo dropped, five-part MAC": strings.Join([]string{parts[0], parts[1], parts[2], parts[4]}, "."),
		"six parts":                   token + "." + parts[4],
		"memo repeated":               strings.Join([]string{parts[0], parts[1], parts[2], parts[3], parts[3], parts[4]}, "."),
		"memo before destination":     strings.Join([]string{parts[0], parts[1], parts[3], parts[2], parts[4]}, "."),
		"another master":              signedMemo(otherMaster(t), parts[0], parts[1], parts[2], parts[3]),
	} {
		if _, ok := VerifyToken(m, tok, t0); ok {
			t.Errorf("%s: %q verifies", name, tok)
		}
	}
	// A memo spliced into a four-part token (its MAC kept) does not verify.
	four, _, err := m.Mint(bytes.NewReader(bytes.Repeat([]byte{7}, 16)), testDest, t0)
	if err != nil {
		t.Fatal(err)
	}
	fp := strings.Split(four, ".")
	if _, ok := VerifyToken(m, strings.Join([]string{fp[0], fp[1], fp[2], parts[3], fp[3]}, "."), t0); ok {
		t.Error("a memo part added to a four-part token verifies")
	}
	if _, ok := VerifyToken(m, token, time.UnixMilli(exp)); ok {
		t.Error("five-part token verifies at its expiry")
	}
}

// TestVerifyTokenMemoChecks: a five-part token whose MAC is right for what
// it holds is still refused when its fourth part is not a memo's one
// spelling, and when any earlier check fails.
func TestVerifyTokenMemoChecks(t *testing.T) {
	m := testMaster(t)
	exp := strconv.FormatInt(t0.Add(time.Minute).UnixMilli(), 10)
	b64 := base64.RawURLEncoding.EncodeToString
	good := b64([]byte("id:5"))
	if _, ok := VerifyToken(m, signedMemo(m, testNonce, exp, testDest, good), t0); !ok {
		t.Fatal("baseline five-part token refused")
	}
	for name, tok := range map[string]string{
		"uppercase hash":   signedMemo(m, testNonce, exp, testDest, b64([]byte("hash:"+strings.Repeat("AB", 32)))),
		"leading zero id":  signedMemo(m, testNonce, exp, testDest, b64([]byte("id:05"))),
		"padded":           signedMemo(m, testNonce, exp, testDest, base64.URLEncoding.EncodeToString([]byte("id:5"))),
		"empty memo part":  signedMemo(m, testNonce, exp, testDest, ""),
		"raw memo text":    signedMemo(m, testNonce, exp, testDest, "id:5"),
		"uppercase nonce":  signedMemo(m, strings.ToUpper(testNonce), exp, testDest, good),
		"muxed dest":       signedMemo(m, testNonce, exp, mt.Muxed(testDest, 1), good),
		"expired":          signedMemo(m, testNonce, strconv.FormatInt(t0.UnixMilli(), 10), testDest, good),
		"NaN expiry":       signedMemo(m, testNonce, "NaN", testDest, good),
		"short MAC":        strings.TrimSuffix(signedMemo(m, testNonce, exp, testDest, good), "0")[:174],
		"six parts":        signedMemo(m, testNonce, exp, testDest, good) + ".00",
		"six, MAC covered": testNonce + "." + exp + "." + testDest + "." + good + "." + good + "." + m.TokenMemoMAC(testNonce, exp, testDest, good+"."+good),
	} {
		if flow, ok := VerifyToken(m, tok, t0); ok || flow != nil {
			t.Errorf("%s: accepted %q", name, tok)
		}
	}
}

// TestValidateForwardMemo runs mediatortest's memo table for each memo type:
// the committed memo is accepted, every other memo is refused with
// FORWARD_MEMO_NOT_COMMITTED, and the check sits between the destination and
// the time bounds.
func TestValidateForwardMemo(t *testing.T) {
	for _, c := range mt.Commitments() {
		memo, err := ParseMemo(c.Query)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(c.Token, func(t *testing.T) {
			for _, tc := range mt.MemoCases(testMediator, testDest, t0, c.Memo) {
				t.Run(tc.Name, func(t *testing.T) {
					err := ValidateForwardMemo(tc.B64, testMediator, testDest, memo, t0)
					if got := string(errcode.CodeOf(err)); got != tc.Want {
						t.Fatalf("code %q (%v), want %q", got, err, tc.Want)
					}
					if err != nil && (errcode.StatusOf(err) != http.StatusBadRequest || !strings.Contains(err.Error(), tc.ReasonHas)) {
						t.Fatalf("%v: status %d, want 400 with %q", err, errcode.StatusOf(err), tc.ReasonHas)
					}
					// Without a commitment the memo is the wallet's business.
					plain := ValidateForward(tc.B64, testMediator, testDest, t0)
					switch {
					case errcode.CodeOf(plain) == errcode.MemoNotCommitted:
						t.Fatalf("four-part check refused a forward for its memo: %v", plain)
					case strings.HasPrefix(tc.Name, mt.MemoNotCommitted+"/"):
						// Only the memo is wrong: the four-part check accepts.
						if plain != nil {
							t.Fatalf("four-part check: %v", plain)
						}
					case tc.Want != mt.MemoNotCommitted && errcode.CodeOf(plain) != errcode.CodeOf(err):
						t.Fatalf("four-part check %v, five-part %v", plain, err)
					}
				})
			}
		})
	}
	// The SPEC tables answer the same under a commitment to their own memo.
	def := must(ParseMemo("id:4242"))
	for _, tc := range append(mt.Cases(testMediator, testDest, t0), mt.TieBreaks(testMediator, testDest, t0)...) {
		if got := string(errcode.CodeOf(ValidateForwardMemo(tc.B64, testMediator, testDest, def, t0))); got != tc.Want {
			t.Errorf("%s under id:4242: %q, want %q", tc.Name, got, tc.Want)
		}
	}
}

// TestForwardCodesWithMemo: ForwardCodes stays SPEC's 13, and the memo code
// is placed right after FORWARD_DESTINATION_NOT_COMMITTED.
func TestForwardCodesWithMemo(t *testing.T) {
	spec := ForwardCodes()
	if len(spec) != 13 || slices.Contains(spec, errcode.MemoNotCommitted) {
		t.Fatalf("ForwardCodes = %v, want SPEC's 13", spec)
	}
	got := ForwardCodesWithMemo()
	i := slices.Index(spec, errcode.DestinationNotCommitted)
	want := slices.Concat(spec[:i+1], []errcode.Code{errcode.MemoNotCommitted}, spec[i+1:])
	if !slices.Equal(got, want) {
		t.Fatalf("ForwardCodesWithMemo = %v\nwant %v", got, want)
	}
	got[0] = "x"
	if ForwardCodesWithMemo()[0] != errcode.MalformedXDR || ForwardCodes()[0] != errcode.MalformedXDR {
		t.Fatal("the code lists share their backing array")
	}
}

// TestServiceMintMemo: the checks run destination, memo, configuration, and
// a committed memo binds the forward through Cosign.
func TestServiceMintMemo(t *testing.T) {
	svc := newTestService(testSecret)
	for _, s := range []*Service{svc, newTestService(""), newTestService(badChecksum)} {
		for _, memo := range []string{"", "bogus", "id:1"} {
			if _, _, err := s.MintMemo(mt.Muxed(testDest, 1), memo); errcode.CodeOf(err) != errcode.InvalidDestination || errcode.StatusOf(err) != 400 {
				t.Errorf("bad destination, memo %q: %v", memo, err)
			}
		}
		for _, memo := range []string{"", "bogus", "text:", "id:01", "hash:00"} {
			if _, _, err := s.MintMemo(testDest, memo); errcode.CodeOf(err) != errcode.InvalidMemo || errcode.StatusOf(err) != 400 {
				t.Errorf("memo %q: %v, want INVALID_MEMO before configuration", memo, err)
			}
		}
	}
	for _, secret := range []string{"", badChecksum} {
		if _, _, err := newTestService(secret).MintMemo(testDest, "id:1"); errcode.CodeOf(err) != errcode.MediatorNotConfigured || errcode.StatusOf(err) != 500 {
			t.Errorf("secret %q: %v", secret, err)
		}
	}
	failing := New(Options{Secret: testSecret, Rand: bytes.NewReader(nil)})
	if _, _, err := failing.MintMemo(testDest, "id:1"); err == nil || errcode.CodeOf(err) != "" {
		t.Errorf("random failure: %v", err)
	}

	for _, c := range mt.Commitments() {
		t.Run(c.Token, func(t *testing.T) {
			token, mediator, err := svc.MintMemo(testDest, c.Query)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(token, "."); n != 4 {
				t.Fatalf("token %q has %d dots", token, n)
			}
			f := mt.NewForward(mediator, testDest, uint64(t0.Unix())+600)
			f.Memo = &c.Memo
			signed, hash, err := svc.Cosign(f.B64(), token, "testnet")
			if err != nil {
				t.Fatalf("committed memo: %v", err)
			}
			verifyCosigned(t, signed, hash, mediator, "Test SDF Network ; September 2015")
			// The regression this feature exists for: under a five-part
			// token a forward carrying another memo is never signed.
			for _, other := range mt.OtherMemos(c.Memo) {
				f.Memo = &other
				if _, _, err := svc.Cosign(f.B64(), token, "testnet"); errcode.CodeOf(err) != errcode.MemoNotCommitted || errcode.StatusOf(err) != 400 {
					t.Errorf("memo %+v: %v, want FORWARD_MEMO_NOT_COMMITTED", other, err)
				}
			}
			// A four-part token of the same service still signs any memo.
			four, med4, _ := minted(t, svc, testDest)
			for _, other := range mt.OtherMemos(c.Memo) {
				g := mt.NewForward(med4, testDest, uint64(t0.Unix())+600)
				g.Memo = &other
				if _, _, err := svc.Cosign(g.B64(), four, "testnet"); err != nil {
					t.Errorf("four-part token, memo %+v: %v", other, err)
				}
			}
		})
	}
}

// TestMemoMintConcurrent: minting with and without memos from many
// goroutines shares only the memoized master.
func TestMemoMintConcurrent(t *testing.T) {
	svc := New(Options{Secret: testSecret, Rand: rand.Reader})
	master := testMaster(t)
	done := make(chan string, 16)
	for i := range 16 {
		go func() {
			tok, _, err := svc.MintMemo(testDest, "id:"+strconv.Itoa(i))
			if err != nil {
				done <- err.Error()
				return
			}
			flow, ok := VerifyToken(master, tok, time.Now())
			if !ok || flow.Memo.String() != "id:"+strconv.Itoa(i) {
				done <- "bad flow for " + tok
				return
			}
			done <- ""
		}()
	}
	for range 16 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}

func memoEqual(a, b xdr.Memo) bool {
	x, err1 := a.MarshalBinary()
	y, err2 := b.MarshalBinary()
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
