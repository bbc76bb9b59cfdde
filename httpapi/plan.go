package httpapi

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/httpapi/bounds"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/metrics"
	"github.com/labstack/echo/v4"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// publishOK is the success body of POST /api/plan.
type publishOK struct {
	OK bool   `json:"ok"`
	ID string `json:"id"`
}

// planBody is the success body of GET /api/plan/:id.
type planBody struct {
	OK      bool   `json:"ok"`
	Network string `json:"network"`
	XDR     string `json:"xdr"`
}

// signOK is the success body of POST /api/plan/:id/sign (CONTRACT section 4).
type signOK struct {
	OK      bool     `json:"ok"`
	Network string   `json:"network"`
	XDR     string   `json:"xdr"`
	Signers []string `json:"signers"`
}

// readObject reads a capped JSON body as an object of raw fields. It answers
// 413 when the cap was hit, and ok=false for anything that is not an object.
func readObject(c echo.Context) (fields map[string]json.RawMessage, ok bool, err error) {
	raw, err := io.ReadAll(c.Request().Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return nil, false, fail(codePayloadTooLarge, "request body is larger than 16384 bytes")
		case errors.Is(err, bounds.ErrBodyTimeout):
			return nil, false, fail(codeRequestTimeout, "the request body did not arrive within 10 s of its headers")
		}
		// Anything else is a connection that ended under the body.
		return nil, false, fmt.Errorf("%w: reading the body: %w", errClientGone, err)
	}
	// Keys are matched exactly, as the wallet clients send them: encoding/json's
	// case-insensitive struct matching would accept "XDR" for "xdr".
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, false, nil
	}
	return fields, true, nil
}

// stringField returns fields[name] when it is a JSON string.
func stringField(fields map[string]json.RawMessage, name string) (string, bool) {
	raw, present := fields[name]
	if !present {
		return "", false
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false
	}
	return v, true
}

// checkXDRField is guard 1, shared by publish and sign.
func checkXDRField(fields map[string]json.RawMessage, ok bool) (string, error) {
	if !ok {
		return "", fail(codeBadXDR, "request body must be a JSON object with an xdr string")
	}
	x, isString := stringField(fields, "xdr")
	switch {
	case !isString:
		return "", fail(codeBadXDR, "xdr must be a string")
	case x == "":
		return "", fail(codeBadXDR, "xdr is empty")
	case len(x) > ledger.MaxXDRLength && utf8.RuneCountInString(x) > ledger.MaxXDRLength:
		return "", fail(codeBadXDR, "xdr is longer than 12000 characters")
	}
	return x, nil
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
	// Guard 2: resolution falls back to testnet, so compare it with the input.
	netName, isString := stringField(fields, "network")
	network := ledger.ResolveNetwork(netName)
	if !isString || string(network) != netName {
		return fail(codeBadNetwork, "network must be one of mainnet, testnet, futurenet")
	}
	// Guard 3.
	closeTx, err := ledger.ParseClose(xdrB64, network)
	if err != nil {
		return ledgerFailure(err, codeNotAClose)
	}
	now := s.now()
	expiry := ledger.PlanExpiry(now, closeTx.MaxTime)
	if !expiry.After(now) {
		return fail(codeExpired, "the transaction's maxTime leaves no signing window")
	}
	id := hex.EncodeToString(closeTx.Hash[:])

	// Guard 4: a re-publish merges into the existing plan.
	if plan, err := s.plans.Lookup(ctx, id); err == nil {
		return s.republish(c, plan, xdrB64)
	} else if !errors.Is(err, actor.ErrNotFound) {
		return s.actorFailure(err)
	}
	// Guard 5: the relay's limit, then the closing account's.
	if err := s.plans.CheckCapacity(ctx, closeTx.Account); err != nil {
		return s.actorFailure(err)
	}
	// Guard 6: the account API round trip happens here, in the request
	// goroutine, so the supervisor never waits on I/O.
	signers, err := s.accounts.Signers(ctx, network, closeTx.Account)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fail(codeAccountUnreach, "the account could not be read from the account API")
	}
	// Guard 7.
	admitted, duplicates, dropped := ledger.AdmitAllCounted(signers, closeTx.Hash, closeTx.Envelope.Signatures())
	if len(admitted) == 0 {
		s.metrics.Signatures(metrics.SignatureDropped, dropped)
		return fail(codeUnsigned, "the transaction carries no signature from a signer of the account")
	}
	canonicalEnv := ledger.WithSignatures(closeTx.Envelope, signaturesOf(admitted))
	canonicalXDR, err := ledger.EncodeEnvelope(canonicalEnv)
	if err != nil {
		return err
	}
	canonical, err := ledger.NewCanonical(canonicalXDR, network.Passphrase(), signers)
	if err != nil {
		return err
	}
	// Guard 8: insert atomically with the second capacity check and the
	// second expiry check (the account API round trip took time).
	plan, created, err := s.plans.Create(ctx, actor.PlanInit{
		ID: id, Network: network, Envelope: canonicalEnv, Admitted: admitted,
		Canonical: canonical, Expiry: expiry, Account: closeTx.Account,
	})
	if err != nil {
		return s.actorFailure(err)
	}
	if !created {
		// A racing publish of the same id won: merge ours into it (guard 4).
		return s.republish(c, plan, xdrB64)
	}
	s.metrics.Signatures(metrics.SignatureAdmitted, len(admitted))
	s.metrics.Signatures(metrics.SignatureDuplicate, duplicates)
	s.metrics.Signatures(metrics.SignatureDropped, dropped)
	s.log.Info("plan created", "id", id, "network", string(network), "signatures", len(admitted), "expiry", expiry)
	return c.JSON(http.StatusOK, publishOK{OK: true, ID: id})
}

// republish merges a published envelope into an existing plan; any merge
// failure is REJECTED at guard 4.
func (s *Server) republish(c echo.Context, plan *actor.Plan, xdrB64 string) error {
	if _, err := s.mergePartial(c.Request().Context(), plan, xdrB64); err != nil {
		var ae *apiError
		if errors.As(err, &ae) && ae.code != codeNotFound {
			ae.code = codeRejected
		}
		return err
	}
	return c.JSON(http.StatusOK, publishOK{OK: true, ID: plan.ID()})
}

// mergePartial checks a partial outside the plan's serial section, then
// hands the admitted signatures to the plan actor.
func (s *Server) mergePartial(ctx context.Context, plan *actor.Plan, partial string) (actor.State, error) {
	admitted, err := plan.Canonical().CheckPartial(partial, plan.Known)
	if err != nil {
		return actor.State{}, ledgerFailure(err, codeRejected)
	}
	st, _, err := plan.Merge(ctx, admitted)
	if err != nil {
		return actor.State{}, s.actorFailure(err)
	}
	return st, nil
}

// get is GET /api/plan/:id.
func (s *Server) get(c echo.Context) error {
	plan, err := s.lookup(c)
	if err != nil {
		return err
	}
	st, err := plan.Snapshot(c.Request().Context())
	if err != nil {
		return s.actorFailure(err)
	}
	return c.JSON(http.StatusOK, planBody{OK: true, Network: string(st.Network), XDR: st.XDR})
}

// sign is POST /api/plan/:id/sign. An unknown id is 404 whatever the body.
func (s *Server) sign(c echo.Context) error {
	plan, err := s.lookup(c)
	if err != nil {
		return err
	}
	fields, ok, err := readObject(c)
	if err != nil {
		return err
	}
	partial, err := checkXDRField(fields, ok)
	if err != nil {
		return err
	}
	st, err := s.mergePartial(c.Request().Context(), plan, partial)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, signOK{OK: true, Network: string(st.Network), XDR: st.XDR, Signers: nonNil(st.Signers)})
}

func (s *Server) lookup(c echo.Context) (*actor.Plan, error) {
	id, ok := normalizeID(c.Param("id"))
	if !ok {
		return nil, fail(codeNotFound, "signing request not found")
	}
	plan, err := s.plans.Lookup(c.Request().Context(), id)
	if err != nil {
		return nil, s.actorFailure(err)
	}
	return plan, nil
}

// ledgerFailure maps a ledger *Error to its code; uncoded errors get fallback.
func ledgerFailure(err error, fallback string) error {
	var le *ledger.Error
	if errors.As(err, &le) {
		if le.Code == "" {
			return fail(fallback, le.Reason)
		}
		return fail(string(le.Code), le.Reason)
	}
	return fail(fallback, "the envelope was refused")
}

// actorFailure maps the actor's sentinels to codes.
func (s *Server) actorFailure(err error) error {
	switch {
	case errors.Is(err, actor.ErrNotFound):
		return fail(codeNotFound, "signing request not found")
	case errors.Is(err, actor.ErrCapacity):
		return fail(codeCapacity, "the relay holds its maximum of 500 open plans; retry later")
	case errors.Is(err, actor.ErrAccountCapacity):
		return fail(codeCapacity, fmt.Sprintf("the closing account already has %d open plans, the per-account limit (PLANS_PER_ACCOUNT); retry when one expires", s.plans.PlansPerAccount()))
	case errors.Is(err, actor.ErrExpired):
		return fail(codeExpired, "the transaction's maxTime left no signing window by the time the plan was stored")
	case errors.Is(err, actor.ErrSignatureCap):
		return fail(codeRejected, "the envelope would carry more than 20 signatures")
	case errors.Is(err, actor.ErrStopped):
		return fail(codeUnavailable, "the relay is shutting down")
	}
	return err
}

func signaturesOf(admitted []ledger.Admitted) []xdr.DecoratedSignature {
	out := make([]xdr.DecoratedSignature, len(admitted))
	for i, a := range admitted {
		out[i] = a.Sig
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
