package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/network"
)

// benchRelay is a relay on a loopback listener, wired as
// client/internal/relaytest does, with rate limits off.
type benchRelay struct {
	url     string
	horizon *ledgertest.Server
	dest    string
	client  *http.Client // for publish and sign: keep-alive, not the streams
	seq     atomic.Int64
}

func benchStartRelay(b *testing.B) *benchRelay {
	b.Helper()
	tr := startRelay(b, httpapi.Options{}, 0, nil)
	return &benchRelay{
		url:     tr.URL,
		horizon: tr.Horizon,
		dest:    ledgertest.Keypair(999).Address(),
		client:  tr.Client,
	}
}

// benchPlan is one published plan: its id, sequence number and account.
type benchPlan struct {
	id   string
	seq  int64
	acct ledgertest.Account
}

func (r *benchRelay) post(b *testing.B, path, body string) {
	b.Helper()
	if res := send(b, r.client, http.MethodPost, r.url+path, strings.NewReader(body), nil); res.status != http.StatusOK {
		b.Fatalf("POST %s: %d %s", path, res.status, res.body)
	}
}

func benchXDRBody(b *testing.B, x string) string {
	b.Helper()
	return jsonBody(b, map[string]string{"xdr": x, "network": string(ledger.Testnet)})
}

// publish publishes a fresh close of a fresh account (19 co-signers and the
// master; PLANS_PER_ACCOUNT allows few plans per account) carrying the
// master's signature.
func (r *benchRelay) publish(b *testing.B) benchPlan {
	acct := ledgertest.NewAccount(ledger.MaxSignatures-1, 1)
	r.horizon.AddAccount(acct)
	seq := r.seq.Add(1)
	master := acct.Keys[len(acct.Keys)-1]
	x, hash := ledgertest.BuildClose(master, r.dest, seq, 0, network.TestNetworkPassphrase, master)
	r.post(b, "/api/plan", benchXDRBody(b, x))
	return benchPlan{id: fmt.Sprintf("%x", hash), seq: seq, acct: acct}
}

// partial is co-signer i's partial (0 ≤ i < 19) for p.
func (r *benchRelay) partial(b *testing.B, p benchPlan, i int) string {
	x, _ := ledgertest.BuildClose(p.acct.Keys[len(p.acct.Keys)-1], r.dest, p.seq, 0,
		network.TestNetworkPassphrase, p.acct.Keys[i])
	return benchXDRBody(b, x)
}

// benchEvent is one parsed SSE event.
type benchEvent struct {
	id   string
	name string
	data struct {
		ID      string   `json:"id"`
		XDR     string   `json:"xdr"`
		Signers []string `json:"signers"`
	}
}

// benchReadEvent reads and parses one event, skipping comments.
func benchReadEvent(br *bufio.Reader) (benchEvent, error) {
	var ev benchEvent
	var data []byte
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return ev, err
		}
		line = bytes.TrimRight(line, "\n")
		switch {
		case len(line) == 0:
			if data == nil && ev.id == "" && ev.name == "" {
				continue // the end of a comment block
			}
			if err := json.Unmarshal(data, &ev.data); err != nil {
				return ev, err
			}
			return ev, nil
		case line[0] == ':':
		case bytes.HasPrefix(line, []byte("id: ")):
			ev.id = string(line[4:])
		case bytes.HasPrefix(line, []byte("event: ")):
			ev.name = string(line[7:])
		case bytes.HasPrefix(line, []byte("data: ")):
			data = append(data, line[6:]...)
		}
	}
}

// benchOpenStream opens one event stream with client and reads its first
// event (the current state).
func benchOpenStream(ctx context.Context, client *http.Client, url string) (*http.Response, *bufio.Reader, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("GET %s: %d", url, resp.StatusCode)
	}
	br := bufio.NewReader(resp.Body)
	if _, err := benchReadEvent(br); err != nil {
		resp.Body.Close()
		return nil, nil, err
	}
	return resp, br, nil
}

// BenchmarkSSEFanOut50 is one sign request whose event reaches 50
// subscribers of the plan over real HTTP streams (loopback, net/http client).
// One op is: POST the partial of a new co-signer, then wait until all 50
// subscribers have read and parsed the event. Latency per subscriber is from
// just before the POST is sent to that subscriber's parse of the event;
// p50-ns/p99-ns/max-ns are over all b.N×50 deliveries. A plan takes 19 new
// co-signers, so every 19 ops a new plan and 50 new streams are set up with
// the timer stopped.
func BenchmarkSSEFanOut50(b *testing.B) {
	const subscribers = actor.DefaultMaxSubscribers
	r := benchStartRelay(b)
	streamClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: subscribers}}
	defer streamClient.CloseIdleConnections()

	var (
		t0        atomic.Int64 // UnixNano just before the current sign is sent
		delivered = make(chan int64, subscribers)
		lat       = make([]int64, 0, b.N*subscribers)
		cancel    context.CancelFunc
		wg        sync.WaitGroup
		plan      benchPlan
		bodies    []string // the 19 co-signers' partials for plan, built untimed
		next      = ledger.MaxSignatures - 1
	)
	teardown := func() {
		if cancel != nil {
			cancel()
			wg.Wait()
		}
	}
	defer teardown()
	refill := func() {
		teardown()
		plan = r.publish(b)
		bodies = bodies[:0]
		for i := range ledger.MaxSignatures - 1 {
			bodies = append(bodies, r.partial(b, plan, i))
		}
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		for range subscribers {
			resp, br, err := benchOpenStream(ctx, streamClient, r.url+"/api/plan/"+plan.id+"/events")
			if err != nil {
				b.Fatal(err)
			}
			wg.Go(func() {
				defer resp.Body.Close()
				for {
					if _, err := benchReadEvent(br); err != nil {
						return
					}
					delivered <- time.Now().UnixNano() - t0.Load()
				}
			})
		}
		next = 0
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if next == ledger.MaxSignatures-1 {
			b.StopTimer()
			refill()
			b.StartTimer()
		}
		t0.Store(time.Now().UnixNano())
		r.post(b, "/api/plan/"+plan.id+"/sign", bodies[next])
		for range subscribers {
			lat = append(lat, <-delivered)
		}
		next++
	}
	b.StopTimer()
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))]) }
	b.ReportMetric(pct(0.50), "p50-ns")
	b.ReportMetric(pct(0.99), "p99-ns")
	b.ReportMetric(float64(lat[len(lat)-1]), "max-ns")
}

// benchRaiseNoFile lifts the soft open-file limit to the hard one; each
// stream holds two descriptors (client and server ends of one connection).
func benchRaiseNoFile(b *testing.B, need uint64) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		b.Fatal(err)
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			b.Fatal(err)
		}
	}
	if lim.Cur < need {
		b.Skipf("open-file limit %d < %d needed", lim.Cur, need)
	}
}

type benchMem struct {
	heap, stack uint64
	goroutines  int
}

func benchReadMem() benchMem {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return benchMem{heap: ms.HeapAlloc, stack: ms.StackInuse, goroutines: runtime.NumGoroutine()}
}

// BenchmarkIdleStreams opens 5,000 event streams (100 plans × 50, the
// per-plan cap) and reports the live heap, goroutine stacks and goroutines
// they add, per stream, after runtime.GC. Run it with -benchtime 1x: each op
// opens and closes the whole set.
//
//   - raw-client: each client is a bare net.Conn that wrote the GET and read
//     the headers and first event, then holds the socket with no goroutine
//     and no buffer: the figures are the server side (the detached
//     connection and its watching goroutine, the stream's goroutine and
//     timer, the subscription) plus a bare client socket (netFD and its
//     poll descriptor).
//   - http-client: each client is a net/http request whose body is read
//     through a bufio.Reader, as a Go subscriber would: server side plus a
//     full client (transport conn, its read/write loops and buffers).
func BenchmarkIdleStreams(b *testing.B) {
	const (
		plans   = 100
		perPlan = actor.DefaultMaxSubscribers
		streams = plans * perPlan
	)
	benchRaiseNoFile(b, 2*streams+256)
	for _, mode := range []string{"raw-client", "http-client"} {
		b.Run(mode, func(b *testing.B) {
			r := benchStartRelay(b)
			ids := make([]string, plans)
			for i := range ids {
				ids[i] = r.publish(b).id
			}
			addr := strings.TrimPrefix(r.url, "http://")
			r.client.CloseIdleConnections()
			for i := 0; i < b.N; i++ {
				streamClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
				ctx, cancel := context.WithCancel(context.Background())
				before := benchReadMem()

				var (
					mu      sync.Mutex
					closers []io.Closer
					readers []*bufio.Reader // http-client: kept alive with the stream
					errs    atomic.Int64
					work    = make(chan string)
					wg      sync.WaitGroup
				)
				for range 64 {
					wg.Go(func() {
						for id := range work {
							var c io.Closer
							var br *bufio.Reader
							var err error
							if mode == "raw-client" {
								c, err = benchRawStream(addr, id)
							} else {
								var resp *http.Response
								resp, br, err = benchOpenStream(ctx, streamClient, r.url+"/api/plan/"+id+"/events")
								if err == nil {
									c = resp.Body
								}
							}
							if err != nil {
								if errs.Add(1) == 1 {
									b.Error(err)
								}
								continue
							}
							mu.Lock()
							closers = append(closers, c)
							if br != nil {
								readers = append(readers, br)
							}
							mu.Unlock()
						}
					})
				}
				for _, id := range ids {
					for range perPlan {
						work <- id
					}
				}
				close(work)
				wg.Wait()
				if errs.Load() > 0 {
					b.FailNow()
				}
				time.Sleep(200 * time.Millisecond) // let servers park in their select
				after := benchReadMem()
				n := float64(len(closers))
				b.ReportMetric(n, "streams")
				b.ReportMetric(float64(after.heap-before.heap)/n, "heap-B/stream")
				b.ReportMetric(float64(after.stack-before.stack)/n, "stack-B/stream")
				b.ReportMetric(float64(after.heap+after.stack-before.heap-before.stack)/n, "total-B/stream")
				b.ReportMetric(float64(after.goroutines-before.goroutines)/n, "goroutines/stream")

				cancel()
				for _, c := range closers {
					_ = c.Close()
				}
				streamClient.CloseIdleConnections()
				runtime.KeepAlive(readers)
			}
		})
	}
}

// benchRawStream opens an event stream on a bare TCP connection and reads
// up to the end of the first event, then leaves the socket idle.
func benchRawStream(addr, id string) (net.Conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	req := "GET /api/plan/" + id + "/events HTTP/1.1\r\nHost: " + addr + "\r\nAccept: text/event-stream\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		c.Close()
		return nil, err
	}
	// Read until the blank line that ends the first event (after the headers'
	// blank line and chunk framing), with a small stack buffer.
	var buf [512]byte
	var seen []byte
	for {
		n, err := c.Read(buf[:])
		if err != nil {
			c.Close()
			return nil, err
		}
		seen = append(seen, buf[:n]...)
		if i := bytes.Index(seen, []byte("\r\n\r\n")); i >= 0 {
			if !bytes.HasPrefix(seen, []byte("HTTP/1.1 200")) {
				c.Close()
				return nil, fmt.Errorf("stream %s: %q", id, seen[:i])
			}
			if bytes.Contains(seen[i:], []byte("\n\n")) {
				return c, nil
			}
		}
	}
}
