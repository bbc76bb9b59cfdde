package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
)

// CONTRACT section 9 over a real listener: at most PLANS_PER_ACCOUNT
// (default 5) open plans per closing account, and publish re-checks the
// plan's expiry at insert.

// plansPerAccount is the production default of PLANS_PER_ACCOUNT.
const plansPerAccount = 5

// hostileClose is a close of acc's account with sequence number seq and
// maxTime (0: none), signed by its master.
func hostileClose(acc ledgertest.Account, seq, maxTime int64) (string, [32]byte) {
	return ledgertest.BuildClose(acc.Master, planDest, seq, maxTime, planPass(planTest), acc.Master)
}

// wantAccountCapacity checks a 400 CAPACITY whose reason names the
// per-account limit, not the relay's.
func wantAccountCapacity(t *testing.T, res response) {
	t.Helper()
	planWantErr(t, res, http.StatusBadRequest, "CAPACITY")
	reason := planString(t, planFields(t, res, "ok", "code", "reason")["reason"])
	if !strings.Contains(reason, "PLANS_PER_ACCOUNT") || !strings.Contains(reason, fmt.Sprint(plansPerAccount)) || strings.Contains(reason, "500") {
		t.Errorf("reason %q does not name the per-account limit of %d (PLANS_PER_ACCOUNT)", reason, plansPerAccount)
	}
}

// TestPublishPlansPerAccount: one account's sixth close (a new sequence
// number) is refused at guard 5, before any account API call, while a
// re-publish of one of its five open plans still merges and another account
// still publishes.
func TestPublishPlansPerAccount(t *testing.T) {
	r := planStart(t, 0)
	acc := planAccount(r, 0)
	xs := make([]string, plansPerAccount)
	hashes := make([][32]byte, plansPerAccount)
	for i := range plansPerAccount {
		xs[i], hashes[i] = hostileClose(acc, int64(i+1), 0)
		planWantPublished(t, r.publish(t, planTest, xs[i]), hashes[i])
	}

	sixth, sixthHash := hostileClose(acc, plansPerAccount+1, 0)
	// A failing account API shows the refusal came before the call: it
	// would otherwise answer ACCOUNT_UNREACHABLE.
	r.horizon.SetFailing(true)
	wantAccountCapacity(t, r.publish(t, planTest, sixth))
	r.horizon.SetFailing(false)
	wantAccountCapacity(t, r.publish(t, planTest, sixth))
	planWantErr(t, r.get(t, fmt.Sprintf("%x", sixthHash)), http.StatusNotFound, "NOT_FOUND")

	// A re-publish of an open plan is not a new plan, whether it adds
	// nothing or a co-signer's signature.
	planWantPublished(t, r.publish(t, planTest, xs[2]), hashes[2])
	co := planAccount(r, 1)
	for seq := range int64(plansPerAccount) {
		x, hash := hostileClose(co, seq+1, 0)
		planWantPublished(t, r.publish(t, planTest, x), hash)
	}
	coX, coHash := hostileClose(co, 1, 0)
	planWantPublished(t, r.publish(t, planTest, ledgertest.SignXDR(coX, planPass(planTest), co.Keys[0])), coHash)

	// Another account is not held back by the first.
	other := planAccount(r, 0)
	x, hash := hostileClose(other, 1, 0)
	planWantPublished(t, r.publish(t, planTest, x), hash)

	if open, err := r.plans.Open(context.Background()); err != nil || open != 2*plansPerAccount+1 {
		t.Fatalf("open = %d, %v; want %d", open, err, 2*plansPerAccount+1)
	}
}

// TestPublishPlansPerAccountAtInsert: two new closes of an account with four
// open plans both pass guard 5 while their account API calls are in flight;
// guard 8 creates one and refuses the other with the per-account CAPACITY.
func TestPublishPlansPerAccountAtInsert(t *testing.T) {
	r := planStart(t, 0)
	acc := planAccount(r, 0)
	for seq := range int64(plansPerAccount - 1) {
		x, hash := hostileClose(acc, seq+1, 0)
		planWantPublished(t, r.publish(t, planTest, x), hash)
	}
	const delay = time.Second
	r.horizon.SetDelay(delay)
	var (
		wg      sync.WaitGroup
		res     [2]response
		elapsed [2]time.Duration
		hashes  [2][32]byte
	)
	for i := range res {
		var x string
		x, hashes[i] = hostileClose(acc, plansPerAccount+int64(i), 0)
		wg.Go(func() {
			start := time.Now()
			res[i] = r.publish(t, planTest, x)
			elapsed[i] = time.Since(start)
		})
	}
	wg.Wait()
	won := -1
	for i := range res {
		if res[i].status == http.StatusOK {
			if won >= 0 {
				t.Fatalf("both publishes answered 200: the account has %d open plans", plansPerAccount+1)
			}
			won = i
		}
	}
	if won < 0 {
		t.Fatalf("no publish answered 200: %d %s / %d %s", res[0].status, res[0].body, res[1].status, res[1].body)
	}
	lost := 1 - won
	planWantPublished(t, res[won], hashes[won])
	wantAccountCapacity(t, res[lost])
	// The refused publish waited for the account API: guard 8 refused it.
	if elapsed[lost] < delay {
		t.Errorf("the refused publish answered after %v, before the account API's %v: refused at guard 5, not 8", elapsed[lost], delay)
	}
	planWantErr(t, r.get(t, fmt.Sprintf("%x", hashes[lost])), http.StatusNotFound, "NOT_FOUND")
	if open, err := r.plans.Open(context.Background()); err != nil || open != plansPerAccount {
		t.Fatalf("open = %d, %v; want %d", open, err, plansPerAccount)
	}
}

// TestPublishExpiredAtInsert: a close whose plan expiry is a second or two
// ahead passes the expiry check before the account API call; the call takes
// longer than that, so at insert the plan has expired: 400 EXPIRED, never
// 200, and no plan exists.
func TestPublishExpiredAtInsert(t *testing.T) {
	r := planStart(t, 0)
	acc := planAccount(r, 0)
	now := time.Now()
	// The plan expires at maxTime - 60 s, whole seconds: 1 to 2 s from now.
	maxTime := now.Add(ledger.ExpiryGrace + 2*time.Second).Unix()
	expiry := ledger.PlanExpiry(now, uint64(maxTime))
	if ahead := expiry.Sub(now); ahead <= time.Second || ahead > 2*time.Second {
		t.Fatalf("plan expiry %v ahead, want (1 s, 2 s]", ahead)
	}
	x, hash := hostileClose(acc, 1, maxTime)
	delay := time.Until(expiry) + 250*time.Millisecond
	r.horizon.SetDelay(delay)

	start := time.Now()
	res := r.publish(t, planTest, x)
	took := time.Since(start)
	planWantErr(t, res, http.StatusBadRequest, "EXPIRED")
	// It was refused at insert, after the account API answered, not by the
	// check before the call.
	if took < delay {
		t.Errorf("EXPIRED after %v, before the account API's %v: refused before the call, not at insert", took, delay)
	}
	// Guard 6's read, then the preflight's: the offers and the
	// destination (CONTRACT section 14).
	if n := r.horizon.Requests(); n != 3 {
		t.Errorf("account API requests = %d, want 3", n)
	}
	planWantErr(t, r.get(t, fmt.Sprintf("%x", hash)), http.StatusNotFound, "NOT_FOUND")
	if open, err := r.plans.Open(context.Background()); err != nil || open != 0 {
		t.Fatalf("open = %d, %v; want 0", open, err)
	}
	// The account's slot was not taken by the refused plan: five more go in.
	r.horizon.SetDelay(0)
	for seq := range int64(plansPerAccount) {
		x, hash := hostileClose(acc, seq+2, 0)
		planWantPublished(t, r.publish(t, planTest, x), hash)
	}
}
