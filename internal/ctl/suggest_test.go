package ctl

import "testing"

func TestSuggest(t *testing.T) {
	names := []string{"build", "publish", "get", "sign", "watch", "status", "ready", "submit", "mediator", "help"}
	for typed, want := range map[string]string{
		"pubish":   "publish", // a letter left out
		"publsih":  "publish", // two swapped
		"sigm":     "sign",    // a letter wrong
		"gte":      "",        // three letters, two edits: too far to guess
		"get":      "get",
		"med":      "mediator", // the only name it begins
		"s":        "",         // one letter begins several and is no guess
		"xyzzy":    "",
		"Status":   "status",
		"unsubmit": "submit",
	} {
		if got := Suggest(typed, names); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", typed, got, want)
		}
	}
}
