package ledger

import (
	"errors"
	"slices"
	"strings"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// ErrNotAccountEntry: a ledger entry read as an account's is another kind,
// or one the ledger cannot hold.
var ErrNotAccountEntry = errors.New("the ledger entry is not an account's")

// AccountFromEntry is the account state of an AccountEntry, as Stellar RPC's
// getLedgerEntries gives it, in the terms Horizon's account JSON gives
// (AccountState): core keeps the master key's weight in thresholds[0] and
// not among the signers, so it is added as a signer while its weight is
// above 0, as Horizon lists it; the signers are ordered by key, as Horizon
// lists them. The sponsorship counters come from the entry's extensions
// (0 when absent, as for an account that never had any), and so do the
// native liabilities and the ledger and time of the sequence number's last
// change.
func AccountFromEntry(e xdr.LedgerEntry) (AccountState, error) {
	// The union's arms are read through their pointers: the SDK's Get…
	// methods dereference them.
	if e.Data.Type != xdr.LedgerEntryTypeAccount || e.Data.Account == nil {
		return AccountState{}, ErrNotAccountEntry
	}
	acc := *e.Data.Account
	id, ok := address(acc.AccountId)
	if !ok {
		return AccountState{}, ErrNotAccountEntry
	}
	st := AccountState{
		ID:            id,
		Sequence:      int64(acc.SeqNum),
		Thresholds:    Thresholds{Low: acc.Thresholds[1], Medium: acc.Thresholds[2], High: acc.Thresholds[3]},
		NumSubEntries: uint32(acc.NumSubEntries),
		Flags:         flagsOf(xdr.AccountFlags(acc.Flags)),
		Balance:       int64(acc.Balance),
	}
	if acc.Thresholds[0] > 0 {
		st.Signers = append(st.Signers, AccountSigner{Type: SignerEd25519, Key: id, Weight: int32(acc.Thresholds[0])})
	}
	for _, s := range acc.Signers {
		if !signerKeySet(s.Key) {
			return AccountState{}, ErrNotAccountEntry
		}
		key, err := s.Key.GetAddress()
		if err != nil {
			return AccountState{}, ErrNotAccountEntry
		}
		st.Signers = append(st.Signers, AccountSigner{Type: signerType(s.Key), Key: key, Weight: int32(s.Weight)})
	}
	slices.SortStableFunc(st.Signers, func(a, b AccountSigner) int { return strings.Compare(a.Key, b.Key) })
	if v1 := acc.Ext.V1; acc.Ext.V == 1 && v1 != nil {
		st.NativeBuying, st.NativeSelling = int64(v1.Liabilities.Buying), int64(v1.Liabilities.Selling)
		if v2 := v1.Ext.V2; v1.Ext.V == 2 && v2 != nil {
			st.NumSponsored, st.NumSponsoring = uint32(v2.NumSponsored), uint32(v2.NumSponsoring)
			if v3 := v2.Ext.V3; v2.Ext.V == 3 && v3 != nil {
				st.SeqLedger, st.SeqTime = uint32(v3.SeqLedger), uint64(v3.SeqTime)
			}
		}
	}
	return st, nil
}

// address is id's G… strkey; false when its key is not set. The SDK's
// accessors dereference the union's arm, and a value not decoded from XDR
// may leave it nil: nothing read from a ledger API may panic.
func address(id xdr.AccountId) (string, bool) {
	if id.Type != xdr.PublicKeyTypePublicKeyTypeEd25519 || id.Ed25519 == nil {
		return "", false
	}
	s, err := id.GetAddress()
	return s, err == nil
}

// signerKeySet reports whether k's arm for its type is set.
func signerKeySet(k xdr.SignerKey) bool {
	switch k.Type {
	case xdr.SignerKeyTypeSignerKeyTypeEd25519:
		return k.Ed25519 != nil
	case xdr.SignerKeyTypeSignerKeyTypePreAuthTx:
		return k.PreAuthTx != nil
	case xdr.SignerKeyTypeSignerKeyTypeHashX:
		return k.HashX != nil
	case xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload:
		return k.Ed25519SignedPayload != nil
	}
	return false
}
