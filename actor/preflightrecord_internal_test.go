package actor

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/planstore"
)

// TestPreflightRecordKeepsTheFee: a preflight run's fee advice survives
// the store (cluster mode: another instance answers status from the
// record), known or unknown, and a record written before there was one
// restores with no bid.
func TestPreflightRecordKeepsTheFee(t *testing.T) {
	at := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for _, run := range []ledger.PreflightRun{
		{Preflight: ledger.Preflight{State: ledger.PreflightLandable}, Checked: at, Fee: ledger.FeeAdvice{Bid: 100, Stats: &ledger.FeeStats{Network: 300, BaseFee: 100}}},
		{Preflight: ledger.Preflight{State: ledger.PreflightLandable}, Checked: at, Fee: ledger.FeeAdvice{Bid: 100}},
	} {
		raw, err := json.Marshal(preflightRecord(&run))
		if err != nil {
			t.Fatal(err)
		}
		var rec planstore.PreflightRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			t.Fatal(err)
		}
		got := preflightOf(&rec)
		if got.Fee.Bid != run.Fee.Bid || got.Fee.Known() != run.Fee.Known() || got.Fee.Low() != run.Fee.Low() ||
			(run.Fee.Known() && *got.Fee.Stats != *run.Fee.Stats) {
			t.Errorf("fee %+v restored as %+v", run.Fee, got.Fee)
		}
	}
	old := preflightOf(&planstore.PreflightRecord{State: "landable", Checked: at})
	if old.Fee.Bid != 0 || old.Fee.Known() {
		t.Errorf("an old record's fee: %+v", old.Fee)
	}
}
