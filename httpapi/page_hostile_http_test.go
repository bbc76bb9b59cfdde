package httpapi_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
)

// The co-signers' pages under CONTRACT section 9's round-3 bullet, through
// a real listener.

// rawGet sends a request line as given (Go's client would clean the path)
// and reads the answer.
func rawGet(t *testing.T, baseURL, target string) (*http.Response, string) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(baseURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second)) // a hang guard, not a measure
	if _, err := io.WriteString(c, "GET "+target+" HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

// TestPagePathsWithDotSegmentsAre404: a dot segment under /plan/ is the 404
// page, never a redirect (before: 307 with Location /evil.example).
func TestPagePathsWithDotSegmentsAre404(t *testing.T) {
	r := startRelay(t, httpapi.Options{}, 0, nil)
	for _, target := range []string{
		"/plan/../../evil.example",
		"/plan/../%5Cevil.example",
		"/plan/..",
		"/plan/./x",
		"/plan/" + strings.Repeat("ab", 32) + "/..",
		"/plan//evil.example",
	} {
		res, body := rawGet(t, r.URL, target)
		if res.StatusCode != http.StatusNotFound || res.Header.Get("Location") != "" ||
			!strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, "Plan not found") {
			t.Errorf("GET %s: %d Location %q %s, want the 404 page", target, res.StatusCode, res.Header.Get("Location"), res.Header.Get("Content-Type"))
		}
	}
}

// TestAssetsOutliveThePageLimit: once a client has spent the pages' 60 per
// 60 s, its browser still gets the stylesheet and the script (before: 429 as
// text/html for both).
func TestAssetsOutliveThePageLimit(t *testing.T) {
	r := startRelay(t, httpapi.Options{RateLimits: true}, 0, nil)
	var page string
	for range 60 {
		res := send(t, r.Client, "GET", r.URL+"/", nil, nil)
		if res.status != http.StatusOK {
			t.Fatalf("landing page: %d", res.status)
		}
		page = string(res.body)
	}
	if res := send(t, r.Client, "GET", r.URL+"/", nil, nil); res.status != http.StatusTooManyRequests {
		t.Fatalf("the 61st page: %d, want 429", res.status)
	}
	start := strings.Index(page, `href="/assets/style.`)
	if start < 0 {
		t.Fatal("the page names no stylesheet")
	}
	css := page[start+len(`href="`):]
	css = css[:strings.IndexByte(css, '"')]
	for _, path := range []string{css, "/assets/style.css", "/assets/plan.js"} {
		for range 3 {
			res := send(t, r.Client, "GET", r.URL+path, nil, nil)
			if res.status != http.StatusOK || !strings.HasPrefix(res.header.Get("Content-Type"), "text/") || strings.HasPrefix(res.header.Get("Content-Type"), "text/html") {
				t.Fatalf("%s after the page limit: %d %s", path, res.status, res.header.Get("Content-Type"))
			}
		}
	}
}
