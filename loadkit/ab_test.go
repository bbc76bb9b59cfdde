package loadkit_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/loadkit"
)

// TestABReport reads bench-ab.sh's files back: the median ratios per build
// and new over old, a burst that was not new signers left out.
func TestABReport(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// One core 20,000/s, two 40,000/s in every round.
	for round := 1; round <= 3; round++ {
		write(fmt.Sprintf("raw-%d.txt", round), "BenchmarkRawEd25519Verify \t1\t50000 ns/op\nBenchmarkRawEd25519Verify-2 \t1\t25000 ns/op\n")
		for build, admit := range map[string]float64{"old": 20000, "new": 22000} {
			admitted := 9500
			if build == "new" && round == 3 {
				admitted, admit = 0, 90000 // replays, not new signers: left out
			}
			write(fmt.Sprintf("admit-%s-%d.json", build, round), fmt.Sprintf(`{"connections":64,"requests":9500,"rps":%g,"p99":12,"admitted":%d}`, admit+float64(round), admitted))
			write(fmt.Sprintf("replay-%s-%d.json", build, round), fmt.Sprintf(`{"generator":"wrk","scenario":"replay","connections":64,"seconds":10,"requests":%d,"wrong":0,"p99":8}`, 400000+round))
		}
	}
	rounds, err := loadkit.LoadAB(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	admit, replay := loadkit.WriteAB(&out, rounds)
	// old: 20,001 to 20,003 a second, median 20,002; new: 22,001 and 22,002, median 22,001.5.
	if want := 22001.5 / 20002; admit < want-1e-9 || admit > want+1e-9 || replay < 0.999 || replay > 1.001 {
		t.Fatalf("new/old admit %v replay %v\n%s", admit, replay, out.String())
	}
	if !strings.Contains(out.String(), "INVALID: 0 admitted of 9500") || !strings.Contains(out.String(), "over 2 valid bursts") {
		t.Fatalf("report:\n%s", out.String())
	}
}
