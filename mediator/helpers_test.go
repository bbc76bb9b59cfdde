package mediator

import (
	"testing"
	"time"

	mt "github.com/closerelay/closerelay/mediator/mediatortest"
)

// Fixed keys, from mediatortest so both test suites agree on them.
const (
	testSecret = mt.Secret
	testDest   = mt.Dest
	otherDest  = mt.OtherDest
	// testMediator stands in for a derived mediator where only its address
	// matters (ValidateForward is given the address); fuzzMediator holds
	// its seed.
	testMediator = "GATNJZHBWAG5GMFVAGDWXMH2OO4UE7XBIOXGRN57WEXV5IKMLV44ROO3"
)

// t0 is the fixed "now" of tests that do not run in a synctest bubble.
var t0 = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func testMaster(t testing.TB) Master {
	t.Helper()
	m, err := ParseMaster(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// validForward is the accepted forward for testMediator and testDest at t0.
func validForward() string {
	return mt.NewForward(testMediator, testDest, uint64(t0.Unix())+300).B64()
}
