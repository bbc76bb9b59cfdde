package httpapi

import (
	"net/http"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/mediator"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/wire"
	"github.com/labstack/echo/v4"
)

// mint is GET /api/mediator/sign?destination=G…[&memo=<type>:<value>].
// Without a memo parameter the token is SPEC's four parts; with one, even
// empty, the memo is checked and committed in a fifth part. Refusals come in
// the order destination (INVALID_DESTINATION), memo (INVALID_MEMO),
// configuration (MEDIATOR_NOT_CONFIGURED).
func (s *Server) mint(c echo.Context) error {
	dest := c.QueryParam("destination")
	var (
		token, pub string
		err        error
	)
	switch memos, withMemo := c.QueryParams()["memo"]; {
	case !withMemo:
		token, pub, err = s.mediator.Mint(dest)
	case len(memos) == 1:
		token, pub, err = s.mediator.MintMemo(dest, memos[0])
	case !mediator.ValidDestination(dest):
		// The refusal below comes after the destination's own check.
		err = errcode.New(errcode.InvalidDestination, "destination must be a G… account address")
	default:
		err = errcode.New(errcode.InvalidMemo, "give the memo parameter at most once")
	}
	if err != nil {
		return s.mediatorFailure(err)
	}
	return c.JSON(http.StatusOK, wire.Flow{FlowToken: token, MediatorPublicKey: pub})
}

// countCosign records every answer of POST /api/mediator/sign in
// closerelay_mediator_cosign_total, the refusals of the rate limiter and the
// body cap included: it wraps the route's whole middleware chain.
func (s *Server) countCosign(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil {
			s.metrics.MediatorCosign(metrics.CosignSigned)
		} else if ce := coded(err); ce != nil {
			s.metrics.MediatorCosign(string(ce.Code))
		}
		return err
	}
}

// cosign is POST /api/mediator/sign, checks in CONTRACT section 6's order
// (rate limit and body cap ran as middleware).
func (s *Server) cosign(c echo.Context) error {
	fields, ok, err := readObject(c)
	if err != nil {
		return err
	}
	if !ok {
		return errcode.New(errcode.BadRequest, "request body must be a JSON object")
	}
	envelope, isString := stringField(fields, "envelopeXdr")
	if !isString || envelope == "" {
		return errcode.New(errcode.BadRequest, "envelopeXdr must be a non-empty string")
	}
	token, isString := stringField(fields, "flowToken")
	if !isString || token == "" {
		return errcode.New(errcode.BadRequest, "flowToken must be a non-empty string")
	}
	network, isString := stringField(fields, "network")
	if _, known := ledger.ParseNetwork(network); !isString || !known {
		return errcode.New(errcode.BadNetwork, "network must be one of mainnet, testnet, futurenet")
	}
	signed, hash, err := s.mediator.Cosign(envelope, token, network)
	if err != nil {
		return s.mediatorFailure(err)
	}
	return c.JSON(http.StatusOK, wire.Cosigned{OK: true, SignedXDR: signed, Hash: hash})
}

// mediatorMethodNotAllowed answers PUT, PATCH, DELETE and HEAD.
func (s *Server) mediatorMethodNotAllowed(c echo.Context) error {
	c.Response().Header().Set("Allow", "POST, GET, OPTIONS")
	return errcode.New(errcode.MethodNotAllowed, "use GET to mint a flow or POST to co-sign")
}

// mediatorFailure passes the mediator package's coded errors through (their
// reasons never carry the secret), except that MEDIATOR_NOT_CONFIGURED's
// detail, unset or malformed, is for the operator's log only. An uncoded
// error stays internal.
func (s *Server) mediatorFailure(err error) error {
	if ce := coded(err); ce != nil && ce.Code == errcode.MediatorNotConfigured {
		s.log.Error("mediator not configured", "detail", ce.Reason)
		return errcode.New(errcode.MediatorNotConfigured, "the mediator is not configured on this relay")
	}
	return err
}
