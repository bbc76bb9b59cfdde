package actor

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"sync/atomic"
)

// checkLoops turns on loopOwner.check: this package's tests turn it on
// (TestMain), and so does CLOSERELAY_CHECK_LOOPS=1 in the environment of
// any process (another package's tests, a debugging run). Off, a check
// costs one load; on, it reads the goroutine's stack, so benchmarks turn it
// off.
var checkLoops atomic.Bool

func init() { checkLoops.Store(os.Getenv("CLOSERELAY_CHECK_LOOPS") == "1") }

// loopOwner records which goroutine owns a loop's state, in the manner of
// net/http2's serveG: whoever starts the loop's goroutine calls handOver
// just before, the loop calls start as it begins, and every function
// documented "run loop only" calls check, which panics when called from
// any other goroutine, the loop not having begun yet included. Before
// handOver, the state belongs to whoever built it and has not shared it:
// check passes.
type loopOwner struct{ g atomic.Uint64 }

// starting marks a loop handed over whose goroutine has not begun.
const starting = ^uint64(0)

func (o *loopOwner) handOver() {
	if checkLoops.Load() {
		o.g.Store(starting)
	}
}

func (o *loopOwner) start() {
	if checkLoops.Load() {
		o.g.Store(goroutineID())
	}
}

// lend hands the state to the calling goroutine, which holds the lock that
// the loop's goroutine holds while it serves, and returns the function
// that gives it back.
func (o *loopOwner) lend() (giveBack func()) {
	if !checkLoops.Load() {
		return func() {}
	}
	prev := o.g.Swap(goroutineID())
	return func() { o.g.Store(prev) }
}

func (o *loopOwner) check() {
	if !checkLoops.Load() {
		return
	}
	if g := o.g.Load(); g != 0 && g != goroutineID() {
		panic("actor: a run loop's state touched from goroutine " + strconv.FormatUint(goroutineID(), 10) +
			", not its loop's (" + strconv.FormatUint(g, 10) + ")")
	}
}

// goroutineID is the calling goroutine's id, read from its stack header
// ("goroutine 42 [running]:").
func goroutineID() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i >= 0 {
		b = b[:i]
	}
	id, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		panic("actor: cannot read the goroutine id: " + err.Error())
	}
	return id
}
