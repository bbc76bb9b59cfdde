package actor

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestLoopStateStaysInItsLoop: a run loop's state touched from another
// goroutine is caught, not only documented: the plan's and the
// Supervisor's loop-only functions panic when called off their loop, and
// run when their loop calls them.
func TestLoopStateStaysInItsLoop(t *testing.T) {
	s := start(t, Options{})
	f := newFixture(t, 1)
	p := create(t, s, f, time.Now().Add(time.Hour))
	offLoop := func(what string, call func()) {
		t.Helper()
		defer func() {
			r := recover()
			if msg, _ := r.(string); !strings.Contains(msg, "not its loop's") {
				t.Errorf("%s off its loop: recovered %v, want the ownership check's panic", what, r)
			}
		}()
		call()
	}
	offLoop("a plan's merge", func() { _, _, _ = p.serveMerge(f.admitted(1)) })
	offLoop("a plan's broadcast", func() { p.broadcast(Event{}) })
	offLoop("a plan's submission", p.maybeSubmit)
	offLoop("a transition's effects", func() { p.apply(nil, fxSubmit) })
	offLoop("the Supervisor's registry", func() { s.sweep(p) })

	// In its loop the same call runs.
	var changed bool
	inLoop(p, func(p *Plan) { _, changed, _ = p.serveMerge(f.admitted(1)) })
	if !changed {
		t.Fatal("a merge in the plan's loop changed nothing")
	}
	if st, err := p.Snapshot(context.Background()); err != nil || st.Version != 2 {
		t.Fatalf("version %d (%v) after the merge in the loop, want 2", st.Version, err)
	}
}
