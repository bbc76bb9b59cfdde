package procfs

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestParseLimits(t *testing.T) {
	const limits = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            18000                20000                files
Max locked memory         8388608              8388608              bytes
`
	if n, err := parseLimits(strings.NewReader(limits)); err != nil || n != 18000 {
		t.Errorf("parseLimits = %d, %v; want the soft limit 18000", n, err)
	}
	if _, err := parseLimits(strings.NewReader("Max cpu time unlimited unlimited seconds\n")); err == nil {
		t.Error("no open-files line: want an error")
	}
	if runtime.GOOS != "linux" {
		return // no /proc to read this process's limits from
	}
	if n, err := NoFile(os.Getpid()); err != nil || n == 0 {
		t.Errorf("this process's limit: %d, %v", n, err)
	}
}

func TestParseStatus(t *testing.T) {
	const status = "Name:\tcloserelay\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t7\n"
	m, err := parseStatus(strings.NewReader(status))
	if err != nil || m != (Memory{RSS: 100 << 20, Peak: 200 << 20}) {
		t.Errorf("parseStatus = %+v, %v", m, err)
	}
	if _, err := parseStatus(strings.NewReader("Name:\tx\n")); err == nil {
		t.Error("no VmRSS: want an error")
	}
	if runtime.GOOS != "linux" {
		return
	}
	if m, err := ReadMemory("self"); err != nil || m.RSS <= 0 || m.Peak < m.RSS {
		t.Errorf("this process: %+v, %v", m, err)
	}
}

func TestParseStat(t *testing.T) {
	// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
	const stat = "4242 (close relay) S 1 4242 4242 0 -1 4194560 900 0 0 0 1234 566 0 0 20 0 9 0 100 0 0"
	if d, err := parseStat(stat); err != nil || d != 18*time.Second {
		t.Errorf("parseStat = %s, %v; want 18s (1234 + 566 ticks)", d, err)
	}
	if _, err := parseStat("4242 (x) S 1"); err == nil {
		t.Error("a short line: want an error")
	}
	if runtime.GOOS != "linux" {
		return
	}
	if d, err := CPU("self"); err != nil || d < 0 {
		t.Errorf("this process: %s, %v", d, err)
	}
}
