package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/httpapi/openapi"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
)

// This file checks the OpenAPI document (package openapi) against the
// router, and holds checkAnswer, which roundTrip runs on every answer the
// black-box tests receive: an answer the document does not describe fails
// the test that received it.

// apiDoc is the document, loaded once: a validator of answers, the schemas
// of its components, and its routes.
type apiDoc struct {
	mu      sync.Mutex // the validator's caches are not documented as safe for concurrent use
	answers validator.Validator
	schemas schema_validation.SchemaValidator
	named   map[string]*base.Schema
	routes  map[httpapi.Route]bool
}

var loadAPIDoc = sync.OnceValues(func() (*apiDoc, error) {
	doc, err := libopenapi.NewDocument(openapi.Document)
	if err != nil {
		return nil, err
	}
	model, err := doc.BuildV3Model()
	if err != nil {
		return nil, err
	}
	v, errs := validator.NewValidator(doc, config.WithFormatAssertions())
	if len(errs) > 0 {
		return nil, fmt.Errorf("building the validator: %v", errs)
	}
	d := &apiDoc{
		answers: v,
		schemas: schema_validation.NewSchemaValidator(config.WithFormatAssertions()),
		named:   map[string]*base.Schema{},
		routes:  map[httpapi.Route]bool{},
	}
	for name, proxy := range model.Model.Components.Schemas.FromOldest() {
		d.named[name] = proxy.Schema()
	}
	for path, item := range model.Model.Paths.PathItems.FromOldest() {
		for method := range item.GetOperations().FromOldest() {
			d.routes[httpapi.Route{Method: strings.ToUpper(method), Path: path}] = true
		}
	}
	return d, nil
})

func mustAPIDoc(tb testing.TB) *apiDoc {
	tb.Helper()
	d, err := loadAPIDoc()
	if err != nil {
		tb.Fatalf("the OpenAPI document does not load: %v", err)
	}
	return d
}

// documented reports whether the document describes method on path (a
// request path, matched against the document's templates).
func (d *apiDoc) documented(method, path string) bool {
	segs := strings.Split(path, "/")
	for r := range d.routes {
		if r.Method != method {
			continue
		}
		tmpl := strings.Split(r.Path, "/")
		if len(tmpl) == len(segs) && matches(tmpl, segs) {
			return true
		}
	}
	return false
}

func matches(tmpl, segs []string) bool {
	for i, t := range tmpl {
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			if segs[i] == "" {
				return false
			}
			continue
		}
		if t != segs[i] {
			return false
		}
	}
	return true
}

// checkAnswer checks res, the answer to req, against the document: for a
// documented route and method, its status, its headers (Cache-Control,
// Retry-After, Allow…) and its body's schema; for an /api path or method
// the document does not describe (Echo's own 404 and 405), that any body is
// CONTRACT section 3's error body. Paths outside /api (the HTML pages, the
// account-API double) are not the document's.
func checkAnswer(req *http.Request, res response) error {
	if !strings.HasPrefix(req.URL.Path, "/api/") {
		return nil
	}
	d, err := loadAPIDoc()
	if err != nil {
		return err
	}
	_, loose := looseHosts.Load(req.URL.Host)
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.documented(req.Method, req.URL.Path) || loose && res.status >= 400 {
		if len(res.body) == 0 {
			return nil
		}
		if ok, errs := d.schemas.ValidateSchemaBytesWithVersion(d.named["Error"], res.body, 3.1); !ok {
			return answerError(req, res, errs)
		}
		return nil
	}
	hres := &http.Response{
		StatusCode: res.status, Header: res.header, Request: req,
		Body: io.NopCloser(bytes.NewReader(res.body)), ContentLength: int64(len(res.body)),
	}
	if ok, errs := d.answers.ValidateHttpResponse(req, hres); !ok {
		return answerError(req, res, errs)
	}
	return nil
}

// looseHosts are the relays (host:port) whose refusals checkAnswer checks
// against CONTRACT section 3's error body only, whatever the route: see
// looseDocCheck.
var looseHosts sync.Map

// looseDocCheck is for a test that makes a route raise what the route
// itself never raises (every code of the vocabulary through a fake
// mediator, say): the relay at base's refusals are checked as error bodies
// with any known code, not against the route's own list. Its successes are
// still checked in full.
func looseDocCheck(tb testing.TB, base string) {
	tb.Helper()
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatal(err)
	}
	looseHosts.Store(u.Host, true)
	tb.Cleanup(func() { looseHosts.Delete(u.Host) })
}

// answerError is a clear failure: the request, the answer, and what the
// document says of it.
func answerError(req *http.Request, res response, errs []*liberrors.ValidationError) error {
	var b strings.Builder
	fmt.Fprintf(&b, "the answer to %s %s does not match the OpenAPI document (httpapi/openapi/openapi.json): status %d, Content-Type %q, body %.400s",
		req.Method, req.URL.Path, res.status, res.header.Get("Content-Type"), res.body)
	for _, e := range errs {
		fmt.Fprintf(&b, "\n\t%s: %s", e.Message, e.Reason)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "\n\t\t%s at %s (schema %s)", f.Reason, f.FieldPath, f.KeywordLocation)
		}
	}
	return fmt.Errorf("%s", b.String())
}

// checkSchema checks data, a JSON value, against the document's component
// schema name (the event stream's data objects, which no answer schema
// describes line by line).
func checkSchema(tb testing.TB, name string, data []byte) {
	tb.Helper()
	d := mustAPIDoc(tb)
	s := d.named[name]
	if s == nil {
		tb.Fatalf("the OpenAPI document has no schema %s", name)
	}
	d.mu.Lock()
	ok, errs := d.schemas.ValidateSchemaBytesWithVersion(s, data, 3.1)
	d.mu.Unlock()
	if !ok {
		var b strings.Builder
		for _, e := range errs {
			fmt.Fprintf(&b, "\n\t%s: %s", e.Message, e.Reason)
			for _, f := range e.SchemaValidationErrors {
				fmt.Fprintf(&b, "\n\t\t%s at %s", f.Reason, f.FieldPath)
			}
		}
		tb.Errorf("%s does not match the OpenAPI document's %s:%s", data, name, b.String())
	}
}

// TestOpenAPIRoutesDocumented: every route the router serves under /api is
// in the document, and every route of the document is served. Nothing is
// tolerated: a route added without its description, or described before it
// is registered, fails here.
func TestOpenAPIRoutesDocumented(t *testing.T) {
	d := mustAPIDoc(t)
	r := startRelay(t, httpapi.Options{}, 0, nil)
	served := map[httpapi.Route]bool{}
	for _, rt := range r.API.Routes() {
		if rt.Path == "/api" || strings.HasPrefix(rt.Path, "/api/") {
			served[rt] = true
		}
	}
	var undocumented, unserved []string
	for rt := range served {
		if !d.routes[rt] {
			undocumented = append(undocumented, rt.Method+" "+rt.Path)
		}
	}
	for rt := range d.routes {
		if !served[rt] {
			unserved = append(unserved, rt.Method+" "+rt.Path)
		}
	}
	sort.Strings(undocumented)
	sort.Strings(unserved)
	for _, s := range undocumented {
		t.Errorf("route %s is served but not in the OpenAPI document (httpapi/openapi/document_test.go)", s)
	}
	for _, s := range unserved {
		t.Errorf("route %s is in the OpenAPI document but the router does not serve it", s)
	}
	if len(served) < 10 {
		t.Errorf("the router serves %d API routes: Routes() lost some", len(served))
	}
}

// TestOpenAPIServed: GET /api/openapi.json is the embedded document, JSON,
// uncacheable; HEAD has its headers and no body.
func TestOpenAPIServed(t *testing.T) {
	r := startRelay(t, httpapi.Options{}, 0, nil)
	res := send(t, r.Client, http.MethodGet, r.URL+openapi.Path, nil, nil)
	if res.status != http.StatusOK {
		t.Fatalf("status %d, want 200", res.status)
	}
	if ct := res.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	if cc := res.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
	if !bytes.Equal(res.body, openapi.Document) {
		t.Error("the body is not the embedded document")
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
	}
	if err := json.Unmarshal(res.body, &doc); err != nil || !strings.HasPrefix(doc.OpenAPI, "3.1.") {
		t.Errorf("openapi = %q (%v), want 3.1.x", doc.OpenAPI, err)
	}
	head := send(t, r.Client, http.MethodHead, r.URL+openapi.Path, nil, nil)
	if head.status != http.StatusOK || len(head.body) != 0 || head.header.Get("Content-Type") != "application/json" {
		t.Errorf("HEAD: status %d, %d body bytes, Content-Type %q; want 200, none, application/json",
			head.status, len(head.body), head.header.Get("Content-Type"))
	}
}

// TestOpenAPICheckAnswerRefuses shows that checkAnswer has teeth: answers
// that differ from the document by one field, one header or one status are
// refused, each with a message that names the request.
func TestOpenAPICheckAnswerRefuses(t *testing.T) {
	const id = "00000000000000000000000000000000000000000000000000000000000000ab"
	hdr := func(kv ...string) http.Header {
		h := http.Header{"Cache-Control": {"no-store"}, "Content-Type": {"application/json"}}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	xdrB64 := "AAAAAgAAAAA="
	good := []struct {
		method, path string
		res          response
	}{
		{http.MethodGet, "/api/plan/" + id, response{200, hdr(), []byte(`{"ok":true,"network":"testnet","xdr":"` + xdrB64 + `"}`)}},
		{http.MethodGet, "/api/plan/" + id, response{404, hdr(), []byte(`{"ok":false,"code":"NOT_FOUND","reason":"signing request not found"}`)}},
		{http.MethodPost, "/api/plan", response{429, hdr("Retry-After", "6"), []byte(`{"ok":false,"code":"RATE_LIMITED","reason":"slow down"}`)}},
		{http.MethodGet, "/api/nope", response{404, hdr(), []byte(`{"ok":false,"code":"NOT_FOUND","reason":"no such route"}`)}},
	}
	for _, tc := range good {
		req, _ := http.NewRequest(tc.method, "http://relay.test"+tc.path, nil)
		if err := checkAnswer(req, tc.res); err != nil {
			t.Errorf("a conforming answer is refused: %v", err)
		}
	}
	bad := []struct {
		name, method, path string
		res                response
	}{
		{"a field the document does not have", http.MethodGet, "/api/plan/" + id,
			response{200, hdr(), []byte(`{"ok":true,"network":"testnet","xdr":"` + xdrB64 + `","extra":1}`)}},
		{"a missing field", http.MethodGet, "/api/plan/" + id,
			response{200, hdr(), []byte(`{"ok":true,"network":"testnet"}`)}},
		{"a network outside the three", http.MethodGet, "/api/plan/" + id,
			response{200, hdr(), []byte(`{"ok":true,"network":"public","xdr":"` + xdrB64 + `"}`)}},
		{"a code this answer cannot carry", http.MethodGet, "/api/plan/" + id,
			response{404, hdr(), []byte(`{"ok":false,"code":"REJECTED","reason":"x"}`)}},
		{"a code of another status", http.MethodPost, "/api/plan",
			response{400, hdr(), []byte(`{"ok":false,"code":"NOT_READY","reason":"x"}`)}},
		{"a status the route does not answer", http.MethodGet, "/api/plan/" + id,
			response{409, hdr(), []byte(`{"ok":false,"code":"NOT_READY","reason":"x"}`)}},
		{"429 without Retry-After", http.MethodPost, "/api/plan",
			response{429, hdr(), []byte(`{"ok":false,"code":"RATE_LIMITED","reason":"slow down"}`)}},
		{"no Cache-Control", http.MethodGet, "/api/plan/" + id,
			response{404, http.Header{"Content-Type": {"application/json"}}, []byte(`{"ok":false,"code":"NOT_FOUND","reason":"x"}`)}},
		{"an empty reason", http.MethodGet, "/api/plan/" + id,
			response{404, hdr(), []byte(`{"ok":false,"code":"NOT_FOUND","reason":""}`)}},
		{"an unknown route's answer that is not the error body", http.MethodGet, "/api/nope",
			response{404, hdr(), []byte(`{"message":"Not Found"}`)}},
		{"a mint answer with ok", http.MethodGet, "/api/mediator/sign",
			response{200, hdr(), []byte(`{"ok":true,"flowToken":"x","mediatorPublicKey":"GA"}`)}},
	}
	for _, tc := range bad {
		req, _ := http.NewRequest(tc.method, "http://relay.test"+tc.path, nil)
		err := checkAnswer(req, tc.res)
		if err == nil {
			t.Errorf("%s: accepted, want refused", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.method+" "+tc.path) {
			t.Errorf("%s: the message does not name the request: %v", tc.name, err)
		}
	}
}
