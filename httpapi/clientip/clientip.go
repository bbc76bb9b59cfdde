// Package clientip resolves the address that per-client rate limits are keyed
// on (SPEC.md "Authentication" item 5, TRUSTED_PROXY_HOPS).
//
// Only entries written by proxies we trust may become the key. Every proxy
// appends the address it saw to the right of X-Forwarded-For, so with hops
// trusted proxies in front of us the entry hops places from the right end was
// written by the outermost trusted proxy about the real client; everything to
// its left came from the client and is never used. With hops == 0 there is no
// trusted proxy, so no header is believed and the socket peer is the key.
package clientip

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Resolve returns the canonical text form of the client address for r, given
// the number of trusted reverse proxies in front of the service.
//
// hops <= 0: the host part of r.RemoteAddr; X-Forwarded-For and X-Real-IP are
// ignored. hops > 0: the X-Forwarded-For entry counted hops from the right
// (all header lines joined in order); when the chain is shorter than hops or
// that entry is not an IP address, the header is not used and X-Real-IP is
// tried, then the socket peer.
//
// IPv4-mapped IPv6 addresses are unmapped and zones dropped, so one client
// cannot appear under several spellings and so gain several buckets.
func Resolve(r *http.Request, hops int) string {
	if hops > 0 {
		if entry, ok := nthFromRight(r.Header.Values("X-Forwarded-For"), hops); ok {
			if a, ok := parse(entry); ok {
				return a.String()
			}
		}
		// With a trusted proxy in front, X-Real-IP is its word too. The last
		// line wins because a proxy that adds rather than replaces the header
		// puts its own value after whatever the client sent.
		if v := r.Header.Values("X-Real-IP"); len(v) > 0 {
			if a, ok := parse(v[len(v)-1]); ok {
				return a.String()
			}
		}
	}
	return peer(r.RemoteAddr)
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
		return a.String()
	}
	if host, _, err := net.SplitHostPort(remote); err == nil {
		return host
	}
	return remote
}
