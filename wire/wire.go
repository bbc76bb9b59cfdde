package wire

// Error is every JSON error body (CONTRACT section 3): OK is always false.
type Error struct {
	OK     bool   `json:"ok"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// Published is POST /api/plan's success body (section 4), also when a
// re-publish merged.
type Published struct {
	OK bool   `json:"ok"`
	ID string `json:"id"`
}

// Plan is GET /api/plan/{id}'s success body: exactly these three fields
// (section 4), which older browser clients read.
type Plan struct {
	OK      bool   `json:"ok"`
	Network string `json:"network"`
	XDR     string `json:"xdr"`
}

// Signed is POST /api/plan/{id}/sign's success body (section 4): the full
// merged envelope, its signers' keys in envelope order, and the plan's
// readiness after the merge (section 10).
type Signed struct {
	OK        bool     `json:"ok"`
	Network   string   `json:"network"`
	XDR       string   `json:"xdr"`
	Signers   []string `json:"signers"`
	Weight    int      `json:"weight"`
	Threshold int      `json:"threshold"`
	Ready     bool     `json:"ready"`
	Landable  *bool    `json:"landable"`
}

// Bump is POST /api/plan/{id}/bump's request body (docs/API.md): the
// fee-bump envelope around the plan's submit-ready close.
type Bump struct {
	XDR string `json:"xdr"`
}

// Bumped is POST /api/plan/{id}/bump's success body: the plan's id and the
// fee-bump's hash (lower-case hex).
type Bumped struct {
	OK   bool   `json:"ok"`
	ID   string `json:"id"`
	Hash string `json:"hash"`
}

// State is the data of one unnamed event of a plan's stream (section 5):
// the whole state at the event's version, with its readiness (section 10).
// The version itself is the event's id line, not a field.
type State struct {
	Network   string   `json:"network"`
	XDR       string   `json:"xdr"`
	ID        string   `json:"id"`
	Signers   []string `json:"signers"`
	Weight    int      `json:"weight"`
	Threshold int      `json:"threshold"`
	Ready     bool     `json:"ready"`
	// Landable is the preflight's verdict (section 14): null when it
	// could not tell.
	Landable *bool `json:"landable"`
}

// Expired is the data of `event: expired` (section 5), the stream's last.
type Expired struct {
	ID string `json:"id"`
}

// Submitted is the data of `event: submitted` (section 10).
type Submitted struct {
	ID     string `json:"id"`
	Hash   string `json:"hash"`
	Ledger int64  `json:"ledger"`
}

// SubmitFailed is the data of `event: submit_failed` (section 10): the
// transaction result code and a reason.
type SubmitFailed struct {
	ID     string `json:"id"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// Ready is GET /api/plan/{id}/ready's success body (section 10): the
// submit-ready envelope, its signers in its order, its weight, and the
// plan's threshold.
type Ready struct {
	OK        bool     `json:"ok"`
	ID        string   `json:"id"`
	Network   string   `json:"network"`
	XDR       string   `json:"xdr"`
	Signers   []string `json:"signers"`
	Weight    int      `json:"weight"`
	Threshold int      `json:"threshold"`
}

// Status is GET /api/plan/{id}/status's success body (section 10). Expiry
// is RFC 3339 in UTC; Submission is null until a submission starts (always,
// for a plan published without "submit").
type Status struct {
	OK         bool        `json:"ok"`
	ID         string      `json:"id"`
	Network    string      `json:"network"`
	Version    uint64      `json:"version"`
	Signers    []string    `json:"signers"`
	Weight     int         `json:"weight"`
	Threshold  int         `json:"threshold"`
	Ready      bool        `json:"ready"`
	Expiry     string      `json:"expiry"`
	Submit     bool        `json:"submit"`
	Submission *Submission `json:"submission"`
	Preflight  *Preflight  `json:"preflight"`
	// Forward is the relay-run mediator forward (section 16): null until
	// the close's submission succeeded (always, for a plan without a flow).
	Forward *Forward `json:"forward"`
}

// Forward is Status.Forward: the state ("pending", "forwarded" or
// "failed"), with hash, ledger and amount (op0's payment, a decimal string
// of native units) once forwarded, and code (and hash, when one was sent)
// when failed. Reason is never in status.forward: only `event:
// forward_failed` carries one, which a client puts here (client.Watch).
type Forward struct {
	State  string `json:"state"`
	Hash   string `json:"hash,omitempty"`
	Ledger int64  `json:"ledger,omitempty"`
	Amount string `json:"amount,omitempty"`
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Forwarded is the data of `event: forwarded` (section 16).
type Forwarded struct {
	ID     string `json:"id"`
	Hash   string `json:"hash"`
	Ledger int64  `json:"ledger"`
	Amount string `json:"amount"`
}

// ForwardFailed is the data of `event: forward_failed` (section 16): the
// last refusal's code and a reason.
type ForwardFailed struct {
	ID     string `json:"id"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// Preflight is Status.Preflight (section 14): the latest run's verdict,
// its blockers in operation order (none unless blocked), when the state
// it read was read (RFC 3339, UTC), and its word on the fee bid (null for
// a run restored from a store written before there was one).
type Preflight struct {
	State    string    `json:"state"`
	Blockers []Blocker `json:"blockers"`
	Checked  string    `json:"checked"`
	// Reason, on an uncertain or unchecked run only, names the relay's
	// bound that stopped the preflight (docs/API.md section 12); absent
	// otherwise.
	Reason string `json:"reason,omitempty"`
	Fee    *Fee   `json:"fee"`
}

// Fee is Preflight.Fee (docs/API.md section 12): the close's fee bid per
// operation in stroops, the network's p70 inclusion fee per operation, and
// whether the bid is below it. Network and Low are null when the network's
// fee statistics are unknown (unread, or an answer missing a field or
// contradicting itself): never guessed.
type Fee struct {
	Bid     int64  `json:"bid"`
	Network *int64 `json:"network"`
	Low     *bool  `json:"low"`
}

// Blocker is one reason a close would not land: the operation's index (-1
// for the transaction, -2 for the relay's forward of a plan with a flow:
// ledger.TxBlocker, ledger.ForwardBlocker), the result code as Horizon
// spells it (or memo_required), and a reason in words.
type Blocker struct {
	Op     int    `json:"op"`
	Code   string `json:"code"`
	Reason string `json:"reason"`
}

// Submission is Status.Submission: the state ("pending", "submitted" or
// "failed"), with hash and ledger once submitted and code when failed.
// Unlike the submit_failed event it carries no reason: Reason is set only
// by a client from that event (client.Watch), never in status.submission.
type Submission struct {
	State  string `json:"state"`
	Hash   string `json:"hash,omitempty"`
	Ledger int64  `json:"ledger,omitempty"`
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// SEP7 is GET /api/plan/{id}/sep7's success body (section 11).
type SEP7 struct {
	OK  bool   `json:"ok"`
	URI string `json:"uri"`
}

// Flow is GET /api/mediator/sign's success body: exactly SPEC's two fields,
// with no ok field (section 6).
type Flow struct {
	FlowToken         string `json:"flowToken"`
	MediatorPublicKey string `json:"mediatorPublicKey"`
}

// Cosigned is POST /api/mediator/sign's success body (section 6): the
// forward with the mediator's signature added, and its transaction hash.
type Cosigned struct {
	OK        bool   `json:"ok"`
	SignedXDR string `json:"signedXdr"`
	Hash      string `json:"hash"`
}
