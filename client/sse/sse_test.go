package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func readAll(t *testing.T, r *Reader) []Event {
	t.Helper()
	var out []Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		out = append(out, ev)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		name   string
		stream string
		want   []Event
	}{
		{"relay event", "id: 1\ndata: {\"a\":1}\n\n", []Event{{Type: "message", Data: `{"a":1}`, ID: "1"}}},
		{"multi-line data joined with LF", "data: a\ndata: b\ndata:c\n\n", []Event{{Type: "message", Data: "a\nb\nc"}}},
		{"only one leading space removed", "data:  two\n\n", []Event{{Type: "message", Data: " two"}}},
		{"named event", "event: expired\ndata: {\"id\":\"x\"}\n\n", []Event{{Type: "expired", Data: `{"id":"x"}`}}},
		{"event type resets after dispatch", "event: a\ndata: 1\n\ndata: 2\n\n", []Event{{Type: "a", Data: "1"}, {Type: "message", Data: "2"}}},
		{"comments ignored", ": ping\n\n:\ndata: x\n: mid\n\n", []Event{{Type: "message", Data: "x"}}},
		{"no data no dispatch", "event: a\n\nid: 3\n\ndata: y\n\n", []Event{{Type: "message", Data: "y", ID: "3"}}},
		{"id persists", "id: 7\ndata: a\n\ndata: b\n\n", []Event{{Type: "message", Data: "a", ID: "7"}, {Type: "message", Data: "b", ID: "7"}}},
		{"empty id resets", "id: 7\ndata: a\n\nid\ndata: b\n\n", []Event{{Type: "message", Data: "a", ID: "7"}, {Type: "message", Data: "b", ID: ""}}},
		{"id with NUL ignored", "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n", []Event{{Type: "message", Data: "a", ID: "1"}, {Type: "message", Data: "b", ID: "1"}}},
		{"field without colon", "data\ndata\n\n", []Event{{Type: "message", Data: "\n"}}},
		{"single empty data dispatches", "data:\n\n", []Event{{Type: "message", Data: ""}}},
		{"unknown field ignored", "foo: bar\ndata: z\n\n", []Event{{Type: "message", Data: "z"}}},
		{"CRLF", "id: 1\r\ndata: a\r\n\r\n", []Event{{Type: "message", Data: "a", ID: "1"}}},
		{"lone CR", "data: a\rdata: b\r\r", []Event{{Type: "message", Data: "a\nb"}}},
		{"mixed terminators", "data: a\r\ndata: b\rdata: c\n\r\n", []Event{{Type: "message", Data: "a\nb\nc"}}},
		{"BOM stripped at start", "\uFEFFdata: a\n\n", []Event{{Type: "message", Data: "a"}}},
		{"BOM only at start", "data: a\n\n\uFEFFdata: b\n\n", []Event{{Type: "message", Data: "a"}}},
		{"incomplete event discarded", "data: a\n\ndata: b\n", []Event{{Type: "message", Data: "a"}}},
		{"unterminated last line discarded", "data: a\n\nid: 9", []Event{{Type: "message", Data: "a"}}},
		{"colon in value kept", "data: a: b\n\n", []Event{{Type: "message", Data: "a: b"}}},
		{"field names are case-sensitive", "Data: a\ndata: b\n\n", []Event{{Type: "message", Data: "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One byte per read as well: a CRLF split across reads is the
			// case a line scanner gets wrong.
			for _, mode := range []string{"whole", "onebyte"} {
				var src io.Reader = strings.NewReader(tt.stream)
				if mode == "onebyte" {
					src = iotest.OneByteReader(src)
				}
				got := readAll(t, NewReader(src))
				if len(got) != len(tt.want) {
					t.Fatalf("%s: got %d events %+v, want %+v", mode, len(got), got, tt.want)
				}
				for i := range got {
					if got[i] != tt.want[i] {
						t.Errorf("%s: event %d = %+v, want %+v", mode, i, got[i], tt.want[i])
					}
				}
			}
		})
	}
}

func TestComments(t *testing.T) {
	r := NewReader(strings.NewReader(": ping\n\n:no space\ndata: x\n\n"))
	var got []string
	r.OnComment = func(s string) { got = append(got, s) }
	evs := readAll(t, r)
	if len(evs) != 1 || strings.Join(got, "|") != "ping|no space" {
		t.Fatalf("events %+v comments %q", evs, got)
	}
}

func TestRetryAndLastEventID(t *testing.T) {
	r := NewReader(strings.NewReader("retry: 1500\nid: 4\ndata: a\n\nretry: x1\nretry:\n"))
	readAll(t, r)
	d, ok := r.Retry()
	if !ok || d != 1500*time.Millisecond {
		t.Fatalf("Retry() = %v, %v; want 1.5s, true", d, ok)
	}
	if r.LastEventID() != "4" {
		t.Fatalf("LastEventID() = %q", r.LastEventID())
	}
}

func TestLineTooLong(t *testing.T) {
	r := NewReader(strings.NewReader("data: " + strings.Repeat("a", 100) + "\n\n"))
	r.MaxLineBytes = 50
	if _, err := r.Next(); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("Next() err = %v, want ErrLineTooLong", err)
	}
}

func TestReadErrorPassesThrough(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), iotest.ErrReader(boom)))
	if ev, err := r.Next(); err != nil || ev.Data != "a" {
		t.Fatalf("first Next = %+v, %v", ev, err)
	}
	if _, err := r.Next(); !errors.Is(err, boom) {
		t.Fatalf("second Next err = %v, want boom", err)
	}
}

func FuzzReader(f *testing.F) {
	for _, s := range []string{"id: 1\ndata: x\n\n", "data: a\r\ndata: b\r\r", ": ping\n\n", "\uFEFFevent: e\ndata\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Splitting the input at any byte must not change what is parsed.
		whole := collect(NewReader(strings.NewReader(s)))
		bytewise := collect(NewReader(iotest.OneByteReader(strings.NewReader(s))))
		if len(whole) != len(bytewise) {
			t.Fatalf("whole %d events, bytewise %d", len(whole), len(bytewise))
		}
		for i := range whole {
			if whole[i] != bytewise[i] {
				t.Fatalf("event %d differs: %+v vs %+v", i, whole[i], bytewise[i])
			}
		}
	})
}

func collect(r *Reader) []Event {
	var out []Event
	for {
		ev, err := r.Next()
		if err != nil {
			return out
		}
		out = append(out, ev)
	}
}
