// Package openapi holds closerelay's OpenAPI 3.1 document (CONTRACT section
// 11): every route under /api, its request bodies, its answers and, for
// every status, the error codes the route can answer. The server embeds it
// and serves it at GET /api/openapi.json.
//
// openapi.json is generated from this package's test (document_test.go),
// which builds it from package errcode's constants, so a code is spelled in
// one place. After changing a route, change the test's description and run
//
//	go test ./httpapi/openapi -run TestDocumentUpToDate -update
//
// The httpapi tests check that the document and the router list the same
// routes, and validate every answer they receive against it.
package openapi

import _ "embed"

// Document is the OpenAPI 3.1 document, JSON, as served.
//
//go:embed openapi.json
var Document []byte

// Path is where the server answers Document.
const Path = "/api/openapi.json"
