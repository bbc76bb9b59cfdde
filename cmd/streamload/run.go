package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/closerelay/closerelay/internal/procfs"
	"github.com/closerelay/closerelay/loadkit"
	"github.com/closerelay/closerelay/wire"
)

// maxPlans is the relay's plan capacity and the SRE scenario.
const maxPlans = 500

// targetKiBPerStream is issue 16's bound on the relay's resident memory per
// idle stream, at 5,000 streams (loadkit.TargetIdleKiB).
const targetKiBPerStream = loadkit.TargetIdleKiB

// options are the command's flags; see flags() for what each one means.
type options struct {
	payload     string
	plans       int
	subscribers int
	duration    time.Duration
	interval    time.Duration
	rate        int
	dialers     int
	sources     int
	fdReserve   int
	handshake   time.Duration
	settle      time.Duration
	drain       time.Duration
	timeout     time.Duration
	lockstep    bool
}

// planRun is one plan of the payload under load.
type planRun struct {
	id     string
	needle []byte   // planNeedle(id)
	valid  []string // the partials to send, in order
	// Appended to by the ramp under load.mu, read-only once it is over.
	streams []*stream
	c0      int          // signers in its first stream's first event
	posts   []postRecord // set once the signing has ended
}

// load is one run: the streams, the signing, and what it measured.
type load struct {
	// Set by newLoad, then read-only.
	opts   options
	log    io.Writer // progress lines
	target target
	relay  string // the payload's relay URL, for the sign requests
	ops    string
	pid    int
	plans  []*planRun
	client *http.Client // sign requests and metrics scrapes
	res    *Result      // filled in as the run goes
	start  time.Time    // set as the run starts; every recorded time is time since start (monotonic)

	// Filled by the ramp's workers, under mu.
	mu      sync.Mutex
	streams []*stream
	errs    errorTally

	stopping atomic.Bool // set before the run closes the streams
	readers  sync.WaitGroup
}

// Run runs one stream load and returns its summary, partial when it returns
// an error after the streams were opened.
func Run(ctx context.Context, o options, log io.Writer) (*Result, error) {
	l, err := newLoad(o, log)
	if err != nil {
		return nil, err
	}
	return l.res, l.execute(ctx)
}

// execute runs the load within -timeout, then closes every stream and fills
// in the result, whatever happened.
func (l *load) execute(ctx context.Context) error {
	ctx, cancel := context.WithTimeoutCause(ctx, l.opts.timeout, fmt.Errorf("the run did not finish within -timeout %s", l.opts.timeout))
	defer cancel()
	err := l.run(ctx)
	l.stop()
	l.account()
	l.res.ElapsedSeconds = time.Since(l.start).Seconds()
	if err != nil {
		l.res.Error = err.Error()
	}
	return err
}

func newLoad(o options, log io.Writer) (*load, error) {
	p, err := loadkit.Read(o.payload)
	if err != nil {
		return nil, err
	}
	t, err := parseTarget(p.Relay)
	if err != nil {
		return nil, err
	}
	l := &load{
		opts: o, log: log, target: t, relay: strings.TrimSuffix(p.Relay, "/"), ops: p.Ops, pid: p.ServerPID,
		client: &http.Client{
			Timeout:   10 * time.Second,
			Transport: &http.Transport{MaxIdleConnsPerHost: 1024, DisableCompression: true},
		},
		res: &Result{Relay: p.Relay, SubscribersPerPlan: o.subscribers},
	}
	n := min(len(p.Plans), maxPlans)
	if o.plans > 0 {
		n = min(n, o.plans)
	}
	requested := n * o.subscribers
	l.res.StreamsRequested = requested

	// Every stream is a descriptor here and one in the relay.
	soft, hard, err := procfs.RaiseNoFile()
	if err != nil {
		return nil, fmt.Errorf("RLIMIT_NOFILE: %w", err)
	}
	of := &l.res.OpenFiles
	of.Soft, of.Hard, of.Reserve = soft, hard, o.fdReserve
	limit := soft
	if l.pid > 0 {
		if srv, err := procfs.NoFile(l.pid); err == nil {
			of.Server = srv
			limit = min(limit, srv)
		}
	}
	of.Budget = int(min(limit, 1<<31)) - o.fdReserve
	n, subs := capStreams(n, o.subscribers, of.Budget)
	if n*subs < requested {
		l.res.Capped = fmt.Sprintf("%d streams requested, but the open-file limit is %d (this process %d, hard %d%s) and %d descriptors are kept in reserve: measuring %d streams (%d plans × %d subscribers) instead",
			requested, limit, soft, hard, serverLimitText(of.Server), o.fdReserve, n*subs, n, subs)
	}
	l.res.SubscribersPerPlan = subs
	l.opts.subscribers = subs
	for _, pp := range p.Plans[:n] {
		l.plans = append(l.plans, &planRun{id: pp.ID, needle: planNeedle(pp.ID), valid: pp.Valid})
	}
	l.res.Plans = n
	return l, nil
}

func serverLimitText(server uint64) string {
	if server == 0 {
		return ""
	}
	return fmt.Sprintf(", the relay %d", server)
}

// capStreams fits plans × subs streams into budget descriptors: whole plans
// first, since a plan with fewer subscribers would measure a smaller fan-out.
func capStreams(plans, subs, budget int) (int, int) {
	switch {
	case budget <= 0:
		return 0, 0
	case plans*subs <= budget:
		return plans, subs
	case subs > budget:
		return 1, budget
	}
	return budget / subs, subs
}

func (l *load) progressf(format string, args ...any) {
	fmt.Fprintf(l.log, "streamload: "+format+"\n", args...)
}

// run opens the streams, measures the idle relay, signs, and waits for the
// events; stop and account finish the job whatever it returns.
func (l *load) run(ctx context.Context) error {
	l.start = time.Now()
	l.res.Started = l.start.UTC().Truncate(time.Second)
	if l.res.Capped != "" {
		l.progressf("%s", l.res.Capped)
	}
	want := len(l.plans) * l.opts.subscribers
	if want == 0 {
		return errors.New("no stream fits under the open-file limit")
	}
	l.res.Server.PID = l.pid
	l.res.Server.before(l.measureServer(ctx))

	opening := l.cpuMark()
	l.progressf("opening %d streams (%d plans × %d) at up to %d a second", want, len(l.plans), l.opts.subscribers, l.opts.rate)
	ramp(ctx, want, l.opts.rate, l.opts.dialers, func(i int) { l.openOne(ctx, i) })
	l.res.StreamsAttempted = want
	l.res.StreamsOpen = len(l.streams)
	l.res.OpenSeconds = time.Since(l.start).Seconds()
	l.res.CPU.Opening = opening.since(l)
	l.progressf("%d of %d streams open after %.1f s", len(l.streams), want, l.res.OpenSeconds)
	if err := phaseErr(ctx, "opening the streams"); err != nil {
		return err
	}
	if len(l.streams) == 0 {
		return errors.New("no stream opened")
	}

	// Idle: every stream has had its first event; let the relay's goroutines
	// park and its allocator settle before reading its memory.
	select {
	case <-time.After(l.opts.settle):
	case <-ctx.Done():
		return phaseErr(ctx, "settling")
	}
	l.res.Server.after(l.measureServer(ctx), len(l.streams))
	if m, err := procfs.ReadMemory("self"); err == nil {
		l.res.Generator.RSSIdle = m.RSS
		l.res.Generator.KiBPerStream = float64(m.RSS) / 1024 / float64(len(l.streams))
	}

	signing := l.cpuMark()
	l.progressf("signing: one partial per plan every %s for %s", l.opts.interval, l.opts.duration)
	partials := make([][]string, len(l.plans))
	for i, p := range l.plans {
		partials[i] = p.valid
	}
	posts := signAll(ctx, partials, l.opts.interval, l.opts.duration, func(ctx context.Context, i int, partial string) postRecord {
		rec := l.post(ctx, l.plans[i].id, partial)
		if l.opts.lockstep && rec.err == nil {
			l.plans[i].caughtUp(ctx, rec.signers)
		}
		return rec
	})
	for i, p := range l.plans {
		p.posts = posts[i]
	}
	if err := phaseErr(ctx, "signing"); err != nil {
		return err
	}
	l.waitDelivered(ctx)
	l.res.CPU.Signing = signing.since(l)
	l.res.Server.busy(l.measureServer(ctx), len(l.streams))
	return phaseErr(ctx, "waiting for the last events")
}

// cpuMark is the wall clock and both processes' CPU time at a point.
type cpuMark struct {
	wall           time.Time
	relay, ownTime time.Duration
}

func (l *load) cpuMark() cpuMark {
	m := cpuMark{wall: time.Now(), relay: -1}
	if l.pid > 0 {
		if d, err := procfs.CPU(strconv.Itoa(l.pid)); err == nil {
			m.relay = d
		}
	}
	m.ownTime, _ = procfs.CPU("self")
	return m
}

// since is the CPU each process used from m until now; the relay's is -1
// when it cannot be read.
func (m cpuMark) since(l *load) phaseCPU {
	now := l.cpuMark()
	p := phaseCPU{WallSeconds: now.wall.Sub(m.wall).Seconds(), GeneratorSeconds: (now.ownTime - m.ownTime).Seconds(), RelaySeconds: -1}
	if m.relay >= 0 && now.relay >= 0 {
		p.RelaySeconds = (now.relay - m.relay).Seconds()
	}
	return p
}

func phaseErr(ctx context.Context, phase string) error {
	if ctx.Err() == nil {
		return nil
	}
	return fmt.Errorf("%w (while %s)", context.Cause(ctx), phase)
}

func (l *load) openOne(ctx context.Context, i int) {
	p := l.plans[i%len(l.plans)]
	d := &net.Dialer{KeepAlive: -1} // the relay's heartbeats keep the streams alive
	if l.target.loopback {
		d.LocalAddr = &net.TCPAddr{IP: sourceAddr(i % l.opts.sources)}
	}
	s, err := openStream(ctx, d, l.target, p, l.opts.handshake)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.errs.add(err, 1)
		return
	}
	l.streams = append(l.streams, s)
	if p.streams = append(p.streams, s); len(p.streams) == 1 {
		p.c0 = s.c0
	}
	l.readers.Go(func() { s.read(l.start, &l.stopping) })
}

// post sends one partial to the plan's sign route.
func (l *load) post(ctx context.Context, id, partial string) postRecord {
	body, err := json.Marshal(struct {
		XDR string `json:"xdr"`
	}{partial})
	if err != nil {
		return postRecord{err: failure("sign request", err)}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.relay+"/api/plan/"+id+"/sign", bytes.NewReader(body))
	if err != nil {
		return postRecord{err: failure("sign request", err)}
	}
	req.Header.Set("Content-Type", "application/json")
	rec := postRecord{sent: time.Since(l.start)}
	resp, err := l.client.Do(req)
	if err != nil {
		rec.err = failure("sign request", fmt.Errorf("sent %.3f s into the run, failed after %s: %w",
			rec.sent.Seconds(), time.Since(l.start)-rec.sent, err))
		return rec
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	rec.took = time.Since(l.start) - rec.sent
	var ans wire.Signed
	switch {
	case err != nil:
		rec.err = failure("sign request", err)
	case resp.StatusCode != http.StatusOK:
		rec.err = failure("sign: HTTP "+strconv.Itoa(resp.StatusCode), errors.New(strings.TrimSpace(string(b))))
	default:
		if err := json.Unmarshal(b, &ans); err != nil {
			rec.err = failure("sign: answer", err)
		}
		rec.signers = len(ans.Signers)
	}
	return rec
}

// waitDelivered returns once every stream has received its plan's last
// state (or a later one), or after -drain. A stream that skipped a state on
// the way (the relay sends a slow subscriber the newest state) is done too.
func (l *load) waitDelivered(ctx context.Context) {
	last := make(map[*planRun]int64, len(l.plans))
	for _, p := range l.plans {
		for c := range produced(p.posts) {
			last[p] = max(last[p], int64(c))
		}
	}
	waiting := func() (n int) {
		for _, s := range l.streams {
			if s.top.Load() < last[s.plan] {
				n++
			}
		}
		return n
	}
	deadline := time.NewTimer(l.opts.drain)
	defer deadline.Stop()
	poll := time.NewTicker(10 * time.Millisecond)
	defer poll.Stop()
	for waiting() > 0 {
		select {
		case <-poll.C:
		case <-deadline.C:
			l.progressf("%d of %d streams still without their plan's last state after the -drain wait of %s", waiting(), len(l.streams), l.opts.drain)
			return
		case <-ctx.Done():
			return
		}
	}
}

// caughtUp returns once every live stream of the plan has received a state
// with at least signers signers, or when ctx ends: -lockstep, where no state
// can be skipped because the next one is not sent before this one arrived.
func (p *planRun) caughtUp(ctx context.Context, signers int) {
	poll := time.NewTicker(time.Millisecond)
	defer poll.Stop()
	for {
		behind := false
		for _, s := range p.streams {
			behind = behind || (s.top.Load() < int64(signers) && !s.ended.Load())
		}
		if !behind {
			return
		}
		select {
		case <-poll.C:
		case <-ctx.Done():
			return
		}
	}
}

// stop closes every stream and waits for its reader.
func (l *load) stop() {
	l.stopping.Store(true)
	l.mu.Lock()
	for _, s := range l.streams {
		_ = s.conn.Close()
	}
	l.mu.Unlock()
	l.readers.Wait()
	l.client.CloseIdleConnections()
}

// account fills the result's delivery and error figures; the readers have
// all returned.
func (l *load) account() {
	var t tally
	var took []time.Duration
	sg := &l.res.Signing
	sg.IntervalSeconds, sg.DurationSeconds = l.opts.interval.Seconds(), l.opts.duration.Seconds()
	made := make(map[*planRun]map[int]time.Duration, len(l.plans))
	for _, p := range l.plans {
		made[p] = produced(p.posts)
		sg.Changed += changes(made[p], p.c0)
		for _, r := range p.posts {
			sg.Sent++
			if r.err != nil {
				sg.Failed++
				l.errs.add(r.err, 1)
				continue
			}
			took = append(took, r.took)
		}
	}
	var fanout []time.Duration
	for _, p := range l.plans {
		arrivals := make([][]arrival, len(p.streams))
		for i, s := range p.streams {
			arrivals[i] = s.arrivals
		}
		fanout = append(fanout, spread(arrivals)...)
	}
	l.res.FanOut = millis(quantilesOf(fanout))
	for _, s := range l.streams {
		t.addStream(made[s.plan], s.c0, s.arrivals)
		if s.err != nil {
			l.errs.add(s.err, 1)
		}
		if s.bad > 0 {
			l.errs.add(s.badErr, s.bad)
		}
	}
	sg.Latency = millis(quantilesOf(took))
	l.res.Events = events{Expected: t.expected, Received: t.received, Skipped: t.skipped, Lost: t.lost, Unmatched: t.unmatched, Duplicate: t.duplicate}
	l.res.Delivery = millis(quantilesOf(t.latencies))
	l.res.Errors = l.errs.lines()
	if m, err := procfs.ReadMemory("self"); err == nil {
		l.res.Generator.RSSPeak = m.Peak
	}
}

// measureServer reads the relay's resident memory from /proc when it runs
// here, and its ops metrics when the payload names them.
func (l *load) measureServer(ctx context.Context) serverSample {
	var s serverSample
	if l.pid > 0 {
		if m, err := procfs.ReadMemory(strconv.Itoa(l.pid)); err == nil {
			s.rss, s.source = m.RSS, "/proc/"+strconv.Itoa(l.pid)+"/status VmRSS"
		} else {
			s.notes = append(s.notes, "no /proc reading: "+err.Error())
		}
	}
	if l.ops != "" {
		m, err := scrapeMetrics(ctx, l.client, l.ops)
		if err != nil {
			s.notes = append(s.notes, "no ops metrics: "+err.Error())
		}
		s.metrics = m
		if rss, ok := m["process_resident_memory_bytes"]; ok && s.rss == 0 {
			s.rss, s.source = int64(rss), "process_resident_memory_bytes"
		}
	}
	return s
}

// errorTally counts failures by kind, keeping the first message of each.
type errorTally struct {
	order   []string
	count   map[string]int
	example map[string]string
}

func (e *errorTally) add(err error, n int) {
	kind := "error"
	if le, ok := errors.AsType[*loadError](err); ok {
		kind = le.kind
	}
	if e.count == nil {
		e.count, e.example = map[string]int{}, map[string]string{}
	}
	if _, seen := e.count[kind]; !seen {
		e.order = append(e.order, kind)
		e.example[kind] = err.Error()
	}
	e.count[kind] += n
}

func (e *errorTally) lines() []errorLine {
	out := []errorLine{}
	for _, k := range e.order {
		out = append(out, errorLine{Kind: k, Count: e.count[k], Example: e.example[k]})
	}
	return out
}
