// Package relay is closerelay's use cases, between the wire (httpapi, web)
// and the plans (actor): publish, with SPEC's guards 1 to 8 in order and the
// race of two publishes of one id; sign; the reads of a plan (its current
// version, its readiness and submit-ready envelope, its status, the page's
// view); and subscribing to a plan's changes.
//
// Every failure it returns that a client may see is an *errcode.Error whose
// code and reason are final: the actor's errors are translated here, once
// (failure), and nowhere else. Which HTTP status a code gets is the wire's
// business; this package knows nothing of HTTP. An error that carries no
// code is either the caller's context ending (the client has gone) or a
// fault of ours, which the wire answers as internal.
//
// The package holds no state of its own beyond its Options: the plans are
// the actor's, the ledger's rules are package ledger's and its reads
// package ledgerapi's. A ledger read a publish needs (guard 6 and the
// preflight) happens in the caller's goroutine, never in a plan's loop.
package relay
