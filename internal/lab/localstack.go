package lab

import (
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"time"

	"github.com/closerelay/closerelay/internal/server"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// localStack is what `demo` and `load local` run in one process: the
// account-API double on a loopback listener of its own, and a relay from
// internal/server (the composition root the closerelay binary uses too),
// reading every network from the double.
type localStack struct {
	horizonURL, relayURL, opsURL string
	stop                         func() error // drains the relay, then stops the double
}

// startLocalStack serves double and starts the relay with env as its
// environment (the HORIZON_URL_* variables are set to the double, and the
// RPC_URL_* ones to its Stellar RPC face, for LEDGER_API=rpc).
func startLocalStack(double *ledgertest.Handler, env map[string]string, logs io.Writer) (*localStack, error) {
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
	for _, k := range []string{"RPC_URL_MAINNET", "RPC_URL_TESTNET", "RPC_URL_FUTURENET"} {
		full[k] = ledgertest.RPCURL(horizonURL)
	}
	cfg, err := server.ParseEnv(func(k string) string { return full[k] })
	if err != nil {
		stopHorizon()
		return nil, fmt.Errorf("configuration: %w", err)
	}
	log := slog.New(slog.DiscardHandler)
	if logs != nil {
		log = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	relay, err := server.Start(server.Options{Config: cfg, Log: log})
	if err != nil {
		stopHorizon()
		return nil, fmt.Errorf("start the relay: %w", err)
	}
	return &localStack{
		horizonURL: horizonURL, relayURL: relay.APIURL, opsURL: relay.OpsURL,
		stop: func() error {
			err := relay.Stop()
			stopHorizon()
			return err
		},
	}, nil
}
