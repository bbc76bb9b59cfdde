package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/loadkit"
)

// loopbackSources spreads the test's streams over three source addresses
// where the whole of 127.0.0.0/8 is loopback (Linux); elsewhere (macOS) only
// 127.0.0.1 is configured.
func loopbackSources() int {
	if onLinux {
		return 3
	}
	return 1
}

// testOptions are the flags' defaults shrunk for a test: nothing here waits
// on time for correctness; -drain and -timeout only bound a broken run.
func testOptions(payload string, subscribers int) options {
	return options{
		payload: payload, subscribers: subscribers,
		duration: time.Minute, interval: time.Millisecond, // the plans run out long before
		rate: 10000, dialers: 4, sources: loopbackSources(), fdReserve: 64,
		handshake: 10 * time.Second, drain: 30 * time.Second, timeout: time.Minute,
		// A subscriber that falls behind by a state is sent the newer one
		// (CONTRACT section 5): only lockstep makes "every event reaches
		// every subscriber" hold whatever the scheduling.
		lockstep: true,
	}
}

func TestEveryEventReachesEverySubscriber(t *testing.T) {
	r := startRelay(t, 0)
	const plans, subs, signers = 2, 3, 4 // 3 co-signers: 3 events per plan
	path := r.payload(t, r.publish(t, plans, signers))
	l, err := newLoad(testOptions(path, subs), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.execute(context.Background()); err != nil {
		t.Fatal(err)
	}
	res := l.res

	if res.StreamsOpen != plans*subs || len(l.streams) != plans*subs {
		t.Fatalf("%d streams open, want %d", res.StreamsOpen, plans*subs)
	}
	perPlan := map[*planRun]int{}
	for _, s := range l.streams {
		perPlan[s.plan]++
		var got []int
		for _, a := range s.arrivals {
			got = append(got, a.signers)
		}
		// The publisher's signature is on the plan from the start; each
		// partial adds one co-signer, in order.
		if want := []int{s.c0 + 1, s.c0 + 2, s.c0 + 3}; s.c0 != 1 || !slices.Equal(got, want) {
			t.Errorf("stream of plan %s: first event with %d signers, then %v; want 1, then %v", s.plan.id[:8], s.c0, got, want)
		}
		if s.err != nil || s.bad != 0 {
			t.Errorf("stream of plan %s: err %v, %d bad events (%v)", s.plan.id[:8], s.err, s.bad, s.badErr)
		}
	}
	for p, n := range perPlan {
		if n != subs {
			t.Errorf("plan %s: %d streams, want %d", p.id[:8], n, subs)
		}
	}
	const delivered = plans * subs * (signers - 1)
	if want := (events{Expected: delivered, Received: delivered}); res.Events != want {
		t.Errorf("events %+v, want %+v", res.Events, want)
	}
	if sg := res.Signing; sg.Sent != plans*(signers-1) || sg.Changed != sg.Sent || sg.Failed != 0 || sg.Latency.Samples != sg.Sent {
		t.Errorf("signing %+v: want %d sent, every one changing its plan", sg, plans*(signers-1))
	}
	if d := res.Delivery; d.Samples != delivered || d.P50 <= 0 || d.P50 > d.P99 || d.P99 > d.Max {
		t.Errorf("delivery %+v: want %d samples, 0 < p50 ≤ p99 ≤ max", d, delivered)
	}
	if f := res.FanOut; f.Samples != delivered || f.P50 > f.P99 || f.P99 > f.Max {
		t.Errorf("fan-out %+v: want %d samples, p50 ≤ p99 ≤ max", f, delivered)
	}
	if len(res.Errors) != 0 || res.Error != "" {
		t.Errorf("errors %+v %q", res.Errors, res.Error)
	}
	// The relay is this process: its memory was read (where there is a
	// /proc), and the ops metrics counted the streams.
	if s := res.Server; (onLinux && (s.RSSBefore <= 0 || s.RSSAfter <= 0)) || s.MetricsAfter["closerelay_stream_subscribers"] != plans*subs {
		t.Errorf("server memory %+v", s)
	}
	var out bytes.Buffer
	writeSummary(&out, res)
	if !strings.Contains(out.String(), "expected 18, received 18, skipped 0 (a newer state came instead), lost 0") {
		t.Errorf("summary:\n%s", out.String())
	}
}

// A stream the relay refuses is an error of its own kind, and the events it
// never subscribed to are neither expected nor lost.
func TestRefusedStreamsAreCountedApart(t *testing.T) {
	r := startRelay(t, 2)
	path := r.payload(t, r.publish(t, 1, 3))
	res, err := Run(context.Background(), testOptions(path, 3), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res.StreamsOpen != 2 || res.StreamsAttempted != 3 {
		t.Errorf("%d of %d streams open, want 2 of 3", res.StreamsOpen, res.StreamsAttempted)
	}
	if want := (events{Expected: 4, Received: 4}); res.Events != want {
		t.Errorf("events %+v, want %+v", res.Events, want)
	}
	if len(res.Errors) != 1 || res.Errors[0].Kind != "HTTP 503" || res.Errors[0].Count != 1 {
		t.Errorf("errors %+v, want one HTTP 503", res.Errors)
	}
}

func TestCapStreams(t *testing.T) {
	for _, c := range []struct{ plans, subs, budget, wantPlans, wantSubs int }{
		{500, 50, 18000, 360, 50}, // this machine: 20,000 descriptors less 2,000
		{360, 50, 18000, 360, 50},
		{2, 3, 100, 2, 3},
		{10, 50, 30, 1, 30},
		{10, 50, 0, 0, 0},
	} {
		p, s := capStreams(c.plans, c.subs, c.budget)
		if p != c.wantPlans || s != c.wantSubs {
			t.Errorf("capStreams(%d, %d, %d) = %d × %d, want %d × %d", c.plans, c.subs, c.budget, p, s, c.wantPlans, c.wantSubs)
		}
	}
}

func TestFlags(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"-help"}, &out, &errs); code != 0 || !strings.Contains(errs.String(), "-subscribers") {
		t.Errorf("-help: exit %d, %q", code, errs.String())
	}
	errs.Reset()
	if code := run([]string{"-subscribers", "0", "-payload", "x"}, &out, &errs); code != 2 {
		t.Errorf("-subscribers 0: exit %d, want 2", code)
	}
	if code := run([]string{}, &out, &errs); code != 2 || !strings.Contains(errs.String(), "-payload is required") {
		t.Errorf("no -payload: exit %d, %q", code, errs.String())
	}
	if code := run([]string{"-payload", filepath.Join(t.TempDir(), "none.json")}, &out, &errs); code != 1 {
		t.Errorf("missing payload file: exit %d, want 1", code)
	}
}

// At full rate a subscriber may be sent a newer state instead of one it had
// not yet read; every state is then still accounted for, and every stream
// ends on its plan's last state.
func TestFullRateAccountsForEveryState(t *testing.T) {
	r := startRelay(t, 0)
	path := r.payload(t, r.publish(t, 2, 6))
	o := testOptions(path, 3)
	o.lockstep = false
	l, err := newLoad(o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.execute(context.Background()); err != nil {
		t.Fatal(err)
	}
	e := l.res.Events
	if e.Expected != 2*3*5 || e.Received+e.Skipped != e.Expected || e.Lost != 0 || e.Unmatched != 0 || e.Duplicate != 0 {
		t.Errorf("events %+v: want 30 expected, each received or skipped", e)
	}
	if l.res.Delivery.Samples != e.Received {
		t.Errorf("%d latency samples for %d events received", l.res.Delivery.Samples, e.Received)
	}
	for _, s := range l.streams {
		if got := s.top.Load(); got != 6 {
			t.Errorf("a stream of plan %s ended on %d signers, want 6", s.plan.id[:8], got)
		}
	}
}

// -timeout bounds the whole run: against a relay that accepts connections
// and never answers, the run stops, says where, and still reports.
func TestTimeoutStopsTheRun(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn // never answered, closed with the test
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	path := filepath.Join(t.TempDir(), "payload.json")
	p := &loadkit.Payload{Relay: "http://" + ln.Addr().String(), Plans: []loadkit.Plan{{ID: strings.Repeat("ab", 32)}}}
	if err := loadkit.Write(path, p); err != nil {
		t.Fatal(err)
	}
	o := testOptions(path, 2)
	o.handshake, o.timeout = time.Hour, 100*time.Millisecond
	res, err := Run(context.Background(), o, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-timeout 100ms (while opening the streams)") {
		t.Fatalf("error %v, want the timeout while opening", err)
	}
	if res == nil || res.StreamsOpen != 0 || res.Error != err.Error() || len(res.Errors) != 1 || res.Errors[0].Count != 2 {
		t.Errorf("result %+v", res)
	}
}

// TestFailingRelayFailsTheVerdict: against a relay answering 500 the stream
// load exits 1, and the bench-load verdicts read from its -json output fail
// the fan-out and memory targets and the stream check.
func TestFailingRelayFailsTheVerdict(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "boom", http.StatusInternalServerError)
	}))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "payload.json")
	p := &loadkit.Payload{Relay: srv.URL, Plans: []loadkit.Plan{{ID: strings.Repeat("ab", 32), Valid: []string{"AAAA"}}}}
	if err := loadkit.Write(path, p); err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	code := run([]string{"-payload", path, "-json", "-subscribers", "2", "-sources", "1", "-duration", "1s", "-timeout", "20s"}, &stdout, io.Discard)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var st loadkit.StreamFigures
	if err := json.Unmarshal(stdout.Bytes(), &st); err != nil {
		t.Fatalf("-json output: %v\n%s", err, stdout.String())
	}
	s := &loadkit.Session{Raw: map[int]float64{1: 1, 2: 2}, Runs: map[string]*loadkit.Run{}, Streams: &st}
	rows := loadkit.Evaluate(s)
	for _, r := range rows {
		if r.Source == "streamload" && r.Verdict == loadkit.Met {
			t.Errorf("met against a relay answering 500: %+v", r)
		}
	}
	if loadkit.Passed(rows) {
		t.Fatal("the session passed")
	}
}
