package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/closerelay/closerelay/wire"
)

// TestShapesEncodeAsTheContractSays pins each shape's bytes: field order,
// null against absent, and what omitempty leaves out. Clients compare
// answers byte for byte, so a reordered or retagged field fails here before
// it fails in httpapi's tests.
func TestShapesEncodeAsTheContractSays(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{wire.Error{Code: "NOT_FOUND", Reason: "r"}, `{"ok":false,"code":"NOT_FOUND","reason":"r"}`},
		{wire.Published{OK: true, ID: "i"}, `{"ok":true,"id":"i"}`},
		{wire.Plan{OK: true, Network: "testnet", XDR: "x"}, `{"ok":true,"network":"testnet","xdr":"x"}`},
		{wire.Signed{OK: true, Network: "testnet", XDR: "x", Signers: []string{}, Weight: 1, Threshold: 2},
			`{"ok":true,"network":"testnet","xdr":"x","signers":[],"weight":1,"threshold":2,"ready":false,"landable":null}`},
		{wire.State{Network: "testnet", XDR: "x", ID: "i", Signers: []string{"G"}, Weight: 2, Threshold: 2, Ready: true},
			`{"network":"testnet","xdr":"x","id":"i","signers":["G"],"weight":2,"threshold":2,"ready":true,"landable":null}`},
		{wire.Expired{ID: "i"}, `{"id":"i"}`},
		{wire.Submitted{ID: "i", Hash: "h", Ledger: 7}, `{"id":"i","hash":"h","ledger":7}`},
		{wire.SubmitFailed{ID: "i", Code: "tx_bad_seq", Reason: "r"}, `{"id":"i","code":"tx_bad_seq","reason":"r"}`},
		{wire.Ready{OK: true, ID: "i", Network: "testnet", XDR: "x", Signers: []string{"G"}, Weight: 1, Threshold: 1},
			`{"ok":true,"id":"i","network":"testnet","xdr":"x","signers":["G"],"weight":1,"threshold":1}`},
		{wire.Status{OK: true, ID: "i", Network: "testnet", Version: 3, Signers: []string{}, Threshold: 1, Expiry: "2026-11-26T00:00:00Z"},
			`{"ok":true,"id":"i","network":"testnet","version":3,"signers":[],"weight":0,"threshold":1,"ready":false,"expiry":"2026-11-26T00:00:00Z","submit":false,"submission":null,"preflight":null,"forward":null}`},
		{wire.Forward{State: "forwarded", Hash: "h", Ledger: 9, Amount: "12.5000000"}, `{"state":"forwarded","hash":"h","ledger":9,"amount":"12.5000000"}`},
		{wire.Forward{State: "failed", Code: "tx_bad_seq"}, `{"state":"failed","code":"tx_bad_seq"}`},
		{wire.Forwarded{ID: "i", Hash: "h", Ledger: 9, Amount: "1.0000000"}, `{"id":"i","hash":"h","ledger":9,"amount":"1.0000000"}`},
		{wire.ForwardFailed{ID: "i", Code: "tx_failed", Reason: "r"}, `{"id":"i","code":"tx_failed","reason":"r"}`},
		{wire.Submission{State: "pending"}, `{"state":"pending"}`},
		{wire.Submission{State: "submitted", Hash: "h", Ledger: 9}, `{"state":"submitted","hash":"h","ledger":9}`},
		{wire.Submission{State: "failed", Code: "tx_bad_auth"}, `{"state":"failed","code":"tx_bad_auth"}`},
		{wire.SEP7{OK: true, URI: "web+stellar:tx?xdr=x"}, `{"ok":true,"uri":"web+stellar:tx?xdr=x"}`},
		{wire.Flow{FlowToken: "t", MediatorPublicKey: "G"}, `{"flowToken":"t","mediatorPublicKey":"G"}`},
		{wire.Cosigned{OK: true, SignedXDR: "x", Hash: "h"}, `{"ok":true,"signedXdr":"x","hash":"h"}`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil || string(b) != tc.want {
			t.Errorf("%T: %s, %v; want %s", tc.v, b, err, tc.want)
		}
	}
}
