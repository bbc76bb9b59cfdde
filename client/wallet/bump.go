package wallet

import (
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// Bump is a fee-bump (CAP-15) built around a submit-ready close: the close
// unchanged (its hash, the plan's id, and its signatures), paid by the fee
// source, which signed the fee-bump. What a `bump` posts (docs/API.md).
type Bump struct {
	XDR       string // the fee-bump envelope, base64
	Hash      string // the fee-bump's hash, lower-case hex
	InnerHash string // the close's hash: the plan's id
	FeeSource string // the G… account that pays
	// Fee is the fee-bump's fee bid in stroops: FeePerOperation × (the
	// close's operations + 1), the most the fee source can be charged.
	Fee             int64
	FeePerOperation int64
	Operations      int // the close's operations
}

// MinBumpFee is the least fee per operation a fee-bump of the close in
// envelopeXDR may bid and still be taken (FeeBumpTransactionFrame.cpp:
// its rate at least the close's, each at least the base fee): the close's
// fee over its operations, rounded up, and at least txnbuild.MinBaseFee.
func MinBumpFee(envelopeXDR string) (int64, error) {
	tx, err := classicTx(envelopeXDR)
	if err != nil {
		return 0, err
	}
	return minBumpFee(tx), nil
}

func minBumpFee(tx *txnbuild.Transaction) int64 {
	ops := int64(max(len(tx.Operations()), 1))
	fee := tx.ToXDR().Fee()
	return max((int64(fee)+ops-1)/ops, txnbuild.MinBaseFee)
}

// WrapFeeBump wraps the submit-ready close in envelopeXDR in a fee-bump on
// network networkID paid by feeSource at feePerOperation stroops for each
// of the close's operations plus one (0: MinBumpFee), signed by
// feeSource, with txnbuild.NewFeeBumpTransaction. A bid below MinBumpFee,
// which the ledger would refuse with tx_insufficient_fee, is an error, as
// are a close with no signature, a fee-bump for an envelope, and an
// unknown network. The close is not changed: the fee-bump's inner
// transaction hashes to the close's hash with the same signatures.
func WrapFeeBump(envelopeXDR, networkID string, feeSource *keypair.Full, feePerOperation int64) (Bump, error) {
	passphrase, err := Passphrase(networkID)
	if err != nil {
		return Bump{}, err
	}
	if feeSource == nil {
		return Bump{}, errors.New("wallet: no fee source key")
	}
	inner, err := classicTx(envelopeXDR)
	if err != nil {
		return Bump{}, err
	}
	if len(inner.Signatures()) == 0 {
		return Bump{}, errors.New("wallet: the close carries no signature: bump the submit-ready envelope")
	}
	least := minBumpFee(inner)
	if feePerOperation == 0 {
		feePerOperation = least
	}
	if feePerOperation < least {
		return Bump{}, fmt.Errorf("wallet: a fee-bump must bid at least %d stroops per operation (the close's own bid, and the network's minimum); %d would be refused with tx_insufficient_fee", least, feePerOperation)
	}
	innerHash, err := inner.HashHex(passphrase)
	if err != nil {
		return Bump{}, fmt.Errorf("wallet: the close cannot be hashed: %w", err)
	}
	fb, err := txnbuild.NewFeeBumpTransaction(txnbuild.FeeBumpTransactionParams{
		Inner: inner, FeeAccount: feeSource.Address(), BaseFee: feePerOperation,
	})
	if err != nil {
		return Bump{}, fmt.Errorf("wallet: the fee-bump cannot be built: %w", err)
	}
	if fb, err = fb.Sign(passphrase, feeSource); err != nil {
		return Bump{}, fmt.Errorf("wallet: the fee-bump cannot be signed: %w", err)
	}
	b64, err := fb.Base64()
	if err != nil {
		return Bump{}, fmt.Errorf("wallet: the fee-bump cannot be encoded: %w", err)
	}
	hash, err := fb.Hash(passphrase)
	if err != nil {
		return Bump{}, fmt.Errorf("wallet: the fee-bump cannot be hashed: %w", err)
	}
	return Bump{
		XDR: b64, Hash: hex.EncodeToString(hash[:]), InnerHash: innerHash, FeeSource: feeSource.Address(),
		Fee: fb.MaxFee(), FeePerOperation: feePerOperation, Operations: len(inner.Operations()),
	}, nil
}
