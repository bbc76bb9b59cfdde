package httpapi_test

import (
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/metrics"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Fixed keys: a valid master seed and unrelated account addresses.
const (
	medSecret    = "SCQ4TCDKE62QWMZFW7PTKBHDTKNUIQE65R3U2DXAP2NZIB634R2KZWPP"
	medDest      = "GATKWYOWMTFO75T6BXHL6I5BYIOXID5J6ZCPSGD635SXCUZD6XH7EO7E"
	medOtherDest = "GBUCMI3UOURNDZO6AM52AIYQB6FIVHPAWBNSAXS44N3GV4XVFJ55YP25"
	medIssuer    = "GA36ZD7G7AUM4J7KROYTHHRBSNA4ARLTJKTTZLEXQJB2JPW3YY4GS2O5"
	medPath      = "/api/mediator/sign"
)

type medRelay struct {
	url     string
	clock   *testClock
	metrics *metrics.Metrics
}

// medStart runs a relay on a loopback listener. An empty secret leaves
// Options.Mediator nil (the server's unconfigured default).
func medStart(t *testing.T, secret string, cors []string) *medRelay {
	t.Helper()
	clock := &testClock{t: time.Now().Truncate(time.Millisecond)}
	m := metrics.New()
	opts := httpapi.Options{Metrics: m, RateLimits: false, CORSAllowOrigins: cors}
	if secret != "" {
		opts.Mediator = mediator.New(mediator.Options{Secret: secret, Now: clock.Now})
	}
	srv := httptest.NewServer(httpapi.New(opts))
	t.Cleanup(srv.Close)
	return &medRelay{url: srv.URL, clock: clock, metrics: m}
}

type medResp struct {
	status int
	header http.Header
	body   []byte
}

func medDo(t *testing.T, method, url string, body io.Reader, hdr map[string]string) medResp {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return medResp{status: res.StatusCode, header: res.Header, body: b}
}

func (r *medRelay) get(t *testing.T, query string) medResp {
	t.Helper()
	return medDo(t, http.MethodGet, r.url+medPath+query, nil, nil)
}

func (r *medRelay) postRaw(t *testing.T, body string) medResp {
	t.Helper()
	return medDo(t, http.MethodPost, r.url+medPath, strings.NewReader(body), nil)
}

func (r *medRelay) post(t *testing.T, fields map[string]any) medResp {
	t.Helper()
	b, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return r.postRaw(t, string(b))
}

func (r *medRelay) cosign(t *testing.T, envelope, token, net string) medResp {
	t.Helper()
	return r.post(t, map[string]any{"envelopeXdr": envelope, "flowToken": token, "network": net})
}

func medNoStore(t *testing.T, r medResp) {
	t.Helper()
	if got := r.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", got)
	}
}

// medWantErr asserts status, no-store and a body of exactly {ok:false,code,reason}.
func medWantErr(t *testing.T, r medResp, status int, code string) string {
	t.Helper()
	medNoStore(t, r)
	if r.status != status {
		t.Errorf("status = %d, want %d (body %s)", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	if len(m) != 3 {
		t.Errorf("error body has keys %v, want exactly ok, code, reason", m)
	}
	if ok, isBool := m["ok"].(bool); !isBool || ok {
		t.Errorf("ok = %v, want false", m["ok"])
	}
	if m["code"] != code {
		t.Errorf("code = %v, want %s (body %s)", m["code"], code, r.body)
	}
	reason, _ := m["reason"].(string)
	if reason == "" {
		t.Errorf("reason = %v, want a non-empty string", m["reason"])
	}
	return reason
}

// medMint mints a flow for dest and returns the token and the mediator key.
func (r *medRelay) mint(t *testing.T, dest string) (token, pub string) {
	t.Helper()
	res := r.get(t, "?destination="+dest)
	if res.status != http.StatusOK {
		t.Fatalf("mint: status %d body %s", res.status, res.body)
	}
	var body struct {
		FlowToken         string `json:"flowToken"`
		MediatorPublicKey string `json:"mediatorPublicKey"`
	}
	if err := json.Unmarshal(res.body, &body); err != nil {
		t.Fatal(err)
	}
	return body.FlowToken, body.MediatorPublicKey
}

// --- forward envelopes -------------------------------------------------------

func medAcct(addr string) xdr.MuxedAccount { return xdr.MustMuxedAddress(addr) }

func medAcctPtr(addr string) *xdr.MuxedAccount { a := medAcct(addr); return &a }

func medMuxed(t *testing.T, g string, id uint64) string {
	t.Helper()
	m, err := xdr.MuxedAccountFromAccountId(g, id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.GetAddress()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func medPay(src *xdr.MuxedAccount, dest string, asset xdr.Asset) xdr.Operation {
	return xdr.Operation{SourceAccount: src, Body: xdr.OperationBody{
		Type:      xdr.OperationTypePayment,
		PaymentOp: &xdr.PaymentOp{Destination: medAcct(dest), Asset: asset, Amount: 10_000_000},
	}}
}

func medMerge(src *xdr.MuxedAccount, dest string) xdr.Operation {
	return xdr.Operation{SourceAccount: src, Body: xdr.OperationBody{
		Type:        xdr.OperationTypeAccountMerge,
		Destination: medAcctPtr(dest),
	}}
}

func medBump() xdr.Operation {
	return xdr.Operation{Body: xdr.OperationBody{
		Type:           xdr.OperationTypeBumpSequence,
		BumpSequenceOp: &xdr.BumpSequenceOp{BumpTo: 1},
	}}
}

func medTimeCond(maxTime uint64) xdr.Preconditions {
	return xdr.Preconditions{Type: xdr.PreconditionTypePrecondTime,
		TimeBounds: &xdr.TimeBounds{MinTime: 0, MaxTime: xdr.TimePoint(maxTime)}}
}

type medForward struct {
	feeBump  bool
	txSource xdr.MuxedAccount
	ops      []xdr.Operation
	cond     xdr.Preconditions
}

// medNewForward is the accepted shape for a flow's mediator and destination.
func medNewForward(mediatorAddr, dest string, maxTime uint64) *medForward {
	return &medForward{
		txSource: medAcct(mediatorAddr),
		ops:      []xdr.Operation{medPay(nil, dest, xdr.MustNewNativeAsset()), medMerge(nil, dest)},
		cond:     medTimeCond(maxTime),
	}
}

func (f *medForward) b64(t *testing.T) string {
	t.Helper()
	v1 := xdr.TransactionV1Envelope{Tx: xdr.Transaction{
		SourceAccount: f.txSource, Fee: 200, SeqNum: 7, Cond: f.cond, Memo: xdr.MemoID(4242), Operations: f.ops,
	}}
	env := xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &v1}
	if f.feeBump {
		env = xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTxFeeBump, FeeBump: &xdr.FeeBumpTransactionEnvelope{
			Tx: xdr.FeeBumpTransaction{
				FeeSource: medAcct(medOtherDest), Fee: 400,
				InnerTx: xdr.FeeBumpTransactionInnerTx{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &v1},
			},
		}}
	}
	s, err := xdr.MarshalBase64(env)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (r *medRelay) maxTime(d time.Duration) uint64 {
	return uint64(r.clock.Now().Add(d).Unix())
}

// medCosignCount reads closerelay_mediator_cosign_total{result} from the registry.
func medCosignCount(t *testing.T, m *metrics.Metrics, result string) float64 {
	t.Helper()
	fams, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != "closerelay_mediator_cosign_total" {
			continue
		}
		for _, mt := range f.GetMetric() {
			for _, l := range mt.GetLabel() {
				if l.GetName() == "result" && l.GetValue() == result {
					return mt.GetCounter().GetValue()
				}
			}
		}
		return 0
	}
	t.Fatal("closerelay_mediator_cosign_total not gathered")
	return 0
}

// --- GET ---------------------------------------------------------------------

var (
	medNonceRE = regexp.MustCompile(`^[0-9a-f]{32}$`)
	medMACRE   = regexp.MustCompile(`^[0-9a-f]{64}$`)
	medExpRE   = regexp.MustCompile(`^[0-9]+$`)
)

func TestMedMintSuccess(t *testing.T) {
	r := medStart(t, medSecret, nil)
	res := r.get(t, "?destination="+medDest)
	medNoStore(t, res)
	if res.status != http.StatusOK {
		t.Fatalf("status %d body %s", res.status, res.body)
	}
	var raw map[string]any
	if err := json.Unmarshal(res.body, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw) != 2 {
		t.Fatalf("body keys %v, want exactly flowToken and mediatorPublicKey", raw)
	}
	token, _ := raw["flowToken"].(string)
	pub, _ := raw["mediatorPublicKey"].(string)
	if _, ok := raw["ok"]; ok {
		t.Error("mint body carries an ok field")
	}
	if _, err := keypair.ParseAddress(pub); err != nil || !strings.HasPrefix(pub, "G") {
		t.Errorf("mediatorPublicKey %q is not a G… address: %v", pub, err)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 4 {
		t.Fatalf("token %q has %d parts, want 4", token, len(parts))
	}
	if !medNonceRE.MatchString(parts[0]) {
		t.Errorf("nonce %q is not 32 lowercase hex", parts[0])
	}
	if !medExpRE.MatchString(parts[1]) {
		t.Errorf("expiry %q is not a decimal integer", parts[1])
	}
	exp, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	want := r.clock.Now().Add(15 * time.Minute).UnixMilli()
	if exp < want-1000 || exp > want+1000 {
		t.Errorf("expiry %d, want about %d (now + 15 min)", exp, want)
	}
	if parts[2] != medDest {
		t.Errorf("token destination %q, want %q", parts[2], medDest)
	}
	if !medMACRE.MatchString(parts[3]) {
		t.Errorf("MAC %q is not 64 lowercase hex", parts[3])
	}
	token2, pub2 := r.mint(t, medDest)
	if token2 == token || strings.Split(token2, ".")[0] == parts[0] || pub2 == pub {
		t.Errorf("two mints gave the same flow: %q/%q and %q/%q", token, pub, token2, pub2)
	}
}

func TestMedMintInvalidDestination(t *testing.T) {
	seed := keypair.MustRandom()
	cases := map[string]string{
		"missing":     "",
		"empty":       "?destination=",
		"garbage":     "?destination=not-a-key",
		"muxed":       "?destination=" + medMuxed(t, medDest, 7),
		"seed":        "?destination=" + seed.Seed(),
		"lowercase G": "?destination=" + strings.ToLower(medDest),
	}
	for _, secret := range []string{medSecret, ""} {
		r := medStart(t, secret, nil)
		for name, q := range cases {
			t.Run(name+"/configured="+strconv.FormatBool(secret != ""), func(t *testing.T) {
				medWantErr(t, r.get(t, q), http.StatusBadRequest, "INVALID_DESTINATION")
			})
		}
	}
}

func TestMedMintNotConfigured(t *testing.T) {
	for name, secret := range map[string]string{
		"unset":     "",
		"malformed": "S" + strings.Repeat("A", 55),
	} {
		t.Run(name, func(t *testing.T) {
			r := medStart(t, secret, nil)
			reason := medWantErr(t, r.get(t, "?destination="+medDest), http.StatusInternalServerError, "MEDIATOR_NOT_CONFIGURED")
			low := strings.ToLower(reason)
			for _, leak := range []string{"mediator_secret", "seed", "malformed", "unset", "checksum", "aaaa"} {
				if strings.Contains(low, leak) {
					t.Errorf("reason %q leaks configuration detail %q", reason, leak)
				}
			}
		})
	}
}

// --- POST --------------------------------------------------------------------

func TestMedCosignSuccess(t *testing.T) {
	r := medStart(t, medSecret, nil)
	for net, pass := range map[string]string{
		"testnet":   network.TestNetworkPassphrase,
		"mainnet":   network.PublicNetworkPassphrase,
		"futurenet": network.FutureNetworkPassphrase,
	} {
		t.Run(net, func(t *testing.T) {
			token, pub := r.mint(t, medDest)
			envelope := medNewForward(pub, medDest, r.maxTime(10*time.Minute)).b64(t)
			res := r.cosign(t, envelope, token, net)
			medNoStore(t, res)
			if res.status != http.StatusOK {
				t.Fatalf("status %d body %s", res.status, res.body)
			}
			var raw map[string]any
			if err := json.Unmarshal(res.body, &raw); err != nil {
				t.Fatal(err)
			}
			if len(raw) != 3 || raw["ok"] != true {
				t.Fatalf("body %s, want exactly ok:true, signedXdr, hash", res.body)
			}
			signed, _ := raw["signedXdr"].(string)
			hashHex, _ := raw["hash"].(string)
			if !medMACRE.MatchString(hashHex) {
				t.Errorf("hash %q is not 64 lowercase hex", hashHex)
			}
			var env xdr.TransactionEnvelope
			if err := xdr.SafeUnmarshalBase64(signed, &env); err != nil {
				t.Fatalf("signedXdr does not decode: %v", err)
			}
			if env.Type != xdr.EnvelopeTypeEnvelopeTypeTx || len(env.V1.Signatures) != 1 {
				t.Fatalf("signed envelope type %v, want V1 with one signature", env.Type)
			}
			hash, err := network.HashTransactionInEnvelope(env, pass)
			if err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(hash[:]) != hashHex {
				t.Errorf("hash %s, want %x (tx hash under %s)", hashHex, hash, net)
			}
			kp, err := keypair.ParseAddress(pub)
			if err != nil {
				t.Fatal(err)
			}
			sig := env.V1.Signatures[0]
			if sig.Hint != xdr.SignatureHint(kp.Hint()) {
				t.Errorf("signature hint %x, want %x", sig.Hint, kp.Hint())
			}
			if err := kp.Verify(hash[:], sig.Signature); err != nil {
				t.Errorf("signature does not verify under mediatorPublicKey: %v", err)
			}
			// The signed tx body must be the one we sent.
			var orig xdr.TransactionEnvelope
			if err := xdr.SafeUnmarshalBase64(envelope, &orig); err != nil {
				t.Fatal(err)
			}
			origHash, _ := network.HashTransactionInEnvelope(orig, pass)
			if origHash != hash {
				t.Error("signed envelope's transaction differs from the one posted")
			}
		})
	}
}

func TestMedCosignBadRequest(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	envelope := medNewForward(pub, medDest, r.maxTime(time.Minute)).b64(t)
	for name, body := range map[string]string{
		"array":                `[]`,
		"null":                 `null`,
		"string":               `"x"`,
		"number":               `5`,
		"not json":             `{"envelopeXdr":`,
		"empty body":           ``,
		"empty object":         `{}`,
		"missing envelope":     `{"flowToken":"` + token + `","network":"testnet"}`,
		"empty envelope":       `{"envelopeXdr":"","flowToken":"` + token + `","network":"testnet"}`,
		"number envelope":      `{"envelopeXdr":5,"flowToken":"` + token + `","network":"testnet"}`,
		"null envelope":        `{"envelopeXdr":null,"flowToken":"` + token + `","network":"testnet"}`,
		"missing token":        `{"envelopeXdr":"` + envelope + `","network":"testnet"}`,
		"empty token":          `{"envelopeXdr":"` + envelope + `","flowToken":"","network":"testnet"}`,
		"object token":         `{"envelopeXdr":"` + envelope + `","flowToken":{},"network":"testnet"}`,
		"bad network too":      `{"envelopeXdr":"","flowToken":"` + token + `","network":"TESTNET"}`,
		"wrong-case key":       `{"EnvelopeXdr":"` + envelope + `","flowToken":"` + token + `","network":"testnet"}`,
		"missing all but net":  `{"network":"nope"}`,
		"empty token bad xdr":  `{"envelopeXdr":"@@","flowToken":"","network":"testnet"}`,
		"token number bad net": `{"envelopeXdr":"` + envelope + `","flowToken":1,"network":1}`,
	} {
		t.Run(name, func(t *testing.T) {
			medWantErr(t, r.postRaw(t, body), http.StatusBadRequest, "BAD_REQUEST")
		})
	}
}

func TestMedCosignBadNetwork(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	envelope := medNewForward(pub, medDest, r.maxTime(time.Minute)).b64(t)
	for name, net := range map[string]any{
		"missing": nil, "upper": "TESTNET", "public": "public", "empty": "", "number": 1,
		"padded": " testnet", "passphrase": network.TestNetworkPassphrase,
	} {
		t.Run(name, func(t *testing.T) {
			fields := map[string]any{"envelopeXdr": envelope, "flowToken": token}
			if net != nil {
				fields["network"] = net
			}
			medWantErr(t, r.post(t, fields), http.StatusBadRequest, "BAD_NETWORK")
		})
	}
	t.Run("bad network before bad token", func(t *testing.T) {
		medWantErr(t, r.cosign(t, envelope, "a.b.c.d", "public"), http.StatusBadRequest, "BAD_NETWORK")
	})
	t.Run("bad network before not configured", func(t *testing.T) {
		u := medStart(t, "", nil)
		medWantErr(t, u.cosign(t, envelope, token, "TESTNET"), http.StatusBadRequest, "BAD_NETWORK")
	})
}

func TestMedCosignNotConfigured(t *testing.T) {
	good := medStart(t, medSecret, nil)
	token, pub := good.mint(t, medDest)
	envelope := medNewForward(pub, medDest, good.maxTime(time.Minute)).b64(t)
	for name, secret := range map[string]string{"unset": "", "malformed": "S" + strings.Repeat("A", 55)} {
		t.Run(name, func(t *testing.T) {
			r := medStart(t, secret, nil)
			// A valid-looking token and a garbage one: configuration comes first.
			medWantErr(t, r.cosign(t, envelope, token, "testnet"), http.StatusInternalServerError, "MEDIATOR_NOT_CONFIGURED")
			reason := medWantErr(t, r.cosign(t, "@@", "garbage", "testnet"), http.StatusInternalServerError, "MEDIATOR_NOT_CONFIGURED")
			if strings.Contains(strings.ToLower(reason), "malformed") || strings.Contains(strings.ToLower(reason), "seed") {
				t.Errorf("reason %q leaks the configuration detail", reason)
			}
			if got := medCosignCount(t, r.metrics, "MEDIATOR_NOT_CONFIGURED"); got != 2 {
				t.Errorf("cosign_total{MEDIATOR_NOT_CONFIGURED} = %v, want 2", got)
			}
		})
	}
}

func TestMedCosignInvalidFlowToken(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	parts := strings.Split(token, ".")
	envelope := medNewForward(pub, medDest, r.maxTime(20*time.Minute)).b64(t)
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == '0' {
			b[i] = '1'
		} else {
			b[i] = '0'
		}
		return string(b)
	}
	other := medStart(t, keypair.MustRandom().Seed(), nil)
	foreign, _ := other.mint(t, medDest)
	cases := map[string]string{
		"tampered MAC":         strings.Join([]string{parts[0], parts[1], parts[2], flip(parts[3], 63)}, "."),
		"tampered nonce":       strings.Join([]string{flip(parts[0], 0), parts[1], parts[2], parts[3]}, "."),
		"extended expiry":      strings.Join([]string{parts[0], parts[1] + "0", parts[2], parts[3]}, "."),
		"swapped destination":  strings.Join([]string{parts[0], parts[1], medOtherDest, parts[3]}, "."),
		"three parts":          strings.Join(parts[:3], "."),
		"five parts":           token + ".00",
		"short MAC":            strings.Join([]string{parts[0], parts[1], parts[2], parts[3][:62]}, "."),
		"uppercase nonce":      strings.Join([]string{strings.ToUpper(parts[0]), parts[1], parts[2], parts[3]}, "."),
		"garbage":              "garbage",
		"other master's token": foreign,
	}
	for name, tok := range cases {
		t.Run(name, func(t *testing.T) {
			medWantErr(t, r.cosign(t, envelope, tok, "testnet"), http.StatusBadRequest, "INVALID_FLOW_TOKEN")
		})
	}
	t.Run("bad token before malformed xdr", func(t *testing.T) {
		medWantErr(t, r.cosign(t, "@@not-xdr@@", cases["tampered MAC"], "testnet"), http.StatusBadRequest, "INVALID_FLOW_TOKEN")
	})
	t.Run("uppercase MAC accepted (CONTRACT 8)", func(t *testing.T) {
		up := strings.Join([]string{parts[0], parts[1], parts[2], strings.ToUpper(parts[3])}, ".")
		if res := r.cosign(t, envelope, up, "testnet"); res.status != http.StatusOK {
			t.Errorf("status %d body %s, want 200", res.status, res.body)
		}
	})
	t.Run("expiry", func(t *testing.T) {
		tok, p := r.mint(t, medDest)
		r.clock.Advance(15*time.Minute - time.Second)
		env := medNewForward(p, medDest, r.maxTime(time.Minute)).b64(t)
		if res := r.cosign(t, env, tok, "testnet"); res.status != http.StatusOK {
			t.Fatalf("just before expiry: status %d body %s", res.status, res.body)
		}
		r.clock.Advance(2 * time.Second)
		env = medNewForward(p, medDest, r.maxTime(time.Minute)).b64(t)
		medWantErr(t, r.cosign(t, env, tok, "testnet"), http.StatusBadRequest, "INVALID_FLOW_TOKEN")
	})
}

func TestMedCosignForwardCodes(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	credit := xdr.MustNewCreditAsset("USD", medIssuer)
	type tc struct {
		code  string
		raw   string // a raw envelope instead of a built one
		build func(f *medForward)
	}
	cases := map[string]tc{
		"not base64":        {code: "MALFORMED_XDR", raw: "@@not-xdr@@"},
		"base64 garbage":    {code: "MALFORMED_XDR", raw: "AAAAAgAAAA=="},
		"fee bump":          {code: "FEE_BUMP_NOT_ALLOWED", build: func(f *medForward) { f.feeBump = true }},
		"tx source other":   {code: "FORWARD_TX_SOURCE_NOT_MEDIATOR", build: func(f *medForward) { f.txSource = medAcct(medOtherDest) }},
		"tx source muxed":   {code: "FORWARD_TX_SOURCE_NOT_MEDIATOR", build: func(f *medForward) { f.txSource = medAcct(medMuxed(t, pub, 1)) }},
		"one op":            {code: "WRONG_OPERATION_COUNT", build: func(f *medForward) { f.ops = f.ops[:1] }},
		"three ops":         {code: "WRONG_OPERATION_COUNT", build: func(f *medForward) { f.ops = append(f.ops, medBump()) }},
		"op0 bump":          {code: "FORWARD_OP0_NOT_PAYMENT", build: func(f *medForward) { f.ops[0] = medBump() }},
		"op0 credit":        {code: "FORWARD_OP0_ASSET_NOT_NATIVE", build: func(f *medForward) { f.ops[0] = medPay(nil, medDest, credit) }},
		"op0 source other":  {code: "FORWARD_OP0_SOURCE_NOT_MEDIATOR", build: func(f *medForward) { f.ops[0].SourceAccount = medAcctPtr(medOtherDest) }},
		"op1 payment":       {code: "FORWARD_OP1_NOT_ACCOUNT_MERGE", build: func(f *medForward) { f.ops[1] = medPay(nil, medDest, xdr.MustNewNativeAsset()) }},
		"op1 source other":  {code: "FORWARD_OP1_SOURCE_NOT_MEDIATOR", build: func(f *medForward) { f.ops[1].SourceAccount = medAcctPtr(medOtherDest) }},
		"merge elsewhere":   {code: "FORWARD_DESTINATION_MISMATCH", build: func(f *medForward) { f.ops[1] = medMerge(nil, medOtherDest) }},
		"pay muxed merge G": {code: "FORWARD_DESTINATION_MISMATCH", build: func(f *medForward) { f.ops[0] = medPay(nil, medMuxed(t, medDest, 3), xdr.MustNewNativeAsset()) }},
		"both elsewhere": {code: "FORWARD_DESTINATION_NOT_COMMITTED", build: func(f *medForward) {
			f.ops = []xdr.Operation{medPay(nil, medOtherDest, xdr.MustNewNativeAsset()), medMerge(nil, medOtherDest)}
		}},
		"both muxed dest": {code: "FORWARD_DESTINATION_NOT_COMMITTED", build: func(f *medForward) {
			m := medMuxed(t, medDest, 3)
			f.ops = []xdr.Operation{medPay(nil, m, xdr.MustNewNativeAsset()), medMerge(nil, m)}
		}},
		"no time bounds":    {code: "MISSING_TIME_BOUNDS", build: func(f *medForward) { f.cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondNone} }},
		"maxTime zero":      {code: "MISSING_TIME_BOUNDS", build: func(f *medForward) { f.cond = medTimeCond(0) }},
		"maxTime beyond 1h": {code: "TIME_BOUNDS_EXCESSIVE", build: func(f *medForward) { f.cond = medTimeCond(r.maxTime(3601 * time.Second)) }},
		"dest checked before tb": {code: "FORWARD_DESTINATION_NOT_COMMITTED", build: func(f *medForward) {
			f.ops = []xdr.Operation{medPay(nil, medOtherDest, xdr.MustNewNativeAsset()), medMerge(nil, medOtherDest)}
			f.cond = medTimeCond(0)
		}},
		"tx source before ops": {code: "FORWARD_TX_SOURCE_NOT_MEDIATOR", build: func(f *medForward) { f.txSource = medAcct(medOtherDest); f.ops = f.ops[:1] }},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			env := c.raw
			if env == "" {
				f := medNewForward(pub, medDest, r.maxTime(10*time.Minute))
				c.build(f)
				env = f.b64(t)
			}
			medWantErr(t, r.cosign(t, env, token, "testnet"), http.StatusBadRequest, c.code)
		})
	}
	for name, f := range map[string]*medForward{
		"maxTime exactly 1h":      medNewForward(pub, medDest, r.maxTime(3600*time.Second)),
		"maxTime already past":    medNewForward(pub, medDest, r.maxTime(-time.Hour)),
		"op sources the mediator": {txSource: medAcct(pub), ops: []xdr.Operation{medPay(medAcctPtr(pub), medDest, xdr.MustNewNativeAsset()), medMerge(medAcctPtr(pub), medDest)}, cond: medTimeCond(r.maxTime(time.Minute))},
	} {
		t.Run("accepted/"+name, func(t *testing.T) {
			if res := r.cosign(t, f.b64(t), token, "testnet"); res.status != http.StatusOK {
				t.Errorf("status %d body %s, want 200", res.status, res.body)
			}
		})
	}
}

func TestMedCosignPayloadTooLarge(t *testing.T) {
	r := medStart(t, medSecret, nil)
	big := `{"envelopeXdr":"` + strings.Repeat("A", 16400) + `","flowToken":"x","network":"testnet"}`
	t.Run("content-length", func(t *testing.T) {
		medWantErr(t, r.postRaw(t, big), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	})
	t.Run("chunked", func(t *testing.T) {
		// io.MultiReader hides the length, so the client sends it chunked.
		res := medDo(t, http.MethodPost, r.url+medPath, io.MultiReader(strings.NewReader(big)), nil)
		medWantErr(t, res, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	})
	t.Run("at the cap is read", func(t *testing.T) {
		body := `{"envelopeXdr":"x","flowToken":"x","network":"nope","pad":"`
		body += strings.Repeat("A", 16384-len(body)-2) + `"}`
		if len(body) != 16384 {
			t.Fatalf("len %d", len(body))
		}
		medWantErr(t, r.postRaw(t, body), http.StatusBadRequest, "BAD_NETWORK")
	})
}

// --- methods and CORS --------------------------------------------------------

func TestMedMethodNotAllowed(t *testing.T) {
	r := medStart(t, medSecret, nil)
	for _, m := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete} {
		t.Run(m, func(t *testing.T) {
			res := medDo(t, m, r.url+medPath, strings.NewReader(`{}`), nil)
			medWantErr(t, res, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
			if got := res.header.Get("Allow"); got != "POST, GET, OPTIONS" {
				t.Errorf("Allow = %q", got)
			}
		})
	}
	t.Run("HEAD", func(t *testing.T) {
		res := medDo(t, http.MethodHead, r.url+medPath+"?destination="+medDest, nil, nil)
		if res.status != http.StatusMethodNotAllowed {
			t.Errorf("status %d, want 405", res.status)
		}
		if got := res.header.Get("Allow"); got != "POST, GET, OPTIONS" {
			t.Errorf("Allow = %q", got)
		}
		if len(res.body) != 0 {
			t.Errorf("HEAD body %q, want none", res.body)
		}
		medNoStore(t, res)
	})
	t.Run("OPTIONS without CORS", func(t *testing.T) {
		res := medDo(t, http.MethodOptions, r.url+medPath, nil, map[string]string{"Origin": "https://wallet.example"})
		if res.status != http.StatusNoContent {
			t.Errorf("status %d, want 204", res.status)
		}
		if got := res.header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("Access-Control-Allow-Origin = %q with no origins configured", got)
		}
		medNoStore(t, res)
	})
}

func TestMedCORS(t *testing.T) {
	const allowed = "https://wallet.example"
	r := medStart(t, medSecret, []string{allowed})
	preflight := func(origin string) medResp {
		return medDo(t, http.MethodOptions, r.url+medPath, nil, map[string]string{
			"Origin":                         origin,
			"Access-Control-Request-Method":  http.MethodPost,
			"Access-Control-Request-Headers": "content-type",
		})
	}
	t.Run("allowed preflight", func(t *testing.T) {
		res := preflight(allowed)
		if res.status != http.StatusNoContent {
			t.Errorf("status %d, want 204", res.status)
		}
		if got := res.header.Get("Access-Control-Allow-Origin"); got != allowed {
			t.Errorf("Access-Control-Allow-Origin = %q, want %q", got, allowed)
		}
		if got := res.header.Get("Access-Control-Allow-Methods"); !strings.Contains(got, "POST") {
			t.Errorf("Access-Control-Allow-Methods = %q, want POST listed", got)
		}
	})
	t.Run("other origin preflight", func(t *testing.T) {
		res := preflight("https://evil.example")
		if res.status != http.StatusNoContent {
			t.Errorf("status %d, want 204", res.status)
		}
		if got := res.header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("Access-Control-Allow-Origin = %q for an unlisted origin", got)
		}
	})
	t.Run("ordinary GET from allowed origin", func(t *testing.T) {
		res := medDo(t, http.MethodGet, r.url+medPath+"?destination="+medDest, nil, map[string]string{"Origin": allowed})
		if res.status != http.StatusOK {
			t.Errorf("status %d", res.status)
		}
		if got := res.header.Get("Access-Control-Allow-Origin"); got != allowed {
			t.Errorf("Access-Control-Allow-Origin = %q, want %q", got, allowed)
		}
		medNoStore(t, res)
	})
	t.Run("error POST from allowed origin", func(t *testing.T) {
		res := medDo(t, http.MethodPost, r.url+medPath, strings.NewReader(`[]`), map[string]string{"Origin": allowed})
		medWantErr(t, res, http.StatusBadRequest, "BAD_REQUEST")
		if got := res.header.Get("Access-Control-Allow-Origin"); got != allowed {
			t.Errorf("Access-Control-Allow-Origin = %q on an error, want %q", got, allowed)
		}
	})
	t.Run("ordinary GET from other origin", func(t *testing.T) {
		res := medDo(t, http.MethodGet, r.url+medPath+"?destination="+medDest, nil, map[string]string{"Origin": "https://evil.example"})
		if got := res.header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("Access-Control-Allow-Origin = %q for an unlisted origin", got)
		}
	})
}

// --- metrics -----------------------------------------------------------------

func TestMedCosignMetrics(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	good := medNewForward(pub, medDest, r.maxTime(time.Minute)).b64(t)
	if got := medCosignCount(t, r.metrics, "signed"); got != 0 {
		t.Fatalf("signed before any request = %v", got)
	}
	for i := 0; i < 2; i++ {
		if res := r.cosign(t, good, token, "testnet"); res.status != http.StatusOK {
			t.Fatalf("status %d body %s", res.status, res.body)
		}
	}
	r.postRaw(t, `[]`)
	r.cosign(t, good, token, "public")
	r.cosign(t, good, "x.y.z.w", "testnet")
	r.cosign(t, good, "x.y.z.w", "testnet")
	f := medNewForward(pub, medDest, r.maxTime(time.Minute))
	f.feeBump = true
	r.cosign(t, f.b64(t), token, "testnet")
	r.cosign(t, "@@", token, "testnet")
	want := map[string]float64{
		"signed": 2, "BAD_REQUEST": 1, "BAD_NETWORK": 1, "INVALID_FLOW_TOKEN": 2,
		"FEE_BUMP_NOT_ALLOWED": 1, "MALFORMED_XDR": 1, "FORWARD_TX_SOURCE_NOT_MEDIATOR": 0,
	}
	for result, n := range want {
		if got := medCosignCount(t, r.metrics, result); got != n {
			t.Errorf("closerelay_mediator_cosign_total{result=%q} = %v, want %v", result, got, n)
		}
	}
	// GET and method refusals are not co-sign answers.
	r.get(t, "?destination=bad")
	medDo(t, http.MethodPut, r.url+medPath, nil, nil)
	if got := medCosignCount(t, r.metrics, "INVALID_DESTINATION"); got != 0 {
		t.Errorf("cosign_total{INVALID_DESTINATION} = %v, want 0", got)
	}
}

// TestMedCosignMetricsPayloadTooLarge: CONTRACT 7 counts every co-sign answer
// by its code, and the 413 is one of POST's answers (CONTRACT 6 step 2). A
// chunked oversize body is counted; a Content-Length one is refused by the
// bodyCap middleware before cosign runs and is not (reported as a bug), so
// that case is skipped rather than failed.
func TestMedCosignMetricsPayloadTooLarge(t *testing.T) {
	r := medStart(t, medSecret, nil)
	big := `{"envelopeXdr":"` + strings.Repeat("A", 17000) + `"}`
	res := medDo(t, http.MethodPost, r.url+medPath, io.MultiReader(strings.NewReader(big)), nil)
	medWantErr(t, res, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	if got := medCosignCount(t, r.metrics, "PAYLOAD_TOO_LARGE"); got != 1 {
		t.Errorf("chunked: cosign_total{PAYLOAD_TOO_LARGE} = %v, want 1", got)
	}
	medWantErr(t, r.postRaw(t, big), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	if got := medCosignCount(t, r.metrics, "PAYLOAD_TOO_LARGE"); got != 2 {
		t.Errorf("Content-Length: cosign_total{PAYLOAD_TOO_LARGE} = %v, want 2", got)
	}
}

// TestMedCosignRateLimited: RateLimits on, the sixth POST in a minute is a
// JSON 429 with Retry-After, before the body is looked at.
func TestMedCosignRateLimited(t *testing.T) {
	m := metrics.New()
	srv := httptest.NewServer(httpapi.New(httpapi.Options{Metrics: m, RateLimits: true,
		Mediator: mediator.New(mediator.Options{Secret: medSecret})}))
	t.Cleanup(srv.Close)
	r := &medRelay{url: srv.URL, metrics: m}
	for i := 0; i < 5; i++ {
		medWantErr(t, r.postRaw(t, `[]`), http.StatusBadRequest, "BAD_REQUEST")
	}
	res := r.postRaw(t, strings.Repeat("A", 20000))
	medWantErr(t, res, http.StatusTooManyRequests, "RATE_LIMITED")
	if res.header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
	if got := medCosignCount(t, m, "RATE_LIMITED"); got != 1 {
		t.Errorf("cosign_total{RATE_LIMITED} = %v, want 1", got)
	}
}
