package server

import (
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/mediator"
)

// Config is the relay's configuration: CONTRACT sections 1 and 9, read from
// the environment by ParseEnv. Only a command hands ParseEnv the real
// environment (os.Getenv); everything else builds a Config or takes Options.
type Config struct {
	ListenAddr     string
	OpsAddr        string
	HorizonURLs    map[ledger.Network]string
	HorizonTimeout time.Duration
	HorizonConc    int // HORIZON_CONCURRENCY: account API calls in flight at most
	// LedgerAPI is LEDGER_API (CONTRACT section 15): LedgerAPIHorizon or
	// LedgerAPIRPC, for every network. RPCURLs are RPC_URL_*, used with
	// LedgerAPIRPC; mainnet's has no default.
	LedgerAPI        string
	RPCURLs          map[ledger.Network]string
	PlansPerAccount  int    // PLANS_PER_ACCOUNT: open plans of one closing account at most
	MediatorSecret   string // never logged, never echoed in an error
	TrustedProxyHops int
	RateLimits       bool
	SSEHeartbeat     time.Duration
	CORSAllowOrigins []string
	PublicURL        string // PUBLIC_URL: the base URL clients reach; "" when unknown
	WalletConnectID  string // WALLETCONNECT_PROJECT_ID: the plan page offers WalletConnect; "" for none
	LogLevel         slog.Level
	LogFormat        string
	ShutdownTimeout  time.Duration
	// ForwardBudget (FORWARD_BUDGET) and ForwardRetention
	// (FORWARD_RETENTION) become actor.Options' fields of those names: how
	// long a mediator forward is retried from its first try, and how long
	// a plan stays readable at /status once its forward settled past its
	// signing window. Zero (a Config built without ParseEnv) is the actor's
	// default.
	ForwardBudget, ForwardRetention time.Duration
	// The preflight's bounds on the ledger API (docs/API.md section 12),
	// ledgerapi.Options' MaxAccounts, MaxAge, CallsPerClient and
	// CallsPerAccount: PREFLIGHT_MAX_ACCOUNTS, PREFLIGHT_MAX_AGE (negative
	// when set to 0: nothing shared across time), LEDGER_CALLS_PER_CLIENT
	// and LEDGER_CALLS_PER_ACCOUNT. Zero (a Config built without ParseEnv)
	// is ledgerapi's default.
	PreflightMaxAccounts                        int
	PreflightMaxAge                             time.Duration
	LedgerCallsPerClient, LedgerCallsPerAccount int

	// Cluster mode (CONTRACT section 12): NATSURLs empty is one process
	// with its plans in memory, exactly as sections 1 to 11 say.
	NATSURLs     []string // NATS_URL, comma-separated nats:// URLs
	NATSBucket   string   // NATS_BUCKET: the JetStream key-value bucket of the plans
	NATSReplicas int      // NATS_REPLICAS: the bucket's replicas, 1 to 5
}

// The ledger APIs LEDGER_API names.
const (
	LedgerAPIHorizon = "horizon"
	LedgerAPIRPC     = "rpc"
)

// ConfigError names the variable at fault; its message is one line and never
// contains the variable's value when the value may be a secret.
type ConfigError struct {
	Variable string
	Problem  string
}

func (e *ConfigError) Error() string { return e.Variable + ": " + e.Problem }

// Defaults is the configuration of an empty environment: every default of
// CONTRACT sections 1 and 9.
func Defaults() Config {
	c, err := ParseEnv(func(string) string { return "" })
	if err != nil {
		panic("server: the defaults do not parse: " + err.Error())
	}
	return c
}

// ParseEnv reads CONTRACT sections 1 and 9 through getenv. An invalid value
// gives a *ConfigError naming the variable, on one line, never with the
// value of a secret.
func ParseEnv(getenv func(string) string) (Config, error) {
	str := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	dur := func(name, def string) (time.Duration, error) {
		v := str(name, def)
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return 0, &ConfigError{name, fmt.Sprintf("%q is not a positive Go duration (e.g. 10s)", v)}
		}
		return d, nil
	}
	c := Config{
		ListenAddr: str("LISTEN_ADDR", ":8080"),
		OpsAddr:    str("OPS_ADDR", ":9090"),
		HorizonURLs: map[ledger.Network]string{
			ledger.Mainnet:   str("HORIZON_URL_MAINNET", "https://horizon.stellar.org"),
			ledger.Testnet:   str("HORIZON_URL_TESTNET", "https://horizon-testnet.stellar.org"),
			ledger.Futurenet: str("HORIZON_URL_FUTURENET", "https://horizon-futurenet.stellar.org"),
		},
		LedgerAPI: str("LEDGER_API", LedgerAPIHorizon),
		// SDF's public RPC serves testnet and futurenet; mainnet has no
		// public default, so an operator names theirs (CONTRACT section 15).
		RPCURLs: map[ledger.Network]string{
			ledger.Mainnet:   getenv("RPC_URL_MAINNET"),
			ledger.Testnet:   str("RPC_URL_TESTNET", "https://soroban-testnet.stellar.org"),
			ledger.Futurenet: str("RPC_URL_FUTURENET", "https://rpc-futurenet.stellar.org"),
		},
		MediatorSecret: getenv("MEDIATOR_SECRET"),
		LogFormat:      str("LOG_FORMAT", "json"),
	}
	var errs []error
	var err error
	if c.HorizonTimeout, err = dur("HORIZON_TIMEOUT", "10s"); err != nil {
		errs = append(errs, err)
	}
	if c.SSEHeartbeat, err = dur("SSE_HEARTBEAT", "25s"); err != nil {
		errs = append(errs, err)
	}
	if c.ShutdownTimeout, err = dur("SHUTDOWN_TIMEOUT", "15s"); err != nil {
		errs = append(errs, err)
	}
	// The forward's bounds: a minute at least, so that a typo such as 6s
	// does not fail every forward a slow ledger API delays, and a week at
	// most, so that a plan (and its slot under the 500-plan limit) is
	// never held for longer.
	bounded := func(name string, def time.Duration) (time.Duration, error) {
		v := getenv(name)
		if v == "" {
			return def, nil
		}
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute || d > 168*time.Hour {
			return 0, &ConfigError{name, fmt.Sprintf("%q is not a Go duration from 1m to 168h", v)}
		}
		return d, nil
	}
	if c.ForwardBudget, err = bounded("FORWARD_BUDGET", actor.DefaultForwardBudget); err != nil {
		errs = append(errs, err)
	}
	if c.ForwardRetention, err = bounded("FORWARD_RETENTION", actor.DefaultForwardRetention); err != nil {
		errs = append(errs, err)
	}
	positive := func(name, def string) (int, error) {
		v := str(name, def)
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, &ConfigError{name, fmt.Sprintf("%q is not a whole number of 1 or more", v)}
		}
		return n, nil
	}
	if c.HorizonConc, err = positive("HORIZON_CONCURRENCY", "32"); err != nil {
		errs = append(errs, err)
	}
	if c.PlansPerAccount, err = positive("PLANS_PER_ACCOUNT", "5"); err != nil {
		errs = append(errs, err)
	}
	if c.PreflightMaxAccounts, err = positive("PREFLIGHT_MAX_ACCOUNTS", "20"); err != nil {
		errs = append(errs, err)
	}
	if c.LedgerCallsPerClient, err = positive("LEDGER_CALLS_PER_CLIENT", "300"); err != nil {
		errs = append(errs, err)
	}
	if c.LedgerCallsPerAccount, err = positive("LEDGER_CALLS_PER_ACCOUNT", "150"); err != nil {
		errs = append(errs, err)
	}
	// At most an hour: evidence older than that is no evidence of what the
	// ledger holds when the close is signed.
	switch v := str("PREFLIGHT_MAX_AGE", "60s"); {
	case v == "0":
		c.PreflightMaxAge = -1
	default:
		d, perr := time.ParseDuration(v)
		switch {
		case perr != nil || d < 0 || d > time.Hour:
			errs = append(errs, &ConfigError{"PREFLIGHT_MAX_AGE", fmt.Sprintf("%q is not 0 or a Go duration up to 1h (e.g. 60s)", v)})
		case d == 0:
			c.PreflightMaxAge = -1
		default:
			c.PreflightMaxAge = d
		}
	}
	hops := str("TRUSTED_PROXY_HOPS", "1")
	if c.TrustedProxyHops, err = strconv.Atoi(hops); err != nil || c.TrustedProxyHops < 0 {
		errs = append(errs, &ConfigError{"TRUSTED_PROXY_HOPS", fmt.Sprintf("%q is not a whole number of hops (0 or more)", hops)})
	}
	switch v := str("RATE_LIMITS", "on"); v {
	case "on":
		c.RateLimits = true
	case "off":
	default:
		errs = append(errs, &ConfigError{"RATE_LIMITS", fmt.Sprintf("%q is neither on nor off", v)})
	}
	// Environment-level check only (SPEC): S prefix and 56 characters; empty
	// means unset. The strict seed check runs at first use, in mediator.
	if mediator.ParseSecretEnv(c.MediatorSecret) != nil {
		errs = append(errs, &ConfigError{"MEDIATOR_SECRET", "must be a seed of 56 characters starting with S (value not shown)"})
	}
	if c.NATSURLs, err = natsURLs(getenv("NATS_URL")); err != nil {
		errs = append(errs, err)
	}
	c.NATSBucket = str("NATS_BUCKET", "closerelay_plans")
	if !validBucket(c.NATSBucket) {
		errs = append(errs, &ConfigError{"NATS_BUCKET", fmt.Sprintf("%q is not a bucket name (letters, digits, - and _)", c.NATSBucket)})
	}
	// JetStream replicates a stream on at most 5 servers.
	replicas := str("NATS_REPLICAS", "1")
	if c.NATSReplicas, err = strconv.Atoi(replicas); err != nil || c.NATSReplicas < 1 || c.NATSReplicas > 5 {
		errs = append(errs, &ConfigError{"NATS_REPLICAS", fmt.Sprintf("%q is not a whole number from 1 to 5", replicas)})
	}
	if c.PublicURL, err = publicURL(getenv("PUBLIC_URL")); err != nil {
		errs = append(errs, err)
	}
	// A WalletConnect (Reown) project id is 32 hexadecimal characters; it
	// is public, written into the plan page for the wallet module.
	if c.WalletConnectID = strings.TrimSpace(getenv("WALLETCONNECT_PROJECT_ID")); c.WalletConnectID != "" && !walletConnectID.MatchString(c.WalletConnectID) {
		errs = append(errs, &ConfigError{"WALLETCONNECT_PROJECT_ID", fmt.Sprintf("%q is not a WalletConnect project id (32 hexadecimal characters)", c.WalletConnectID)})
	}
	for _, o := range strings.Split(getenv("CORS_ALLOW_ORIGINS"), ",") {
		if o = strings.TrimSpace(o); o != "" {
			c.CORSAllowOrigins = append(c.CORSAllowOrigins, o)
		}
	}
	if err := c.LogLevel.UnmarshalText([]byte(str("LOG_LEVEL", "info"))); err != nil {
		errs = append(errs, &ConfigError{"LOG_LEVEL", fmt.Sprintf("%q is not one of debug, info, warn, error", getenv("LOG_LEVEL"))})
	}
	if c.LogFormat != "json" && c.LogFormat != "text" {
		errs = append(errs, &ConfigError{"LOG_FORMAT", fmt.Sprintf("%q is neither json nor text", c.LogFormat)})
	}
	for _, n := range []ledger.Network{ledger.Mainnet, ledger.Testnet, ledger.Futurenet} {
		if u := c.HorizonURLs[n]; !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			errs = append(errs, &ConfigError{"HORIZON_URL_" + strings.ToUpper(string(n)), fmt.Sprintf("%q is not an http(s) URL", u)})
		}
	}
	if c.LedgerAPI != LedgerAPIHorizon && c.LedgerAPI != LedgerAPIRPC {
		errs = append(errs, &ConfigError{"LEDGER_API", fmt.Sprintf("%q is neither horizon nor rpc", c.LedgerAPI)})
	}
	for _, n := range []ledger.Network{ledger.Mainnet, ledger.Testnet, ledger.Futurenet} {
		name := "RPC_URL_" + strings.ToUpper(string(n))
		switch u := c.RPCURLs[n]; {
		case u == "" && c.LedgerAPI == LedgerAPIRPC:
			errs = append(errs, &ConfigError{name, "must be set when LEDGER_API=rpc (there is no public default)"})
		case u != "" && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://"):
			// Checked whichever API is chosen, as every variable is.
			errs = append(errs, &ConfigError{name, fmt.Sprintf("%q is not an http(s) URL", u)})
		}
	}
	if len(errs) > 0 {
		return c, errs[0]
	}
	return c, nil
}

// publicURL checks PUBLIC_URL (CONTRACT section 11): empty, or an absolute
// https:// URL, or http:// for a loopback host, with no query or fragment. A
// trailing slash is dropped, so paths can be appended.
func publicURL(v string) (string, error) {
	if v == "" {
		return "", nil
	}
	bad := &ConfigError{"PUBLIC_URL", fmt.Sprintf("%q is not an absolute https:// URL (http:// only for loopback) without query or fragment", v)}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", bad
	}
	switch u.Scheme {
	case "https":
	case "http":
		host := u.Hostname()
		if ip, err := netip.ParseAddr(host); (err != nil || !ip.IsLoopback()) && host != "localhost" {
			return "", bad
		}
	default:
		return "", bad
	}
	return strings.TrimRight(v, "/"), nil
}

// natsURLs checks NATS_URL (CONTRACT section 12): empty, or comma-separated
// nats:// (or tls://) URLs with a host. The URLs may carry credentials, so
// an error never shows the value.
func natsURLs(v string) ([]string, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	var urls []string
	for _, raw := range strings.Split(v, ",") {
		raw = strings.TrimSpace(raw)
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "nats" && u.Scheme != "tls") || u.Host == "" {
			return nil, &ConfigError{"NATS_URL", "must be comma-separated nats:// or tls:// URLs with a host (value not shown: it may hold credentials)"}
		}
		urls = append(urls, raw)
	}
	return urls, nil
}

// validBucket reports whether name is a JetStream key-value bucket name.
func validBucket(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// walletConnectID is a WalletConnect (Reown) project id's form.
var walletConnectID = regexp.MustCompile(`^[0-9a-fA-F]{32}$`)
