package mediator

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/closerelay/closerelay/errcode"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// MaxMemoTextBytes is the ledger's limit on a MEMO_TEXT, in bytes.
const MaxMemoTextBytes = 28

// maxMemoPartLen bounds a token's memo part before it is decoded: the longest
// canonical memo, "return:" and 64 hex characters (71 bytes), is 95 base64url
// characters.
const maxMemoPartLen = 95

// The memo types of CONTRACT section 13, as written before the colon.
const (
	memoTypeText   = "text"
	memoTypeID     = "id"
	memoTypeHash   = "hash"
	memoTypeReturn = "return"
)

// Memo is a forward memo committed in a flow token (CONTRACT section 13). The
// zero Memo is "no commitment": a four-part token, whose forward may carry
// any memo. A non-zero Memo is one of MEMO_TEXT, MEMO_ID, MEMO_HASH or
// MEMO_RETURN with its value, and a forward must carry exactly it.
//
// A Memo has one spelling, String: "text:" and the text's bytes as given;
// "id:" and the decimal value without leading zeros; "hash:" or "return:"
// and 64 lowercase hex characters. The token's fifth part is that spelling
// in base64url without padding, so one memo gives one token part.
type Memo struct {
	typ  xdr.MemoType // MemoTypeMemoNone for the zero Memo
	text string
	id   uint64
	hash xdr.Hash // MEMO_HASH and MEMO_RETURN
}

// ParseMemo reads a `memo` query value, "<type>:<value>":
//
//   - text:<t>   t is valid UTF-8 of 1 to 28 bytes, kept byte for byte (no
//     trimming, no normalization: the ledger compares bytes);
//   - id:<n>     n is a uint64 in decimal digits, without sign, spaces or
//     leading zeros ("0" itself is allowed);
//   - hash:<h>   h is 64 hex characters, either case (rendered lowercase);
//   - return:<h> likewise.
//
// The type is lowercase exactly as listed. Anything else, the empty string
// included, is an *errcode.Error with INVALID_MEMO (400).
func ParseMemo(s string) (Memo, error) {
	m, reason := parseMemo(s)
	if reason != "" {
		return Memo{}, errcode.New(errcode.InvalidMemo, reason)
	}
	return m, nil
}

// parseMemo is ParseMemo with the refusal as a reason ("" when valid).
func parseMemo(s string) (Memo, string) {
	typ, value, ok := strings.Cut(s, ":")
	if !ok {
		return Memo{}, "memo must be <type>:<value> with type text, id, hash or return"
	}
	switch typ {
	case memoTypeText:
		if value == "" || len(value) > MaxMemoTextBytes || !utf8.ValidString(value) {
			return Memo{}, "a text memo must be valid UTF-8 of 1 to 28 bytes"
		}
		return Memo{typ: xdr.MemoTypeMemoText, text: value}, ""
	case memoTypeID:
		if !canonicalDecimal(value) {
			return Memo{}, "an id memo must be a decimal uint64 without sign or leading zeros"
		}
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			return Memo{}, "an id memo must be a decimal uint64 without sign or leading zeros"
		}
		return Memo{typ: xdr.MemoTypeMemoId, id: n}, ""
	case memoTypeHash, memoTypeReturn:
		var h xdr.Hash
		if len(value) != 2*len(h) {
			return Memo{}, "a " + typ + " memo must be 64 hex characters"
		}
		if _, err := hex.Decode(h[:], []byte(value)); err != nil {
			return Memo{}, "a " + typ + " memo must be 64 hex characters"
		}
		if typ == memoTypeHash {
			return Memo{typ: xdr.MemoTypeMemoHash, hash: h}, ""
		}
		return Memo{typ: xdr.MemoTypeMemoReturn, hash: h}, ""
	}
	return Memo{}, "memo type must be text, id, hash or return"
}

// canonicalDecimal: one or more ASCII digits, with no leading zero unless the
// number is 0.
func canonicalDecimal(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IsZero reports whether m is the zero Memo: no memo committed.
func (m Memo) IsZero() bool { return m.typ == xdr.MemoTypeMemoNone }

// String is m's canonical spelling, "<type>:<value>", or "" for the zero Memo.
func (m Memo) String() string {
	switch m.typ {
	case xdr.MemoTypeMemoText:
		return memoTypeText + ":" + m.text
	case xdr.MemoTypeMemoId:
		return memoTypeID + ":" + strconv.FormatUint(m.id, 10)
	case xdr.MemoTypeMemoHash:
		return memoTypeHash + ":" + hex.EncodeToString(m.hash[:])
	case xdr.MemoTypeMemoReturn:
		return memoTypeReturn + ":" + hex.EncodeToString(m.hash[:])
	}
	return ""
}

// XDR is m as the memo a forward carries (MEMO_NONE for the zero Memo).
func (m Memo) XDR() xdr.Memo {
	switch m.typ {
	case xdr.MemoTypeMemoText:
		return xdr.MemoText(m.text)
	case xdr.MemoTypeMemoId:
		return xdr.MemoID(m.id)
	case xdr.MemoTypeMemoHash:
		return xdr.MemoHash(m.hash)
	case xdr.MemoTypeMemoReturn:
		return xdr.MemoRetHash(m.hash)
	}
	return xdr.Memo{Type: xdr.MemoTypeMemoNone}
}

// matches reports whether a forward's memo is m: the same type and the same
// value (text compared byte for byte). m must not be the zero Memo.
func (m Memo) matches(x xdr.Memo) bool {
	if x.Type != m.typ {
		return false
	}
	switch m.typ {
	case xdr.MemoTypeMemoText:
		return x.Text != nil && *x.Text == m.text
	case xdr.MemoTypeMemoId:
		return x.Id != nil && uint64(*x.Id) == m.id
	case xdr.MemoTypeMemoHash:
		return x.Hash != nil && *x.Hash == m.hash
	case xdr.MemoTypeMemoReturn:
		return x.RetHash != nil && *x.RetHash == m.hash
	}
	return false
}

// TokenPart is m as a flow token's fifth part: the canonical spelling in
// base64url without padding. "" for the zero Memo, which adds no part.
func (m Memo) TokenPart() string {
	if m.IsZero() {
		return ""
	}
	return base64.RawURLEncoding.EncodeToString([]byte(m.String()))
}

// memoFromTokenPart reads a token's fifth part. It accepts exactly the parts
// TokenPart writes: a part that decodes to a valid memo but is not that
// memo's one spelling (uppercase hex, a leading zero, padding, a line break,
// non-zero trailing bits) is refused, so one memo has one token part.
func memoFromTokenPart(part string) (Memo, bool) {
	if part == "" || len(part) > maxMemoPartLen {
		return Memo{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return Memo{}, false
	}
	m, reason := parseMemo(string(raw))
	if reason != "" || m.TokenPart() != part {
		return Memo{}, false
	}
	return m, true
}
