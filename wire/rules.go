package wire

import (
	"strings"
	"time"
)

// PlanIDLen is a plan id's length: 64 hex characters, the transaction hash.
const PlanIDLen = 64

// ValidPlanID reports whether s is a plan id in either case (CONTRACT
// section 4: ids are matched case-insensitively).
func ValidPlanID(s string) bool {
	_, ok := scanPlanID(s)
	return ok
}

// ParsePlanID returns s as a plan id in lowercase, the spelling the relay
// answers with; ok is false unless s is 64 hex characters.
func ParsePlanID(s string) (id string, ok bool) {
	upper, ok := scanPlanID(s)
	switch {
	case !ok:
		return "", false
	case upper:
		return strings.ToLower(s), true
	}
	return s, true // the usual spelling: no copy
}

// scanPlanID checks s in one pass and tells whether it holds an upper-case
// digit, so the lowercase spelling, the common one, is never copied.
func scanPlanID(s string) (upper, ok bool) {
	if len(s) != PlanIDLen {
		return false, false
	}
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch >= '0' && ch <= '9', ch >= 'a' && ch <= 'f':
		case ch >= 'A' && ch <= 'F':
			upper = true
		default:
			return false, false
		}
	}
	return upper, true
}

// RetryAfterSeconds is a wait as a Retry-After header's whole seconds
// (CONTRACT section 3): rounded up, so a client that waits that long finds
// a token, and at least 1, since 0 would invite an immediate retry.
func RetryAfterSeconds(d time.Duration) int {
	return max(int((d+time.Second-1)/time.Second), 1)
}
