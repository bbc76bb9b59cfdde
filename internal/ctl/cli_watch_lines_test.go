package ctl

import (
	"strings"
	"testing"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/client/wallet"
	"github.com/closerelay/closerelay/wire"
)

// writes records each Write it is given.
type writes struct{ calls []string }

func (w *writes) Write(p []byte) (int, error) {
	w.calls = append(w.calls, string(p))
	return len(p), nil
}

// TestWatchWritesAStateAtOnce: watch runs in the background of the
// README's walk-through while sign prints to the same pipe; a state line
// written in pieces was split by sign's output (TestReadmeCloseAnAccount
// failed about 1 run in 9). Each state, with what follows it, is one write.
func TestWatchWritesAStateAtOnce(t *testing.T) {
	yes := true
	st := client.State{ID: strings.Repeat("ab", 32), Version: 3, Signers: []string{"GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}, Weight: 3, Threshold: 3, Ready: true, Landable: &yes}
	for name, print := range map[string]func(c *CLI){
		"relay's weight": func(c *CLI) {
			c.printRelayState(false, st, &wire.Preflight{State: client.PreflightUncertain}, false)
		},
		"weighed locally": func(c *CLI) { c.printState(false, st, wallet.Progress{Weight: 3, Needed: 3}) },
	} {
		w := &writes{}
		print(&CLI{Stdout: w})
		if len(w.calls) != 1 {
			t.Errorf("%s: the state took %d writes, want 1: %q", name, len(w.calls), w.calls)
			continue
		}
		if !strings.HasSuffix(w.calls[0], "\n") || !strings.Contains(w.calls[0], "threshold met") {
			t.Errorf("%s: the write is not the whole state: %q", name, w.calls[0])
		}
	}
}
