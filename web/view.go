package web

import (
	"html/template"
	"strconv"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/sep7"
)

// planView is the plan page's template data.
type planView struct {
	PageData
	NetworkName string
	Tx          *Summary
	TxError     string

	SignedCount  int
	HasThreshold bool
	ValueNow     int    // aria-valuenow: min(weight, threshold)
	ValueText    string // aria-valuetext and the visible status line
	Percent      string // width of the bar, 0 to 100
	Needed       int    // weight still missing

	ExpiryISO string
	TimeLeft  string

	SEP7     template.URL // safe: built by sep7, fixed scheme, every value percent-encoded
	SEP7Text string
	Callback string
	QR       template.HTML // built by qrSVG from numbers only
	QRError  string

	EventsURL string
	ReadyURL  string
	StatusURL string

	PF preflightView
}

var networkNames = map[ledger.Network]string{
	ledger.Mainnet:   "Mainnet (public network)",
	ledger.Testnet:   "Testnet",
	ledger.Futurenet: "Futurenet",
}

func (h *Handler) view(d PageData, now time.Time) planView {
	v := planView{
		PageData:  d,
		EventsURL: "/api/plan/" + d.ID + "/events",
		ReadyURL:  "/api/plan/" + d.ID + "/ready",
		StatusURL: "/api/plan/" + d.ID + "/status",
	}
	v.NetworkName = networkNames[d.Network]
	if v.NetworkName == "" {
		v.NetworkName = string(d.Network)
	}
	parts := h.builds.get(d.ID, d.XDR, h.build(d))
	v.Tx, v.TxError = parts.tx, parts.txError
	v.PF = viewPreflight(d.Preflight, v.Tx)
	for _, s := range d.Signers {
		if s.Signed {
			v.SignedCount++
		}
	}
	if v.Tx != nil && v.SignedCount == 0 && len(d.Signers) == 0 {
		v.SignedCount = v.Tx.Signatures
	}
	v.HasThreshold = d.Threshold > 0
	v.ValueText = progressText(d.Weight, d.Threshold, v.SignedCount, d.Ready)
	if v.HasThreshold {
		v.ValueNow = min(max(d.Weight, 0), d.Threshold)
		v.Percent = strconv.FormatFloat(100*float64(v.ValueNow)/float64(d.Threshold), 'f', 2, 64)
		v.Needed = max(d.Threshold-d.Weight, 0)
	} else {
		v.Percent = "0"
	}
	if !d.Ready {
		v.ReadyXDR = ""
	}
	if !d.Expiry.IsZero() {
		v.ExpiryISO = d.Expiry.UTC().Format(time.RFC3339)
		v.TimeLeft = timeLeft(d.Expiry.Sub(now))
	}
	v.SEP7, v.SEP7Text = template.URL(parts.sep7), parts.sep7
	v.Callback = sep7.Callback(h.cfg.PublicURL, d.ID)
	v.QR, v.QRError = parts.qr, parts.qrError
	return v
}

// progressText is the status line; plan.js writes the same words.
func progressText(weight, threshold, signatures int, ready bool) string {
	if threshold <= 0 {
		return plural(signatures, "signature") + " collected"
	}
	s := "Weight " + strconv.Itoa(weight) + " of " + strconv.Itoa(threshold)
	if ready || weight >= threshold {
		return s + ": ready to submit"
	}
	return s + ": " + strconv.Itoa(threshold-weight) + " more needed"
}

// timeLeft is d in words, coarse as a person reads it; plan.js writes the
// same words.
func timeLeft(d time.Duration) string {
	if d <= 0 {
		return "expired"
	}
	s := int64(d / time.Second)
	days, hours, mins := s/86400, s%86400/3600, s%3600/60
	switch {
	case days > 0:
		return strconv.FormatInt(days, 10) + " d " + strconv.FormatInt(hours, 10) + " h"
	case hours > 0:
		return strconv.FormatInt(hours, 10) + " h " + strconv.FormatInt(mins, 10) + " min"
	case mins > 0:
		return strconv.FormatInt(mins, 10) + " min " + strconv.FormatInt(s%60, 10) + " s"
	}
	return strconv.FormatInt(s, 10) + " s"
}
