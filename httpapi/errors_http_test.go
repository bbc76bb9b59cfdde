package httpapi_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/mediator"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/closerelay/closerelay/metrics"
	"github.com/stellar/go-stellar-sdk/network"
)

// failingMediator is an httpapi.Mediator whose every call fails with err.
type failingMediator struct{ err error }

func (f failingMediator) Mint(string) (string, string, error) { return "", "", f.err }

func (f failingMediator) MintMemo(string, string) (string, string, error) { return "", "", f.err }

func (f failingMediator) Cosign(string, string, string) (string, string, error) {
	return "", "", f.err
}

func (f failingMediator) VerifyFlow(string) (*mediator.Flow, string, error) { return nil, "", f.err }

var _ httpapi.Mediator = failingMediator{}

// wellFormedCosign is a co-sign body that passes the route's own checks, so
// the request reaches Mediator.Cosign.
var wellFormedCosign = map[string]any{"envelopeXdr": "AAAA", "flowToken": "t", "network": "testnet"}

// An error that carries no code of the vocabulary, a code outside it
// included, answers 500 with exactly {"ok":false,"code":"INTERNAL","reason":
// "internal error"} (STYLE habit 10): the detail goes to the log, never to
// the client, and the rejection is counted under INTERNAL.
func TestUncodedErrorIsInternal(t *testing.T) {
	for name, err := range map[string]error{
		"plain":            errors.New("disk on fire: detail-7f3a"),
		"wrapped":          fmt.Errorf("cosign: %w", errors.New("disk on fire: detail-7f3a")),
		"code not in list": errcode.New("MADE_UP", "disk on fire: detail-7f3a"),
		"unknown wrapping": fmt.Errorf("cosign: %w", errcode.Wrap("MADE_UP", "detail-7f3a", errors.New("x"))),
	} {
		t.Run(name, func(t *testing.T) {
			logs := &bytes.Buffer{}
			r := medStart(t, "", func(o *httpapi.Options) {
				o.Mediator = failingMediator{err}
				o.Log = slog.New(slog.NewJSONHandler(logs, nil))
			})
			answers := map[string]response{
				metrics.RouteMediatorCosign: r.post(t, wellFormedCosign),
				metrics.RouteMediatorMint:   r.get(t, "?destination="+mt.Dest),
			}
			for route, res := range answers {
				medWantErr(t, res, http.StatusInternalServerError, "INTERNAL")
				var body map[string]any
				if err := json.Unmarshal(res.body, &body); err != nil {
					t.Fatal(err)
				}
				if body["reason"] != "internal error" {
					t.Errorf("%s: reason %v, want exactly \"internal error\"", route, body["reason"])
				}
				if strings.Contains(string(res.body), "detail-7f3a") || strings.Contains(fmt.Sprint(res.header), "detail-7f3a") {
					t.Errorf("%s: the answer carries the error's detail: %s", route, res.body)
				}
				if n := metricSum(t, r.metrics, rejectionsTotal, "route", route, "code", "INTERNAL"); n != 1 {
					t.Errorf("%s: closerelay_rejections_total{code=INTERNAL} = %g, want 1", route, n)
				}
				if len(metricSamples(t, r.metrics, rejectionsTotal, "route", route, "code", "MADE_UP")) != 0 {
					t.Errorf("%s: a rejections series was created for a code outside the vocabulary", route)
				}
			}
			// As before: an internal failure is no co-sign result.
			for _, result := range []string{"INTERNAL", "MADE_UP", metrics.CosignSigned} {
				if n := metricSum(t, r.metrics, cosignTotal, "result", result); n != 0 {
					t.Errorf("closerelay_mediator_cosign_total{result=%s} = %g, want 0", result, n)
				}
			}
			r.relay.Stop(t) // waits for in-flight requests, so every log line is written
			if got := strings.Count(logs.String(), "detail-7f3a"); got < 2 {
				t.Errorf("the log carries the detail %d times, want once per request:\n%s", got, logs)
			}
		})
	}
}

// Every code of the vocabulary raised by a handler answers its own status
// from the one table, with the code and the reason as raised, through a real
// listener, and is counted under its code. MEDIATOR_NOT_CONFIGURED's reason
// is the route's own (its detail is for the log).
func TestEveryCodeAnswersItsStatus(t *testing.T) {
	for _, code := range errcode.All() {
		t.Run(string(code), func(t *testing.T) {
			raised := "the reason for " + string(code)
			r := medStart(t, "", func(o *httpapi.Options) {
				o.Mediator = failingMediator{fmt.Errorf("wrapped: %w", errcode.New(code, raised))}
			})
			looseDocCheck(t, r.base) // the fake mediator raises codes POST never answers
			res := r.post(t, wellFormedCosign)
			reason := medWantErr(t, res, code.Status(), string(code))
			if code != errcode.MediatorNotConfigured && reason != raised {
				t.Errorf("reason %q, want %q", reason, raised)
			}
			if n := metricSum(t, r.metrics, rejectionsTotal, "route", metrics.RouteMediatorCosign, "code", string(code)); n != 1 {
				t.Errorf("closerelay_rejections_total{code=%s} = %g, want 1", code, n)
			}
			if n := metricSum(t, r.metrics, cosignTotal, "result", string(code)); n != 1 {
				t.Errorf("closerelay_mediator_cosign_total{result=%s} = %g, want 1", code, n)
			}
		})
	}
}

// A forward whose base64 is broken over lines decodes under Go's lenient
// reader but not under the relay's one decoder (ledger.DecodeEnvelope): the
// route answers 400 MALFORMED_XDR, as the plan routes refuse such an xdr.
func TestMedLineBrokenForwardIsMalformed(t *testing.T) {
	r := medStart(t, medSecret, nil)
	token, pub := r.mint(t, medDest)
	fwd := mt.NewForward(pub, medDest, r.maxTime(10*time.Minute)).B64()
	for _, broken := range []string{fwd[:64] + "\n" + fwd[64:], fwd[:64] + "\r\n" + fwd[64:]} {
		medWantErr(t, r.cosign(t, broken, token, "testnet"), http.StatusBadRequest, "MALFORMED_XDR")
	}
	if res := r.cosign(t, fwd, token, "testnet"); res.status != http.StatusOK {
		t.Fatalf("the same forward on one line: status %d body %s", res.status, res.body)
	}
}

// TestStoppedRelayIsUnavailable: with the plans stopped (the relay
// shutting down) every plan route answers UNAVAILABLE with the reason
// "the relay is shutting down": 503 on the JSON routes, the stream's
// plain-text 503, and 400 on publish, to which SPEC gives no 503.
func TestStoppedRelayIsUnavailable(t *testing.T) {
	r := startRelay(t, httpapi.Options{}, 0, nil)
	acct := ledgertest.NewAccount(1, 1)
	r.Horizon.AddAccount(acct)
	x, hash := ledgertest.BuildClose(acct.Master, planDest, 1, 0, network.TestNetworkPassphrase, acct.Keys[0])
	publish := `{"network":"testnet","xdr":"` + x + `"}`
	if res := send(t, r.Client, http.MethodPost, r.URL+"/api/plan", strings.NewReader(publish), nil); res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	if err := r.Plans.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	const reason = "the relay is shutting down"
	id := hex.EncodeToString(hash[:])
	for _, tc := range []struct {
		method, path, body string
		status             int
	}{
		{http.MethodPost, "/api/plan", publish, http.StatusBadRequest},
		{http.MethodGet, "/api/plan/" + id, "", http.StatusServiceUnavailable},
		{http.MethodPost, "/api/plan/" + id + "/sign", `{"xdr":"` + x + `"}`, http.StatusServiceUnavailable},
		{http.MethodGet, "/api/plan/" + id + "/ready", "", http.StatusServiceUnavailable},
		{http.MethodGet, "/api/plan/" + id + "/status", "", http.StatusServiceUnavailable},
		{http.MethodGet, "/api/plan/" + id + "/sep7", "", http.StatusServiceUnavailable},
	} {
		var body io.Reader
		if tc.body != "" {
			body = strings.NewReader(tc.body)
		}
		res := send(t, r.Client, tc.method, r.URL+tc.path, body, nil)
		var e struct {
			OK     *bool  `json:"ok"`
			Code   string `json:"code"`
			Reason string `json:"reason"`
		}
		if err := json.Unmarshal(res.body, &e); err != nil || res.status != tc.status || e.OK == nil || *e.OK || e.Code != "UNAVAILABLE" || e.Reason != reason {
			t.Errorf("%s %s = %d %s, want %d UNAVAILABLE %q", tc.method, tc.path, res.status, res.body, tc.status, reason)
		}
	}
	res := send(t, r.Client, http.MethodGet, r.URL+"/api/plan/"+id+"/events", nil, nil)
	if res.status != http.StatusServiceUnavailable || string(res.body) != reason || !strings.HasPrefix(res.header.Get("Content-Type"), "text/plain") {
		t.Errorf("events = %d %q (%s), want 503 %q in plain text", res.status, res.body, res.header.Get("Content-Type"), reason)
	}
	// The page tells it by the same code: its 503 page, not a 500.
	if res := send(t, r.Client, http.MethodGet, r.URL+"/plan/"+id, nil, nil); res.status != http.StatusServiceUnavailable {
		t.Errorf("plan page = %d, want 503", res.status)
	}
}
