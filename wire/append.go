package wire

import (
	"encoding/json"
	"strconv"
)

// AppendJSON appends s encoded exactly as encoding/json.Marshal encodes it.
// The sign route renders one answer per version of a plan, and with every
// co-signer adding a version that is one encoding per new signer, mostly
// the envelope's base64: written here without reflection or escaping scans
// when every string is plain ASCII (base64, G… keys, network names), and
// through json.Marshal otherwise.
func (s Signed) AppendJSON(dst []byte) []byte {
	if !plainJSON(s.Network) || !plainJSON(s.XDR) || !allPlainJSON(s.Signers) {
		b, err := json.Marshal(s)
		if err != nil { // never: strings, ints and bools always encode
			panic(err)
		}
		return append(dst, b...)
	}
	dst = append(dst, `{"ok":`...)
	dst = strconv.AppendBool(dst, s.OK)
	dst = append(dst, `,"network":"`...)
	dst = append(dst, s.Network...)
	dst = append(dst, `","xdr":"`...)
	dst = append(dst, s.XDR...)
	dst = append(dst, `","signers":`...)
	if s.Signers == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, k := range s.Signers {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '"')
			dst = append(dst, k...)
			dst = append(dst, '"')
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"weight":`...)
	dst = strconv.AppendInt(dst, int64(s.Weight), 10)
	dst = append(dst, `,"threshold":`...)
	dst = strconv.AppendInt(dst, int64(s.Threshold), 10)
	dst = append(dst, `,"ready":`...)
	dst = strconv.AppendBool(dst, s.Ready)
	dst = append(dst, `,"landable":`...)
	if s.Landable == nil {
		dst = append(dst, "null"...)
	} else {
		dst = strconv.AppendBool(dst, *s.Landable)
	}
	return append(dst, '}')
}

// plainJSON reports whether encoding/json writes s as is between quotes:
// printable ASCII without the quote, the backslash and the characters it
// escapes for HTML (<, >, &). The sign route asks it of every answer's
// envelope and signers, some 3 KB a new signer; a table lookup per byte
// reads them about three times as fast as the comparisons plainByte makes
// (BenchmarkPlainJSON).
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if !plainBytes[s[i]] {
			return false
		}
	}
	return true
}

// plainByte is plainJSON for one byte.
func plainByte(c byte) bool {
	return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

// plainBytes is plainByte for every byte value.
var plainBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = plainByte(byte(c))
	}
	return t
}()

func allPlainJSON(ss []string) bool {
	for _, s := range ss {
		if !plainJSON(s) {
			return false
		}
	}
	return true
}
