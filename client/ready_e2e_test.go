package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/closerelay/closerelay/client"
	"github.com/closerelay/closerelay/internal/relaytest"
)

// TestReadinessRoutes: the sign answer, the stream, Status and Ready carry
// the relay's readiness of a 3-of-3 plan as it fills; Ready is NOT_READY
// (409) until the threshold is met, and its envelope is one the account-API
// double's POST /transactions takes.
func TestReadinessRoutes(t *testing.T) {
	f := newFixture(t, relaytest.Options{})
	ctx := context.Background()
	start := time.Now()
	id, _ := f.publish(t)

	st, err := f.c.Status(ctx, id)
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	if st.ID != id || st.Network != "testnet" || st.Version != 1 || st.Weight != 1 || st.Threshold != 3 || st.Ready ||
		!slices.Equal(st.Signers, []string{f.acct.Keys[0].Address()}) || st.Submit || st.Submission != nil {
		t.Fatalf("Status = %+v", st)
	}
	// The close's maxTime is 72 h from now: the plan ends 60 s before it.
	if st.Expiry.Location() != time.UTC || st.Expiry.Before(start.Add(72*time.Hour-62*time.Second)) || st.Expiry.After(time.Now().Add(72*time.Hour-60*time.Second)) {
		t.Errorf("Status expiry %v, want the close's maxTime − 60 s, in UTC", st.Expiry)
	}
	_, err = f.c.Ready(ctx, id)
	if e := wantAPIError(t, err, http.StatusConflict, client.CodeNotReady); e.Reason != "weight 1 of threshold 3: the plan is not ready" {
		t.Errorf("NOT_READY reason %q", e.Reason)
	}

	// A watcher sees each version's readiness.
	states := make(chan client.State, 8)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	watched := make(chan error, 1)
	go func() {
		watched <- f.c.Watch(wctx, id, func(s client.State) error { states <- s; return nil })
	}()
	next := func(weight int) {
		t.Helper()
		select {
		case s := <-states:
			if s.Weight != weight || s.Threshold != 3 || s.Ready != (weight >= 3) {
				t.Errorf("watched v%d: weight %d, threshold %d, ready %v; want %d of 3", s.Version, s.Weight, s.Threshold, s.Ready, weight)
			}
		case err := <-watched:
			t.Fatalf("watch ended: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatal("no state watched")
		}
	}
	next(1)

	s := f.sign(t, id, f.acct.Keys[1])
	if s.Weight != 2 || s.Threshold != 3 || s.Ready {
		t.Errorf("Sign = weight %d, threshold %d, ready %v; want 2 of 3", s.Weight, s.Threshold, s.Ready)
	}
	next(2)
	s = f.sign(t, id, f.acct.Master)
	if s.Weight != 3 || s.Threshold != 3 || !s.Ready {
		t.Errorf("Sign = weight %d, threshold %d, ready %v; want 3 of 3", s.Weight, s.Threshold, s.Ready)
	}
	next(3)

	r, err := f.c.Ready(ctx, id)
	if err != nil {
		t.Fatalf("Ready: %v", err)
	}
	want := []string{f.acct.Keys[0].Address(), f.acct.Keys[1].Address(), f.acct.Master.Address()}
	if r.ID != id || r.Network != "testnet" || r.Weight != 3 || r.Threshold != 3 || !slices.Equal(r.Signers, want) {
		t.Fatalf("Ready = %+v", r)
	}
	if st, err := f.c.Status(ctx, id); err != nil || st.Version != 3 || !st.Ready || !slices.Equal(st.Signers, want) {
		t.Fatalf("Status after the signs = %+v, %v", st, err)
	}
	// The ledger (the double) takes the submit-ready envelope.
	resp, err := http.PostForm(f.relay.Horizon.URL+"/transactions", url.Values{"tx": {r.XDR}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || f.relay.Horizon.Applied() != 1 {
		t.Fatalf("the double answered %d to the ready envelope (applied %d)", resp.StatusCode, f.relay.Horizon.Applied())
	}

	missing := "00" + id[2:]
	if id[:2] == "00" {
		missing = "11" + id[2:]
	}
	_, err = f.c.Ready(ctx, missing)
	wantAPIError(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = f.c.Status(ctx, missing)
	wantAPIError(t, err, http.StatusNotFound, "NOT_FOUND")
	stop()
	if err := <-watched; !errors.Is(err, context.Canceled) {
		t.Errorf("watch: %v", err)
	}
}

// TestReadinessAnswersChecked: Ready and Status refuse answers that are not
// the contract's shape, and a stream from a relay that sends no readiness
// (older than the fields) gives states with Threshold 0.
func TestReadinessAnswersChecked(t *testing.T) {
	const id = "6740107f233fe1b23cb2f22226a24528154172b811329e31dd4d27568a94a7c2"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/plan/" + id + "/ready":
			// Below its own threshold: not a ready envelope.
			_, _ = w.Write([]byte(`{"ok":true,"id":"` + id + `","network":"testnet","xdr":"AAAA","signers":[],"weight":1,"threshold":2}`))
		case "/api/plan/" + id + "/status":
			_, _ = w.Write([]byte(`{"ok":true,"id":"` + id + `","network":"testnet","version":1,"signers":[],"weight":1,"threshold":2,"ready":false}`))
		case "/api/plan/" + id + "/events":
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = w.Write([]byte("id: 1\ndata: {\"network\":\"testnet\",\"xdr\":\"AAAA\",\"id\":\"" + id + "\",\"signers\":[]}\n\nevent: expired\ndata: {}\n\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := client.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Ready(ctx, id); !errors.Is(err, client.ErrUnexpectedResponse) {
		t.Errorf("Ready below its threshold: %v, want ErrUnexpectedResponse", err)
	}
	if _, err := c.Status(ctx, id); !errors.Is(err, client.ErrUnexpectedResponse) {
		t.Errorf("Status without expiry: %v, want ErrUnexpectedResponse", err)
	}
	var got []client.State
	err = c.Watch(ctx, id, func(s client.State) error { got = append(got, s); return nil })
	if !errors.Is(err, client.ErrExpired) || len(got) != 1 || got[0].Threshold != 0 || got[0].Weight != 0 || got[0].Ready {
		t.Errorf("Watch of an older relay: %v, %+v", err, got)
	}
}
