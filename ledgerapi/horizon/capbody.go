package horizon

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxBody caps a ledger API's answer. An account with the most subentries
// the ledger allows answers a few hundred kilobytes; the cap stops a broken
// or hostile upstream from streaming without end inside the timeout.
const maxBody = 4 << 20

// CapBody wraps rt (http.DefaultTransport when nil) so that every answer's
// body is capped at 4 MiB; reading past the cap is an error, so a JSON
// decoder fails instead of reading on. An account answer is a few kilobytes.
func CapBody(rt http.RoundTripper) http.RoundTripper {
	if rt == nil {
		rt = http.DefaultTransport
	}
	return limitBody{rt}
}

// limitBody caps every answer's body at maxBody bytes.
type limitBody struct{ rt http.RoundTripper }

func (l limitBody) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &cappedBody{rc: resp.Body, left: maxBody}
	return resp, nil
}

type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

var errBodyTooLarge = errors.New("account API answer exceeds the size cap")

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errBodyTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// HorizonDoer is the HTTP of one call of the SDK's horizonclient, for the
// tools that use that client (the wallet package, the double's tests; the
// relay itself does not): the SDK's calls take no context, so the doer
// sends every request with Ctx, and it remembers the last status, so
// failures can be told apart without reading the upstream's error body.
// Client's transport should be a CapBody one. It needs no import of
// horizonclient, which the server binary must not link.
type HorizonDoer struct {
	Ctx    context.Context
	Client *http.Client
	Status int // of the last answer; 0 before any
}

// Do implements horizonclient.HTTP.
func (d *HorizonDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.Client.Do(req.WithContext(d.Ctx))
	if resp != nil {
		d.Status = resp.StatusCode
	}
	return resp, err
}

// Get implements horizonclient.HTTP.
func (d *HorizonDoer) Get(u string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(d.Ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	return d.Do(req)
}

// PostForm implements horizonclient.HTTP.
func (d *HorizonDoer) PostForm(u string, data url.Values) (*http.Response, error) {
	req, err := http.NewRequestWithContext(d.Ctx, http.MethodPost, u, strings.NewReader(data.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return d.Do(req)
}

// IsBodyTooLarge reports whether err is a read past CapBody's cap, so that
// another backend sharing CapBody can say so.
func IsBodyTooLarge(err error) bool { return errors.Is(err, errBodyTooLarge) }

// MaxBody is CapBody's cap in bytes.
const MaxBody = maxBody
