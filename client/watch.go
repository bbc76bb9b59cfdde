package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/closerelay/closerelay/client/sse"
	"github.com/closerelay/closerelay/wire"
)

// ErrExpired is returned by Watch when the server announced the plan's end
// (`event: expired`): no further state will come.
var ErrExpired = errors.New("client: the plan expired")

// ErrStopWatch may be returned by a Watch callback to end the watch; Watch
// then returns nil.
var ErrStopWatch = errors.New("client: stop watching")

// State is one version of a plan as Watch delivers it.
type State struct {
	ID      string
	Network string
	XDR     string
	// Signers are the recovered signer keys in envelope order, as the stream
	// sends them; nil for a state that came from polling (GET answers none).
	Signers []string
	// Version is the stream's event id (1 at publish, +1 per change); 0 for a
	// state that came from polling.
	Version uint64
	// Weight, Threshold and Ready are the plan's readiness at this version
	// as the relay computes it (see Signed). Threshold is 0 when the relay
	// sent none: a state that came from polling (GET answers none), or a
	// relay older than the readiness fields.
	Weight    int
	Threshold int
	Ready     bool
	// Landable is the preflight's verdict at this version (CONTRACT
	// section 14): true when the close would land, false when it is
	// blocked, nil when the relay could not tell, for a state that came
	// from polling, or from a relay older than the preflight.
	Landable *bool
	// Polled is true when the state was fetched with GET while the stream
	// refused the watcher.
	Polled bool
	// Submission is set on a delivery that tells the relay's submission of
	// the plan (CONTRACT section 10's `event: submitted`, State
	// "submitted" with Hash and Ledger, or `event: submit_failed`, State
	// "failed" with Code and Reason); the rest of State is then the last
	// state delivered, again. Nil on every state event.
	Submission *Submission
	// Forward is set on a delivery that tells the relay's mediator forward
	// (CONTRACT section 16's `event: forwarded`, State "forwarded" with
	// Hash, Ledger and Amount, or `event: forward_failed`, State "failed"
	// with Code and Reason); the rest of State is then the last state
	// delivered, again. Nil on every other delivery.
	Forward *Forward
}

// NoticeKind says what a Watch notice reports.
type NoticeKind string

// The notices Watch reports to a WatchNotify hook.
const (
	NoticeConnected    NoticeKind = "connected"    // the stream answered 200
	NoticeDropped      NoticeKind = "dropped"      // the stream ended without the plan's expiry; Err says why
	NoticeReconnecting NoticeKind = "reconnecting" // waiting Wait before the next stream attempt
	NoticePolling      NoticeKind = "polling"      // the stream refused (Err, 503 or 429); polling GET for Wait before trying it again
)

// Notice is a change in how Watch follows the plan, for logs and narration.
type Notice struct {
	Kind NoticeKind
	Err  error
	Wait time.Duration
}

// WatchOption configures one Watch call.
type WatchOption func(*watchConfig)

type watchConfig struct {
	notify func(Notice)
}

// WatchNotify installs f, called on Watch's goroutine at each Notice.
func WatchNotify(f func(Notice)) WatchOption { return func(w *watchConfig) { w.notify = f } }

// Watch follows plan id and calls fn with each new state, the current one
// first, until ctx ends (it returns ctx's error), the plan expires
// (ErrExpired), fn returns an error (ErrStopWatch makes Watch return nil,
// any other is returned as it is), or the server refuses the plan for good
// (an *Error, e.g. 404 NOT_FOUND).
//
// It reads the event stream and reconnects when the stream drops, with
// Last-Event-ID set (the relay answers the current state whatever it says,
// and a state already delivered is not delivered again). When the stream
// refuses the watcher (503 at the plan's subscriber cap, or 429), Watch
// polls GET every poll interval until the Retry-After delay has passed and
// then tries the stream again. States are delivered at most once each, in
// order: one whose envelope equals the last delivered is skipped.
//
// A transport failure before the server has answered once is returned at
// once, since it usually means a wrong address; after that, Watch keeps
// retrying with backoff until ctx ends.
func (c *Client) Watch(ctx context.Context, id string, fn func(State) error, opts ...WatchOption) error {
	w := &watcher{c: c, id: id, fn: fn, backoff: c.reconnectMin}
	for _, o := range opts {
		o(&w.cfg)
	}
	err := w.run(ctx)
	if errors.Is(err, ErrStopWatch) {
		return nil
	}
	return err
}

type watcher struct {
	c   *Client
	id  string
	fn  func(State) error
	cfg watchConfig

	lastXDR     string
	lastVersion uint64
	last        State // the last state delivered
	lastEventID string
	contacted   bool          // the server has answered at least once
	backoff     time.Duration // the next reconnect delay
	retry       time.Duration // the stream's retry field, when it sent one
}

// errCallback wraps an error returned by the callback, so it is never
// mistaken for a transport failure to retry.
type errCallback struct{ err error }

func (e errCallback) Error() string { return e.err.Error() }
func (e errCallback) Unwrap() error { return e.err }

func (w *watcher) notice(n Notice) {
	if w.cfg.notify != nil {
		w.cfg.notify(n)
	}
}

func (w *watcher) run(ctx context.Context) error {
	for {
		delivered, err := w.stream(ctx)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		var cb errCallback
		var apiErr *Error
		switch {
		case errors.As(err, &cb):
			return cb.err
		case errors.Is(err, ErrExpired):
			return err
		case errors.As(err, &apiErr) && (apiErr.Status == http.StatusServiceUnavailable || apiErr.Status == http.StatusTooManyRequests):
			wait := apiErr.RetryAfter
			if wait <= 0 {
				wait = w.c.streamFallback
			}
			w.notice(Notice{Kind: NoticePolling, Err: err, Wait: wait})
			if err := w.poll(ctx, time.Now().Add(wait)); err != nil {
				return err
			}
			continue
		case errors.As(err, &apiErr) && apiErr.Status < 500:
			return err // 404 and other refusals do not heal by retrying
		case !w.contacted:
			return err
		}
		w.notice(Notice{Kind: NoticeDropped, Err: err})
		if delivered {
			w.backoff = w.c.reconnectMin
			if w.retry > 0 {
				w.backoff = w.retry
			}
		}
		wait := w.backoff
		w.backoff = min(2*w.backoff, w.c.reconnectMax)
		w.notice(Notice{Kind: NoticeReconnecting, Wait: wait})
		if err := sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// deliver hands st to the callback unless it repeats the last delivered state.
func (w *watcher) deliver(st State) error {
	if st.XDR == w.lastXDR || (st.Version != 0 && st.Version == w.lastVersion) {
		return nil
	}
	w.lastXDR = st.XDR
	if st.Version != 0 {
		w.lastVersion = st.Version
	}
	w.last = st
	if err := w.fn(st); err != nil {
		return errCallback{err}
	}
	return nil
}

// stream reads one connection of the event stream until it ends. delivered
// reports whether it produced at least one event, which resets the backoff.
func (w *watcher) stream(ctx context.Context) (delivered bool, err error) {
	connCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := w.c.newRequest(connCtx, http.MethodGet, planPath(w.id)+"/events", nil, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Cache-Control", "no-store")
	if w.lastEventID != "" {
		req.Header.Set("Last-Event-ID", w.lastEventID)
	}
	resp, err := w.c.http.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		w.contacted = true
		return false, errorFrom(resp)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		return false, fmt.Errorf("%w: the event stream answered Content-Type %q", ErrUnexpectedResponse, resp.Header.Get("Content-Type"))
	}
	w.contacted = true
	w.notice(Notice{Kind: NoticeConnected})

	body := io.Reader(resp.Body)
	if w.c.idleTimeout > 0 {
		// A half-open connection delivers nothing, not even heartbeats; cut
		// it so the reconnect logic gets a chance.
		idle := newIdleReader(resp.Body, w.c.idleTimeout, cancel)
		defer idle.stop()
		body = idle
	}
	r := sse.NewReader(body)
	for {
		ev, err := r.Next()
		if d, ok := r.Retry(); ok {
			w.retry = d
		}
		w.lastEventID = r.LastEventID()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // the stream ended without the plan's expiry
			}
			return delivered, err
		}
		switch ev.Type {
		case "expired":
			return delivered, ErrExpired
		case "message":
			st, ok := w.parseState(ev)
			if !ok {
				continue // not a state of this plan: nothing to deliver
			}
			delivered = true
			if err := w.deliver(st); err != nil {
				return delivered, err
			}
		case "submitted", "submit_failed":
			sub, ok := w.parseSubmission(ev)
			if !ok || w.last.XDR == "" {
				continue // not this plan's, or before any state
			}
			delivered = true
			st := w.last
			st.Submission = sub
			if err := w.fn(st); err != nil {
				return delivered, errCallback{err}
			}
		case "forwarded", "forward_failed":
			fwd, ok := w.parseForward(ev)
			if !ok || w.last.XDR == "" {
				continue // not this plan's, or before any state
			}
			delivered = true
			st := w.last
			st.Forward = fwd
			if err := w.fn(st); err != nil {
				return delivered, errCallback{err}
			}
		}
	}
}

// parseState reads CONTRACT section 5's event data.
func (w *watcher) parseState(ev sse.Event) (State, bool) {
	var data wire.State
	if json.Unmarshal([]byte(ev.Data), &data) != nil || data.XDR == "" {
		return State{}, false
	}
	if data.ID != "" && !strings.EqualFold(data.ID, w.id) {
		return State{}, false
	}
	version, _ := strconv.ParseUint(ev.ID, 10, 64)
	return State{
		ID: w.id, Network: data.Network, XDR: data.XDR, Signers: data.Signers, Version: version,
		Weight: data.Weight, Threshold: data.Threshold, Ready: data.Ready, Landable: data.Landable,
	}, true
}

// parseSubmission reads CONTRACT section 10's submitted and submit_failed
// data: {"id","hash","ledger"} and {"id","code","reason"}.
func (w *watcher) parseSubmission(ev sse.Event) (*Submission, bool) {
	if ev.Type == "submitted" {
		var data wire.Submitted
		if json.Unmarshal([]byte(ev.Data), &data) != nil || !strings.EqualFold(data.ID, w.id) || data.Hash == "" {
			return nil, false
		}
		return &Submission{State: "submitted", Hash: data.Hash, Ledger: data.Ledger}, true
	}
	var data wire.SubmitFailed
	if json.Unmarshal([]byte(ev.Data), &data) != nil || !strings.EqualFold(data.ID, w.id) || data.Code == "" {
		return nil, false
	}
	return &Submission{State: "failed", Code: data.Code, Reason: data.Reason}, true
}

// parseForward reads CONTRACT section 16's forwarded and forward_failed
// data: {"id","hash","ledger","amount"} and {"id","code","reason"}.
func (w *watcher) parseForward(ev sse.Event) (*Forward, bool) {
	if ev.Type == "forwarded" {
		var data wire.Forwarded
		if json.Unmarshal([]byte(ev.Data), &data) != nil || !strings.EqualFold(data.ID, w.id) || data.Hash == "" {
			return nil, false
		}
		return &Forward{State: "forwarded", Hash: data.Hash, Ledger: data.Ledger, Amount: data.Amount}, true
	}
	var data wire.ForwardFailed
	if json.Unmarshal([]byte(ev.Data), &data) != nil || !strings.EqualFold(data.ID, w.id) || data.Code == "" {
		return nil, false
	}
	return &Forward{State: "failed", Code: data.Code, Reason: data.Reason}, true
}

// poll fetches the plan every poll interval until deadline, delivering new
// states. A 404 ends the watch; a 429 waits its Retry-After; transport
// errors are retried at the next tick.
func (w *watcher) poll(ctx context.Context, deadline time.Time) error {
	for {
		p, err := w.c.Get(ctx, w.id)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		wait := w.c.pollInterval
		var apiErr *Error
		switch {
		case err == nil:
			w.contacted = true
			if err := w.deliver(State{ID: w.id, Network: p.Network, XDR: p.XDR, Polled: true}); err != nil {
				return err
			}
		case errors.As(err, &apiErr) && apiErr.Status == http.StatusTooManyRequests:
			wait = max(wait, apiErr.RetryAfter)
		case errors.As(err, &apiErr) && apiErr.Status < 500:
			return err
		case !w.contacted:
			return err
		}
		if remaining := time.Until(deadline); remaining <= 0 {
			return nil
		} else if wait > remaining {
			wait = remaining
		}
		if err := sleep(ctx, wait); err != nil {
			return err
		}
		if !time.Now().Before(deadline) {
			return nil
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// idleReader cancels its connection when no byte arrives for d.
type idleReader struct {
	r     io.Reader
	d     time.Duration
	mu    sync.Mutex
	timer *time.Timer
}

func newIdleReader(r io.Reader, d time.Duration, cancel context.CancelFunc) *idleReader {
	return &idleReader{r: r, d: d, timer: time.AfterFunc(d, cancel)}
}

func (ir *idleReader) Read(p []byte) (int, error) {
	n, err := ir.r.Read(p)
	if n > 0 {
		ir.mu.Lock()
		ir.timer.Reset(ir.d)
		ir.mu.Unlock()
	}
	return n, err
}

func (ir *idleReader) stop() {
	ir.mu.Lock()
	ir.timer.Stop()
	ir.mu.Unlock()
}
