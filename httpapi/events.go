package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/metrics"
	"github.com/labstack/echo/v4"
)

// streamWriteTimeout bounds one write to a stream: a client that stops reading
// is dropped when its socket buffer stays full this long, instead of holding a
// goroutine forever. It never delays the plan: the actor does not wait on us.
const streamWriteTimeout = 15 * time.Second

// eventData is the JSON of one unnamed SSE event (CONTRACT section 5), with
// the plan's readiness at that version (section 10).
type eventData struct {
	Network   string   `json:"network"`
	XDR       string   `json:"xdr"`
	ID        string   `json:"id"`
	Signers   []string `json:"signers"`
	Weight    int      `json:"weight"`
	Threshold int      `json:"threshold"`
	Ready     bool     `json:"ready"`
}

// events is GET /api/plan/:id/events: the current state at once, then one
// event per change, a heartbeat comment every s.heartbeat, and `event: expired`
// before the end when the plan expires. Failures are plain text (SPEC).
func (s *Server) events(c echo.Context) error {
	ctx := c.Request().Context()
	id, ok := normalizeID(c.Param("id"))
	if !ok {
		return s.streamRefusal(c, errcode.NotFound, "signing request not found")
	}
	plan, err := s.plans.Lookup(ctx, id)
	if err == nil {
		var sub *actor.Subscription
		if sub, err = plan.Subscribe(ctx); err == nil {
			defer sub.Close()
			return s.stream(c, sub)
		}
	}
	switch {
	case errors.Is(err, actor.ErrNotFound):
		return s.streamRefusal(c, errcode.NotFound, "signing request not found")
	case errors.Is(err, actor.ErrTooManySubscribers):
		c.Response().Header().Set("Retry-After", subscriberRetry)
		return s.streamRefusal(c, errcode.TooManySubscribers, "too many live listeners; retry shortly")
	case errors.Is(err, actor.ErrStopped):
		return s.streamRefusal(c, errcode.Unavailable, "the relay is shutting down")
	case errors.Is(err, actor.ErrUnavailable):
		return s.streamRefusal(c, errcode.Unavailable, "the relay's plan store is unreachable; retry shortly")
	}
	return err
}

// eventsHead is HEAD /api/plan/:id/events: the stream's status and headers,
// without a body and without taking a subscriber slot.
func (s *Server) eventsHead(c echo.Context) error {
	id, ok := normalizeID(c.Param("id"))
	if !ok {
		return s.streamRefusal(c, errcode.NotFound, "signing request not found")
	}
	switch _, err := s.plans.Lookup(c.Request().Context(), id); {
	case errors.Is(err, actor.ErrNotFound):
		return s.streamRefusal(c, errcode.NotFound, "signing request not found")
	case errors.Is(err, actor.ErrStopped):
		return s.streamRefusal(c, errcode.Unavailable, "the relay is shutting down")
	case errors.Is(err, actor.ErrUnavailable):
		return s.streamRefusal(c, errcode.Unavailable, "the relay's plan store is unreachable; retry shortly")
	case err != nil:
		return err
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
	return c.String(code.Status(), text)
}

// retryLine is the stream's first line, in a block of its own: a block with
// no data dispatches no event.
var retryLine = []byte("retry: 2000\n\n")

// stream writes events until the client leaves, the plan ends, or the
// service shuts down (the subscription channel closes without Expired).
func (s *Server) stream(c echo.Context, sub *actor.Subscription) error {
	ctx := c.Request().Context()
	w := c.Response()
	h := w.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set("X-Accel-Buffering", "no") // nginx would otherwise hold events back
	h.Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	// The headers' flush is bounded too: a client that sends its request
	// and never reads would otherwise hold its subscriber slot for good.
	// The stream's first line tells EventSource to reconnect after 2 s
	// (CONTRACT section 11), sooner than browsers' default, after a drain
	// or a dropped connection.
	if err := writeFlush(rc, w, retryLine); err != nil {
		return nil
	}

	heartbeat := time.NewTimer(s.heartbeat)
	defer heartbeat.Stop()
	var buf bytes.Buffer
	var written uint64 // the newest state version written
	for {
		buf.Reset()
		last := false
		var event []byte // a state event is written from its shared rendering, uncopied
		select {
		case <-ctx.Done():
			return nil
		case <-s.draining:
			return nil
		case <-heartbeat.C:
			buf.WriteString(": ping\n\n")
		case ev, open := <-sub.C():
			if !open {
				return nil // shutdown: end the stream cleanly
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
			if ev.Expired {
				buf.WriteString("event: expired\ndata: ")
				_ = json.NewEncoder(&buf).Encode(struct {
					ID string `json:"id"`
				}{ev.State.ID})
				buf.WriteString("\n")
				last = true
			}
			if event == nil && buf.Len() == 0 {
				continue // nothing new for this stream
			}
		}
		// Echo's Flush swallows write errors; net/http cancels the request
		// context on one, so a stalled client's stream still ends at the
		// next turn of this loop.
		if event == nil {
			event = buf.Bytes()
		}
		if err := writeFlush(rc, w, event); err != nil {
			return nil // the client is gone or stalled; nothing to answer
		}
		if last {
			return nil
		}
		heartbeat.Reset(s.heartbeat)
	}
}

// writeSubmissionEvent writes a submission's outcome as its named event
// (CONTRACT section 10): `event: submitted` with {"id","hash","ledger"}, or
// `event: submit_failed` with {"id","code","reason"}.
func writeSubmissionEvent(buf *bytes.Buffer, id string, sub *actor.Submission) {
	switch sub.State {
	case actor.SubmissionSubmitted:
		buf.WriteString("event: submitted\ndata: ")
		_ = json.NewEncoder(buf).Encode(struct {
			ID     string `json:"id"`
			Hash   string `json:"hash"`
			Ledger int    `json:"ledger"`
		}{id, sub.Hash, sub.Ledger})
	case actor.SubmissionFailed:
		buf.WriteString("event: submit_failed\ndata: ")
		_ = json.NewEncoder(buf).Encode(struct {
			ID     string `json:"id"`
			Code   string `json:"code"`
			Reason string `json:"reason"`
		}{id, sub.Code, sub.Reason})
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
	_ = json.NewEncoder(buf).Encode(eventData{
		Network: string(st.Network), XDR: st.XDR, ID: st.ID, Signers: nonNil(st.Signers),
		Weight: st.Weight, Threshold: st.Threshold, Ready: st.Ready,
	})
	buf.WriteString("\n")
	return buf.Bytes()
}

func writeFlush(rc *http.ResponseController, w http.ResponseWriter, b []byte) error {
	_ = rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	if _, err := w.Write(b); err != nil {
		return err
	}
	return rc.Flush()
}
