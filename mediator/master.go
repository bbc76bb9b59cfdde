package mediator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/strkey"
)

// secretLen is the length of a seed strkey: "S" plus 55 base32 characters.
const secretLen = 56

// HMAC message prefixes (SPEC "Key derivation"). Distinct prefixes keep a
// flow key from ever equalling a token MAC under the same master.
const (
	flowKeyPrefix   = "mediator-flow-key:"
	flowTokenPrefix = "mediator-flow-token:"
)

// ParseSecretEnv is the configuration loader's shape check of MEDIATOR_SECRET:
// empty means unset and is accepted (the service then runs without a
// mediator); anything else must be "S" followed by 55 characters. It does not
// decode the seed: that stricter check runs at first use (ParseMaster), so a
// bad checksum surfaces as MEDIATOR_NOT_CONFIGURED rather than a start failure,
// as SPEC describes.
func ParseSecretEnv(s string) error {
	if s == "" {
		return nil
	}
	if len(s) != secretLen || s[0] != 'S' {
		return ErrSecretFormat
	}
	return nil
}

// Master is the 32-byte raw ed25519 seed behind MEDIATOR_SECRET, used only as
// an HMAC key. It is never a signing key: nothing is ever signed by the
// keypair of the seed itself.
//
// Master refuses to print its bytes through fmt and log/slog, so a stray
// debug line cannot leak it.
type Master struct {
	key [32]byte
}

// ParseMaster is the strict check of MEDIATOR_SECRET: the value must decode as
// an ed25519 seed strkey. It returns ErrNotConfigured for an empty value and
// ErrMalformedSecret for anything else that does not decode; neither error
// mentions the value.
func ParseMaster(secret string) (Master, error) {
	if secret == "" {
		return Master{}, ErrNotConfigured
	}
	raw, err := strkey.Decode(strkey.VersionByteSeed, secret)
	if err != nil || len(raw) != 32 {
		// strkey's own error is dropped: it describes the value.
		return Master{}, ErrMalformedSecret
	}
	var m Master
	copy(m.key[:], raw)
	return m, nil
}

// Format prints a placeholder for every verb, so %v, %x, %#v and %d of a
// Master (or of a struct holding one) never reveal the key.
func (Master) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte("mediator.Master(redacted)")) }

// LogValue keeps log/slog from rendering the key, in text or JSON.
func (Master) LogValue() slog.Value { return slog.StringValue("redacted") }

func (m Master) mac(message string) []byte {
	h := hmac.New(sha256.New, m.key[:])
	h.Write([]byte(message))
	return h.Sum(nil)
}

// FlowKeypair derives a flow's mediator keypair: the 32-byte
// HMAC-SHA-256(master, "mediator-flow-key:"+nonceHex) is the ed25519 seed.
// The same master and nonce always give the same keypair, which is why no
// per-flow key is ever stored and any instance can co-sign any flow.
func (m Master) FlowKeypair(nonceHex string) (*keypair.Full, error) {
	var seed [32]byte
	copy(seed[:], m.mac(flowKeyPrefix+nonceHex))
	return keypair.FromRawSeed(seed)
}

// TokenMAC is the lowercase hex of
// HMAC-SHA-256(master, "mediator-flow-token:"+nonceHex+"."+expiry+"."+destination).
// expiry is the token's expiry part exactly as written in the token.
func (m Master) TokenMAC(nonceHex, expiry, destination string) string {
	return hex.EncodeToString(m.mac(flowTokenPrefix + nonceHex + "." + expiry + "." + destination))
}
