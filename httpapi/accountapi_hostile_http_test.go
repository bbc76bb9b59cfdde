package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
)

// accountAPIPost posts body to url; it reports failures instead of failing
// the test, for use off the test's goroutine.
func accountAPIPost(c *http.Client, url, body string) (response, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	return roundTrip(c, req)
}

// TestAccountAPIHostilePublishesShareOneCall is CONTRACT section 9's account
// API bound over a real listener: a burst of unsigned publishes for one
// account (the same close, and other closes of that account), the account
// API holding its answer, makes one upstream request; once it answers, every
// publish answers 400 UNSIGNED.
func TestAccountAPIHostilePublishesShareOneCall(t *testing.T) {
	r := startRelay(t, httpapi.Options{}, 0, nil)
	victim := ledgertest.NewAccount(1, 1)
	r.Horizon.AddAccount(victim)
	stranger := keypair.MustRandom()
	pass := planPass(planTest)

	const publishes = 64
	same, _ := ledgertest.BuildClose(victim.Master, planDest, 1, 0, pass, stranger)
	bodies := make([]string, publishes)
	for i := range bodies {
		x := same
		if i%2 == 1 { // another close of the account, with no signature at all
			x, _ = ledgertest.BuildClose(victim.Master, planDest, int64(2+i), 0, pass)
		}
		bodies[i] = jsonBody(t, map[string]string{"network": planTest, "xdr": x})
	}

	r.Horizon.SetHeld(true)
	t.Cleanup(func() { r.Horizon.SetHeld(false) }) // before startRelay's Stop, should the test fail early
	type answer struct {
		res response
		err error
	}
	answers := make(chan answer, publishes)
	for _, body := range bodies {
		go func() {
			res, err := accountAPIPost(r.Client, r.URL+"/api/plan", body)
			answers <- answer{res, err}
		}()
	}
	// Wait until every publish waits on the account API (or, without the
	// shared call, has a request of its own upstream).
	deadline := time.Now().Add(20 * time.Second)
	for r.relay.Ledger.Waiting() < publishes && r.Horizon.Requests() < publishes {
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s, %d of %d publishes wait on the account API, %d upstream requests",
				r.relay.Ledger.Waiting(), publishes, r.Horizon.Requests())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := r.Horizon.Requests(); got != 1 {
		t.Fatalf("%d concurrent publishes for one account made %d account API requests, want 1", publishes, got)
	}

	r.Horizon.SetHeld(false)
	for range publishes {
		a := <-answers
		if a.err != nil {
			t.Fatalf("publish: %v", a.err)
		}
		planWantErr(t, a.res, http.StatusBadRequest, "UNSIGNED")
	}
	if got := r.Horizon.Requests(); got != 1 {
		t.Errorf("account API requests = %d, want 1", got)
	}
	if n, err := r.Plans.Open(t.Context()); err != nil || n != 0 {
		t.Errorf("open plans = %d, %v; want 0", n, err)
	}
}
