# closerelay — see README.md. Every target works on a machine with only Go installed.
GO        ?= go
BIN       := bin/closerelay
CTL       := bin/closerelayctl
LAB       := bin/closerelaylab
STATICCHECK_VERSION := v0.8.2
GOBIN     := $(shell $(GO) env GOPATH)/bin
# The build's version and revision, shown by --version, the start-up log line
# and closerelay_build_info; "dev"/"unknown" outside a git checkout.
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
REVISION  ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
BUILDINFO := github.com/closerelay/closerelay/internal/buildinfo
LDFLAGS   := -X $(BUILDINFO).version=$(VERSION) -X $(BUILDINFO).revision=$(REVISION)

.PHONY: all build run demo test test-ts test-web test-cluster lint bench fuzz deploy-check bench-load bench-ab bench-hostile clean

all: build

# The server (bin/closerelay), the command line (bin/closerelayctl, a client
# only) and the demo and load tools (bin/closerelaylab, which start a relay in
# process).
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/closerelay
	$(GO) build -ldflags "$(LDFLAGS)" -o $(CTL) ./cmd/closerelayctl
	$(GO) build -ldflags "$(LDFLAGS)" -o $(LAB) ./cmd/closerelaylab

run: build
	./$(BIN)

# The whole flow end to end on loopback; exits by itself. `make demo KEEP=1`
# keeps the relay serving afterwards (closerelaylab demo --keep), to open
# the plan's page, until Ctrl-C.
demo: build
	./$(LAB) demo $(if $(KEEP),--keep)

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory test-ts test-web; \
	else \
		echo "test: node or npm not found: skipping the TypeScript client's tests (clients/ts, make test-ts) and the page build's check (web/ts, make test-web)"; \
	fi

# The TypeScript client (clients/ts, CONTRACT section 19) against the real
# relay: builds cmd/closerelaylab into a temporary directory and runs
# `closerelaylab load local` on loopback; about 30 s once npm ci has its
# cache. Needs node 20+ and npm (and the npm registry, or npm's cache).
test-ts:
	cd clients/ts && npm ci --no-audit --no-fund --prefer-offline && npm test

# The plan page's TypeScript (web/ts, CONTRACT section 20): installs its
# locked toolchain (esbuild, TypeScript, Stellar Wallets Kit), type-checks
# the wallet module, and checks that the committed build under web/assets is
# the build of the sources (web's TestAssetsAreTheBuild). After changing
# web/ts: `cd web/ts && npm run build`, and commit web/assets.
test-web:
	cd web/ts && npm ci --no-audit --no-fund --prefer-offline && npm run check
	$(GO) test -count=1 -run 'TestAssetsAreTheBuild|TestPlanJSHasTheBlockerWords' ./web

# Cluster mode end to end (CONTRACT section 12): three relays, a three-node
# NATS cluster and Debian's HAProxy on loopback, a relay killed, a NATS
# server lost, a rolling restart; about 10 s once built. Installs haproxy
# when missing (internal/clustertest/run.sh).
test-cluster:
	bash internal/clustertest/run.sh

$(GOBIN)/staticcheck:
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

lint: $(GOBIN)/staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GOBIN)/staticcheck ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1,2 ./...

# Every fuzz target in turn, FUZZTIME each (go test takes one target per run).
# The seed corpora under */testdata/fuzz also run in `make test`.
FUZZTIME ?= 1m
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
		for t in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | cut -c6-); do \
			echo "== $$pkg $$t ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) -parallel 1 $$pkg; \
		done; \
	done

clean:
	rm -rf bin

# The load kit on loopback, about 6 minutes: the raw ed25519 rates, k6 and
# wrk sign scenarios, every route (closerelaylab load routes), bursts of new
# signers (from wrk when present) and the stream load against `closerelaylab
# load local` on free ports; one table of issues 16 and 27's targets,
# non-zero exit when one is not met (loadkit/bench-load.sh; installs k6 with
# go install, and wrk with apt-get as root, if absent).
bench-load:
	bash loadkit/bench-load.sh

# The load kit's replay and admit figures of two revisions in one session,
# alternating builds, each against the raw ed25519 rates of its round
# (loadkit/bench-ab.sh; issue 20's 5 % check): make bench-ab OLD=REV [NEW=REV]
# [ROUNDS=3], about ROUNDS x 45 s once built. OLD=88bbf5e is the tree before
# the round-3 shape work.
bench-ab:
	OLD=$(OLD) NEW=$(or $(NEW),HEAD) bash loadkit/bench-ab.sh

# CONTRACT section 9's hostile traffic against the real binary on loopback
# (cmd/floodcheck, about 30 s): label, header and stalled-body floods; one
# table, non-zero exit when a bound does not hold (loadkit/hostile.sh).
bench-hostile:
	bash loadkit/hostile.sh

# Validates every deploy artifact with a real tool (promtool, haproxy -c,
# systemd-analyze, kustomize and strict decoding into k8s.io/api types);
# installs promtool, haproxy and systemd from Debian if absent.
deploy-check:
	bash deploy/check.sh
