package ledger_test

import (
	"errors"
	"testing"

	"github.com/closerelay/closerelay/ledger"
)

// TestCandidateSet: the candidates are the ed25519 signers of weight above
// 0, in the account's order, with the account's thresholds; a list the
// ledger could not hold is refused, whichever API it came from.
func TestCandidateSet(t *testing.T) {
	k := keys(500, 3)
	acc := ledger.AccountState{
		ID:         k[0].Address(),
		Thresholds: ledger.Thresholds{Low: 1, Medium: 2, High: 3},
		Signers: []ledger.AccountSigner{
			{Type: ledger.SignerEd25519, Key: k[1].Address(), Weight: 2},
			{Type: ledger.SignerPreAuthTx, Key: "TBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHXL7", Weight: 1},
			{Type: ledger.SignerEd25519, Key: k[2].Address(), Weight: 0},
			{Type: ledger.SignerEd25519, Key: k[0].Address(), Weight: 1},
		},
	}
	set, err := ledger.CandidateSet(acc)
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Thresholds(); got != acc.Thresholds {
		t.Errorf("thresholds = %+v, want %+v", got, acc.Thresholds)
	}
	signers := set.Signers()
	if len(signers) != 2 || signers[0].Address != k[1].Address() || signers[0].Weight != 2 ||
		signers[1].Address != k[0].Address() || signers[1].Weight != 1 {
		t.Errorf("candidates = %+v, want k1 (2) then the master (1)", signers)
	}

	bad := acc
	bad.Signers = []ledger.AccountSigner{{Type: ledger.SignerEd25519, Key: "TBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHXL7", Weight: 1}}
	if _, err := ledger.CandidateSet(bad); !errors.Is(err, ledger.ErrSignerKey) {
		t.Errorf("an ed25519 signer with a T… key: %v, want ErrSignerKey", err)
	}
	many := acc
	many.Signers = nil
	for _, kp := range keys(600, ledger.MaxPlanSignerSet+1) {
		many.Signers = append(many.Signers, ledger.AccountSigner{Type: ledger.SignerEd25519, Key: kp.Address(), Weight: 1})
	}
	if _, err := ledger.CandidateSet(many); !errors.Is(err, ledger.ErrTooManySigners) {
		t.Errorf("%d candidates: %v, want ErrTooManySigners", len(many.Signers), err)
	}
}
