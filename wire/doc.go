// Package wire holds the JSON shapes of CONTRACT.md and the two small rules
// of its wire format (what a plan id is, how a wait becomes a Retry-After),
// each written once. The relay's handlers (httpapi, web) encode them; the
// Go client, the load kit and the command line decode them. A field added
// to the contract is added here, so a server and a client built from one
// tree cannot disagree on a name, an omitempty or a number's type.
//
// Field order is the order the bytes go out in: clients compare the
// relay's answers byte for byte in tests, so reordering a struct changes
// the wire. The package holds no logic beyond the two rules: no plan
// state, no HTTP.
package wire
