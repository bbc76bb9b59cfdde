package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Result is a run's summary; -json prints it as is, for bench-load.sh.
type Result struct {
	Relay              string    `json:"relay"`
	Started            time.Time `json:"started"`
	ElapsedSeconds     float64   `json:"elapsedSeconds"`
	Plans              int       `json:"plans"`
	SubscribersPerPlan int       `json:"subscribersPerPlan"`
	StreamsRequested   int       `json:"streamsRequested"`
	StreamsAttempted   int       `json:"streamsAttempted"`
	StreamsOpen        int       `json:"streamsOpen"`
	OpenSeconds        float64   `json:"openSeconds"` // from the start until every stream had its first event
	OpenFiles          openFiles `json:"openFiles"`
	Capped             string    `json:"capped,omitempty"` // why fewer streams than requested were measured
	Signing            signing   `json:"signing"`
	Events             events    `json:"events"`
	Delivery           latency   `json:"deliveryLatencyMs"` // event at the subscriber − its sign request sent
	FanOut             latency   `json:"fanOutSpreadMs"`    // event at the subscriber − the same event at its plan's first subscriber
	CPU                struct {
		Opening phaseCPU `json:"opening"` // opening every stream
		Signing phaseCPU `json:"signing"` // signing, then waiting for the last events
	} `json:"cpu"`
	Server    server      `json:"server"`
	Generator generator   `json:"generator"`
	Errors    []errorLine `json:"errors"`
	Error     string      `json:"error,omitempty"` // why the run stopped short
}

type openFiles struct {
	Soft    uint64 `json:"soft"`             // this process's, after raising it
	Hard    uint64 `json:"hard"`             // this process's
	Server  uint64 `json:"server,omitempty"` // the relay's soft limit, when it runs here
	Reserve int    `json:"reserve"`
	Budget  int    `json:"budget"` // streams that fit: the lower limit − reserve
}

type signing struct {
	IntervalSeconds float64 `json:"intervalSeconds"`
	DurationSeconds float64 `json:"durationSeconds"`
	Sent            int     `json:"sent"`
	Failed          int     `json:"failed"`
	Changed         int     `json:"changed"`   // requests that added a signer, so an event
	Latency         latency `json:"latencyMs"` // of the successful requests
}

type events struct {
	Expected  int `json:"expected"`
	Received  int `json:"received"`
	Skipped   int `json:"skipped"` // a newer state reached the subscriber instead (CONTRACT section 5 allows it)
	Lost      int `json:"lost"`    // neither this state nor a newer one reached it
	Unmatched int `json:"unmatched"`
	Duplicate int `json:"duplicate"`
}

type latency struct {
	Samples int     `json:"samples"`
	P50     float64 `json:"p50"`
	P99     float64 `json:"p99"`
	Max     float64 `json:"max"`
}

func millis(q quantiles) latency {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return latency{Samples: q.n, P50: ms(q.p50), P99: ms(q.p99), Max: ms(q.max)}
}

// server is the relay's memory before the streams and once they are idle.
type server struct {
	PID                   int     `json:"pid,omitempty"`
	Source                string  `json:"source,omitempty"` // where the RSS figures come from
	RSSBefore             int64   `json:"rssBeforeBytes,omitempty"`
	RSSAfter              int64   `json:"rssAfterBytes,omitempty"`
	KiBPerStream          float64 `json:"kibPerStream,omitempty"`
	TargetKiBPerStream    float64 `json:"targetKibPerStream"`
	TargetMet             bool    `json:"targetMet"`
	HeapStackKiBPerStream float64 `json:"heapStackKibPerStream,omitempty"` // go_memstats heap + stack in use
	// After the signing: not the target's figure (garbage the relay has not
	// collected yet counts), but it shows what the events cost on top.
	RSSAfterSigning          int64              `json:"rssAfterSigningBytes,omitempty"`
	KiBPerStreamAfterSigning float64            `json:"kibPerStreamAfterSigning,omitempty"`
	MetricsAfterSigning      map[string]float64 `json:"metricsAfterSigning,omitempty"`
	// GC cycles the relay ran while signing: each one marks the whole heap
	// and every stream's stack on the same cores, the likely source of a
	// latency tail.
	GCCyclesSigning     float64            `json:"gcCyclesSigning,omitempty"`
	GoroutinesPerStream float64            `json:"goroutinesPerStream,omitempty"`
	MetricsBefore       map[string]float64 `json:"metricsBefore,omitempty"`
	MetricsAfter        map[string]float64 `json:"metricsAfter,omitempty"`
	Notes               []string           `json:"notes,omitempty"`
}

// serverSample is one reading of the relay's memory.
type serverSample struct {
	rss     int64
	source  string
	metrics map[string]float64
	notes   []string
}

func (s *server) before(x serverSample) {
	s.TargetKiBPerStream = targetKiBPerStream
	s.RSSBefore, s.Source, s.MetricsBefore = x.rss, x.source, x.metrics
	s.Notes = append(s.Notes, x.notes...)
}

func (s *server) after(x serverSample, streams int) {
	s.RSSAfter, s.MetricsAfter = x.rss, x.metrics
	s.Notes = append(s.Notes, x.notes...)
	perStream := func(after, before float64) float64 { return (after - before) / float64(streams) }
	if s.RSSBefore > 0 && s.RSSAfter > 0 {
		s.KiBPerStream = perStream(float64(s.RSSAfter), float64(s.RSSBefore)) / 1024
		s.TargetMet = s.KiBPerStream <= targetKiBPerStream
	}
	b, a := s.MetricsBefore, s.MetricsAfter
	heapStack := func(m map[string]float64) (float64, bool) {
		h, ok1 := m["go_memstats_heap_inuse_bytes"]
		st, ok2 := m["go_memstats_stack_inuse_bytes"]
		return h + st, ok1 && ok2
	}
	if hb, ok := heapStack(b); ok {
		if ha, ok := heapStack(a); ok {
			s.HeapStackKiBPerStream = perStream(ha, hb) / 1024
		}
	}
	if gb, ok := b["go_goroutines"]; ok {
		if ga, ok := a["go_goroutines"]; ok {
			s.GoroutinesPerStream = perStream(ga, gb)
		}
	}
}

func (s *server) busy(x serverSample, streams int) {
	s.RSSAfterSigning, s.MetricsAfterSigning = x.rss, x.metrics
	s.Notes = append(s.Notes, x.notes...)
	const gcs = "go_gc_duration_seconds_count"
	if n, ok := x.metrics[gcs]; ok {
		if n0, ok := s.MetricsAfter[gcs]; ok {
			s.GCCyclesSigning = n - n0
		}
	}
	if s.RSSBefore > 0 && x.rss > 0 {
		s.KiBPerStreamAfterSigning = float64(x.rss-s.RSSBefore) / 1024 / float64(streams)
	}
}

type generator struct {
	RSSIdle      int64   `json:"rssIdleBytes"` // with every stream open and idle
	KiBPerStream float64 `json:"kibPerStream"` // RSSIdle over the streams, the Go runtime included
	RSSPeak      int64   `json:"rssPeakBytes"`
}

// phaseCPU is the CPU time each process spent during a phase, from
// /proc/<pid>/stat; RelaySeconds is -1 when the relay's cannot be read.
type phaseCPU struct {
	WallSeconds      float64 `json:"wallSeconds"`
	RelaySeconds     float64 `json:"relaySeconds"`
	GeneratorSeconds float64 `json:"generatorSeconds"`
}

func (c phaseCPU) String() string {
	relay := "relay unknown"
	if c.RelaySeconds >= 0 {
		relay = fmt.Sprintf("relay %.1f s (%.2f cores)", c.RelaySeconds, c.RelaySeconds/max(c.WallSeconds, 1e-9))
	}
	return fmt.Sprintf("%s, generator %.1f s (%.2f cores) over %.1f s", relay, c.GeneratorSeconds, c.GeneratorSeconds/max(c.WallSeconds, 1e-9), c.WallSeconds)
}

type errorLine struct {
	Kind    string `json:"kind"`
	Count   int    `json:"count"`
	Example string `json:"example"`
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// writeSummary prints the result for a person.
func writeSummary(w io.Writer, r *Result) {
	p := func(label, format string, args ...any) {
		fmt.Fprintf(w, "%-11s %s\n", label, fmt.Sprintf(format, args...))
	}
	fmt.Fprintf(w, "closerelay stream load: relay %s, started %s, %.1f s\n", r.Relay, r.Started.Format(time.RFC3339), r.ElapsedSeconds)
	of := r.OpenFiles
	p("open files", "limit %d (hard %d)%s, %d kept in reserve: room for %d streams", of.Soft, of.Hard, serverLimitText(of.Server), of.Reserve, of.Budget)
	if r.Capped != "" {
		p("CAPPED", "%s", r.Capped)
	}
	p("streams", "%d open of %d attempted (%d plans × %d subscribers; %d requested), all open after %.1f s",
		r.StreamsOpen, r.StreamsAttempted, r.Plans, r.SubscribersPerPlan, r.StreamsRequested, r.OpenSeconds)
	sg := r.Signing
	p("signing", "one partial per plan every %gs for %gs: %d sent, %d added a signer, %d failed; answered in p50 %.2f ms, p99 %.2f ms",
		sg.IntervalSeconds, sg.DurationSeconds, sg.Sent, sg.Changed, sg.Failed, sg.Latency.P50, sg.Latency.P99)
	if sg.Sent > 0 && sg.Changed == 0 {
		p("WARNING", "no sign request added a signer: the payload's partials are already on its plans (a second run against one `closerelaylab load local`?); start a fresh one")
	}
	d := r.Delivery
	p("delivery", "p50 %.2f ms, p99 %.2f ms, max %.2f ms over %d deliveries (event at the subscriber − sign request sent)", d.P50, d.P99, d.Max, d.Samples)
	f := r.FanOut
	p("fan-out", "p50 %.2f ms, p99 %.2f ms, max %.2f ms (event at the subscriber − the same state at its plan's first subscriber)", f.P50, f.P99, f.Max)
	e := r.Events
	p("events", "expected %d, received %d, skipped %d (a newer state came instead), lost %d, unmatched %d, duplicate %d",
		e.Expected, e.Received, e.Skipped, e.Lost, e.Unmatched, e.Duplicate)
	p("cpu", "opening: %s", r.CPU.Opening)
	p("", "signing: %s", r.CPU.Signing)
	s := r.Server
	switch {
	case s.KiBPerStream != 0 || s.RSSAfter != 0:
		verdict := "met"
		if !s.TargetMet {
			verdict = "NOT met"
		}
		p("server mem", "RSS %s before the streams, %s with %d idle: %.1f KiB per stream (target ≤ %g KiB: %s; from %s)",
			mib(s.RSSBefore), mib(s.RSSAfter), r.StreamsOpen, s.KiBPerStream, s.TargetKiBPerStream, verdict, s.Source)
	default:
		p("server mem", "not measured (the payload names no local server pid and no ops URL)")
	}
	if s.RSSAfterSigning != 0 {
		p("", "after the signing: RSS %s, %.1f KiB per stream (uncollected garbage included); %g GC cycles while signing",
			mib(s.RSSAfterSigning), s.KiBPerStreamAfterSigning, s.GCCyclesSigning)
	}
	if s.HeapStackKiBPerStream != 0 || s.GoroutinesPerStream != 0 {
		p("", "ops metrics: Go heap + stacks in use %.1f KiB per stream, %.2f goroutines per stream, closerelay_stream_subscribers %g",
			s.HeapStackKiBPerStream, s.GoroutinesPerStream, s.MetricsAfter["closerelay_stream_subscribers"])
	}
	for _, n := range s.Notes {
		p("", "%s", n)
	}
	g := r.Generator
	p("generator", "RSS %s with the streams idle (%.1f KiB per stream), peak %s", mib(g.RSSIdle), g.KiBPerStream, mib(g.RSSPeak))
	if len(r.Errors) == 0 {
		p("errors", "none")
	}
	for _, el := range r.Errors {
		p("errors", "%d × %s (first: %s)", el.Count, el.Kind, strings.TrimSpace(el.Example))
	}
	if r.Error != "" {
		p("FAILED", "%s", r.Error)
	}
}
