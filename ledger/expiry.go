package ledger

import (
	"math"
	"time"
)

// PlanExpiry is the plan's end of life (SPEC "Plan", expiry): the earlier of
// publish+SigningWindow and maxTime-ExpiryGrace. A maxTime of 0 means the
// transaction has no upper time bound, so only the signing window applies.
//
// The result may lie in the past (a maxTime within the grace period);
// callers refuse such a transaction (CONTRACT 4, EXPIRED).
func PlanExpiry(publish time.Time, maxTime uint64) time.Time {
	window := publish.Add(SigningWindow)
	// maxTime is attacker-chosen and unsigned. Compare in whole seconds
	// before building a time.Time: time.Unix overflows its internal
	// representation for seconds near math.MaxInt64, and any maxTime beyond
	// the window cannot be the earlier bound anyway.
	if maxTime == 0 || maxTime > math.MaxInt64 {
		return window
	}
	deadline := int64(maxTime) - int64(ExpiryGrace/time.Second)
	// window is not a whole second in general: a deadline in a later second
	// is after it, one in the same second is not after it.
	if deadline > window.Unix() {
		return window
	}
	return time.Unix(deadline, 0).In(publish.Location())
}
