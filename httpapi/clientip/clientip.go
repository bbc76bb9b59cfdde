// Package clientip resolves the key that per-client rate limits are keyed on
// (SPEC.md "Authentication" item 5, TRUSTED_PROXY_HOPS; CONTRACT.md section 9).
//
// Only entries written by proxies we trust may become the key. Every proxy
// appends the address it saw to the right of X-Forwarded-For, so with hops
// trusted proxies in front of us the entry hops places from the right end was
// written by the outermost trusted proxy about the real client; everything to
// its left came from the client and is never used. With hops == 0 there is no
// trusted proxy, so no header is believed and the socket peer is the key.
//
// An IPv4 client is keyed by its address, an IPv6 client by its /64 prefix: a
// site is normally given a whole /64 and any host on it can pick addresses
// from it at will, so keying on the full address would let one client hold as
// many buckets as it cares to use addresses.
package clientip

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Resolve returns the rate-limit key of r's client, given the number of
// trusted reverse proxies in front of the service.
//
// The client address is, for hops <= 0, the host part of r.RemoteAddr;
// X-Forwarded-For and X-Real-IP are ignored. For hops > 0 it is the
// X-Forwarded-For entry counted hops from the right (all header lines joined
// in order); when the chain is shorter than hops or that entry is not an IP
// address, the header is not used and X-Real-IP is tried, then the socket
// peer.
//
// The key is an IPv4 address's canonical text ("203.0.113.1") and an IPv6
// address's /64 prefix ("2001:db8:1:2::/64"), whether the address came from
// the socket, X-Forwarded-For or X-Real-IP. IPv4-mapped IPv6 addresses are unmapped first, so they
// are keyed as IPv4, and zones are dropped: one client cannot appear under
// several spellings and so gain several buckets. A RemoteAddr that is not an
// IP address is keyed by its host part, or as it is (see peer).
func Resolve(r *http.Request, hops int) string {
	if hops > 0 {
		if entry, ok := nthFromRight(r.Header.Values("X-Forwarded-For"), hops); ok {
			if a, ok := parse(entry); ok {
				return key(a)
			}
		}
		// With a trusted proxy in front, X-Real-IP is its word too. The last
		// line wins because a proxy that adds rather than replaces the header
		// puts its own value after whatever the client sent.
		if v := r.Header.Values("X-Real-IP"); len(v) > 0 {
			if a, ok := parse(v[len(v)-1]); ok {
				return key(a)
			}
		}
	}
	return peer(r.RemoteAddr)
}

// key renders the rate-limit key of an address that parse returned (unmapped,
// no zone): IPv4 as the address, IPv6 as its /64 prefix.
func key(a netip.Addr) string {
	if a.Is4() {
		return a.String()
	}
	var buf [len("ffff:ffff:ffff:ffff::/64")]byte
	return string(netip.PrefixFrom(a, 64).Masked().AppendTo(buf[:0]))
}

// nthFromRight scans from the right so the client-controlled left part of a
// long header is never split or allocated. Empty entries keep their place:
// dropping one written by a trusted proxy would shift a client-controlled
// value into the trusted position.
func nthFromRight(lines []string, n int) (string, bool) {
	for i := len(lines) - 1; i >= 0; i-- {
		line := lines[i]
		for {
			j := strings.LastIndexByte(line, ',')
			n--
			if n == 0 {
				return line[j+1:], true
			}
			if j < 0 {
				break
			}
			line = line[:j]
		}
	}
	return "", false
}

// parse accepts what proxies are seen to write: a bare address, an address
// with a port, or a bracketed IPv6 address with or without a port.
func parse(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	a, err := netip.ParseAddr(s)
	if err != nil {
		ap, perr := netip.ParseAddrPort(s)
		switch {
		case perr == nil:
			a = ap.Addr()
		case len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']':
			if a, err = netip.ParseAddr(s[1 : len(s)-1]); err != nil {
				return netip.Addr{}, false
			}
		default:
			return netip.Addr{}, false
		}
	}
	return a.Unmap().WithZone(""), true
}

// peer keys on the socket address. A RemoteAddr that is not an IP (a Unix
// socket, a test's made-up value) is kept as is rather than collapsed to ""
// so distinct peers stay distinct where they can be told apart.
func peer(remote string) string {
	if a, ok := parse(remote); ok {
		return key(a)
	}
	if host, _, err := net.SplitHostPort(remote); err == nil {
		return host
	}
	return remote
}
