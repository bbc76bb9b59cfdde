package web

import (
	"os"
	"strings"
	"testing"
)

// Every source the plan page's policy adds is named in docs/API.md, and
// WalletConnect's only when it is configured.
func TestPlanCSPSourcesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/API.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range [][][2]string{walletSources, walletConnectSources} {
		for _, s := range list {
			for _, src := range strings.Fields(s[1]) {
				if !strings.Contains(string(doc), "`"+src+"`") {
					t.Errorf("docs/API.md does not list %s %s", s[0], src)
				}
			}
		}
	}
	plain, wc := PlanCSP(false), PlanCSP(true)
	if !strings.HasPrefix(plain, CSP+"; ") || strings.Contains(plain, "walletconnect") || strings.Contains(plain, "unsafe") {
		t.Errorf("PlanCSP(false) = %q", plain)
	}
	if !strings.Contains(wc, "wss://relay.walletconnect.org") || !strings.Contains(wc, "connect-src 'self' ws://127.0.0.1:21335 https://rpc.walletconnect.com") {
		t.Errorf("PlanCSP(true) = %q", wc)
	}
}
