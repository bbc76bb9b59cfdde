package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/mediator"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/strkey"
)

// --- GET ---------------------------------------------------------------------

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
	if want := strconv.FormatInt(r.clock.Now().Add(15*time.Minute).UnixMilli(), 10); parts[1] != want {
		t.Errorf("expiry %s, want %s (now + 15 min)", parts[1], want)
	}
	if parts[2] != medDest {
		t.Errorf("token destination %q, want %q", parts[2], medDest)
	}
	if !medMACRE.MatchString(parts[3]) {
		t.Errorf("MAC %q is not 64 lowercase hex", parts[3])
	}
	// Derivation is SPEC's: anyone holding the master recomputes both.
	master, err := mediator.ParseMaster(medSecret)
	if err != nil {
		t.Fatal(err)
	}
	if kp, err := master.FlowKeypair(parts[0]); err != nil || kp.Address() != pub {
		t.Errorf("mediatorPublicKey %s is not the flow key of nonce %s (%v)", pub, parts[0], err)
	}
	if mac := master.TokenMAC(parts[0], parts[1], parts[2]); mac != parts[3] {
		t.Errorf("MAC %s, want %s", parts[3], mac)
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
		"muxed":       "?destination=" + mt.Muxed(medDest, 7),
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

// TestMedCosignSuccess: on each network the mediator signs the hash under
// that network's passphrase, so the signature verifies there only.
func TestMedCosignSuccess(t *testing.T) {
	r := medStart(t, medSecret, nil)
	for net, pass := range map[string]string{
		"testnet":   network.TestNetworkPassphrase,
		"mainnet":   network.PublicNetworkPassphrase,
		"futurenet": network.FutureNetworkPassphrase,
	} {
		t.Run(net, func(t *testing.T) {
			token, pub := r.mint(t, medDest)
			f := mt.NewForward(pub, medDest, r.maxTime(10*time.Minute))
			f.Sigs = mt.DummySigs(2)
			envelope := f.B64()
			medWantSigned(t, r.cosign(t, envelope, token, net), envelope, pub, pass)
		})
	}
}

func TestMedCosignBadRequest(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	envelope := mt.NewForward(pub, medDest, r.maxTime(time.Minute)).B64()
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
	envelope := mt.NewForward(pub, medDest, r.maxTime(time.Minute)).B64()
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
	envelope := mt.NewForward(pub, medDest, good.maxTime(time.Minute)).B64()
	for name, secret := range map[string]string{"unset": "", "malformed": "S" + strings.Repeat("A", 55)} {
		t.Run(name, func(t *testing.T) {
			r := medStart(t, secret, nil)
			// A valid-looking token and a garbage one: configuration comes first.
			medWantErr(t, r.cosign(t, envelope, token, "testnet"), http.StatusInternalServerError, "MEDIATOR_NOT_CONFIGURED")
			reason := medWantErr(t, r.cosign(t, "@@", "garbage", "testnet"), http.StatusInternalServerError, "MEDIATOR_NOT_CONFIGURED")
			if strings.Contains(strings.ToLower(reason), "malformed") || strings.Contains(strings.ToLower(reason), "seed") {
				t.Errorf("reason %q leaks the configuration detail", reason)
			}
			if got := metricSum(t, r.metrics, cosignTotal, "result", "MEDIATOR_NOT_CONFIGURED"); got != 2 {
				t.Errorf("cosign_total{MEDIATOR_NOT_CONFIGURED} = %v, want 2", got)
			}
		})
	}
}

func TestMedCosignInvalidFlowToken(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	parts := strings.Split(token, ".")
	envelope := mt.NewForward(pub, medDest, r.maxTime(20*time.Minute)).B64()
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
		env := mt.NewForward(p, medDest, r.maxTime(time.Minute)).B64()
		if res := r.cosign(t, env, tok, "testnet"); res.status != http.StatusOK {
			t.Fatalf("just before expiry: status %d body %s", res.status, res.body)
		}
		r.clock.Advance(2 * time.Second)
		env = mt.NewForward(p, medDest, r.maxTime(time.Minute)).B64()
		medWantErr(t, r.cosign(t, env, tok, "testnet"), http.StatusBadRequest, "INVALID_FLOW_TOKEN")
	})
}

// TestMedCosignForwardCodes runs mediatortest's tables through the route:
// every accepted shape (omitted and explicit op sources, V0, PRECOND_V2,
// maxTime exactly 3600 s ahead), all 14 refusal sites of the 13 codes (muxed
// tx source, op sources and destinations among them), and a tie-break for
// every adjacent pair of codes. The same tables run against ValidateForward
// in mediator's own tests.
func TestMedCosignForwardCodes(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	cases := append(mt.Cases(pub, medDest, r.clock.Now()), mt.TieBreaks(pub, medDest, r.clock.Now())...)
	seen := map[string]bool{}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			res := r.cosign(t, c.B64, token, "testnet")
			switch {
			case c.B64 == "":
				// An empty envelopeXdr never reaches the forward checks (CONTRACT 6 step 3).
				medWantErr(t, res, http.StatusBadRequest, "BAD_REQUEST")
			case c.Want == "":
				medWantSigned(t, res, c.B64, pub, network.TestNetworkPassphrase)
			default:
				reason := medWantErr(t, res, http.StatusBadRequest, c.Want)
				if !strings.Contains(reason, c.ReasonHas) {
					t.Errorf("reason %q does not contain %q", reason, c.ReasonHas)
				}
				seen[c.Want] = true
			}
		})
	}
	for _, code := range mediator.ForwardCodes() {
		if !seen[string(code)] {
			t.Errorf("no case answered %s over HTTP", code)
		}
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
		res := r.do(t, http.MethodPost, "", io.MultiReader(strings.NewReader(big)), nil)
		medWantErr(t, res, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	})
	t.Run("before BAD_REQUEST", func(t *testing.T) {
		medWantErr(t, r.postRaw(t, "["+strings.Repeat(" ", 16400)), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
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
	for _, m := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodTrace, "PROPFIND", "FOO"} {
		t.Run(m, func(t *testing.T) {
			res := r.do(t, m, "", strings.NewReader(`{}`), nil)
			medWantErr(t, res, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
			if got := res.header.Get("Allow"); got != "POST, GET, OPTIONS" {
				t.Errorf("Allow = %q", got)
			}
		})
	}
	t.Run("HEAD", func(t *testing.T) {
		res := r.do(t, http.MethodHead, "?destination="+medDest, nil, nil)
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
		res := r.do(t, http.MethodOptions, "", nil, map[string]string{"Origin": "https://wallet.example"})
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
	r := medStart(t, medSecret, func(o *httpapi.Options) { o.CORSAllowOrigins = []string{allowed} })
	preflight := func(origin string) response {
		return r.do(t, http.MethodOptions, "", nil, map[string]string{
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
		res := r.do(t, http.MethodGet, "?destination="+medDest, nil, map[string]string{"Origin": allowed})
		if res.status != http.StatusOK {
			t.Errorf("status %d", res.status)
		}
		if got := res.header.Get("Access-Control-Allow-Origin"); got != allowed {
			t.Errorf("Access-Control-Allow-Origin = %q, want %q", got, allowed)
		}
		medNoStore(t, res)
	})
	t.Run("error POST from allowed origin", func(t *testing.T) {
		res := r.do(t, http.MethodPost, "", strings.NewReader(`[]`), map[string]string{"Origin": allowed})
		medWantErr(t, res, http.StatusBadRequest, "BAD_REQUEST")
		if got := res.header.Get("Access-Control-Allow-Origin"); got != allowed {
			t.Errorf("Access-Control-Allow-Origin = %q on an error, want %q", got, allowed)
		}
	})
	t.Run("ordinary GET from other origin", func(t *testing.T) {
		res := r.do(t, http.MethodGet, "?destination="+medDest, nil, map[string]string{"Origin": "https://evil.example"})
		if got := res.header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("Access-Control-Allow-Origin = %q for an unlisted origin", got)
		}
	})
}

// --- metrics -----------------------------------------------------------------

func TestMedCosignMetrics(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	good := mt.NewForward(pub, medDest, r.maxTime(time.Minute)).B64()
	if got := metricSum(t, r.metrics, cosignTotal, "result", "signed"); got != 0 {
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
	f := mt.NewForward(pub, medDest, r.maxTime(time.Minute))
	f.FeeBump = true
	r.cosign(t, f.B64(), token, "testnet")
	r.cosign(t, "@@", token, "testnet")
	want := map[string]float64{
		"signed": 2, "BAD_REQUEST": 1, "BAD_NETWORK": 1, "INVALID_FLOW_TOKEN": 2,
		"FEE_BUMP_NOT_ALLOWED": 1, "MALFORMED_XDR": 1, "FORWARD_TX_SOURCE_NOT_MEDIATOR": 0,
	}
	for result, n := range want {
		if got := metricSum(t, r.metrics, cosignTotal, "result", result); got != n {
			t.Errorf("closerelay_mediator_cosign_total{result=%q} = %v, want %v", result, got, n)
		}
	}
	// GET and method refusals are not co-sign answers.
	r.get(t, "?destination=bad")
	r.do(t, http.MethodPut, "", nil, nil)
	if got := metricSum(t, r.metrics, cosignTotal, "result", "INVALID_DESTINATION"); got != 0 {
		t.Errorf("cosign_total{INVALID_DESTINATION} = %v, want 0", got)
	}
}

// TestMedCosignMetricsPayloadTooLarge: CONTRACT 7 counts every co-sign answer
// by its code, and the 413 is one of POST's answers (CONTRACT 6 step 2),
// whether the body announces its length or comes chunked.
func TestMedCosignMetricsPayloadTooLarge(t *testing.T) {
	r := medStart(t, medSecret, nil)
	big := `{"envelopeXdr":"` + strings.Repeat("A", 17000) + `"}`
	res := r.do(t, http.MethodPost, "", io.MultiReader(strings.NewReader(big)), nil)
	medWantErr(t, res, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	if got := metricSum(t, r.metrics, cosignTotal, "result", "PAYLOAD_TOO_LARGE"); got != 1 {
		t.Errorf("chunked: cosign_total{PAYLOAD_TOO_LARGE} = %v, want 1", got)
	}
	medWantErr(t, r.postRaw(t, big), http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	if got := metricSum(t, r.metrics, cosignTotal, "result", "PAYLOAD_TOO_LARGE"); got != 2 {
		t.Errorf("Content-Length: cosign_total{PAYLOAD_TOO_LARGE} = %v, want 2", got)
	}
}

// TestMedCosignRateLimited: 5 POSTs per 60 s per client IP. The sixth in a
// minute is a JSON 429 with Retry-After before the body is looked at (an
// oversized one included); one token comes back every 12 s on the relay's
// clock; another client IP has its own bucket; GET is never limited.
func TestMedCosignRateLimited(t *testing.T) {
	r := medStart(t, medSecret, func(o *httpapi.Options) { o.RateLimits, o.TrustedProxyHops = true, 1 })
	post := func(ip, body string) response {
		return r.do(t, http.MethodPost, "", strings.NewReader(body), map[string]string{"X-Forwarded-For": ip})
	}
	const client, other = "203.0.113.7", "198.51.100.9"
	for i := 0; i < 5; i++ {
		medWantErr(t, post(client, `[]`), http.StatusBadRequest, "BAD_REQUEST")
	}
	res := post(client, strings.Repeat("A", 20000))
	medWantErr(t, res, http.StatusTooManyRequests, "RATE_LIMITED")
	if got := res.header.Get("Retry-After"); got != "12" {
		t.Errorf("Retry-After = %q, want 12 (one token per 60/5 s)", got)
	}
	medWantErr(t, post(other, `[]`), http.StatusBadRequest, "BAD_REQUEST")

	r.clock.Advance(12*time.Second - time.Millisecond)
	medWantErr(t, post(client, `[]`), http.StatusTooManyRequests, "RATE_LIMITED")
	r.clock.Advance(time.Millisecond)
	medWantErr(t, post(client, `[]`), http.StatusBadRequest, "BAD_REQUEST")
	medWantErr(t, post(client, `[]`), http.StatusTooManyRequests, "RATE_LIMITED")

	for i := 0; i < 20; i++ {
		res := r.do(t, http.MethodGet, "?destination="+medDest, nil, map[string]string{"X-Forwarded-For": client})
		if res.status != http.StatusOK {
			t.Fatalf("mint %d: status %d body %s; GET is not rate limited", i, res.status, res.body)
		}
	}
	if got := metricSum(t, r.metrics, cosignTotal, "result", "RATE_LIMITED"); got != 3 {
		t.Errorf("cosign_total{RATE_LIMITED} = %v, want 3", got)
	}
}

// TestMedStatelessAcrossInstances: nothing is stored per flow, so a flow
// minted on one relay co-signs on another holding the same master, and on
// no relay holding another.
func TestMedStatelessAcrossInstances(t *testing.T) {
	a, b := medStart(t, medSecret, nil), medStart(t, medSecret, nil)
	other := medStart(t, mt.OtherSecret, nil)
	token, pub := a.mint(t, medDest)
	envelope := mt.NewForward(pub, medDest, b.maxTime(time.Minute)).B64()
	medWantSigned(t, b.cosign(t, envelope, token, "testnet"), envelope, pub, network.TestNetworkPassphrase)
	medWantErr(t, other.cosign(t, envelope, token, "testnet"), http.StatusBadRequest, "INVALID_FLOW_TOKEN")
}

// TestMedCosignHorizonEdge: maxTime exactly 3600 s after the relay's clock is
// co-signed and 3601 s is TIME_BOUNDS_EXCESSIVE, with the clock on a whole
// second and 1 ms before the next one.
func TestMedCosignHorizonEdge(t *testing.T) {
	for _, frac := range []time.Duration{0, 999 * time.Millisecond} {
		t.Run(frac.String(), func(t *testing.T) {
			r := medStart(t, medSecret, nil)
			now := r.clock.Now()
			r.clock.Advance(now.Truncate(time.Second).Add(frac).Sub(now))
			token, pub := r.mint(t, medDest)
			sec := uint64(r.clock.Now().Unix())
			edge := mt.NewForward(pub, medDest, sec+3600).B64()
			medWantSigned(t, r.cosign(t, edge, token, "testnet"), edge, pub, network.TestNetworkPassphrase)
			beyond := mt.NewForward(pub, medDest, sec+3601).B64()
			medWantErr(t, r.cosign(t, beyond, token, "testnet"), http.StatusBadRequest, "TIME_BOUNDS_EXCESSIVE")
		})
	}
}

// TestMedTokenExpiryOverHTTP: the whole relay in a synctest bubble on an
// in-memory listener, so the 15 minutes pass on the fake clock. A token
// co-signs until 1 ms before its expiry and is INVALID_FLOW_TOKEN from that
// instant on.
func TestMedTokenExpiryOverHTTP(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, b := medBubble(medSecret)
		defer b.Stop(t)
		token, pub := r.mint(t, medDest)

		time.Sleep(15*time.Minute - time.Millisecond)
		envelope := mt.NewForward(pub, medDest, r.maxTime(time.Minute)).B64()
		medWantSigned(t, r.cosign(t, envelope, token, "testnet"), envelope, pub, network.TestNetworkPassphrase)

		time.Sleep(time.Millisecond)
		medWantErr(t, r.cosign(t, envelope, token, "testnet"), http.StatusBadRequest, "INVALID_FLOW_TOKEN")
		fresh, freshPub := r.mint(t, medDest)
		if freshPub == pub {
			t.Fatal("a new mint reused the expired flow")
		}
		envelope = mt.NewForward(freshPub, medDest, r.maxTime(time.Minute)).B64()
		medWantSigned(t, r.cosign(t, envelope, fresh, "testnet"), envelope, freshPub, network.TestNetworkPassphrase)
	})
}

// TestMedSecretNeverLeaks drives every answer of the route with a valid, a
// malformed and an unset MEDIATOR_SECRET, logging at debug level, and looks
// for the secret and the raw seed in every response (status line, headers,
// body) and every log line. The operator's log must still tell unset from
// malformed; the client must not be able to.
func TestMedSecretNeverLeaks(t *testing.T) {
	badChecksum := medSecret[:55] + "A"
	notConfiguredReasons := map[string]string{}
	for name, tc := range map[string]struct{ secret, logDetail string }{
		"valid":     {medSecret, ""},
		"malformed": {badChecksum, mediator.ErrMalformedSecret.Error()},
		"unset":     {"", mediator.ErrNotConfigured.Error()},
	} {
		t.Run(name, func(t *testing.T) {
			// slog's handler serializes the request goroutines' writes, and
			// the buffer is read only after Stop has waited for them.
			logs := &bytes.Buffer{}
			r := medStart(t, tc.secret, func(o *httpapi.Options) {
				o.Log = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			})
			var seen strings.Builder
			record := func(res response) response {
				fmt.Fprintf(&seen, "%d %v %s\n", res.status, res.header, res.body)
				return res
			}
			mint := record(r.get(t, "?destination="+medDest))
			record(r.get(t, "?destination=nope"))
			token, pub := "x.y.z.w", mt.OtherDest
			if mint.status == http.StatusOK {
				token, pub = r.mint(t, medDest)
			}
			for _, c := range append(mt.Cases(pub, medDest, r.now()), mt.TieBreaks(pub, medDest, r.now())...) {
				record(r.cosign(t, c.B64, token, "testnet"))
			}
			record(r.cosign(t, "@@", "garbage", "testnet"))
			record(r.cosign(t, "@@", token, "TESTNET"))
			record(r.postRaw(t, `[]`))
			for _, m := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodHead, http.MethodOptions} {
				record(r.do(t, m, "", nil, nil))
			}
			if tc.logDetail != "" {
				reason := medWantErr(t, mint, http.StatusInternalServerError, "MEDIATOR_NOT_CONFIGURED")
				notConfiguredReasons[name] = reason
			}
			r.relay.Stop(t) // waits for in-flight requests, so every log line is written

			leaks := []string{tc.secret, tc.secret[min(1, len(tc.secret)):], tc.secret[min(10, len(tc.secret)):min(40, len(tc.secret))]}
			if raw, err := strkey.Decode(strkey.VersionByteSeed, tc.secret); err == nil {
				leaks = append(leaks, hex.EncodeToString(raw), base64.StdEncoding.EncodeToString(raw))
			}
			for _, leak := range leaks {
				if leak == "" {
					continue
				}
				if strings.Contains(seen.String(), leak) {
					t.Errorf("a response carries secret material %q", leak)
				}
				if strings.Contains(logs.String(), leak) {
					t.Errorf("the log carries secret material %q", leak)
				}
			}
			if tc.logDetail != "" && !strings.Contains(logs.String(), tc.logDetail) {
				t.Errorf("the operator's log does not say %q:\n%s", tc.logDetail, logs)
			}
			if strings.Contains(seen.String(), mediator.ErrMalformedSecret.Error()) || strings.Contains(seen.String(), mediator.ErrNotConfigured.Error()) {
				t.Error("a response carries the configuration detail")
			}
		})
	}
	if a, b := notConfiguredReasons["unset"], notConfiguredReasons["malformed"]; a != b {
		t.Errorf("clients can tell unset (%q) from malformed (%q)", a, b)
	}
}
