// Package procfs reads what the load tools measure of a process from Linux's
// /proc (resident memory, CPU time, the open-file limit) and raises this
// process's own open-file limit. cmd/streamload and cmd/floodcheck share it.
package procfs

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// RaiseNoFile lifts this process's soft RLIMIT_NOFILE to its hard limit (a
// load tool holds a descriptor per connection) and returns both limits as
// they then stand.
func RaiseNoFile() (soft, hard uint64, err error) {
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

// NoFile reads the soft open-file limit of process pid from
// /proc/<pid>/limits.
func NoFile(pid int) (uint64, error) {
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

// Memory is a process's resident set, from /proc/<pid>/status.
type Memory struct {
	RSS  int64 `json:"rssBytes"`     // VmRSS
	Peak int64 `json:"rssPeakBytes"` // VmHWM
}

// ReadMemory reads process pid's resident set ("self" for this process).
func ReadMemory(pid string) (Memory, error) {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return Memory{}, err
	}
	defer f.Close()
	return parseStatus(f)
}

func parseStatus(r io.Reader) (Memory, error) {
	var m Memory
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

// CPU is the CPU time (user + system) process pid (or "self") has used so
// far.
func CPU(pid string) (time.Duration, error) {
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
