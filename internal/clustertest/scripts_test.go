package clustertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cutShort matches a pipe into head: under `set -o pipefail` the writer
// on the left may be killed by SIGPIPE when head exits early, and the
// whole pipeline then fails with 141 — a race that stays green on a warm
// machine and turned CI red on a fresh one (`haproxy -v | head -n 1` in
// run.sh). `sed -n 1p` reads its input to the end.
var cutShort = regexp.MustCompile(`\|\s*head\b`)

// TestScriptsNeverPipeIntoHead checks every shell script CI runs, and the
// Makefile, for a pipe into head.
func TestScriptsNeverPipeIntoHead(t *testing.T) {
	root := repoRoot(t)
	out, err := exec.Command("git", "-C", root, "ls-files", "*.sh", ".ci/run", "Makefile", "deploy/*.sh").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	files := strings.Fields(string(out))
	if len(files) < 3 {
		t.Fatalf("found only %d scripts: %v", len(files), files)
	}
	for _, name := range files {
		body, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(body), "\n") {
			if cutShort.MatchString(line) {
				t.Errorf("%s:%d pipes into head, which can end the pipeline with SIGPIPE (141) under pipefail; use sed -n 1p:\n\t%s", name, i+1, strings.TrimSpace(line))
			}
		}
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}
