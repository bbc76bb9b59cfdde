package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/httpapi/bounds"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/wire"
	"github.com/labstack/echo/v4"
)

// streamWriteTimeout bounds one write to a stream: a client that stops reading
// is dropped when its socket buffer stays full this long, instead of holding a
// goroutine forever. It never delays the plan: the actor does not wait on us.
const streamWriteTimeout = 15 * time.Second

// events is GET /api/plan/:id/events: the current state at once, then one
// event per change, a heartbeat comment every s.heartbeat, and `event: expired`
// before the end when the plan expires. Failures are plain text (SPEC).
func (s *Server) events(c echo.Context) error {
	ctx := c.Request().Context()
	plan, err := s.plans.Find(ctx, c.Param("id"))
	if err == nil {
		if ok, err := s.skipBody(c); !ok {
			return err
		}
		var sub *actor.Subscription
		if sub, err = s.plans.Subscribe(ctx, plan); err == nil {
			return s.stream(c, sub) // it closes sub
		}
	}
	return s.streamFailure(c, err)
}

// streamFailure answers a stream's coded failure in the stream's plain
// text, its reason as the body (SPEC's texts: relay's reasons are them);
// anything else is returned as it is.
func (s *Server) streamFailure(c echo.Context, err error) error {
	ce := coded(err)
	if ce == nil {
		return err
	}
	if ce.Code == errcode.TooManySubscribers {
		c.Response().Header().Set("Retry-After", subscriberRetry)
	}
	return s.streamRefusal(c, ce.Code, ce.Reason)
}

// skipBody reads a stream request's body, which means nothing to the
// stream, to its end before the stream begins (and before it takes a
// subscriber slot): a stream is a stream whatever its request carries, and
// a request read to its end is detached as any other (bounds.Detach), so
// that it holds no more memory and its client's end frees its slot at once.
// A body above MaxBodyBytes (413) or one that does not arrive within the
// body bound (408) is refused, in the stream's plain text: ok is false, and
// err is what the handler returns.
func (s *Server) skipBody(c echo.Context) (ok bool, err error) {
	r := c.Request()
	if r.ContentLength == 0 {
		return true, nil
	}
	if r.ContentLength > MaxBodyBytes {
		return false, s.streamRefusal(c, errcode.PayloadTooLarge, "request body is larger than 16384 bytes")
	}
	_, err = io.Copy(io.Discard, http.MaxBytesReader(c.Response(), r.Body, MaxBodyBytes))
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &tooBig):
		return false, s.streamRefusal(c, errcode.PayloadTooLarge, "request body is larger than 16384 bytes")
	case errors.Is(err, bounds.ErrBodyTimeout):
		return false, s.streamRefusal(c, errcode.RequestTimeout, "the request body did not arrive within 10 s of its headers")
	}
	return false, fmt.Errorf("%w: reading the body: %w", errClientGone, err)
}

// eventsHead is HEAD /api/plan/:id/events: the stream's status and headers,
// without a body and without taking a subscriber slot.
func (s *Server) eventsHead(c echo.Context) error {
	if _, err := s.plans.Find(c.Request().Context(), c.Param("id")); err != nil {
		return s.streamFailure(c, err)
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	return c.NoContent(http.StatusOK)
}

// streamRefusal is the stream's plain-text refusal (SPEC "GET
// /api/plan/[id]/events"): text, with code's status, counted as a rejection.
func (s *Server) streamRefusal(c echo.Context, code errcode.Code, text string) error {
	s.metrics.Rejection(metrics.RoutePlanEvents, code)
	return c.String(statusOf(metrics.RoutePlanEvents, code), text)
}

// retryLine is the stream's first line, in a block of its own: a block with
// no data dispatches no event.
var retryLine = []byte("retry: 2000\n\n")

// stream writes events until the client leaves, the plan ends, or the
// service shuts down (the subscription channel closes without Expired), and
// closes sub then, before the body's end, so that a client that reconnects
// at once finds its slot free.
//
// The headers and the first line go through net/http; then the stream takes
// its connection over (bounds.Detach) and goes on in a small goroutine of
// its own, so that an idle stream holds neither net/http's connection
// goroutine (whose stack the first write through the middleware grew to
// 16 KiB) nor its background read, its 4 KiB read and write buffers, the
// request and the echo context: about three quarters of what a stream
// cost. The bytes on the wire are the same. Every request is detached,
// HTTP/1.0 (whose stream is sent unchunked and ends with the connection)
// and one that came with a body (read by skipBody) included; only a
// server not made by bounds.NewServer streams through net/http here.
func (s *Server) stream(c echo.Context, sub *actor.Subscription) error {
	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("X-Accel-Buffering", "no") // nginx would otherwise hold events back
	h.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	hw := httpWriter{w: w, rc: http.NewResponseController(w)}
	// The headers' flush is bounded too: a client that sends its request
	// and never reads would otherwise hold its subscriber slot for good.
	// The stream's first line tells EventSource to reconnect after 2 s
	// (CONTRACT section 11), sooner than browsers' default, after a drain
	// or a dropped connection. Echo's Flush swallows write errors; net/http
	// cancels the request's context on one (and when the client leaves).
	ctx := c.Request().Context()
	if err := writeFlush(hw, retryLine); err != nil || ctx.Err() != nil {
		sub.Close()
		return nil
	}
	if d, ok := bounds.Detach(w, c.Request()); ok {
		end := &streamEnd{}
		c.Set(streamEndKey, end) // the request log waits for the end
		go func() {
			wrote := s.relay(d, d.Gone(), sub)
			sub.Close()
			if wrote {
				_ = d.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
				d.End()
			} else {
				d.Close()
			}
			end.done()
		}()
		return nil
	}
	defer sub.Close()
	// A stalled client's stream ends at the next turn of the loop, when its
	// failed write has cancelled the request's context.
	if s.relay(hw, ctx.Done(), sub) {
		// net/http writes the last chunk after the handler: give it a
		// write bound of its own, not what is left of the last event's.
		_ = hw.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	}
	return nil
}

// relay is the stream's loop: the events of sub, a heartbeat after each
// quiet s.heartbeat, until gone closes, the relay drains, the plan ends or a
// write fails. It reports false when a write failed.
func (s *Server) relay(w streamWriter, gone <-chan struct{}, sub *actor.Subscription) bool {
	heartbeat := time.NewTimer(s.heartbeat)
	defer heartbeat.Stop()
	var buf bytes.Buffer
	var written uint64 // the newest state version written
	for {
		buf.Reset()
		last := false
		var event []byte // a state event is written from its shared rendering, uncopied
		select {
		case <-gone:
			return true
		case <-s.draining:
			return true
		case <-heartbeat.C:
			buf.WriteString(": ping\n\n")
		case ev, open := <-sub.C():
			if !open {
				return true // shutdown: end the stream cleanly
			}
			// A state not written yet comes first (an event that tells a
			// submission carries the current state, which this stream may
			// have written already); then the submission's named event;
			// then the end.
			if !ev.Expired && ev.State.Version > written {
				event = ev.State.Render(renderStateEvent)
				written = ev.State.Version
			}
			if ev.Submission != nil {
				if event != nil {
					buf.Write(event)
					event = nil
				}
				writeSubmissionEvent(&buf, ev.State.ID, ev.Submission)
			}
			if ev.Forward != nil {
				if event != nil {
					buf.Write(event)
					event = nil
				}
				writeForwardEvent(&buf, ev.State.ID, ev.Forward)
			}
			if ev.Expired {
				buf.WriteString("event: expired\ndata: ")
				_ = json.NewEncoder(&buf).Encode(wire.Expired{ID: ev.State.ID})
				buf.WriteString("\n")
				last = true
			}
			if event == nil && buf.Len() == 0 {
				continue // nothing new for this stream
			}
		}
		if event == nil {
			event = buf.Bytes()
		}
		if err := writeFlush(w, event); err != nil {
			return false // the client is gone or stalled; nothing to answer
		}
		if last {
			return true
		}
		heartbeat.Reset(s.heartbeat)
	}
}

// streamWriter is where a stream's events go: the detached connection
// (bounds.Detached, which writes each event as one chunk at once), or
// net/http's response writer.
type streamWriter interface {
	SetWriteDeadline(time.Time) error
	Write([]byte) (int, error)
}

var (
	_ streamWriter = (*bounds.Detached)(nil)
	_ streamWriter = httpWriter{}
)

// httpWriter writes a stream through net/http, flushing each event.
type httpWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (h httpWriter) SetWriteDeadline(t time.Time) error { return h.rc.SetWriteDeadline(t) }

func (h httpWriter) Write(b []byte) (int, error) {
	n, err := h.w.Write(b)
	if err == nil {
		err = h.rc.Flush()
	}
	return n, err
}

// streamEndKey holds a detached stream's *streamEnd in its echo context.
const streamEndKey = "closerelay.streamEnd"

// streamEnd runs what waits for a detached stream's end (its request log
// line) once the stream has ended; whichever of after and done comes second
// runs it.
type streamEnd struct {
	mu    sync.Mutex
	ended bool
	then  func()
}

// after runs fn when the stream has ended: now if it has.
func (e *streamEnd) after(fn func()) {
	e.mu.Lock()
	ended := e.ended
	if !ended {
		e.then = fn
	}
	e.mu.Unlock()
	if ended {
		fn()
	}
}

func (e *streamEnd) done() {
	e.mu.Lock()
	e.ended = true
	fn := e.then
	e.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// writeSubmissionEvent writes a submission's outcome as its named event
// (CONTRACT section 10): `event: submitted` with {"id","hash","ledger"}, or
// `event: submit_failed` with {"id","code","reason"}.
func writeSubmissionEvent(buf *bytes.Buffer, id string, sub *plan.Submission) {
	switch sub.State {
	case plan.SubmissionSubmitted:
		buf.WriteString("event: submitted\ndata: ")
		_ = json.NewEncoder(buf).Encode(wire.Submitted{ID: id, Hash: sub.Hash, Ledger: sub.Ledger})
	case plan.SubmissionFailed, plan.SubmissionBlocked:
		buf.WriteString("event: submit_failed\ndata: ")
		_ = json.NewEncoder(buf).Encode(wire.SubmitFailed{ID: id, Code: sub.Code, Reason: sub.Reason})
	default:
		return
	}
	buf.WriteString("\n")
}

// writeForwardEvent writes a forward's outcome as its named event
// (CONTRACT section 16): `event: forwarded` with
// {"id","hash","ledger","amount"}, or `event: forward_failed` with
// {"id","code","reason"}.
func writeForwardEvent(buf *bytes.Buffer, id string, f *plan.Forward) {
	switch f.State {
	case plan.ForwardForwarded:
		buf.WriteString("event: forwarded\ndata: ")
		_ = json.NewEncoder(buf).Encode(wire.Forwarded{ID: id, Hash: f.Hash, Ledger: f.Ledger, Amount: f.Amount})
	case plan.ForwardFailed:
		buf.WriteString("event: forward_failed\ndata: ")
		_ = json.NewEncoder(buf).Encode(wire.ForwardFailed{ID: id, Code: f.Code, Reason: f.Reason})
	default:
		return
	}
	buf.WriteString("\n")
}

// renderStateEvent renders one unnamed event: `id: <version>` and one data
// line. It is the same for every subscriber of a version, so the stream
// renders it through State.Render, once per version.
func renderStateEvent(st actor.State) []byte {
	buf := new(bytes.Buffer)
	buf.WriteString("id: ")
	buf.WriteString(strconv.FormatUint(st.Version, 10))
	buf.WriteString("\ndata: ")
	// Encode appends a newline, which ends the data line.
	_ = json.NewEncoder(buf).Encode(wire.State{
		Network: string(st.Network), XDR: st.XDR, ID: st.ID, Signers: nonNil(st.Signers),
		Weight: st.Weight, Threshold: st.Threshold, Ready: st.Ready, Landable: st.Landable,
	})
	buf.WriteString("\n")
	return buf.Bytes()
}

// writeFlush writes b to a stream whole, bounded by streamWriteTimeout.
func writeFlush(w streamWriter, b []byte) error {
	_ = w.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	_, err := w.Write(b)
	return err
}
