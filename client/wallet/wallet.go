// Package wallet holds what SPEC.md ("What the service does", item 3) leaves
// to the client, because the relay cannot do it without either trusting
// itself or seeing secrets:
//
//   - the threshold check: does an envelope carry enough verified signer
//     weight to meet the account's high threshold (read from the account
//     API, never from the relay)?
//   - building a mediator close plan, and the forward transaction that
//     carries the memo from the mediator to the destination;
//   - checking the mediator's co-signature before anything is submitted;
//   - the recovery record of a forward that did not complete, and resuming it.
//
// Every check here verifies signatures itself (ed25519 over the transaction
// hash) instead of reading the relay's answer fields, so a compromised or
// buggy relay cannot make a wallet believe a close is ready when it is not.
package wallet

import (
	"errors"
	"fmt"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"
)

// Passphrase maps a relay network identifier (CONTRACT section 2) to its
// passphrase. Only the exact identifiers are known: guessing would sign for
// the wrong network, and a signature is bound to its network.
func Passphrase(networkID string) (string, error) {
	switch networkID {
	case "mainnet":
		return network.PublicNetworkPassphrase, nil
	case "testnet":
		return network.TestNetworkPassphrase, nil
	case "futurenet":
		return network.FutureNetworkPassphrase, nil
	}
	return "", fmt.Errorf("wallet: unknown network %q (want mainnet, testnet or futurenet)", networkID)
}

// SignPartial signs the transaction of envelopeXDR with kp under network and
// returns an envelope carrying that one signature only: the smallest partial
// the relay merges, and one that cannot be refused for someone else's
// signature.
func SignPartial(envelopeXDR, networkID string, kp *keypair.Full) (string, error) {
	passphrase, err := Passphrase(networkID)
	if err != nil {
		return "", err
	}
	tx, err := classicTx(envelopeXDR)
	if err != nil {
		return "", err
	}
	tx, err = tx.ClearSignatures()
	if err != nil {
		return "", err
	}
	tx, err = tx.Sign(passphrase, kp)
	if err != nil {
		return "", fmt.Errorf("wallet: sign: %w", err)
	}
	return tx.Base64()
}

// classicTx decodes a classic (non-fee-bump) transaction envelope.
func classicTx(envelopeXDR string) (*txnbuild.Transaction, error) {
	gtx, err := txnbuild.TransactionFromXDR(envelopeXDR)
	if err != nil {
		return nil, fmt.Errorf("wallet: the envelope does not decode: %w", err)
	}
	tx, ok := gtx.Transaction()
	if !ok {
		return nil, errors.New("wallet: the envelope is a fee-bump, not a classic transaction")
	}
	return tx, nil
}
