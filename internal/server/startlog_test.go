package server

import (
	"strings"
	"testing"
	"testing/synctest"
)

// TestStartWarnsWhenTheMediatorIsNotConfigured: an unset or malformed
// MEDIATOR_SECRET does not stop the relay (SPEC), but the operator learns it
// at start, with the kind of fault and never the value; a good secret says
// nothing.
func TestStartWarnsWhenTheMediatorIsNotConfigured(t *testing.T) {
	// 56 characters starting with S pass the start-time shape check but
	// are not a valid seed.
	malformed := "S" + strings.Repeat("A", 55)
	for _, tc := range []struct {
		name, secret, want string
	}{
		{"unset", "", "not set"},
		{"malformed", malformed, "not a valid ed25519 seed"},
		{"configured", "(a fresh seed)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var env map[string]string
				if tc.secret != "(a fresh seed)" {
					env = map[string]string{"MEDIATOR_SECRET": tc.secret}
				}
				r := startOpsRelay(t, env)
				r.stop(t)
				var warned []string
				for line := range strings.Lines(r.logs.String()) {
					if strings.Contains(line, "mediator not configured") {
						warned = append(warned, line)
					}
				}
				switch {
				case tc.want == "" && len(warned) != 0:
					t.Errorf("a configured mediator was reported: %q", warned)
				case tc.want != "" && (len(warned) != 1 || !strings.Contains(warned[0], tc.want) || !strings.Contains(warned[0], `"level":"WARN"`)):
					t.Errorf("start log lines about the mediator = %q, want one warning saying %q", warned, tc.want)
				}
				if tc.secret != "" && strings.Contains(r.logs.String(), tc.secret) {
					t.Error("the log holds the secret")
				}
			})
		})
	}
}
