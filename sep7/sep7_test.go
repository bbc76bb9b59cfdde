package sep7_test

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stellar/go-stellar-sdk/network"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/sep7"
)

// txRequest is a SEP-7 "tx" request as a wallet reads it.
type txRequest struct {
	XDR, Passphrase, Msg, Callback string
	HasPassphrase, HasMsg          bool
	HasCallback                    bool
	Params                         []string // names in order
}

// parseTx reads a link the way SEP-7 (v1.2.0) describes it, strictly:
//
//   - "web+stellar:" then the operation, here "tx", with no "//";
//   - then "?" and name=value pairs joined by "&";
//   - each value is URL-encoded: here every byte is RFC 3986 unreserved or a
//     %XX escape. A raw "+" is refused, since form decoding would read it as
//     a space; any other reserved byte would be ambiguous too;
//   - xdr is required, base64 after decoding;
//   - callback, when present, starts with the "url:" prefix ("url%3A" once
//     encoded), the only callback type SEP-7 defines;
//   - msg is at most 300 characters before encoding;
//   - network_passphrase is optional: absent means the public network.
func parseTx(uri string) (txRequest, error) {
	var r txRequest
	rest, ok := strings.CutPrefix(uri, "web+stellar:")
	if !ok {
		return r, errors.New("not a web+stellar: URI")
	}
	op, query, ok := strings.Cut(rest, "?")
	if !ok || op != "tx" {
		return r, fmt.Errorf("operation %q is not tx", op)
	}
	seen := map[string]bool{}
	for _, pair := range strings.Split(query, "&") {
		name, raw, ok := strings.Cut(pair, "=")
		if !ok || name == "" {
			return r, fmt.Errorf("parameter %q is not name=value", pair)
		}
		if seen[name] {
			return r, fmt.Errorf("parameter %q repeated", name)
		}
		seen[name] = true
		r.Params = append(r.Params, name)
		v, err := percentDecode(raw)
		if err != nil {
			return r, fmt.Errorf("%s: %w", name, err)
		}
		switch name {
		case "xdr":
			r.XDR = v
		case "network_passphrase":
			r.Passphrase, r.HasPassphrase = v, true
		case "msg":
			if n := utf8.RuneCountInString(v); n > 300 {
				return r, fmt.Errorf("msg has %d characters, above 300", n)
			}
			r.Msg, r.HasMsg = v, true
		case "callback":
			u, ok := strings.CutPrefix(v, "url:")
			if !ok {
				return r, fmt.Errorf("callback %q has no url: prefix", v)
			}
			r.Callback, r.HasCallback = u, true
		case "replace", "pubkey", "origin_domain", "signature", "chain":
		default:
			return r, fmt.Errorf("unknown parameter %q", name)
		}
	}
	if r.XDR == "" {
		return r, errors.New("xdr missing")
	}
	return r, nil
}

// percentDecode is RFC 3986 percent-decoding that accepts only unreserved
// characters and %XX escapes (hex in either case).
func percentDecode(s string) (string, error) {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%':
			if i+2 >= len(s) {
				return "", fmt.Errorf("truncated escape at %d", i)
			}
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				return "", fmt.Errorf("bad escape %q", s[i:i+3])
			}
			b = append(b, hi<<4|lo)
			i += 2
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b = append(b, c)
		default:
			return "", fmt.Errorf("raw %q must be percent-encoded", c)
		}
	}
	return string(b), nil
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// mustParse parses with the strict parser and checks that net/url's form
// decoding of the same query agrees, value for value.
func mustParse(t *testing.T, uri string) txRequest {
	t.Helper()
	r, err := parseTx(uri)
	if err != nil {
		t.Fatalf("parse %q: %v", uri, err)
	}
	_, q, _ := strings.Cut(uri, "?")
	vals, err := url.ParseQuery(q)
	if err != nil {
		t.Fatalf("net/url: %v", err)
	}
	want := map[string]string{"xdr": r.XDR}
	if r.HasPassphrase {
		want["network_passphrase"] = r.Passphrase
	}
	if r.HasMsg {
		want["msg"] = r.Msg
	}
	if r.HasCallback {
		want["callback"] = "url:" + r.Callback
	}
	if len(vals) != len(want) {
		t.Fatalf("net/url sees %d parameters, the strict parser %d", len(vals), len(want))
	}
	for k, v := range want {
		if got := vals.Get(k); got != v {
			t.Fatalf("net/url reads %s=%q, the strict parser %q", k, got, v)
		}
	}
	return r
}

// The xdr of SEP-7's example 1, and that example's encoded values.
const (
	sepXDR        = "AAAAAP+yw+ZEuNg533pUmwlYxfrq6/BoMJqiJ8vuQhf6rHWmAAAAZAB8NHAAAAABAAAAAAAAAAAAAAABAAAAAAAAAAEAAAAA/7LD5kS42DnfelSbCVjF+urr8GgwmqIny+5CF/qsdaYAAAAAAAAAAACYloAAAAAAAAAAAA"
	sepXDREncoded = "AAAAAP%2Byw%2BZEuNg533pUmwlYxfrq6%2FBoMJqiJ8vuQhf6rHWmAAAAZAB8NHAAAAABAAAAAAAAAAAAAAABAAAAAAAAAAEAAAAA%2F7LD5kS42DnfelSbCVjF%2Burr8GgwmqIny%2B5CF%2FqsdaYAAAAAAAAAAACYloAAAAAAAAAAAA"
)

func TestTxURIMatchesSEPExample(t *testing.T) {
	got := sep7.TxURI(sepXDR, ledger.Mainnet, "order number 24", "https://someSigningService.com/a8f7asdfkjha")
	want := "web+stellar:tx?xdr=" + sepXDREncoded +
		"&msg=order%20number%2024" +
		"&callback=url%3Ahttps%3A%2F%2FsomeSigningService.com%2Fa8f7asdfkjha"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

// Escape reproduces every encoded value SEP-7's text spells out.
func TestEscapeMatchesSEPText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{sepXDR, sepXDREncoded},
		{"url:https://someSigningService.com/a8f7asdfkjha", "url%3Ahttps%3A%2F%2FsomeSigningService.com%2Fa8f7asdfkjha"},
		{"url:https://someSigningService.com/hasysda987fs?asset=USD", "url%3Ahttps%3A%2F%2FsomeSigningService.com%2Fhasysda987fs%3Fasset%3DUSD"},
		{"order number 24", "order%20number%2024"},
		{"pay me with lumens", "pay%20me%20with%20lumens"},
		{"JTlGMGzxUv90P2SWxUY9xo+LlbXaDloend6gkpyylY8X4bUNf6/9mFTMJs7JKqSDPRtejlK1kQvrsJfRZSJeAQ==",
			"JTlGMGzxUv90P2SWxUY9xo%2BLlbXaDloend6gkpyylY8X4bUNf6%2F9mFTMJs7JKqSDPRtejlK1kQvrsJfRZSJeAQ%3D%3D"},
		{"sourceAccount:X,operations[0].sourceAccount:Y,operations[1].destination:Y;X:account from where you want to pay fees,Y:account that needs the trustline and which will receive the new tokens",
			"sourceAccount%3AX%2Coperations%5B0%5D.sourceAccount%3AY%2Coperations%5B1%5D.destination%3AY%3BX%3Aaccount%20from%20where%20you%20want%20to%20pay%20fees%2CY%3Aaccount%20that%20needs%20the%20trustline%20and%20which%20will%20receive%20the%20new%20tokens"},
		{"", ""},
		{"AZaz09-._~", "AZaz09-._~"},
		{"!*'();:@&=+$,/?#[]% \"<>\\^`{|}\x00\x7f", "%21%2A%27%28%29%3B%3A%40%26%3D%2B%24%2C%2F%3F%23%5B%5D%25%20%22%3C%3E%5C%5E%60%7B%7C%7D%00%7F"},
		{"é€🚀", "%C3%A9%E2%82%AC%F0%9F%9A%80"},
	} {
		if got := sep7.Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestNetworkPassphrase(t *testing.T) {
	for _, c := range []struct {
		n    ledger.Network
		want string // "" = omitted
	}{
		{ledger.Mainnet, ""},
		{ledger.Testnet, network.TestNetworkPassphrase},
		{ledger.Futurenet, network.FutureNetworkPassphrase},
	} {
		uri := sep7.TxURI(sepXDR, c.n, "m", "")
		r := mustParse(t, uri)
		if r.HasPassphrase != (c.want != "") || r.Passphrase != c.want {
			t.Errorf("%s: network_passphrase %v %q, want %q", c.n, r.HasPassphrase, r.Passphrase, c.want)
		}
		if c.n == ledger.Mainnet && strings.Contains(uri, "network_passphrase") {
			t.Errorf("mainnet link names a passphrase: %s", uri)
		}
	}
	// The testnet passphrase's spaces and ";" are encoded, spaces as %20.
	uri := sep7.TxURI("AAAA", ledger.Testnet, "m", "")
	if !strings.Contains(uri, "&network_passphrase=Test%20SDF%20Network%20%3B%20September%202015&") {
		t.Errorf("testnet passphrase encoding: %s", uri)
	}
	// By passphrase: the public one and an empty one are omitted, another kept.
	for _, p := range []string{"", network.PublicNetworkPassphrase} {
		if r := mustParse(t, sep7.TxURIPassphrase("AAAA", p, "m", "")); r.HasPassphrase {
			t.Errorf("passphrase %q not omitted", p)
		}
	}
	if r := mustParse(t, sep7.TxURIPassphrase("AAAA", "Standalone Network ; February 2017", "m", "")); r.Passphrase != "Standalone Network ; February 2017" {
		t.Errorf("custom passphrase: %q", r.Passphrase)
	}
}

func TestRoundTripEveryField(t *testing.T) {
	id := "6740107F233FE1B23CB2F22226A24528154172B811329E31DD4D27568A94A7C2"
	cb := sep7.Callback("https://relay.example.org/base/", id)
	if want := "https://relay.example.org/base/api/plan/" + strings.ToLower(id) + "/sign"; cb != want {
		t.Fatalf("Callback = %q, want %q", cb, want)
	}
	msgs := []string{
		"order number 24",
		"  leading and trailing  ",
		"a+b=c&d=e?f#g/h%20i",
		"Zahlung für Müller — 東京 🚀 ; x",
		"line\nbreak\ttab",
		"<script>alert(1)</script>",
	}
	for _, msg := range msgs {
		uri := sep7.TxURI(sepXDR, ledger.Testnet, msg, cb)
		if strings.ContainsAny(uri[len("web+stellar:tx?"):], "+ /:;,") {
			t.Errorf("reserved character left raw in %q", uri)
		}
		r := mustParse(t, uri)
		if r.XDR != sepXDR || r.Passphrase != network.TestNetworkPassphrase || r.Msg != msg || r.Callback != cb {
			t.Errorf("round trip of %q: %+v", msg, r)
		}
		if got, want := strings.Join(r.Params, ","), "xdr,network_passphrase,msg,callback"; got != want {
			t.Errorf("parameters %s, want %s", got, want)
		}
	}
}

func TestSpacesArePercent20(t *testing.T) {
	uri := sep7.TxURI("AAAA", ledger.Testnet, "a b  c", "http://127.0.0.1:8080")
	if _, q, _ := strings.Cut(uri, "?"); strings.Contains(q, "+") {
		t.Fatalf("a + in the query of %s", uri)
	}
	if !strings.Contains(uri, "&msg=a%20b%20%20c") {
		t.Fatalf("msg encoding: %s", uri)
	}
}

func TestMsgAlwaysPresentAndBounded(t *testing.T) {
	r := mustParse(t, sep7.TxURI("AAAA", ledger.Mainnet, "", ""))
	if !r.HasMsg || r.Msg != sep7.DefaultMsg {
		t.Fatalf("empty msg: %+v", r)
	}
	if n := utf8.RuneCountInString(sep7.DefaultMsg); n > sep7.MaxMsgRunes {
		t.Fatalf("DefaultMsg has %d runes", n)
	}
	id := strings.Repeat("ab", 32)
	if n := utf8.RuneCountInString(sep7.PlanMsg(id)); n > sep7.MaxMsgRunes {
		t.Fatalf("PlanMsg has %d runes", n)
	}
	for _, c := range []struct {
		name string
		in   string
		want string
	}{
		{"299 ascii", strings.Repeat("a", 299), strings.Repeat("a", 299)},
		{"300 ascii", strings.Repeat("a", 300), strings.Repeat("a", 300)},
		{"301 ascii", strings.Repeat("a", 301), strings.Repeat("a", 300)},
		{"301 two-byte", strings.Repeat("é", 301), strings.Repeat("é", 300)},
		{"emoji at the edge", strings.Repeat("a", 299) + "🚀🚀", strings.Repeat("a", 299) + "🚀"},
		{"1000 emoji", strings.Repeat("🚀", 1000), strings.Repeat("🚀", 300)},
		{"invalid utf-8", "ab\xffcd", "ab\uFFFDcd"},
	} {
		got := sep7.Msg(c.in)
		if got != c.want {
			t.Errorf("%s: Msg = %q (%d runes), want %d runes", c.name, got, utf8.RuneCountInString(got), utf8.RuneCountInString(c.want))
		}
		if !utf8.ValidString(got) {
			t.Errorf("%s: invalid UTF-8 out", c.name)
		}
		r := mustParse(t, sep7.TxURI("AAAA", ledger.Testnet, c.in, ""))
		if r.Msg != c.want {
			t.Errorf("%s: the link's msg is %d runes", c.name, utf8.RuneCountInString(r.Msg))
		}
	}
}

func TestCallback(t *testing.T) {
	id := strings.Repeat("AB", 32)
	if got := sep7.Callback("", id); got != "" {
		t.Fatalf("no public URL: %q", got)
	}
	r := mustParse(t, sep7.ForPlan(ledger.Testnet, id, "AAAA", ""))
	if r.HasCallback {
		t.Fatalf("callback without a public URL: %+v", r)
	}
	for _, base := range []string{"https://relay.example", "https://relay.example/", "http://127.0.0.1:8080"} {
		uri := sep7.ForPlan(ledger.Mainnet, id, "AAAA", base)
		r := mustParse(t, uri)
		want := strings.TrimSuffix(base, "/") + "/api/plan/" + strings.Repeat("ab", 32) + "/sign"
		if !r.HasCallback || r.Callback != want {
			t.Errorf("%s: callback %q, want %q", base, r.Callback, want)
		}
		if !strings.Contains(uri, "&callback=url%3Ahttp") {
			t.Errorf("%s: callback not url%%3A-prefixed: %s", base, uri)
		}
		if r.Msg != sep7.PlanMsg(id) || !strings.Contains(r.Msg, strings.Repeat("ab", 32)) {
			t.Errorf("%s: msg %q", base, r.Msg)
		}
		if r.HasPassphrase {
			t.Errorf("mainnet with a passphrase")
		}
	}
}

func FuzzTxURIRoundTrip(f *testing.F) {
	f.Add(sepXDR, "order number 24", "https://relay.example/x?y=z&w=%20", 1)
	f.Add("AAAA+/==", "", "", 0)
	f.Add("", "Zahlung für Müller 🚀", "http://127.0.0.1:8080", 2)
	f.Add("a b", strings.Repeat("é", 301), "u\xff", 1)
	nets := []ledger.Network{ledger.Mainnet, ledger.Testnet, ledger.Futurenet}
	f.Fuzz(func(t *testing.T, xdr, msg, callback string, ni int) {
		if xdr == "" {
			xdr = "AAAA"
		}
		n := nets[(ni%3+3)%3]
		uri := sep7.TxURI(xdr, n, msg, callback)
		r := mustParse(t, uri)
		if r.XDR != xdr || r.Msg != sep7.Msg(msg) || r.Callback != callback || r.HasCallback != (callback != "") {
			t.Fatalf("round trip: %+v", r)
		}
		if r.HasPassphrase != (n != ledger.Mainnet) || (r.HasPassphrase && r.Passphrase != n.Passphrase()) {
			t.Fatalf("network %s: %+v", n, r)
		}
	})
}
