package buildinfo

import (
	"runtime"
	"testing"
)

// TestStampedValuesWin: what the build stamps with -ldflags is what the
// binary reports, ahead of anything the toolchain recorded.
func TestStampedValuesWin(t *testing.T) {
	defer func(v, r string) { version, revision = v, r }(version, revision)
	version, revision = "v1.2.3", "0123abc"
	if got := Version(); got != "v1.2.3" {
		t.Errorf("Version() = %q, want the stamped v1.2.3", got)
	}
	if got := Revision(); got != "0123abc" {
		t.Errorf("Revision() = %q, want the stamped 0123abc", got)
	}
	if got := GoVersion(); got != runtime.Version() {
		t.Errorf("GoVersion() = %q, want %q", got, runtime.Version())
	}
}

// TestUnstampedValuesAreNeverEmpty: a plain go build (here, the test binary)
// still reports something a label can hold.
func TestUnstampedValuesAreNeverEmpty(t *testing.T) {
	defer func(v, r string) { version, revision = v, r }(version, revision)
	version, revision = "", ""
	if Version() == "" || Revision() == "" {
		t.Errorf("Version() = %q, Revision() = %q: want non-empty fallbacks", Version(), Revision())
	}
}
