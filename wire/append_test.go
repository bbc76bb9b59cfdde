package wire

import (
	"encoding/json"
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
