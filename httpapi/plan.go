package httpapi

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"time"
	"unicode/utf8"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/httpapi/bounds"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/wire"
	"github.com/labstack/echo/v4"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// readObject reads a capped JSON body as an object of raw fields. It answers
// 413 when the cap was hit, and ok=false for anything that is not an object.
func readObject(c echo.Context) (fields map[string]json.RawMessage, ok bool, err error) {
	raw, err := readBody(c)
	if err != nil {
		return nil, false, err
	}
	fields, ok = objectOf(raw)
	return fields, ok, nil
}

// objectOf decodes a body as an object of raw fields; ok is false for
// anything that is not an object.
func objectOf(raw []byte) (fields map[string]json.RawMessage, ok bool) {
	// Keys are matched exactly, as the wallet clients send them: encoding/json's
	// case-insensitive struct matching would accept "XDR" for "xdr".
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, false
	}
	return fields, true
}

// onlyXDR is the xdr of a body that is exactly {"xdr":"…"} with a value
// that needs no unescaping, the body every co-signer's client sends: what
// objectOf and stringField would make of it, without decoding the body
// twice (encoding/json validates, then decodes, into a map). ok is false for
// any other body, which takes the full decoding.
func onlyXDR(raw []byte) (string, bool) {
	const head, tail = `{"xdr":`, `}`
	if len(raw) < len(head)+len(tail)+2 || string(raw[:len(head)]) != head || string(raw[len(raw)-len(tail):]) != tail {
		return "", false
	}
	return plainString(raw[len(head) : len(raw)-len(tail)])
}

// readAll reads r's body into one buffer sized from its Content-Length
// (bodies are capped at MaxBodyBytes before this, so a declared length above the
// cap is refused by that reader, not allocated here); io.ReadAll would grow
// its buffer from 512 bytes through four allocations for a partial.
func readAll(r *http.Request) ([]byte, error) {
	n := r.ContentLength
	if n <= 0 || n > MaxBodyBytes {
		return io.ReadAll(r.Body)
	}
	buf := make([]byte, 0, n+1) // +1: the read that finds the end needs room
	for {
		m, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		switch {
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return buf, err
		case len(buf) == cap(buf):
			// More than declared: let io.ReadAll take the rest (net/http
			// refuses a body longer than its Content-Length anyway).
			rest, err := io.ReadAll(r.Body)
			return append(buf, rest...), err
		}
	}
}

// readBody reads a capped body: 413 when the cap was hit, 408 when it did
// not arrive in time, client gone when the connection ended under it.
func readBody(c echo.Context) ([]byte, error) {
	raw, err := readAll(c.Request())
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return nil, errcode.New(errcode.PayloadTooLarge, "request body is larger than 16384 bytes")
		case errors.Is(err, bounds.ErrBodyTimeout):
			return nil, errcode.New(errcode.RequestTimeout, "the request body did not arrive within 10 s of its headers")
		}
		// Anything else is a connection that ended under the body.
		return nil, fmt.Errorf("%w: reading the body: %w", errClientGone, err)
	}
	return raw, nil
}

// isForm reports whether the request body is a form (a SEP-7 callback).
func isForm(c echo.Context) bool {
	ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	return ct == echo.MIMEApplicationForm
}

// formXDR reads a SEP-7 callback's form body (CONTRACT section 11):
// signed_envelope_xdr when present (Albedo), else xdr (SEP-7). A present
// signed_envelope_xdr is used even when it does not decode: no fall-back.
func formXDR(c echo.Context) (string, error) {
	raw, err := readBody(c)
	if err != nil {
		return "", err
	}
	values, err := url.ParseQuery(string(raw))
	if err != nil {
		return "", errcode.New(errcode.BadXDR, "the form body does not parse")
	}
	name := "xdr"
	if _, albedo := values["signed_envelope_xdr"]; albedo {
		name = "signed_envelope_xdr"
	}
	v, present := values[name]
	if !present {
		return "", errcode.New(errcode.BadXDR, "the form must carry xdr or signed_envelope_xdr")
	}
	return checkXDR(name, v[0])
}

// stringField returns fields[name] when it is a JSON string.
func stringField(fields map[string]json.RawMessage, name string) (string, bool) {
	raw, present := fields[name]
	if !present {
		return "", false
	}
	if v, ok := plainString(raw); ok {
		return v, true
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false
	}
	return v, true
}

// plainString is the value of raw, a JSON string already validated by the
// body's decoding, when it is printable ASCII without escapes (base64 XDR
// always is): the same string json.Unmarshal would give, without decoding
// the body's largest field a second time. ok is false for anything else.
func plainString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c < 0x20 || c >= 0x7f || c == '\\' || c == '"' {
			return "", false
		}
	}
	return string(body), true
}

// checkXDRField is guard 1, shared by publish and sign.
func checkXDRField(fields map[string]json.RawMessage, ok bool) (string, error) {
	if !ok {
		return "", errcode.New(errcode.BadXDR, "request body must be a JSON object with an xdr string")
	}
	x, isString := stringField(fields, "xdr")
	if !isString {
		return "", errcode.New(errcode.BadXDR, "xdr must be a string")
	}
	return checkXDR("xdr", x)
}

// checkXDR is guard 1 on a field's string value.
func checkXDR(name, x string) (string, error) {
	switch {
	case x == "":
		return "", errcode.New(errcode.BadXDR, name+" is empty")
	case len(x) > ledger.MaxXDRLength && utf8.RuneCountInString(x) > ledger.MaxXDRLength:
		return "", errcode.New(errcode.BadXDR, name+" is longer than 12000 characters")
	}
	return x, nil
}

// submitField is publish's optional "submit" (CONTRACT section 10): absent
// or false is false, true is true; anything else (null, a string, a number)
// is 400 BAD_REQUEST, checked with guard 1's shape checks. false never unsets
// a submit an earlier publish set.
func submitField(fields map[string]json.RawMessage) (bool, error) {
	raw, present := fields["submit"]
	if !present {
		return false, nil
	}
	var v *bool
	if err := json.Unmarshal(raw, &v); err != nil || v == nil {
		return false, errcode.New(errcode.BadRequest, "submit must be true or false")
	}
	return *v, nil
}

// publish is POST /api/plan: SPEC guards 1 to 8 in order, plus EXPIRED after 3.
func (s *Server) publish(c echo.Context) error {
	ctx := c.Request().Context()
	fields, ok, err := readObject(c)
	if err != nil {
		return err
	}
	// Guard 1.
	xdrB64, err := checkXDRField(fields, ok)
	if err != nil {
		return err
	}
	submit, err := submitField(fields)
	if err != nil {
		return err
	}
	// Guard 2: resolution falls back to testnet, so compare it with the input.
	netName, isString := stringField(fields, "network")
	network := ledger.ResolveNetwork(netName)
	if !isString || string(network) != netName {
		return errcode.New(errcode.BadNetwork, "network must be one of mainnet, testnet, futurenet")
	}
	// Guard 3.
	closeTx, err := ledger.ParseClose(xdrB64, network)
	if err != nil {
		return err // coded: NOT_A_CLOSE, or BAD_NETWORK
	}
	now := s.now()
	if !ledger.PlanExpiry(now, closeTx.MaxTime).After(now) {
		return errcode.New(errcode.Expired, "the transaction's maxTime leaves no signing window")
	}
	// CONTRACT section 10: right after EXPIRED, for a new plan and a
	// re-publish alike (the same transaction, so the same answer).
	if submit && !closeTx.SourceIsAccount() {
		return errcode.New(errcode.SubmitUnsupported, "the transaction's source is not the account being closed, so the relay cannot submit it; publish without submit and submit it yourself")
	}
	id := hex.EncodeToString(closeTx.Hash[:])

	// Guard 4: a re-publish merges into the existing plan.
	if plan, err := s.plans.Lookup(ctx, id); err == nil {
		return s.republish(c, plan, xdrB64, submit)
	} else if !errors.Is(err, actor.ErrNotFound) {
		return s.publishFailure(err)
	}
	// Guard 5: the relay's limit, then the closing account's.
	if err := s.plans.CheckCapacity(ctx, closeTx.Account); err != nil {
		return s.publishFailure(err)
	}
	// Guard 6: the account API round trip happens here, in the request
	// goroutine, so the supervisor never waits on I/O. A reader that
	// also gives the account's state lets the preflight reuse it.
	pf, preflights := s.accounts.(preflighter)
	var signers *ledger.SignerSet
	var acc ledger.AccountState
	if preflights {
		acc, signers, err = pf.Read(ctx, network, closeTx.Account)
	} else {
		signers, err = s.accounts.Signers(ctx, network, closeTx.Account)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errcode.New(errcode.AccountUnreachable, "the account could not be read from the account API")
	}
	// Guard 7: ledger admits the signatures and builds the plan, whose
	// expiry is the one checked above (same publish instant, same maxTime).
	published, counts, err := ledger.AdmitPlan(ctx, s.sweeps, closeTx, signers, now)
	switch {
	case errors.Is(err, ledger.ErrUnsigned):
		s.metrics.Signatures(metrics.SignatureDropped, counts.Dropped)
		return errcode.New(errcode.Unsigned, "the transaction carries no signature from a signer of the account")
	case err != nil:
		return err // the client has gone while a signature waited for a sweep, or a bug of ours
	}
	// The preflight (CONTRACT section 14), once guard 7 has passed: the
	// account's offers and the accounts the close pays or merges into,
	// bounded by the account API's timeout; a failed read is an unchecked
	// run, never a failed publish.
	run := ledger.Unchecked(now)
	if preflights {
		run = pf.PreflightWith(ctx, network, acc, closeTx.Envelope, now)
	}
	s.metrics.Preflight(string(run.State), blockerCodes(run.Blockers))
	published = published.WithPreflight(run)
	// Guard 8: insert atomically with the second capacity check and the
	// second expiry check (the account API round trip took time).
	create := s.plans.Create
	if submit {
		create = s.plans.CreateSubmitting
	}
	plan, created, err := create(ctx, published)
	if err != nil {
		return s.publishFailure(err)
	}
	if !created {
		// A racing publish of the same id won: merge ours into it (guard 4).
		return s.republish(c, plan, xdrB64, submit)
	}
	s.metrics.Signatures(metrics.SignatureAdmitted, counts.Admitted)
	s.metrics.Signatures(metrics.SignatureDuplicate, counts.Duplicates)
	s.metrics.Signatures(metrics.SignatureDropped, counts.Dropped)
	s.log.Info("plan created", "id", id, "network", string(network), "signatures", counts.Admitted, "expiry", published.Expiry())
	return c.JSON(http.StatusOK, wire.Published{OK: true, ID: id})
}

// preflighter reads an account's state with its signer set, and runs the
// preflight of a close from it (ledgerapi.Client does both).
type preflighter interface {
	Read(ctx context.Context, n ledger.Network, account string) (ledger.AccountState, *ledger.SignerSet, error)
	PreflightWith(ctx context.Context, n ledger.Network, acc ledger.AccountState, env xdr.TransactionEnvelope, now time.Time) ledger.PreflightRun
}

func blockerCodes(bs []ledger.Blocker) []string {
	codes := make([]string, len(bs))
	for i, b := range bs {
		codes[i] = b.Code
	}
	return codes
}

// republish merges a published envelope into an existing plan; any merge
// failure is REJECTED at guard 4. A merge that succeeded then sets submit
// when asked (a re-publish may set it, never unset it).
func (s *Server) republish(c echo.Context, plan *actor.Plan, xdrB64 string, submit bool) error {
	if _, err := s.mergePartial(c.Request().Context(), plan, xdrB64); err != nil {
		if ce := coded(err); ce != nil && ce.Code != errcode.NotFound && ce.Code != errcode.Unavailable {
			return errcode.New(errcode.Rejected, ce.Reason)
		}
		return s.publishFailure(err)
	}
	if submit {
		if err := plan.SetSubmit(c.Request().Context()); err != nil {
			return s.publishFailure(err)
		}
	}
	return c.JSON(http.StatusOK, wire.Published{OK: true, ID: plan.ID()})
}

// mergePartial checks a partial outside the plan's serial section, then
// hands the admitted signatures to the plan actor.
func (s *Server) mergePartial(ctx context.Context, plan *actor.Plan, partial string) (actor.State, error) {
	admitted, err := plan.Canonical().CheckPartial(ctx, s.sweeps, partial, plan.Known)
	if err != nil {
		return actor.State{}, err // coded: BAD_XDR or REJECTED; or ctx's, the client has gone
	}
	st, _, err := plan.Merge(ctx, admitted)
	if err != nil {
		return actor.State{}, s.actorFailure(err)
	}
	return st, nil
}

// get is GET /api/plan/:id.
func (s *Server) get(c echo.Context) error {
	_, st, err := s.current(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.Plan{OK: true, Network: string(st.Network), XDR: st.XDR})
}

// sign is POST /api/plan/:id/sign. An unknown id is 404 whatever the body.
func (s *Server) sign(c echo.Context) error {
	plan, err := s.lookup(c)
	if err != nil {
		return err
	}
	var partial string
	if isForm(c) {
		partial, err = formXDR(c)
	} else {
		raw, rerr := readBody(c)
		if rerr != nil {
			return rerr
		}
		if x, ok := onlyXDR(raw); ok {
			partial, err = checkXDR("xdr", x)
		} else {
			fields, ok := objectOf(raw)
			partial, err = checkXDRField(fields, ok)
		}
	}
	if err != nil {
		return err
	}
	st, err := s.mergePartial(c.Request().Context(), plan, partial)
	if err != nil {
		return err
	}
	// Every co-signer of a version, and every replay of it, gets the same
	// answer: it is encoded once per version.
	if b := st.RenderAnswer(renderSignOK); b != nil {
		return c.JSONBlob(http.StatusOK, b)
	}
	return c.JSON(http.StatusOK, signOKOf(st)) // never: strings, ints and bools always encode
}

func signOKOf(st actor.State) wire.Signed {
	return wire.Signed{
		OK: true, Network: string(st.Network), XDR: st.XDR, Signers: nonNil(st.Signers),
		Weight: st.Weight, Threshold: st.Threshold, Ready: st.Ready, Landable: st.Landable,
	}
}

// renderSignOK is the sign route's answer for st, byte for byte as c.JSON
// writes it (with its trailing newline).
func renderSignOK(st actor.State) []byte {
	s := signOKOf(st)
	// The envelope, its signers (56 characters and 3 of punctuation each),
	// and the rest of the fields (under 160 bytes).
	b := s.AppendJSON(make([]byte, 0, len(s.XDR)+len(s.Signers)*59+160))
	return append(b, '\n')
}

// current is the plan a request names and its current version.
func (s *Server) current(c echo.Context) (*actor.Plan, actor.State, error) {
	plan, err := s.lookup(c)
	if err != nil {
		return nil, actor.State{}, err
	}
	st, err := plan.Snapshot(c.Request().Context())
	if err != nil {
		return nil, actor.State{}, s.actorFailure(err)
	}
	return plan, st, nil
}

func (s *Server) lookup(c echo.Context) (*actor.Plan, error) {
	id, ok := wire.ParsePlanID(c.Param("id"))
	if !ok {
		return nil, errcode.New(errcode.NotFound, "signing request not found")
	}
	plan, err := s.plans.Lookup(c.Request().Context(), id)
	if err != nil {
		return nil, s.actorFailure(err)
	}
	return plan, nil
}

// actorFailure maps the actor's sentinels to codes.
func (s *Server) actorFailure(err error) error {
	switch {
	case errors.Is(err, actor.ErrNotFound):
		return errcode.New(errcode.NotFound, "signing request not found")
	case errors.Is(err, actor.ErrCapacity):
		return errcode.New(errcode.Capacity, "the relay holds its maximum of 500 open plans; retry later")
	case errors.Is(err, actor.ErrAccountCapacity):
		return errcode.New(errcode.Capacity, fmt.Sprintf("the closing account already has %d open plans, the per-account limit (PLANS_PER_ACCOUNT); retry when one expires", s.plans.PlansPerAccount()))
	case errors.Is(err, actor.ErrExpired):
		return errcode.New(errcode.Expired, "the transaction's maxTime left no signing window by the time the plan was stored")
	case errors.Is(err, actor.ErrSignatureCap):
		return errcode.New(errcode.Rejected, "the envelope would carry more than 20 signatures")
	case errors.Is(err, actor.ErrStopped):
		return errcode.New(errcode.Unavailable, "the relay is shutting down")
	case errors.Is(err, actor.ErrUnavailable):
		return errcode.Wrap(errcode.Unavailable, "the relay's plan store (NATS) is unreachable; retry shortly", err)
	}
	return err
}

// publishFailure is actorFailure on the publish route, where UNAVAILABLE
// (the plan store unreachable, CONTRACT section 12, or the relay stopping)
// is a 400: SPEC's publish route has no 503.
func (s *Server) publishFailure(err error) error {
	err = s.actorFailure(err)
	if ce := coded(err); ce != nil {
		return errcode.OnPublish(ce)
	}
	return err
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
