package httpapi

import (
	"net/http"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/sep7"
	"github.com/closerelay/closerelay/wire"
	"github.com/labstack/echo/v4"
)

// submissionOf is sub as status.submission: nil (JSON null) until one starts.
func submissionOf(sub plan.Submission) *wire.Submission {
	switch sub.State {
	case plan.SubmissionPending:
		return &wire.Submission{State: sub.State}
	case plan.SubmissionSubmitted:
		return &wire.Submission{State: sub.State, Hash: sub.Hash, Ledger: sub.Ledger}
	case plan.SubmissionFailed, plan.SubmissionBlocked:
		return &wire.Submission{State: sub.State, Code: sub.Code}
	}
	return nil
}

// forwardOf is f as status.forward: nil (JSON null) until the close's
// submission succeeded.
func forwardOf(f plan.Forward) *wire.Forward {
	switch f.State {
	case plan.ForwardPending:
		return &wire.Forward{State: f.State}
	case plan.ForwardForwarded:
		return &wire.Forward{State: f.State, Hash: f.Hash, Ledger: f.Ledger, Amount: f.Amount}
	case plan.ForwardFailed:
		return &wire.Forward{State: f.State, Hash: f.Hash, Code: f.Code}
	}
	return nil
}

// preflightOf is run as status.preflight: null when no preflight ran (a
// plan restored from a store written before there was one).
func preflightOf(run ledger.PreflightRun) *wire.Preflight {
	if run.State == "" {
		return nil
	}
	p := &wire.Preflight{State: string(run.State), Blockers: []wire.Blocker{}, Checked: run.Checked.UTC().Format(time.RFC3339), Reason: run.Reason}
	for _, b := range run.Blockers {
		p.Blockers = append(p.Blockers, wire.Blocker{Op: b.Op, Code: b.Code, Reason: b.Reason})
	}
	if run.Fee.Bid > 0 {
		p.Fee = &wire.Fee{Bid: run.Fee.Bid}
		if run.Fee.Known() {
			network, low := run.Fee.Stats.Network, run.Fee.Low()
			p.Fee.Network, p.Fee.Low = &network, &low
		}
	}
	return p
}

// ready is GET (and HEAD) /api/plan/:id/ready: the submit-ready envelope of
// the plan's current version, or 409 NOT_READY while its weight is below its
// threshold.
func (s *Server) ready(c echo.Context) error {
	r, err := s.plans.Ready(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.Ready{
		OK: true, ID: r.State.ID, Network: string(r.State.Network), XDR: r.XDR,
		Signers: nonNil(r.Signers), Weight: r.Weight, Threshold: r.State.Threshold,
	})
}

// status is GET (and HEAD) /api/plan/:id/status: the plan's current version
// and readiness, and its expiry in RFC 3339 (UTC, whole seconds, truncated:
// never later than the plan's end). Unlike every other plan route it also
// answers a plan past its signing window that the relay keeps for its
// mediator forward (relay.Service.Status), so that status.forward
// can be read until the forward has settled and a while after.
func (s *Server) status(c echo.Context) error {
	ps, err := s.plans.Status(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	st, sub := ps.State, ps.Submission
	return c.JSON(http.StatusOK, wire.Status{
		OK: true, ID: st.ID, Network: string(st.Network), Version: st.Version, Signers: nonNil(st.Signers),
		Weight: st.Weight, Threshold: st.Threshold, Ready: st.Ready,
		Expiry: ps.Expiry.UTC().Format(time.RFC3339), Submit: sub.Submit, Submission: submissionOf(sub),
		Preflight: preflightOf(ps.Preflight), Forward: forwardOf(ps.Forward),
	})
}

// sep7Link is GET /api/plan/:id/sep7: the SEP-7 transaction request for the
// current envelope, with the callback when PUBLIC_URL is set. The plan page
// builds its link with the same call.
func (s *Server) sep7Link(c echo.Context) error {
	st, err := s.plans.Current(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.SEP7{OK: true, URI: sep7.ForPlan(st.Network, st.ID, st.XDR, s.publicURL)})
}
