// Package sep7 builds the SEP-7 "tx" links (web+stellar:tx?…) that ask a
// co-signer's wallet to sign a plan's transaction (CONTRACT section 11).
//
// A link carries, in this order:
//
//   - xdr: the plan's current envelope (base64);
//   - network_passphrase: only off mainnet, since SEP-7 defaults to the
//     public network;
//   - msg: always present, at most MaxMsgRunes characters before encoding;
//   - callback: "url:" + <PUBLIC_URL>/api/plan/<id>/sign, only when the relay
//     knows its public URL, so a wallet posts the signed envelope back as a
//     form (POST /api/plan/{id}/sign, application/x-www-form-urlencoded).
//
// Every value is percent-encoded: each byte outside RFC 3986's unreserved set
// (ALPHA, DIGIT, "-", ".", "_", "~") becomes %XX with upper-case hex. So a
// space is %20 (never +), base64's "+", "/" and "=" are %2B, %2F and %3D, and
// the callback's "url:https://…" reads "url%3Ahttps%3A%2F%2F…", as in the
// SEP's own examples.
//
// The package is pure: no I/O, no state.
package sep7

import (
	"strings"
	"unicode/utf8"

	"github.com/closerelay/closerelay/ledger"
)

// Scheme is the URI scheme with its operation, up to the query.
const Scheme = "web+stellar:tx"

// MaxMsgRunes is SEP-7's limit on msg: 300 characters before URL-encoding.
// closerelay counts Unicode code points (runes).
const MaxMsgRunes = 300

// DefaultMsg stands in for an empty msg: CONTRACT 11 wants msg present.
const DefaultMsg = "Co-sign this account close collected by closerelay. Check the transaction before you sign."

// publicPassphrase is SEP-7's default network; a link for it omits
// network_passphrase.
var publicPassphrase = ledger.Mainnet.Passphrase()

// TxURI is the SEP-7 tx link for an envelope on network n. msg is cut to
// MaxMsgRunes characters (DefaultMsg when empty); callback, when not empty,
// is the absolute URL a wallet should post the signed envelope to (see
// Callback) and is sent with SEP-7's "url:" prefix.
//
// n should be one of the three networks. An unknown one has no passphrase
// and so reads as the public network, as a link without the parameter does.
func TxURI(xdr string, n ledger.Network, msg, callback string) string {
	return TxURIPassphrase(xdr, n.Passphrase(), msg, callback)
}

// TxURIPassphrase is TxURI for a network given by its passphrase. The public
// network's passphrase, or an empty one, omits network_passphrase.
func TxURIPassphrase(xdr, passphrase, msg, callback string) string {
	var b strings.Builder
	b.Grow(len(Scheme) + len(xdr)*11/10 + len(passphrase)*2 + len(msg)*3 + len(callback)*2 + 64)
	b.WriteString(Scheme)
	b.WriteString("?xdr=")
	b.WriteString(Escape(xdr))
	if passphrase != "" && passphrase != publicPassphrase {
		b.WriteString("&network_passphrase=")
		b.WriteString(Escape(passphrase))
	}
	b.WriteString("&msg=")
	b.WriteString(Escape(Msg(msg)))
	if callback != "" {
		b.WriteString("&callback=")
		b.WriteString(Escape("url:" + callback))
	}
	return b.String()
}

// Callback is the callback URL of plan id under the relay's public base URL:
// <publicURL>/api/plan/<id in lowercase>/sign, or "" when publicURL is empty
// (no PUBLIC_URL, no callback). A trailing "/" of publicURL is dropped.
func Callback(publicURL, id string) string {
	publicURL = strings.TrimRight(publicURL, "/")
	if publicURL == "" {
		return ""
	}
	return publicURL + "/api/plan/" + strings.ToLower(id) + "/sign"
}

// PlanMsg is the msg closerelay sends for plan id: what is asked, and where
// the signature goes. It is well below MaxMsgRunes.
func PlanMsg(id string) string {
	return "closerelay plan " + strings.ToLower(id) + ": co-sign this account close. Check the transaction before you sign."
}

// ForPlan is the link of CONTRACT 11 for a plan: its current envelope xdr on
// network n, PlanMsg(id), and Callback(publicURL, id). The JSON route
// GET /api/plan/{id}/sep7 and the HTML page both use it, so they agree.
func ForPlan(n ledger.Network, id, xdr, publicURL string) string {
	return TxURI(xdr, n, PlanMsg(id), Callback(publicURL, id))
}

// Msg is msg as a link carries it: DefaultMsg when empty, invalid UTF-8
// replaced by U+FFFD, then cut to at most MaxMsgRunes runes (never inside a
// rune).
func Msg(msg string) string {
	if msg == "" {
		return DefaultMsg
	}
	msg = strings.ToValidUTF8(msg, "\uFFFD")
	if utf8.RuneCountInString(msg) <= MaxMsgRunes {
		return msg
	}
	n := 0
	for i := range msg {
		if n == MaxMsgRunes {
			return msg[:i]
		}
		n++
	}
	return msg
}

// Escape percent-encodes s for a SEP-7 query value: every byte that is not
// RFC 3986 unreserved (ALPHA / DIGIT / "-" / "." / "_" / "~") is written as
// %XX with upper-case hex digits. Unlike url.QueryEscape it writes a space
// as %20, and unlike url.PathEscape it also encodes ":", "@", "&", "=", "+",
// "$", "," and ";", so no value can end a parameter early or decode
// differently under form rules.
func Escape(s string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if !unreserved(s[i]) {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	out := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if unreserved(c) {
			out = append(out, c)
			continue
		}
		out = append(out, '%', hex[c>>4], hex[c&15])
	}
	return string(out)
}

func unreserved(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case c == '-', c == '.', c == '_', c == '~':
		return true
	}
	return false
}
