package ledger

import "sync/atomic"

// CountVerifications runs f and returns how many ed25519 verifications it
// made, for the external tests of the cost bounds. Not for parallel tests:
// it swaps the package's verification hook.
func CountVerifications(f func()) int {
	var n atomic.Int64
	onVerify = func() { n.Add(1) }
	defer func() { onVerify = nil }()
	f()
	return int(n.Load())
}
