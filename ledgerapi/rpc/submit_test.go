package rpc_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/ledgerapi"
	rpcapi "github.com/closerelay/closerelay/ledgerapi/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

var dest = ledgertest.Keypair(99).Address()

// scenario is a double and a close on it; each test builds one per backend
// so both see the same ledger.
type scenario struct {
	h   *ledgertest.Handler
	acc ledgertest.Account
	env string
}

func newScenario(seq int64, ops func(a ledgertest.Account) []txnbuild.Operation) scenario {
	h := ledgertest.NewHandler()
	a := ledgertest.DeterministicAccount(11, 1, 1)
	h.AddAccount(a)
	h.Fund(dest, 50_000_000)
	if seq == 0 {
		seq = 1<<32 + 1
	}
	env, _ := ledgertest.BuildTx(a.Address, seq, 0, pass, ops(a), a.Keys...)
	return scenario{h: h, acc: a, env: env}
}

func merge(ledgertest.Account) []txnbuild.Operation {
	return []txnbuild.Operation{&txnbuild.AccountMerge{Destination: dest}}
}

func client(backends map[ledger.Network]ledgerapi.Backend, timeout time.Duration) *ledgerapi.Client {
	return ledgerapi.New(ledgerapi.Options{Backends: backends, Timeout: timeout, SubmitBackoff: time.Millisecond, SubmitBackoffCap: 5 * time.Millisecond})
}

// both runs one scenario through Horizon and through RPC, each on its own
// double, and returns the two outcomes.
func both(t *testing.T, mk func() scenario, setup func(s scenario, rpc bool)) (horizon, rpc ledgerapi.SubmitOutcome) {
	t.Helper()
	for _, viaRPC := range []bool{false, true} {
		s := mk()
		defer s.h.Release()
		if setup != nil {
			setup(s, viaRPC)
		}
		bs := s.h.Backends()
		if viaRPC {
			bs = s.h.RPCBackends()
		}
		out := client(bs, time.Second).Submit(t.Context(), ledger.Testnet, s.env, nil)
		if viaRPC {
			rpc = out
		} else {
			horizon = out
		}
	}
	return horizon, rpc
}

func same(t *testing.T, h, r ledgerapi.SubmitOutcome) {
	t.Helper()
	h.Tries, r.Tries = 0, 0
	if !reflect.DeepEqual(h, r) {
		t.Fatalf("Horizon's outcome\n%+v\nRPC's\n%+v", h, r)
	}
}

func TestSubmitLands(t *testing.T) {
	s := newScenario(0, merge)
	out := client(s.h.RPCBackends(), time.Second).Submit(t.Context(), ledger.Testnet, s.env, nil)
	if out.State != ledgerapi.SubmitSubmitted || out.Ledger <= 0 || out.Tries != 1 {
		t.Fatalf("%+v", out)
	}
	if _, ok := s.h.Sequence(s.acc.Address); ok {
		t.Fatal("the merged account is still there")
	}
	h, r := both(t, func() scenario { return newScenario(0, merge) }, nil)
	same(t, h, r)
}

// TestRefusalCodesMatchHorizon: a refusal in validation (ERROR with
// errorResultXdr) and one in application (FAILED with resultXdr) give the
// codes Horizon's result_codes give.
func TestRefusalCodesMatchHorizon(t *testing.T) {
	for name, mk := range map[string]func() scenario{
		"tx_bad_seq": func() scenario { return newScenario(1<<32+5, merge) },
		"op_has_sub_entries": func() scenario {
			s := newScenario(0, func(a ledgertest.Account) []txnbuild.Operation {
				return []txnbuild.Operation{&txnbuild.ManageData{Name: "missing"}, &txnbuild.AccountMerge{Destination: dest}}
			})
			return s
		},
		"op_no_account": func() scenario {
			return newScenario(0, func(ledgertest.Account) []txnbuild.Operation {
				return []txnbuild.Operation{&txnbuild.AccountMerge{Destination: ledgertest.Keypair(98).Address()}}
			})
		},
	} {
		t.Run(name, func(t *testing.T) {
			h, r := both(t, mk, nil)
			if h.State != ledgerapi.SubmitFailed {
				t.Fatalf("Horizon: %+v", h)
			}
			same(t, h, r)
		})
	}
}

func TestRetriesMatchHorizon(t *testing.T) {
	for name, setup := range map[string]func(s scenario, rpc bool){
		"5xx": func(s scenario, rpc bool) {
			if rpc {
				s.h.FailRPC("sendTransaction", 2, http.StatusServiceUnavailable)
			} else {
				s.h.FailSubmissions(2, http.StatusServiceUnavailable)
			}
		},
		"429": func(s scenario, rpc bool) {
			if rpc {
				s.h.FailRPC("sendTransaction", 1, http.StatusTooManyRequests)
			} else {
				s.h.FailSubmissions(1, http.StatusTooManyRequests)
			}
		},
		"hang": func(s scenario, rpc bool) {
			if rpc {
				s.h.FailRPC("sendTransaction", 1, 0)
			} else {
				s.h.StallSubmissions(1)
			}
		},
		"answer lost": func(s scenario, rpc bool) {
			if rpc {
				s.h.FailRPC("getTransaction", 1, 0)
			} else {
				s.h.DropAnswers(1)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			for _, viaRPC := range []bool{false, true} {
				s := newScenario(0, merge)
				setup(s, viaRPC)
				bs := s.h.Backends()
				if viaRPC {
					bs = s.h.RPCBackends()
				}
				var retries []ledgerapi.SubmitAttempt
				out := client(bs, 200*time.Millisecond).Submit(t.Context(), ledger.Testnet, s.env, func(a ledgerapi.SubmitAttempt) { retries = append(retries, a) })
				s.h.Release()
				if out.State != ledgerapi.SubmitSubmitted || len(retries) == 0 || out.Tries != len(retries)+1 {
					t.Fatalf("rpc %v: %+v after %+v", viaRPC, out, retries)
				}
				if s.h.Applied() != 1 {
					t.Fatalf("rpc %v: applied %d", viaRPC, s.h.Applied())
				}
			}
		})
	}
}

func TestTryAgainLaterIsRetried(t *testing.T) {
	s := newScenario(0, merge)
	s.h.TryAgainLater(2)
	var causes []string
	out := client(s.h.RPCBackends(), time.Second).Submit(t.Context(), ledger.Testnet, s.env, func(a ledgerapi.SubmitAttempt) { causes = append(causes, a.Cause) })
	if out.State != ledgerapi.SubmitSubmitted || out.Tries != 3 || len(causes) != 2 || causes[0] != ledgerapi.RetryTryAgainLater {
		t.Fatalf("%+v %v", out, causes)
	}
}

// TestNotFoundThenOutcome: getTransaction's NOT_FOUND (the ledger has not
// closed yet) is polled past within one try.
func TestNotFoundThenOutcome(t *testing.T) {
	s := newScenario(0, merge)
	s.h.NotFoundFor(3)
	out := client(s.h.RPCBackends(), 5*time.Second).Submit(t.Context(), ledger.Testnet, s.env, nil)
	if out.State != ledgerapi.SubmitSubmitted || out.Tries != 1 {
		t.Fatalf("%+v", out)
	}
	if n := s.h.RPCCalls("getTransaction"); n != 4 {
		t.Fatalf("%d polls", n)
	}
}

// TestDuplicateIsAlreadySent: a transaction the node already has answers
// DUPLICATE, followed to its outcome like a first send.
func TestDuplicateIsAlreadySent(t *testing.T) {
	s := newScenario(0, merge)
	c := client(s.h.RPCBackends(), time.Second)
	first := c.Submit(t.Context(), ledger.Testnet, s.env, nil)
	second := c.Submit(t.Context(), ledger.Testnet, s.env, nil)
	if first.State != ledgerapi.SubmitSubmitted || !reflect.DeepEqual(first, second) {
		t.Fatalf("%+v then %+v", first, second)
	}
	if s.h.Applied() != 1 || s.h.RPCCalls("sendTransaction") != 2 {
		t.Fatalf("applied %d, sent %d", s.h.Applied(), s.h.RPCCalls("sendTransaction"))
	}
}

// TestSendBadAnswers: a node's answers that are not an outcome are retried
// (a bad answer, a JSON-RPC internal error) or a final failure of ours (a
// malformed envelope, another JSON-RPC error, a 4xx), never a panic.
func TestSendBadAnswers(t *testing.T) {
	s := newScenario(0, merge)
	hash := "0000000000000000000000000000000000000000000000000000000000000000"
	for name, c := range map[string]struct {
		status int
		body   string
		cause  string
		code   string
	}{
		"malformed json":  {200, `{"jsonrpc":`, ledgerapi.RetryBadAnswer, ""},
		"another hash":    {200, `{"jsonrpc":"2.0","id":1,"result":{"status":"PENDING","hash":"ab"}}`, ledgerapi.RetryBadAnswer, ""},
		"unknown status":  {200, `{"jsonrpc":"2.0","id":1,"result":{"status":"MAYBE","hash":"` + hash + `"}}`, ledgerapi.RetryBadAnswer, ""},
		"internal error":  {200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"x"}}`, ledgerapi.RetryServerError, ""},
		"invalid params":  {200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"x"}}`, "", ledgerapi.SubmitCodeMalformed},
		"other error":     {200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"}}`, "", ledgerapi.SubmitCodeRPCError},
		"403":             {403, `no`, "", "http_403"},
		"error no result": {200, `{"jsonrpc":"2.0","id":1,"result":{"status":"ERROR","hash":"` + hash + `"}}`, "", ledgerapi.SubmitCodeRefused},
		"error bad xdr":   {200, `{"jsonrpc":"2.0","id":1,"result":{"status":"ERROR","hash":"` + hash + `","errorResultXdr":"%%"}}`, "", ledgerapi.SubmitCodeRefused},
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(c.status)
				_, _ = w.Write([]byte(c.body))
			}))
			defer srv.Close()
			b, _ := rpcapi.New(srv.URL, nil)
			try := b.Send(t.Context(), s.env, hash)
			switch {
			case c.cause != "":
				if try.Outcome != nil || try.Cause != c.cause {
					t.Fatalf("%+v", try)
				}
			case try.Outcome == nil || try.Outcome.State != ledgerapi.SubmitFailed || try.Outcome.Code != c.code || try.Outcome.Hash != hash:
				t.Fatalf("%+v %+v", try, try.Outcome)
			}
		})
	}
}

func TestSendUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	b, _ := rpcapi.New(url, nil)
	if try := b.Send(t.Context(), "AAAA", "00"); try.Outcome != nil || try.Cause != ledgerapi.RetryUnreachable {
		t.Fatalf("%+v", try)
	}
}

// TestMalformedEnvelopeRefused: the double's RPC face refuses an envelope
// that does not decode as RPC does (-32602): transaction_malformed.
func TestMalformedEnvelopeRefused(t *testing.T) {
	h := ledgertest.NewHandler()
	try := rpcBackend(t, h).Send(t.Context(), "bm90IGFuIGVudmVsb3Bl", "00")
	if try.Outcome == nil || try.Outcome.Code != ledgerapi.SubmitCodeMalformed {
		t.Fatalf("%+v", try)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(status)
		}))
		b, _ := rpcapi.New(srv.URL, nil)
		try := b.Send(t.Context(), "AAAA", "00")
		srv.Close()
		if try.Outcome != nil || try.RetryAfter != 7*time.Second || try.Status != status {
			t.Fatalf("%d: %+v", status, try)
		}
	}
}

// scripted answers each JSON-RPC call of a method with the next of its
// bodies (the last one again once they run out), echoing the call's id.
func scripted(t *testing.T, bodies map[string][]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		list := bodies[req.Method]
		if len(list) == 0 {
			http.Error(w, "no script", http.StatusInternalServerError)
			return
		}
		body := list[0]
		if len(list) > 1 {
			bodies[req.Method] = list[1:]
		}
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,` + body + `}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestPollAnswers: what getTransaction answers after PENDING decides the
// try: SUCCESS with a ledger, FAILED with its codes, a retry for an answer
// that is no outcome or a failed poll.
func TestPollAnswers(t *testing.T) {
	const hash = "00000000000000000000000000000000000000000000000000000000000000aa"
	pending := `"result":{"status":"PENDING","hash":"` + hash + `"}`
	failed := failedResult(t)
	for name, c := range map[string]struct {
		polls  []string
		state  ledgerapi.SubmitState
		code   string
		ledger int
		cause  string
	}{
		"success":          {polls: []string{`"result":{"status":"NOT_FOUND"}`, `"result":{"status":"SUCCESS","ledger":42}`}, state: ledgerapi.SubmitSubmitted, ledger: 42},
		"failed":           {polls: []string{`"result":{"status":"FAILED","ledger":42,"resultXdr":"` + failed + `"}`}, state: ledgerapi.SubmitFailed, code: "tx_failed"},
		"failed, no xdr":   {polls: []string{`"result":{"status":"FAILED","ledger":42}`}, state: ledgerapi.SubmitFailed, code: ledgerapi.SubmitCodeRefused},
		"success ledger 0": {polls: []string{`"result":{"status":"SUCCESS","ledger":0}`}, cause: ledgerapi.RetryBadAnswer},
		"unknown status":   {polls: []string{`"result":{"status":"LOST"}`}, cause: ledgerapi.RetryBadAnswer},
		"poll error":       {polls: []string{`"error":{"code":-32603,"message":"x"}`}, cause: ledgerapi.RetryServerError},
	} {
		t.Run(name, func(t *testing.T) {
			srv := scripted(t, map[string][]string{"sendTransaction": {pending}, "getTransaction": c.polls})
			b, _ := rpcapi.New(srv.URL, nil)
			try := b.Send(t.Context(), "AAAA", hash)
			if c.cause != "" {
				if try.Outcome != nil || try.Cause != c.cause {
					t.Fatalf("%+v", try)
				}
				return
			}
			out := try.Outcome
			if out == nil || out.State != c.state || out.Code != c.code || out.Ledger != c.ledger || out.Hash != hash {
				t.Fatalf("%+v %+v", try, out)
			}
		})
	}
	t.Run("poll until the try's end", func(t *testing.T) {
		srv := scripted(t, map[string][]string{"sendTransaction": {pending}, "getTransaction": {`"result":{"status":"NOT_FOUND"}`}})
		b, _ := rpcapi.New(srv.URL, nil)
		ctx, cancel := context.WithTimeout(t.Context(), 150*time.Millisecond)
		defer cancel()
		if try := b.Send(ctx, "AAAA", hash); try.Outcome != nil || try.Cause != ledgerapi.RetryTimeout {
			t.Fatalf("%+v", try)
		}
	})
}

// failedResult is a tx_failed TransactionResult whose one operation, a
// merge, failed with op_has_sub_entries.
func failedResult(t *testing.T) string {
	t.Helper()
	results := []xdr.OperationResult{{Code: xdr.OperationResultCodeOpInner, Tr: &xdr.OperationResultTr{
		Type: xdr.OperationTypeAccountMerge, AccountMergeResult: &xdr.AccountMergeResult{Code: xdr.AccountMergeResultCodeAccountMergeHasSubEntries}}}}
	s, err := xdr.MarshalBase64(xdr.TransactionResult{FeeCharged: 100, Result: xdr.TransactionResultResult{Code: xdr.TransactionResultCodeTxFailed, Results: &results}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
