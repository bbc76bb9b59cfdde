package mediator

import (
	"crypto/hmac"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/stellar/go-stellar-sdk/strkey"
)

// TokenLifetime is how long a minted flow token verifies.
const TokenLifetime = 15 * time.Minute

// nonceLen is the byte length of a flow nonce; it is rendered as twice as many
// lowercase hex characters.
const nonceLen = 16

// Flow is what a verified token commits to.
type Flow struct {
	Nonce       string    // 32 lowercase hex characters; derives the mediator key
	Expiry      time.Time // the token's expiry, to the millisecond
	Destination string    // G… account that the forward must pay
	Memo        Memo      // the memo the forward must carry; zero for a four-part token (any memo)
}

// ValidDestination reports whether s is an ed25519 account address (G…).
// Muxed M… addresses are refused: the committed destination must be a plain
// account so that "pays the committed destination" has one spelling.
func ValidDestination(s string) bool {
	_, err := strkey.Decode(strkey.VersionByteAccountID, s)
	return err == nil
}

// NewToken renders a flow token for the given parts:
// nonceHex.expiryMillis.destination.macHex. It does not validate its inputs;
// Mint is the checked way to make one.
func (m Master) NewToken(nonceHex string, expiryMillis int64, destination string) string {
	return m.NewMemoToken(nonceHex, expiryMillis, destination, Memo{})
}

// NewMemoToken is NewToken with a memo commitment (CONTRACT section 13): for
// a non-zero memo the token is
// nonceHex.expiryMillis.destination.memoPart.macHex, memoPart being
// memo.TokenPart(), under the MAC of TokenMemoMAC. The zero Memo gives
// NewToken's four parts.
func (m Master) NewMemoToken(nonceHex string, expiryMillis int64, destination string, memo Memo) string {
	expiry := strconv.FormatInt(expiryMillis, 10)
	if memo.IsZero() {
		return nonceHex + "." + expiry + "." + destination + "." + m.TokenMAC(nonceHex, expiry, destination)
	}
	part := memo.TokenPart()
	return nonceHex + "." + expiry + "." + destination + "." + part + "." + m.TokenMemoMAC(nonceHex, expiry, destination, part)
}

// Mint starts a flow for destination: 16 bytes from rand make the nonce, the
// token expires TokenLifetime after now, and the mediator public key is the
// flow keypair's address. A destination that is not a G… account gives an
// *errcode.Error with INVALID_DESTINATION; a failing rand gives a plain error.
func (m Master) Mint(rand io.Reader, destination string, now time.Time) (token, mediatorPublicKey string, err error) {
	return m.MintMemo(rand, destination, Memo{}, now)
}

// MintMemo is Mint for a flow whose forward must carry memo: a five-part
// token (NewMemoToken). The zero Memo mints exactly as Mint does.
func (m Master) MintMemo(rand io.Reader, destination string, memo Memo, now time.Time) (token, mediatorPublicKey string, err error) {
	if !ValidDestination(destination) {
		return "", "", errcode.New(errcode.InvalidDestination, "destination must be a G… account address")
	}
	var nonce [nonceLen]byte
	if _, err := io.ReadFull(rand, nonce[:]); err != nil {
		return "", "", fmt.Errorf("mediator: reading nonce: %w", err)
	}
	nonceHex := hex.EncodeToString(nonce[:])
	kp, err := m.FlowKeypair(nonceHex)
	if err != nil {
		return "", "", fmt.Errorf("mediator: deriving flow key: %w", err)
	}
	return m.NewMemoToken(nonceHex, now.Add(TokenLifetime).UnixMilli(), destination, memo), kp.Address(), nil
}

// VerifyToken runs SPEC's seven checks in order, with CONTRACT section 13's
// memo part, and returns the flow the token commits to, or (nil, false) on
// any rejection. It never panics and never says which check failed, so a
// caller cannot turn it into an oracle.
//
//  1. the token is a string (the parameter's type holds this)
//  2. it has four dot-separated parts, or five with a memo commitment
//  3. the nonce matches ^[0-9a-f]{32}$
//  4. the destination is a G… account address
//     (4a. of five parts, the fourth is a memo in its one spelling: the
//     base64url, without padding, of the memo's canonical text; see Memo)
//  5. the expiry is a finite number of Unix milliseconds later than now
//  6. the MAC decodes from hex (either case) to 32 bytes, the HMAC's length
//  7. the MACs are equal under a constant-time comparison; a five-part
//     token's MAC covers the memo part too (TokenMemoMAC)
func VerifyToken(m Master, token string, now time.Time) (*Flow, bool) {
	return verifyToken(m, token, now, true)
}

// verifyToken is VerifyToken, with check 5's "later than now" only when
// fresh is set: without it, a token verifies for what its MAC commits to
// whenever it expires (SignForward's check of a flow a plan kept).
func verifyToken(m Master, token string, now time.Time, fresh bool) (*Flow, bool) {
	// SplitN bounds the work on a token made of dots: a sixth part is
	// already a rejection.
	parts := strings.SplitN(token, ".", 6)
	var nonce, expiry, dest, memoPart, macHex string
	switch len(parts) {
	case 4:
		nonce, expiry, dest, macHex = parts[0], parts[1], parts[2], parts[3]
	case 5:
		nonce, expiry, dest, memoPart, macHex = parts[0], parts[1], parts[2], parts[3], parts[4]
	default:
		return nil, false
	}
	if !validNonce(nonce) {
		return nil, false
	}
	if !ValidDestination(dest) {
		return nil, false
	}
	var memo Memo
	message := flowTokenPrefix + nonce + "." + expiry + "." + dest
	if len(parts) == 5 {
		var ok bool
		if memo, ok = memoFromTokenPart(memoPart); !ok {
			return nil, false
		}
		message += "." + memoPart
	}
	ms, ok := parseExpiry(expiry)
	// JavaScript's Date.now() is whole milliseconds; comparing against the
	// truncated clock keeps "expires at" meaning the same on both sides.
	if !ok || (fresh && !(ms > float64(now.UnixMilli()))) {
		return nil, false
	}
	got, err := hex.DecodeString(macHex)
	want := m.mac(message)
	if err != nil || len(got) != len(want) {
		return nil, false
	}
	if !hmac.Equal(got, want) {
		return nil, false
	}
	return &Flow{Nonce: nonce, Expiry: millisToTime(ms), Destination: dest, Memo: memo}, true
}

func validNonce(s string) bool {
	if len(s) != 2*nonceLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// parseExpiry reads a token's expiry as a finite number. Minted tokens always
// carry a decimal integer; other numeric spellings are read so that the check
// is "finite and in the future" as SPEC states, while the MAC (taken over the
// text) still decides. Only decimal number characters are allowed, which keeps
// out strconv's extras: "Inf", "NaN", hex floats and underscores.
func parseExpiry(s string) (float64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == 'e', c == 'E', c == '+', c == '-':
		default:
			// '.' cannot occur: it would have split the token into more parts.
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// millisToTime clamps, because converting a float beyond int64's range is
// implementation-defined in Go; such an expiry is "far future" either way.
func millisToTime(ms float64) time.Time {
	if ms >= math.MaxInt64 {
		return time.UnixMilli(math.MaxInt64)
	}
	return time.UnixMilli(int64(ms))
}

// TokenMemoMAC is the lowercase hex of
// HMAC-SHA-256(master, "mediator-flow-token:"+nonceHex+"."+expiry+"."+destination+"."+memoPart),
// the MAC of a five-part token (CONTRACT section 13). memoPart is the token's
// fourth part exactly as written (Memo.TokenPart). No part of a verified
// token holds a dot, so a four-part message (two dots) never equals a
// five-part one (three).
func (m Master) TokenMemoMAC(nonceHex, expiry, destination, memoPart string) string {
	return hex.EncodeToString(m.mac(flowTokenPrefix + nonceHex + "." + expiry + "." + destination + "." + memoPart))
}
