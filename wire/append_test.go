package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSignedAppendJSONIsMarshal: the hand-written encoding is byte for byte
// json.Marshal's, plain strings or not.
func TestSignedAppendJSONIsMarshal(t *testing.T) {
	yes, no := true, false
	for _, s := range []Signed{
		{},
		{OK: true, Network: "testnet", XDR: "AAAAAgAAAAB+/==", Signers: []string{"GA", "GB"}, Weight: 2, Threshold: 3, Ready: true, Landable: &yes},
		{OK: true, Network: "mainnet", XDR: "AAAA", Signers: []string{}, Weight: -1, Threshold: 255, Landable: &no},
		{Network: `a"b`, XDR: "<&>", Signers: []string{"é", "\x7f", "\n", `\`}},
		{XDR: "\u2028"},
	} {
		checkSignedAppend(t, s)
	}
}

func FuzzSignedAppendJSON(f *testing.F) {
	f.Add(true, "testnet", "AAAA+/==", "GA", "GB", 2, 3, true, 1)
	f.Add(false, `"`, "<", "\x00", "é", -5, 0, false, 0)
	f.Fuzz(func(t *testing.T, ok bool, network, x, k1, k2 string, weight, threshold int, ready bool, landable int) {
		s := Signed{OK: ok, Network: network, XDR: x, Weight: weight, Threshold: threshold, Ready: ready}
		switch landable % 3 {
		case 1:
			s.Landable = &ready
		case 2:
			s.Signers = []string{k1, k2}
		}
		checkSignedAppend(t, s)
	})
}

func checkSignedAppend(t *testing.T, s Signed) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.AppendJSON([]byte("prefix")); string(got) != "prefix"+string(want) {
		t.Errorf("AppendJSON(%+v) = %s, json.Marshal %s", s, got[len("prefix"):], want)
	}
}

// TestPlainJSONIsByteWise: the table-driven plainJSON agrees with the
// byte-wise rule for every byte value at every position, next to plain
// and to non-plain neighbours.
func TestPlainJSONIsByteWise(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 24} {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				for _, fill := range []byte{'A', '~', ' ', '+'} {
					b := make([]byte, n)
					for i := range b {
						b[i] = fill
					}
					b[pos] = byte(c)
					want := true
					for _, x := range b {
						want = want && plainByte(x)
					}
					if got := plainJSON(string(b)); got != want {
						t.Fatalf("plainJSON(%q) = %v, byte by byte %v", b, got, want)
					}
				}
			}
		}
	}
	// The borders of every range, each the only odd byte.
	for _, c := range []byte{0x1f, 0x20, 0x21, 0x22, 0x23, 0x25, 0x26, 0x27, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0xff, 0x00} {
		s := "AAAA" + string([]byte{c}) + "AAA"
		if got, want := plainJSON(s), plainByte(c); got != want {
			t.Errorf("plainJSON(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzPlainJSON(f *testing.F) {
	f.Add("AAAAAgAAAAB+/==")
	f.Add("GABC<DEF\x00")
	f.Fuzz(func(t *testing.T, s string) {
		want := true
		for i := 0; i < len(s); i++ {
			want = want && plainByte(s[i])
		}
		if got := plainJSON(s); got != want {
			t.Fatalf("plainJSON(%q) = %v, byte by byte %v", s, got, want)
		}
	})
}

// BenchmarkPlainJSON is plainJSON over an envelope-sized base64 string.
func BenchmarkPlainJSON(b *testing.B) {
	s := strings.Repeat("AAAAAgAAAAB+/Zz9", 190) // 3,040 bytes
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if !plainJSON(s) {
			b.Fatal("not plain")
		}
	}
}
