package actor

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// checkLoops turns on loopOwner.check. It is on in every test binary, of
// whichever package (testing.Testing: the go command marks the binary, so
// no build tag or TestMain of a package can leave a test run unchecked),
// unless the binary runs benchmarks (-test.bench), whose figures it would
// distort: on, a check reads the goroutine's stack. CLOSERELAY_CHECK_LOOPS
// overrides both ways: 1 turns it on in any process, 0 off. Off, a check
// costs one atomic load.
var checkLoops atomic.Bool

func init() {
	checkLoops.Store(loopChecksWanted(os.Getenv("CLOSERELAY_CHECK_LOOPS"), testing.Testing(), os.Args))
}

// loopChecksWanted decides checkLoops from the environment's setting, whether
// this is a test binary, and its arguments.
func loopChecksWanted(env string, test bool, args []string) bool {
	switch env {
	case "1":
		return true
	case "0":
		return false
	}
	return test && !benchmarking(args)
}

// benchmarking reports whether args (a test binary's) ask for benchmarks:
// -test.bench with a pattern (the go command passes -test.bench=PATTERN).
func benchmarking(args []string) bool {
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "test.bench" {
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		return value != ""
	}
	return false
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
	if checkLoops.Load() {
		o.g.Store(starting)
	}
}

func (o *loopOwner) start() {
	if checkLoops.Load() {
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
