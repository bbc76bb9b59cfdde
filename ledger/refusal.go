package ledger

import "fmt"

// txReasons says what a transaction result code means, in our words.
var txReasons = map[string]string{
	"tx_bad_seq":               "the transaction's sequence number is not the source account's next one",
	TxBadAuth:                  "the signatures do not reach the source account's threshold",
	TxBadAuthExtra:             "the envelope carries a signature that the ledger's checks did not use",
	"tx_too_early":             "the transaction's time bounds have not begun",
	"tx_too_late":              "the transaction's time bounds have passed",
	TxNoSourceAccount:          "the transaction's source account does not exist",
	"tx_insufficient_fee":      "the transaction's fee is below what the network asks now",
	"tx_insufficient_balance":  "the fee would take the source account below its reserve",
	"tx_missing_operation":     "the transaction has no operation",
	"tx_bad_minseq_age_or_gap": "the transaction's sequence preconditions are not met",
	"tx_bad_sponsorship":       "the transaction leaves a sponsorship open",
	"tx_malformed":             "the transaction is malformed",
	"tx_not_supported":         "the network does not support this transaction",
	"tx_internal_error":        "the ledger failed internally",
}

// RefusalReason says, in our words, why the ledger refused a transaction
// with result code code (as Horizon spells it) and, for tx_failed, the
// operations' codes ops: the first operation that did not succeed. Every
// ledger API reports a refusal by these codes, so the sentence a co-signer
// reads does not depend on the API. It never echoes more than code.
func RefusalReason(code string, ops []string) string {
	if code == TxFailed {
		for i, op := range ops {
			if op != OpSuccess {
				return fmt.Sprintf("operation %d failed with %s", i+1, op)
			}
		}
		return "an operation failed"
	}
	if r, ok := txReasons[code]; ok {
		return r
	}
	return "the ledger refused the transaction (" + code + ")"
}
