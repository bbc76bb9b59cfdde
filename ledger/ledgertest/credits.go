package ledgertest

import (
	"encoding/hex"
	"slices"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// What the double records of the transactions it applied, for tests to
// assert on where funds went and with which memo: an exchange credits a
// deposit by the memo its payment carries (SEP-29).

// MemoRequiredKey is SEP-29's data entry: an account whose entry holds "1"
// requires a memo on the payments it receives. The ledger itself enforces
// nothing; wallets (and the relay's preflight) read it.
const MemoRequiredKey = "config.memo_required"

// SetMemoRequired marks account id memo-required (SEP-29): its data entry
// MemoRequiredKey holds "1", a sub-entry of the account's own reserve.
func (h *Handler) SetMemoRequired(id string) bool {
	return h.SetData(id, MemoRequiredKey, []byte("1"), "")
}

// SetMemoRequired is Handler.SetMemoRequired.
func (s *Server) SetMemoRequired(id string) bool { return s.h.SetMemoRequired(id) }

// Received is one credit an applied transaction made to an account: a
// payment's amount, or a merge's whole balance, with the transaction's memo.
type Received struct {
	Hash   string // the transaction's hash, lowercase hex
	Ledger int32
	From   string // the operation's effective source
	To     string // the credited account (G…)
	// Asset is "native", or CODE:ISSUER.
	Asset  string
	Amount int64 // stroops
	Merge  bool  // an account_merge's balance, not a payment
	Memo   xdr.Memo
}

// Credits are the credits to account id, in the order they were applied.
func (h *Handler) Credits(id string) []Received {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Received
	for _, c := range h.credits {
		if c.To == id {
			out = append(out, c)
		}
	}
	return out
}

// Credits is Handler.Credits.
func (s *Server) Credits(id string) []Received { return s.h.Credits(id) }

// recordCredits records the payments and merges of env, applied with
// results in ledger ledgerSeq. Under h.mu.
func (h *Handler) recordCredits(env xdr.TransactionEnvelope, hash [32]byte, ledgerSeq int32, results []xdr.OperationResult) {
	sources := opSources(env)
	for i, op := range env.Operations() {
		c := Received{Hash: hex.EncodeToString(hash[:]), Ledger: ledgerSeq, From: sources[i], Memo: env.Memo()}
		switch op.Body.Type {
		case xdr.OperationTypePayment:
			p := op.Body.MustPaymentOp()
			c.To, c.Amount, c.Asset = p.Destination.ToAccountId().Address(), int64(p.Amount), assetName(p.Asset)
		case xdr.OperationTypeAccountMerge:
			r, ok := results[i].GetTr()
			if !ok || r.AccountMergeResult == nil || r.AccountMergeResult.SourceAccountBalance == nil {
				continue
			}
			c.To, c.Asset, c.Merge = op.Body.MustDestination().ToAccountId().Address(), "native", true
			c.Amount = int64(*r.AccountMergeResult.SourceAccountBalance)
		default:
			continue
		}
		h.credits = append(slices.Clip(h.credits), c)
	}
}

func assetName(a xdr.Asset) string {
	if a.Type == xdr.AssetTypeAssetTypeNative {
		return "native"
	}
	return a.GetCode() + ":" + a.GetIssuer()
}
