package check

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// nonrootUID is distroless's "nonroot", the image's USER.
const nonrootUID = 65532

// relayBinary is CLOSERELAY_BIN (deploy/check.sh builds it once, the way
// deploy/Containerfile does), or else a binary built here the same way.
func relayBinary(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("CLOSERELAY_BIN"); bin != "" {
		return bin
	}
	// Not t.TempDir: its parent directory is 0700, so the unprivileged user
	// the binary runs as (startRelay) could not reach the binary inside it.
	dir, err := os.MkdirTemp("", "closerelay-binary-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "closerelay")
	// The Containerfile's build line.
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", "-s -w", "-o", bin, "./cmd/closerelay")
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/closerelay (as in deploy/Containerfile): %v\n%s", err, out)
	}
	return bin
}

// relayProc is one running closerelay on loopback.
type relayProc struct {
	api, ops string // http://host:port of each listener
	cmd      *exec.Cmd
	exited   chan error // receives cmd.Wait's result once

	logMu sync.Mutex
	log   []string
}

// startRelay runs bin on loopback ports (as the image's non-root user when
// the test runs as root: proves nothing needs root) with the given extra
// environment, and waits for its "closerelay serving" line, which names both
// listeners. The process is killed at the end of the test if still running.
func startRelay(t *testing.T, ctx context.Context, bin string, env ...string) *relayProc {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin)
	cmd.Env = append([]string{
		"LISTEN_ADDR=127.0.0.1:0",
		"OPS_ADDR=127.0.0.1:0",
		"LOG_FORMAT=json",
		"LOG_LEVEL=info",
		"SHUTDOWN_TIMEOUT=15s",
		// Never reached: no request of these tests needs the account API.
		"HORIZON_URL_MAINNET=http://127.0.0.1:9",
		"HORIZON_URL_TESTNET=http://127.0.0.1:9",
		"HORIZON_URL_FUTURENET=http://127.0.0.1:9",
	}, env...)
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nonrootUID, Gid: nonrootUID}}
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &relayProc{cmd: cmd, exited: make(chan error, 1)}
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	addrs := make(chan [2]string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.logMu.Lock()
			p.log = append(p.log, sc.Text())
			p.logMu.Unlock()
			var rec struct{ Msg, API, Ops string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "closerelay serving" {
				addrs <- [2]string{rec.API, rec.Ops}
			}
		}
		// Wait only after stderr is drained (os/exec's rule for pipes).
		p.exited <- cmd.Wait()
	}()
	select {
	case a := <-addrs:
		p.api, p.ops = "http://"+a[0], "http://"+a[1]
	case <-time.After(20 * time.Second):
		p.dumpLog(t)
		t.Fatal(`no "closerelay serving" log line within 20 s`)
	}
	return p
}

func (p *relayProc) dumpLog(t *testing.T) {
	t.Helper()
	p.logMu.Lock()
	defer p.logMu.Unlock()
	t.Logf("service log:\n%s", strings.Join(p.log, "\n"))
}
