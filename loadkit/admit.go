package loadkit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// AdmitOptions configure RunAdmit.
type AdmitOptions struct {
	Payload     *Payload
	Connections int           // concurrent clients, one request at a time each (64 when zero)
	Timeout     time.Duration // bound on one request (10 s when zero)
	Seed        uint64        // the order the partials are sent in (a shuffle)
	Client      *http.Client  // its own pool when nil
}

// AdmitResult is one admit burst: every valid partial of the payload sent
// once, so that each request must add a signer its plan did not have. The
// relay's own count of the signers it admitted over the burst
// (closerelay_signatures_total{result="admitted"} on its ops listener,
// before and after) says whether it did: a burst whose Admitted is not its
// Requests did not measure new signers.
type AdmitResult struct {
	Generator   string  `json:"generator"`         // "closerelaylab" or "wrk"
	Threads     int     `json:"threads,omitempty"` // wrk's threads
	Connections int     `json:"connections"`
	Plans       int     `json:"plans"`
	Requests    int     `json:"requests"`
	Wrong       int     `json:"wrong"`   // answers other than 200, or none
	Seconds     float64 `json:"seconds"` // from the first request sent to the last answer read
	RPS         float64 `json:"rps"`     // Requests / Seconds
	P50         float64 `json:"p50"`     // latencies in milliseconds
	P95         float64 `json:"p95"`
	P99         float64 `json:"p99"`
	Max         float64 `json:"max"`
	// P50Uncorrected and P99Uncorrected are wrk's percentiles before its
	// correction for coordinated omission (loadkit/wrk/latency.lua); P50
	// to Max are wrk's as it prints them. Zero from the Go generator,
	// whose percentiles are the latencies measured.
	P50Uncorrected float64 `json:"p50Uncorrected,omitempty"`
	P99Uncorrected float64 `json:"p99Uncorrected,omitempty"`
	// Admitted is the relay's count of admitted signatures over the burst;
	// -1 when it could not be read (MetricsError says why).
	Admitted     float64 `json:"admitted"`
	MetricsError string  `json:"metricsError,omitempty"`
	// Example is one wrong answer (status and the first line of its body).
	Example string `json:"example,omitempty"`
}

// admitMetric is the series RunAdmit reads before and after the burst.
const admitMetric = `closerelay_signatures_total{result="admitted"}`

// RunAdmit sends every valid partial of every plan in o.Payload once, in a
// shuffled order, from o.Connections clients, and reads the relay's count of
// admitted signatures around it (o.Payload.Ops must name the ops listener).
func RunAdmit(ctx context.Context, o AdmitOptions) (*AdmitResult, error) {
	p := o.Payload
	if p == nil || len(p.Plans) == 0 {
		return nil, errors.New("loadkit: no plans in the payload")
	}
	conns := o.Connections
	if conns <= 0 {
		conns = 64
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	client := o.Client
	if client == nil {
		tr := &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}
		defer tr.CloseIdleConnections()
		client = &http.Client{Transport: tr}
	}
	type request struct{ url, body string }
	var reqs []request
	for _, pl := range p.Plans {
		for _, x := range pl.Valid {
			reqs = append(reqs, request{p.Relay + "/api/plan/" + pl.ID + "/sign", `{"xdr":"` + x + `"}`})
		}
	}
	if len(reqs) == 0 {
		return nil, errors.New("loadkit: the payload has no valid partials")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 27))
	rng.Shuffle(len(reqs), func(i, j int) { reqs[i], reqs[j] = reqs[j], reqs[i] })

	res := &AdmitResult{Generator: "closerelaylab", Connections: conns, Plans: len(p.Plans), Requests: len(reqs), Admitted: -1}
	before, berr := readCounter(ctx, client, p.Ops, admitMetric)

	lat := make([]time.Duration, len(reqs))
	var next atomic.Int64
	var wrong atomic.Int64
	var example sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range conns {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(reqs) || ctx.Err() != nil {
					return
				}
				t0 := time.Now()
				status, first, err := post(ctx, client, timeout, reqs[i].url, reqs[i].body)
				lat[i] = time.Since(t0)
				if err != nil || status != http.StatusOK {
					wrong.Add(1)
					example.Do(func() {
						if err != nil {
							res.Example = err.Error()
						} else {
							res.Example = strconv.Itoa(status) + " " + first
						}
					})
				}
			}
		})
	}
	wg.Wait()
	res.Seconds = time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Wrong = int(wrong.Load())
	res.RPS = float64(res.Requests) / res.Seconds
	res.P50, res.P95, res.P99, res.Max = Percentiles(lat)

	after, aerr := readCounter(ctx, client, p.Ops, admitMetric)
	if err := errors.Join(berr, aerr); err != nil {
		res.MetricsError = err.Error()
	} else {
		res.Admitted = after - before
	}
	return res, nil
}

// post sends one JSON body and reads the whole answer.
func post(ctx context.Context, c *http.Client, timeout time.Duration, url, body string) (int, string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, firstLine(b), err
}

// readCounter reads one series' value from a Prometheus text exposition at
// ops/metrics; 0 when the series is absent (a counter not yet touched).
func readCounter(ctx context.Context, c *http.Client, ops, series string) (float64, error) {
	if ops == "" {
		return 0, errors.New("the payload names no ops listener: the relay's count of admitted signers cannot be read")
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ops+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, fmt.Errorf("read %s/metrics: %w", ops, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("read %s/metrics: status %d", ops, res.StatusCode)
	}
	return counterValue(res.Body, series)
}

// counterValue finds series (name and labels, exactly as exposed) in a
// Prometheus text exposition.
func counterValue(r io.Reader, series string) (float64, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), series+" ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.Fields(rest)[0], 64)
		if err != nil {
			return 0, fmt.Errorf("metrics: %s: %w", series, err)
		}
		return v, nil
	}
	return 0, sc.Err()
}

// Valid reports whether the burst measured what it says: every answer 200
// and every request a signer the relay admitted.
func (r *AdmitResult) Valid() bool {
	return r.Requests > 0 && r.Wrong == 0 && r.Admitted == float64(r.Requests)
}

// WriteAdmit prints one burst for a person.
func WriteAdmit(w io.Writer, r *AdmitResult) {
	admitted := fmt.Sprintf("%.0f", r.Admitted)
	if r.Admitted < 0 {
		admitted = "unknown (" + r.MetricsError + ")"
	}
	gen := r.Generator
	if r.Threads > 0 {
		gen += fmt.Sprintf(", %d threads", r.Threads)
	}
	fmt.Fprintf(w, "admit (%s): %d requests over %d plans from %d connections in %.2f s: %.0f/s, p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.1f ms; %d not 200; admitted %s\n",
		gen, r.Requests, r.Plans, r.Connections, r.Seconds, r.RPS, r.P50, r.P95, r.P99, r.Max, r.Wrong, admitted)
	if r.P99Uncorrected > 0 {
		fmt.Fprintf(w, "  wrk's percentiles before its coordinated-omission correction: p50 %.2f ms, p99 %.2f ms\n", r.P50Uncorrected, r.P99Uncorrected)
	}
	if r.Example != "" {
		fmt.Fprintf(w, "  a wrong answer: %s\n", r.Example)
	}
	if !r.Valid() {
		fmt.Fprintln(w, "admit: NOT a burst of new signers: the admitted count is not the requests sent, or an answer was wrong")
	}
}
