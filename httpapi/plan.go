package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"unsafe"

	"github.com/closerelay/closerelay/actor"
	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/httpapi/bounds"
	"github.com/closerelay/closerelay/ledgerapi"
	"github.com/closerelay/closerelay/relay"
	"github.com/closerelay/closerelay/wire"
	"github.com/labstack/echo/v4"
)

// readObject reads a capped JSON body as an object of raw fields. It answers
// 413 when the cap was hit, and ok=false for anything that is not an object.
func readObject(c echo.Context) (fields map[string]json.RawMessage, ok bool, err error) {
	raw, err := readBody(c)
	if err != nil {
		return nil, false, err
	}
	fields, ok = objectOf(raw)
	return fields, ok, nil
}

// objectOf decodes a body as an object of raw fields; ok is false for
// anything that is not an object.
func objectOf(raw []byte) (fields map[string]json.RawMessage, ok bool) {
	// Keys are matched exactly, as the wallet clients send them: encoding/json's
	// case-insensitive struct matching would accept "XDR" for "xdr".
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return nil, false
	}
	return fields, true
}

// onlyXDR is the xdr of a body that is exactly {"xdr":"…"} with a value
// that needs no unescaping, the body every co-signer's client sends: what
// objectOf and stringField would make of it, without decoding the body
// twice (encoding/json validates, then decodes, into a map). ok is false for
// any other body, which takes the full decoding. The string shares raw's
// bytes rather than copying a partial's 300 to 1,500 of them: raw, a body
// read into a buffer of its own, must never change afterwards.
func onlyXDR(raw []byte) (string, bool) {
	const head, tail = `{"xdr":`, `}`
	if len(raw) < len(head)+len(tail)+2 || string(raw[:len(head)]) != head || string(raw[len(raw)-len(tail):]) != tail {
		return "", false
	}
	b, ok := plainBytes(raw[len(head) : len(raw)-len(tail)])
	if !ok || len(b) == 0 {
		return string(b), ok
	}
	return unsafe.String(&b[0], len(b)), true
}

// readAll reads r's body into one buffer sized from its Content-Length
// (bodies are capped at MaxBodyBytes before this, so a declared length above the
// cap is refused by that reader, not allocated here); io.ReadAll would grow
// its buffer from 512 bytes through four allocations for a partial.
func readAll(r *http.Request) ([]byte, error) {
	n := r.ContentLength
	if n <= 0 || n > MaxBodyBytes {
		return io.ReadAll(r.Body)
	}
	buf := make([]byte, 0, n+1) // +1: the read that finds the end needs room
	for {
		m, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		switch {
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return buf, err
		case len(buf) == cap(buf):
			// More than declared: let io.ReadAll take the rest (net/http
			// refuses a body longer than its Content-Length anyway).
			rest, err := io.ReadAll(r.Body)
			return append(buf, rest...), err
		}
	}
}

// readBody reads a capped body: 413 when the cap was hit, 408 when it did
// not arrive in time, client gone when the connection ended under it.
func readBody(c echo.Context) ([]byte, error) {
	raw, err := readAll(c.Request())
	if err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.As(err, &tooBig):
			return nil, errcode.New(errcode.PayloadTooLarge, "request body is larger than 16384 bytes")
		case errors.Is(err, bounds.ErrBodyTimeout):
			return nil, errcode.New(errcode.RequestTimeout, "the request body did not arrive within 10 s of its headers")
		}
		// Anything else is a connection that ended under the body.
		return nil, fmt.Errorf("%w: reading the body: %w", errClientGone, err)
	}
	return raw, nil
}

// isForm reports whether the request body is a form (a SEP-7 callback).
func isForm(c echo.Context) bool {
	h := c.Request().Header.Get(echo.HeaderContentType)
	if h == echo.MIMEApplicationJSON || h == "" {
		return false // the usual answers, known without parsing (a map each)
	}
	ct, _, _ := mime.ParseMediaType(h)
	return ct == echo.MIMEApplicationForm
}

// formXDR reads a SEP-7 callback's form body (CONTRACT section 11):
// signed_envelope_xdr when present (Albedo), else xdr (SEP-7). A present
// signed_envelope_xdr is used even when it does not decode: no fall-back.
func formXDR(c echo.Context) (string, error) {
	raw, err := readBody(c)
	if err != nil {
		return "", err
	}
	values, err := url.ParseQuery(string(raw))
	if err != nil {
		return "", errcode.New(errcode.BadXDR, "the form body does not parse")
	}
	name := "xdr"
	if _, albedo := values["signed_envelope_xdr"]; albedo {
		name = "signed_envelope_xdr"
	}
	v, present := values[name]
	if !present {
		return "", errcode.New(errcode.BadXDR, "the form must carry xdr or signed_envelope_xdr")
	}
	return relay.CheckXDR(name, v[0])
}

// stringField returns fields[name] when it is a JSON string.
func stringField(fields map[string]json.RawMessage, name string) (string, bool) {
	raw, present := fields[name]
	if !present {
		return "", false
	}
	if v, ok := plainString(raw); ok {
		return v, true
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false
	}
	return v, true
}

// plainString is the value of raw, a JSON string already validated by the
// body's decoding, when it is printable ASCII without escapes (base64 XDR
// always is): the same string json.Unmarshal would give, without decoding
// the body's largest field a second time. ok is false for anything else.
func plainString(raw json.RawMessage) (string, bool) {
	b, ok := plainBytes(raw)
	return string(b), ok
}

// plainBytes is plainString's value as raw's own bytes.
func plainBytes(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	body := raw[1 : len(raw)-1]
	for _, c := range body {
		if c < 0x20 || c >= 0x7f || c == '\\' || c == '"' {
			return nil, false
		}
	}
	return body, true
}

// xdrField is the xdr string of a decoded body, the wire's part of guard 1
// (shared by publish and sign): BAD_XDR when the body is not an object or
// its xdr is not a string. relay.CheckXDR checks the value.
func xdrField(fields map[string]json.RawMessage, ok bool) (string, error) {
	if !ok {
		return "", errcode.New(errcode.BadXDR, "request body must be a JSON object with an xdr string")
	}
	x, isString := stringField(fields, "xdr")
	if !isString {
		return "", errcode.New(errcode.BadXDR, "xdr must be a string")
	}
	return x, nil
}

// submitField is publish's optional "submit" (CONTRACT section 10): absent
// or false is false, true is true; anything else (null, a string, a number)
// is 400 BAD_REQUEST, which publish answers right after guard 1.
func submitField(fields map[string]json.RawMessage) (bool, error) {
	raw, present := fields["submit"]
	if !present {
		return false, nil
	}
	var v *bool
	if err := json.Unmarshal(raw, &v); err != nil || v == nil {
		return false, errcode.New(errcode.BadRequest, "submit must be true or false")
	}
	return *v, nil
}

// publish is POST /api/plan: the body decoded, then relay's Publish (SPEC
// guards 1 to 8 in order). A body that is not an object, or whose xdr is
// not a string, fails guard 1 here, before any other check could.
func (s *Server) publish(c echo.Context) error {
	fields, ok, err := readObject(c)
	if err != nil {
		return err
	}
	x, err := xdrField(fields, ok)
	if err != nil {
		return err
	}
	req := relay.PublishRequest{XDR: x}
	req.Submit, req.Malformed = submitField(fields)
	req.Network, _ = stringField(fields, "network") // absent or not a string: "", which guard 2 refuses
	req.FlowToken = fields["flowToken"]
	ctx := c.Request().Context()
	if len(s.limiters) > 0 {
		// The preflight spends this client's ledger-call budget
		// (docs/API.md section 12), keyed as the rate limits key it;
		// RATE_LIMITS=off lifts it with every other per-client limit.
		ctx = ledgerapi.WithClient(ctx, s.clientIP(c))
	}
	id, err := s.plans.Publish(ctx, req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.Published{OK: true, ID: id})
}

// get is GET /api/plan/:id.
func (s *Server) get(c echo.Context) error {
	st, err := s.plans.Current(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.Plan{OK: true, Network: string(st.Network), XDR: st.XDR})
}

// sign is POST /api/plan/:id/sign. An unknown id is 404 whatever the body.
func (s *Server) sign(c echo.Context) error {
	ctx := c.Request().Context()
	plan, err := s.plans.Find(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	var partial string
	if isForm(c) {
		partial, err = formXDR(c)
	} else {
		raw, rerr := readBody(c)
		if rerr != nil {
			return rerr
		}
		x, ok := onlyXDR(raw)
		if !ok {
			x, err = xdrField(objectOf(raw))
		}
		if err == nil {
			partial, err = relay.CheckXDR("xdr", x)
		}
	}
	if err != nil {
		return err
	}
	st, err := s.plans.Sign(ctx, plan, partial)
	if err != nil {
		return err
	}
	// The first answer of a version is rendered into a pooled buffer, the
	// later ones (replays) share one rendering kept with the version.
	// JSONBlob has copied b out when it returns.
	buf := answerBuffers.Get().(*[]byte)
	b, kept := st.RenderAnswer(appendSignOK, (*buf)[:0])
	err = c.JSONBlob(http.StatusOK, b)
	if !kept {
		*buf = b[:0]
	}
	answerBuffers.Put(buf)
	return err
}

// answerBuffers are the buffers a version's first sign answer is rendered
// into: 0.6 to 3.5 KB for a 20-signer plan.
var answerBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func signOKOf(st actor.State) wire.Signed {
	return wire.Signed{
		OK: true, Network: string(st.Network), XDR: st.XDR, Signers: nonNil(st.Signers),
		Weight: st.Weight, Threshold: st.Threshold, Ready: st.Ready, Landable: st.Landable,
	}
}

// appendSignOK appends the sign route's answer for st to dst, byte for
// byte as c.JSON writes it (with its trailing newline).
func appendSignOK(dst []byte, st actor.State) []byte {
	s := signOKOf(st)
	// The envelope, its signers (56 characters and 3 of punctuation each),
	// and the rest of the fields (under 160 bytes).
	dst = slices.Grow(dst, len(s.XDR)+len(s.Signers)*59+160)
	return append(s.AppendJSON(dst), '\n')
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
