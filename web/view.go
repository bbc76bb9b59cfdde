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
	EndAt     string // the end of signing, to the minute: "14:13 UTC", with the date when not today
	TimeLeft  string // "in 2 h 13 min"

	Decision decisionView
	Rows     []signerRow
	Outcome  outcomeView

	// SignOpen: the ways to sign apply (not ready, not submitted, not
	// blocked); else SignClosed says why not. Blocked: the preflight or the
	// submission found that the ledger would refuse the close, and the
	// page offers no way to sign at all (CONTRACT 18).
	SignOpen   bool
	SignClosed string
	Blocked    bool

	// Lead is the outcome the page leads with, once there is one.
	Lead leadView

	// Notice is the answer to an envelope pasted into the page's form;
	// nil on a plain GET. Pasted is the text to show again in the form.
	Notice  *Notice
	Pasted  string
	SignURL string // the paste form's action

	SEP7     template.URL // safe: built by sep7, fixed scheme, every value percent-encoded
	SEP7Text string
	Callback string
	QR       template.HTML // built by qrSVG from numbers only
	QRError  string

	// WalletConnect is WALLETCONNECT_PROJECT_ID for the wallet module;
	// "" leaves WalletConnect out of its list.
	WalletConnect string

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
		SignURL:   PathPlan + d.ID + "/sign",

		WalletConnect: h.cfg.WalletConnectProjectID,
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
	v.Blocked = d.Preflight.State == ledger.PreflightBlocked || d.Submission.State == "blocked"
	v.ValueText = progressText(d.Weight, d.Threshold, v.SignedCount, d.Ready, v.Blocked, d.Submission.State == "submitted")
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
		v.EndAt = endAt(d.Expiry, now)
		v.TimeLeft = timeLeft(d.Expiry.Sub(now))
	}
	v.Decision = decide(v.Tx, d)
	closing := ""
	if v.Tx != nil {
		closing = v.Tx.ClosingAccount
	}
	for _, s := range d.Signers {
		v.Rows = append(v.Rows, signerRow{Signer: s, Master: s.Key == closing})
	}
	v.Outcome = outcomeOf(d.Submission, d.Forward)
	v.Lead = leadOf(d.Submission, d.Forward)
	v.SignClosed = signClosed(d.Ready, v.Blocked, d.Submission.State)
	v.SignOpen = v.SignClosed == ""
	v.SEP7, v.SEP7Text = template.URL(parts.sep7), parts.sep7
	v.Callback = sep7.Callback(h.cfg.PublicURL, d.ID)
	v.QR, v.QRError = parts.qr, parts.qrError
	return v
}

// progressText is the status line; plan.js writes the same words. "Ready
// to submit" is said only of a plan that is ready, not blocked and not
// submitted (CONTRACT 18).
func progressText(weight, threshold, signatures int, ready, blocked, submitted bool) string {
	if threshold <= 0 {
		return plural(signatures, "signature") + " collected"
	}
	s := "Weight " + strconv.Itoa(weight) + " of " + strconv.Itoa(threshold)
	switch {
	case (ready || weight >= threshold) && submitted:
		return s + ": submitted"
	case (ready || weight >= threshold) && blocked:
		return s + ": threshold met, but the ledger would refuse this close"
	case ready || weight >= threshold:
		return s + ": ready to submit"
	}
	return s + ": " + strconv.Itoa(threshold-weight) + " more needed"
}

// signerRow is one signer as the page lists it.
type signerRow struct {
	Signer
	Master bool // the closing account's own key
}

// timeLeft is d in words, to the minute (rounded down), as a person reads
// it; plan.js writes the same words. Whole minutes keep a page the same
// for a minute, so it can be served again from memory.
func timeLeft(d time.Duration) string {
	if d <= 0 {
		return "expired"
	}
	m := int64(d / time.Minute)
	days, hours, mins := m/1440, m%1440/60, m%60
	switch {
	case days > 0:
		return "in " + strconv.FormatInt(days, 10) + " d " + strconv.FormatInt(hours, 10) + " h"
	case hours > 0:
		return "in " + strconv.FormatInt(hours, 10) + " h " + strconv.FormatInt(mins, 10) + " min"
	case mins > 0:
		return "in " + strconv.FormatInt(mins, 10) + " min"
	}
	return "in less than a minute"
}

// endAt is the end of signing to the minute, rounded down (signatures are
// still accepted through that minute): "14:13 UTC", with the date in front
// when it is not now's day (UTC).
func endAt(end, now time.Time) string {
	end, now = end.UTC(), now.UTC()
	if end.Year() == now.Year() && end.YearDay() == now.YearDay() {
		return end.Format("15:04 UTC")
	}
	return end.Format("2006-01-02 15:04 UTC")
}
