package server

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/natstest"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// Read-after-sign stress sizes: plans signed, of which this many at once.
// Each plan has 4 co-signers, and each 200 is followed by a GET on each of
// the 3 instances: readAfterSignPlans*4*3 reads.
const (
	readAfterSignPlans    = 200
	readAfterSignParallel = 8
)

// TestClusterReadAfterSignStress: CONTRACT section 12's "a sign answered 200
// by one instance is in every later answer of every instance", on real
// NATS: three NATS servers holding the bucket with three replicas, three
// relays each connected to a different server (so that two of them read
// through a follower's server), the four co-signers of each plan signing
// at once on different relays, and after every 200 a GET of the plan on
// every relay, which must carry that signature. A plan is new to two of the
// relays when its signs start, so first reads race each other there too.
// Reports the reads checked and the stale ones, and fails on one.
func TestClusterReadAfterSignStress(t *testing.T) {
	servers := natstest.StartCluster(t, 3)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	relays := make([]*clusterRelay, len(servers))
	for i, s := range servers {
		relays[i] = startClusterRelay(t, s.URL, h, map[string]string{"NATS_REPLICAS": "3"})
	}
	var checked, stale atomic.Int64
	var mu sync.Mutex
	var firstStale []string
	plans := make(chan int)
	var wg sync.WaitGroup
	for range readAfterSignParallel {
		wg.Go(func() {
			for n := range plans {
				acct := clusterAccount(h, 5)
				first, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[0])
				id, err := publishOn(relays[n%len(relays)], first)
				if err != nil {
					t.Errorf("plan %d: %v", n, err)
					continue
				}
				var signs sync.WaitGroup
				for k := 1; k <= 4; k++ {
					partial, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[k])
					on := relays[(n+k)%len(relays)]
					hint := hintOf(acct.Keys[k])
					signs.Go(func() {
						if code, body := retryUnavailable(on, "POST", "/api/plan/"+id+"/sign", `{"xdr":"`+partial+`"}`); code != 200 {
							t.Errorf("plan %d sign %d: %d %.200s", n, k, code, body)
							return
						}
						for i, r := range relays {
							hints, err := envelopeHints(r, id)
							if err != nil {
								t.Errorf("plan %d: GET on relay %d: %v", n, i, err)
								continue
							}
							checked.Add(1)
							if !slices.Contains(hints, hint) {
								stale.Add(1)
								mu.Lock()
								firstStale = append(firstStale, fmt.Sprintf("plan %s: relay %d answered %v after co-signer %d's 200 (hint %s)", id[:8], i, hints, k, hint))
								mu.Unlock()
							}
						}
					})
				}
				signs.Wait()
			}
		})
	}
	for n := range readAfterSignPlans {
		plans <- n
	}
	close(plans)
	wg.Wait()
	t.Logf("read-after-sign: %d reads checked, %d stale", checked.Load(), stale.Load())
	if n := stale.Load(); n > 0 {
		t.Errorf("%d stale reads, want 0; first: %s", n, strings.Join(firstStale[:min(len(firstStale), 5)], "; "))
	}
	if want := int64(readAfterSignPlans * 4 * len(relays)); checked.Load() != want && !t.Failed() {
		t.Errorf("%d reads checked, want %d", checked.Load(), want)
	}
}

// retryUnavailable is call tried again while it answers 503 UNAVAILABLE,
// as a client would: NATS answers nothing for a moment while a replicated
// stream elects a leader, which a loaded test machine can make happen.
// Read-after-sign is about 200s, and a 503 is none.
func retryUnavailable(r *clusterRelay, method, path, body string) (int, string) {
	for range 100 {
		code, b := call(r, method, path, body)
		if code != http.StatusServiceUnavailable {
			return code, b
		}
		time.Sleep(20 * time.Millisecond) // polling for the store's return
	}
	return call(r, method, path, body)
}

// call is clusterRelay.call without the test's Fatal, for goroutines.
func call(r *clusterRelay, method, path, body string) (int, string) {
	req, err := http.NewRequest(method, r.APIURL+path, strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// publishOn publishes xdr on r, trying again while the store is unavailable
// for a moment, as retryUnavailable does: publish says so with a 400
// UNAVAILABLE, never a 503 (CONTRACT section 12).
func publishOn(r *clusterRelay, xdr string) (string, error) {
	body := `{"network":"testnet","xdr":"` + xdr + `"}`
	code, answer := call(r, "POST", "/api/plan", body)
	for range 100 {
		if code != http.StatusBadRequest || !strings.Contains(answer, `"UNAVAILABLE"`) {
			break
		}
		time.Sleep(20 * time.Millisecond) // polling for the store's return
		code, answer = call(r, "POST", "/api/plan", body)
	}
	body = answer
	var ok struct{ ID string }
	if code != 200 || json.Unmarshal([]byte(body), &ok) != nil {
		return "", fmt.Errorf("publish: %d %.200s", code, body)
	}
	return ok.ID, nil
}

// envelopeHints is the hex hints of the signatures of the plan's envelope
// as r's GET answers it.
func envelopeHints(r *clusterRelay, id string) ([]string, error) {
	code, body := retryUnavailable(r, "GET", "/api/plan/"+id, "")
	var st struct{ XDR string }
	if code != 200 || json.Unmarshal([]byte(body), &st) != nil {
		return nil, fmt.Errorf("%d %.200s", code, body)
	}
	env, err := ledger.DecodeEnvelope(st.XDR)
	if err != nil {
		return nil, err
	}
	var hints []string
	for _, sig := range env.Signatures() {
		hints = append(hints, hex.EncodeToString(sig.Hint[:]))
	}
	return hints, nil
}
