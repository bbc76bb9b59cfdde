// Package sse reads a text/event-stream as the WHATWG HTML standard's
// "Server-sent events" section interprets it (section 9.2.6, "Event stream
// interpretation"): lines end in CRLF, LF or a lone CR; a line starting with
// a colon is a comment; "field: value" lines build an event; a blank line
// dispatches it. It is the parser of closerelay's client and of tests that
// read the relay's streams, so it follows the standard rather than the
// relay's own writer: a reader that only understood our server's output
// would hide the server's mistakes.
package sse

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"
)

// DefaultMaxLineBytes bounds one line of the stream. A relay event carries an
// envelope of at most 12,000 base64 characters; the bound is far above that
// and only stops a broken or hostile server from growing a line without end.
const DefaultMaxLineBytes = 1 << 20

// ErrLineTooLong is returned by Next when a line exceeds the reader's limit.
// The stream cannot be resynchronised after it, so the caller should drop
// the connection.
var ErrLineTooLong = errors.New("sse: line too long")

// Event is one dispatched event.
type Event struct {
	// Type is the event field's value, or "message" when the event had none.
	Type string
	// Data is the data lines joined with "\n" (the final newline removed).
	Data string
	// ID is the stream's last event ID when the event was dispatched. Per the
	// standard it persists across events until an id field changes it, so it
	// is what a reconnecting client sends as Last-Event-ID.
	ID string
}

// Reader parses events from a stream. It is not safe for concurrent use.
type Reader struct {
	// OnComment, when set, is called with each comment line's text after the
	// colon (one leading space removed), e.g. "ping" for ": ping". Tests use
	// it to observe heartbeats; the standard itself ignores comments.
	OnComment func(text string)
	// MaxLineBytes bounds a line; DefaultMaxLineBytes when zero.
	MaxLineBytes int

	br          *bufio.Reader
	started     bool // a BOM is stripped from the first line only
	afterCR     bool // the previous line ended in CR: a following LF is part of it
	line        []byte
	data        strings.Builder
	hasData     bool
	eventType   string
	lastEventID string
	retry       time.Duration
	hasRetry    bool
}

// NewReader returns a Reader of r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReader(r)}
}

// Next returns the next dispatched event. At the end of the stream it returns
// io.EOF; an event not yet terminated by a blank line is then discarded, as
// the standard requires. Other read errors are returned as they are.
func (r *Reader) Next() (Event, error) {
	for {
		line, err := r.readLine()
		if err != nil {
			return Event{}, err
		}
		if ev, ok := r.processLine(line); ok {
			return ev, nil
		}
	}
}

// LastEventID is the last event ID buffer: the value a reconnecting client
// sends in the Last-Event-ID header.
func (r *Reader) LastEventID() string { return r.lastEventID }

// Retry reports the reconnection time the stream last set with a retry
// field, if any.
func (r *Reader) Retry() (time.Duration, bool) { return r.retry, r.hasRetry }

// readLine returns one line without its terminator. A final line that ends
// without a terminator is pending data that the standard discards at the end
// of the stream, so it is never returned.
func (r *Reader) readLine() ([]byte, error) {
	max := r.MaxLineBytes
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	r.line = r.line[:0]
	for {
		b, err := r.br.ReadByte()
		if err != nil {
			return nil, err
		}
		if r.afterCR {
			r.afterCR = false
			if b == '\n' {
				continue // the LF of a CRLF pair
			}
		}
		switch b {
		case '\n':
			return r.line, nil
		case '\r':
			r.afterCR = true
			return r.line, nil
		}
		if len(r.line) >= max {
			return nil, ErrLineTooLong
		}
		r.line = append(r.line, b)
	}
}

// processLine applies one line; ok reports that it dispatched an event.
func (r *Reader) processLine(line []byte) (Event, bool) {
	if !r.started {
		// One byte order mark may precede the first line.
		r.started = true
		line = []byte(strings.TrimPrefix(string(line), "\uFEFF"))
	}
	if len(line) == 0 {
		return r.dispatch()
	}
	s := string(line)
	if s[0] == ':' {
		if r.OnComment != nil {
			r.OnComment(strings.TrimPrefix(s[1:], " "))
		}
		return Event{}, false
	}
	field, value := s, ""
	if i := strings.IndexByte(s, ':'); i >= 0 {
		field, value = s[:i], strings.TrimPrefix(s[i+1:], " ")
	}
	switch field {
	case "event":
		r.eventType = value
	case "data":
		if r.hasData {
			r.data.WriteByte('\n')
		}
		r.data.WriteString(value)
		r.hasData = true
	case "id":
		if !strings.ContainsRune(value, 0) {
			r.lastEventID = value
		}
	case "retry":
		if value != "" && strings.Trim(value, "0123456789") == "" {
			if ms, err := strconv.ParseInt(value, 10, 64); err == nil && ms <= int64(time.Duration(1<<63-1)/time.Millisecond) {
				r.retry, r.hasRetry = time.Duration(ms)*time.Millisecond, true
			}
		}
	}
	// Any other field is ignored.
	return Event{}, false
}

// dispatch ends the current event. An event without data lines is not
// dispatched, but its type is still reset, as the standard says.
func (r *Reader) dispatch() (Event, bool) {
	defer func() {
		r.data.Reset()
		r.hasData = false
		r.eventType = ""
	}()
	if !r.hasData {
		return Event{}, false
	}
	ev := Event{Type: r.eventType, Data: r.data.String(), ID: r.lastEventID}
	if ev.Type == "" {
		ev.Type = "message"
	}
	return ev, true
}
