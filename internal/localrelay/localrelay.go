// Package localrelay starts a relay in process for closerelaylab and the
// command lines' tests: the composition root of bin/closerelay
// (internal/server) behind ctl.StartRelay's signature, so that package ctl,
// and with it closerelayctl, links no server package.
package localrelay

import (
	"fmt"
	"log/slog"

	"github.com/closerelay/closerelay/internal/server"
)

// Start starts a relay with getenv as its environment, logging to log.
func Start(getenv func(string) string, log *slog.Logger) (apiURL, opsURL string, stop func() error, err error) {
	cfg, err := server.ParseEnv(getenv)
	if err != nil {
		return "", "", nil, fmt.Errorf("configuration: %w", err)
	}
	relay, err := server.Start(server.Options{Config: cfg, Log: log})
	if err != nil {
		return "", "", nil, fmt.Errorf("start the relay: %w", err)
	}
	return relay.APIURL, relay.OpsURL, relay.Stop, nil
}
