// Package client is a typed Go client of closerelay's HTTP API (CONTRACT.md):
// publish, fetch and sign plans, watch a plan's event stream, fetch its
// status and its submit-ready envelope, and mint and co-sign mediator flows.
//
// Every call takes a context, and every refusal by the server comes back as
// an *Error carrying the HTTP status, the code and the reason, so callers
// branch with errors.As instead of parsing text. Anything else (a dial
// failure, a timeout, an answer that is not the contract's shape) is a
// transport problem and is returned as the underlying error.
//
// The client trusts nothing it is sent back beyond the wire shape. The
// readiness the relay reports (weight, threshold, ready, and the
// submit-ready envelope) is the relay's own computation from the account it
// read at publish; checking independently that an envelope meets the
// account's threshold, and that a co-signed forward is really signed by the
// mediator, is the job of package client/wallet, which the service relies on
// clients to do (SPEC "What the service does", item 3).
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/closerelay/closerelay/wire"
)

// maxResponseBytes caps a JSON answer. The largest legitimate one carries an
// envelope of 12,000 characters and a signer list; the cap only stops a
// broken server from streaming without end.
const maxResponseBytes = 1 << 20

// maxReasonBytes caps the reason taken from a plain-text error body.
const maxReasonBytes = 512

// ErrUnexpectedResponse is wrapped by errors for a success status whose body
// is not the contract's shape: the server (or something in front of it)
// answered, but not as closerelay does.
var ErrUnexpectedResponse = errors.New("client: unexpected response from the server")

// Error is a request the server refused: any answer with a status that is not
// 2xx. Code and Reason come from the JSON error body when there is one; the
// event stream answers plain text, which becomes Reason with an empty Code.
type Error struct {
	Status int    // HTTP status, e.g. 400, 404, 429, 503
	Code   string // e.g. "NOT_FOUND", "REJECTED"; empty for plain-text refusals
	Reason string // the server's human-readable sentence
	// RetryAfter is the server's Retry-After delay (429, and 503 at the
	// stream's subscriber cap); zero when the header was absent.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "closerelay: %d %s", e.Status, http.StatusText(e.Status))
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	if e.Reason != "" {
		b.WriteString(": " + e.Reason)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	return b.String()
}

// Client talks to one closerelay instance. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	http      *http.Client
	userAgent string

	// Watch's timing; see the With… options.
	pollInterval   time.Duration
	reconnectMin   time.Duration
	reconnectMax   time.Duration
	idleTimeout    time.Duration
	streamFallback time.Duration
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient sets the HTTP client. Its Timeout must be zero, or event
// streams are cut at that age (Watch reconnects, but each cut costs a round
// trip); bound calls with their contexts instead. The default is a client
// of its own with http.DefaultTransport.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.http = hc } }

// WithUserAgent sets the User-Agent header of every request.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// WithPollInterval sets how often Watch fetches the plan while the stream
// refuses it (503 at the subscriber cap, or 429); default 2 s.
func WithPollInterval(d time.Duration) Option { return func(c *Client) { c.pollInterval = d } }

// WithReconnectDelay sets Watch's backoff after a dropped stream: it starts at
// min (or the stream's retry field, if the server sent one), doubles up to
// max, and starts again after a connection that delivered an event; default
// 500 ms to 30 s.
func WithReconnectDelay(min, max time.Duration) Option {
	return func(c *Client) { c.reconnectMin, c.reconnectMax = min, max }
}

// WithIdleTimeout sets how long Watch waits on a silent stream before it
// takes the connection for dead and reconnects. The server sends a
// heartbeat every 25 s by default, so the default is 65 s; zero or negative
// disables the check.
func WithIdleTimeout(d time.Duration) Option { return func(c *Client) { c.idleTimeout = d } }

// WithStreamRetry sets how long Watch polls before it tries the stream again
// when the server refused it without a Retry-After header; default 5 s, the
// delay the relay itself advertises at its subscriber cap.
func WithStreamRetry(d time.Duration) Option { return func(c *Client) { c.streamFallback = d } }

// New returns a client of the relay at baseURL, e.g. "http://127.0.0.1:8080".
// A path in baseURL is kept as a prefix of every route.
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("client: %q is not an http(s) base URL", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	c := &Client{
		base:           u,
		http:           &http.Client{},
		userAgent:      "closerelay-client/1",
		pollInterval:   2 * time.Second,
		reconnectMin:   500 * time.Millisecond,
		reconnectMax:   30 * time.Second,
		idleTimeout:    65 * time.Second,
		streamFallback: 5 * time.Second,
	}
	for _, o := range opts {
		o(c)
	}
	if c.pollInterval <= 0 {
		c.pollInterval = 2 * time.Second
	}
	if c.reconnectMin <= 0 {
		c.reconnectMin = 500 * time.Millisecond
	}
	if c.reconnectMax < c.reconnectMin {
		c.reconnectMax = c.reconnectMin
	}
	if c.streamFallback <= 0 {
		c.streamFallback = 5 * time.Second
	}
	return c, nil
}

// BaseURL is the relay's base URL as the client uses it.
func (c *Client) BaseURL() string { return c.base.String() }

// Plan is a plan's current state as GET /api/plan/{id} answers it.
type Plan struct {
	Network string
	XDR     string
}

// Signed is the answer to a sign: the full merged envelope after the
// caller's signature landed, the recovered signer keys it carries, in
// envelope order, and the plan's readiness after the merge.
type Signed struct {
	Network string
	XDR     string
	Signers []string
	// Weight is the summed weight of the distinct signers the envelope
	// carries, Threshold the weight the close needs, and Ready is
	// Weight >= Threshold, all as the relay computes them from the
	// account's signers and thresholds it read at publish. A relay older
	// than the readiness fields sends none: Threshold is then 0.
	Weight    int
	Threshold int
	Ready     bool
	// Landable is the preflight's verdict after the merge (CONTRACT
	// section 14): true when the close would land, false when it is
	// blocked, nil when the relay could not tell (uncertain, unchecked) or
	// is older than the preflight.
	Landable *bool
}

// ReadyEnvelope is GET /api/plan/{id}/ready's answer: the submit-ready
// envelope, which carries the fewest of the plan's signatures that reach its
// threshold, largest weights first, so that the ledger's signature checks
// use every one (an envelope carrying every co-signer's signature can fail
// with tx_bad_auth_extra).
type ReadyEnvelope struct {
	ID      string
	Network string
	XDR     string   // the submit-ready envelope
	Signers []string // its signers, in its order
	// Weight is the submit-ready envelope's weight (at least Threshold);
	// Threshold is the plan's.
	Weight    int
	Threshold int
}

// PlanStatus is GET /api/plan/{id}/status's answer: the plan's current
// version and readiness, its expiry, and its submission.
type PlanStatus struct {
	ID        string
	Network   string
	Version   uint64
	Signers   []string // recovered keys, envelope order
	Weight    int
	Threshold int
	Ready     bool
	Expiry    time.Time // the plan's end; every route answers 404 from then on
	// Submit reports whether the plan was published for the relay to
	// submit (PublishSubmit), and Submission how that is going: nil until
	// it starts.
	Submit     bool
	Submission *Submission
	// Preflight is the latest preflight's verdict (CONTRACT section 14):
	// will the close land? Nil from a relay older than the preflight.
	Preflight *Preflight
	// Forward is the mediator forward the relay runs for a close published
	// with PublishFlowToken (CONTRACT section 16): nil until the close's
	// submission succeeded (always, for a plan without a flow), then
	// "pending", "forwarded" (Hash, Ledger, Amount) or "failed" (Code).
	Forward *Forward
}

// Preflight is status.preflight as the relay sends it: State is one of the
// Preflight… constants, Blockers (in operation order) are set only when
// State is PreflightBlocked, and Checked is when the relay read the ledger
// (RFC 3339, UTC).
type Preflight = wire.Preflight

// Blocker is one reason a close would not land: Op is the operation's index
// (-1 for the transaction, -2 for the forward the relay runs after the
// close of a plan with a flow), Code the result code as Horizon spells it
// (or memo_required) and Reason says why in words.
type Blocker = wire.Blocker

// The preflight's states (status.preflight.state).
const (
	PreflightLandable  = "landable"  // the close would land as it is
	PreflightBlocked   = "blocked"   // the ledger would refuse it: do not sign
	PreflightUncertain = "uncertain" // it depends on what the relay did not read
	PreflightUnchecked = "unchecked" // the relay could not read the ledger
)

// Submission is the relay's submission of a plan's submit-ready envelope to
// the ledger (CONTRACT section 10): State "pending", "submitted" (Hash,
// Ledger), "failed" or "blocked" (never posted: the preflight refused it;
// Code, the first blocker's). Reason says why it failed; only `event:
// submit_failed` carries one (Watch), GET /status does not.
type Submission = wire.Submission

// Forward is the relay-run mediator forward (CONTRACT section 16): State
// "pending", "forwarded" (Hash, Ledger, Amount: op0's payment, a decimal
// string of native units) or "failed" (Code, and Hash when one was sent).
// Reason comes only with `event: forward_failed` (Watch).
type Forward = wire.Forward

// CodeSubmitUnsupported is the code of Publish's refusal (HTTP 400) of a
// close published with PublishSubmit whose transaction source is not the
// closing account: the relay cannot submit it.
const CodeSubmitUnsupported = "SUBMIT_UNSUPPORTED"

// PublishOption configures one Publish call.
type PublishOption func(map[string]any)

// PublishSubmit asks the relay to submit the plan's submit-ready envelope to
// the ledger once it is ready ("submit": true). A re-publish may set it; it
// is never unset.
func PublishSubmit() PublishOption { return func(body map[string]any) { body["submit"] = true } }

// PublishFlowToken publishes a close through a mediator with its flow token
// ("flowToken", CONTRACT section 16): once the relay has submitted the
// close, it builds, signs and submits the mediator's forward itself, to the
// destination and with the memo the token commits to. The token must be
// memo-committed (five parts) and fresh, and the publish must carry
// PublishSubmit; otherwise the relay refuses with 400 BAD_FLOW, whose reason
// says which check failed.
func PublishFlowToken(token string) PublishOption {
	return func(body map[string]any) { body["flowToken"] = token }
}

// CodeNotReady is the code of Ready's refusal while the plan's weight is
// below its threshold (HTTP 409); the reason states both.
const CodeNotReady = "NOT_READY"

// Flow is a minted mediator flow: the mint answer as it comes, which has
// no ok field.
type Flow = wire.Flow

// Cosigned is the mediator's answer: the forward envelope with the mediator's
// signature added, and its transaction hash (64 hex characters).
type Cosigned struct {
	SignedXDR string
	Hash      string
}

// Publish opens a plan for a partly signed close transaction (or merges into
// the existing plan of the same transaction) and returns the plan id.
func (c *Client) Publish(ctx context.Context, network, xdr string, opts ...PublishOption) (string, error) {
	var out wire.Published
	body := map[string]any{"network": network, "xdr": xdr}
	for _, o := range opts {
		o(body)
	}
	err := c.do(ctx, http.MethodPost, "/api/plan", nil, body, &out)
	if err != nil {
		return "", err
	}
	if !out.OK || !wire.ValidPlanID(out.ID) {
		return "", fmt.Errorf("%w: publish answered no plan id", ErrUnexpectedResponse)
	}
	return out.ID, nil
}

// Get fetches a plan's current envelope.
func (c *Client) Get(ctx context.Context, id string) (Plan, error) {
	var out wire.Plan
	if err := c.do(ctx, http.MethodGet, planPath(id), nil, nil, &out); err != nil {
		return Plan{}, err
	}
	if !out.OK || out.XDR == "" {
		return Plan{}, fmt.Errorf("%w: the plan answer carries no envelope", ErrUnexpectedResponse)
	}
	return Plan{Network: out.Network, XDR: out.XDR}, nil
}

// Sign sends an envelope carrying the caller's signature (on its own, or with
// others) to be merged into the plan, and returns the merged state.
func (c *Client) Sign(ctx context.Context, id, xdr string) (Signed, error) {
	var out wire.Signed
	if err := c.do(ctx, http.MethodPost, planPath(id)+"/sign", nil, map[string]string{"xdr": xdr}, &out); err != nil {
		return Signed{}, err
	}
	if !out.OK || out.XDR == "" {
		return Signed{}, fmt.Errorf("%w: the sign answer carries no envelope", ErrUnexpectedResponse)
	}
	return Signed{
		Network: out.Network, XDR: out.XDR, Signers: out.Signers,
		Weight: out.Weight, Threshold: out.Threshold, Ready: out.Ready, Landable: out.Landable,
	}, nil
}

// Bumped is a fee-bump the relay accepted for a plan: the plan's id and
// the fee-bump's hash, which submission.hash becomes once it is submitted.
type Bumped struct {
	ID   string
	Hash string
}

// Bump posts a fee-bump envelope around the plan's submit-ready close
// (wallet.WrapFeeBump builds one) for the relay to submit in place of the
// plan's own envelope: POST /api/plan/{id}/bump. A refusal is an *Error
// with the route's code (BUMP_MISMATCH, NOT_READY, BUMP_UNSIGNED,
// BUMP_FEE_TOO_LOW, ALREADY_SUBMITTED, …). An answer that is not for the
// plan asked, or whose hash is not 64 lower-case hex characters, is
// ErrUnexpectedResponse.
func (c *Client) Bump(ctx context.Context, id, xdr string) (Bumped, error) {
	var out wire.Bumped
	if err := c.do(ctx, http.MethodPost, planPath(id)+"/bump", nil, wire.Bump{XDR: xdr}, &out); err != nil {
		return Bumped{}, err
	}
	if !out.OK || !strings.EqualFold(out.ID, id) || !isHash(out.Hash) {
		return Bumped{}, fmt.Errorf("%w: the bump answer names no fee-bump of this plan", ErrUnexpectedResponse)
	}
	return Bumped{ID: out.ID, Hash: out.Hash}, nil
}

// isHash reports whether s is a transaction hash as the relay writes it:
// 64 lower-case hex characters.
func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}

// Ready fetches the plan's submit-ready envelope. While the plan's weight is
// below its threshold the relay refuses with an *Error of Status 409 and
// Code CodeNotReady, whose Reason states the weight and the threshold.
func (c *Client) Ready(ctx context.Context, id string) (ReadyEnvelope, error) {
	var out wire.Ready
	if err := c.do(ctx, http.MethodGet, planPath(id)+"/ready", nil, nil, &out); err != nil {
		return ReadyEnvelope{}, err
	}
	if !out.OK || out.XDR == "" || out.Threshold < 1 || out.Weight < out.Threshold {
		return ReadyEnvelope{}, fmt.Errorf("%w: the ready answer carries no envelope that reaches its threshold", ErrUnexpectedResponse)
	}
	return ReadyEnvelope{
		ID: out.ID, Network: out.Network, XDR: out.XDR, Signers: out.Signers,
		Weight: out.Weight, Threshold: out.Threshold,
	}, nil
}

// Status fetches the plan's current version, readiness, expiry, submission
// and preflight.
func (c *Client) Status(ctx context.Context, id string) (PlanStatus, error) {
	out, err := c.StatusWire(ctx, id)
	if err != nil {
		return PlanStatus{}, err
	}
	expiry, _ := time.Parse(time.RFC3339, out.Expiry) // checked by StatusWire
	return PlanStatus{
		ID: out.ID, Network: out.Network, Version: out.Version, Signers: out.Signers,
		Weight: out.Weight, Threshold: out.Threshold, Ready: out.Ready, Expiry: expiry,
		Submit: out.Submit, Submission: out.Submission, Preflight: out.Preflight,
		Forward: out.Forward,
	}, nil
}

// StatusWire is Status's answer as the relay sent it (wire.Status), for a
// caller that passes it on as it is (closerelayctl status --json). It is
// checked as Status checks it: version, threshold and an RFC 3339 expiry.
func (c *Client) StatusWire(ctx context.Context, id string) (wire.Status, error) {
	var out wire.Status
	if err := c.do(ctx, http.MethodGet, planPath(id)+"/status", nil, nil, &out); err != nil {
		return wire.Status{}, err
	}
	expiry, err := time.Parse(time.RFC3339, out.Expiry)
	if !out.OK || out.Version == 0 || out.Threshold < 1 || err != nil || expiry.IsZero() {
		return wire.Status{}, fmt.Errorf("%w: the status answer lacks version, threshold or expiry", ErrUnexpectedResponse)
	}
	return out, nil
}

// MediatorMint mints a mediator flow committed to destination.
func (c *Client) MediatorMint(ctx context.Context, destination string) (Flow, error) {
	return c.mint(ctx, url.Values{"destination": {destination}})
}

// MediatorMintMemo mints a mediator flow committed to destination and to
// memo, "<type>:<value>" (CONTRACT section 13): its token has five parts,
// and the mediator co-signs only a forward that carries exactly that memo.
// The relay refuses a memo that is not valid with INVALID_MEMO (400).
func (c *Client) MediatorMintMemo(ctx context.Context, destination, memo string) (Flow, error) {
	return c.mint(ctx, url.Values{"destination": {destination}, "memo": {memo}})
}

func (c *Client) mint(ctx context.Context, q url.Values) (Flow, error) {
	var out Flow
	if err := c.do(ctx, http.MethodGet, "/api/mediator/sign", q, nil, &out); err != nil {
		return Flow{}, err
	}
	if out.FlowToken == "" || out.MediatorPublicKey == "" {
		return Flow{}, fmt.Errorf("%w: the mint answer lacks flowToken or mediatorPublicKey", ErrUnexpectedResponse)
	}
	return out, nil
}

// MediatorCosign asks the mediator to co-sign a forward envelope of the flow.
// Check the answer with wallet.VerifyCosigned before submitting it.
func (c *Client) MediatorCosign(ctx context.Context, envelopeXDR, flowToken, network string) (Cosigned, error) {
	var out wire.Cosigned
	body := map[string]string{"envelopeXdr": envelopeXDR, "flowToken": flowToken, "network": network}
	if err := c.do(ctx, http.MethodPost, "/api/mediator/sign", nil, body, &out); err != nil {
		return Cosigned{}, err
	}
	if !out.OK || out.SignedXDR == "" {
		return Cosigned{}, fmt.Errorf("%w: the co-sign answer carries no signedXdr", ErrUnexpectedResponse)
	}
	return Cosigned{SignedXDR: out.SignedXDR, Hash: out.Hash}, nil
}

// planPath escapes id so that a caller's typo cannot reach another route.
func planPath(id string) string { return "/api/plan/" + url.PathEscape(id) }

// newRequest builds a request to path, which must already be escaped.
func (c *Client) newRequest(ctx context.Context, method, path string, query url.Values, body any) (*http.Request, error) {
	target := c.base.String() + path
	if query != nil {
		target += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.userAgent != "" {
		req.Header.Set("User-Agent", c.userAgent)
	}
	return req, nil
}

// do sends one JSON request and decodes a 2xx answer into out.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	req, err := c.newRequest(ctx, method, path, query, body)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return errorFrom(resp)
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return err
	}
	if len(raw) > maxResponseBytes {
		return fmt.Errorf("%w: answer larger than %d bytes", ErrUnexpectedResponse, maxResponseBytes)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%w: %v", ErrUnexpectedResponse, err)
	}
	return nil
}

// errorFrom turns a non-2xx answer into an *Error, reading the JSON error
// body when there is one and a short plain-text reason otherwise.
func errorFrom(resp *http.Response) *Error {
	e := &Error{Status: resp.StatusCode, RetryAfter: parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	var body wire.Error
	if json.Unmarshal(raw, &body) == nil && (body.Code != "" || body.Reason != "") {
		e.Code, e.Reason = body.Code, body.Reason
		return e
	}
	text := strings.TrimSpace(string(raw))
	if len(text) > maxReasonBytes {
		text = text[:maxReasonBytes] + "…"
	}
	e.Reason = text
	return e
}

// parseRetryAfter reads Retry-After as delay-seconds or an HTTP date
// (RFC 9110, 10.2.3); anything else is no delay.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 || s > int64(24*time.Hour/time.Second) {
			return 0
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
