package ledger_test

import (
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/network"
)

func TestNetworkResolution(t *testing.T) {
	tests := []struct {
		in         string
		resolved   ledger.Network
		parsed     bool
		passphrase string
	}{
		{"mainnet", ledger.Mainnet, true, network.PublicNetworkPassphrase},
		{"testnet", ledger.Testnet, true, network.TestNetworkPassphrase},
		{"futurenet", ledger.Futurenet, true, network.FutureNetworkPassphrase},
		// Everything else falls back to testnet, which guard 2 catches by
		// comparing with the input.
		{"TESTNET", ledger.Testnet, false, network.TestNetworkPassphrase},
		{"Mainnet", ledger.Testnet, false, network.TestNetworkPassphrase},
		{"public", ledger.Testnet, false, network.TestNetworkPassphrase},
		{"pubnet", ledger.Testnet, false, network.TestNetworkPassphrase},
		{"", ledger.Testnet, false, network.TestNetworkPassphrase},
		{" testnet", ledger.Testnet, false, network.TestNetworkPassphrase},
		{"testnet\x00", ledger.Testnet, false, network.TestNetworkPassphrase},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := ledger.ResolveNetwork(tt.in)
			if got != tt.resolved {
				t.Errorf("ResolveNetwork(%q) = %q, want %q", tt.in, got, tt.resolved)
			}
			if guard2 := string(got) == tt.in; guard2 != tt.parsed {
				t.Errorf("guard 2 on %q passes = %v, want %v", tt.in, guard2, tt.parsed)
			}
			n, ok := ledger.ParseNetwork(tt.in)
			if ok != tt.parsed || (ok && n != tt.resolved) || (!ok && n != "") {
				t.Errorf("ParseNetwork(%q) = %q, %v; want ok=%v", tt.in, n, ok, tt.parsed)
			}
			if p := got.Passphrase(); p != tt.passphrase {
				t.Errorf("%q.Passphrase() = %q, want %q", got, p, tt.passphrase)
			}
		})
	}
	if p := ledger.Network("public").Passphrase(); p != "" {
		t.Errorf("unknown network has passphrase %q, want none", p)
	}
}
