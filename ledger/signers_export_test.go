package ledger

import "sync/atomic"

// NewCountingSweepGate is NewSweepGate(slots) whose verifications are
// counted, for the external tests of the cost bounds: verifications reports
// how many ed25519 verifications were made under the gate so far. Each
// gate counts its own, so tests that use one each may run in parallel.
func NewCountingSweepGate(slots int) (gate *SweepGate, verifications func() int) {
	gate = NewSweepGate(slots)
	var n atomic.Int64
	gate.onVerify = func() { n.Add(1) }
	return gate, func() int { return int(n.Load()) }
}
