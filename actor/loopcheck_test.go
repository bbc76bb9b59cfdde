package actor

import (
	"context"
	"os"
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

// TestLoopChecksOnInEveryTestBinary: the ownership check is on in a test
// binary of any package (testing.Testing), without a TestMain or an
// environment variable to remember, off while benchmarks run unless asked
// for, and CLOSERELAY_CHECK_LOOPS decides when set.
func TestLoopChecksOnInEveryTestBinary(t *testing.T) {
	if !benchmarking(os.Args) && os.Getenv("CLOSERELAY_CHECK_LOOPS") != "0" && !checkLoops.Load() {
		t.Fatal("the loop ownership check is off in this test binary")
	}
	for _, tc := range []struct {
		env  string
		test bool
		args []string
		want bool
	}{
		{"", true, []string{"actor.test", "-test.run=X"}, true},
		{"", true, []string{"actor.test", "-test.bench=."}, false},
		{"", true, []string{"actor.test", "-test.bench", "Merge"}, false},
		{"", true, []string{"actor.test", "-test.bench="}, true},
		{"1", true, []string{"actor.test", "-test.bench=."}, true},
		{"0", true, []string{"actor.test"}, false},
		{"", false, []string{"closerelay"}, false},
		{"1", false, []string{"closerelay"}, true},
	} {
		if got := loopChecksWanted(tc.env, tc.test, tc.args); got != tc.want {
			t.Errorf("loopChecksWanted(%q, %v, %q) = %v, want %v", tc.env, tc.test, tc.args, got, tc.want)
		}
	}
}
