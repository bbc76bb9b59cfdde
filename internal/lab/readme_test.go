package lab

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/ctl"
)

// The commands of README.md and of the pages under docs/, run as written:
// the README's "Close an account, step by step" against `closerelaylab load
// local` (TestReadmeCloseAnAccount), docs/load-testing.md
// (TestReadmeLoadCommands), and every other shell block of the README and
// of docs/*.md (TestReadmeOtherCommands). A command none of them knows
// fails the test: teach it rather than leave a line unchecked.

// docPages are the pages under docs/ that the README links to, each
// self-contained, whose commands these tests run or check; docs/API.md is
// the wire reference and holds examples, not commands to paste.
var docPages = []string{"docs/command-line.md", "docs/javascript.md", "docs/operating.md", "docs/load-testing.md"}

// docText is the text of the file rel under the repository root.
func docText(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readmeSection is the text of README.md's "## title" section.
func readmeSection(t *testing.T, root, title string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n## "+title+"\n")
	if i < 0 {
		t.Fatalf("README.md has no %q section", "## "+title)
	}
	s = s[i+1:]
	if j := strings.Index(s[3:], "\n## "); j >= 0 {
		s = s[:j+3]
	}
	return s
}

// shBlocks are the ```sh blocks of a piece of Markdown, as written.
func shBlocks(md string) []string {
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(md, -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// commandLines are a block's command lines: comments cut off, lines
// continued with a backslash joined, blank lines dropped.
func commandLines(block string) []string {
	var lines []string
	for line := range strings.SplitSeq(strings.ReplaceAll(block, "\\\n", " "), "\n") {
		if k := strings.Index(line, " #"); k >= 0 {
			line = line[:k]
		}
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	return lines
}

// buildTools builds closerelayctl and closerelaylab into dir/bin, as `make
// build` does, and returns dir/bin.
func buildTools(t *testing.T, root, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	for _, name := range []string{"closerelayctl", "closerelaylab"} {
		cmd := exec.Command("go", "build", "-o", filepath.Join(bin, name), "./cmd/"+name)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", name, err, out)
		}
	}
	return bin
}

// cleanEnv is an environment with none of the variables the commands read,
// HOME set to home (so the cache directory is under it) and PATH as the
// test's.
func cleanEnv(home string) []string {
	return []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
}

// TestReadmeCloseAnAccount runs README.md's "Close an account, step by
// step" as written (issue 23's walk-through): the first block's `make build`
// is the binaries this test builds, its `bin/closerelaylab load local` runs
// as the built binary in the background with HOME in a temporary directory;
// every later block runs, in order, as one bash script (set -e, pipefail)
// from a directory that stands for the repository root, in an environment
// without any CLOSERELAY_* variable: what the README sets is all it has.
func TestReadmeCloseAnAccount(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the command lines and runs the walk-through")
	}
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the README's walk-through uses it", tool)
		}
	}
	root := repoRoot(t)
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := shBlocks(readmeSection(t, root, "Close an account, step by step"))
	if len(blocks) < 2 {
		t.Fatalf("the walk-through has %d shell blocks, want the first shell's and the second's", len(blocks))
	}
	dir, home := t.TempDir(), t.TempDir()
	bin := buildTools(t, root, dir)

	var stack *exec.Cmd
	var stackOut *bufio.Scanner
	for _, line := range commandLines(blocks[0]) {
		words := strings.Fields(line)
		switch {
		case len(words) == 2 && words[0] == "make":
			if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(words[1]) + `:`).Match(makefile) {
				t.Errorf("%q: the Makefile has no target %s", line, words[1])
			}
		case len(words) >= 3 && words[0] == "bin/closerelaylab" && words[1] == "load" && words[2] == "local":
			stack = exec.Command(filepath.Join(bin, "closerelaylab"), words[1:]...)
			stack.Dir, stack.Env = dir, cleanEnv(home)
			pr, pw := io.Pipe()
			stack.Stdout, stack.Stderr = pw, pw
			if err := stack.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_ = stack.Process.Kill()
				_ = stack.Wait()
				pw.Close()
			})
			stackOut = bufio.NewScanner(pr)
		default:
			t.Errorf("first shell: README command %q: this test does not know how to run it; teach it", line)
		}
	}
	if stack == nil {
		t.Fatal("the walk-through's first block starts no `bin/closerelaylab load local`")
	}
	ready := make(chan string, 1)
	go func() {
		defer close(ready)
		for stackOut.Scan() {
			if l := stackOut.Text(); strings.HasPrefix(l, "ready ") {
				ready <- l
				break
			}
		}
		for stackOut.Scan() { // keep the pipe drained
		}
	}()
	var readyLine string
	select {
	case readyLine = <-ready:
	case <-time.After(60 * time.Second):
		t.Fatal("load local: no ready line after 60 s")
	}
	keys := filepath.Join(home, ".cache", "closerelay", "load-local", "load-keys.env")
	if !strings.Contains(readyLine, " keys="+keys+" ") {
		t.Fatalf("ready line %q: want the keys file in the user's cache directory, %s", readyLine, keys)
	}
	for _, name := range []string{"load-keys.env", "load-payload.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("load local wrote %s into the working directory", name)
		}
	}

	script := "set -eu -o pipefail\n" + strings.Join(blocks[1:], "\n")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sh := exec.CommandContext(ctx, "bash", "-c", script)
	sh.Dir, sh.Env = dir, cleanEnv(home)
	var stdout, stderr strings.Builder
	sh.Stdout, sh.Stderr = &stdout, &stderr
	if err := sh.Run(); err != nil {
		t.Fatalf("the walk-through's second shell: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^plan [0-9a-f]{64} on testnet\n  submission: none \(not published with --submit\)\n  version 1, weight 1/3: 2 more needed$`), // status
		// watch runs in the background from before the first sign, but may
		// connect after it: the states it prints first are not fixed, its
		// last one is.
		regexp.MustCompile(`(?m)^weight 2/3: 1 more needed$`),                                           // the first co-signer's sign
		regexp.MustCompile(`(?m)^v3 weight 3/3 .*threshold met`),                                        // watch, before it exits
		regexp.MustCompile(`(?m)^submitted plan [0-9a-f]{64}: transaction [0-9a-f]{64} in ledger \d+$`), // submit
		regexp.MustCompile(`(?m)^404$`),                                                                 // the account is gone
	} {
		if !want.MatchString(out) {
			t.Errorf("the walk-through's output has no line %s\nstdout:\n%s\nstderr:\n%s", want, out, stderr.String())
		}
	}
	if n := len(regexp.MustCompile(`(?m)^plan [0-9a-f]{64} on testnet$`).FindAllString(out, -1)); n != 3 {
		t.Errorf("the walk-through printed %d statuses, want 3 (the blocked plan, the close, the mediator close)", n)
	}
	// Step 0: the plan of the account given sub-entries is blocked, and
	// its status says so first.
	if !regexp.MustCompile(`(?m)^do not sign this close: the ledger would refuse it$`).MatchString(out) || !strings.Contains(out, "op_has_sub_entries") {
		t.Errorf("the walk-through's step 0 shows no blocked plan:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^the co-signers' page: http://127\.0\.0\.1:\d+/plan/[0-9a-f]{64}$`).MatchString(stderr.String()) {
		t.Errorf("publish printed no page for co-signers:\n%s", stderr.String())
	}

	if err := stack.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := stack.Wait(); err != nil {
		t.Errorf("load local after Ctrl-C: %v", err)
	}
}

// TestReadmeOtherCommands checks the shell blocks of every other section
// of README.md and of the docs/ pages: make targets exist, the binaries named are this
// repository's commands (their help runs), the image build names the
// Containerfile as the Containerfile itself says to build it.
func TestReadmeOtherCommands(t *testing.T) {
	root := repoRoot(t)
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	containerfile, err := os.ReadFile(filepath.Join(root, "deploy", "Containerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var sections []string
	for _, doc := range append([]string{"README.md"}, docPages...) {
		if doc == "docs/load-testing.md" {
			continue // run by TestReadmeLoadCommands
		}
		sections = append(sections, regexp.MustCompile(`(?m)^## `).Split(docText(t, root, doc), -1)...)
	}
	checked := 0
	for _, sec := range sections {
		title, _, _ := strings.Cut(sec, "\n")
		if title == "Close an account, step by step" {
			continue // run by TestReadmeCloseAnAccount
		}
		for _, block := range shBlocks(sec) {
			for _, line := range commandLines(block) {
				for cmd := range strings.SplitSeq(line, "&&") {
					checked++
					words := strings.Fields(cmd)
					switch {
					case len(words) == 2 && words[0] == "make":
						if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(words[1]) + `:`).Match(makefile) {
							t.Errorf("%q: the Makefile has no target %s", line, words[1])
						}
					case len(words) == 1 && words[0] == "bin/closerelay":
						if _, err := os.Stat(filepath.Join(root, "cmd", "closerelay", "main.go")); err != nil || !strings.Contains(string(makefile), "-o $(BIN) ./cmd/closerelay") {
							t.Errorf("%q: make build does not build bin/closerelay", line)
						}
					case len(words) == 2 && (words[0] == "bin/closerelayctl" || words[0] == "bin/closerelaylab") && words[1] == "help":
						var out, errOut strings.Builder
						c := &ctl.CLI{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
						var code int
						if words[0] == "bin/closerelaylab" {
							c.Prog = "closerelaylab"
							code = (&tool{c}).run([]string{"help"})
						} else {
							code = c.Run([]string{"help"})
						}
						if prog := filepath.Base(words[0]); code != ctl.ExitOK || !strings.HasPrefix(out.String(), prog+":") || !strings.Contains(out.String(), "Usage:") {
							t.Errorf("%q: exit %d %q", line, code, out.String())
						}
					case len(words) == 7 && words[0] == "podman" && words[1] == "build":
						if !strings.Contains(string(containerfile), strings.Join(words, " ")) {
							t.Errorf("%q: not the build command deploy/Containerfile gives", line)
						}
					default:
						t.Errorf("README command %q: this test does not know how to check it; teach it", line)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no shell command outside the walk-through and the load kit: the README lost its first two commands?")
	}
}

// TestDocsAreSelfContained: the README and the docs/ pages name no document
// outside the repository (the team's specification and contract, issue
// numbers), and every relative link they hold leads to a file that exists.
func TestDocsAreSelfContained(t *testing.T) {
	root := repoRoot(t)
	outside := regexp.MustCompile(`CONTRACT|SPEC\b|\b[Ii]ssue \d+|shared/`)
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	for _, doc := range append([]string{"README.md", "docs/API.md", "deploy/RUNBOOK.md"}, docPages...) {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := outside.FindString(line); m != "" {
				t.Errorf("%s:%d names %q, which is not in the repository: %s", doc, i+1, m, line)
			}
			for _, m := range link.FindAllStringSubmatch(line, -1) {
				target := filepath.Join(root, filepath.Dir(doc), m[1])
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s:%d links to %s, which does not exist", doc, i+1, m[1])
				}
			}
		}
	}
}

// TestReadmeLayoutIsGoList: the README's layout table names every package
// `go list ./...` lists, each once, and nothing that is neither a package
// nor a directory of the repository. A package added without its row
// fails here; add one row, `| \`path\` | its job |`.
func TestReadmeLayoutIsGoList(t *testing.T) {
	root := repoRoot(t)
	layout := readmeSection(t, root, "Layout")
	cmd := exec.Command("go", "list", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	module := "github.com/closerelay/closerelay"
	named := map[string]int{}
	for _, row := range strings.Split(layout, "\n") {
		if !strings.HasPrefix(row, "| `") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(row, "| "), " | ")
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(first, -1) {
			named[m[1]]++
		}
	}
	for _, pkg := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		if rel == "" {
			rel = "."
		}
		switch named[rel] {
		case 0:
			t.Errorf("the README's layout table has no row for package %s", rel)
		case 1:
		default:
			t.Errorf("the README's layout table names %s %d times", rel, named[rel])
		}
		delete(named, rel)
	}
	for name := range named {
		if fi, err := os.Stat(filepath.Join(root, name)); err != nil || !fi.IsDir() {
			t.Errorf("the README's layout table names %s, which is neither a package nor a directory", name)
		}
	}
}

// TestAPIMediatorSectionAgrees: docs/API.md's mediator section (6) does not
// say the service never submits anything, which section 3.8 (the forward
// the relay builds, signs and submits itself) contradicts; it says when the
// relay runs the forward and links there.
func TestAPIMediatorSectionAgrees(t *testing.T) {
	api := docText(t, repoRoot(t), "docs/API.md")
	_, sec, ok := strings.Cut(api, "\n## 6. Mediator\n")
	if !ok {
		t.Fatal("docs/API.md has no section 6. Mediator")
	}
	sec, _, _ = strings.Cut(sec, "\n### 6.1")
	flat := strings.Join(strings.Fields(sec), " ")
	if strings.Contains(flat, "It never submits anything") {
		t.Errorf("docs/API.md section 6 says the service never submits anything: %q", flat)
	}
	if !strings.Contains(sec, "(#38-the-mediator-forward-run-by-the-relay)") || !strings.Contains(flat, "submits the forward itself") {
		t.Errorf("docs/API.md section 6 does not say when the relay submits the forward itself (3.8): %q", flat)
	}
}

// tableRows are the first-column cells of the first Markdown table after
// the line that starts with header in md, and each row whole.
func tableRows(t *testing.T, md, header string) (firsts, rows []string) {
	t.Helper()
	i := strings.Index(md, "\n"+header)
	if i < 0 {
		t.Fatalf("no table with header %q", header)
	}
	for _, line := range strings.Split(md[i+1:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
		firsts, rows = append(firsts, first), append(rows, line)
	}
	return firsts, rows
}

// TestBenchmarksLeadWithCurrentFigures: BENCHMARKS.md opens with the
// current figure of every target of the load kit (each target of
// docs/load-testing.md's table has its row, with a figure and a verdict)
// and says which command produced it; the history it moved to
// docs/benchmarks-history.md is there, and BENCHMARKS.md stays short
// enough to read.
func TestBenchmarksLeadWithCurrentFigures(t *testing.T) {
	root := repoRoot(t)
	bench := docText(t, root, "BENCHMARKS.md")
	if n := strings.Count(bench, "\n"); n > 150 {
		t.Errorf("BENCHMARKS.md has %d lines: the current figures first, the history in docs/benchmarks-history.md", n)
	}
	first := strings.Index(bench, "\n## ")
	if first < 0 || !strings.HasPrefix(bench[first:], "\n## The load kit's targets (`make bench-load`)\n") {
		t.Fatal("BENCHMARKS.md's first section is not the load kit's targets")
	}
	targets, _ := tableRows(t, docText(t, root, "docs/load-testing.md"), "| target (two cores, one run) |")
	names, rows := tableRows(t, bench, "| target (two cores, one run) | bound | current figure |")
	if len(targets) < 5 {
		t.Fatalf("docs/load-testing.md lists %d targets", len(targets))
	}
	for _, target := range targets {
		k := slices.IndexFunc(names, func(n string) bool { return strings.HasPrefix(n, target) })
		if k < 0 {
			t.Errorf("BENCHMARKS.md gives no current figure for the target %q", target)
			continue
		}
		if cells := strings.Split(rows[k], " | "); len(cells) < 6 || !regexp.MustCompile(`[0-9]`).MatchString(cells[2]) || (cells[4] != "met" && cells[4] != "not met") {
			t.Errorf("BENCHMARKS.md's row for %q has no figure or no verdict: %s", target, rows[k])
		}
	}
	history := docText(t, root, "docs/benchmarks-history.md")
	if !strings.Contains(bench, "(docs/benchmarks-history.md)") || !strings.Contains(history, "## New signers, round 5") {
		t.Error("BENCHMARKS.md does not link the history, or the history lost its last session")
	}
}
