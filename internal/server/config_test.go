package server

import (
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
)

func TestConfigDefaults(t *testing.T) {
	c, err := ParseEnv(envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.ListenAddr != ":8080" || c.OpsAddr != ":9090" || c.HorizonTimeout != 10*time.Second ||
		c.TrustedProxyHops != 1 || !c.RateLimits || c.SSEHeartbeat != 25*time.Second ||
		c.ShutdownTimeout != 15*time.Second || c.LogFormat != "json" || len(c.CORSAllowOrigins) != 0 ||
		c.MediatorSecret != "" || c.HorizonConc != 32 || c.PlansPerAccount != 5 {
		t.Fatalf("defaults differ from CONTRACT sections 1 and 9: %+v", c)
	}
	if c.HorizonURLs[ledger.Testnet] != "https://horizon-testnet.stellar.org" ||
		c.HorizonURLs[ledger.Mainnet] != "https://horizon.stellar.org" ||
		c.HorizonURLs[ledger.Futurenet] != "https://horizon-futurenet.stellar.org" {
		t.Fatalf("horizon defaults: %v", c.HorizonURLs)
	}
}

func TestConfigValues(t *testing.T) {
	c, err := ParseEnv(envOf(map[string]string{
		"TRUSTED_PROXY_HOPS": "0", "RATE_LIMITS": "off", "SSE_HEARTBEAT": "1s",
		"CORS_ALLOW_ORIGINS": "https://a.example, https://b.example", "LOG_FORMAT": "text", "LOG_LEVEL": "debug",
		"MEDIATOR_SECRET":     "S" + strings.Repeat("A", 55),
		"HORIZON_CONCURRENCY": "4", "PLANS_PER_ACCOUNT": "2",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.TrustedProxyHops != 0 || c.RateLimits || c.SSEHeartbeat != time.Second || len(c.CORSAllowOrigins) != 2 ||
		c.CORSAllowOrigins[1] != "https://b.example" || c.LogFormat != "text" || c.HorizonConc != 4 || c.PlansPerAccount != 2 {
		t.Fatalf("parsed: %+v", c)
	}
}

func TestConfigInvalidNamesTheVariable(t *testing.T) {
	const secret = "XSECRETVALUETHATMUSTNEVERBEPRINTEDXXXXXXXXXXXXXXXXXXXXX"
	cases := []struct {
		env  map[string]string
		name string
	}{
		{map[string]string{"HORIZON_TIMEOUT": "ten"}, "HORIZON_TIMEOUT"},
		{map[string]string{"HORIZON_TIMEOUT": "-1s"}, "HORIZON_TIMEOUT"},
		{map[string]string{"SSE_HEARTBEAT": "0s"}, "SSE_HEARTBEAT"},
		{map[string]string{"SHUTDOWN_TIMEOUT": "soon"}, "SHUTDOWN_TIMEOUT"},
		{map[string]string{"TRUSTED_PROXY_HOPS": "-1"}, "TRUSTED_PROXY_HOPS"},
		{map[string]string{"TRUSTED_PROXY_HOPS": "one"}, "TRUSTED_PROXY_HOPS"},
		{map[string]string{"RATE_LIMITS": "maybe"}, "RATE_LIMITS"},
		{map[string]string{"MEDIATOR_SECRET": secret}, "MEDIATOR_SECRET"},
		{map[string]string{"MEDIATOR_SECRET": "S" + secret + "X"}, "MEDIATOR_SECRET"}, // 57 characters
		{map[string]string{"LOG_LEVEL": "loud"}, "LOG_LEVEL"},
		{map[string]string{"LOG_FORMAT": "xml"}, "LOG_FORMAT"},
		{map[string]string{"HORIZON_URL_TESTNET": "ftp://x"}, "HORIZON_URL_TESTNET"},
		{map[string]string{"HORIZON_CONCURRENCY": "0"}, "HORIZON_CONCURRENCY"},
		{map[string]string{"LEDGER_API": "soroban"}, "LEDGER_API"},
		{map[string]string{"LEDGER_API": "RPC"}, "LEDGER_API"},
		{map[string]string{"LEDGER_API": "rpc"}, "RPC_URL_MAINNET"},
		{map[string]string{"LEDGER_API": "rpc", "RPC_URL_MAINNET": "ftp://x"}, "RPC_URL_MAINNET"},
		{map[string]string{"LEDGER_API": "rpc", "RPC_URL_MAINNET": "https://rpc.example", "RPC_URL_TESTNET": "soroban-testnet.stellar.org"}, "RPC_URL_TESTNET"},
		{map[string]string{"RPC_URL_FUTURENET": "ws://x"}, "RPC_URL_FUTURENET"},
		{map[string]string{"HORIZON_CONCURRENCY": "many"}, "HORIZON_CONCURRENCY"},
		{map[string]string{"PLANS_PER_ACCOUNT": "-5"}, "PLANS_PER_ACCOUNT"},
		{map[string]string{"PLANS_PER_ACCOUNT": "5.5"}, "PLANS_PER_ACCOUNT"},
		{map[string]string{"PREFLIGHT_MAX_ACCOUNTS": "0"}, "PREFLIGHT_MAX_ACCOUNTS"},
		{map[string]string{"PREFLIGHT_MAX_ACCOUNTS": "twenty"}, "PREFLIGHT_MAX_ACCOUNTS"},
		{map[string]string{"PREFLIGHT_MAX_AGE": "-1s"}, "PREFLIGHT_MAX_AGE"},
		{map[string]string{"PREFLIGHT_MAX_AGE": "2h"}, "PREFLIGHT_MAX_AGE"},
		{map[string]string{"PREFLIGHT_MAX_AGE": "60"}, "PREFLIGHT_MAX_AGE"},
		{map[string]string{"LEDGER_CALLS_PER_CLIENT": "0"}, "LEDGER_CALLS_PER_CLIENT"},
		{map[string]string{"LEDGER_CALLS_PER_ACCOUNT": "lots"}, "LEDGER_CALLS_PER_ACCOUNT"},
		{map[string]string{"PUBLIC_URL": "http://relay.example.com"}, "PUBLIC_URL"},
		{map[string]string{"PUBLIC_URL": "relay.example.com"}, "PUBLIC_URL"},
		{map[string]string{"PUBLIC_URL": "https://relay.example.com/?x=1"}, "PUBLIC_URL"},
		{map[string]string{"PUBLIC_URL": "ftp://relay.example.com"}, "PUBLIC_URL"},
	}
	for _, tc := range cases {
		_, err := ParseEnv(envOf(tc.env))
		if err == nil {
			t.Errorf("%v: accepted", tc.env)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, tc.name+":") || strings.Contains(msg, "\n") {
			t.Errorf("%v: message %q does not name %s on one line", tc.env, msg, tc.name)
		}
		if strings.Contains(msg, "SECRETVALUE") {
			t.Errorf("%v: message %q echoes the secret", tc.env, msg)
		}
	}
}

// TestConfigForwardBounds: FORWARD_BUDGET and FORWARD_RETENTION default to
// the actor's defaults, take a Go duration from 1m to 168h (both ends
// included), and refuse anything else naming the variable on one line.
func TestConfigForwardBounds(t *testing.T) {
	c, err := ParseEnv(envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.ForwardBudget != actor.DefaultForwardBudget || c.ForwardRetention != actor.DefaultForwardRetention {
		t.Errorf("defaults: budget %v retention %v, want %v and %v", c.ForwardBudget, c.ForwardRetention,
			actor.DefaultForwardBudget, actor.DefaultForwardRetention)
	}
	for _, tc := range []struct{ budget, retention string }{{"24h", "90m"}, {"1m", "168h"}, {"168h", "1m"}} {
		c, err := ParseEnv(envOf(map[string]string{"FORWARD_BUDGET": tc.budget, "FORWARD_RETENTION": tc.retention}))
		if err != nil {
			t.Errorf("%+v: %v", tc, err)
			continue
		}
		if c.ForwardBudget != mustDuration(t, tc.budget) || c.ForwardRetention != mustDuration(t, tc.retention) {
			t.Errorf("%+v: budget %v retention %v", tc, c.ForwardBudget, c.ForwardRetention)
		}
	}
	for _, name := range []string{"FORWARD_BUDGET", "FORWARD_RETENTION"} {
		for _, v := range []string{"six hours", "6", "0", "0s", "-1h", "59s", "168h0m1s", "169h", "8760h"} {
			_, err := ParseEnv(envOf(map[string]string{name: v}))
			if err == nil {
				t.Errorf("%s=%s: accepted", name, v)
				continue
			}
			if msg := err.Error(); !strings.HasPrefix(msg, name+":") || strings.Contains(msg, "\n") {
				t.Errorf("%s=%s: message %q does not name %s on one line", name, v, msg, name)
			}
		}
	}
}

func mustDuration(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestConfigPublicURL: PUBLIC_URL is https, or http on loopback; a trailing
// slash is dropped so the SEP-7 callback path can be appended.
func TestConfigPublicURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                               "",
		"https://relay.example.com/":     "https://relay.example.com",
		"https://relay.example.com/base": "https://relay.example.com/base",
		"http://127.0.0.1:8080":          "http://127.0.0.1:8080",
		"http://localhost:8080/":         "http://localhost:8080",
		"http://[::1]:8080":              "http://[::1]:8080",
	} {
		c, err := ParseEnv(envOf(map[string]string{"PUBLIC_URL": in}))
		if err != nil || c.PublicURL != want {
			t.Errorf("PUBLIC_URL=%q: %q, %v; want %q", in, c.PublicURL, err, want)
		}
	}
}

// TestConfigLedgerAPI: CONTRACT section 15's defaults, and rpc with its
// mainnet URL named.
func TestConfigLedgerAPI(t *testing.T) {
	c, err := ParseEnv(envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.LedgerAPI != LedgerAPIHorizon || c.RPCURLs[ledger.Mainnet] != "" ||
		c.RPCURLs[ledger.Testnet] != "https://soroban-testnet.stellar.org" ||
		c.RPCURLs[ledger.Futurenet] != "https://rpc-futurenet.stellar.org" {
		t.Fatalf("defaults: %q %v", c.LedgerAPI, c.RPCURLs)
	}
	c, err = ParseEnv(envOf(map[string]string{"LEDGER_API": "rpc", "RPC_URL_MAINNET": "https://rpc.example.com", "RPC_URL_TESTNET": "http://127.0.0.1:8000"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.LedgerAPI != LedgerAPIRPC || c.RPCURLs[ledger.Mainnet] != "https://rpc.example.com" || c.RPCURLs[ledger.Testnet] != "http://127.0.0.1:8000" {
		t.Fatalf("parsed: %q %v", c.LedgerAPI, c.RPCURLs)
	}
}

// TestConfigLedgerBounds: the preflight's bounds on the ledger API default
// to ledgerapi's defaults (the literals config.go reads are the ones
// deploy/ checks), take their values, and PREFLIGHT_MAX_AGE=0 shares
// nothing (a negative MaxAge).
func TestConfigLedgerBounds(t *testing.T) {
	c, err := ParseEnv(envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.PreflightMaxAccounts != ledgerapi.DefaultMaxAccounts || c.PreflightMaxAge != ledgerapi.DefaultMaxAge ||
		c.LedgerCallsPerClient != ledgerapi.DefaultCallsPerClient || c.LedgerCallsPerAccount != ledgerapi.DefaultCallsPerAccount {
		t.Errorf("defaults %d %v %d %d, want ledgerapi's", c.PreflightMaxAccounts, c.PreflightMaxAge, c.LedgerCallsPerClient, c.LedgerCallsPerAccount)
	}
	c, err = ParseEnv(envOf(map[string]string{"PREFLIGHT_MAX_ACCOUNTS": "1", "PREFLIGHT_MAX_AGE": "1h", "LEDGER_CALLS_PER_CLIENT": "7", "LEDGER_CALLS_PER_ACCOUNT": "9"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.PreflightMaxAccounts != 1 || c.PreflightMaxAge != time.Hour || c.LedgerCallsPerClient != 7 || c.LedgerCallsPerAccount != 9 {
		t.Errorf("parsed %+v", c)
	}
	for _, off := range []string{"0", "0s"} {
		c, err = ParseEnv(envOf(map[string]string{"PREFLIGHT_MAX_AGE": off}))
		if err != nil || c.PreflightMaxAge >= 0 {
			t.Errorf("PREFLIGHT_MAX_AGE=%s: %v, %v; want a negative MaxAge", off, c.PreflightMaxAge, err)
		}
	}
}
