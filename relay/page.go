package relay

import (
	"context"
	"slices"

	"github.com/closerelay/closerelay/web"
)

var _ web.Plans = (*Service)(nil)

// Page is the plan id names as its co-signers' page shows it (web.Plans):
// the current version, the candidate signers with their weights and which
// have signed, the latest preflight, and the submit-ready envelope once
// there is one. Its failures are Find's: NOT_FOUND, UNAVAILABLE.
func (s *Service) Page(ctx context.Context, id string) (web.PageData, error) {
	plan, err := s.Find(ctx, id)
	if err != nil {
		return web.PageData{}, err
	}
	st, err := s.snapshot(ctx, plan)
	if err != nil {
		return web.PageData{}, err
	}
	data := web.PageData{
		ID: st.ID, Network: st.Network, XDR: st.XDR,
		Weight: st.Weight, Threshold: st.Threshold, Ready: st.Ready,
		Expiry: plan.Expiry(),
		// The latest run: the publish's, or the one before the first try.
		Preflight: plan.Preflight(),
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
