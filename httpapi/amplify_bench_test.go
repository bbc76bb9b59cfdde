package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// BenchmarkLedgerAmplification is issue 39's flood beside an honest
// publisher (BENCHMARKS.md, "Ledger-API amplification"): each round, 20
// clients (20 new IPs, through X-Forwarded-For) publish at once a close of
// 99 payments to 99 accounts that do not exist (new ones every publish)
// from one account with 1,200 offers, with plans that expire after 2 s;
// beside them, one honest client publishes a plain close of an account of
// its own (three such, 100 ms apart; rounds 2.5 s apart). The double answers every request after amplifyDelay, as a
// distant Horizon would, and counts what it receives (every route, the
// latest ledger's included). The relay runs production's defaults, rate
// limits on. Reported: ledger calls per flood publish, the honest
// publish's p50 and p99 (publish to /status read), and how many honest
// verdicts were landable.
//
// It uses only what main has too, so the same file measures before and
// after: go test ./httpapi -run '^$' -bench LedgerAmplification -benchtime 1x
func BenchmarkLedgerAmplification(b *testing.B) {
	for _, delay := range []time.Duration{20 * time.Millisecond, 100 * time.Millisecond} {
		b.Run("horizon="+delay.String(), func(b *testing.B) {
			for range b.N {
				benchAmplification(b, 12, delay)
			}
		})
	}
}

// countingHandler counts every request before the double serves it.
type countingHandler struct {
	h     http.Handler
	calls atomic.Int64
}

func (c *countingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.calls.Add(1)
	c.h.ServeHTTP(w, r)
}

func benchAmplification(b *testing.B, rounds int, delay time.Duration) {
	h := ledgertest.NewHandler()
	h.SetDelay(delay)
	counter := &countingHandler{h: h}
	srv := httptest.NewServer(counter)
	defer srv.Close()
	defer h.Release()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	so := serverOptions(httpapi.Options{RateLimits: true, TrustedProxyHops: 1})
	so.Config.OpsAddr = "127.0.0.1:0"
	urls := map[ledger.Network]string{ledger.Testnet: srv.URL}
	so.Listener, so.Ledger = ln, horizonapi.Backends(urls, nil)
	rel, err := server.Start(so)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = rel.Stop() }()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 60 * time.Second}

	// The flood's account: 1,200 offers.
	flood := ledgertest.NewAccount(1, 1)
	h.AddAccount(flood)
	h.SetSequence(flood.Address, 100)
	h.Fund(flood.Address, 100_000*10_000_000)
	issuer := keypair.MustRandom().Address()
	h.Fund(issuer, 10*10_000_000)
	usd := ledgertest.Credit("USD", issuer)
	h.AddTrustline(flood.Address, ledgertest.Trustline{Asset: usd, Limit: 1_000_000 * 10_000_000})
	for range 1200 {
		h.AddOffer(flood.Address, ledgertest.Offer{Selling: ledgertest.Native(), Buying: usd, Amount: 10, Price: xdr.Price{N: 1, D: 1}})
	}
	dest := keypair.MustRandom().Address()
	h.Fund(dest, 10*10_000_000)

	var mu sync.Mutex
	var honest []time.Duration
	verdicts := map[string]int{}
	floodPublishes, floodCodes := 0, map[string]int{}
	var floodCalls int64
	start := time.Now()
	for r := range rounds {
		var wg sync.WaitGroup
		roundStart := time.Now()
		before := counter.calls.Load()
		for i := range 20 {
			x, _ := amplifyFloodClose(b, flood)
			wg.Go(func() {
				res := send(b, client, http.MethodPost, rel.APIURL+"/api/plan", strings.NewReader(jsonBody(b, map[string]string{"network": "testnet", "xdr": x})),
					map[string]string{"X-Forwarded-For": fmt.Sprintf("10.%d.%d.1", r, i)})
				var e struct{ Code string }
				_ = json.Unmarshal(res.body, &e)
				mu.Lock()
				floodPublishes++
				floodCodes[fmt.Sprint(res.status, e.Code)]++
				mu.Unlock()
			})
		}
		// Three honest clients, each an account of its own and a plain
		// close, the flood under way.
		for k := range 3 {
			acct := ledgertest.NewAccount(1, 1)
			h.AddAccount(acct)
			h.SetSequence(acct.Address, 100)
			x, id := amplifyClose(b, acct, time.Hour, &txnbuild.AccountMerge{Destination: dest})
			ip := map[string]string{"X-Forwarded-For": fmt.Sprintf("192.0.%d.%d", k, r+1)}
			wg.Go(func() {
				time.Sleep(time.Duration(1+100*k) * time.Millisecond)
				t0 := time.Now()
				res := send(b, client, http.MethodPost, rel.APIURL+"/api/plan", strings.NewReader(jsonBody(b, map[string]string{"network": "testnet", "xdr": x})), ip)
				verdict := fmt.Sprintf("publish %d", res.status)
				if res.status == http.StatusOK {
					st := send(b, client, http.MethodGet, rel.APIURL+"/api/plan/"+id+"/status", nil, ip)
					var s pfStatus
					if err := json.Unmarshal(st.body, &s); err == nil && s.Preflight != nil {
						verdict = s.Preflight.State
					}
				}
				mu.Lock()
				honest = append(honest, time.Since(t0))
				verdicts[verdict]++
				mu.Unlock()
			})
		}
		wg.Wait()
		// The honest publish's own calls are in the round's count: a few,
		// against the flood's hundreds before.
		floodCalls += counter.calls.Load() - before
		// The flood's plans expire 2 s after publish: the next round finds
		// PLANS_PER_ACCOUNT's room again, as the flood did.
		time.Sleep(time.Until(roundStart.Add(2500 * time.Millisecond)))
	}
	elapsed := time.Since(start)
	slices.Sort(honest)
	p := func(q float64) time.Duration { return honest[min(len(honest)-1, int(q*float64(len(honest))))] }
	b.ReportMetric(float64(floodCalls)/float64(floodPublishes), "calls/flood-publish")
	b.ReportMetric(float64(p(0.5).Milliseconds()), "honest-p50-ms")
	b.ReportMetric(float64(p(0.99).Milliseconds()), "honest-p99-ms")
	b.ReportMetric(float64(verdicts["landable"]), "honest-landable")
	b.ReportMetric(float64(len(honest)), "honest-publishes")
	b.Logf("%d rounds in %v; flood answers %v; honest verdicts %v; ledger calls %d", rounds, elapsed.Round(time.Millisecond), floodCodes, verdicts, floodCalls)
}

// amplifyFloodClose is the flood's close: 99 payments to accounts that do
// not exist, then the merge, its plan expiring 2 s after publish (maxTime
// 62 s away).
func amplifyFloodClose(tb testing.TB, acct ledgertest.Account) (xdrB64, id string) {
	ops := make([]txnbuild.Operation, 0, 100)
	for range 99 {
		ops = append(ops, &txnbuild.Payment{Destination: keypair.MustRandom().Address(), Amount: "1", Asset: txnbuild.NativeAsset{}})
	}
	ops = append(ops, &txnbuild.AccountMerge{Destination: keypair.MustRandom().Address()})
	return amplifyClose(tb, acct, 62*time.Second, ops...)
}

// amplifyClose is acct's transaction of ops at sequence 101, valid for
// life, signed by its first signer.
func amplifyClose(tb testing.TB, acct ledgertest.Account, life time.Duration, ops ...txnbuild.Operation) (xdrB64, id string) {
	tb.Helper()
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: acct.Address, Sequence: 101},
		Operations:    ops, BaseFee: 100,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, time.Now().Add(life).Unix())},
	})
	if err != nil {
		tb.Fatal(err)
	}
	if tx, err = tx.Sign(network.TestNetworkPassphrase, acct.Keys[0]); err != nil {
		tb.Fatal(err)
	}
	if xdrB64, err = tx.Base64(); err != nil {
		tb.Fatal(err)
	}
	if id, err = tx.HashHex(network.TestNetworkPassphrase); err != nil {
		tb.Fatal(err)
	}
	return xdrB64, id
}
