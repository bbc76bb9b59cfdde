package wallet

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// signerTypeEd25519 is the account API's name for a public-key signer, the
// only kind whose signature an envelope carries as a plain ed25519 signature.
const signerTypeEd25519 = "ed25519_public_key"

// Progress is how far an envelope is from closing its account.
type Progress struct {
	Account string
	// Weight is the summed weight of the distinct account signers whose
	// signatures verify over the transaction hash.
	Weight int
	// Needed is the weight the close needs: the account's high threshold, or
	// 1 when that is 0 (the ledger still wants one valid signature).
	Needed int
	// Signers are the verified signers, in envelope order, each counted once.
	Signers []Signer
	// Unverified counts signatures that verify under no signer of the account
	// (or repeat one already counted); they add nothing.
	Unverified int
}

// Met reports whether the envelope carries enough weight to close.
func (p Progress) Met() bool { return p.Weight >= p.Needed }

// String renders the progress as "weight 2/3".
func (p Progress) String() string { return fmt.Sprintf("weight %d/%d", p.Weight, p.Needed) }

// CloseAccount is the account an account-close envelope closes: the
// ACCOUNT_MERGE operation's source, or else the transaction's.
func CloseAccount(envelopeXDR string) (string, error) {
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(envelopeXDR, &env); err != nil {
		return "", fmt.Errorf("wallet: the envelope does not decode: %w", err)
	}
	return closeAccount(env)
}

func closeAccount(env xdr.TransactionEnvelope) (string, error) {
	if env.IsFeeBump() {
		return "", errors.New("wallet: a fee-bump envelope is not an account close")
	}
	for _, op := range env.Operations() {
		if op.Body.Type != xdr.OperationTypeAccountMerge {
			continue
		}
		src := env.SourceAccount()
		if op.SourceAccount != nil {
			src = *op.SourceAccount
		}
		acc := src.ToAccountId()
		return acc.Address(), nil
	}
	return "", errors.New("wallet: the envelope has no ACCOUNT_MERGE operation")
}

// Weigh computes an envelope's progress against acct's signers and high
// threshold. Each signature is verified (ed25519 over the transaction hash
// under networkID's passphrase) against the account's public-key signers,
// trying first those whose hint matches and then the rest: the hint is set
// by whoever attached the signature and proves nothing.
func Weigh(envelopeXDR, networkID string, acct Account) (Progress, error) {
	passphrase, err := Passphrase(networkID)
	if err != nil {
		return Progress{}, err
	}
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(envelopeXDR, &env); err != nil {
		return Progress{}, fmt.Errorf("wallet: the envelope does not decode: %w", err)
	}
	if env.IsFeeBump() {
		return Progress{}, errors.New("wallet: a fee-bump envelope is not an account close")
	}
	hash, err := network.HashTransactionInEnvelope(env, passphrase)
	if err != nil {
		return Progress{}, fmt.Errorf("wallet: hash: %w", err)
	}

	type candidate struct {
		signer Signer
		key    ed25519.PublicKey
	}
	var cands []candidate
	for _, s := range acct.Signers {
		if s.Type != signerTypeEd25519 || s.Weight <= 0 {
			continue
		}
		raw, err := strkey.Decode(strkey.VersionByteAccountID, s.Key)
		if err != nil {
			continue
		}
		cands = append(cands, candidate{s, ed25519.PublicKey(raw)})
	}

	p := Progress{Account: acct.ID, Needed: max(acct.HighThreshold, 1)}
	counted := make([]bool, len(cands))
	for _, sig := range env.Signatures() {
		found := -1
		for pass := 0; pass < 2 && found < 0; pass++ {
			for i, c := range cands {
				hintMatches := [4]byte(c.key[28:]) == [4]byte(sig.Hint)
				if (pass == 0) != hintMatches {
					continue // pass 0: hint matches only; pass 1: the rest
				}
				if ed25519.Verify(c.key, hash[:], sig.Signature) {
					found = i
					break
				}
			}
		}
		if found < 0 || counted[found] {
			p.Unverified++
			continue
		}
		counted[found] = true
		p.Weight += cands[found].signer.Weight
		p.Signers = append(p.Signers, cands[found].signer)
	}
	return p, nil
}

// CheckThreshold reads the closed account from api and weighs the envelope
// against it. The account must be read from the ledger's account API, never
// taken from the relay: the relay is the party the check guards against.
func CheckThreshold(ctx context.Context, api AccountAPI, envelopeXDR, networkID string) (Progress, error) {
	id, err := CloseAccount(envelopeXDR)
	if err != nil {
		return Progress{}, err
	}
	acct, err := api.Account(ctx, id)
	if err != nil {
		return Progress{}, err
	}
	return Weigh(envelopeXDR, networkID, acct)
}
