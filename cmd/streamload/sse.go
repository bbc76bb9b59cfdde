package main

import "bytes"

// sseEvent is one dispatched server-sent event. ID and Data alias the
// parser's buffers: they are valid until the parser's next call, which is
// all the stream loop needs (it reads two numbers out of them and moves on),
// and it spares a copy per event on every one of thousands of streams.
type sseEvent struct {
	Type string // "message" when the stream names none
	ID   []byte // the last event id seen on the stream, as the spec keeps it
	Data []byte // the data lines joined by "\n", without the final one
}

// sseParser turns the lines of an event stream into events, following the
// WHATWG event-stream interpretation: comment lines (":…") are skipped,
// `event:`, `data:` and `id:` fill the buffers, a blank line dispatches, and a
// blank line with no data dispatches nothing. Lines end in "\n" or "\r\n"
// (bufio splits on "\n"; a lone "\r" ending is not supported, and the relay
// never sends one). The zero value is ready to use.
type sseParser struct {
	typ      []byte
	data     []byte
	id       []byte
	comments int // comment lines seen (the relay's heartbeats are ": ping")
}

const messageType = "message"

// line feeds one line, with or without its line ending, and reports the
// event it dispatches, if any.
func (p *sseParser) line(l []byte) (sseEvent, bool) {
	l = bytes.TrimSuffix(l, []byte("\n"))
	l = bytes.TrimSuffix(l, []byte("\r"))
	if len(l) == 0 {
		return p.dispatch()
	}
	if l[0] == ':' {
		p.comments++
		return sseEvent{}, false
	}
	field, value, found := bytes.Cut(l, []byte(":"))
	if found {
		value = bytes.TrimPrefix(value, []byte(" ")) // one space only, per the spec
	}
	switch string(field) { // the compiler does not allocate for this conversion
	case "event":
		p.typ = append(p.typ[:0], value...)
	case "data":
		p.data = append(p.data, value...)
		p.data = append(p.data, '\n')
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			p.id = append(p.id[:0], value...)
		}
	}
	// "retry" and unknown fields are ignored, as a browser ignores them here.
	return sseEvent{}, false
}

func (p *sseParser) dispatch() (sseEvent, bool) {
	if len(p.data) == 0 {
		p.typ = p.typ[:0]
		return sseEvent{}, false
	}
	ev := sseEvent{Type: messageType, ID: p.id, Data: p.data[:len(p.data)-1]}
	if len(p.typ) > 0 {
		ev.Type = string(p.typ) // only named events (expired) pay for this
	}
	p.typ = p.typ[:0]
	p.data = p.data[:0]
	return ev, true
}
