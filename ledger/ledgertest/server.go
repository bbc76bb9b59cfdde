// Package ledgertest is a double of Horizon's account API for tests and the
// demo, and a kit of test material: accounts with signer sets, account-close
// transactions, and signatures, forged hints included.
//
// The double is a small in-memory ledger. It holds accounts (native
// balance, sequence number, thresholds and master weight, signers, flags
// AUTH_REQUIRED / REVOCABLE / IMMUTABLE / CLAWBACK_ENABLED, home domain,
// num_sponsoring and num_sponsored) and the sub-entries they own:
// trustlines to credit assets (balance, limit, authorization flags) and to
// liquidity-pool shares (two sub-entries each), offers (id, seller, selling,
// buying, amount, price; their buying and selling liabilities are computed
// from them) and data entries. numSubEntries is always what the account
// holds: its signers, trustlines, offers and data entries. Entries can name
// the account paying their reserve, which the sponsorship counters follow.
// Tests build this state with SetAccount, AddAccount, Fund, SetBalance,
// SetFlags, SetSponsorship, AddTrustline, AddOffer and SetData (setup.go).
// The base reserve is 0.5 XLM and the base fee 100 stroops.
//
// It serves GET /accounts/{id}, GET /accounts/{id}/offers (Horizon's
// paging: limit, cursor, order, _links) and the root GET / (the latest
// ledger: the last a transaction closed in, as of its clock; CloseLedgers
// moves it on, FailLatest fails its reads) with JSON built from the SDK's own
// protocols/horizon types, so the SDK's horizonclient and the relay's
// Horizon backend (ledgerapi/horizon) parse it exactly as they parse
// Horizon. An unknown account is a 404 carrying Horizon's problem JSON.
// SetAccountDetail makes it answer a hand-made horizon.Account as given
// (for tests of malformed answers) until something changes the account.
// It can also fail (500), answer late, stall until the client gives up, or
// hold requests until the test lets them go, and it counts the requests it
// serves and the most it served at once.
//
// It serves GET /paths/strict-send (direct paths only, paths.go), which a
// test can make lie (SetStrictSendPaths), and GET /order_book over the same
// offers (orderbook.go).
//
// It takes transactions, as Horizon's POST /transactions (form field tx),
// and applies them with stellar-core's rules and result codes, as Horizon
// spells them in extras.result_codes (submit.go, apply.go; each rule names
// the core source file it follows). Validation: time bounds, the minimum
// fee, the source account, the sequence number, the signature checks of
// ledger.CheckSignatures, the fee against the available balance, each
// operation's own checks; a transaction refused there changes nothing.
// Fee-bumps (CAP-15) are applied with FeeBumpTransactionFrame.cpp's rules
// (feebump.go): the fee source pays, the inner transaction runs unchanged.
// SetBaseFee raises the ledger's base fee, the fee floor every bid is
// checked against; the fee statistics (GET /fee_stats, getFeeStats:
// feestats.go) report it.
// Application: the fee is charged and the sequence number consumed, then
// the operations are applied in order; if one fails the transaction is
// tx_failed, every operation rolls back, and the fee and the sequence
// number stay spent, as on the network. Modelled operations:
// create_account, payment (native and credit), manage_sell_offer and
// manage_buy_offer deleting an offer (amount 0), change_trust, manage_data,
// set_options, account_merge and bump_sequence.
//
// Not modelled: offer crossing (an offer with a nonzero amount), path
// payments, claimable balances, liquidity-pool deposits and withdrawals,
// sponsoring future reserves, clawback, trustline authorization operations,
// Soroban and every other operation type: they are refused in validation
// with op_not_supported, never applied as a silent success. Nor are surge
// pricing (the fee charged is the base fee per operation), an account's
// signers of kinds other than ed25519 matching signatures (refused: tx_bad_auth, op_bad_auth or
// tx_bad_auth_extra where core would count them), and the issuer's
// existence for a payment (not checked by core since protocol 13 either).
// Ledger bounds, min_seq_age / min_seq_ledger_gap, extra signers and the
// one-time (pre-auth) signer's removal are modelled (submit.go).
//
// It also answers Stellar RPC's JSON-RPC at POST /rpc over the same ledger
// (rpc.go: getHealth, getNetwork, getLatestLedger, getFeeStats,
// getLedgerEntries, sendTransaction, getTransaction), with faults of its own (FailRPC,
// TryAgainLater, NotFoundFor); RPCBackends and Server.RPCBackends are the
// relay's Stellar RPC backends reading it.
//
// Handler is the double itself, usable on any listener (the demo serves it on
// loopback) or, through Transport, with no listener at all, which lets tests
// run under testing/synctest. Server wraps a Handler in an httptest.Server.
package ledgertest

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledgerapi"
	horizonapi "github.com/closerelay/closerelay/ledgerapi/horizon"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/protocols/horizon/base"
	"github.com/stellar/go-stellar-sdk/support/render/hal"
	"github.com/stellar/go-stellar-sdk/support/render/problem"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Handler serves the account API double. It is safe for concurrent use; its
// setters take effect for the next request.
type Handler struct {
	mux  *http.ServeMux
	done chan struct{} // closed by Release: frees delayed and stalled requests

	mu        sync.Mutex
	accounts  map[string]*account // the ledger's accounts (state.go)
	lastOffer int64               // the last offer id handed out
	closeTime uint64              // the close time of the ledger last closed (submit.go)
	failing   bool
	// latestFailing: the latest ledger's reads (GET /, getLatestLedger)
	// fail while set (FailLatest).
	latestFailing bool
	// unreadable: accounts whose reads answer 503 while set (a Horizon
	// whose ingestion or database is in trouble for some requests only).
	unreadable map[string]bool
	delay      time.Duration
	stalled    bool
	held       chan struct{} // non-nil while held: closed by SetHeld(false)
	requests   int
	calls      map[string]int // every request received, by route (Calls)
	serving    int            // requests being served now
	peak       int            // the most requests served at once
	released   bool

	// Submissions (submit.go).
	network ledger.Network // whose passphrase transactions are hashed under
	floor   int64          // the base fee SetBaseFee set; 0 is BaseFee
	// feeStatsFailing: the fee statistics' reads fail (FailFeeStats).
	feeStatsFailing bool
	clock           func() time.Time                 // the ledger's close time; nil is time.Now
	lastLedger      int32                            // the last ledger a transaction closed in
	applied         map[[32]byte]horizon.Transaction // by hash: a resubmission answers the same
	failed          map[[32]byte]problem.P           // tx_failed in a ledger, by hash: likewise
	submissions     int
	faults          []submitFault // the next submissions' scripted faults, in order
	dropAnswers     int           // the next successes applied but never answered
	credits         []Received    // payments and merges applied, in order (credits.go)

	// The Stellar RPC face (rpc.go).
	rpcFaults     []rpcFault               // the next calls' scripted faults, in order
	tryAgainLater int                      // the next sendTransaction calls answering TRY_AGAIN_LATER
	notFoundFor   int                      // NOT_FOUND answers each new transaction gives first
	rpcCalls      map[string]int           // calls received, by method
	rpcTxs        map[[32]byte]*rpcOutcome // sent through the RPC face, by hash

	// Claimable balances (claimable.go), by Horizon's hex id; claimSeq
	// numbers them.
	claimables map[string]*claimable
	claimSeq   uint64

	// pathsLie, when set, rewrites the records /paths/strict-send answers
	// (paths.go: SetStrictSendPaths); nothing else hears of it.
	pathsLie func(source xdr.Asset, sourceAmount int64, honest []horizon.Path) []horizon.Path
}

// NewHandler returns a double that knows no account yet.
func NewHandler() *Handler {
	h := &Handler{
		mux:      http.NewServeMux(),
		done:     make(chan struct{}),
		accounts: make(map[string]*account),
		network:  ledger.Testnet,
		applied:  make(map[[32]byte]horizon.Transaction),
		failed:   make(map[[32]byte]problem.P),
		rpcCalls: make(map[string]int),
		rpcTxs:   make(map[[32]byte]*rpcOutcome),
		calls:    make(map[string]int),
	}
	h.mux.HandleFunc("GET /accounts/{id}", h.account)
	h.mux.HandleFunc("GET /accounts/{id}/offers", h.offers)
	h.mux.HandleFunc("GET /claimable_balances", h.claimableBalances)
	h.mux.HandleFunc("GET /claimable_balances/{id}", h.claimableBalance)
	h.mux.HandleFunc("GET /paths/strict-send", h.strictSendPaths)
	h.mux.HandleFunc("GET /order_book", h.orderBook)
	h.mux.HandleFunc("GET /fee_stats", h.horizonFeeStats)
	h.mux.HandleFunc("POST /transactions", h.submit)
	h.mux.HandleFunc("POST /rpc", h.rpc)
	h.mux.HandleFunc("GET /{$}", h.root)
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, notFound())
	})
	return h
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, route := h.mux.Handler(r)
	h.mu.Lock()
	h.calls[route]++
	h.mu.Unlock()
	h.mux.ServeHTTP(w, r)
}

// Calls is the number of requests the double received, by route pattern
// ("GET /accounts/{id}", "GET /accounts/{id}/offers", "GET /{$}" for the
// latest ledger, "POST /rpc", …), whatever they were answered: what a
// relay cost the ledger API. Unlike Requests it counts every route, the
// latest ledger's and the submissions' included.
func (h *Handler) Calls() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.calls)
}

// Reads is the number of requests the double received other than
// submissions (POST /transactions): the ledger reads a relay made.
func (h *Handler) Reads() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for route, c := range h.calls {
		if route != "POST /transactions" {
			n += c
		}
	}
	return n
}

// SetAccount makes the double know account id with the given signers (as the
// account API lists them, master key included) and thresholds, replacing any
// earlier state for id. The account holds DefaultBalance and nothing else;
// its sequence number is 1<<32.
func (h *Handler) SetAccount(id string, signers []horizon.Signer, thresholds horizon.AccountThresholds) {
	a := &account{
		id: id, balance: DefaultBalance, seq: 1 << 32, data: map[string]dataEntry{},
		low: thresholds.LowThreshold, med: thresholds.MedThreshold, high: thresholds.HighThreshold,
	}
	a.masterAt = len(signers)
	for i, s := range signers {
		if s.Key == id {
			a.masterWeight, a.masterAt = clampByte(s.Weight), i
			continue
		}
		a.signers = append(a.signers, signer{key: s.Key, typ: s.Type, weight: s.Weight, sponsor: s.Sponsor})
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.accounts[id] = a
}

// AddAccount is SetAccount for an Account made by NewAccount.
func (h *Handler) AddAccount(a Account) {
	h.SetAccount(a.Address, a.Signers, a.Thresholds)
}

// SetAccountDetail makes the double answer acc, as given, for acc.ID, until
// a transaction or a setter changes the account. Tests use it for answers
// SetAccount would not produce (an account_id that differs from the id
// asked for, invalid keys, too many signers). Transactions see the account
// as the answer describes it, as far as it can be read (fromHorizon).
func (h *Handler) SetAccountDetail(acc horizon.Account) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.accounts[acc.ID] = fromHorizon(acc)
}

// Remove forgets account id: it answers 404 again.
func (h *Handler) Remove(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.accounts, id)
}

// SetFailing makes every request (submissions included) answer 500 with
// Horizon's server_error problem, while on.
func (h *Handler) SetFailing(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.failing = on
}

// SetUnreadable makes reads of account id (Horizon's GET /accounts/{id})
// answer 503, while on; every other request is served as usual, so a test
// can fail one account's reads (a mediator's, during its forward) while
// the rest of the ledger API works.
func (h *Handler) SetUnreadable(id string, on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.unreadable == nil {
		h.unreadable = map[string]bool{}
	}
	h.unreadable[id] = on
}

// SetDelay makes every request wait d before answering, or less if the
// client gives up first (its request context ends).
func (h *Handler) SetDelay(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.delay = d
}

// SetStalled makes every request, while on, answer nothing until the client
// gives up: the way to test a timeout without guessing how long it takes.
func (h *Handler) SetStalled(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stalled = on
}

// SetHeld(true) makes every request from then on wait, until SetHeld(false)
// lets them all go on (or their client gives up, or Release); each then
// answers as the double is configured at that moment. It is how a test keeps
// requests in flight for as long as it needs, then has them succeed.
func (h *Handler) SetHeld(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case on && h.held == nil:
		h.held = make(chan struct{})
	case !on && h.held != nil:
		close(h.held)
		h.held = nil
	}
}

// Reads is Handler.Reads.
func (s *Server) Reads() int { return s.h.Reads() }

// Calls is Handler.Calls.
func (s *Server) Calls() map[string]int { return s.h.Calls() }

// Requests is the number of account requests served so far.
func (h *Handler) Requests() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.requests
}

// Serving is the number of account requests being served now (waiting while
// delayed, stalled or held included).
func (h *Handler) Serving() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.serving
}

// PeakServing is the most account requests the double has served at once.
func (h *Handler) PeakServing() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.peak
}

// Release ends every delayed, stalled or held request at once (each answers 503)
// and stops later ones from waiting. Server.Close calls it, so that closing
// never waits on a stalled request whose client is still patient.
func (h *Handler) Release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.released {
		h.released = true
		close(h.done)
	}
}

// Transport is an http.RoundTripper that serves requests with h directly,
// with no listener and no goroutine of its own. A request whose context ends
// while h is delaying or stalling fails with the context's error, as it would
// over a network. Handler.Backends pairs it with the relay's client; under
// testing/synctest a timeout then elapses in fake time.
func (h *Handler) Transport() http.RoundTripper { return inProcess{h} }

func (h *Handler) account(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests++
	h.serving++
	h.peak = max(h.peak, h.serving)
	held := h.held
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.serving--
		h.mu.Unlock()
	}()

	if !h.wait(w, r, held) {
		return
	}
	h.mu.Lock()
	var acc horizon.Account
	a, known := h.accounts[r.PathValue("id")]
	if known {
		acc = a.horizonAccount()
	}
	failing := h.failing
	unreadable := h.unreadable[r.PathValue("id")]
	h.mu.Unlock()
	switch {
	case failing:
		writeProblem(w, problem.ServerError)
	case unreadable:
		writeProblem(w, serviceUnavailable())
	case !known:
		writeProblem(w, notFound())
	default:
		w.Header().Set("Content-Type", "application/hal+json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(acc)
	}
}

// latest is the double's latest ledger: the last one a transaction closed
// in (1 before any), as of its clock. The double has no ledger cadence of
// its own: it closes the next ledger when a transaction comes, at its
// clock's time, so its latest ledger is the one "just closed" now, and a
// preflight that reads it checks time bounds against the time the double
// will apply a close at. h.mu is held.
func (h *Handler) latest() (uint32, time.Time) {
	return uint32(max(h.lastLedger, 1)), h.now().UTC().Truncate(time.Second)
}

// CloseLedgers closes n empty ledgers, as the network does while no
// transaction comes: the latest ledger moves n on.
func (h *Handler) CloseLedgers(n int32) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lastLedger = max(h.lastLedger, 1) + n
}

// FailLatest makes the latest ledger's reads fail while on: GET / answers
// Horizon's 503, getLatestLedger a JSON-RPC internal error.
func (h *Handler) FailLatest(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.latestFailing = on
}

// root is Horizon's root resource, GET /, with the fields of the latest
// ledger (history_latest_ledger and history_latest_ledger_closed_at, and
// the core's and ingestion's, the same ledger here). It is not counted
// among the account route's requests, and the account route's gates do not
// hold it.
func (h *Handler) root(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	seq, closed := h.latest()
	failing := h.failing || h.latestFailing
	passphrase := h.network.Passphrase()
	h.mu.Unlock()
	if failing {
		writeProblem(w, serviceUnavailable())
		return
	}
	var root horizon.Root
	root.HorizonVersion = "ledgertest"
	root.IngestSequence = seq
	root.HorizonSequence = int32(seq)
	root.HorizonLatestClosedAt = closed
	root.HistoryElderSequence = 1
	root.CoreSequence = int32(seq)
	root.NetworkPassphrase = passphrase
	root.CurrentProtocolVersion = 23
	root.SupportedProtocolVersion = 23
	root.CoreSupportedProtocolVersion = 23
	root.Links.Self = hal.NewLink("/")
	root.Links.Account = hal.NewLink("/accounts/{account_id}")
	root.Links.Transactions = hal.NewLink("/transactions{?cursor,limit,order}")
	w.Header().Set("Content-Type", "application/hal+json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(root)
}

// wait makes a request wait while the double holds it (held is the hold it
// arrived under), then for the delay or the stall. It reports false when the
// request is over: its client gave up, or Release answered it 503.
func (h *Handler) wait(w http.ResponseWriter, r *http.Request, held chan struct{}) bool {
	if held != nil {
		select {
		case <-held:
		case <-r.Context().Done():
			return false
		case <-h.done:
			writeProblem(w, serviceUnavailable())
			return false
		}
	}

	h.mu.Lock()
	delay, stalled := h.delay, h.stalled
	h.mu.Unlock()
	if stalled || delay > 0 {
		var elapsed <-chan time.Time
		if !stalled {
			t := time.NewTimer(delay)
			defer t.Stop()
			elapsed = t.C
		}
		select {
		case <-elapsed:
		case <-r.Context().Done():
			return false
		case <-h.done:
			writeProblem(w, serviceUnavailable())
			return false
		}
	}
	return true
}

func serviceUnavailable() problem.P {
	return problem.P{Type: "service_unavailable", Title: "Service Unavailable", Status: http.StatusServiceUnavailable}
}

// horizonErrors prefixes problem types, as Horizon renders them.
const horizonErrors = "https://stellar.org/horizon-errors/"

func notFound() problem.P { return problem.NotFound }

func writeProblem(w http.ResponseWriter, p problem.P) {
	p.Type = horizonErrors + p.Type
	w.Header().Set("Content-Type", "application/problem+json; charset=utf-8")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}

// AccountDetail is the account API's answer for account id: the shape
// Horizon serves, with a native balance, sequence 1<<32 and the given
// signers and thresholds.
func AccountDetail(id string, signers []horizon.Signer, thresholds horizon.AccountThresholds) horizon.Account {
	acc := horizon.Account{
		ID:                 id,
		AccountID:          id,
		Sequence:           1 << 32,
		SubentryCount:      int32(max(len(signers)-1, 0)),
		LastModifiedLedger: 1,
		Thresholds:         thresholds,
		Balances:           []horizon.Balance{{Balance: "10000.0000000", Asset: base.Asset{Type: "native"}}},
		Signers:            append([]horizon.Signer(nil), signers...),
		Data:               map[string]string{},
		PT:                 id,
	}
	self := "/accounts/" + id
	acc.Links.Self = hal.Link{Href: self}
	acc.Links.Transactions = hal.Link{Href: self + "/transactions{?cursor,limit,order}", Templated: true}
	acc.Links.Operations = hal.Link{Href: self + "/operations{?cursor,limit,order}", Templated: true}
	acc.Links.Payments = hal.Link{Href: self + "/payments{?cursor,limit,order}", Templated: true}
	acc.Links.Effects = hal.Link{Href: self + "/effects{?cursor,limit,order}", Templated: true}
	acc.Links.Offers = hal.Link{Href: self + "/offers{?cursor,limit,order}", Templated: true}
	acc.Links.Trades = hal.Link{Href: self + "/trades{?cursor,limit,order}", Templated: true}
	acc.Links.Data = hal.Link{Href: self + "/data/{key}", Templated: true}
	return acc
}

// inProcess is Handler.Transport.
type inProcess struct{ h http.Handler }

func (t inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	// Hand the handler a server-side view of the request.
	sreq := req.Clone(req.Context())
	sreq.RequestURI = req.URL.RequestURI()
	sreq.RemoteAddr = "192.0.2.1:40000"
	if sreq.Body == nil {
		sreq.Body = http.NoBody
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, sreq)
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	resp := rec.Result()
	resp.Request = req
	return resp, nil
}

// Server is a Handler on an httptest.Server. The caller must Close it.
type Server struct {
	URL string // base URL of the account API, for example http://127.0.0.1:40000

	h   *Handler
	srv *httptest.Server
}

// New starts a double on a loopback httptest.Server.
func New() *Server {
	h := NewHandler()
	srv := httptest.NewServer(h)
	return &Server{URL: srv.URL, h: h, srv: srv}
}

// Close releases stalled requests and shuts the server down.
func (s *Server) Close() {
	s.h.Release()
	s.srv.Close()
}

// Handler is the double the server serves.
func (s *Server) Handler() *Handler { return s.h }

// URLs maps every network to this double, the shape HORIZON_URL_* take.
func (s *Server) URLs() map[ledger.Network]string {
	return map[ledger.Network]string{ledger.Mainnet: s.URL, ledger.Testnet: s.URL, ledger.Futurenet: s.URL}
}

// Backends are Horizon backends reading every network from this double over
// its listener, for ledgerapi.Options.Backends.
func (s *Server) Backends() map[ledger.Network]ledgerapi.Backend {
	return horizonapi.Backends(s.URLs(), nil)
}

// Client is a ledger API client reading every network from this double,
// each call bounded by timeout, the other bounds production's.
func (s *Server) Client(timeout time.Duration) *ledgerapi.Client {
	return ledgerapi.New(ledgerapi.Options{Backends: s.Backends(), Timeout: timeout})
}

// SetAccount is Handler.SetAccount.
func (s *Server) SetAccount(id string, signers []horizon.Signer, thresholds horizon.AccountThresholds) {
	s.h.SetAccount(id, signers, thresholds)
}

// AddAccount is Handler.AddAccount.
func (s *Server) AddAccount(a Account) { s.h.AddAccount(a) }

// SetAccountDetail is Handler.SetAccountDetail.
func (s *Server) SetAccountDetail(acc horizon.Account) { s.h.SetAccountDetail(acc) }

// Remove is Handler.Remove.
func (s *Server) Remove(id string) { s.h.Remove(id) }

// SetFailing is Handler.SetFailing.
func (s *Server) SetFailing(on bool) { s.h.SetFailing(on) }

// FailLatest is Handler.FailLatest.
func (s *Server) FailLatest(on bool) { s.h.FailLatest(on) }

// SetDelay is Handler.SetDelay.
func (s *Server) SetDelay(d time.Duration)         { s.h.SetDelay(d) }
func (s *Server) SetUnreadable(id string, on bool) { s.h.SetUnreadable(id, on) }

// SetStalled is Handler.SetStalled.
func (s *Server) SetStalled(on bool) { s.h.SetStalled(on) }

// SetHeld is Handler.SetHeld.
func (s *Server) SetHeld(on bool) { s.h.SetHeld(on) }

// FailSubmissions is Handler.FailSubmissions.
func (s *Server) FailSubmissions(n, status int) { s.h.FailSubmissions(n, status) }

// StallSubmissions is Handler.StallSubmissions.
func (s *Server) StallSubmissions(n int) { s.h.StallSubmissions(n) }

// DropAnswers is Handler.DropAnswers.
func (s *Server) DropAnswers(n int) { s.h.DropAnswers(n) }

// SetNetwork is Handler.SetNetwork.
func (s *Server) SetNetwork(n ledger.Network) { s.h.SetNetwork(n) }

// SetBaseFee is Handler.SetBaseFee.
func (s *Server) SetBaseFee(stroops int64) { s.h.SetBaseFee(stroops) }

// SetClock is Handler.SetClock.
func (s *Server) SetClock(now func() time.Time) { s.h.SetClock(now) }

// SetSequence is Handler.SetSequence.
func (s *Server) SetSequence(id string, seq int64) bool { return s.h.SetSequence(id, seq) }

// Sequence is Handler.Sequence.
func (s *Server) Sequence(id string) (int64, bool) { return s.h.Sequence(id) }

// Submissions is Handler.Submissions.
func (s *Server) Submissions() int { return s.h.Submissions() }

// Applied is Handler.Applied.
func (s *Server) Applied() int { return s.h.Applied() }

// Requests is Handler.Requests.
func (s *Server) Requests() int { return s.h.Requests() }

// Backends are Horizon backends reading every network from h through
// h.Transport, with no listener: the backends for tests under
// testing/synctest, for ledgerapi.Options.Backends.
func (h *Handler) Backends() map[ledger.Network]ledgerapi.Backend {
	urls := map[ledger.Network]string{
		ledger.Mainnet: inProcessURL, ledger.Testnet: inProcessURL, ledger.Futurenet: inProcessURL,
	}
	return horizonapi.Backends(urls, h.Transport())
}

// InProcessClient is a ledger API client that reads every network from h
// through h.Backends, each call bounded by timeout, the other bounds
// production's.
func InProcessClient(h *Handler, timeout time.Duration) *ledgerapi.Client {
	return ledgerapi.New(ledgerapi.Options{Backends: h.Backends(), Timeout: timeout})
}

// inProcessURL is the base URL Handler.Backends uses; nothing resolves it.
const inProcessURL = "http://ledgertest.invalid"

// offers serves GET /accounts/{id}/offers as Horizon does: records as
// horizon.Offer ordered by offer id, limit (1 to 200, default 10), cursor
// (an offer id: records after it in the order asked) and order (asc or
// desc), with _links self, next and prev. An unknown account has no offers
// (Horizon answers an empty page, not 404).
func (h *Handler) offers(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests++
	h.serving++
	h.peak = max(h.peak, h.serving)
	held := h.held
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.serving--
		h.mu.Unlock()
	}()
	if !h.wait(w, r, held) {
		return
	}

	q := r.URL.Query()
	limit := 10
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 200 {
			writeProblem(w, invalidField("limit", "The limit must be an integer from 1 to 200."))
			return
		}
		limit = n
	}
	order := q.Get("order")
	switch order {
	case "":
		order = "asc"
	case "asc", "desc":
	default:
		writeProblem(w, invalidField("order", "The order must be asc or desc."))
		return
	}
	var cursor int64
	hasCursor := q.Get("cursor") != ""
	if hasCursor {
		n, err := strconv.ParseInt(q.Get("cursor"), 10, 64)
		if err != nil || n < 0 {
			writeProblem(w, invalidField("cursor", "The cursor must be an offer id."))
			return
		}
		cursor = n
	}

	id := r.PathValue("id")
	h.mu.Lock()
	failing := h.failing
	var all []horizon.Offer
	if a := h.accounts[id]; a != nil {
		for _, o := range a.offers {
			all = append(all, o.horizonOffer())
		}
	}
	h.mu.Unlock()
	if failing {
		writeProblem(w, problem.ServerError)
		return
	}
	if order == "desc" {
		slices.Reverse(all)
	}
	var page horizon.OffersPage
	page.Embedded.Records = []horizon.Offer{}
	for _, o := range all {
		if len(page.Embedded.Records) == limit {
			break
		}
		if hasCursor && ((order == "asc" && o.ID <= cursor) || (order == "desc" && o.ID >= cursor)) {
			continue
		}
		page.Embedded.Records = append(page.Embedded.Records, o)
	}
	base := "/accounts/" + id + "/offers"
	link := func(cursor, order string) hal.Link {
		return hal.Link{Href: base + "?cursor=" + cursor + "&limit=" + strconv.Itoa(limit) + "&order=" + order}
	}
	next, prev := q.Get("cursor"), q.Get("cursor")
	if recs := page.Embedded.Records; len(recs) > 0 {
		prev, next = recs[0].PT, recs[len(recs)-1].PT
	}
	reverse := map[string]string{"asc": "desc", "desc": "asc"}[order]
	page.Links.Self = link(q.Get("cursor"), order)
	page.Links.Next = link(next, order)
	page.Links.Prev = link(prev, reverse)
	w.Header().Set("Content-Type", "application/hal+json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(page)
}

// invalidField is Horizon's bad_request problem for a query parameter.
func invalidField(field, reason string) problem.P {
	p := badRequest("The request you sent was invalid in some way.")
	p.Extras = map[string]any{"invalid_field": field, "reason": reason}
	return p
}
