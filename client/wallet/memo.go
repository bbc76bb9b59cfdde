package wallet

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// MaxMemoText is the ledger's limit on a text memo, in bytes.
const MaxMemoText = 28

// maxMemoPart bounds a flow token's memo part before it is decoded: the
// longest memo, "return:" and 64 hex digits, is 95 base64url characters.
const maxMemoPart = 95

// Memo is a forward's memo as people write it and as a recovery record and
// a flow token (CONTRACT section 13) keep it: Type "text", "id", "hash" or
// "return", and its Value. The zero Memo is no memo.
//
// A Memo has one spelling, String, the relay's: the text's bytes as given;
// the id in decimal without leading zeros; a hash or return as 64
// lowercase hex digits. ParseMemo writes nothing else, so two spellings of
// one memo never differ when compared.
type Memo struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// ParseMemo reads "text:…", "id:…", "hash:…" or "return:…", as `closerelayctl
// mediator mint --memo` and the relay's mint route take them: a text of 1
// to 28 bytes of UTF-8, kept byte for byte; an id an unsigned 64-bit
// decimal number without sign or leading zeros; a hash or return 64 hex
// digits (32 bytes), either case. The error names the form that is wrong.
func ParseMemo(s string) (Memo, error) {
	typ, value, ok := strings.Cut(s, ":")
	if !ok {
		return Memo{}, fmt.Errorf("wallet: a memo is text:…, id:…, hash:… or return:…, not %q", clip(s))
	}
	switch typ {
	case "text":
		if value == "" || len(value) > MaxMemoText || !utf8.ValidString(value) {
			return Memo{}, fmt.Errorf("wallet: a text: memo is 1 to %d bytes of UTF-8 (this one is %d bytes)", MaxMemoText, len(value))
		}
		return Memo{Type: typ, Value: value}, nil
	case "id":
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil || value != strconv.FormatUint(n, 10) {
			return Memo{}, errors.New("wallet: an id: memo is an unsigned 64-bit decimal number, without sign or leading zeros")
		}
		return Memo{Type: typ, Value: value}, nil
	case "hash", "return":
		if len(value) != 64 {
			return Memo{}, fmt.Errorf("wallet: a %s: memo is 64 hex digits (32 bytes), not %d characters", typ, len(value))
		}
		if _, err := hex.DecodeString(value); err != nil {
			return Memo{}, fmt.Errorf("wallet: a %s: memo is 64 hex digits (32 bytes): it holds a character that is not one", typ)
		}
		return Memo{Type: typ, Value: strings.ToLower(value)}, nil
	}
	return Memo{}, fmt.Errorf("wallet: a memo's type is text, id, hash or return, not %q", clip(typ))
}

// clip shortens what an error quotes back of a bad input.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// IsZero reports whether m is no memo.
func (m Memo) IsZero() bool { return m == Memo{} }

// String renders the memo as "<type>:<value>" ("" for no memo).
func (m Memo) String() string {
	if m.IsZero() {
		return ""
	}
	return m.Type + ":" + m.Value
}

// Txn is the memo as txnbuild builds it. It is checked as ParseMemo checks
// a memo: a record edited by hand cannot put another memo on a forward.
func (m Memo) Txn() (txnbuild.Memo, error) {
	p, err := ParseMemo(m.String())
	if err != nil {
		return nil, err
	}
	if p != m {
		return nil, fmt.Errorf("wallet: the memo %s is not written as the relay writes it (%s)", m, p)
	}
	switch m.Type {
	case "text":
		return txnbuild.MemoText(m.Value), nil
	case "id":
		n, _ := strconv.ParseUint(m.Value, 10, 64) // checked by ParseMemo
		return txnbuild.MemoID(n), nil
	}
	var h [32]byte
	_, _ = hex.Decode(h[:], []byte(m.Value)) // checked by ParseMemo
	if m.Type == "hash" {
		return txnbuild.MemoHash(h), nil
	}
	return txnbuild.MemoReturn(h), nil
}

// MemoOf renders a txnbuild memo; a transaction without a memo has none to
// render, and is an error: a forward exists to carry one.
func MemoOf(m txnbuild.Memo) (Memo, error) {
	switch v := m.(type) {
	case txnbuild.MemoText:
		return Memo{Type: "text", Value: string(v)}, nil
	case txnbuild.MemoID:
		return Memo{Type: "id", Value: strconv.FormatUint(uint64(v), 10)}, nil
	case txnbuild.MemoHash:
		return Memo{Type: "hash", Value: hex.EncodeToString(v[:])}, nil
	case txnbuild.MemoReturn:
		return Memo{Type: "return", Value: hex.EncodeToString(v[:])}, nil
	}
	return Memo{}, errors.New("wallet: a forward carries a text, id, hash or return memo")
}

// tokenPart is m as a flow token's fifth part (CONTRACT section 13): its
// spelling in base64url without padding.
func (m Memo) tokenPart() string {
	return base64.RawURLEncoding.EncodeToString([]byte(m.String()))
}

// memoOfTokenPart reads a flow token's fifth part. Like the relay, it
// accepts only the one spelling tokenPart writes.
func memoOfTokenPart(part string) (Memo, error) {
	bad := errors.New("wallet: the flow token's memo part is not a memo in base64url")
	if part == "" || len(part) > maxMemoPart {
		return Memo{}, bad
	}
	raw, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return Memo{}, bad
	}
	m, err := ParseMemo(string(raw))
	if err != nil || m.tokenPart() != part {
		return Memo{}, bad
	}
	return m, nil
}
