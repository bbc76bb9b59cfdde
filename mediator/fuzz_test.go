package mediator

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite testdata/fuzz seed corpora")

// --- FuzzVerifyToken -------------------------------------------------------

var (
	refNonce  = regexp.MustCompile(`^[0-9a-f]{32}$`)
	refExpiry = regexp.MustCompile(`^[0-9eE+-]+$`)
	refB64URL = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	refMemo   = regexp.MustCompile(`(?s)^(?:text:(.{1,28})|id:(0|[1-9][0-9]*)|(?:hash|return):[0-9a-f]{64})$`)
)

// refMemoPart restates CONTRACT section 13's memo part without sharing code
// with memoFromTokenPart: base64url without padding, in the one spelling an
// encoder writes, of a canonical "<type>:<value>". It returns that text.
func refMemoPart(part string) (string, bool) {
	if !refB64URL.MatchString(part) {
		return "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil || base64.RawURLEncoding.EncodeToString(raw) != part {
		return "", false
	}
	text := string(raw)
	sub := refMemo.FindStringSubmatch(text)
	if sub == nil {
		return "", false
	}
	if strings.HasPrefix(text, "text:") && !utf8.ValidString(sub[1]) {
		return "", false
	}
	if strings.HasPrefix(text, "id:") {
		if _, err := strconv.ParseUint(sub[2], 10, 64); err != nil {
			return "", false
		}
	}
	return text, true
}

type tokenSeed struct {
	token     string
	nowMillis int64
	remac     bool
}

func tokenSeeds() []tokenSeed {
	m := must(ParseMaster(testSecret))
	now := t0.UnixMilli()
	exp := strconv.FormatInt(now+int64(TokenLifetime/time.Millisecond), 10)
	valid := signed(m, testNonce, exp, testDest)
	mac := valid[strings.LastIndexByte(valid, '.')+1:]
	seeds := []tokenSeed{
		{valid, now, false},
		{valid, now + 900_000, false}, // at expiry
		{strings.TrimSuffix(valid, mac) + strings.ToUpper(mac), now, false},
		{signed(m, strings.ToUpper(testNonce), exp, testDest), now, false},
		{signed(m, testNonce, "19e11", testDest), now, false},
		{signed(m, testNonce, "NaN", testDest), now, true},
		{testNonce + ".1e400." + testDest + ".", now, true},
		{testNonce + "." + exp + "." + mt.Muxed(testDest, 3) + ".", now, true},
		{"", 0, false},
		{"...", 0, true},
		{"a.b.c.d.e", -1, false},
	}
	// Five parts (CONTRACT section 13): each memo type minted, then memo
	// parts that are not a memo's one spelling under a recomputed MAC, and
	// MACs that do not cover what the token holds.
	b64 := base64.RawURLEncoding.EncodeToString
	for _, c := range mt.Commitments() {
		seeds = append(seeds, tokenSeed{signedMemo(m, testNonce, exp, testDest, b64([]byte(c.Token))), now, false})
	}
	textPart := b64([]byte("text:deposit"))
	five := func(part string) string { return signedMemo(m, testNonce, exp, testDest, part) }
	seeds = append(seeds,
		tokenSeed{five(textPart), now + 900_000, false}, // at expiry
		// Not a memo's one spelling, under a recomputed MAC:
		tokenSeed{five(b64([]byte("hash:" + strings.Repeat("AB", 32)))), now, true},
		tokenSeed{five(b64([]byte("id:042"))), now, true},
		tokenSeed{five(b64([]byte("id:18446744073709551616"))), now, true},
		tokenSeed{five(b64([]byte("text:"))), now, true},
		tokenSeed{five(b64([]byte("text:" + strings.Repeat("x", 29)))), now, true},
		tokenSeed{five(b64([]byte("text:\xff"))), now, true},
		tokenSeed{five(b64([]byte("TEXT:deposit"))), now, true},
		tokenSeed{five(b64([]byte("memo:deposit"))), now, true},
		tokenSeed{five(base64.URLEncoding.EncodeToString([]byte("text:dep"))), now, true},  // padding
		tokenSeed{five(base64.StdEncoding.EncodeToString([]byte("text:>>>?"))), now, true}, // standard alphabet
		tokenSeed{five(textPart[:4] + "\n" + textPart[4:]), now, true},                     // line break
		tokenSeed{five("dGV4dDp4eB"), now, true},                                           // non-zero trailing bits of "text:xx"
		tokenSeed{five(""), now, true},
		// MACs that do not cover what the token holds:
		tokenSeed{valid[:strings.LastIndexByte(valid, '.')] + "." + textPart + "." + mac, now, false},
		tokenSeed{testNonce + "." + exp + "." + testDest + "." + m.TokenMemoMAC(testNonce, exp, testDest, textPart), now, false},
		tokenSeed{five(textPart) + ".00", now, false}, // six parts
	)
	return seeds
}

// FuzzVerifyToken: never panics, answers (flow, true) or (nil, false), and a
// token it accepts satisfies every check as written independently here. With
// remac set the MAC is recomputed over the other parts (of a four- or
// five-part token), so the fuzzer explores checks 3 to 5 and the memo part
// past a valid MAC, and acceptance must match a reference evaluation of
// those checks exactly.
func FuzzVerifyToken(f *testing.F) {
	// Seeds live in testdata/fuzz/FuzzVerifyToken (see TestFuzzSeedCorpus).
	m := testMaster(f)
	f.Fuzz(func(t *testing.T, token string, nowMillis int64, remac bool) {
		now := time.UnixMilli(nowMillis)
		parts := strings.Split(token, ".")
		if remac && len(parts) == 4 {
			parts[3] = m.TokenMAC(parts[0], parts[1], parts[2])
			token = strings.Join(parts, ".")
		}
		if remac && len(parts) == 5 {
			parts[4] = m.TokenMemoMAC(parts[0], parts[1], parts[2], parts[3])
			token = strings.Join(parts, ".")
		}
		flow, ok := VerifyToken(m, token, now)
		if ok != (flow != nil) {
			t.Fatalf("VerifyToken = %v, %v", flow, ok)
		}

		memoText, memoOK := "", len(parts) == 4
		if len(parts) == 5 {
			memoText, memoOK = refMemoPart(parts[3])
		}
		refOK := memoOK &&
			refNonce.MatchString(parts[0]) &&
			strkey.IsValidEd25519PublicKey(parts[2]) &&
			refExpiry.MatchString(parts[1])
		var expiry float64
		if refOK {
			var err error
			expiry, err = strconv.ParseFloat(parts[1], 64)
			refOK = err == nil && expiry > float64(nowMillis)
		}
		if remac && (len(parts) == 4 || len(parts) == 5) && ok != refOK {
			t.Fatalf("VerifyToken(%q) = %v, reference says %v", token, ok, refOK)
		}
		if !ok {
			return
		}
		if !refOK {
			t.Fatalf("accepted %q, which fails a check", token)
		}
		wantMAC := m.TokenMAC(parts[0], parts[1], parts[2])
		if len(parts) == 5 {
			wantMAC = m.TokenMemoMAC(parts[0], parts[1], parts[2], parts[3])
		}
		if !strings.EqualFold(parts[len(parts)-1], wantMAC) {
			t.Fatalf("accepted %q with a wrong MAC", token)
		}
		if flow.Nonce != parts[0] || flow.Destination != parts[2] || flow.Memo.String() != memoText {
			t.Fatalf("flow %+v (memo %q) does not match %q", flow, flow.Memo, token)
		}
		if flow.Expiry.UnixMilli() < nowMillis {
			t.Fatalf("flow expiry %v before now %v", flow.Expiry, now)
		}
	})
}

// --- FuzzValidateForward ---------------------------------------------------

// fuzzMediator signs in FuzzValidateForward; its address is testMediator.
var fuzzMediator = keypair.MustParseFull(otherSecret)

type forwardSeed struct {
	name    string
	data    []byte
	raw     bool // data is the envelope text itself, not XDR to encode
	nowUnix int64
}

func forwardSeeds() []forwardSeed {
	var seeds []forwardSeed
	for _, c := range mt.Cases(testMediator, testDest, t0) {
		b, err := base64.StdEncoding.DecodeString(c.B64)
		if err != nil || len(b) == 0 {
			seeds = append(seeds, forwardSeed{c.Name, []byte(c.B64), true, t0.Unix()})
			continue
		}
		seeds = append(seeds, forwardSeed{c.Name, b, false, t0.Unix()})
	}
	valid := validForward()
	seeds = append(seeds,
		forwardSeed{"raw valid", []byte(valid), true, t0.Unix()},
		// Decodable by Go's lenient base64 reader, which skips line breaks,
		// but not by the relay's one decoder (ledger.DecodeEnvelope): one
		// envelope has one spelling, so this is MALFORMED_XDR.
		forwardSeed{"MALFORMED_XDR raw valid with line break", []byte(valid[:20] + "\n" + valid[20:]), true, t0.Unix()},
		forwardSeed{"negative clock", []byte(valid), true, -1 << 62},
		forwardSeed{"clock near max", []byte(valid), true, 1<<63 - 1},
	)
	return seeds
}

// FuzzValidateForward: never panics; a refusal is a 400 *errcode.Error with
// one of the 13 codes, MALFORMED_XDR exactly when the text does not decode
// under the relay's decoder (ledger.DecodeEnvelope, stricter than the SDK's:
// whatever it decodes, the SDK's decodes too); an acceptance is the accepted
// shape, checked independently below, and signs into an envelope that
// decodes and carries a valid mediator signature.
func FuzzValidateForward(f *testing.F) {
	// Seeds live in testdata/fuzz/FuzzValidateForward (see TestFuzzSeedCorpus).
	codes := ForwardCodes()
	f.Fuzz(func(t *testing.T, data []byte, raw bool, nowUnix int64) {
		b64 := string(data)
		if !raw {
			b64 = base64.StdEncoding.EncodeToString(data)
		}
		now := time.Unix(nowUnix, 0)
		env, perr := parseForward(b64, testMediator, testDest, Memo{}, now)
		err := ValidateForward(b64, testMediator, testDest, now)
		if (err == nil) != (perr == nil) {
			t.Fatalf("ValidateForward %v, parseForward %v", err, perr)
		}
		decoded, derr := ledger.DecodeEnvelope(b64)
		decodes := derr == nil
		var sdk xdr.TransactionEnvelope
		if decodes && xdr.SafeUnmarshalBase64(b64, &sdk) != nil {
			t.Fatal("the relay's decoder accepts what the SDK's refuses")
		}
		if err != nil {
			var e *errcode.Error
			if !errors.As(err, &e) || !slices.Contains(codes, e.Code) || e.Status() != 400 || e.Reason == "" {
				t.Fatalf("refusal %#v is not a forward code", err)
			}
			if (e.Code == errcode.MalformedXDR) == decodes {
				t.Fatalf("code %s but decodes=%v", e.Code, decodes)
			}
			return
		}
		if !decodes {
			t.Fatal("accepted an envelope that does not decode")
		}
		if why := refShape(decoded, testMediator, testDest, now); why != "" {
			t.Fatalf("accepted a forward that %s", why)
		}
		signedXDR, hashHex, serr := signForward(env, fuzzMediator, network.TestNetworkPassphrase)
		if serr != nil {
			if errcode.CodeOf(serr) == errcode.MalformedXDR && len(decoded.Signatures()) >= 20 {
				return
			}
			t.Fatalf("signing: %v", serr)
		}
		var out xdr.TransactionEnvelope
		if err := xdr.SafeUnmarshalBase64(signedXDR, &out); err != nil {
			t.Fatalf("signed envelope does not decode: %v", err)
		}
		hash, err := network.HashTransactionInEnvelope(out, network.TestNetworkPassphrase)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%x", hash) != hashHex {
			t.Fatal("hash changed by signing")
		}
		sigs := out.Signatures()
		if len(sigs) == 0 || !ed25519.Verify(strkey.MustDecode(strkey.VersionByteAccountID, testMediator), hash[:], sigs[len(sigs)-1].Signature) {
			t.Fatal("no valid mediator signature")
		}
	})
}

// refShape restates SPEC's accepted forward without sharing code with
// parseForward; it returns what is wrong, or "".
func refShape(env xdr.TransactionEnvelope, mediator, dest string, now time.Time) string {
	var ops []xdr.Operation
	var tb *xdr.TimeBounds
	switch env.Type {
	case xdr.EnvelopeTypeEnvelopeTypeTx:
		src := env.V1.Tx.SourceAccount
		if src.Type != xdr.CryptoKeyTypeKeyTypeEd25519 || strkey.MustEncode(strkey.VersionByteAccountID, src.Ed25519[:]) != mediator {
			return "is not sourced from the mediator"
		}
		ops = env.V1.Tx.Operations
		tb = env.V1.Tx.Cond.TimeBounds
		if env.V1.Tx.Cond.V2 != nil {
			tb = env.V1.Tx.Cond.V2.TimeBounds
		}
	case xdr.EnvelopeTypeEnvelopeTypeTxV0:
		if strkey.MustEncode(strkey.VersionByteAccountID, env.V0.Tx.SourceAccountEd25519[:]) != mediator {
			return "is not sourced from the mediator"
		}
		ops = env.V0.Tx.Operations
		tb = env.V0.Tx.TimeBounds
	default:
		return "is not a classic transaction"
	}
	isG := func(a *xdr.MuxedAccount, want string) bool {
		return a.Type == xdr.CryptoKeyTypeKeyTypeEd25519 && strkey.MustEncode(strkey.VersionByteAccountID, a.Ed25519[:]) == want
	}
	if len(ops) != 2 {
		return "has other than two operations"
	}
	for _, op := range ops {
		if op.SourceAccount != nil && !isG(op.SourceAccount, mediator) {
			return "has an operation sourced elsewhere"
		}
	}
	p := ops[0].Body
	if p.Type != xdr.OperationTypePayment || p.PaymentOp.Asset.Type != xdr.AssetTypeAssetTypeNative || !isG(&p.PaymentOp.Destination, dest) {
		return "does not start with a native payment to the destination"
	}
	mg := ops[1].Body
	if mg.Type != xdr.OperationTypeAccountMerge || !isG(mg.Destination, dest) {
		return "does not end with a merge into the destination"
	}
	if tb == nil || tb.MaxTime == 0 {
		return "has no maxTime"
	}
	limit := new(big.Int).Add(big.NewInt(now.Unix()), big.NewInt(3600))
	if new(big.Int).SetUint64(uint64(tb.MaxTime)).Cmp(limit) > 0 {
		return "has maxTime beyond the horizon"
	}
	return ""
}

// --- seed corpora ----------------------------------------------------------

// TestFuzzSeedCorpus keeps testdata/fuzz in step with the seeds above:
// `go test ./mediator -run TestFuzzSeedCorpus -update-corpus` rewrites it.
func TestFuzzSeedCorpus(t *testing.T) {
	want := map[string][]byte{}
	for i, s := range tokenSeeds() {
		want[filepath.Join("FuzzVerifyToken", fmt.Sprintf("seed-%02d", i))] =
			fmt.Appendf(nil, "go test fuzz v1\nstring(%q)\nint64(%d)\nbool(%v)\n", s.token, s.nowMillis, s.remac)
	}
	for i, s := range forwardSeeds() {
		name := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
				return r
			}
			return '-'
		}, s.name)
		want[filepath.Join("FuzzValidateForward", fmt.Sprintf("seed-%02d-%s", i, name))] =
			fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\nbool(%v)\nint64(%d)\n", s.data, s.raw, s.nowUnix)
	}
	for i, s := range orderSeeds() {
		want[filepath.Join("FuzzForwardOrder", fmt.Sprintf("seed-%02d-%s", i, strings.ReplaceAll(s.name, " ", "-")))] =
			fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\nint64(%d)\n", s.choice, s.delta)
	}
	root := filepath.Join("testdata", "fuzz")
	if *updateCorpus {
		for _, dir := range []string{"FuzzVerifyToken", "FuzzValidateForward", "FuzzForwardOrder"} {
			old, _ := filepath.Glob(filepath.Join(root, dir, "seed-*"))
			for _, p := range old {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for name, b := range want {
			if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s is missing or stale (run with -update-corpus): %v", name, err)
		}
	}
	have, _ := filepath.Glob(filepath.Join(root, "*", "seed-*"))
	if len(have) != len(want) {
		t.Errorf("%d seed files on disk, %d expected (run with -update-corpus)", len(have), len(want))
	}
}
