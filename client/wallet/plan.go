package wallet

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// Constants of SPEC "Limits" that builders honour.
const (
	// MediatorFunding is what the first batch of a mediator plan pays to
	// create the mediator account, in units of the native asset.
	MediatorFunding = "2"
	// RelayTimeout is the time bound of a close transaction built for the
	// relay: the plan lives at most 72 hours anyway.
	RelayTimeout = 72 * time.Hour
	// MaxForwardTimeout is the furthest a forward's maxTime may lie ahead;
	// the mediator refuses more (TIME_BOUNDS_EXCESSIVE).
	MaxForwardTimeout = 3600 * time.Second
	// DefaultForwardTimeout is the forward's time bound when none is given:
	// short, so a forward that was not submitted soon stops being valid.
	DefaultForwardTimeout = 300 * time.Second
	// MaxOperations is the ledger's cap on operations in one transaction.
	MaxOperations = 100
)

var nonceRE = regexp.MustCompile(`^[0-9a-f]{32}$`)

// MediatorFlow is a minted flow as a client holds it. The token's MAC can
// only be checked by the relay; what the client can and does check is that
// the token commits to the destination it asked for, and reads the memo it
// commits to.
type MediatorFlow struct {
	Token             string
	MediatorPublicKey string
	Destination       string    // committed in the token
	Expiry            time.Time // after it the mediator refuses to co-sign
	// Memo is the memo the token commits the forward to (CONTRACT section
	// 13); zero for a four-part token, whose forward may carry any memo.
	Memo Memo
}

// FlowToken is what a client may read of a flow token: the destination and
// the memo it commits to, and its expiry.
type FlowToken struct {
	Destination string
	Expiry      time.Time
	Memo        Memo // zero for a four-part token
}

// ParseFlowToken reads a flow token, of four parts
// (`<nonceHex>.<expiryMillis>.<destination>.<macHex>`) or, committed to a
// memo (CONTRACT section 13), of five
// (`<nonceHex>.<expiryMillis>.<destination>.<memoPart>.<macHex>`).
func ParseFlowToken(token string) (FlowToken, error) {
	parts := strings.SplitN(token, ".", 6)
	var out FlowToken
	switch len(parts) {
	case 4:
	case 5:
		m, err := memoOfTokenPart(parts[3])
		if err != nil {
			return FlowToken{}, err
		}
		out.Memo = m
	default:
		return FlowToken{}, errors.New("wallet: a flow token has four dot-separated parts, or five with a memo")
	}
	if !nonceRE.MatchString(parts[0]) {
		return FlowToken{}, errors.New("wallet: the flow token's nonce is not 32 lowercase hex characters")
	}
	ms, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil || ms <= 0 {
		return FlowToken{}, errors.New("wallet: the flow token's expiry is not a positive number of milliseconds")
	}
	if !strkey.IsValidEd25519PublicKey(parts[2]) {
		return FlowToken{}, errors.New("wallet: the flow token's destination is not a G… public key")
	}
	if mac := parts[len(parts)-1]; len(mac) != 64 {
		return FlowToken{}, errors.New("wallet: the flow token's MAC is not 64 hex characters")
	}
	out.Destination, out.Expiry = parts[2], time.UnixMilli(ms)
	return out, nil
}

// NewMediatorFlow checks a minted flow against the destination the client
// asked for: a relay that answered a token for another destination would
// have the forward pay someone else.
func NewMediatorFlow(minted client.Flow, destination string) (MediatorFlow, error) {
	if minted.FlowToken == "" || minted.MediatorPublicKey == "" {
		return MediatorFlow{}, errors.New("wallet: a mediator flow needs both the flow token and the mediator public key")
	}
	if !strkey.IsValidEd25519PublicKey(minted.MediatorPublicKey) {
		return MediatorFlow{}, errors.New("wallet: the mediator public key is not a G… public key")
	}
	tok, err := ParseFlowToken(minted.FlowToken)
	if err != nil {
		return MediatorFlow{}, err
	}
	if tok.Destination != destination {
		return MediatorFlow{}, fmt.Errorf("wallet: the flow token commits to %s, not to the destination %s", tok.Destination, destination)
	}
	if minted.MediatorPublicKey == destination {
		return MediatorFlow{}, errors.New("wallet: the mediator cannot be the destination")
	}
	return MediatorFlow{Token: minted.FlowToken, MediatorPublicKey: minted.MediatorPublicKey, Destination: tok.Destination, Expiry: tok.Expiry, Memo: tok.Memo}, nil
}

// NewMemoFlow is NewMediatorFlow for a flow minted with a memo: the token
// must also commit to that memo, or the relay answered another flow.
func NewMemoFlow(minted client.Flow, destination string, memo Memo) (MediatorFlow, error) {
	flow, err := NewMediatorFlow(minted, destination)
	if err != nil {
		return MediatorFlow{}, err
	}
	if flow.Memo != memo {
		return MediatorFlow{}, fmt.Errorf("wallet: the flow token commits to memo %q, not to %s", flow.Memo.String(), memo)
	}
	return flow, nil
}

// CloseParams describe an account close.
type CloseParams struct {
	Account     string // G… account to close
	Sequence    int64  // its current sequence number (the plan uses the next ones)
	Destination string // where the account's funds end up
	// Flow, when set, makes a mediator plan: the first batch starts by
	// creating the mediator with MediatorFunding, and the final merge goes
	// to the mediator instead of Destination. Flow.Destination must equal
	// Destination.
	Flow *MediatorFlow
	// Prelude are classic operations to run before the merge (removing
	// trust lines, offers, data entries). Their source must be empty or
	// Account: the relay only accepts closes whose operations all act on the
	// closed account.
	Prelude []txnbuild.Operation
	// Memo, when set, goes on every batch: a direct close into an account
	// that credits deposits by memo (SEP-29). A mediator plan carries none;
	// its forward carries the memo.
	Memo    txnbuild.Memo
	BaseFee int64            // per operation; txnbuild.MinBaseFee when zero
	Timeout time.Duration    // time bound of every batch; RelayTimeout when zero
	Now     func() time.Time // time.Now when nil
}

// BuildClose builds the close plan: one transaction (batch) for up to
// MaxOperations operations, in order, with consecutive sequence numbers; the
// last batch ends with the ACCOUNT_MERGE, and is the one to publish to the
// relay. The transactions are unsigned.
func BuildClose(p CloseParams) ([]*txnbuild.Transaction, error) {
	if !strkey.IsValidEd25519PublicKey(p.Account) {
		return nil, errors.New("wallet: the account to close is not a G… public key")
	}
	if !strkey.IsValidEd25519PublicKey(p.Destination) || p.Destination == p.Account {
		return nil, errors.New("wallet: the destination must be a G… public key other than the account")
	}
	var ops []txnbuild.Operation
	mergeTo := p.Destination
	if p.Flow != nil {
		// SPEC item 3: a mediator plan needs both the key and the token.
		if p.Flow.Token == "" || p.Flow.MediatorPublicKey == "" {
			return nil, errors.New("wallet: a mediator plan needs both the flow token and the mediator public key")
		}
		if p.Memo != nil {
			return nil, errors.New("wallet: a mediator plan's close carries no memo: its forward carries the one the flow token commits to")
		}
		if p.Flow.Destination != p.Destination {
			return nil, fmt.Errorf("wallet: the flow commits to %s, not to the destination %s", p.Flow.Destination, p.Destination)
		}
		ops = append(ops, &txnbuild.CreateAccount{Destination: p.Flow.MediatorPublicKey, Amount: MediatorFunding})
		mergeTo = p.Flow.MediatorPublicKey
	}
	for i, op := range p.Prelude {
		if src := op.GetSourceAccount(); src != "" && src != p.Account {
			return nil, fmt.Errorf("wallet: prelude operation %d acts on %s, not on the closed account", i, src)
		}
		if _, ok := op.(*txnbuild.AccountMerge); ok {
			return nil, fmt.Errorf("wallet: prelude operation %d is a merge; BuildClose adds the merge itself", i)
		}
		ops = append(ops, op)
	}
	ops = append(ops, &txnbuild.AccountMerge{Destination: mergeTo})

	fee := p.BaseFee
	if fee <= 0 {
		fee = txnbuild.MinBaseFee
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = RelayTimeout
	}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	maxTime := now().Add(timeout).Unix()

	source := &txnbuild.SimpleAccount{AccountID: p.Account, Sequence: p.Sequence}
	var batches []*txnbuild.Transaction
	for start := 0; start < len(ops); start += MaxOperations {
		end := min(start+MaxOperations, len(ops))
		tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
			SourceAccount:        source,
			IncrementSequenceNum: true,
			Operations:           ops[start:end],
			BaseFee:              fee,
			Memo:                 p.Memo,
			Preconditions:        txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, maxTime)},
		})
		if err != nil {
			return nil, fmt.Errorf("wallet: build batch %d: %w", len(batches)+1, err)
		}
		batches = append(batches, tx)
	}
	return batches, nil
}
