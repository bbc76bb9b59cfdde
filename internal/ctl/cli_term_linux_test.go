package ctl

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/closerelay/closerelay/internal/syncbuf"
	"github.com/stellar/go-stellar-sdk/keypair"
)

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

// openPTY opens a pseudo-terminal pair with the kernel's /dev/ptmx, or
// skips the test where there is none.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	var unlock int32
	var n uint32
	if err := ioctl(m, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Skipf("unlock the pseudo-terminal: %v", err)
	}
	if err := ioctl(m, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Skipf("name the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// echoing reports whether the terminal echoes what is typed.
func echoing(t *testing.T, tty *os.File) bool {
	t.Helper()
	var tio syscall.Termios
	if err := ioctl(tty, syscall.TCGETS, unsafe.Pointer(&tio)); err != nil {
		t.Fatal(err)
	}
	return tio.Lflag&syscall.ECHO != 0
}

// TestSecretFromATerminal types a seed on a pseudo-terminal: it is read,
// and the terminal shows none of it.
func TestSecretFromATerminal(t *testing.T) {
	master, slave := openPTY(t)
	if !echoing(t, slave) {
		t.Skip("the pseudo-terminal does not echo to begin with")
	}
	kp := keypair.MustRandom()
	var stderr syncbuf.Buffer
	c := &CLI{Stdin: slave, Stdout: &syncbuf.Buffer{}, Stderr: &stderr, Getenv: func(string) string { return "" }}
	type read struct {
		kp  *keypair.Full
		err error
	}
	done := make(chan read, 1)
	go func() {
		kp, err := c.readSecret(EnvSecret)
		done <- read{kp, err}
	}()
	// Type only once echo is off: the line discipline echoes what arrives
	// while it is on, whoever reads it. ReadPassword turns it off before it
	// reads; nothing signals that but the terminal's own state.
	for echoing(t, slave) {
		runtime.Gosched()
	}
	if _, err := master.WriteString(kp.Seed() + "\n"); err != nil {
		t.Fatal(err)
	}
	got := <-done
	if got.err != nil || got.kp.Address() != kp.Address() {
		t.Fatalf("read %v, %v; want %s", got.kp, got.err, kp.Address())
	}
	if !echoing(t, slave) {
		t.Error("echo was not turned back on")
	}
	// What the terminal displayed: everything up to a marker written after.
	if _, err := slave.WriteString("END\n"); err != nil {
		t.Fatal(err)
	}
	var shown strings.Builder
	sc := bufio.NewScanner(master)
	for sc.Scan() {
		shown.WriteString(sc.Text() + "\n")
		if strings.HasPrefix(sc.Text(), "END") {
			break
		}
	}
	if strings.Contains(shown.String(), kp.Seed()) || strings.Contains(shown.String(), kp.Seed()[:8]) {
		t.Fatalf("the terminal echoed the seed: %q", shown.String())
	}
	if !strings.HasPrefix(stderr.String(), "secret seed (S…, not shown as you type): ") || strings.Contains(stderr.String(), kp.Seed()) {
		t.Fatalf("prompt %q", stderr.String())
	}
}
