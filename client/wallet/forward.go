package wallet

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// ErrNotCosigned is returned (wrapped) when the mediator's answer does not
// carry a valid mediator signature over the forward that was sent.
var ErrNotCosigned = errors.New("wallet: the answer is not the forward co-signed by the mediator")

// ForwardParams describe a forward: the mediator pays the destination with
// the memo, then merges into it.
type ForwardParams struct {
	Mediator    string // G… mediator account: transaction source
	Sequence    int64  // the mediator account's current sequence number
	Destination string // must be the flow's committed destination
	// Amount is the native payment that carries the memo, e.g. "100.5"; the
	// merge then sends whatever remains (the funding, less fees).
	Amount string
	// Memo is what the destination needs to credit the deposit:
	// txnbuild.MemoText, MemoID, MemoHash or MemoReturn (Memo.Txn).
	Memo    txnbuild.Memo
	BaseFee int64            // per operation; txnbuild.MinBaseFee when zero
	Timeout time.Duration    // DefaultForwardTimeout when zero; at most MaxForwardTimeout
	Now     func() time.Time // time.Now when nil
}

// BuildForward builds the only forward shape the mediator signs (SPEC
// "Accepted forward envelope"): source the mediator, op0 a native payment
// and op1 an account merge, both to Destination with their sources omitted
// (they inherit the mediator), and time bounds with maxTime at most an hour
// ahead. The transaction is unsigned.
func BuildForward(p ForwardParams) (*txnbuild.Transaction, error) {
	if !strkey.IsValidEd25519PublicKey(p.Mediator) {
		return nil, errors.New("wallet: the mediator is not a G… public key")
	}
	if !strkey.IsValidEd25519PublicKey(p.Destination) || p.Destination == p.Mediator {
		return nil, errors.New("wallet: the destination must be a G… public key other than the mediator")
	}
	switch p.Memo.(type) {
	case txnbuild.MemoText, txnbuild.MemoID, txnbuild.MemoHash, txnbuild.MemoReturn:
	default:
		return nil, errors.New("wallet: a forward carries a text, id, hash or return memo; that is why it exists")
	}
	timeout := p.Timeout
	if timeout == 0 {
		timeout = DefaultForwardTimeout
	}
	if timeout < 0 || timeout > MaxForwardTimeout {
		return nil, fmt.Errorf("wallet: a forward's time bound must lie within %s", MaxForwardTimeout)
	}
	fee := p.BaseFee
	if fee <= 0 {
		fee = txnbuild.MinBaseFee
	}
	now := time.Now
	if p.Now != nil {
		now = p.Now
	}
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount:        &txnbuild.SimpleAccount{AccountID: p.Mediator, Sequence: p.Sequence},
		IncrementSequenceNum: true,
		Operations: []txnbuild.Operation{
			&txnbuild.Payment{Destination: p.Destination, Amount: p.Amount, Asset: txnbuild.NativeAsset{}},
			&txnbuild.AccountMerge{Destination: p.Destination},
		},
		BaseFee:       fee,
		Memo:          p.Memo,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, now().Add(timeout).Unix())},
	})
	if err != nil {
		return nil, fmt.Errorf("wallet: build forward: %w", err)
	}
	return tx, nil
}

// ForwardOf reads a forward envelope back: its parameters (sequence as the
// account's current one, so BuildForward rebuilds the same transaction) and
// its maxTime. It refuses anything that is not the accepted forward shape.
func ForwardOf(envelopeXDR string) (ForwardParams, time.Time, error) {
	tx, err := classicTx(envelopeXDR)
	if err != nil {
		return ForwardParams{}, time.Time{}, err
	}
	src := tx.SourceAccount()
	ops := tx.Operations()
	if len(ops) != 2 {
		return ForwardParams{}, time.Time{}, errors.New("wallet: a forward has exactly two operations")
	}
	pay, ok := ops[0].(*txnbuild.Payment)
	if !ok || !pay.Asset.IsNative() {
		return ForwardParams{}, time.Time{}, errors.New("wallet: a forward's first operation is a native payment")
	}
	merge, ok := ops[1].(*txnbuild.AccountMerge)
	if !ok {
		return ForwardParams{}, time.Time{}, errors.New("wallet: a forward's second operation is an account merge")
	}
	for _, s := range []string{pay.SourceAccount, merge.SourceAccount} {
		if s != "" && s != src.AccountID {
			return ForwardParams{}, time.Time{}, errors.New("wallet: a forward's operations act on the mediator only")
		}
	}
	if pay.Destination != merge.Destination {
		return ForwardParams{}, time.Time{}, errors.New("wallet: a forward's payment and merge go to one destination")
	}
	tb := tx.Timebounds()
	if tb.MaxTime <= 0 {
		return ForwardParams{}, time.Time{}, errors.New("wallet: a forward has a maxTime")
	}
	p := ForwardParams{
		Mediator:    src.AccountID,
		Sequence:    src.Sequence - 1,
		Destination: pay.Destination,
		Amount:      pay.Amount,
		Memo:        tx.Memo(),
		BaseFee:     tx.BaseFee(),
	}
	return p, time.Unix(tb.MaxTime, 0), nil
}

// VerifyCosigned checks the mediator's answer against the forward that was
// sent: the signed envelope holds the same transaction (equal hashes under
// networkID), hashHex (when not empty) is that hash, and one of its
// signatures verifies under mediatorPublicKey. Only then may the envelope
// be submitted.
func VerifyCosigned(sentXDR, signedXDR, hashHex, networkID, mediatorPublicKey string) error {
	passphrase, err := Passphrase(networkID)
	if err != nil {
		return err
	}
	raw, err := strkey.Decode(strkey.VersionByteAccountID, mediatorPublicKey)
	if err != nil {
		return fmt.Errorf("%w: the mediator key %q is not a G… public key", ErrNotCosigned, mediatorPublicKey)
	}
	sentHash, err := envelopeHash(sentXDR, passphrase)
	if err != nil {
		return err
	}
	var signed xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(signedXDR, &signed); err != nil {
		return fmt.Errorf("%w: the signed envelope does not decode", ErrNotCosigned)
	}
	if signed.IsFeeBump() {
		return fmt.Errorf("%w: the signed envelope is a fee-bump", ErrNotCosigned)
	}
	signedHash, err := network.HashTransactionInEnvelope(signed, passphrase)
	if err != nil || signedHash != sentHash {
		return fmt.Errorf("%w: the signed envelope holds another transaction", ErrNotCosigned)
	}
	if hashHex != "" {
		h, err := hex.DecodeString(hashHex)
		if err != nil || !bytes.Equal(h, sentHash[:]) {
			return fmt.Errorf("%w: the answered hash is not the forward's", ErrNotCosigned)
		}
	}
	for _, sig := range signed.Signatures() {
		if ed25519.Verify(ed25519.PublicKey(raw), sentHash[:], sig.Signature) {
			return nil
		}
	}
	return fmt.Errorf("%w: no signature verifies under the mediator key %s", ErrNotCosigned, mediatorPublicKey)
}

func envelopeHash(envelopeXDR, passphrase string) ([32]byte, error) {
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(envelopeXDR, &env); err != nil {
		return [32]byte{}, fmt.Errorf("wallet: the envelope does not decode: %w", err)
	}
	return network.HashTransactionInEnvelope(env, passphrase)
}

// CosignForward sends a forward to the mediator for flow and verifies the
// answer (VerifyCosigned) with the flow's mediator key. A refusal comes back
// as the relay's *client.Error; a forged or mismatched answer wraps
// ErrNotCosigned.
func CosignForward(ctx context.Context, c *client.Client, networkID string, flow MediatorFlow, forwardXDR string) (client.Cosigned, error) {
	fwd, _, err := ForwardOf(forwardXDR)
	if err != nil {
		return client.Cosigned{}, err
	}
	if fwd.Mediator != flow.MediatorPublicKey {
		return client.Cosigned{}, fmt.Errorf("wallet: the forward's source %s is not the flow's mediator %s", fwd.Mediator, flow.MediatorPublicKey)
	}
	if fwd.Destination != flow.Destination {
		return client.Cosigned{}, fmt.Errorf("wallet: the forward pays %s, not the flow's destination %s", fwd.Destination, flow.Destination)
	}
	if !flow.Memo.IsZero() {
		// The mediator would refuse it (FORWARD_MEMO_NOT_COMMITTED); saying
		// so here names both memos.
		if m, err := MemoOf(fwd.Memo); err != nil || m != flow.Memo {
			return client.Cosigned{}, fmt.Errorf("wallet: the forward carries memo %q, not the memo %s its flow token commits to", m.String(), flow.Memo)
		}
	}
	out, err := c.MediatorCosign(ctx, forwardXDR, flow.Token, networkID)
	if err != nil {
		return client.Cosigned{}, err
	}
	if err := VerifyCosigned(forwardXDR, out.SignedXDR, out.Hash, networkID, flow.MediatorPublicKey); err != nil {
		return client.Cosigned{}, err
	}
	out.Hash = strings.ToLower(out.Hash)
	return out, nil
}

// MediatorMinimum is what a forward's payment leaves in the mediator, in
// stroops (ledger.ForwardKept): 1 unit of the native asset, the minimum
// balance of an account without sub-entries (two base reserves of 0.5).
// The payment may not take it (op_underfunded); the forward's merge then
// carries it to the same destination.
const MediatorMinimum = ledger.ForwardKept

// ForwardAmount is the forward's payment, in stroops (CONTRACT section
// 16), as the relay computes it (ledger.ForwardPayment): the mediator's
// native balance less the forward's fee (two operations at feePerOp) less
// MediatorMinimum. It is an error when that leaves nothing to pay, or when
// the figures cannot be a ledger's.
func ForwardAmount(balance, feePerOp int64) (int64, error) {
	if balance < 0 || feePerOp < txnbuild.MinBaseFee || feePerOp > math.MaxUint32/2 {
		return 0, fmt.Errorf("wallet: a balance of %d stroops and a fee of %d per operation are not a forward's", balance, feePerOp)
	}
	pay, fee, err := ledger.ForwardPayment(balance, feePerOp)
	if errors.Is(err, ledger.ErrForwardUnfunded) {
		return 0, fmt.Errorf("wallet: the mediator holds %s XLM, no more than the forward's fee (%s) and its minimum balance (%s): nothing to forward",
			amount.StringFromInt64(balance), amount.StringFromInt64(fee), amount.StringFromInt64(MediatorMinimum))
	}
	return pay, err
}
