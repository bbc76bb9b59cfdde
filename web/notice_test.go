package web_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/web"
)

// TestPlanNoticeOfAPlanGoneOrUnreadable: the answer to the page's sign
// form (PlanNotice) reads the plan again, and the plan may have expired,
// or the store dropped, since the sign: the 404 page or the 503 page, told
// by the error's code as the plan page tells it, whatever error value
// carries the code (relay's own, wrapped or not). Before, PlanNotice
// compared with errors.Is against web.ErrNotFound and web.ErrUnavailable,
// values distinct from relay's, and answered the 500 page.
func TestPlanNoticeOfAPlanGoneOrUnreadable(t *testing.T) {
	id := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name   string
		err    error
		status int
		title  string
	}{
		{"expired", errcode.New(errcode.NotFound, "signing request not found"), http.StatusNotFound, "Plan not found"},
		{"store dropped", errcode.Wrap(errcode.Unavailable, "the relay's plan store is unreachable; retry shortly", errors.New("nats: timeout")),
			http.StatusServiceUnavailable, "Temporarily unavailable"},
		{"web's own", web.ErrNotFound, http.StatusNotFound, "Plan not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := web.New(&fakePlans{err: tc.err}, web.Config{Now: func() time.Time { return now }})
			mux := http.NewServeMux()
			mux.HandleFunc("POST /plan/{id}/sign", func(w http.ResponseWriter, r *http.Request) {
				h.PlanNotice(w, r, r.PathValue("id"), http.StatusOK, web.Notice{Title: "Signature added"}, "")
			})
			srv := httptest.NewServer(mux)
			defer srv.Close()
			res := do(t, srv, http.MethodPost, "/plan/"+id+"/sign")
			if res.status != tc.status || !strings.Contains(res.body, tc.title) {
				t.Errorf("status %d, want %d with %q:\n%s", res.status, tc.status, tc.title, res.body)
			}
			if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("Content-Type %q, want the HTML page", ct)
			}
		})
	}
}
