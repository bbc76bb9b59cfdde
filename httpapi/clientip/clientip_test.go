package clientip

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	const peerAddr = "192.0.2.10:40000"
	tests := []struct {
		name   string
		hops   int
		remote string   // defaults to peerAddr
		xff    []string // one element per header line
		realIP []string
		want   string
	}{
		// hops 0: no trusted proxy, every header is client-written.
		{name: "0 hops no headers", hops: 0, want: "192.0.2.10"},
		{name: "0 hops ignores XFF", hops: 0, xff: []string{"203.0.113.1"}, want: "192.0.2.10"},
		{name: "0 hops ignores X-Real-IP", hops: 0, realIP: []string{"203.0.113.9"}, want: "192.0.2.10"},
		{name: "0 hops ignores both", hops: 0, xff: []string{"203.0.113.1, 198.51.100.7"}, realIP: []string{"203.0.113.9"}, want: "192.0.2.10"},
		{name: "negative hops acts as 0", hops: -1, xff: []string{"203.0.113.1"}, realIP: []string{"203.0.113.9"}, want: "192.0.2.10"},

		// hops 1: the rightmost entry is the one our proxy appended.
		{name: "1 hop single entry", hops: 1, xff: []string{"203.0.113.1"}, want: "203.0.113.1"},
		{name: "1 hop takes rightmost, not spoofed leftmost", hops: 1, xff: []string{"6.6.6.6, 203.0.113.1"}, want: "203.0.113.1"},
		{name: "1 hop long spoofed chain", hops: 1, xff: []string{"6.6.6.6,7.7.7.7 , 8.8.8.8,  203.0.113.1  "}, want: "203.0.113.1"},
		{name: "1 hop XFF beats X-Real-IP", hops: 1, xff: []string{"203.0.113.1"}, realIP: []string{"203.0.113.9"}, want: "203.0.113.1"},
		{name: "1 hop lines joined, last line rightmost", hops: 1, xff: []string{"6.6.6.6, 7.7.7.7", "203.0.113.1"}, want: "203.0.113.1"},

		// hops 2: second from the right.
		{name: "2 hops", hops: 2, xff: []string{"6.6.6.6, 203.0.113.1, 10.0.0.1"}, want: "203.0.113.1"},
		{name: "2 hops exactly two entries", hops: 2, xff: []string{"203.0.113.1, 10.0.0.1"}, want: "203.0.113.1"},
		{name: "2 hops across lines", hops: 2, xff: []string{"6.6.6.6, 203.0.113.1", "10.0.0.1"}, want: "203.0.113.1"},
		{name: "2 hops across lines, entry at line end", hops: 2, xff: []string{"6.6.6.6", "203.0.113.1, 10.0.0.1"}, want: "203.0.113.1"},
		{name: "3 hops leftmost exactly at position", hops: 3, xff: []string{"203.0.113.1, 10.0.0.2, 10.0.0.1"}, want: "203.0.113.1"},

		// Chain shorter than hops: the header is not used at all.
		{name: "short chain falls back to X-Real-IP", hops: 2, xff: []string{"6.6.6.6"}, realIP: []string{"203.0.113.9"}, want: "203.0.113.9"},
		{name: "short chain no X-Real-IP uses peer", hops: 2, xff: []string{"6.6.6.6"}, want: "192.0.2.10"},
		{name: "short chain across lines", hops: 3, xff: []string{"6.6.6.6", "7.7.7.7"}, want: "192.0.2.10"},
		{name: "no XFF uses X-Real-IP", hops: 1, realIP: []string{"203.0.113.9"}, want: "203.0.113.9"},
		{name: "no headers uses peer", hops: 1, want: "192.0.2.10"},
		{name: "X-Real-IP last line wins", hops: 1, realIP: []string{"6.6.6.6", "203.0.113.9"}, want: "203.0.113.9"},
		{name: "X-Real-IP trimmed", hops: 1, realIP: []string{" 203.0.113.9 "}, want: "203.0.113.9"},
		{name: "X-Real-IP with port", hops: 1, realIP: []string{"203.0.113.9:443"}, want: "203.0.113.9"},

		// Garbage at the chosen position: as if the chain were short.
		{name: "garbage entry falls back to X-Real-IP", hops: 1, xff: []string{"203.0.113.1, unknown"}, realIP: []string{"203.0.113.9"}, want: "203.0.113.9"},
		{name: "garbage entry falls back to peer", hops: 1, xff: []string{"203.0.113.1, not-an-ip"}, want: "192.0.2.10"},
		{name: "garbage entry never shifts to left neighbour", hops: 1, xff: []string{"6.6.6.6, 999.1.1.1"}, want: "192.0.2.10"},
		{name: "empty entry keeps its place", hops: 2, xff: []string{"6.6.6.6, , 10.0.0.1"}, want: "192.0.2.10"},
		{name: "empty header", hops: 1, xff: []string{""}, want: "192.0.2.10"},
		{name: "trailing comma is an empty rightmost entry", hops: 1, xff: []string{"203.0.113.1,"}, want: "192.0.2.10"},
		{name: "garbage left of position is ignored", hops: 1, xff: []string{"<script>, , 203.0.113.1"}, want: "203.0.113.1"},
		{name: "garbage X-Real-IP uses peer", hops: 1, realIP: []string{"nope"}, want: "192.0.2.10"},
		{name: "list in X-Real-IP is not an address", hops: 1, realIP: []string{"203.0.113.9, 6.6.6.6"}, want: "192.0.2.10"},
		{name: "CIDR is not an address", hops: 1, xff: []string{"203.0.113.0/24"}, want: "192.0.2.10"},
		{name: "bad port", hops: 1, xff: []string{"203.0.113.1:99999"}, want: "192.0.2.10"},
		{name: "unclosed bracket", hops: 1, xff: []string{"[2001:db8::1"}, want: "192.0.2.10"},

		// Ports and IPv6 spellings.
		{name: "IPv4 with port", hops: 1, xff: []string{"203.0.113.1:8443"}, want: "203.0.113.1"},
		// IPv6 is keyed by its /64 (CONTRACT section 9), in canonical form.
		{name: "IPv6 bare", hops: 1, xff: []string{"2001:db8:1:2:3:4:5:6"}, want: "2001:db8:1:2::/64"},
		{name: "IPv6 canonicalised", hops: 1, xff: []string{"2001:0DB8:0000:0000:0000:0000:0000:0001"}, want: "2001:db8::/64"},
		{name: "IPv6 bracketed", hops: 1, xff: []string{"[2001:db8::1]"}, want: "2001:db8::/64"},
		{name: "IPv6 bracketed with port", hops: 1, xff: []string{"[2001:db8::1]:443"}, want: "2001:db8::/64"},
		{name: "IPv6 zone dropped", hops: 1, xff: []string{"fe80::1%eth0"}, want: "fe80::/64"},
		{name: "IPv6 loopback", hops: 1, xff: []string{"::1"}, want: "::/64"},
		{name: "IPv6 upper half of the /64 cleared", hops: 1, xff: []string{"2001:db8:aaaa:bbbb:ffff:ffff:ffff:ffff"}, want: "2001:db8:aaaa:bbbb::/64"},
		{name: "IPv4-mapped unmapped", hops: 1, xff: []string{"::ffff:203.0.113.1"}, want: "203.0.113.1"},
		{name: "IPv4-mapped bracketed with port", hops: 1, xff: []string{"[::ffff:203.0.113.1]:80"}, want: "203.0.113.1"},
		{name: "IPv6 second from right", hops: 2, xff: []string{"2001:db8:ffff::dead, [2001:db8::1]:1234, 10.0.0.1"}, want: "2001:db8::/64"},
		{name: "IPv6 X-Real-IP", hops: 1, realIP: []string{"[2001:db8:0:1::99]:443"}, want: "2001:db8:0:1::/64"},

		// Socket peer spellings.
		{name: "IPv6 peer", hops: 0, remote: "[2001:db8::2]:5555", want: "2001:db8::/64"},
		{name: "IPv6 peer with zone", hops: 0, remote: "[fe80::1%eth0]:5555", want: "fe80::/64"},
		{name: "IPv6 peer without port", hops: 0, remote: "2001:db8:1:2::3", want: "2001:db8:1:2::/64"},
		{name: "IPv4-mapped peer", hops: 0, remote: "[::ffff:192.0.2.10]:5555", want: "192.0.2.10"},
		{name: "peer without port", hops: 0, remote: "192.0.2.10", want: "192.0.2.10"},
		{name: "non-IP peer host kept", hops: 0, remote: "localhost:80", want: "localhost"},
		{name: "non-IP peer kept whole", hops: 0, remote: "@", want: "@"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = peerAddr
			if tc.remote != "" {
				r.RemoteAddr = tc.remote
			}
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			for _, v := range tc.realIP {
				r.Header.Add("X-Real-Ip", v)
			}
			if got := Resolve(r, tc.hops); got != tc.want {
				t.Errorf("Resolve(hops=%d, XFF=%q, X-Real-IP=%q, peer=%q) = %q, want %q",
					tc.hops, tc.xff, tc.realIP, r.RemoteAddr, got, tc.want)
			}
		})
	}
}

// CONTRACT section 9: an IPv6 client is keyed by its /64 prefix whichever
// source the address came from, an IPv4 client by its address. Each group
// lists addresses that must share one key, and no two groups may share one.
func TestResolveIPv6KeyedByPrefix(t *testing.T) {
	groups := []struct {
		want  string
		addrs []string
	}{
		{"2001:db8:1:2::/64", []string{
			"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:ffff",
			"2001:db8:1:2:dead:beef:0:1", "2001:0db8:0001:0002:0000:0000:0000:0009",
		}},
		{"2001:db8:1:3::/64", []string{"2001:db8:1:3::1", "2001:db8:1:3:abcd::7"}}, // the next /64
		{"2001:db8:2:2::/64", []string{"2001:db8:2:2::1"}},                         // same low 64 bits, other /64
		{"2001:db9:1:2::/64", []string{"2001:db9:1:2::1"}},
		{"fe80::/64", []string{"fe80::1", "fe80::2"}},
		// IPv4, also written IPv4-mapped, stays one key per address.
		{"203.0.113.1", []string{"203.0.113.1", "::ffff:203.0.113.1"}},
		{"203.0.113.2", []string{"203.0.113.2", "::ffff:203.0.113.2"}},
		{"198.51.100.1", []string{"198.51.100.1"}},
	}
	// How each source carries an address; hops is the trust to configure.
	sources := []struct {
		name string
		hops int
		set  func(r *http.Request, addr string)
	}{
		{"socket", 0, func(r *http.Request, a string) {
			r.RemoteAddr = netip.AddrPortFrom(netip.MustParseAddr(a), 40000).String()
			r.Header.Set("X-Forwarded-For", "192.0.2.77") // ignored at hops 0
		}},
		{"X-Forwarded-For", 1, func(r *http.Request, a string) {
			r.Header.Set("X-Forwarded-For", "6.6.6.6, "+a)
		}},
		{"X-Forwarded-For bracketed with port", 1, func(r *http.Request, a string) {
			r.Header.Set("X-Forwarded-For", "2001:db8:6666::6, "+netip.AddrPortFrom(netip.MustParseAddr(a), 443).String())
		}},
		{"X-Forwarded-For second from right", 2, func(r *http.Request, a string) {
			r.Header.Set("X-Forwarded-For", "2001:db8:6666::6, "+a+", 10.0.0.1")
		}},
		{"X-Real-IP", 1, func(r *http.Request, a string) {
			r.Header.Set("X-Real-IP", a)
		}},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			owner := map[string]string{} // key -> the group it belongs to
			for _, g := range groups {
				for _, a := range g.addrs {
					r := httptest.NewRequest(http.MethodGet, "/", nil)
					r.RemoteAddr = "192.0.2.10:40000"
					src.set(r, a)
					got := Resolve(r, src.hops)
					if got != g.want {
						t.Errorf("%s: key %q, want %q", a, got, g.want)
					}
					if o, ok := owner[got]; ok && o != g.want {
						t.Errorf("%s: key %q also given to group %q", a, got, o)
					}
					owner[got] = g.want
				}
			}
			if len(owner) != len(groups) {
				t.Errorf("%d distinct keys, want %d (one per group)", len(owner), len(groups))
			}
		})
	}
}

// A raw header block goes through net/http's parser, so the test covers the
// header-line joining the server really sees, not just Header.Add.
func TestResolveFromWire(t *testing.T) {
	raw := "GET / HTTP/1.1\r\nHost: x\r\n" +
		"X-Forwarded-For: 6.6.6.6, 7.7.7.7\r\n" +
		"x-forwarded-for: 203.0.113.1\r\n" +
		"X-Forwarded-For: 10.0.0.1\r\n\r\n"
	r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw)))
	if err != nil {
		t.Fatal(err)
	}
	r.RemoteAddr = "192.0.2.10:1"
	for hops, want := range map[int]string{0: "192.0.2.10", 1: "10.0.0.1", 2: "203.0.113.1", 3: "7.7.7.7", 4: "6.6.6.6", 5: "192.0.2.10"} {
		if got := Resolve(r, hops); got != want {
			t.Errorf("hops=%d: got %q, want %q", hops, got, want)
		}
	}
}

func BenchmarkResolveIPv6(b *testing.B) {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("X-Forwarded-For", strings.Repeat("6.6.6.6, ", 50)+"2001:db8:1:2::1")
	b.ReportAllocs()
	for b.Loop() {
		if Resolve(r, 1) != "2001:db8:1:2::/64" {
			b.Fatal("wrong key")
		}
	}
}

func BenchmarkResolve(b *testing.B) {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("X-Forwarded-For", strings.Repeat("6.6.6.6, ", 50)+"203.0.113.1")
	b.ReportAllocs()
	for b.Loop() {
		if Resolve(r, 1) != "203.0.113.1" {
			b.Fatal("wrong key")
		}
	}
}
