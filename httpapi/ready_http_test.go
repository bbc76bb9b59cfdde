package httpapi_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/metrics"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// Black-box tests of CONTRACT section 10's readiness through a real
// listener: the weight and threshold on the sign answer and the stream,
// GET /api/plan/{id}/ready (the submit-ready envelope, which the account-API
// double's POST /transactions takes as the ledger would) and
// GET /api/plan/{id}/status.

const rdPass = network.TestNetworkPassphrase

// rdSeq is the sequence number of a close of an account the double serves
// (AccountDetail's 1<<32, plus one).
const rdSeq = 1<<32 + 1

// rdRelay is a relay with a metrics registry the test reads.
type rdRelay struct {
	*testRelay
	m *metrics.Metrics
}

func rdStart(t *testing.T, rateLimits bool) *rdRelay {
	t.Helper()
	return rdStartAPI(t, rateLimits, server.LedgerAPIHorizon)
}

// rdStartAPI is rdStart through api (eachLedgerAPI).
func rdStartAPI(t *testing.T, rateLimits bool, api string) *rdRelay {
	t.Helper()
	m := metrics.New()
	return &rdRelay{startRelayAPI(t, api, httpapi.Options{Metrics: m, RateLimits: rateLimits}, 0, nil), m}
}

// account registers an account on the double: its master key and n extra
// signers, signer i of weights[i] (the master's is the last weight), with
// thresholds low, medium, high. keys[i] is the key of weights[i].
func (r *rdRelay) account(weights []int32, low, medium, high byte) (address string, keys []*keypair.Full) {
	for range weights {
		keys = append(keys, keypair.MustRandom())
	}
	master := keys[len(keys)-1]
	signers := make([]horizon.Signer, len(keys))
	for i, k := range keys {
		signers[i] = horizon.Signer{Key: k.Address(), Weight: weights[i], Type: "ed25519_public_key"}
	}
	r.Horizon.SetAccount(master.Address(), signers, horizon.AccountThresholds{LowThreshold: low, MedThreshold: medium, HighThreshold: high})
	return master.Address(), keys
}

func (r *rdRelay) do(t *testing.T, method, path string, body any) response {
	t.Helper()
	var rd *strings.Reader
	if body != nil {
		rd = strings.NewReader(jsonBody(t, body))
		return send(t, r.Client, method, r.URL+path, rd, nil)
	}
	return send(t, r.Client, method, r.URL+path, nil, nil)
}

// publish publishes x and returns the plan id.
func (r *rdRelay) publish(t *testing.T, x string) string {
	t.Helper()
	res := r.do(t, http.MethodPost, "/api/plan", map[string]string{"network": "testnet", "xdr": x})
	if res.status != http.StatusOK {
		t.Fatalf("publish: %d %s", res.status, res.body)
	}
	h := ledgertest.Hash(x, rdPass)
	return hex.EncodeToString(h[:])
}

// rdSignAnswer is the sign answer's readiness.
type rdSignAnswer struct {
	Signers   []string `json:"signers"`
	Weight    int      `json:"weight"`
	Threshold int      `json:"threshold"`
	Ready     bool     `json:"ready"`
}

// sign posts a partial of unsigned signed by kps and returns the answer,
// checking its fields: the existing ones first, then the readiness.
func (r *rdRelay) sign(t *testing.T, id, unsigned string, kps ...*keypair.Full) rdSignAnswer {
	t.Helper()
	res := r.do(t, http.MethodPost, "/api/plan/"+id+"/sign", map[string]string{"xdr": ledgertest.SignXDR(unsigned, rdPass, kps...)})
	if res.status != http.StatusOK {
		t.Fatalf("sign: %d %s", res.status, res.body)
	}
	planFields(t, res, "ok", "network", "xdr", "signers", "weight", "threshold", "ready", "landable")
	rdWantOrder(t, string(res.body), `"ok"`, `"network"`, `"xdr"`, `"signers"`, `"weight"`, `"threshold"`, `"ready"`)
	var a rdSignAnswer
	if err := json.Unmarshal(res.body, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// rdWantOrder checks that the JSON object s has the keys in this order.
func rdWantOrder(t *testing.T, s string, keys ...string) {
	t.Helper()
	last := -1
	for i, k := range keys {
		at := strings.Index(s, k+":")
		if at < 0 || at <= last {
			t.Errorf("key %s missing or not after %s in %s", k, keys[max(0, i-1)], s)
		}
		last = at
	}
}

// rdReady is GET /ready's success body.
type rdReady struct {
	OK        bool     `json:"ok"`
	ID        string   `json:"id"`
	Network   string   `json:"network"`
	XDR       string   `json:"xdr"`
	Signers   []string `json:"signers"`
	Weight    int      `json:"weight"`
	Threshold int      `json:"threshold"`
}

// ready fetches /ready and checks a 200's shape.
func (r *rdRelay) ready(t *testing.T, id string) rdReady {
	t.Helper()
	res := r.do(t, http.MethodGet, "/api/plan/"+id+"/ready", nil)
	if res.status != http.StatusOK {
		t.Fatalf("ready: %d %s", res.status, res.body)
	}
	planFields(t, res, "ok", "id", "network", "xdr", "signers", "weight", "threshold")
	var out rdReady
	if err := json.Unmarshal(res.body, &out); err != nil {
		t.Fatal(err)
	}
	if !out.OK || out.ID != id || out.Network != "testnet" {
		t.Errorf("ready: ok %v id %s network %s", out.OK, out.ID, out.Network)
	}
	// The ready envelope is the plan's transaction, carrying its signers'
	// signatures in their order.
	if h := ledgertest.Hash(out.XDR, rdPass); hex.EncodeToString(h[:]) != id {
		t.Errorf("the ready envelope hashes to %x, not the plan id", h)
	}
	if n := len(planSigs(t, out.XDR)); n != len(out.Signers) {
		t.Errorf("the ready envelope carries %d signatures, signers lists %d", n, len(out.Signers))
	}
	return out
}

// wantNotReady checks the 409 NOT_READY answer of /ready and its reason.
func (r *rdRelay) wantNotReady(t *testing.T, id string, weight, threshold int) {
	t.Helper()
	res := r.do(t, http.MethodGet, "/api/plan/"+id+"/ready", nil)
	if res.status != http.StatusConflict {
		t.Fatalf("ready: %d %s, want 409", res.status, res.body)
	}
	code, reason := errorBody(t, res)
	if want := rdReason(weight, threshold); code != "NOT_READY" || reason != want {
		t.Errorf("ready: %s %q, want NOT_READY %q", code, reason, want)
	}
}

func rdReason(weight, threshold int) string {
	return "weight " + strconv.Itoa(weight) + " of threshold " + strconv.Itoa(threshold) + ": the plan is not ready"
}

// rdStatus is GET /status's success body.
type rdStatus struct {
	OK         bool            `json:"ok"`
	ID         string          `json:"id"`
	Network    string          `json:"network"`
	Version    uint64          `json:"version"`
	Signers    []string        `json:"signers"`
	Weight     int             `json:"weight"`
	Threshold  int             `json:"threshold"`
	Ready      bool            `json:"ready"`
	Expiry     string          `json:"expiry"`
	Submit     bool            `json:"submit"`
	Submission json.RawMessage `json:"submission"`
}

func (r *rdRelay) status(t *testing.T, id string) rdStatus {
	t.Helper()
	res := r.do(t, http.MethodGet, "/api/plan/"+id+"/status", nil)
	if res.status != http.StatusOK {
		t.Fatalf("status: %d %s", res.status, res.body)
	}
	planFields(t, res, "ok", "id", "network", "version", "signers", "weight", "threshold", "ready", "expiry", "submit", "submission", "preflight", "forward")
	var out rdStatus
	if err := json.Unmarshal(res.body, &out); err != nil {
		t.Fatal(err)
	}
	if !out.OK || out.ID != id || out.Network != "testnet" || out.Submit || string(out.Submission) != "null" {
		t.Errorf("status = %s", res.body)
	}
	if out.Ready != (out.Weight >= out.Threshold) {
		t.Errorf("status: ready %v at weight %d of %d", out.Ready, out.Weight, out.Threshold)
	}
	return out
}

// submit posts x to the double's POST /transactions through the SDK's
// client: nil when the ledger takes it, else its transaction result code.
func (r *rdRelay) submit(t *testing.T, x string) (code string) {
	t.Helper()
	hc := &horizonclient.Client{HorizonURL: r.Horizon.URL}
	tx, err := hc.SubmitTransactionXDR(x)
	if err == nil {
		if !tx.Successful {
			t.Fatalf("submission answered an unsuccessful transaction: %+v", tx)
		}
		return ""
	}
	var herr *horizonclient.Error
	if !errors.As(err, &herr) {
		t.Fatalf("submit: %v", err)
	}
	rc, rerr := herr.ResultCodes()
	if rerr != nil {
		t.Fatalf("submit: %v (%v)", herr.Problem, rerr)
	}
	return rc.TransactionCode
}

func addrs(kps ...*keypair.Full) []string {
	out := make([]string, len(kps))
	for i, k := range kps {
		out[i] = k.Address()
	}
	return out
}

func rdMaxTime() int64 { return time.Now().Add(time.Hour).Unix() }

// TestReadyTwoOfThree: a 2-of-3 plan that every signer signed is ready with
// weight 3; /ready hands out its first two signatures, which the ledger
// takes, while the full envelope of GET /api/plan/{id} fails with
// tx_bad_auth_extra.
func TestReadyTwoOfThree(t *testing.T) { eachLedgerAPI(t, testReadyTwoOfThree) }

func testReadyTwoOfThree(t *testing.T, api string) {
	r := rdStartAPI(t, false, api)
	_, k := r.account([]int32{1, 1, 1}, 1, 2, 2)
	unsigned, _ := ledgertest.BuildClose(k[2], planDest, rdSeq, rdMaxTime(), rdPass)
	id := r.publish(t, ledgertest.SignXDR(unsigned, rdPass, k[0]))

	if st := r.status(t, id); st.Version != 1 || st.Weight != 1 || st.Threshold != 2 || st.Ready || !slices.Equal(st.Signers, addrs(k[0])) {
		t.Fatalf("status at publish = %+v", st)
	}
	r.wantNotReady(t, id, 1, 2)
	if a := r.sign(t, id, unsigned, k[1]); a.Weight != 2 || a.Threshold != 2 || !a.Ready {
		t.Errorf("sign k1 = %+v, want 2 of 2, ready", a)
	}
	if a := r.sign(t, id, unsigned, k[2]); a.Weight != 3 || a.Threshold != 2 || !a.Ready || !slices.Equal(a.Signers, addrs(k...)) {
		t.Errorf("sign k2 = %+v, want 3 of 2, ready", a)
	}
	ready := r.ready(t, id)
	if ready.Weight != 2 || ready.Threshold != 2 || !slices.Equal(ready.Signers, addrs(k[0], k[1])) {
		t.Fatalf("ready = %+v, want k0, k1: weight 2 of 2", ready)
	}
	if st := r.status(t, id); st.Version != 3 || st.Weight != 3 || !st.Ready || !slices.Equal(st.Signers, addrs(k...)) {
		t.Errorf("status = %+v", st)
	}

	_, full := planWantPlan(t, r.do(t, http.MethodGet, "/api/plan/"+id, nil))
	if len(planSigs(t, full)) != 3 {
		t.Fatal("the plan's envelope does not carry the three signatures")
	}
	if code := r.submit(t, full); code != ledger.TxBadAuthExtra {
		t.Fatalf("the full envelope: %q, want %s", code, ledger.TxBadAuthExtra)
	}
	if code := r.submit(t, ready.XDR); code != "" {
		t.Fatalf("the ready envelope refused: %s", code)
	}
	if r.Horizon.Applied() != 1 {
		t.Errorf("the double applied %d transactions", r.Horizon.Applied())
	}
}

// TestReadyLargestWeightFirst: the ready envelope holds the largest weights
// first and, among equal weights, the earliest admitted, as few as reach the
// threshold; the ledger takes it.
func TestReadyLargestWeightFirst(t *testing.T) {
	for _, tt := range []struct {
		name      string
		weights   []int32 // by key; the last key is the master
		order     []int   // the keys in admission order (the first publishes)
		threshold byte
		want      []int  // the ready envelope's keys
		fullCode  string // the full envelope's fate, when the ledger refuses it
	}{
		// Admitted 1, 1, 2: the weight-2 signature moves first, then the
		// earliest weight-1 one. (The full envelope would pass too: the
		// merge's check walks all three before it reaches 3.)
		{"admitted 1, 1, 2 against 3", []int32{1, 1, 2}, []int{0, 1, 2}, 3, []int{2, 0}, ""},
		// Admitted 2, 1, 1: the third signature is one too many.
		{"admitted 2, 1, 1 against 3", []int32{1, 1, 2}, []int{2, 0, 1}, 3, []int{2, 0}, ledger.TxBadAuthExtra},
		// Admitted 1, 1, 2 against 2: the weight-2 signature alone.
		{"admitted 1, 1, 2 against 2", []int32{1, 1, 2}, []int{0, 1, 2}, 2, []int{2}, ledger.TxBadAuthExtra},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := rdStart(t, false)
			_, k := r.account(tt.weights, 1, 1, tt.threshold)
			unsigned, _ := ledgertest.BuildClose(k[len(k)-1], planDest, rdSeq, rdMaxTime(), rdPass)
			id := r.publish(t, ledgertest.SignXDR(unsigned, rdPass, k[tt.order[0]]))
			weight := int(tt.weights[tt.order[0]])
			for _, i := range tt.order[1:] {
				if weight < int(tt.threshold) {
					r.wantNotReady(t, id, weight, int(tt.threshold))
				}
				weight += int(tt.weights[i])
				if a := r.sign(t, id, unsigned, k[i]); a.Weight != weight || a.Threshold != int(tt.threshold) || a.Ready != (weight >= int(tt.threshold)) {
					t.Errorf("sign k%d = %+v, want weight %d of %d", i, a, weight, tt.threshold)
				}
			}
			ready := r.ready(t, id)
			var want []*keypair.Full
			wantWeight := 0
			for _, i := range tt.want {
				want = append(want, k[i])
				wantWeight += int(tt.weights[i])
			}
			if !slices.Equal(ready.Signers, addrs(want...)) || ready.Weight != wantWeight || ready.Threshold != int(tt.threshold) {
				t.Fatalf("ready = %v weight %d of %d; want %v weight %d", ready.Signers, ready.Weight, ready.Threshold, addrs(want...), wantWeight)
			}
			if tt.fullCode != "" {
				// Refused, so the ledger is unchanged for the ready one.
				_, full := planWantPlan(t, r.do(t, http.MethodGet, "/api/plan/"+id, nil))
				if code := r.submit(t, full); code != tt.fullCode {
					t.Errorf("the full envelope: %q, want %q", code, tt.fullCode)
				}
			}
			if code := r.submit(t, ready.XDR); code != "" {
				t.Fatalf("the ready envelope refused: %s", code)
			}
			if r.Horizon.Applied() != 1 {
				t.Errorf("the double applied %d transactions, want 1", r.Horizon.Applied())
			}
		})
	}
}

// TestReadyThresholds: the plan's threshold is the largest of the levels
// the ledger checks the closing account at, at least 1: thresholds of 0 give
// 1; a merge alone needs the high threshold even when the medium one is
// higher, a payment before it makes the medium one count; the low one
// counts only when the closing account is the transaction's source (a fee
// payer's close does not count it). Each ready envelope is taken by the
// ledger (the fee payer's with the payer's signature added).
func TestReadyThresholds(t *testing.T) {
	r := rdStart(t, false)
	payer := keypair.MustRandom()
	r.Horizon.SetAccount(payer.Address(), []horizon.Signer{{Key: payer.Address(), Weight: 1, Type: "ed25519_public_key"}},
		horizon.AccountThresholds{})
	for _, tt := range []struct {
		name                string
		low, medium, high   byte
		feePayer, payment   bool
		threshold           int
		readyAfterPublisher bool
	}{
		{"thresholds 0: 1", 0, 0, 0, false, false, 1, true},
		{"medium above high, a merge alone: high", 1, 3, 2, false, false, 2, false},
		{"medium above high, a payment first: medium", 1, 3, 2, false, true, 3, false},
		{"low above high, the account is the source: low", 3, 1, 2, false, false, 3, false},
		{"low above high, a fee payer: high", 3, 1, 2, true, false, 2, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			acct, k := r.account([]int32{1, 1, 1}, tt.low, tt.medium, tt.high)
			var ops []txnbuild.Operation
			if tt.payment {
				ops = append(ops, &txnbuild.Payment{Destination: planDest, Amount: "1", Asset: txnbuild.NativeAsset{}, SourceAccount: acct})
			}
			ops = append(ops, &txnbuild.AccountMerge{Destination: planDest, SourceAccount: acct})
			source := acct
			if tt.feePayer {
				source = payer.Address()
			}
			unsigned, _ := ledgertest.BuildTx(source, rdSeq, rdMaxTime(), rdPass, ops)
			id := r.publish(t, ledgertest.SignXDR(unsigned, rdPass, k[0]))
			st := r.status(t, id)
			if st.Threshold != tt.threshold || st.Weight != 1 || st.Ready != tt.readyAfterPublisher {
				t.Fatalf("status at publish: weight %d of %d, ready %v; want threshold %d", st.Weight, st.Threshold, st.Ready, tt.threshold)
			}
			for _, kp := range k[1:] {
				r.sign(t, id, unsigned, kp)
			}
			ready := r.ready(t, id)
			if ready.Threshold != tt.threshold || ready.Weight != tt.threshold || !slices.Equal(ready.Signers, addrs(k[:tt.threshold]...)) {
				t.Fatalf("ready = %v weight %d of %d", ready.Signers, ready.Weight, ready.Threshold)
			}
			x := ready.XDR
			if tt.feePayer {
				// The relay never holds the payer's signature: the payer adds it.
				if code := r.submit(t, x); code != ledger.TxBadAuth {
					t.Errorf("the fee payer's close without its signature: %q, want %s", code, ledger.TxBadAuth)
				}
				x = ledgertest.SignXDR(x, rdPass, payer)
			}
			if code := r.submit(t, x); code != "" {
				t.Fatalf("the ready envelope refused: %s", code)
			}
		})
	}
}

// TestReadyRefusals: 409 NOT_READY has the error shape, the reason with
// the weight and the threshold, and its metric series; HEAD answers as GET
// without a body; unknown and malformed ids are 404 on both routes.
func TestReadyRefusals(t *testing.T) {
	r := rdStart(t, false)
	_, k := r.account([]int32{1, 1, 1}, 1, 2, 2)
	unsigned, _ := ledgertest.BuildClose(k[2], planDest, rdSeq, rdMaxTime(), rdPass)
	id := r.publish(t, ledgertest.SignXDR(unsigned, rdPass, k[1]))

	if v := metricValue(t, r.m, rejectionsTotal, "route", metrics.RoutePlanReady, "code", "NOT_READY"); v != 0 {
		t.Fatalf("NOT_READY series at %v before any", v)
	}
	res := r.do(t, http.MethodGet, "/api/plan/"+strings.ToUpper(id)+"/ready", nil)
	if res.status != http.StatusConflict || res.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("ready: %d %v", res.status, res.header)
	}
	planWantErr(t, res, http.StatusConflict, "NOT_READY")
	if _, reason := errorBody(t, res); reason != "weight 1 of threshold 2: the plan is not ready" {
		t.Errorf("reason %q", reason)
	}
	if v := metricValue(t, r.m, rejectionsTotal, "route", metrics.RoutePlanReady, "code", "NOT_READY"); v != 1 {
		t.Errorf("NOT_READY series at %v, want 1", v)
	}
	head := r.do(t, http.MethodHead, "/api/plan/"+id+"/ready", nil)
	if head.status != http.StatusConflict || len(head.body) != 0 || !strings.HasPrefix(head.header.Get("Content-Type"), "application/json") {
		t.Errorf("HEAD ready (not ready): %d %q %v", head.status, head.body, head.header)
	}

	r.sign(t, id, unsigned, k[0])
	for _, p := range []string{"/ready", "/status"} {
		get := r.do(t, http.MethodGet, "/api/plan/"+id+p, nil)
		head := r.do(t, http.MethodHead, "/api/plan/"+id+p, nil)
		if get.status != http.StatusOK || head.status != http.StatusOK || len(head.body) != 0 ||
			head.header.Get("Content-Type") != get.header.Get("Content-Type") || head.header.Get("Cache-Control") != "no-store" {
			t.Errorf("HEAD %s: %d %q %v; GET %d", p, head.status, head.body, head.header, get.status)
		}
	}

	missing := "00" + id[2:]
	if id[:2] == "00" {
		missing = "11" + id[2:]
	}
	for _, p := range []string{"/ready", "/status"} {
		for _, bad := range []string{missing, "abc", id + "0", strings.Repeat("g", 64)} {
			res := r.do(t, http.MethodGet, "/api/plan/"+bad+p, nil)
			planWantErr(t, res, http.StatusNotFound, "NOT_FOUND")
		}
		if head := r.do(t, http.MethodHead, "/api/plan/"+missing+p, nil); head.status != http.StatusNotFound || len(head.body) != 0 {
			t.Errorf("HEAD %s of an unknown plan: %d %q", p, head.status, head.body)
		}
	}
	if v := metricValue(t, r.m, rejectionsTotal, "route", metrics.RoutePlanStatus, "code", "NOT_FOUND"); v != 5 {
		t.Errorf("status NOT_FOUND series at %v, want 5", v)
	}
}

var rdRFC3339UTC = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// TestStatusFields: /status answers exactly CONTRACT section 10's fields,
// the version and signers of the current envelope, the expiry in RFC 3339
// (UTC, whole seconds) of the plan's end, and submit false, submission null.
func TestStatusFields(t *testing.T) { eachLedgerAPI(t, testStatusFields) }

func testStatusFields(t *testing.T, api string) {
	r := rdStartAPI(t, false, api)
	_, k := r.account([]int32{1, 1, 1}, 1, 1, 3)
	unsigned, _ := ledgertest.BuildClose(k[2], planDest, rdSeq, 0, rdPass) // no maxTime: 72 h
	id := r.publish(t, ledgertest.SignXDR(unsigned, rdPass, k[2]))
	plan, err := r.Plans.Lookup(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	st := r.status(t, id)
	if !rdRFC3339UTC.MatchString(st.Expiry) {
		t.Fatalf("expiry %q is not RFC 3339 in UTC, whole seconds", st.Expiry)
	}
	exp, err := time.Parse(time.RFC3339, st.Expiry)
	if err != nil || !exp.Equal(plan.Expiry().Truncate(time.Second)) {
		t.Errorf("expiry %s (%v), want the plan's %v truncated", st.Expiry, err, plan.Expiry())
	}
	if st.Version != 1 || st.Weight != 1 || st.Threshold != 3 || st.Ready || !slices.Equal(st.Signers, addrs(k[2])) {
		t.Errorf("status = %+v", st)
	}
	r.sign(t, id, unsigned, k[0], k[1])
	if st2 := r.status(t, id); st2.Version != 2 || st2.Weight != 3 || !st2.Ready || st2.Expiry != st.Expiry ||
		!slices.Equal(st2.Signers, addrs(k[2], k[0], k[1])) {
		t.Errorf("status after a sign = %+v", st2)
	}
	// A merge that changes nothing leaves the version.
	r.sign(t, id, unsigned, k[0])
	if st3 := r.status(t, id); st3.Version != 2 {
		t.Errorf("version %d after a replay, want 2", st3.Version)
	}
}

// TestReadinessOnTheStream: every state event's data carries weight,
// threshold and ready after the existing fields.
func TestReadinessOnTheStream(t *testing.T) {
	r := rdStart(t, false)
	_, k := r.account([]int32{1, 1, 1}, 1, 2, 2)
	unsigned, _ := ledgertest.BuildClose(k[2], planDest, rdSeq, rdMaxTime(), rdPass)
	id := r.publish(t, ledgertest.SignXDR(unsigned, rdPass, k[0]))
	s := sseOpen(t, r.Client, r.URL, id, nil)
	check := func(version, weight int, ready bool) {
		t.Helper()
		ev := s.next(t, 10*time.Second)
		if ev.ID != strconv.Itoa(version) {
			t.Errorf("event id %q, want %d", ev.ID, version)
		}
		rdWantOrder(t, ev.Data, `"network"`, `"xdr"`, `"id"`, `"signers"`, `"weight"`, `"threshold"`, `"ready"`)
		var d struct {
			Weight    *int  `json:"weight"`
			Threshold *int  `json:"threshold"`
			Ready     *bool `json:"ready"`
		}
		if err := json.Unmarshal([]byte(ev.Data), &d); err != nil {
			t.Fatal(err)
		}
		if d.Weight == nil || d.Threshold == nil || d.Ready == nil || *d.Weight != weight || *d.Threshold != 2 || *d.Ready != ready {
			t.Errorf("v%d data %s, want weight %d of 2, ready %v", version, ev.Data, weight, ready)
		}
	}
	check(1, 1, false)
	r.sign(t, id, unsigned, k[1])
	check(2, 2, true)
	r.sign(t, id, unsigned, k[2])
	check(3, 3, true)
}

// TestReadyRateLimits: /ready and /status allow 60 requests per 60 s per
// client IP each, in buckets of their own; the 61st is a JSON 429 with
// Retry-After, counted under the route's label.
func TestReadyRateLimits(t *testing.T) {
	r := rdStart(t, true)
	_, k := r.account([]int32{1, 1, 1}, 1, 2, 2)
	unsigned, _ := ledgertest.BuildClose(k[2], planDest, rdSeq, rdMaxTime(), rdPass)
	id := r.publish(t, ledgertest.SignXDR(unsigned, rdPass, k[0]))
	for _, tt := range []struct {
		route, path string
		status      int // below the limit
	}{
		{metrics.RoutePlanReady, "/api/plan/" + id + "/ready", http.StatusConflict},
		{metrics.RoutePlanStatus, "/api/plan/" + id + "/status", http.StatusOK},
	} {
		for i := range 60 {
			if res := r.do(t, http.MethodGet, tt.path, nil); res.status != tt.status {
				t.Fatalf("%s request %d: %d %s", tt.route, i+1, res.status, res.body)
			}
		}
		rlCheckJSON429(t, r.do(t, http.MethodGet, tt.path, nil))
		// HEAD shares the GET route's bucket.
		if head := r.do(t, http.MethodHead, tt.path, nil); head.status != http.StatusTooManyRequests {
			t.Errorf("HEAD %s after 60 GETs: %d", tt.route, head.status)
		}
		if v := metricValue(t, r.m, rateLimitedTotal, "route", tt.route); v != 2 {
			t.Errorf("rate limited %s = %v, want 2", tt.route, v)
		}
	}
	// The plan's other routes keep their own buckets.
	if res := r.do(t, http.MethodGet, "/api/plan/"+id, nil); res.status != http.StatusOK {
		t.Errorf("GET /api/plan/{id} after /ready and /status ran out: %d", res.status)
	}
}
