package web

import (
	"strconv"
	"strings"
	"testing"
)

// plan.js renders the blockers it reads from /status with the same words
// as the server: every code's words and the fallback are in it, as JS
// string literals.
func TestPlanJSHasTheBlockerWords(t *testing.T) {
	b, err := assetFS.ReadFile("assets/plan.js")
	if err != nil {
		t.Fatal(err)
	}
	js := string(b)
	for code, words := range blockerWords {
		if entry := strconv.Quote(code) + ": " + strconv.Quote(words); !strings.Contains(js, entry) {
			t.Errorf("plan.js lacks %s", entry)
		}
	}
	if !strings.Contains(js, "BLOCKER_FALLBACK = "+strconv.Quote(blockerFallback)) {
		t.Errorf("plan.js lacks the fallback %q", blockerFallback)
	}
	if !strings.Contains(js, "FORWARD_WHERE = "+strconv.Quote(forwardWhere)) {
		t.Errorf("plan.js lacks the forward's place %q", forwardWhere)
	}
}
