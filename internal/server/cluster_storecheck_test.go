package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"testing"
	"time"

	"github.com/closerelay/closerelay/internal/natstest"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/closerelay/closerelay/metrics"
	"github.com/closerelay/closerelay/planstore"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The store is never trusted blindly (CONTRACT section 9, round 4): a
// record that anything with write access to the bucket put under a plan's
// key is checked by every instance that reads it, and one that fails is
// never served nor merged into.

// bucketKV is a direct handle on the relays' bucket: what an attacker with
// write access to NATS holds.
func bucketKV(t *testing.T, url string) jetstream.KeyValue {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(context.Background(), "closerelay_plans")
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

// storedRecord is plan id's record as the bucket holds it.
func storedRecord(t *testing.T, kv jetstream.KeyValue, id string) planstore.Record {
	t.Helper()
	e, err := kv.Get(context.Background(), "plan."+id)
	if err != nil {
		t.Fatal(err)
	}
	var r planstore.Record
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// putRecord writes r under plan id's key, over whatever is there, as an
// attacker would (no compare-and-set).
func putRecord(t *testing.T, kv jetstream.KeyValue, id string, r planstore.Record) {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(context.Background(), "plan."+id, b); err != nil {
		t.Fatal(err)
	}
}

// refusedCount is r's closerelay_store_records_refused_total{reason}.
func (r *clusterRelay) refusedCount(t *testing.T, reason string) float64 {
	t.Helper()
	mfs, err := r.Metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "closerelay_store_records_refused_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "reason" && l.GetValue() == reason {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	t.Fatalf("no closerelay_store_records_refused_total{reason=%q}", reason)
	return 0
}

// junkSignature is 64 random bytes under kp's hint: it claims kp signed.
func junkSignature(kp *keypair.Full) xdr.DecoratedSignature {
	sig := make([]byte, 64)
	_, _ = rand.Read(sig)
	return xdr.DecoratedSignature{Hint: kp.Hint(), Signature: sig}
}

// forgeries are the records of TestClusterStoredRecordChecked: each is the
// honest record of a plan with one part replaced, and the reason its
// refusal counts under.
func forgeries(acct ledgertest.Account, attacker string) map[string]struct {
	forge  func(r *planstore.Record)
	reason string
} {
	return map[string]struct {
		forge  func(r *planstore.Record)
		reason string
	}{
		// The attack of issue 39: another close of the same account,
		// merging into the attacker, with a junk signature carrying the
		// hint of the signer the record names.
		"another close of the account": {func(r *planstore.Record) {
			other, _ := ledgertest.BuildClose(acct.Master, attacker, 1, 0, opsPassphrase)
			r.XDR = ledgertest.AppendSignatures(other, junkSignature(acct.Keys[0]))
		}, metrics.StoreRefusedHash},
		// The published close itself, its signature replaced by junk under
		// the right hint.
		"a signature that does not verify": {func(r *planstore.Record) {
			honest, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase)
			r.XDR = ledgertest.AppendSignatures(honest, junkSignature(acct.Keys[0]))
		}, metrics.StoreRefusedSignature},
		"an envelope that does not decode": {func(r *planstore.Record) { r.XDR = "AAAA" }, metrics.StoreRefusedEnvelope},
		// The record's own word about the close, where the envelope says
		// otherwise.
		"another closing account": {func(r *planstore.Record) { r.Account = attacker }, metrics.StoreRefusedFields},
		"a submission hash out of shape": {func(r *planstore.Record) {
			r.Submission.Submit, r.Submission.State, r.Submission.Hash = true, "submitted", "<script>"
		}, metrics.StoreRefusedFields},
	}
}

// TestClusterStoredRecordChecked: a forged record under a plan's key, read
// by an instance that does not hold the plan, is as if absent: GET
// /api/plan/{id} and a sign answer 404 NOT_FOUND and /plan/{id} the 404
// page, each read counted in closerelay_store_records_refused_total; the
// honest record put back, the same instance serves the plan and takes a
// sign. Fails without the check: the forged record was served (200) and a
// co-signer's signature over it was accepted.
func TestClusterStoredRecordChecked(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	attacker := keypair.MustRandom().Address()
	acct := clusterAccount(h, 3)
	for name, tc := range forgeries(acct, attacker) {
		t.Run(name, func(t *testing.T) {
			// A publishes and goes away: the plan is the store's alone.
			// Every case's plan is the same close: each case purges it.
			a := startClusterRelay(t, nats.URL, h, nil)
			kv := bucketKV(t, nats.URL) // the bucket A made
			first, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[0])
			id := a.publish(t, first)
			if err := a.Stop(); err != nil {
				t.Fatal(err)
			}
			honest := storedRecord(t, kv, id)
			t.Cleanup(func() { _ = kv.Purge(context.Background(), "plan."+id) })

			forged := honest
			tc.forge(&forged)
			putRecord(t, kv, id, forged)

			b := startClusterRelay(t, nats.URL, h, nil)
			partial, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[1])
			for _, req := range []struct {
				method, path, body, code string
			}{
				{"GET", "/api/plan/" + id, "", "NOT_FOUND"},
				{"GET", "/plan/" + id, "", ""},
				{"POST", "/api/plan/" + id + "/sign", `{"xdr":"` + partial + `"}`, "NOT_FOUND"},
				{"GET", "/api/plan/" + id + "/status", "", "NOT_FOUND"},
			} {
				before := b.refusedCount(t, tc.reason)
				b.must(t, req.method, req.path, req.body, 404, req.code)
				if got := b.refusedCount(t, tc.reason); got != before+1 {
					t.Errorf("%s %s: refused_total{reason=%q} went from %v to %v, want one more", req.method, req.path, tc.reason, before, got)
				}
			}
			if got := storedRecord(t, kv, id); got.XDR != forged.XDR {
				t.Fatal("the forged record was written over by an instance that was refused it")
			}

			// The honest record back: served, and signed, by the same instance.
			putRecord(t, kv, id, honest)
			if got := b.signers(t, id); len(got) != 1 || got[0] != hintOf(acct.Keys[0]) {
				t.Fatalf("GET of the honest record: signers %v", got)
			}
			if got := b.sign(t, id, partial); len(got) != 2 {
				t.Fatalf("sign of the honest record: %d signers, want 2", len(got))
			}
			if err := b.Stop(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestClusterStoredChangeChecked: an instance that holds a plan and whose
// watch delivers a forged record of it takes nothing in: it goes on
// answering its own view (the published close, its signers), counts the
// refusal, and writes its view back over the forged record. Fails without
// the check: the junk signature replaced the holder's genuine one in what
// it served.
func TestClusterStoredChangeChecked(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	attacker := keypair.MustRandom().Address()
	acct := clusterAccount(h, 3)
	for name, tc := range forgeries(acct, attacker) {
		t.Run(name, func(t *testing.T) {
			a := startClusterRelay(t, nats.URL, h, nil)
			kv := bucketKV(t, nats.URL) // the bucket A made
			first, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[0])
			id := a.publish(t, first)
			t.Cleanup(func() { _ = kv.Purge(context.Background(), "plan."+id) })
			honest := storedRecord(t, kv, id)
			var want struct{ XDR string }
			if err := json.Unmarshal([]byte(a.must(t, "GET", "/api/plan/"+id, "", 200, "")), &want); err != nil {
				t.Fatal(err)
			}
			before := a.refusedCount(t, tc.reason)
			forged := honest
			tc.forge(&forged)
			putRecord(t, kv, id, forged)

			// The watch's delivery, then the write back, which puts the
			// holder's view in the store again.
			deadline := time.Now().Add(10 * time.Second)
			for got := storedRecord(t, kv, id); got.XDR != honest.XDR || got.Account != honest.Account || got.Submission.Hash != ""; got = storedRecord(t, kv, id) {
				if time.Now().After(deadline) {
					t.Fatalf("the holder never wrote its view back over the forged record: %+v", got)
				}
				time.Sleep(20 * time.Millisecond) // polling the store for the write back
			}
			if got := a.refusedCount(t, tc.reason); got < before+1 {
				t.Errorf("refused_total{reason=%q} = %v, want at least %v", tc.reason, got, before+1)
			}
			var got struct{ XDR string }
			if err := json.Unmarshal([]byte(a.must(t, "GET", "/api/plan/"+id, "", 200, "")), &got); err != nil {
				t.Fatal(err)
			}
			if got.XDR != want.XDR {
				t.Fatalf("GET after the forged record: %s, want the plan's own %s", got.XDR, want.XDR)
			}
			partial, _ := ledgertest.BuildClose(acct.Master, clusterDest, 1, 0, opsPassphrase, acct.Keys[1])
			if got := a.sign(t, id, partial); len(got) != 2 {
				t.Fatalf("sign after the forged record: %d signers, want 2", len(got))
			}
			if err := a.Stop(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestClusterStoredFlowChecked: a plan's mediator flow in its record is
// the store's word beside the token, which is the master's: a record whose
// flow's destination is not the one its token commits to, or whose token
// is not the master's, is refused (reason flow) by an instance that
// restores the plan (404 NOT_FOUND) and by one that holds it, which writes
// its own flow back. Fails without the flow's check: the re-pointed
// destination was served in the plan.
func TestClusterStoredFlowChecked(t *testing.T) {
	nats := natstest.Start(t)
	h := ledgertest.New()
	t.Cleanup(h.Close)
	env := map[string]string{"MEDIATOR_SECRET": clusterSecret}
	exchange, attacker := keypair.MustRandom().Address(), keypair.MustRandom().Address()
	for name, forge := range map[string]func(r *planstore.Record){
		"a re-pointed destination": func(r *planstore.Record) { r.Forward.Destination = attacker },
		"a token not the master's": func(r *planstore.Record) {
			r.Forward.Token = r.Forward.Nonce + ".1.GAAA.dGV4dDphYg." + r.Forward.Nonce + r.Forward.Nonce
		},
	} {
		t.Run(name, func(t *testing.T) {
			acct := clusterAccount(h, 3) // one signature of three: never submitted here
			a := startClusterRelay(t, nats.URL, h, env)
			kv := bucketKV(t, nats.URL)
			id, _ := mediatorClose(t, a, h, acct, exchange, "text:ab")
			honest := storedRecord(t, kv, id)
			if honest.Forward == nil || honest.Forward.Destination != exchange {
				t.Fatalf("the honest record's flow: %+v", honest.Forward)
			}

			// The holder refuses it and writes its flow back.
			before := a.refusedCount(t, metrics.StoreRefusedFlow)
			forged := honest
			fwd := *honest.Forward
			forged.Forward = &fwd
			forge(&forged)
			putRecord(t, kv, id, forged)
			deadline := time.Now().Add(10 * time.Second)
			for got := storedRecord(t, kv, id); got.Forward == nil || *got.Forward != *honest.Forward; got = storedRecord(t, kv, id) {
				if time.Now().After(deadline) {
					t.Fatalf("the holder never wrote its flow back: %+v", got.Forward)
				}
				time.Sleep(20 * time.Millisecond) // polling the store for the write back
			}
			if got := a.refusedCount(t, metrics.StoreRefusedFlow); got < before+1 {
				t.Errorf("holder: refused_total{reason=flow} = %v, want at least %v", got, before+1)
			}
			a.must(t, "GET", "/api/plan/"+id+"/status", "", 200, "")
			if err := a.Stop(); err != nil {
				t.Fatal(err)
			}

			// An instance that restores it finds it absent.
			putRecord(t, kv, id, forged)
			b := startClusterRelay(t, nats.URL, h, env)
			// The plan was published with submit, so b's watch, which
			// restores plans waiting for their submission, may read and
			// refuse the record too, at a moment of its own: each GET
			// counts its refusal, and the watch's may fall in between.
			for _, path := range []string{"/api/plan/" + id, "/api/plan/" + id + "/status"} {
				before := b.refusedCount(t, metrics.StoreRefusedFlow)
				b.must(t, "GET", path, "", 404, "NOT_FOUND")
				if got := b.refusedCount(t, metrics.StoreRefusedFlow); got < before+1 || got > before+2 {
					t.Errorf("GET %s: refused_total{reason=flow} went from %v to %v, want one more (two with the watch's)", path, before, got)
				}
			}
			putRecord(t, kv, id, honest)
			b.must(t, "GET", "/api/plan/"+id, "", 200, "")
			if err := b.Stop(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
