package web

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// plan.js renders the blockers it reads from /status with the same words
// as the server: every code's words and the fallback are in its source
// (ts/plan.ts; TestAssetsAreTheBuild holds plan.js to be its build), as
// string literals.
func TestPlanJSHasTheBlockerWords(t *testing.T) {
	b, err := os.ReadFile("ts/plan.ts")
	if err != nil {
		t.Fatal(err)
	}
	js := string(b)
	for code, words := range blockerWords {
		if entry := strconv.Quote(code) + ": " + strconv.Quote(words); !strings.Contains(js, entry) {
			t.Errorf("plan.ts lacks %s", entry)
		}
	}
	if !strings.Contains(js, "BLOCKER_FALLBACK = "+strconv.Quote(blockerFallback)) {
		t.Errorf("plan.ts lacks the fallback %q", blockerFallback)
	}
	if !strings.Contains(js, "FORWARD_WHERE = "+strconv.Quote(forwardWhere)) {
		t.Errorf("plan.ts lacks the forward's place %q", forwardWhere)
	}
}
