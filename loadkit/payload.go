// Package loadkit holds what the load tools share: the payload file that
// `closerelaylab load prepare` (and `load local`) write and that the k6 script
// and the stream load generator (cmd/streamload) replay.
//
// The file is JSON so that k6 (JavaScript) reads it as is. Every envelope in
// it is base64 XDR of the plan's own transaction, so each one can be sent as
// the body of POST /api/plan/{id}/sign without further work.
package loadkit

import (
	"encoding/json"
	"fmt"
	"os"
)

// Payload is one prepared load run against one relay.
type Payload struct {
	// Relay is the public API's base URL, for example http://127.0.0.1:8080.
	Relay string `json:"relay"`
	// Ops is the ops listener's base URL (metrics, health), empty when the
	// relay is remote and its ops port is not reachable.
	Ops string `json:"ops,omitempty"`
	// Network is the plans' network name (mainnet, testnet or futurenet).
	Network string `json:"network"`
	// ServerPID is the local relay's process id, so that its memory can be
	// read from /proc; zero for a remote relay.
	ServerPID int    `json:"serverPid,omitempty"`
	Plans     []Plan `json:"plans"`
	// Spare are closes prepared but not published, each with its Close and
	// its co-signers' Valid partials: the mixed load (`closerelaylab load
	// routes`) publishes them, creating plans, and then signs them.
	Spare []Plan `json:"spare,omitempty"`
}

// Plan is one published plan and the partials prepared against it.
type Plan struct {
	ID string `json:"id"`
	// Close is the signed close as published (base64 XDR): publishing it
	// again is a re-publish, which merges into the plan.
	Close string `json:"close,omitempty"`
	// Signers are the account's signer public keys (G…), master key included.
	Signers []string `json:"signers"`
	// Valid holds one partial per co-signer whose signature is not yet on
	// the plan, each carrying exactly that signer's signature under its own
	// hint. Sent once, each adds one signer and so one stream event; sent
	// again it is a replay.
	Valid []string `json:"valid"`
	// Forged carries the same signatures as Valid under forged hints: the
	// relay must recover the signer anyway (and, once admitted, treat them
	// as replays).
	Forged []string `json:"forged,omitempty"`
	// Fresh holds further distinct valid signatures by the plan's signers
	// (other ed25519 nonces over the same hash): each costs the relay a full
	// verification and adds nothing once its signer is on the envelope.
	Fresh []string `json:"fresh,omitempty"`
	// Strangers are partials signed by keys that are not signers.
	Strangers []string `json:"strangers,omitempty"`
	// Expensive are invalid signatures built so that every candidate check
	// is a full verification: canonical S and a valid curve point R.
	Expensive []string `json:"expensive,omitempty"`
}

// Read loads a payload file.
func Read(path string) (*Payload, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p Payload
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("loadkit: %s: %w", path, err)
	}
	if p.Relay == "" || len(p.Plans) == 0 {
		return nil, fmt.Errorf("loadkit: %s: no relay or no plans", path)
	}
	return &p, nil
}

// Write stores a payload file, readable by the owner only: it is test data,
// but a testnet run's partials are real signatures.
func Write(path string, p *Payload) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}
