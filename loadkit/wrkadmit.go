package loadkit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// WrkAdmit is how RunAdmitWrk runs wrk.
type WrkAdmit struct {
	Wrk     string // the wrk binary (4.1 or later: the script stops its threads)
	Script  string // loadkit/wrk/admit.lua
	Payload string // the payload file the script reads (the one AdmitOptions.Payload was read from)
	Threads int    // wrk's -t (2 when zero); must divide the connections
	// Bound is wrk's -d: a burst normally ends itself within a second or
	// two; one that lost answers ends here (60 s when zero).
	Bound time.Duration
}

// RunAdmitWrk is RunAdmit with wrk as the generator, a lighter one than
// Go's on the relay's cores: loadkit/wrk/admit.lua sends every valid
// partial of the payload once across wrk's threads and writes the burst's
// figures; the relay's count of admitted signatures is read around it, as
// RunAdmit reads it. A run whose script read another number of partials
// than the payload holds is an error.
func RunAdmitWrk(ctx context.Context, o AdmitOptions, w WrkAdmit) (*AdmitResult, error) {
	p := o.Payload
	if p == nil || len(p.Plans) == 0 {
		return nil, errors.New("loadkit: no plans in the payload")
	}
	partials := 0
	for _, pl := range p.Plans {
		partials += len(pl.Valid)
	}
	if partials == 0 {
		return nil, errors.New("loadkit: the payload has no valid partials")
	}
	conns, threads, bound := o.Connections, w.Threads, w.Bound
	if conns <= 0 {
		conns = 64
	}
	if threads <= 0 {
		threads = 2
	}
	if bound <= 0 {
		bound = time.Minute
	}
	if conns%threads != 0 {
		// wrk gives each thread connections/threads: the rest would not run.
		return nil, fmt.Errorf("loadkit: %d connections do not divide into %d wrk threads", conns, threads)
	}
	client := o.Client
	if client == nil {
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		client = &http.Client{Transport: tr}
	}
	dir, err := os.MkdirTemp("", "closerelay-admit-wrk-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	summary := filepath.Join(dir, "summary.json")

	before, berr := readCounter(ctx, client, p.Ops, admitMetric)
	cmd := exec.CommandContext(ctx, w.Wrk, "-t", strconv.Itoa(threads), "-c", strconv.Itoa(conns),
		"-d", strconv.Itoa(int(bound.Seconds()))+"s", "--timeout", "10s", "-s", w.Script, p.Relay)
	cmd.Env = append(os.Environ(), "PAYLOAD="+w.Payload, "THREADS="+strconv.Itoa(threads), "CONNECTIONS="+strconv.Itoa(conns),
		"SEED="+strconv.FormatUint(o.Seed, 10), "SUMMARY_JSON="+summary)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("loadkit: wrk: %w: %s", err, bytes.TrimSpace(out))
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		return nil, fmt.Errorf("loadkit: wrk wrote no summary (%w): %s", err, bytes.TrimSpace(out))
	}
	res := &AdmitResult{}
	if err := json.Unmarshal(b, res); err != nil {
		return nil, fmt.Errorf("loadkit: wrk's summary: %w", err)
	}
	if res.Generator != "wrk" || res.Requests != partials || res.Plans != len(p.Plans) {
		return nil, fmt.Errorf("loadkit: wrk's script read %d partials over %d plans (generator %q); the payload has %d over %d",
			res.Requests, res.Plans, res.Generator, partials, len(p.Plans))
	}
	res.Admitted = -1
	after, aerr := readCounter(ctx, client, p.Ops, admitMetric)
	if err := errors.Join(berr, aerr); err != nil {
		res.MetricsError = err.Error()
	} else {
		res.Admitted = after - before
	}
	return res, nil
}
