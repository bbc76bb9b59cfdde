package actor

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/closerelay/closerelay/plan"
	"github.com/closerelay/closerelay/planstore"
)

// TestRepublishFlowConflictMergesNothing: a re-publish naming another flow
// than the plan's is refused whole, its new signer and its submit left out,
// whether the plan's view shows the flow or not yet.
func TestRepublishFlowConflictMergesNothing(t *testing.T) {
	kept := plan.Flow{Nonce: testNonce1, Destination: destination, Memo: "text:a", Token: "t1"}
	other := plan.Flow{Nonce: testNonce2, Destination: destination, Memo: "text:a", Token: "t2"}

	// One instance: the view shows the flow.
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{})
		f := newFixture(t, 2)
		ctx := context.Background()
		p := create(t, s, f, time.Now().Add(time.Hour), 0)
		if err := p.SetFlow(ctx, kept); err != nil {
			t.Fatal(err)
		}
		if err := p.Republish(ctx, f.admitted(1), true, &other); !errors.Is(err, ErrFlowConflict) {
			t.Fatalf("Republish with another flow: %v, want ErrFlowConflict", err)
		}
		st, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		checkEnvelope(t, f, st, 0)
		if p.Submission().Submit {
			t.Fatal("a refused re-publish set submit")
		}
	})

	// Two instances: A keeps the flow and B's view has not seen it yet
	// (its watch has not delivered A's write). B's step writes, loses to
	// A's revision, takes the entry in and runs again: it must refuse
	// there, before merging.
	synctest.Test(t, func(t *testing.T) {
		// B takes A's flow in only once it verifies: the close is through
		// the flow's mediator, and B's check knows the token.
		mediator := keys[5].Address()
		check := func(token string) (plan.Flow, string, error) {
			for _, fl := range []plan.Flow{kept, other} {
				if fl.Token == token {
					return plan.Flow{Nonce: fl.Nonce, Destination: fl.Destination, Memo: fl.Memo}, mediator, nil
				}
			}
			return plan.Flow{}, "", errors.New("bad MAC")
		}
		shared := newMemStore()
		a := start(t, Options{Store: memInstance{shared, make(chan planstore.Change)}, FlowCheck: check})
		b := start(t, Options{Store: memInstance{shared, make(chan planstore.Change)}, FlowCheck: check})
		f := newMediatorFixture(t, 2, mediator)
		ctx := context.Background()
		pa := create(t, a, f, time.Now().Add(time.Hour), 0)
		pb, err := b.Lookup(ctx, f.id)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if err := pa.SetFlow(ctx, kept); err != nil {
			t.Fatal(err)
		}
		if pb.Forward().Flow != nil {
			t.Fatal("B's view has A's flow already: the race this test holds open is gone")
		}
		if err := pb.Republish(ctx, f.admitted(1), true, &other); !errors.Is(err, ErrFlowConflict) {
			t.Fatalf("B's Republish with another flow: %v, want ErrFlowConflict", err)
		}
		e, err := shared.Get(ctx, f.id)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(e.Record.SignerOf, 1) || e.Record.Submission.Submit {
			t.Fatalf("the refused re-publish reached the store: signers %v, submit %v", e.Record.SignerOf, e.Record.Submission.Submit)
		}
		st, err := pb.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		checkEnvelope(t, f, st, 0)
	})
}

// TestRepublishMergesSubmitsAndKeepsTheFlow: an accepted re-publish does
// all three in one step; the same again changes nothing and makes no
// round trip to the plan's loop.
func TestRepublishMergesSubmitsAndKeepsTheFlow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := start(t, Options{})
		f := newFixture(t, 3)
		ctx := context.Background()
		p := create(t, s, f, time.Now().Add(time.Hour), 0)
		flow := plan.Flow{Nonce: testNonce1, Destination: destination, Memo: "text:a", Token: "t1"}
		if err := p.Republish(ctx, f.admitted(1), true, &flow); err != nil {
			t.Fatal(err)
		}
		st, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		checkEnvelope(t, f, st, 0, 1)
		if !p.Submission().Submit {
			t.Fatal("submit not set")
		}
		if got := p.Forward().Flow; got == nil || !got.Same(flow) {
			t.Fatalf("flow %v, want %v", got, flow)
		}
		// The same flow under another token (another expiry) is accepted.
		again := flow
		again.Token = "t1-later"
		if err := p.Republish(ctx, f.admitted(1), true, &again); err != nil {
			t.Fatalf("the same re-publish again: %v", err)
		}
		if st2, _ := p.Snapshot(ctx); st2.Version != st.Version {
			t.Fatalf("the same re-publish made version %d from %d", st2.Version, st.Version)
		}
	})
}
