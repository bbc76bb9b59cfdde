package ledger

import "github.com/stellar/go-stellar-sdk/network"

// ResolveNetwork maps an identifier to a Network. Any string that is not
// exactly one of the identifiers of CONTRACT section 2 resolves to Testnet:
// that is the fallback SPEC describes, and it is why publish guard 2 compares
// the resolved identifier with the input instead of trusting this function
// alone.
func ResolveNetwork(s string) Network {
	if n, ok := ParseNetwork(s); ok {
		return n
	}
	return Testnet
}

// ParseNetwork accepts only the exact identifiers of CONTRACT section 2:
// matching is case-sensitive and there are no aliases, so "TESTNET",
// "public" and "" all fail.
func ParseNetwork(s string) (Network, bool) {
	switch n := Network(s); n {
	case Mainnet, Testnet, Futurenet:
		return n, true
	}
	return "", false
}

// Passphrase is the network's passphrase from the SDK's network package.
// A Network that is not one of the three identifiers has no passphrase and
// answers "", which every hash computation refuses.
func (n Network) Passphrase() string {
	switch n {
	case Mainnet:
		return network.PublicNetworkPassphrase
	case Testnet:
		return network.TestNetworkPassphrase
	case Futurenet:
		return network.FutureNetworkPassphrase
	}
	return ""
}
