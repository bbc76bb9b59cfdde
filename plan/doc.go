// Package plan holds a plan's nouns, one of each, as values: the
// submission and the mediator forward it runs (Submission, Forward), the
// flow it keeps (Flow), the one lease every claimed effect carries (Claim,
// Lease), and the pure transitions between them, which read what they are
// given and change none of it. Every instance computes the same next value
// from the same record, whichever store it runs on, so the values are what
// the store keeps and what every route and page tells.
//
// It has no goroutines, no I/O and no clock of its own: the caller passes
// now. Package actor runs a plan's loop over these values; relay returns
// them; httpapi, web and client map them to their shapes.
package plan
