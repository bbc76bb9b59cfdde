package main

import (
	"maps"
	"strings"
	"testing"
)

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
