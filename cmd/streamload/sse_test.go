package main

import (
	"bufio"
	"slices"
	"strings"
	"testing"
)

func TestSSEParser(t *testing.T) {
	type ev struct{ typ, id, data string }
	for _, c := range []struct {
		name     string
		stream   string
		want     []ev
		comments int
	}{
		{"relay state event", "id: 3\ndata: {\"id\":\"ab\"}\n\n", []ev{{"message", "3", `{"id":"ab"}`}}, 0},
		{"heartbeat is a comment, not an event", ": ping\n\n", nil, 1},
		{"comment between fields", "id: 1\n: note\ndata: x\n\n", []ev{{"message", "1", "x"}}, 1},
		{"named event", "event: expired\ndata: {\"id\":\"ab\"}\n\n", []ev{{"expired", "", `{"id":"ab"}`}}, 0},
		{"event type does not outlive its event", "event: expired\ndata: a\n\ndata: b\n\n", []ev{{"expired", "", "a"}, {"message", "", "b"}}, 0},
		{"multi-line data joined by newlines", "data: one\ndata: two\ndata:\n\n", []ev{{"message", "", "one\ntwo\n"}}, 0},
		{"one space after the colon is dropped, no more", "data:  two spaces\ndata:none\n\n", []ev{{"message", "", " two spaces\nnone"}}, 0},
		{"blank line without data dispatches nothing", "id: 4\n\nevent: x\n\ndata: y\n\n", []ev{{"message", "4", "y"}}, 0},
		{"CRLF line endings", "id: 7\r\ndata: z\r\n\r\n", []ev{{"message", "7", "z"}}, 0},
		{"the last id carries over", "id: 2\ndata: a\n\ndata: b\n\n", []ev{{"message", "2", "a"}, {"message", "2", "b"}}, 0},
		{"id with NUL is ignored", "id: 5\ndata: a\n\nid: 6\x00\ndata: b\n\n", []ev{{"message", "5", "a"}, {"message", "5", "b"}}, 0},
		{"field without colon and unknown fields", "data\nretry: 10\nfoo: bar\n\n", []ev{{"message", "", ""}}, 0},
		{"no dispatch without the blank line", "data: pending\n", nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p sseParser
			var got []ev
			r := bufio.NewReader(strings.NewReader(c.stream))
			for {
				line, err := r.ReadSlice('\n')
				if len(line) == 0 && err != nil {
					break
				}
				if e, ok := p.line(line); ok {
					got = append(got, ev{e.Type, string(e.ID), string(e.Data)})
				}
			}
			if !slices.Equal(got, c.want) || p.comments != c.comments {
				t.Errorf("events %q, %d comments; want %q, %d", got, p.comments, c.want, c.comments)
			}
		})
	}
}
