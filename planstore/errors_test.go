package planstore

import (
	"context"
	"errors"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// TestMapError: a round trip that timed out, or failed in any way that is
// not an answer about the entry, is ErrUnavailable, and no longer a context
// error (the relay answered such a sign 500 INTERNAL during a NATS leader
// election: the context error passed through as if the client had gone).
func TestMapError(t *testing.T) {
	for _, c := range []struct {
		in   error
		want error
	}{
		{context.DeadlineExceeded, ErrUnavailable},
		{context.Canceled, ErrUnavailable},
		{jetstream.ErrNoStreamResponse, ErrUnavailable},
		{jetstream.ErrKeyNotFound, ErrNotFound},
		{jetstream.ErrKeyExists, ErrConflict},
		{jetstream.ErrKeyRevisionMismatch, ErrConflict},
	} {
		got := mapError(c.in)
		if !errors.Is(got, c.want) {
			t.Errorf("mapError(%v) = %v, want %v", c.in, got, c.want)
		}
		if c.want == ErrUnavailable && (errors.Is(got, context.DeadlineExceeded) || errors.Is(got, context.Canceled)) {
			t.Errorf("mapError(%v) = %v still reads as a context error", c.in, got)
		}
	}
}
