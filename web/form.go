package web

import (
	"bytes"
	"net/http"
	"strconv"
	"time"
)

// PathSign is the tail of the paste form's target: POST /plan/{id}/sign,
// form-encoded field xdr. The route is the caller's (it shares the sign
// route's checks and limits); the handler renders its answers.
const PathSign = "/sign"

// Notice is the answer to an envelope pasted into the plan page's form,
// shown at the top of the page rendered again.
type Notice struct {
	OK    bool   // admitted, or nothing changed; false: refused
	Title string // "Signature added", "Nothing changed", "Envelope refused"
	Text  string // what happened, in words
	Code  string // the error code of the JSON route (BAD_XDR, REJECTED, …); "" on success
}

// servePlan writes the page of d as it stands at now, served from memory
// when the same page was rendered before (CONTRACT section 9: a page
// served again costs no more than a few milliseconds).
func (h *Handler) servePlan(w http.ResponseWriter, d PageData, now time.Time) {
	w.Header().Set("Content-Security-Policy", h.planCSP)
	v := h.view(d, now)
	parts := h.builds.get(d.ID, d.XDR, h.build(d))
	key := pageKey(d, v)
	if key != "" {
		if body := h.builds.page(parts, key); body != nil {
			writePage(w, http.StatusOK, body)
			return
		}
	}
	body, err := execute(planPage, v)
	if err != nil {
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h.builds.renders.Add(1)
	if key != "" {
		h.builds.keep(parts, key, body)
	}
	writePage(w, http.StatusOK, body)
}

// pageKey is what the plan page of d depends on besides its version: the
// preflight, the submission and forward, the flow, the balance read and
// the times in words (to the minute). "" when d's version is not known.
func pageKey(d PageData, v planView) string {
	if d.Version == 0 {
		return ""
	}
	var b bytes.Buffer
	sep := func(s string) { b.WriteString(s); b.WriteByte(0) }
	sep(strconv.FormatUint(d.Version, 10))
	sep(string(d.Preflight.State))
	sep(strconv.FormatInt(d.Preflight.Checked.UnixNano(), 10))
	sep(strconv.Itoa(len(d.Preflight.Blockers)))
	s := d.Submission
	sep(s.State + "\x00" + s.Hash + "\x00" + strconv.FormatInt(s.Ledger, 10) + "\x00" + s.Code + "\x00" + s.Reason)
	if f := d.Forward; f != nil {
		sep(f.State + "\x00" + f.Hash + "\x00" + strconv.FormatInt(f.Ledger, 10) + "\x00" + f.Amount + "\x00" + f.Code + "\x00" + f.Reason)
	} else {
		sep("-")
	}
	if f := d.Flow; f != nil {
		sep(f.Destination + "\x00" + f.Memo)
	} else {
		sep("-")
	}
	if f := d.Funds; f != nil {
		sep(strconv.FormatInt(f.Native, 10) + "\x00" + strconv.FormatInt(f.Read.UnixNano(), 10))
	} else {
		sep("-")
	}
	sep(strconv.FormatBool(d.Ready) + "\x00" + strconv.Itoa(d.Weight) + "\x00" + strconv.Itoa(d.Threshold))
	sep(d.ReadyXDR)
	sep(v.EndAt)
	sep(v.TimeLeft)
	return b.String()
}

// PlanNotice writes the page of plan id with n at its top and status, for
// the answer to the paste form; pasted is the text to show in the form
// again (after a refusal). Never kept in memory. An unknown plan is the
// 404 page, an unreadable store the 503 page.
func (h *Handler) PlanNotice(w http.ResponseWriter, r *http.Request, id string, status int, n Notice, pasted string) {
	SetHeaders(w.Header())
	d, now, ok := h.page(w, r, id)
	if !ok {
		return
	}
	w.Header().Set("Content-Security-Policy", h.planCSP)
	v := h.view(d, now)
	v.Notice, v.Pasted = &n, pasted
	render(w, status, planPage, v)
}

// NotFound writes the 404 page.
func (h *Handler) NotFound(w http.ResponseWriter, r *http.Request) {
	SetHeaders(w.Header())
	h.notFound(w, r)
}

// Unavailable writes the 503 page: the plans cannot be read for now.
func (h *Handler) Unavailable(w http.ResponseWriter) {
	SetHeaders(w.Header())
	h.unavailable(w)
}

// Message writes a page of one message with status, for the paste form's
// answers that come before the plan is read (a body too large).
func (h *Handler) Message(w http.ResponseWriter, status int, title, text string) {
	SetHeaders(w.Header())
	render(w, status, messagePage, message{Title: title, Heading: title, Text: text})
}
