package mediator

import (
	"bytes"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/strkey"
)

type vector struct {
	Name              string `json:"name"`
	MasterSecret      string `json:"masterSecret"`
	NonceHex          string `json:"nonceHex"`
	MintedAtMillis    int64  `json:"mintedAtMillis"`
	ExpiryMillis      int64  `json:"expiryMillis"`
	Destination       string `json:"destination"`
	FlowSeedHex       string `json:"flowSeedHex"`
	MediatorPublicKey string `json:"mediatorPublicKey"`
	MacHex            string `json:"macHex"`
	FlowToken         string `json:"flowToken"`
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Vectors []vector }
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	return file.Vectors
}

// TestVectorsIndependent recomputes every vector with the standard library
// alone (base32, crypto/hmac, crypto/ed25519), so the file pins SPEC's
// derivation rather than whatever this package happens to do.
func TestVectorsIndependent(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			raw, err := base32.StdEncoding.DecodeString(v.MasterSecret)
			if err != nil || len(raw) != 35 || raw[0] != 18<<3 {
				t.Fatalf("master secret is not a seed strkey: %v", err)
			}
			master := raw[1:33]

			keyMAC := hmac.New(sha256.New, master)
			keyMAC.Write([]byte("mediator-flow-key:" + v.NonceHex))
			seed := keyMAC.Sum(nil)
			if hex.EncodeToString(seed) != v.FlowSeedHex {
				t.Errorf("flow seed %x, vector %s", seed, v.FlowSeedHex)
			}
			pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
			// A G… address is base32(version 6<<3, key, crc16-xmodem little-endian).
			body := append([]byte{6 << 3}, pub...)
			crc := crc16xmodem(body)
			addr := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(append(body, byte(crc), byte(crc>>8)))
			if addr != v.MediatorPublicKey {
				t.Errorf("mediator %s, vector %s", addr, v.MediatorPublicKey)
			}

			if v.ExpiryMillis != v.MintedAtMillis+15*60*1000 {
				t.Errorf("expiry is not mint time + 15 minutes")
			}
			expiry := strconv.FormatInt(v.ExpiryMillis, 10)
			tokenMAC := hmac.New(sha256.New, master)
			tokenMAC.Write([]byte("mediator-flow-token:" + v.NonceHex + "." + expiry + "." + v.Destination))
			mac := hex.EncodeToString(tokenMAC.Sum(nil))
			if mac != v.MacHex {
				t.Errorf("MAC %s, vector %s", mac, v.MacHex)
			}
			if want := v.NonceHex + "." + expiry + "." + v.Destination + "." + mac; want != v.FlowToken {
				t.Errorf("token %s, vector %s", want, v.FlowToken)
			}
		})
	}
}

// TestVectorsPackage checks this package against the same vectors.
func TestVectorsPackage(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			m, err := ParseMaster(v.MasterSecret)
			if err != nil {
				t.Fatal(err)
			}
			nonce := must(hex.DecodeString(v.NonceHex))
			mintedAt := time.UnixMilli(v.MintedAtMillis)
			token, pub, err := m.Mint(bytes.NewReader(nonce), v.Destination, mintedAt)
			if err != nil {
				t.Fatal(err)
			}
			if token != v.FlowToken || pub != v.MediatorPublicKey {
				t.Errorf("Mint = %s, %s; vector %s, %s", token, pub, v.FlowToken, v.MediatorPublicKey)
			}
			if got := m.NewToken(v.NonceHex, v.ExpiryMillis, v.Destination); got != v.FlowToken {
				t.Errorf("NewToken = %s", got)
			}
			if got := m.TokenMAC(v.NonceHex, strconv.FormatInt(v.ExpiryMillis, 10), v.Destination); got != v.MacHex {
				t.Errorf("TokenMAC = %s", got)
			}
			kp, err := m.FlowKeypair(v.NonceHex)
			if err != nil {
				t.Fatal(err)
			}
			if seed := hex.EncodeToString(strkey.MustDecode(strkey.VersionByteSeed, kp.Seed())); seed != v.FlowSeedHex {
				t.Errorf("flow seed %s", seed)
			}
			flow, ok := VerifyToken(m, v.FlowToken, mintedAt)
			if !ok || flow.Nonce != v.NonceHex || flow.Destination != v.Destination || flow.Expiry.UnixMilli() != v.ExpiryMillis {
				t.Errorf("VerifyToken = %+v, %v", flow, ok)
			}
			if _, ok := VerifyToken(m, v.FlowToken, time.UnixMilli(v.ExpiryMillis)); ok {
				t.Error("vector token verifies at its expiry")
			}
		})
	}
}

// crc16xmodem is the strkey checksum (poly 0x1021, initial 0), written out
// here so the address check does not lean on the SDK.
func crc16xmodem(b []byte) uint16 {
	var crc uint16
	for _, x := range b {
		crc ^= uint16(x) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
