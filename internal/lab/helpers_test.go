package lab

import (
	"bufio"
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/closerelay/closerelay/internal/ctl"
	"github.com/closerelay/closerelay/internal/syncbuf"
)

// The helpers the test files of this package share: command lines run in
// process, closerelaylab's and, for the walk-through, closerelayctl's.

// run runs args as the program that has the command: closerelaylab demo
// and load, closerelayctl the others.
func run(c *ctl.CLI, args []string) int {
	if len(args) > 0 && (args[0] == "demo" || args[0] == "load") {
		c.Prog = "closerelaylab"
		return (&tool{c}).run(args)
	}
	return c.Run(args)
}

type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs one command line in process, as `closerelaylab args…` (or
// `closerelayctl args…`) would.
func runCLI(t *testing.T, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var out, errOut syncbuf.Buffer
	c := &ctl.CLI{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }}
	code := run(c, args)
	return result{code, out.String(), errOut.String()}
}

// testCLI is a CLI whose context the test ends itself, as SIGINT would.
type testCLI struct {
	*ctl.CLI
	mu   sync.Mutex
	stop context.CancelFunc
}

func newTestCLI(env map[string]string, stdin io.Reader) *testCLI {
	tc := &testCLI{CLI: &ctl.CLI{Stdin: stdin, Getenv: func(k string) string { return env[k] }}}
	tc.Signals = func(ctx context.Context) (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(ctx)
		tc.mu.Lock()
		tc.stop = cancel
		tc.mu.Unlock()
		return ctx, cancel
	}
	return tc
}

// interrupt ends the running command as Ctrl-C would.
func (tc *testCLI) interrupt() {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.stop != nil {
		tc.stop()
	}
}

// started is a command running in a goroutine, its standard output a pipe
// read line by line.
type started struct {
	t      *testing.T
	lines  *bufio.Scanner
	stderr *syncbuf.Buffer
	code   chan int
}

func start(t *testing.T, tc *testCLI, args ...string) *started {
	t.Helper()
	pr, pw := io.Pipe()
	s := &started{t: t, lines: bufio.NewScanner(pr), stderr: &syncbuf.Buffer{}, code: make(chan int, 1)}
	tc.Stdout, tc.Stderr = pw, s.stderr
	go func() {
		code := run(tc.CLI, args)
		pw.Close()
		s.code <- code
	}()
	t.Cleanup(func() {
		tc.interrupt()
		go func() { _, _ = io.Copy(io.Discard, pr) }()
	})
	return s
}

func (s *started) next() string {
	s.t.Helper()
	if !s.lines.Scan() {
		s.t.Fatalf("the command's output ended; stderr %q", s.stderr.String())
	}
	return s.lines.Text()
}

// exit drains the output and returns the exit code.
func (s *started) exit() int {
	for s.lines.Scan() {
	}
	return <-s.code
}
