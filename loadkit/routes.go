package loadkit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/wire"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// The routes of the mixed load (`closerelaylab load routes`).
const (
	RoutePublish = "publish" // POST /api/plan
	RouteGet     = "get"     // GET /api/plan/{id}
	RouteSign    = "sign"    // POST /api/plan/{id}/sign
	RouteStatus  = "status"  // GET /api/plan/{id}/status
	RouteEvents  = "events"  // GET /api/plan/{id}/events, held a while
	RouteMint    = "mint"    // GET /api/mediator/sign
	RouteCosign  = "cosign"  // POST /api/mediator/sign, after a mint of its own
)

// RouteOrder is the order routes are listed in.
var RouteOrder = []string{RoutePublish, RouteGet, RouteSign, RouteStatus, RouteEvents, RouteMint, RouteCosign}

// DefaultRouteMix is what one close costs the relay, as the routes' share of
// requests. Take a close of a 3-of-5 account: its publisher's wallet and four
// co-signers, one wallet coordinating.
//
//   - publish 2: one publish per close (a retry now and then is a re-publish);
//   - get 10: each of the five opens the plan (its page or the wallet's GET);
//   - events 12: each of the five watches the plan, about one in five
//     reconnects once;
//   - sign 10: four co-signers sign once, one of them retries (a replay);
//   - status 30: the coordinating wallet polls the status every few seconds
//     while it waits for the threshold, about fifteen times;
//   - mint 1, cosign 1: one close in two goes to an exchange through the
//     mediator; each co-sign mints its own flow first, and one flow in two
//     is abandoned, so mints are twice the co-signs.
//
// Doubled to whole numbers: 66 requests (67 with the co-sign's own mint) per
// close. Status polling is half the traffic; verification (sign, publish,
// co-sign) about a fifth.
const DefaultRouteMix = "publish:2,get:10,sign:10,status:30,events:12,mint:1,cosign:1"

// RoutesOptions configure RunRoutes.
type RoutesOptions struct {
	Payload     *Payload
	Connections int           // concurrent clients, each one request at a time (64 when zero)
	Duration    time.Duration // how long to send (15 s when zero)
	Requests    int           // stop after this many requests too (0: no bound; for tests)
	Mix         string        // route weights, DefaultRouteMix when empty
	// Hold is how long an event stream stays open after its first event (a
	// page watching), in the background: the client goes on to its next
	// request. 2 s when zero. At most HoldPerPlan streams of one plan are
	// held; the others close at their first event.
	Hold time.Duration
	// 30 when zero: the relay refuses a plan's 51st subscriber, and the
	// streams being opened count too.
	HoldPerPlan int
	Timeout     time.Duration // bound on one request, or on a stream's first event (10 s when zero)
	// Client sends the requests and StreamClient opens the streams; each
	// gets its own pool when nil.
	Client, StreamClient *http.Client
	Seed                 uint64 // of the random draws; from the clock when zero
}

// RoutesResult is a mixed run's figures; `load routes --json` prints it.
type RoutesResult struct {
	Relay       string         `json:"relay"`
	Mix         string         `json:"mix"`
	Connections int            `json:"connections"`
	Seconds     float64        `json:"seconds"`
	Requests    int            `json:"requests"`
	Unexpected  int            `json:"unexpected"` // answers other than the route's expected status
	RPS         float64        `json:"rps"`
	Routes      []RouteFigures `json:"routes"`
	// New plans published (the payload's spare closes) and new co-signers
	// admitted on them during the run.
	Published    int      `json:"published"`
	NewSigners   int      `json:"newSigners"`
	StreamsPeak  int      `json:"streamsPeak"` // streams held at once, at most
	Examples     []string `json:"examples,omitempty"`
	Notes        []string `json:"notes,omitempty"`
	HoldSeconds  float64  `json:"holdSeconds"`
	WeightsTotal int      `json:"weightsTotal"`
}

// RouteFigures are one route's requests and latencies (milliseconds; for
// events, up to the first event).
type RouteFigures struct {
	Route      string         `json:"route"`
	Weight     int            `json:"weight"`
	Requests   int            `json:"requests"`
	Unexpected int            `json:"unexpected"`
	RPS        float64        `json:"rps"`
	P50        float64        `json:"p50"`
	P95        float64        `json:"p95"`
	P99        float64        `json:"p99"`
	Max        float64        `json:"max"`
	Statuses   map[string]int `json:"statuses"` // "0" for no answer; "200-no-event" for a stream without its first event
}

// MaxUnexpected is the share of answers with another status than expected
// that fails a run: fewer than one in 1,000 (the k6 thresholds use the same).
const MaxUnexpected = 0.001

// Problems lists what makes the run a failure: a route of the mix that sent
// nothing, or more than MaxUnexpected of a route's answers wrong.
func (r *RoutesResult) Problems() []string {
	var out []string
	if r.Requests == 0 {
		out = append(out, "no request was sent")
	}
	for _, f := range r.Routes {
		switch {
		case f.Weight > 0 && f.Requests == 0:
			out = append(out, fmt.Sprintf("%s: no request sent", f.Route))
		case float64(f.Unexpected) > MaxUnexpected*float64(f.Requests):
			out = append(out, fmt.Sprintf("%s: %d of %d answers had another status than expected (%s)", f.Route, f.Unexpected, f.Requests, statusText(f.Statuses)))
		}
	}
	return out
}

func statusText(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s×%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

// ParseRouteMix reads "route:weight,…"; routes left out weigh 0.
func ParseRouteMix(s string) (map[string]int, error) {
	w := map[string]int{}
	total := 0
	for part := range strings.SplitSeq(s, ",") {
		name, n, ok := strings.Cut(strings.TrimSpace(part), ":")
		v, err := strconv.Atoi(n)
		if !ok || err != nil || v < 0 || !slices.Contains(RouteOrder, name) {
			return nil, fmt.Errorf("loadkit: route mix entry %q: want ROUTE:WEIGHT with ROUTE one of %s", part, strings.Join(RouteOrder, ", "))
		}
		if _, dup := w[name]; dup {
			return nil, fmt.Errorf("loadkit: route mix names %s twice", name)
		}
		w[name] = v
		total += v
	}
	if total == 0 {
		return nil, errors.New("loadkit: the route mix weighs nothing")
	}
	return w, nil
}

// routesRun is one RunRoutes in progress.
type routesRun struct {
	o        RoutesOptions
	relay    string
	network  string
	routes   []string // one entry per unit of weight, in a seeded random order
	deadline time.Time
	// cover is when a run that has not yet drawn every route of its mix
	// once stops all the same (Problems then names the route).
	cover time.Time
	drawn atomic.Int64 // routes drawn so far, over every connection

	mu       sync.Mutex
	live     []int     // plan indexes (payload plans, then published spares) requests may target
	pending  []partial // new co-signers' partials of published spares, not sent yet
	plans    []Plan    // payload plans, then spares
	signable []int     // payload plans with a valid or fresh partial
	holding  []atomic.Int32

	nextSpare  atomic.Int64
	sent       atomic.Int64
	published  atomic.Int64
	newSigners atomic.Int64
	streams    atomic.Int64
	peak       atomic.Int64
	memo       atomic.Int64
	held       sync.WaitGroup
	holdCtx    context.Context

	destinations []string
	exMu         sync.Mutex
	examples     []string
}

// worker is one connection's tally.
type worker struct {
	rng  *rand.Rand
	lat  map[string][]time.Duration
	stat map[string]map[string]int
	bad  map[string]int
}

// RunRoutes sends the payload's relay a mix of every route from
// o.Connections clients for o.Duration, and reports each route's
// throughput, latency and unexpected answers. Spare closes in the payload
// are published once each (later publishes are re-publishes of them or of
// the payload's plans, which merge), and their co-signers' partials are
// then signed as new signers, so the held streams see events.
func RunRoutes(ctx context.Context, o RoutesOptions) (*RoutesResult, error) {
	if o.Payload == nil || len(o.Payload.Plans) == 0 {
		return nil, errors.New("loadkit: the payload has no plans")
	}
	if o.Connections <= 0 {
		o.Connections = 64
	}
	if o.Duration <= 0 {
		o.Duration = 15 * time.Second
	}
	if o.Mix == "" {
		o.Mix = DefaultRouteMix
	}
	if o.Hold <= 0 {
		o.Hold = 2 * time.Second
	}
	if o.HoldPerPlan <= 0 {
		o.HoldPerPlan = 30
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Client == nil {
		o.Client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.Connections, DisableCompression: true}}
	}
	if o.StreamClient == nil {
		o.StreamClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true, DisableCompression: true}}
	}
	if o.Seed == 0 {
		o.Seed = uint64(time.Now().UnixNano())
	}
	weights, err := ParseRouteMix(o.Mix)
	if err != nil {
		return nil, err
	}
	p := o.Payload
	res := &RoutesResult{Relay: p.Relay, Connections: o.Connections, HoldSeconds: o.Hold.Seconds()}
	if weights[RoutePublish] > 0 && !hasCloses(p) {
		weights[RoutePublish] = 0
		res.Notes = append(res.Notes, "publish left out: the payload holds no close to publish (written by an older closerelayctl?)")
	}
	r := &routesRun{o: o, relay: strings.TrimSuffix(p.Relay, "/"), network: p.Network}
	r.plans = append(append([]Plan{}, p.Plans...), p.Spare...)
	for i, pl := range p.Plans {
		if len(pl.Valid) > 0 || len(pl.Fresh) > 0 {
			r.signable = append(r.signable, i)
		}
	}
	if weights[RouteSign] > 0 && len(r.signable) == 0 {
		weights[RouteSign] = 0
		res.Notes = append(res.Notes, "sign left out: the payload's plans hold no partial to sign")
	}
	r.holding = make([]atomic.Int32, len(r.plans))
	for i := range p.Plans {
		r.live = append(r.live, i)
	}
	for range 4 {
		r.destinations = append(r.destinations, keypair.MustRandom().Address())
	}
	var mix []string
	for _, name := range RouteOrder {
		if weights[name] > 0 {
			mix = append(mix, fmt.Sprintf("%s:%d", name, weights[name]))
		}
		for range weights[name] {
			r.routes = append(r.routes, name)
		}
		res.WeightsTotal += weights[name]
	}
	res.Mix = strings.Join(mix, ",")
	if len(r.routes) == 0 {
		return nil, fmt.Errorf("loadkit: nothing left to send: %s", strings.Join(res.Notes, "; "))
	}

	holdCtx, stopHolding := context.WithCancel(context.WithoutCancel(ctx))
	defer stopHolding()
	r.holdCtx = holdCtx
	start := time.Now()
	r.deadline = start.Add(o.Duration)
	r.cover = start.Add(max(10*o.Duration, 10*time.Second))
	// The routes are dealt as from a deck, one entry per unit of weight,
	// shuffled once: every len(r.routes) consecutive requests send each
	// route by its weight, so a short run on a slow machine still sends
	// every route of its mix, and goes on past its duration until it has.
	rand.New(rand.NewPCG(o.Seed, uint64(len(r.routes)))).Shuffle(len(r.routes), func(i, j int) {
		r.routes[i], r.routes[j] = r.routes[j], r.routes[i]
	})
	workers := make([]*worker, o.Connections)
	var wg sync.WaitGroup
	for i := range workers {
		w := &worker{rng: rand.New(rand.NewPCG(o.Seed, uint64(i))), lat: map[string][]time.Duration{}, stat: map[string]map[string]int{}, bad: map[string]int{}}
		workers[i] = w
		wg.Go(func() {
			for ctx.Err() == nil && r.going(time.Now()) {
				if o.Requests > 0 && r.sent.Add(1) > int64(o.Requests) {
					return
				}
				r.one(ctx, w)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	stopHolding()
	r.held.Wait()

	res.Seconds = elapsed.Seconds()
	for _, name := range RouteOrder {
		f := RouteFigures{Route: name, Weight: weights[name], Statuses: map[string]int{}}
		var all []time.Duration
		for _, w := range workers {
			all = append(all, w.lat[name]...)
			f.Unexpected += w.bad[name]
			for k, v := range w.stat[name] {
				f.Statuses[k] += v
			}
		}
		for _, v := range f.Statuses {
			f.Requests += v
		}
		if f.Requests == 0 && f.Weight == 0 {
			continue
		}
		f.RPS = float64(f.Requests) / res.Seconds
		f.P50, f.P95, f.P99, f.Max = Percentiles(all)
		res.Routes = append(res.Routes, f)
		res.Requests += f.Requests
		res.Unexpected += f.Unexpected
	}
	res.RPS = float64(res.Requests) / res.Seconds
	res.Published = int(r.published.Load())
	res.NewSigners = int(r.newSigners.Load())
	res.StreamsPeak = int(r.peak.Load())
	res.Examples = r.examples
	return res, nil
}

func hasCloses(p *Payload) bool {
	for _, pl := range append(append([]Plan{}, p.Plans...), p.Spare...) {
		if pl.Close != "" {
			return true
		}
	}
	return false
}

// Percentiles are the p50, p95, p99 and maximum of d in milliseconds
// (nearest rank); zeros when d is empty. d is sorted in place.
func Percentiles(d []time.Duration) (p50, p95, p99, top float64) {
	if len(d) == 0 {
		return 0, 0, 0, 0
	}
	slices.Sort(d)
	at := func(q float64) float64 {
		i := int(q*float64(len(d))+0.999999) - 1
		i = min(max(i, 0), len(d)-1)
		return float64(d[i].Microseconds()) / 1000
	}
	return at(0.50), at(0.95), at(0.99), float64(d[len(d)-1].Microseconds()) / 1000
}

// going reports whether the run sends another request at now: until its
// deadline, and past it until the whole deck has been dealt once (or the
// cover bound).
func (r *routesRun) going(now time.Time) bool {
	return now.Before(r.deadline) || (r.drawn.Load() < int64(len(r.routes)) && now.Before(r.cover))
}

// one sends one request of the next route of the deck and tallies it.
func (r *routesRun) one(ctx context.Context, w *worker) {
	route := r.routes[(r.drawn.Add(1)-1)%int64(len(r.routes))]
	plan := r.pick(w.rng)
	var status string
	var d time.Duration
	ok := false
	switch route {
	case RoutePublish:
		status, d, ok = r.publish(ctx, w)
	case RouteGet:
		status, d, ok = r.send(ctx, route, http.MethodGet, "/api/plan/"+r.plans[plan].ID, nil, 200, nil)
	case RouteStatus:
		status, d, ok = r.send(ctx, route, http.MethodGet, "/api/plan/"+r.plans[plan].ID+"/status", nil, 200, nil)
	case RouteSign:
		status, d, ok = r.sign(ctx, w, plan)
	case RouteEvents:
		status, d, ok = r.stream(ctx, plan)
	case RouteMint:
		status, d, ok, _ = r.mint(ctx, w)
	case RouteCosign:
		status, d, ok = r.cosign(ctx, w)
	}
	w.tally(route, status, d, ok)
}

func (w *worker) tally(route, status string, d time.Duration, ok bool) {
	if w.stat[route] == nil {
		w.stat[route] = map[string]int{}
	}
	w.stat[route][status]++
	w.lat[route] = append(w.lat[route], d)
	if !ok {
		w.bad[route]++
	}
}

// pick draws a plan requests may target: a payload plan or a published spare.
func (r *routesRun) pick(rng *rand.Rand) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.live[rng.IntN(len(r.live))]
}

// send makes one request and reads its whole answer; ok when the status is
// want. When into is set, a wanted answer's JSON is decoded into it.
func (r *routesRun) send(ctx context.Context, route, method, path string, body any, want int, into any) (string, time.Duration, bool) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			r.example(route, "encode: "+err.Error())
			return "0", 0, false
		}
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(ctx, r.o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, r.relay+path, rd)
	if err != nil {
		r.example(route, err.Error())
		return "0", 0, false
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	start := time.Now()
	resp, err := r.o.Client.Do(req)
	if err != nil {
		r.example(route, err.Error())
		return "0", time.Since(start), false
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	d := time.Since(start)
	status := strconv.Itoa(resp.StatusCode)
	if err != nil {
		r.example(route, status+" then "+err.Error())
		return status, d, false
	}
	if resp.StatusCode != want {
		r.example(route, status+" "+firstLine(b))
		return status, d, false
	}
	if into != nil {
		if err := json.Unmarshal(b, into); err != nil {
			r.example(route, status+" with a body that is not its JSON: "+firstLine(b))
			return status + "-bad-body", d, false
		}
	}
	return status, d, true
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func (r *routesRun) example(route, what string) {
	r.exMu.Lock()
	defer r.exMu.Unlock()
	if len(r.examples) < 8 {
		r.examples = append(r.examples, route+": "+what)
	}
}

// publish sends the next spare close, which creates a plan; once every
// spare is out, a close already published (a re-publish, which merges).
func (r *routesRun) publish(ctx context.Context, w *worker) (string, time.Duration, bool) {
	n := len(r.o.Payload.Plans)
	spare := -1
	if i := int(r.nextSpare.Add(1)) - 1; i < len(r.o.Payload.Spare) && r.plans[n+i].Close != "" {
		spare = n + i
	}
	target := spare
	if target < 0 {
		for range 8 {
			if t := r.pick(w.rng); r.plans[t].Close != "" {
				target = t
				break
			}
		}
		if target < 0 {
			target = 0
		}
	}
	var out wire.Published
	status, d, ok := r.send(ctx, RoutePublish, http.MethodPost, "/api/plan", map[string]string{"network": r.network, "xdr": r.plans[target].Close}, 200, &out)
	if ok && out.ID != r.plans[target].ID {
		r.example(RoutePublish, fmt.Sprintf("published as %s, want %s", out.ID, r.plans[target].ID))
		return status + "-other-id", d, false
	}
	if ok && spare >= 0 {
		r.published.Add(1)
		r.mu.Lock()
		r.live = append(r.live, spare)
		for _, x := range r.plans[spare].Valid {
			r.pending = append(r.pending, partial{id: r.plans[spare].ID, xdr: x})
		}
		r.mu.Unlock()
	}
	return status, d, ok
}

// sign sends a new co-signer's partial of a published spare when one is
// waiting, else an admitted partial again (a replay) or a fresh signature
// (a wallet signing again), half and half.
func (r *routesRun) sign(ctx context.Context, w *worker, plan int) (string, time.Duration, bool) {
	r.mu.Lock()
	var x, id string
	if n := len(r.pending); n > 0 {
		i := w.rng.IntN(n)
		x, id = r.pending[i].xdr, r.pending[i].id
		r.pending[i] = r.pending[n-1]
		r.pending = r.pending[:n-1]
	}
	r.mu.Unlock()
	if x != "" {
		r.newSigners.Add(1)
	} else {
		p := r.plans[plan]
		if len(p.Valid) == 0 && len(p.Fresh) == 0 {
			p = r.plans[r.signable[w.rng.IntN(len(r.signable))]]
		}
		id = p.ID
		if len(p.Fresh) > 0 && (w.rng.IntN(2) == 0 || len(p.Valid) == 0) {
			x = p.Fresh[w.rng.IntN(len(p.Fresh))]
		} else {
			x = p.Valid[w.rng.IntN(len(p.Valid))]
		}
	}
	return r.send(ctx, RouteSign, http.MethodPost, "/api/plan/"+id+"/sign", map[string]string{"xdr": x}, 200, nil)
}

// partial is one partial to sign and its plan's id.
type partial struct{ id, xdr string }

// stream opens the plan's event stream and waits for its first event
// (the plan's current state); it is then held for Hold in the background.
func (r *routesRun) stream(ctx context.Context, plan int) (string, time.Duration, bool) {
	sctx, cancel := context.WithCancel(r.holdCtx)
	stopOnCaller := context.AfterFunc(ctx, cancel)
	timer := time.AfterFunc(r.o.Timeout, cancel)
	req, err := http.NewRequestWithContext(sctx, http.MethodGet, r.relay+"/api/plan/"+r.plans[plan].ID+"/events", nil)
	if err != nil {
		cancel()
		stopOnCaller()
		r.example(RouteEvents, err.Error())
		return "0", 0, false
	}
	req.Header.Set("Accept", "text/event-stream")
	start := time.Now()
	resp, err := r.o.StreamClient.Do(req)
	if err != nil {
		timer.Stop()
		cancel()
		stopOnCaller()
		r.example(RouteEvents, err.Error())
		return "0", time.Since(start), false
	}
	status := strconv.Itoa(resp.StatusCode)
	finish := func() {
		timer.Stop()
		resp.Body.Close()
		cancel()
		stopOnCaller()
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		finish()
		r.example(RouteEvents, status+" "+firstLine(b))
		return status, time.Since(start), false
	}
	br := bufio.NewReaderSize(resp.Body, 4096)
	got := false
	for {
		line, err := br.ReadSlice('\n')
		if bytes.HasPrefix(line, []byte("data:")) {
			got = true
			break
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
	}
	d := time.Since(start)
	if !got {
		finish()
		r.example(RouteEvents, "200 without a first event within "+r.o.Timeout.String())
		return status + "-no-event", d, false
	}
	if !timer.Stop() {
		finish() // the run is over
		return status, d, true
	}
	if r.holding[plan].Add(1) > int32(r.o.HoldPerPlan) {
		r.holding[plan].Add(-1)
		finish()
		return status, d, true
	}
	for n := r.streams.Add(1); ; {
		p := r.peak.Load()
		if n <= p || r.peak.CompareAndSwap(p, n) {
			break
		}
	}
	timer.Reset(r.o.Hold)
	r.held.Go(func() {
		_, _ = io.Copy(io.Discard, br)
		finish()
		r.holding[plan].Add(-1)
		r.streams.Add(-1)
	})
	return status, d, true
}

// mint asks for a flow to one of a few destinations with a text memo.
func (r *routesRun) mint(ctx context.Context, w *worker) (string, time.Duration, bool, mint) {
	m := mint{destination: r.destinations[w.rng.IntN(len(r.destinations))], memo: fmt.Sprintf("load-%d", r.memo.Add(1))}
	q := url.Values{"destination": {m.destination}, "memo": {"text:" + m.memo}}
	var a wire.Flow
	status, d, ok := r.send(ctx, RouteMint, http.MethodGet, "/api/mediator/sign?"+q.Encode(), nil, 200, &a)
	if ok && (a.FlowToken == "" || a.MediatorPublicKey == "") {
		r.example(RouteMint, "200 without flowToken or mediatorPublicKey")
		return status + "-bad-body", d, false, m
	}
	m.token, m.mediator = a.FlowToken, a.MediatorPublicKey
	return status, d, ok, m
}

type mint struct{ destination, memo, token, mediator string }

// cosign mints a flow (tallied as a mint), builds its forward as a wallet
// would, and asks the mediator to co-sign it.
func (r *routesRun) cosign(ctx context.Context, w *worker) (string, time.Duration, bool) {
	status, d, ok, m := r.mint(ctx, w)
	w.tally(RouteMint, status, d, ok)
	if !ok {
		return "0-no-flow", 0, false
	}
	tx, err := wallet.BuildForward(wallet.ForwardParams{
		Mediator: m.mediator, Sequence: 1 << 32, Destination: m.destination, Amount: "10", Memo: txnbuild.MemoText(m.memo),
	})
	if err != nil {
		r.example(RouteCosign, err.Error())
		return "0-no-forward", 0, false
	}
	env, err := tx.Base64()
	if err != nil {
		r.example(RouteCosign, err.Error())
		return "0-no-forward", 0, false
	}
	var out wire.Cosigned
	status, d, ok = r.send(ctx, RouteCosign, http.MethodPost, "/api/mediator/sign", map[string]string{"envelopeXdr": env, "flowToken": m.token, "network": r.network}, 200, &out)
	if ok && out.SignedXDR == "" {
		r.example(RouteCosign, "200 without signedXdr")
		return status + "-bad-body", d, false
	}
	return status, d, ok
}

// WriteRoutes prints a mixed run for a person: one line per route, then
// the verdict.
func WriteRoutes(w io.Writer, r *RoutesResult) {
	fmt.Fprintf(w, "routes mix %s: %d connections, %.1f s, %d requests, %.0f/s; %d new plans, %d new signers, up to %d streams held\n",
		r.Mix, r.Connections, r.Seconds, r.Requests, r.RPS, r.Published, r.NewSigners, r.StreamsPeak)
	fmt.Fprintf(w, "%-8s %7s %9s %8s %8s %8s %8s %8s  %s\n", "route", "weight", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms", "statuses")
	for _, f := range r.Routes {
		fmt.Fprintf(w, "%-8s %7d %9d %8.0f %8.2f %8.2f %8.2f %8.1f  %s\n", f.Route, f.Weight, f.Requests, f.RPS, f.P50, f.P95, f.P99, f.Max, statusText(f.Statuses))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, e := range r.Examples {
		fmt.Fprintf(w, "unexpected: %s\n", e)
	}
	if p := r.Problems(); len(p) > 0 {
		fmt.Fprintf(w, "routes: FAILED: %s\n", strings.Join(p, "; "))
		return
	}
	fmt.Fprintf(w, "routes: passed: %d of %d answers had another status than expected (the bound: fewer than 1 in 1,000 per route)\n", r.Unexpected, r.Requests)
}
