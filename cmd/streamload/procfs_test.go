package main

import (
	"maps"
	"os"
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
	if !onLinux {
		return // no /proc to read this process's limits from
	}
	if n, err := procNoFile(os.Getpid()); err != nil || n == 0 {
		t.Errorf("this process's limit: %d, %v", n, err)
	}
}

func TestParseStatus(t *testing.T) {
	const status = "Name:\tcloserelay\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t7\n"
	m, err := parseStatus(strings.NewReader(status))
	if err != nil || m != (procMemory{RSS: 100 << 20, Peak: 200 << 20}) {
		t.Errorf("parseStatus = %+v, %v", m, err)
	}
	if _, err := parseStatus(strings.NewReader("Name:\tx\n")); err == nil {
		t.Error("no VmRSS: want an error")
	}
	if !onLinux {
		return
	}
	if m, err := readProcMemory("self"); err != nil || m.RSS <= 0 || m.Peak < m.RSS {
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
	if !onLinux {
		return
	}
	if d, err := procCPU("self"); err != nil || d < 0 {
		t.Errorf("this process: %s, %v", d, err)
	}
}

func TestParseMetrics(t *testing.T) {
	const page = `# HELP go_goroutines Number of goroutines that currently exist.
# TYPE go_goroutines gauge
go_goroutines 36012
go_memstats_heap_inuse_bytes 4.2e+08
closerelay_signatures_total{result="admitted"} 6840
go_gc_duration_seconds{quantile="0.5"} 0.0001
go_gc_duration_seconds_count 7
closerelay_stream_subscribers 18000
process_resident_memory_bytes 5.5e+08
`
	got, err := parseMetrics(strings.NewReader(page), scrapedMetrics)
	want := map[string]float64{
		"go_goroutines": 36012, "go_memstats_heap_inuse_bytes": 4.2e8,
		"closerelay_stream_subscribers": 18000, "process_resident_memory_bytes": 5.5e8, "go_gc_duration_seconds_count": 7,
	}
	if err != nil || !maps.Equal(got, want) {
		t.Errorf("parseMetrics = %v, %v; want %v", got, err, want)
	}
}
