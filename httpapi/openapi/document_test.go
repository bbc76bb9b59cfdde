package openapi_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/httpapi/openapi"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
)

// This file is the source of openapi.json: document builds it from the
// routes' descriptions below and package errcode's constants. Change a
// route here, then run
//
//	go test ./httpapi/openapi -run TestDocumentUpToDate -update

var update = flag.Bool("update", false, "rewrite openapi.json from the description in this file")

// obj is a JSON object of the document.
type obj = map[string]any

// TestDocumentUpToDate fails when openapi.json is not what this file
// generates.
func TestDocumentUpToDate(t *testing.T) {
	got := generate(t)
	if *update {
		if err := os.WriteFile("openapi.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, openapi.Document) {
		t.Fatal("openapi.json is not what document_test.go generates: run go test ./httpapi/openapi -run TestDocumentUpToDate -update")
	}
}

// TestDocumentValid checks the document against the OpenAPI 3.1
// specification's schema, and that it builds a validator.
func TestDocumentValid(t *testing.T) {
	doc, err := libopenapi.NewDocument(openapi.Document)
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.GetVersion(); v != "3.1.1" {
		t.Errorf("openapi = %q, want 3.1.1", v)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("building a validator: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("%s: %s", e.Message, e.Reason)
			for _, se := range e.SchemaValidationErrors {
				t.Errorf("  %s at %s (%s)", se.Reason, se.FieldPath, se.KeywordLocation)
			}
		}
	}
}

// TestEveryCodeListed checks CONTRACT section 11: the document lists every
// code of package errcode (sections 3 to 6, 10, 11 and 13), each in the
// enum of at least one answer.
func TestEveryCodeListed(t *testing.T) {
	var doc any
	if err := json.Unmarshal(openapi.Document, &doc); err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if code, ok := v["x-code"].(string); ok {
				listed[code] = true
			}
			for _, c := range asSlice(v["x-codes"]) {
				listed[c.(string)] = true
			}
			if props, ok := v["properties"].(map[string]any); ok {
				if code, ok := props["code"].(map[string]any); ok {
					for _, c := range asSlice(code["enum"]) {
						listed[c.(string)] = true
					}
				}
			}
			for _, w := range v {
				walk(w)
			}
		case []any:
			for _, w := range v {
				walk(w)
			}
		}
	}
	walk(doc)
	for _, c := range errcode.All() {
		if !listed[string(c)] {
			t.Errorf("code %s is in no answer of the document", c)
		}
	}
	for c := range listed {
		if !errcode.Code(c).Known() {
			t.Errorf("the document lists %s, which is not a code of package errcode", c)
		}
	}
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

// --- the document ----------------------------------------------------------

// document is the top level, in the order a reader expects.
type document struct {
	OpenAPI           string `json:"openapi"`
	Info              obj    `json:"info"`
	JSONSchemaDialect string `json:"jsonSchemaDialect"`
	Tags              []obj  `json:"tags"`
	Paths             obj    `json:"paths"`
	Components        obj    `json:"components"`
}

func generate(t *testing.T) []byte {
	t.Helper()
	d := document{
		OpenAPI: "3.1.1",
		Info: obj{
			"title":   "closerelay API",
			"version": "1",
			"summary": "Collects the co-signatures of a Stellar account close, and co-signs mediator forwards.",
			"description": "Every answer carries `Cache-Control: no-store`. JSON errors are " +
				"`{\"ok\":false,\"code\":<CODE>,\"reason\":<text>}`; each answer below lists the codes it can carry. " +
				"Rate limits are per client IP, N requests per 60 s refilled continuously; a throttled JSON route " +
				"answers 429 RATE_LIMITED with `Retry-After` in whole seconds. Rate limiting runs first on a route, " +
				"then the 16,384-byte body cap (413 PAYLOAD_TOO_LARGE). A path that no route serves answers 404 " +
				"NOT_FOUND, and a method a route does not serve 405 METHOD_NOT_ALLOWED, with the same error body. " +
				"A path id is 64 hex characters, matched case-insensitively; any other id answers 404 NOT_FOUND. " +
				"HEAD on a GET route answers as GET without a body.",
		},
		JSONSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
		Tags: []obj{
			{"name": "plans", "description": "Close plans: publish, sign, read, stream, readiness, SEP-7 links."},
			{"name": "mediator", "description": "The mediator: mint a flow, co-sign its forward."},
			{"name": "meta", "description": "This document."},
		},
		Paths:      paths(),
		Components: components(),
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// --- building blocks -------------------------------------------------------

func ref(kind, name string) obj { return obj{"$ref": "#/components/" + kind + "/" + name} }

func schemaRef(name string) obj { return ref("schemas", name) }

// headers is a response's headers: Cache-Control always, then extra.
func headers(extra ...string) obj {
	h := obj{"Cache-Control": ref("headers", "CacheControl")}
	for _, name := range extra {
		h[name] = ref("headers", strings.ReplaceAll(name, "-", ""))
	}
	return h
}

// jsonAnswer is an answer with a JSON body of schema.
func jsonAnswer(description string, schema obj, extraHeaders ...string) obj {
	return obj{
		"description": description,
		"headers":     headers(extraHeaders...),
		"content":     obj{"application/json": obj{"schema": schema}},
	}
}

// noBody is an answer without a body (HEAD's, OPTIONS').
func noBody(description string, extraHeaders ...string) obj {
	return obj{"description": description, "headers": headers(extraHeaders...)}
}

// errorSchema is CONTRACT section 3's error body with code one of codes.
func errorSchema(codes ...errcode.Code) obj {
	enum := make([]string, len(codes))
	for i, c := range codes {
		enum[i] = string(c)
	}
	return obj{
		"type":                 "object",
		"title":                "Error",
		"description":          "CONTRACT section 3's error body, with the codes this answer can carry.",
		"required":             []string{"ok", "code", "reason"},
		"additionalProperties": false,
		"properties": obj{
			"ok":     obj{"const": false},
			"code":   obj{"type": "string", "enum": enum},
			"reason": obj{"type": "string", "minLength": 1, "description": "A human-readable reason; never a secret, a stack trace or an upstream body."},
		},
	}
}

// answers groups codes by status: each status's answer lists its codes.
// Statuses 429 carry Retry-After; 405 carries Allow.
func errorAnswers(head bool, codes ...errcode.Code) obj {
	return errorAnswersBy(errcode.Code.Status, head, codes...)
}

// errorAnswersBy is errorAnswers with each code's status given by status.
func errorAnswersBy(status func(errcode.Code) int, head bool, codes ...errcode.Code) obj {
	byStatus := map[int][]errcode.Code{}
	for _, c := range codes {
		byStatus[status(c)] = append(byStatus[status(c)], c)
	}
	out := obj{}
	for status, cs := range byStatus {
		var extra []string
		switch status {
		case 429:
			extra = append(extra, "Retry-After")
		case 405:
			extra = append(extra, "Allow")
		}
		names := make([]string, len(cs))
		for i, c := range cs {
			names[i] = "`" + string(c) + "`"
		}
		desc := "Refused: " + strings.Join(names, ", ") + "."
		if head {
			desc += " HEAD: the headers of GET's answer (Content-Type: application/json), no body."
			out[statusKey(status)] = noBody(desc, extra...)
			continue
		}
		out[statusKey(status)] = jsonAnswer(desc, errorSchema(cs...), extra...)
	}
	return out
}

func statusKey(s int) string {
	return string([]byte{byte('0' + s/100), byte('0' + s/10%10), byte('0' + s%10)})
}

// merge adds the entries of each of ms to a new object.
func merge(ms ...obj) obj {
	out := obj{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

func operation(id, tag, summary, description string, responses obj) obj {
	op := obj{"operationId": id, "tags": []string{tag}, "summary": summary, "responses": responses}
	if description != "" {
		op["description"] = description
	}
	return op
}

func withParams(op obj, params ...obj) obj {
	op["parameters"] = params
	return op
}

func withBody(op obj, description string, content obj) obj {
	op["requestBody"] = obj{"required": true, "description": description, "content": content}
	return op
}

func limited(n int) string {
	return "Rate limit: " + itoa(n) + " requests per 60 s per client IP."
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// --- the routes ------------------------------------------------------------

// planRead is the codes of a plan route that reads a plan (get, ready,
// status, sep7), limiter first.
var planRead = []errcode.Code{errcode.NotFound, errcode.RateLimited, errcode.Internal, errcode.Unavailable}

// getAndHead is a GET route's operation and its HEAD twin: HEAD answers as
// GET, without a body.
func getAndHead(id, summary, description string, ok obj, codes []errcode.Code) (get, head obj) {
	get = operation(id, "plans", summary, description, merge(obj{"200": ok}, errorAnswers(false, codes...)))
	head = operation("head"+strings.ToUpper(id[3:4])+id[4:], "plans", summary+" (headers only)",
		"As GET, without a body.",
		merge(obj{"200": noBody("As GET's 200, without a body.")}, errorAnswers(true, codes...)))
	get = withParams(get, ref("parameters", "PlanID"))
	head = withParams(head, ref("parameters", "PlanID"))
	return get, head
}

func paths() obj {
	publishCodes := []errcode.Code{
		errcode.BadXDR, errcode.BadRequest, errcode.BadNetwork, errcode.NotAClose, errcode.Expired,
		errcode.SubmitUnsupported, errcode.BadFlow, errcode.MediatorNotConfigured, errcode.Rejected, errcode.Capacity,
		errcode.AccountUnreachable, errcode.Unsigned, errcode.NotFound, errcode.RequestTimeout, errcode.PayloadTooLarge,
		errcode.RateLimited, errcode.Internal, errcode.Unavailable,
	}
	publish := withBody(operation("publishPlan", "plans", "Publish a close plan",
		"Guards 1 to 8 in order (BAD_XDR, BAD_NETWORK, NOT_A_CLOSE, then EXPIRED, SUBMIT_UNSUPPORTED and BAD_FLOW, "+
			"the re-publish merge (REJECTED), CAPACITY, ACCOUNT_UNREACHABLE, UNSIGNED, CAPACITY or EXPIRED at insert). "+
			"A re-publish of an open plan merges its signatures and answers the same id; NOT_FOUND only when the plan "+
			"ends while a re-publish merges. BAD_REQUEST: `submit` present and not a boolean. BAD_FLOW (CONTRACT section 16), "+
			"with a reason: `flowToken` not a non-empty string, without `submit`, a token that does not verify or commits "+
			"no memo, a close whose first operation is not create_account of the flow's mediator with 2 units or whose merge "+
			"is not into it, or a re-publish naming another flow than the plan's; MEDIATOR_NOT_CONFIGURED (500) for a "+
			"`flowToken` without a master. UNAVAILABLE is a 400 "+
			"here (SPEC: no 503 on publish): the relay is stopping, or in cluster mode its plan store (NATS) is "+
			"unreachable. "+limited(10),
		merge(obj{"200": jsonAnswer("Published, or merged into the open plan of the same transaction.", schemaRef("PublishOK"))},
			errorAnswersBy(errcode.Code.PublishStatus, false, publishCodes...))),
		"The close transaction, signed by at least one of the account's signers.",
		obj{"application/json": obj{"schema": schemaRef("PublishRequest")}})

	getPlan, headPlan := getAndHead("getPlan", "Read a plan's current envelope", limited(60),
		jsonAnswer("The plan's network and current envelope.", schemaRef("Plan")), planRead)

	signCodes := []errcode.Code{
		errcode.BadXDR, errcode.Rejected, errcode.NotFound, errcode.RequestTimeout, errcode.PayloadTooLarge,
		errcode.RateLimited, errcode.Internal, errcode.Unavailable,
	}
	sign := withParams(withBody(operation("signPlan", "plans", "Merge a co-signer's partial envelope",
		"An unknown or expired id answers 404 NOT_FOUND whatever the body holds. BAD_XDR: the body is not a JSON "+
			"object (or form) with a non-empty `xdr` (or `signed_envelope_xdr`) of at most 12,000 characters, or the "+
			"partial does not decode. REJECTED: a merge check failed, or the envelope would carry more than 20 "+
			"signatures. The form body is SEP-7's callback (CONTRACT section 11): `signed_envelope_xdr` when present "+
			"(Albedo), `xdr` otherwise, with the same checks, limits and JSON answers. "+limited(30),
		merge(obj{"200": jsonAnswer("Merged: the full envelope and its readiness.", schemaRef("SignOK"))},
			errorAnswers(false, signCodes...))),
		"The partial envelope: the plan's transaction with one or more co-signers' signatures.",
		obj{
			"application/json":                  obj{"schema": schemaRef("SignRequest")},
			"application/x-www-form-urlencoded": obj{"schema": schemaRef("SignForm")},
		}), ref("parameters", "PlanID"))

	eventsDesc := "Server-sent events (CONTRACT sections 5, 10, 11). The stream's first line is `retry: 2000`. " +
		"At once the current state, then one unnamed event per change of the envelope: `id: <version>` and " +
		"`data: <EventData>` (components/schemas/EventData), one JSON object on one line. `: ping` every " +
		"SSE_HEARTBEAT. `event: submitted` with `data: <SubmittedEventData>` and `event: submit_failed` with " +
		"`data: <SubmitFailedEventData>` tell a submission's outcome; `event: forwarded` with `data: <ForwardedEventData>` " +
		"and `event: forward_failed` with `data: <ForwardFailedEventData>` a relay-run forward's (CONTRACT section 16). When the plan expires, `event: expired` with " +
		"`data: <ExpiredEventData>`, then the stream ends. Refusals are text/plain. " + limited(20)
	text := func(desc, body string, code errcode.Code, extra ...string) obj {
		return obj{
			"description": desc,
			"x-code":      string(code),
			"headers":     headers(extra...),
			"content":     obj{"text/plain": obj{"schema": obj{"type": "string", "const": body}}},
		}
	}
	shutdown := text("`UNAVAILABLE`: the relay is shutting down, or (cluster mode) its plan store is unreachable. "+
		"`TOO_MANY_SUBSCRIBERS`: the plan has 50 subscribers; retry after 5 s.",
		"", errcode.Unavailable)
	shutdown["content"] = obj{"text/plain": obj{"schema": obj{"type": "string", "enum": []string{
		"the relay is shutting down", "the relay's plan store is unreachable; retry shortly", "too many live listeners; retry shortly"}}}}
	shutdown["x-codes"] = []string{string(errcode.Unavailable), string(errcode.TooManySubscribers)}
	shutdown["headers"] = merge(headers(), obj{"Retry-After": obj{
		"description": "`5` with TOO_MANY_SUBSCRIBERS; absent when shutting down.",
		"schema":      obj{"type": "string", "const": "5"},
	}})
	delete(shutdown, "x-code")
	eventsRefusals := obj{
		"404": text("`NOT_FOUND`: unknown or expired plan, or an id that is not 64 hex characters.", "signing request not found", errcode.NotFound),
		"429": text("`RATE_LIMITED`.", "too many requests", errcode.RateLimited, "Retry-After"),
		"503": shutdown,
		"500": jsonAnswer("Refused: `INTERNAL`.", errorSchema(errcode.Internal)),
	}
	events := withParams(operation("streamPlanEvents", "plans", "Stream a plan's states", eventsDesc, merge(obj{
		"200": obj{
			"description": "The event stream.",
			"headers":     headers("X-Accel-Buffering"),
			"content": obj{"text/event-stream": obj{"schema": obj{
				"type":        "string",
				"description": "SSE framing; each data line is one of EventData, ExpiredEventData, SubmittedEventData, SubmitFailedEventData, ForwardedEventData, ForwardFailedEventData.",
			}}},
		},
	}, eventsRefusals)), ref("parameters", "PlanID"))
	// A body means nothing to the stream: it is read to its end first
	// (CONTRACT section 9, round 3), within the bounds of every body.
	events["responses"].(obj)["408"] = text("`REQUEST_TIMEOUT`: the request came with a body that did not arrive within 10 s of its headers.",
		"the request body did not arrive within 10 s of its headers", errcode.RequestTimeout)
	events["responses"].(obj)["413"] = text("`PAYLOAD_TOO_LARGE`: the request came with a body above 16,384 bytes.",
		"request body is larger than 16384 bytes", errcode.PayloadTooLarge)
	headRefusals := obj{}
	for k, v := range eventsRefusals {
		r := merge(v.(obj))
		delete(r, "content")
		r["description"] = r["description"].(string) + " HEAD: no body."
		headRefusals[k] = r
	}
	eventsHead := withParams(operation("headPlanEvents", "plans", "Check a plan's stream (headers only)",
		"The stream's status and headers without a body, taking no subscriber slot.",
		merge(obj{"200": noBody("The stream's headers (Content-Type: text/event-stream).", "X-Accel-Buffering")}, headRefusals)),
		ref("parameters", "PlanID"))
	// HEAD cannot be refused with TOO_MANY_SUBSCRIBERS: it takes no slot.
	eventsHead["responses"].(obj)["503"].(obj)["headers"] = headers()

	readyCodes := append(slices.Clone(planRead), errcode.NotReady)
	getReady, headReady := getAndHead("getPlanReady", "Read the submit-ready envelope",
		"The fewest signatures, largest weights first, whose weights reach the threshold (CONTRACT section 10). "+
			"409 NOT_READY while the plan's weight is below its threshold. "+limited(60),
		jsonAnswer("The submit-ready envelope.", schemaRef("ReadyOK")), readyCodes)
	getStatus, headStatus := getAndHead("getPlanStatus", "Read a plan's state and submission", limited(60),
		jsonAnswer("The plan's state.", schemaRef("StatusOK")), planRead)
	getSep7, headSep7 := getAndHead("getPlanSep7", "Get the plan's SEP-7 link",
		"A `web+stellar:tx` link (CONTRACT section 11) with `xdr` (the current envelope), `network_passphrase` "+
			"(omitted on mainnet), `msg` and, when PUBLIC_URL is set, `callback=url:<PUBLIC_URL>/api/plan/{id}/sign`; "+
			"every value percent-encoded. "+limited(60),
		jsonAnswer("The SEP-7 link.", schemaRef("Sep7OK")), planRead)

	mintCodes := []errcode.Code{errcode.InvalidDestination, errcode.InvalidMemo, errcode.MediatorNotConfigured, errcode.Internal}
	mint := withParams(operation("mintFlow", "mediator", "Mint a flow",
		"A flow token committing to `destination` (and, with `memo`, to a memo), and the flow's mediator key. "+
			"Refusals in order: INVALID_DESTINATION, INVALID_MEMO, MEDIATOR_NOT_CONFIGURED. Not rate limited.",
		merge(obj{"200": jsonAnswer("A flow: exactly these two fields, no `ok`.", schemaRef("MintOK"))}, errorAnswers(false, mintCodes...))),
		obj{"name": "destination", "in": "query", "required": false, "description": "The G… account the forward must pay; missing or invalid is INVALID_DESTINATION.", "schema": obj{"type": "string"}},
		obj{"name": "memo", "in": "query", "required": false, "description": "`text:<text>`, `id:<uint64>`, `hash:<64 hex>` or `return:<64 hex>`, at most once (CONTRACT section 13); otherwise INVALID_MEMO.", "schema": obj{"type": "string"}},
	)
	cosignCodes := append([]errcode.Code{
		errcode.BadRequest, errcode.BadNetwork, errcode.InvalidFlowToken,
	}, errcode.ForwardCodesWithMemo()...)
	cosignCodes = append(cosignCodes, errcode.RequestTimeout, errcode.PayloadTooLarge, errcode.RateLimited,
		errcode.MediatorNotConfigured, errcode.Internal)
	cosign := withBody(operation("cosignForward", "mediator", "Co-sign a forward",
		"Checks in this order, the first failure answering: RATE_LIMITED, PAYLOAD_TOO_LARGE, BAD_REQUEST, BAD_NETWORK, "+
			"MEDIATOR_NOT_CONFIGURED, INVALID_FLOW_TOKEN, then the forward checks in SPEC's order (MALFORMED_XDR … "+
			"TIME_BOUNDS_EXCESSIVE, with FORWARD_MEMO_NOT_COMMITTED right after FORWARD_DESTINATION_NOT_COMMITTED). "+limited(5),
		merge(obj{"200": jsonAnswer("The envelope with the mediator's signature added.", schemaRef("CosignOK"))},
			errorAnswers(false, cosignCodes...))),
		"The forward envelope and its flow token.",
		obj{"application/json": obj{"schema": schemaRef("CosignRequest")}})
	options := operation("mediatorOptions", "mediator", "CORS preflight",
		"CORS headers only for an origin listed in CORS_ALLOW_ORIGINS.", obj{"204": noBody("No content.")})
	notAllowed := func(method string) obj {
		head := method == "HEAD"
		desc := "405 with `Allow: POST, GET, OPTIONS`"
		if head {
			desc += "; no body"
		}
		return operation("mediator"+method[:1]+strings.ToLower(method[1:]), "mediator", method+" is not allowed", desc+".",
			errorAnswers(head, errcode.MethodNotAllowed))
	}

	docOK := jsonAnswer("This document.", obj{"type": "object", "required": []string{"openapi", "info", "paths"}})
	return obj{
		"/api/plan":             obj{"post": publish},
		"/api/plan/{id}":        obj{"get": getPlan, "head": headPlan},
		"/api/plan/{id}/sign":   obj{"post": sign},
		"/api/plan/{id}/events": obj{"get": events, "head": eventsHead},
		"/api/plan/{id}/ready":  obj{"get": getReady, "head": headReady},
		"/api/plan/{id}/status": obj{"get": getStatus, "head": headStatus},
		"/api/plan/{id}/sep7":   obj{"get": getSep7, "head": headSep7},
		"/api/mediator/sign": obj{
			"description": "Every method other than GET, POST and OPTIONS answers 405 METHOD_NOT_ALLOWED with `Allow: POST, GET, OPTIONS` (HEAD without a body).",
			"get":         mint, "post": cosign, "options": options,
			"put": notAllowed("PUT"), "patch": notAllowed("PATCH"), "delete": notAllowed("DELETE"), "head": notAllowed("HEAD"),
		},
		openapi.Path: obj{
			"get":  operation("getOpenAPI", "meta", "This OpenAPI 3.1 document", "", obj{"200": docOK}),
			"head": operation("headOpenAPI", "meta", "This document's headers", "", obj{"200": noBody("As GET, without a body.")}),
		},
	}
}

// --- components ------------------------------------------------------------

func object(description string, required []string, props obj) obj {
	return obj{
		"type": "object", "description": description, "required": required,
		"additionalProperties": false, "properties": props,
	}
}

func components() obj {
	str := func(description string) obj { return obj{"type": "string", "description": description} }
	okTrue := obj{"const": true}
	planID := obj{"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "The plan id: the transaction hash, 64 lowercase hex characters."}
	network := schemaRef("Network")
	envelope := obj{"type": "string", "minLength": 1, "description": "A transaction envelope, base64 XDR."}
	signers := obj{"type": "array", "items": schemaRef("AccountID"), "description": "The recovered keys of the envelope's signatures, in envelope order."}
	weight := obj{"type": "integer", "minimum": 0, "description": "The sum of the weights of the distinct signers whose signatures the envelope carries."}
	threshold := obj{"type": "integer", "minimum": 1, "description": "max(1, the largest threshold among the levels the ledger checks for the account)."}
	ready := obj{"type": "boolean", "description": "weight >= threshold."}
	landable := obj{"type": []string{"boolean", "null"}, "description": "The preflight's verdict (CONTRACT section 14): true landable, false blocked, null when it cannot tell (uncertain, unchecked)."}
	codes := make([]string, 0, len(errcode.All()))
	for _, c := range errcode.All() {
		codes = append(codes, string(c))
	}
	return obj{
		"parameters": obj{
			"PlanID": obj{
				"name": "id", "in": "path", "required": true,
				"description": "The plan id, 64 hex characters, matched case-insensitively; anything else answers 404 NOT_FOUND.",
				"schema":      obj{"type": "string"},
			},
		},
		"headers": obj{
			"CacheControl": obj{"description": "Every answer is uncacheable.", "required": true, "schema": obj{"type": "string", "const": "no-store"}},
			"RetryAfter": obj{
				"description": "Whole seconds until one token is available.", "required": true,
				"schema": obj{"type": "string", "pattern": "^[1-9][0-9]*$"},
			},
			"Allow":           obj{"description": "The methods the route serves.", "required": true, "schema": obj{"type": "string", "const": "POST, GET, OPTIONS"}},
			"XAccelBuffering": obj{"description": "Tells nginx not to buffer the stream.", "required": true, "schema": obj{"type": "string", "const": "no"}},
		},
		"schemas": obj{
			"ErrorCode": obj{"type": "string", "enum": codes, "description": "Every code closerelay answers (package errcode)."},
			"Error": object("CONTRACT section 3's error body.", []string{"ok", "code", "reason"}, obj{
				"ok": obj{"const": false}, "code": schemaRef("ErrorCode"), "reason": obj{"type": "string", "minLength": 1},
			}),
			"Network":   obj{"type": "string", "enum": []string{"mainnet", "testnet", "futurenet"}},
			"AccountID": obj{"type": "string", "pattern": "^G[A-Z2-7]{55}$", "description": "A G… account address."},
			"PublishRequest": obj{
				"type": "object", "required": []string{"xdr", "network"},
				"properties": obj{
					"xdr":       obj{"type": "string", "minLength": 1, "maxLength": 12000, "description": "The close transaction's envelope, base64 XDR."},
					"network":   network,
					"submit":    obj{"type": "boolean", "default": false, "description": "Submit the plan once ready (CONTRACT section 10); a re-publish may set it, never unset it."},
					"flowToken": obj{"type": "string", "minLength": 1, "description": "A five-part, memo-committed mediator flow token (CONTRACT sections 13 and 16); needs submit. Once the close is submitted, the relay forwards the mediator's funds to the committed destination with the committed memo. A re-publish may add a flow, never change it."},
				},
			},
			"PublishOK": object("Published.", []string{"ok", "id"}, obj{"ok": okTrue, "id": planID}),
			"Plan": object("A plan's current envelope.", []string{"ok", "network", "xdr"}, obj{
				"ok": okTrue, "network": network, "xdr": envelope,
			}),
			"SignRequest": obj{
				"type": "object", "required": []string{"xdr"},
				"properties": obj{"xdr": obj{"type": "string", "minLength": 1, "maxLength": 12000, "description": "The partial envelope, base64 XDR."}},
			},
			"SignForm": obj{
				"type":        "object",
				"description": "SEP-7's callback form: `signed_envelope_xdr` when present (Albedo), `xdr` otherwise. A present `signed_envelope_xdr` that does not decode is BAD_XDR, with no fall-back to `xdr`.",
				"properties": obj{
					"xdr":                 obj{"type": "string", "description": "The signed envelope (SEP-7)."},
					"signed_envelope_xdr": obj{"type": "string", "description": "The signed envelope (Albedo); wins over `xdr`."},
				},
				"anyOf": []obj{{"required": []string{"xdr"}}, {"required": []string{"signed_envelope_xdr"}}},
			},
			"SignOK": object("The merged plan.", []string{"ok", "network", "xdr", "signers", "weight", "threshold", "ready", "landable"}, obj{
				"ok": okTrue, "network": network, "xdr": envelope, "signers": signers,
				"weight": weight, "threshold": threshold, "ready": ready, "landable": landable,
			}),
			"ReadyOK": object("The submit-ready envelope.", []string{"ok", "id", "network", "xdr", "signers", "weight", "threshold"}, obj{
				"ok": okTrue, "id": planID, "network": network,
				"xdr":       obj{"type": "string", "minLength": 1, "description": "The submit-ready envelope: the fewest signatures, largest weights first, that reach threshold."},
				"signers":   obj{"type": "array", "items": schemaRef("AccountID"), "description": "The submit-ready envelope's signers, in its order."},
				"weight":    obj{"type": "integer", "minimum": 1, "description": "The submit-ready envelope's weight."},
				"threshold": threshold,
			}),
			"StatusOK": object("A plan's state.", []string{"ok", "id", "network", "version", "signers", "weight", "threshold", "ready", "expiry", "submit", "submission", "preflight", "forward"}, obj{
				"ok": okTrue, "id": planID, "network": network,
				"version": obj{"type": "integer", "minimum": 1, "description": "1 at publish, +1 for every change."},
				"signers": signers, "weight": weight, "threshold": threshold, "ready": ready,
				"expiry":     obj{"type": "string", "format": "date-time", "description": "The plan's end, RFC 3339, UTC."},
				"submit":     obj{"type": "boolean", "description": "Whether the relay submits the plan once ready."},
				"submission": obj{"oneOf": []obj{{"type": "null"}, schemaRef("Submission")}, "description": "null until a submission starts."},
				"preflight":  obj{"oneOf": []obj{{"type": "null"}, schemaRef("Preflight")}, "description": "The latest preflight run (CONTRACT section 14): at publish, then before the submission's first try."},
				"forward":    obj{"oneOf": []obj{{"type": "null"}, schemaRef("Forward")}, "description": "The relay-run mediator forward (CONTRACT section 16): null until the close's submission succeeds (always, for a plan without a flow)."},
			}),
			"Forward": obj{"oneOf": []obj{
				object("Forwarding.", []string{"state"}, obj{"state": obj{"const": "pending"}}),
				object("The mediator's funds reached the committed destination.", []string{"state", "hash", "ledger", "amount"}, obj{
					"state": obj{"const": "forwarded"}, "hash": schemaRef("TxHash"), "ledger": obj{"type": "integer", "minimum": 1},
					"amount": str("The forward's payment (op0), a decimal string of native units."),
				}),
				object("The forward failed (after its retries).", []string{"state", "code"}, obj{
					"state": obj{"const": "failed"}, "hash": schemaRef("TxHash"),
					"code": obj{"type": "string", "minLength": 1, "description": "The last refusal's transaction result code, e.g. tx_bad_seq."},
				}),
			}},
			"Preflight": object("Will the close land? The preflight's verdict.", []string{"state", "blockers", "checked", "fee"}, obj{
				"state":    obj{"enum": []string{"landable", "blocked", "uncertain", "unchecked"}, "description": "blocked has at least one blocker; the others none."},
				"blockers": obj{"type": "array", "items": schemaRef("Blocker"), "description": "In operation order, the transaction's (op -1) first."},
				"checked":  obj{"type": "string", "format": "date-time", "description": "When the state the run read was read, RFC 3339, UTC."},
				"reason":   obj{"type": "string", "minLength": 1, "description": "On an uncertain or unchecked run only: the relay's bound that stopped the preflight (PREFLIGHT_MAX_ACCOUNTS, LEDGER_CALLS_PER_CLIENT, LEDGER_CALLS_PER_ACCOUNT). Absent otherwise."},
				"fee":      obj{"oneOf": []obj{{"type": "null"}, schemaRef("Fee")}, "description": "The run's word on the fee bid: advice, never a blocker. null only for a run restored from a store written before there was one."},
			}),
			"Fee": object("The close's fee bid against the network's fees.", []string{"bid", "network", "low"}, obj{
				"bid":     obj{"type": "integer", "minimum": 1, "description": "The close's fee bid per operation, in stroops (its fee over its operations, rounded down)."},
				"network": obj{"type": []string{"integer", "null"}, "minimum": 1, "description": "The 70th percentile of the inclusion fee per operation the last ledgers charged (Horizon fee_charged.p70, Stellar RPC inclusionFee.p70), in stroops; null when the fee statistics are unknown."},
				"low":     obj{"type": []string{"boolean", "null"}, "description": "Whether bid is below network: a bump would help the close land. null when network is."},
			}),
			"Blocker": object("One reason the close would not land.", []string{"op", "code", "reason"}, obj{
				"op":     obj{"type": "integer", "minimum": -2, "description": "The operation's index; -1 for the transaction; -2 for the forward the relay runs after the close of a plan published with a flow."},
				"code":   obj{"type": "string", "minLength": 1, "description": "The result code as Horizon spells it (op_has_sub_entries, tx_bad_seq, …) or memo_required."},
				"reason": str("What blocks it, in words."),
			}),
			"Submission": obj{"oneOf": []obj{
				object("Submitting.", []string{"state"}, obj{"state": obj{"const": "pending"}}),
				object("Accepted by the ledger.", []string{"state", "hash", "ledger"}, obj{
					"state": obj{"const": "submitted"}, "hash": schemaRef("TxHash"), "ledger": obj{"type": "integer", "minimum": 1},
				}),
				object("Refused by the ledger.", []string{"state", "code"}, obj{
					"state": obj{"const": "failed"}, "code": obj{"type": "string", "minLength": 1, "description": "The transaction result code, e.g. tx_bad_seq."},
				}),
				object("Not posted: the preflight before the first try found the close blocked.", []string{"state", "code"}, obj{
					"state": obj{"const": "blocked"}, "code": obj{"type": "string", "minLength": 1, "description": "The first blocker's code."},
				}),
			}},
			"TxHash": obj{"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "A transaction hash, 64 lowercase hex characters."},
			"Sep7OK": object("A SEP-7 link.", []string{"ok", "uri"}, obj{
				"ok": okTrue, "uri": obj{"type": "string", "pattern": "^web\\+stellar:tx\\?", "description": "The web+stellar:tx link."},
			}),
			"EventData": object("The data of an unnamed event: the plan's state at the event's version.", []string{"network", "xdr", "id", "signers", "weight", "threshold", "ready", "landable"}, obj{
				"network": network, "xdr": envelope, "id": planID, "signers": signers,
				"weight": weight, "threshold": threshold, "ready": ready, "landable": landable,
			}),
			"ExpiredEventData":   object("The data of `event: expired`.", []string{"id"}, obj{"id": planID}),
			"SubmittedEventData": object("The data of `event: submitted`.", []string{"id", "hash", "ledger"}, obj{"id": planID, "hash": schemaRef("TxHash"), "ledger": obj{"type": "integer", "minimum": 1}}),
			"SubmitFailedEventData": object("The data of `event: submit_failed`.", []string{"id", "code", "reason"}, obj{
				"id": planID, "code": str("The transaction result code, e.g. tx_bad_seq; for a close the preflight before the first try found blocked (not posted), the first blocker's code, memo_required included (CONTRACT section 14)."), "reason": str("A human-readable reason."),
			}),
			"ForwardedEventData": object("The data of `event: forwarded`.", []string{"id", "hash", "ledger", "amount"}, obj{
				"id": planID, "hash": schemaRef("TxHash"), "ledger": obj{"type": "integer", "minimum": 1}, "amount": str("The forward's payment, a decimal string of native units."),
			}),
			"ForwardFailedEventData": object("The data of `event: forward_failed`.", []string{"id", "code", "reason"}, obj{
				"id": planID, "code": str("The last refusal's transaction result code."), "reason": str("A human-readable reason."),
			}),
			"MintOK": object("A minted flow.", []string{"flowToken", "mediatorPublicKey"}, obj{
				"flowToken":         obj{"type": "string", "pattern": "^[0-9a-f]{32}\\.[0-9]+\\.G[A-Z2-7]{55}(\\.[A-Za-z0-9_-]*)?\\.[0-9a-f]{64}$", "description": "nonce.expiry.destination[.memo].mac (SPEC, CONTRACT section 13)."},
				"mediatorPublicKey": schemaRef("AccountID"),
			}),
			"CosignRequest": obj{
				"type": "object", "required": []string{"envelopeXdr", "flowToken", "network"},
				"properties": obj{
					"envelopeXdr": obj{"type": "string", "minLength": 1, "description": "The forward envelope, base64 XDR."},
					"flowToken":   obj{"type": "string", "minLength": 1},
					"network":     network,
				},
			},
			"CosignOK": object("The co-signed forward.", []string{"ok", "signedXdr", "hash"}, obj{
				"ok": okTrue, "signedXdr": envelope, "hash": schemaRef("TxHash"),
			}),
		},
	}
}
