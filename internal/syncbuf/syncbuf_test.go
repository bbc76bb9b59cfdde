package syncbuf_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/closerelay/closerelay/internal/syncbuf"
)

// TestConcurrentWritesAndReads: writers and a reader at once (the race
// detector watches), and every write is kept whole.
func TestConcurrentWritesAndReads(t *testing.T) {
	var b syncbuf.Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if _, err := b.Write([]byte("line\n")); err != nil {
					t.Error(err)
				}
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got := strings.Count(b.String(), "line\n"); got != 800 {
		t.Fatalf("%d lines, want 800", got)
	}
}
