package actor

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/planstore"
)

// panickingUpdates is a store whose updates panic, as a bug in a merge's
// write-through would.
type panickingUpdates struct{ *planstore.Memory }

func (panickingUpdates) Update(context.Context, string, planstore.Record, uint64) (uint64, error) {
	panic("an update that panics")
}

// TestMergePanicEndsTheProcess: a panic in a merge ends the process, even
// when the caller recovers it (net/http does, for every handler): the merge
// runs in the plan's run loop, never on the caller's goroutine, so nothing
// goes on from a turn half applied. The test runs itself in a child process
// that must die.
func TestMergePanicEndsTheProcess(t *testing.T) {
	if os.Getenv("ACTOR_MERGE_PANIC_CHILD") == "1" {
		synctest.Test(t, func(t *testing.T) {
			s := NewSupervisor(Options{Store: panickingUpdates{planstore.NewMemory()}})
			f := newFixture(t, 1)
			p := create(t, s, f, time.Now().Add(time.Hour), 0)
			inLoop(p, func(*Plan) {})
			synctest.Wait() // the loop waits in its select
			func() {
				defer func() { _ = recover() }() // as net/http does
				_, _, _ = p.Merge(context.Background(), f.admitted(1))
			}()
			os.Stdout.WriteString("the process went on after the panic\n")
			os.Exit(0)
		})
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMergePanicEndsTheProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "ACTOR_MERGE_PANIC_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil || strings.Contains(string(out), "went on") {
		t.Fatalf("the child process went on (%v):\n%s", err, out)
	}
	if !strings.Contains(string(out), "panic: an update that panics") {
		t.Fatalf("the child died otherwise (%v):\n%s", err, out)
	}
}
