package web

import "strings"

// The plan page's Content-Security-Policy (docs/API.md, "The plan page's
// Content-Security-Policy"). Every other page keeps CSP, default-src 'self';
// the plan page widens it only for what "Sign with a wallet" needs once the
// co-signer opens the wallet list (Stellar Wallets Kit): nothing of it is
// fetched on the page's first load. Each source is listed in docs/API.md
// with the wallet that needs it; a new one must be listed there too.
var (
	// walletSources are the kit's own needs, with every wallet module.
	walletSources = [][2]string{
		// The wallet list's icons (each module's productIcon).
		{"img-src", "https://stellar.creit.tech"},
		// The kit's styles: twind adds an empty <style> element, allowed by
		// the hash of the empty string, and writes its rules into it
		// through the CSSOM (insertRule), which CSP does not govern. No
		// 'unsafe-inline'.
		{"style-src", "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"},
		// Trezor Connect runs in an iframe of Trezor's, and first looks
		// for Trezor Suite's desktop app on its loopback port.
		{"frame-src", "https://connect.trezor.io"},
		{"connect-src", "ws://127.0.0.1:21335"},
	}
	// walletConnectSources are WalletConnect's (Reown AppKit's published
	// partial CSP), added only when WALLETCONNECT_PROJECT_ID is set.
	walletConnectSources = [][2]string{
		{"connect-src", "https://rpc.walletconnect.com https://rpc.walletconnect.org https://relay.walletconnect.com https://relay.walletconnect.org wss://relay.walletconnect.com wss://relay.walletconnect.org https://pulse.walletconnect.com https://pulse.walletconnect.org https://api.web3modal.com https://api.web3modal.org https://keys.walletconnect.com https://keys.walletconnect.org https://notify.walletconnect.com https://notify.walletconnect.org https://echo.walletconnect.com https://echo.walletconnect.org https://push.walletconnect.com https://push.walletconnect.org"},
		{"img-src", "data: blob: https://walletconnect.org https://walletconnect.com https://secure.walletconnect.com https://secure.walletconnect.org https://api.web3modal.com https://api.web3modal.org"},
		{"frame-src", "https://verify.walletconnect.com https://verify.walletconnect.org https://secure.walletconnect.com https://secure.walletconnect.org"},
		{"font-src", "https://fonts.gstatic.com https://fonts.reown.com"},
		{"style-src", "https://fonts.googleapis.com"},
	}
)

// PlanCSP is the plan page's policy: CSP with the wallets' sources, and
// WalletConnect's when walletConnect.
func PlanCSP(walletConnect bool) string {
	order := []string{"img-src", "style-src", "connect-src", "frame-src", "font-src"}
	srcs := map[string][]string{}
	add := func(list [][2]string) {
		for _, s := range list {
			srcs[s[0]] = append(srcs[s[0]], s[1])
		}
	}
	add(walletSources)
	if walletConnect {
		add(walletConnectSources)
	}
	parts := []string{CSP}
	for _, d := range order {
		if len(srcs[d]) > 0 {
			parts = append(parts, d+" 'self' "+strings.Join(srcs[d], " "))
		}
	}
	return strings.Join(parts, "; ")
}
