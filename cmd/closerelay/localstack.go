package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"time"

	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// localStack is what `demo` and `load local` run in one process: the
// account-API double on a loopback listener of its own, and the relay wired
// exactly as `closerelay serve` wires it, reading every network from the
// double.
type localStack struct {
	horizonURL, relayURL, opsURL string
	stop                         func() error // drains the relay, then stops the double
}

// startLocalStack serves double and starts the relay with env as its
// environment (the HORIZON_URL_* variables are set to the double).
func startLocalStack(ctx context.Context, double *ledgertest.Handler, env map[string]string, logs io.Writer) (*localStack, error) {
	horizonLis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the account API double: %w", err)
	}
	horizonSrv := &http.Server{Handler: double, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = horizonSrv.Serve(horizonLis) }()
	stopHorizon := func() {
		double.Release()
		_ = horizonSrv.Close()
	}
	horizonURL := "http://" + horizonLis.Addr().String()

	full := maps.Clone(env)
	for _, k := range []string{"HORIZON_URL_MAINNET", "HORIZON_URL_TESTNET", "HORIZON_URL_FUTURENET"} {
		full[k] = horizonURL
	}
	cfg, err := loadConfig(func(k string) string { return full[k] })
	if err != nil {
		stopHorizon()
		return nil, fmt.Errorf("configuration: %w", err)
	}
	stopRelay, relayURL, opsURL, err := startDemoRelay(ctx, cfg, logs)
	if err != nil {
		stopHorizon()
		return nil, err
	}
	return &localStack{
		horizonURL: horizonURL, relayURL: relayURL, opsURL: opsURL,
		stop: func() error {
			err := stopRelay()
			stopHorizon()
			return err
		},
	}, nil
}
