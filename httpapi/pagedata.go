package httpapi

import (
	"context"
	"slices"

	"github.com/closerelay/closerelay/relay"
	"github.com/closerelay/closerelay/web"
)

// pagePlans is the relay as the co-signers' page reads it: package web
// knows the page, package relay the plans, and this adapter both, so that
// neither of them imports the other.
type pagePlans struct{ svc *relay.Service }

var _ web.Plans = pagePlans{}

// Page is the plan id names as its co-signers' page shows it (web.Plans):
// the current version, the candidate signers with their weights and which
// have signed, the latest preflight with the balance it read, the
// submission, the mediator flow and its forward, and the submit-ready
// envelope once there is one. Its failures are Find's: NOT_FOUND, UNAVAILABLE.
func (p pagePlans) Page(ctx context.Context, id string) (web.PageData, error) {
	plan, err := p.svc.Find(ctx, id)
	if err != nil {
		return web.PageData{}, err
	}
	st, err := p.svc.Snapshot(ctx, plan)
	if err != nil {
		return web.PageData{}, err
	}
	data := web.PageData{
		ID: st.ID, Network: st.Network, XDR: st.XDR,
		Weight: st.Weight, Threshold: st.Threshold, Ready: st.Ready,
		Expiry: plan.Expiry(),
		// The latest run: the publish's, or the one before the first try.
		Preflight: plan.Preflight(),
		Version:   st.Version,
	}
	if run := data.Preflight; run.Native > 0 {
		data.Funds = &web.Funds{Native: run.Native, Read: run.Checked}
	}
	data.Submission = plan.Submission()
	fwd := plan.Forward()
	if fwd.Flow != nil {
		data.Flow = &web.Flow{Destination: fwd.Flow.Destination, Memo: fwd.Flow.Memo}
	}
	if fwd.State != "" {
		data.Forward = &fwd
	}
	for _, sg := range plan.Canonical().Signers.Signers() {
		data.Signers = append(data.Signers, web.Signer{
			Key: sg.Address, Weight: int(sg.Weight), Signed: slices.Contains(st.Signers, sg.Address),
		})
	}
	if st.Ready {
		if r, ok, err := plan.Ready(ctx); err == nil && ok {
			data.ReadyXDR = r.XDR
		}
	}
	return data, nil
}
