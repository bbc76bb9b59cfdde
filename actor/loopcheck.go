package actor

import (
	"bytes"
	"flag"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// checkLoops turns on loopOwner.check. It is on in every test binary, of
// whichever package: a binary whose flags hold the testing package's
// (test.v; the go command's test main registers them before any test
// runs), so no build tag or TestMain of a package can leave a test run
// unchecked, and the server never links package testing for it. It is
// off when the binary runs benchmarks (test.bench set), whose figures it
// would distort: on, a check reads the goroutine's stack.
// CLOSERELAY_CHECK_LOOPS overrides both ways: 1 turns it on in any
// process, 0 off. Decided at the first loop started (loopChecks); off, a
// check costs one atomic load.
var (
	checkLoops   atomic.Bool
	loopsDecided sync.Once
)

// loopChecks decides checkLoops once, and reports it.
func loopChecks() bool {
	loopsDecided.Do(func() {
		test, bench := testFlags()
		checkLoops.Store(loopChecksWanted(os.Getenv("CLOSERELAY_CHECK_LOOPS"), test, bench))
	})
	return checkLoops.Load()
}

// testFlags reports whether this process is a test binary (its flags hold
// test.v), and whether it runs benchmarks (test.bench is set).
func testFlags() (test, bench bool) {
	if flag.Lookup("test.v") == nil {
		return false, false
	}
	b := flag.Lookup("test.bench")
	return true, b != nil && b.Value.String() != ""
}

// loopChecksWanted decides checkLoops from the environment's setting,
// whether this is a test binary, and whether it runs benchmarks.
func loopChecksWanted(env string, test, bench bool) bool {
	switch env {
	case "1":
		return true
	case "0":
		return false
	}
	return test && !bench
}

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
	if loopChecks() {
		o.g.Store(starting)
	}
}

func (o *loopOwner) start() {
	if loopChecks() {
		o.g.Store(goroutineID())
	}
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
