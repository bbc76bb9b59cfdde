package mediator

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stellar/go-stellar-sdk/strkey"

	mt "github.com/closerelay/closerelay/mediator/mediatortest"
)

func TestParseSecretEnv(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		ok          bool
	}{
		{"unset", "", true},
		{"valid seed", testSecret, true},
		{"right shape bad checksum", badChecksum, true},
		{"S and 55 of anything", "S" + strings.Repeat("!", 55), true},
		{"public key", testDest, false},
		{"lowercase s", "s" + testSecret[1:], false},
		{"55 characters", testSecret[:55], false},
		{"57 characters", testSecret + "A", false},
		{"leading space", " " + testSecret[:55], false},
		{"just S", "S", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ParseSecretEnv(tc.value)
			if (err == nil) != tc.ok {
				t.Fatalf("ParseSecretEnv = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && len(tc.value) > 8 && strings.Contains(err.Error(), tc.value) {
				t.Fatalf("error %q contains the value", err)
			}
		})
	}
}

func TestParseMaster(t *testing.T) {
	m, err := ParseMaster(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	raw := strkey.MustDecode(strkey.VersionByteSeed, testSecret)
	if !bytes.Equal(m.key[:], raw) {
		t.Fatal("master is not the raw seed")
	}

	if _, err := ParseMaster(""); !errors.Is(err, ErrNotConfigured) || err.Error() != "mediator secret is not set" {
		t.Errorf("unset: %v", err)
	}
	for _, bad := range []string{
		badChecksum,
		"S" + strings.Repeat("A", 55),
		testDest, // a public key is not a seed
		testSecret[:55],
		testSecret + "A",
		strings.ToLower(testSecret),
		" " + testSecret,
		mt.Muxed(testDest, 1),
	} {
		_, err := ParseMaster(bad)
		if !errors.Is(err, ErrMalformedSecret) || err.Error() != "mediator secret is not a valid ed25519 seed" {
			t.Errorf("ParseMaster(%q) = %v, want ErrMalformedSecret", bad, err)
		}
	}
}

// TestMasterRedacted: no formatting verb or slog handler prints the key.
func TestMasterRedacted(t *testing.T) {
	m := testMaster(t)
	keyHex := hex.EncodeToString(m.key[:])
	holder := struct{ M Master }{m}
	out := fmt.Sprintf("%v %+v %#v %s %x %X %d %q | %v %+v %#v", m, m, m, m, m, m, m, m, holder, holder, holder)
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "master", m)
	slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "master", m)
	out += buf.String()
	for _, leak := range []string{keyHex, strings.ToUpper(keyHex), testSecret, fmt.Sprint(m.key[0], " ", m.key[1], " ", m.key[2])} {
		if strings.Contains(out, leak) {
			t.Fatalf("formatted master leaks %q:\n%s", leak, out)
		}
	}
	if !strings.Contains(out, "redacted") {
		t.Fatalf("no placeholder in %s", out)
	}
}

// TestDerivationSeparation: the flow key and the token MAC come from
// different messages, and different nonces give different keys.
func TestDerivationSeparation(t *testing.T) {
	m := testMaster(t)
	nonce := strings.Repeat("ab", 16)
	a, err := m.FlowKeypair(nonce)
	if err != nil {
		t.Fatal(err)
	}
	b := must(m.FlowKeypair(nonce))
	if a.Address() != b.Address() {
		t.Fatal("derivation is not deterministic")
	}
	c := must(m.FlowKeypair(strings.Repeat("ab", 15) + "ac"))
	if a.Address() == c.Address() {
		t.Fatal("different nonces gave one key")
	}
	d := must(otherMaster(t).FlowKeypair(nonce))
	if a.Address() == d.Address() {
		t.Fatal("different masters gave one key")
	}
	// The master's own keypair never appears as a mediator.
	self := "GBAPTQLWNEVAUE7QL5ABAURVSTLR3UPJXGZ6KVDJROB65WCPVRS3BIOM"
	if a.Address() == self {
		t.Fatal("flow key is the master's own key")
	}
}

// TestSecretMessagesDistinct: the start-time shape check and the two
// first-use outcomes say different things, so an operator can tell a value
// that is not even seed-shaped from one that is unset or fails its checksum;
// none of the three names the value.
func TestSecretMessagesDistinct(t *testing.T) {
	shape := ParseSecretEnv("S")
	_, unset := ParseMaster("")
	_, malformed := ParseMaster(badChecksum)
	if !errors.Is(shape, ErrSecretFormat) || !errors.Is(unset, ErrNotConfigured) || !errors.Is(malformed, ErrMalformedSecret) {
		t.Fatalf("errors: %v / %v / %v", shape, unset, malformed)
	}
	msgs := map[string]bool{shape.Error(): true, unset.Error(): true, malformed.Error(): true}
	if len(msgs) != 3 {
		t.Fatalf("messages are not distinct: %v", msgs)
	}
	if ParseSecretEnv(badChecksum) != nil {
		t.Fatal("the start-time check decodes the seed; SPEC leaves that to first use")
	}
	for m := range msgs {
		if strings.Contains(m, badChecksum[1:20]) || strings.Contains(m, testSecret[1:20]) {
			t.Errorf("message %q names a value", m)
		}
	}
}
