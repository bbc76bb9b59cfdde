package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitStatus: a session with nothing but its raw rates has no target
// met (exit 1); a directory without them is a usage error (exit 2).
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	raw := "BenchmarkRawEd25519Verify \t1\t50000 ns/op\nBenchmarkRawEd25519Verify-2 \t1\t25000 ns/op\n"
	if err := os.WriteFile(filepath.Join(dir, "raw.txt"), []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	if code := run([]string{dir}, &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"20000/s on one core, 40000/s on two", "NOT MET  replays on one plan", "no result"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if code := run([]string{t.TempDir()}, &out, &errOut); code != 2 {
		t.Errorf("no raw.txt: exit %d, want 2", code)
	}
	if code := run(nil, &out, &errOut); code != 2 {
		t.Errorf("no argument: exit %d, want 2", code)
	}
}
