package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// raiseNoFile lifts this process's soft RLIMIT_NOFILE to its hard limit (every
// stream is a descriptor) and returns both limits as they then stand.
func raiseNoFile() (soft, hard uint64, err error) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0, 0, err
	}
	if r.Cur < r.Max {
		raised := r
		raised.Cur = raised.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err == nil {
			r = raised
		}
	}
	return r.Cur, r.Max, nil
}

// procNoFile reads the soft open-file limit of process pid from
// /proc/<pid>/limits: the relay holds one descriptor per stream too, so its
// limit caps the run as much as ours.
func procNoFile(pid int) (uint64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/limits", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return parseLimits(f)
}

func parseLimits(r io.Reader) (uint64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "Max open files")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			break
		}
		if f[0] == "unlimited" {
			return 1 << 62, nil
		}
		return strconv.ParseUint(f[0], 10, 64)
	}
	return 0, fmt.Errorf("no \"Max open files\" line")
}

// procMemory is a process's resident set, from /proc/<pid>/status.
type procMemory struct {
	RSS  int64 `json:"rssBytes"`     // VmRSS
	Peak int64 `json:"rssPeakBytes"` // VmHWM
}

func readProcMemory(pid string) (procMemory, error) {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return procMemory{}, err
	}
	defer f.Close()
	return parseStatus(f)
}

func parseStatus(r io.Reader) (procMemory, error) {
	var m procMemory
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return m, fmt.Errorf("%s: %w", name, err)
		}
		if name == "VmRSS" {
			m.RSS = kb << 10
		} else {
			m.Peak = kb << 10
		}
	}
	if m.RSS == 0 {
		return m, fmt.Errorf("no VmRSS line")
	}
	return m, sc.Err()
}

// userHZ is the unit of the CPU times in /proc/<pid>/stat: 100 on every
// Linux port (the kernel's USER_HZ, not its internal HZ).
const userHZ = 100

// procCPU is the CPU time (user + system) process pid has used so far.
func procCPU(pid string) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStat(string(b))
}

// parseStat reads utime and stime, fields 14 and 15 of /proc/<pid>/stat;
// they are counted after the command name, which is in parentheses and may
// hold spaces.
func parseStat(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	f := strings.Fields(stat[i+1:])
	if i < 0 || len(f) < 13 {
		return 0, fmt.Errorf("a short /proc stat line")
	}
	var ticks int64
	for _, s := range f[11:13] { // fields 14 and 15; f[0] is field 3
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

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
