package httpapi

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/relay"
	"github.com/closerelay/closerelay/web"
	"github.com/closerelay/closerelay/wire"
	"github.com/labstack/echo/v4"
)

// pageSign is POST /plan/:id/sign, the plan page's paste form (issue 26):
// a co-signer without a SEP-7 wallet pastes the envelope they signed
// elsewhere, form-encoded as field xdr, and gets the plan page again with
// what happened: admitted, nothing changed, or the sign route's error code
// in words. It runs the JSON sign route's checks and merge (guard 1, then
// relay.Service.Sign), behind the same limiter and body cap, and answers HTML
// only, so it works without JavaScript.
//
// It needs no CSRF token: the relay sets no cookie and has no session, so
// a form posted from another site carries no authority of its visitor; all
// it can do is what anyone can do with the same bytes through the public
// sign route, which already takes cross-site form posts (SEP-7 callbacks).
// What authorises a change is the signature inside the envelope, which the
// merge verifies against the account's signers.
func (s *Server) pageSign(c echo.Context) error {
	w, r := c.Response(), c.Request()
	id, ok := wire.ParsePlanID(c.Param("id"))
	if !ok {
		s.pageSignRefused(errcode.NotFound)
		s.pages.NotFound(w, r)
		return nil
	}
	if r.ContentLength > MaxBodyBytes {
		s.pageSignTooLarge(c)
		return nil
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	plan, err := s.plans.Find(r.Context(), id)
	if err != nil {
		return s.pageSignFailed(c, id, err, "")
	}
	if !isForm(c) {
		return s.pageSignFailed(c, id, errcode.New(errcode.BadXDR, "the form was not sent as application/x-www-form-urlencoded"), "")
	}
	raw, err := readBody(c)
	if err != nil {
		return s.pageSignFailed(c, id, err, "")
	}
	values, err := url.ParseQuery(string(raw))
	if err != nil {
		return s.pageSignFailed(c, id, errcode.New(errcode.BadXDR, "the form body does not parse"), "")
	}
	// A pasted envelope may carry line breaks or spaces from where it was
	// copied: base64 has none of its own.
	pasted := strings.TrimSpace(values.Get("xdr")) // shown again after a refusal
	x := strings.Join(strings.Fields(pasted), "")
	if x == "" {
		return s.pageSignFailed(c, id, errcode.New(errcode.BadXDR, "paste a signed envelope (base64) into the form"), "")
	}
	partial, err := relay.CheckXDR("xdr", x)
	if err != nil {
		return s.pageSignFailed(c, id, err, pasted)
	}
	before, err := s.plans.Current(r.Context(), id)
	if err != nil {
		return s.pageSignFailed(c, id, err, pasted)
	}
	st, err := s.plans.Sign(r.Context(), plan, partial)
	if err != nil {
		return s.pageSignFailed(c, id, err, pasted)
	}
	progress := "the plan now has " + strconv.Itoa(len(st.Signers)) + " signature(s)"
	if st.Threshold > 0 {
		progress = "weight " + strconv.Itoa(st.Weight) + " of " + strconv.Itoa(st.Threshold)
		if st.Ready {
			progress += ": enough to submit"
		}
	}
	n := web.Notice{OK: true, Title: "Signature added", Text: "The relay admitted the envelope's signatures: " + progress + "."}
	if st.Version == before.Version {
		n = web.Notice{OK: true, Title: "Nothing changed", Text: "Every signature in this envelope is already on the plan (" + progress + ")."}
	}
	s.pages.PlanNotice(w, r, id, http.StatusOK, n, "")
	return nil
}

// pageSignFailed answers the form's failure err: the 404 and 503 pages
// for an unknown plan and an unreachable store, the page of one message for
// a body too large, a client gone as elsewhere, and otherwise the plan
// page with the code in words and the pasted text to correct.
func (s *Server) pageSignFailed(c echo.Context, id string, err error, pasted string) error {
	w, r := c.Response(), c.Request()
	if clientGone(c, err) {
		return err // the error handler records the 499 and writes nothing
	}
	ce := coded(err)
	if ce == nil {
		s.log.Error("internal error", "route", c.Path(), "err", err)
		ce = errcode.New(errcode.Internal, "the relay could not take the envelope; try again in a moment")
	}
	s.pageSignRefused(ce.Code)
	switch ce.Code {
	case errcode.NotFound:
		s.pages.NotFound(w, r)
		return nil
	case errcode.Unavailable:
		s.pages.Unavailable(w)
		return nil
	case errcode.PayloadTooLarge:
		s.pageSignTooLarge(c)
		return nil
	}
	s.pages.PlanNotice(w, r, id, ce.Status(), web.Notice{Title: "Envelope refused", Text: refusalWords(ce), Code: string(ce.Code)}, pasted)
	return nil
}

// refusalWords is a sign failure in a co-signer's words, then the relay's
// reason.
func refusalWords(ce *errcode.Error) string {
	var lead string
	switch ce.Code {
	case errcode.BadXDR:
		lead = "This is not a transaction envelope the relay can read"
	case errcode.Rejected:
		lead = "The relay refused a signature in this envelope"
	case errcode.RequestTimeout:
		lead = "The form did not arrive in time"
	default:
		lead = "The relay could not take this envelope"
	}
	return lead + ": " + ce.Reason + "."
}

// pageSignTooLarge is the form's 413, as a page: nothing was read.
func (s *Server) pageSignTooLarge(c echo.Context) {
	s.pageSignRefused(errcode.PayloadTooLarge)
	c.Response().Header().Set("Connection", "close")
	s.pages.Message(c.Response(), http.StatusRequestEntityTooLarge, "Envelope too large",
		"The form is larger than "+strconv.Itoa(MaxBodyBytes)+" bytes, more than any envelope of a close: check what was pasted, then go back and try again.")
}

// pageSignRefused counts a refusal of the form as one of the sign route.
func (s *Server) pageSignRefused(code errcode.Code) {
	s.metrics.Rejection(metrics.RoutePlanSign, code)
}
