package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// scrapedMetrics are the unlabelled samples of the ops listener's /metrics
// that say how much memory the relay holds and for how many streams.
var scrapedMetrics = []string{
	"process_resident_memory_bytes",
	"go_memstats_heap_inuse_bytes",
	"go_memstats_stack_inuse_bytes",
	"go_memstats_sys_bytes",
	"go_goroutines",
	"go_gc_duration_seconds_count",
	"closerelay_stream_subscribers",
}

func scrapeMetrics(ctx context.Context, c *http.Client, ops string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(ops, "/")+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	return parseMetrics(resp.Body, scrapedMetrics)
}

// parseMetrics picks the named unlabelled samples out of the Prometheus text
// format; a name missing from the page is missing from the map.
func parseMetrics(r io.Reader, names []string) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		for _, want := range names {
			if f[0] == want {
				v, err := strconv.ParseFloat(f[1], 64)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", want, err)
				}
				out[want] = v
			}
		}
	}
	return out, sc.Err()
}
