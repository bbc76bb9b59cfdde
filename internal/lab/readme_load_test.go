package lab

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/ctl"
	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/closerelay/closerelay/loadkit"
)

// repoRoot is the repository's root, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// loadTestingCommands returns the command lines of the shell blocks of
// docs/load-testing.md, comments cut off, block by block.
func loadTestingCommands(t *testing.T, root string) [][]string {
	t.Helper()
	var blocks [][]string
	for _, b := range shBlocks(docText(t, root, "docs/load-testing.md")) {
		blocks = append(blocks, commandLines(b))
	}
	if len(blocks) == 0 {
		t.Fatal("docs/load-testing.md has no ```sh block")
	}
	return blocks
}

// k6Path is k6 on PATH or in $(go env GOPATH)/bin, or "".
func k6Path() string {
	if p, err := exec.LookPath("k6"); err == nil {
		return p
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		return ""
	}
	p := filepath.Join(strings.TrimSpace(string(out)), "bin", "k6")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// readyWriter closes ready at the first line starting with "ready ".
type readyWriter struct {
	syncbuf.Buffer
	once  sync.Once
	ready chan struct{}
}

func (w *readyWriter) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if strings.HasPrefix(w.String(), "ready ") || strings.Contains(w.String(), "\nready ") {
		w.once.Do(func() { close(w.ready) })
	}
	return n, err
}

// readmeStack is a `load local` of the README started in process, in a
// directory of its own that stands for the repository root: loadkit links
// to the real one, and the payload lands there as load-payload.json.
type readmeStack struct {
	dir  string
	stop func()
}

func startReadmeStack(t *testing.T, root string, args []string) *readmeStack {
	t.Helper()
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(root, "loadkit"), filepath.Join(dir, "loadkit")); err != nil {
		t.Fatal(err)
	}
	// As written, made small: later flags win.
	args = append(append([]string{}, args...), "--plans", "3", "--spare", "2", "--signers", "4", "--out", filepath.Join(dir, "load-payload.json"))
	ctx, cancel := context.WithCancel(context.Background())
	out := &readyWriter{ready: make(chan struct{})}
	var errOut syncbuf.Buffer
	c := &ctl.CLI{Stdin: strings.NewReader(""), Stdout: out, Stderr: &errOut, Getenv: func(string) string { return "" },
		Signals: func(context.Context) (context.Context, context.CancelFunc) { return ctx, func() {} }}
	done := make(chan int, 1)
	go func() { done <- (&tool{c}).run(args) }()
	select {
	case <-out.ready:
	case code := <-done:
		cancel()
		t.Fatalf("%v: exit %d before ready: %s %s", args, code, out.String(), errOut.String())
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatalf("%v: not ready after 60 s", args)
	}
	if !regexp.MustCompile(`^ready relay=http://127\.0\.0\.1:\d+ ops=http://127\.0\.0\.1:\d+ `).MatchString(out.String()) {
		t.Errorf("ready line %q: want the free ports it bound", out.String())
	}
	s := &readmeStack{dir: dir}
	s.stop = func() {
		cancel()
		if code := <-done; code != ctl.ExitOK {
			t.Errorf("load local: exit %d: %s", code, errOut.String())
		}
	}
	t.Cleanup(func() {
		if s.stop != nil {
			s.stop()
		}
	})
	return s
}

// TestReadmeLoadCommands runs every command of docs/load-testing.md
// shell blocks as written (readme_test.go runs the other sections'), made small and short by flags appended (later
// flags win) or, for k6, variables: `load local` in process on free ports;
// k6 (when installed) from a directory that stands for the repository root,
// so that its relative payload path is resolved as the README says;
// `load routes` in process; streamload built and run (not with -short).
// `make`, `go build` and `go install` lines are checked, not run.
func TestReadmeLoadCommands(t *testing.T) {
	root := repoRoot(t)
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	benchLoad, err := os.ReadFile(filepath.Join(root, "loadkit", "bench-load.sh"))
	if err != nil {
		t.Fatal(err)
	}
	k6 := k6Path()
	var stack *readmeStack
	k6Runs := 0
	for _, block := range loadTestingCommands(t, root) {
		for _, line := range block {
			t.Logf("README: %s", line)
			words := strings.Fields(line)
			// Leading VAR=value assignments must be variables bench-load.sh reads.
			for len(words) > 0 && regexp.MustCompile(`^[A-Z_]+=`).MatchString(words[0]) {
				name, _, _ := strings.Cut(words[0], "=")
				if !strings.Contains(string(benchLoad), "${"+name+":-") {
					t.Errorf("%q: bench-load.sh does not read %s", line, name)
				}
				words = words[1:]
			}
			switch {
			case len(words) == 2 && words[0] == "make":
				if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(words[1]) + `:`).Match(makefile) {
					t.Errorf("%q: the Makefile has no target %s", line, words[1])
				}
			case len(words) == 5 && words[0] == "go" && words[1] == "build" && words[2] == "-o":
				if fi, err := os.Stat(filepath.Join(root, words[4])); err != nil || !fi.IsDir() || words[3] != "bin/closerelaylab" {
					t.Errorf("%q: want bin/closerelaylab built from a package of this repository", line)
				}
			case len(words) == 3 && words[0] == "go" && words[1] == "install":
				mod, version, _ := strings.Cut(words[2], "@")
				if mod != "go.k6.io/k6" || !strings.Contains(string(benchLoad), "K6_VERSION="+version) {
					t.Errorf("%q: not the k6 bench-load.sh installs", line)
				}
			case strings.HasPrefix(line, "export PATH="):
			case len(words) > 2 && words[0] == "bin/closerelaylab" && words[1] == "load" && words[2] == "local":
				if stack != nil {
					stack.stop()
					stack.stop = nil
				}
				stack = startReadmeStack(t, root, words[1:])
			case len(words) > 2 && words[0] == "bin/closerelaylab" && words[1] == "load" && words[2] == "routes":
				if stack == nil {
					t.Fatalf("%q before any load local", line)
				}
				args := append(append([]string{}, words[1:]...), "--payload", filepath.Join(stack.dir, "load-payload.json"),
					"--duration", "300ms", "--connections", "4", "--hold", "100ms")
				r := runCLI(t, nil, "", args...)
				if r.code != ctl.ExitOK || !strings.Contains(r.stdout, "routes: passed") {
					t.Errorf("%q: exit %d\n%s%s", line, r.code, r.stdout, r.stderr)
				}
			case len(words) > 2 && words[0] == "bin/closerelaylab" && words[1] == "load" && words[2] == "admit":
				if stack == nil {
					t.Fatalf("%q before any load local", line)
				}
				args := append(append([]string{}, words[1:]...), "--payload", filepath.Join(stack.dir, "load-payload.json"), "--connections", "4")
				r := runCLI(t, nil, "", args...)
				if r.code != ctl.ExitOK || !strings.Contains(r.stdout, "; 0 not 200; admitted 9\n") {
					t.Errorf("%q: exit %d\n%s%s", line, r.code, r.stdout, r.stderr)
				}
			case len(words) > 2 && words[0] == "k6" && words[1] == "run":
				if stack == nil {
					t.Fatalf("%q before any load local", line)
				}
				if k6 == "" {
					t.Logf("k6 is not installed: %q not run (make bench-load installs it)", line)
					continue
				}
				k6Runs++
				export := filepath.Join(stack.dir, "readme-export.json")
				os.Remove(export)
				n := len(words)
				args := append(append(append([]string{}, words[1:n-1]...), "-q", "--no-usage-report",
					"-e", "DURATION=1s", "-e", "VUS=2", "-e", "ATTACKERS=2", "-e", "HONEST_RATE=5", "--summary-export", export), words[n-1])
				cmd := exec.Command(k6, args...)
				cmd.Dir = stack.dir
				out, err := cmd.CombinedOutput()
				var exit *exec.ExitError
				if err != nil && !errors.As(err, &exit) {
					t.Fatalf("%q: %v", line, err)
				}
				r, rerr := loadkit.ReadK6Export(export)
				if rerr != nil {
					t.Errorf("%q: %v; no export: %v\n%s", line, err, rerr, out)
					continue
				}
				for _, c := range r.Crossed {
					if !strings.Contains(c, ": p(") { // a latency target may be crossed on a busy machine
						t.Errorf("%q: threshold crossed: %s\n%s", line, c, out)
					}
				}
				if r.All().Requests == 0 || r.All().Wrong != 0 {
					t.Errorf("%q: %+v\n%s", line, r.All(), out)
				}
			case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/streamload":
				if stack == nil {
					t.Fatalf("%q before any load local", line)
				}
				if testing.Short() {
					t.Logf("-short: %q not run", line)
					continue
				}
				bin := filepath.Join(t.TempDir(), "streamload")
				build := exec.Command("go", "build", "-o", bin, "./cmd/streamload")
				build.Dir = root
				if out, err := build.CombinedOutput(); err != nil {
					t.Fatalf("build streamload: %v\n%s", err, out)
				}
				args := append(append([]string{}, words[3:]...), "-plans", "2", "-subscribers", "2", "-duration", "300ms", "-sources", "1", "-settle", "0s", "-drain", "1s")
				cmd := exec.Command(bin, args...)
				cmd.Dir = stack.dir
				if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "lost 0") {
					t.Errorf("%q: %v\n%s", line, err, out)
				}
			default:
				t.Errorf("docs/load-testing.md command %q: this test does not know how to check it; teach it", line)
			}
		}
	}
	if k6 != "" && k6Runs == 0 {
		t.Error("no k6 command in docs/load-testing.md")
	}
}
