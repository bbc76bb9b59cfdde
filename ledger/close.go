package ledger

import (
	"fmt"

	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// ParseClose decodes and classifies a publish's xdr as an account close
// (SPEC "Accepted close transaction", CONTRACT sections 4 and 8):
//
//   - it decodes, and it is a classic transaction (V0 or V1), not a fee-bump;
//   - it has at least one operation, and at least one is an ACCOUNT_MERGE;
//   - the account being closed is the ACCOUNT_MERGE operation's effective
//     source (its own source, or else the transaction's);
//   - every operation's effective source is that same account, so a victim
//     account cannot be spliced into another account's signing set;
//   - that account is a G… account: a muxed M… source is refused even when
//     its ed25519 key is the account's, because sources are compared as
//     muxed accounts.
//
// The transaction's own source may differ (a separate fee payer), and the
// merge need not be the last operation. A transaction that carries several
// ACCOUNT_MERGE operations passes only if they all merge the same account,
// which the shared-source rule already implies.
//
// Every failure is an *Error with CodeNotAClose, undecodable input included
// (CONTRACT 8), except an n that is not one of the three networks, which is
// CodeBadNetwork. ParseClose does not look at signatures: whether one comes
// from a signer of the account is publish guard 7, which needs the signer set.
func ParseClose(b64 string, n Network) (*Close, error) {
	passphrase := n.Passphrase()
	if passphrase == "" {
		return nil, &Error{Code: CodeBadNetwork, Reason: fmt.Sprintf("network %q is not one of mainnet, testnet, futurenet", string(n))}
	}
	env, err := DecodeEnvelope(b64)
	if err != nil {
		return nil, notAClose("the xdr does not decode as a transaction envelope")
	}
	if env.IsFeeBump() {
		return nil, notAClose("a fee-bump transaction is not an account close")
	}
	if !isClassic(env) {
		return nil, notAClose("the envelope is not a classic transaction")
	}
	ops := env.Operations()
	if len(ops) == 0 {
		return nil, notAClose("the transaction has no operations")
	}
	txSource := env.SourceAccount()
	merge := -1
	for i, op := range ops {
		if op.Body.Type == xdr.OperationTypeAccountMerge {
			merge = i
			break
		}
	}
	if merge < 0 {
		return nil, notAClose("the transaction has no ACCOUNT_MERGE operation")
	}
	closed := effectiveSource(ops[merge], txSource)
	if closed.Type != xdr.CryptoKeyTypeKeyTypeEd25519 || closed.Ed25519 == nil {
		return nil, notAClose("the account being closed is a muxed (M…) account; a close must merge a G… account")
	}
	for i, op := range ops {
		if !isAccount(effectiveSource(op, txSource), *closed.Ed25519) {
			return nil, notAClose(fmt.Sprintf("operation %d's source is not the account being closed; every operation must share it", i+1))
		}
	}
	hash, err := HashEnvelope(env, passphrase)
	if err != nil {
		return nil, notAClose("the transaction cannot be hashed")
	}
	account, err := strkey.Encode(strkey.VersionByteAccountID, closed.Ed25519[:])
	if err != nil {
		return nil, notAClose("the account being closed has no valid address")
	}
	var maxTime uint64
	if tb := env.TimeBounds(); tb != nil {
		maxTime = uint64(tb.MaxTime)
	}
	return &Close{Envelope: env, Hash: hash, Account: account, MaxTime: maxTime, network: n}, nil
}

func notAClose(reason string) *Error { return &Error{Code: CodeNotAClose, Reason: reason} }

// effectiveSource is the account an operation acts on: its own source when
// present, otherwise the transaction's.
func effectiveSource(op xdr.Operation, txSource xdr.MuxedAccount) xdr.MuxedAccount {
	if op.SourceAccount != nil {
		return *op.SourceAccount
	}
	return txSource
}

// isAccount reports whether m is the G… account of key. Sources are compared
// as muxed accounts, as the ledger does, so an M… address is never the
// account even when it carries the account's key.
func isAccount(m xdr.MuxedAccount, key xdr.Uint256) bool {
	return m.Type == xdr.CryptoKeyTypeKeyTypeEd25519 && m.Ed25519 != nil && *m.Ed25519 == key
}

// SourceIsAccount reports whether the transaction's source is the account
// being closed (its G… address, or an M… address over it: the ledger takes
// the sequence number and the fee from the underlying account). Only then
// can the relay submit the close (CONTRACT section 10, SUBMIT_UNSUPPORTED):
// another source account would have to sign it too, and its sequence
// number is not the plan's to know.
func (c *Close) SourceIsAccount() bool {
	src := c.Envelope.SourceAccount()
	acc := src.ToAccountId()
	addr, err := acc.GetAddress()
	return err == nil && addr == c.Account
}
