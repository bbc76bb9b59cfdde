package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/closerelay/closerelay/httpapi"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// planSigned is the body of a sign success.
type planSigned struct {
	network string
	xdr     string
	signers []string
}

func planWantSigned(t *testing.T, res response) planSigned {
	t.Helper()
	if res.status != http.StatusOK {
		t.Fatalf("status = %d, want 200 (body %s)", res.status, res.body)
	}
	m := planFields(t, res, "ok", "network", "xdr", "signers", "weight", "threshold", "ready", "landable")
	planOKField(t, m, true)
	var signers []string
	if err := json.Unmarshal(m["signers"], &signers); err != nil || signers == nil {
		t.Fatalf("signers = %s, want a JSON array of strings", m["signers"])
	}
	return planSigned{network: planString(t, m["network"]), xdr: planString(t, m["xdr"]), signers: signers}
}

// planSigBy returns the signature in sigs that kp made over hash.
func planSigBy(t *testing.T, sigs []xdr.DecoratedSignature, hash [32]byte, kp *keypair.Full) (xdr.DecoratedSignature, int) {
	t.Helper()
	var found xdr.DecoratedSignature
	n := 0
	for _, s := range sigs {
		if kp.Verify(hash[:], s.Signature) == nil {
			found = s
			n++
		}
	}
	return found, n
}

func TestPlanPublishCodes(t *testing.T) { eachLedgerAPI(t, testPlanPublishCodes) }

func testPlanPublishCodes(t *testing.T, api string) {
	r := planStartAPI(t, 0, api)
	pass := planPass(planTest)
	acc := planAccount(r, 1)
	good, _ := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, acc.Keys[0])
	stranger := keypair.MustRandom()
	other := keypair.MustRandom()
	unknown := keypair.MustRandom()

	payment, _ := ledgertest.BuildPayment(acc.Master, planDest, 2, pass, acc.Keys[0])
	feeBump := ledgertest.FeeBump(good, other, pass)
	mixed, _ := ledgertest.BuildTx(acc.Address, 3, 0, pass, []txnbuild.Operation{
		&txnbuild.BumpSequence{BumpTo: 10, SourceAccount: other.Address()},
		&txnbuild.AccountMerge{Destination: planDest},
	}, acc.Keys[0], other)
	mux, err := xdr.MuxedAccountFromAccountId(acc.Address, 7)
	if err != nil {
		t.Fatal(err)
	}
	muxed, _ := ledgertest.BuildTx(mux.Address(), 4, 0, pass, []txnbuild.Operation{
		&txnbuild.AccountMerge{Destination: planDest},
	}, acc.Keys[0])
	now := time.Now().Unix()
	expiring, _ := ledgertest.BuildClose(acc.Master, planDest, 5, now+30, pass, acc.Keys[0])
	expired, _ := ledgertest.BuildClose(acc.Master, planDest, 6, now-10, pass, acc.Keys[0])
	unknownClose, _ := ledgertest.BuildClose(unknown, planDest, 7, 0, pass, unknown)
	byStranger, _ := ledgertest.BuildClose(acc.Master, planDest, 8, 0, pass, stranger)
	noSig, _ := ledgertest.BuildClose(acc.Master, planDest, 9, 0, pass)

	obj := func(fields map[string]any) string { return jsonBody(t, fields) }
	cases := []struct {
		name string
		body string
		code string
	}{
		{"not JSON", `{"network":"testnet","xdr":`, "BAD_XDR"},
		{"JSON array", `[1,2]`, "BAD_XDR"},
		{"JSON null", `null`, "BAD_XDR"},
		{"JSON string", `"` + good + `"`, "BAD_XDR"},
		{"empty body", ``, "BAD_XDR"},
		{"missing xdr", obj(map[string]any{"network": planTest}), "BAD_XDR"},
		{"xdr number", obj(map[string]any{"network": planTest, "xdr": 12}), "BAD_XDR"},
		{"xdr null", obj(map[string]any{"network": planTest, "xdr": nil}), "BAD_XDR"},
		{"xdr uppercase key", obj(map[string]any{"network": planTest, "XDR": good}), "BAD_XDR"},
		{"xdr empty", obj(map[string]any{"network": planTest, "xdr": ""}), "BAD_XDR"},
		{"xdr 12001 chars", obj(map[string]any{"network": planTest, "xdr": strings.Repeat("A", 12001)}), "BAD_XDR"},
		{"xdr 12000 chars passes guard 1", obj(map[string]any{"network": planTest, "xdr": strings.Repeat("A", 12000)}), "NOT_A_CLOSE"},
		{"network TESTNET", obj(map[string]any{"network": "TESTNET", "xdr": good}), "BAD_NETWORK"},
		{"network public", obj(map[string]any{"network": "public", "xdr": good}), "BAD_NETWORK"},
		{"network pubnet", obj(map[string]any{"network": "pubnet", "xdr": good}), "BAD_NETWORK"},
		{"network empty", obj(map[string]any{"network": "", "xdr": good}), "BAD_NETWORK"},
		{"network missing", obj(map[string]any{"xdr": good}), "BAD_NETWORK"},
		{"network number", obj(map[string]any{"network": 1, "xdr": good}), "BAD_NETWORK"},
		{"network null", obj(map[string]any{"network": nil, "xdr": good}), "BAD_NETWORK"},
		{"undecodable xdr", obj(map[string]any{"network": planTest, "xdr": "not base64 at all!"}), "NOT_A_CLOSE"},
		{"truncated xdr", obj(map[string]any{"network": planTest, "xdr": good[:len(good)/2]}), "NOT_A_CLOSE"},
		{"fee-bump", obj(map[string]any{"network": planTest, "xdr": feeBump}), "NOT_A_CLOSE"},
		{"payment not merge", obj(map[string]any{"network": planTest, "xdr": payment}), "NOT_A_CLOSE"},
		{"mixed sources", obj(map[string]any{"network": planTest, "xdr": mixed}), "NOT_A_CLOSE"},
		{"muxed source", obj(map[string]any{"network": planTest, "xdr": muxed}), "NOT_A_CLOSE"},
		{"maxTime in 30 s", obj(map[string]any{"network": planTest, "xdr": expiring}), "EXPIRED"},
		{"maxTime past", obj(map[string]any{"network": planTest, "xdr": expired}), "EXPIRED"},
		{"unknown account", obj(map[string]any{"network": planTest, "xdr": unknownClose}), "ACCOUNT_UNREACHABLE"},
		{"only a non-signer signature", obj(map[string]any{"network": planTest, "xdr": byStranger}), "UNSIGNED"},
		{"no signature", obj(map[string]any{"network": planTest, "xdr": noSig}), "UNSIGNED"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			planWantErr(t, planPostRaw(t, r.url+"/api/plan", tc.body), http.StatusBadRequest, tc.code)
		})
	}
	// None of the refused publishes left a plan behind.
	if n, err := r.plans.Open(context.Background()); err != nil || n != 0 {
		t.Fatalf("open plans = %d, %v; want 0", n, err)
	}
}

func TestPlanPublishAccountAPIFailing(t *testing.T) {
	eachLedgerAPI(t, testPlanPublishAccountAPIFailing)
}

func testPlanPublishAccountAPIFailing(t *testing.T, api string) {
	r := planStartAPI(t, 0, api)
	pass := planPass(planTest)
	acc := planAccount(r, 0)
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, acc.Master)
	r.horizon.SetFailing(true)
	planWantErr(t, r.publish(t, planTest, x), http.StatusBadRequest, "ACCOUNT_UNREACHABLE")
	r.horizon.SetFailing(false)
	planWantPublished(t, r.publish(t, planTest, x), hash)
}

func TestPlanPublishSuccessAndRepublish(t *testing.T) {
	eachLedgerAPI(t, testPlanPublishSuccessAndRepublish)
}

func testPlanPublishSuccessAndRepublish(t *testing.T, api string) {
	r := planStartAPI(t, 0, api)
	pass := planPass(planTest)
	acc := planAccount(r, 2)
	base, hash := ledgertest.BuildClose(acc.Master, planDest, 1, time.Now().Unix()+3600, pass)
	first := ledgertest.SignXDR(base, pass, acc.Keys[0])
	id := planWantPublished(t, r.publish(t, planTest, first), hash)

	// Re-publishing the same envelope changes nothing and answers the id.
	planWantPublished(t, r.publish(t, planTest, first), hash)
	_, x := planWantPlan(t, r.get(t, id))
	if n := len(planSigs(t, x)); n != 1 {
		t.Fatalf("signatures after identical re-publish = %d, want 1", n)
	}

	// Re-publishing with another signer's signature merges.
	second := ledgertest.SignXDR(base, pass, acc.Keys[1])
	planWantPublished(t, r.publish(t, planTest, second), hash)
	_, x = planWantPlan(t, r.get(t, id))
	sigs := planSigs(t, x)
	if len(sigs) != 2 {
		t.Fatalf("signatures after merge = %d, want 2", len(sigs))
	}
	for _, kp := range acc.Keys[:2] {
		if _, n := planSigBy(t, sigs, hash, kp); n != 1 {
			t.Fatalf("signatures by %s = %d, want 1", kp.Address(), n)
		}
	}

	// A re-publish carrying a non-signer's signature is REJECTED (guard 4),
	// even alongside a valid one, and changes nothing.
	bad := ledgertest.SignXDR(base, pass, acc.Master, keypair.MustRandom())
	planWantErr(t, r.publish(t, planTest, bad), http.StatusBadRequest, "REJECTED")
	_, after := planWantPlan(t, r.get(t, id))
	if after != x {
		t.Fatalf("a rejected re-publish changed the plan")
	}
	if n, _ := r.plans.Open(context.Background()); n != 1 {
		t.Fatalf("open plans = %d, want 1", n)
	}
}

func TestPlanPublishDropsNonSignersAtCreate(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	acc := planAccount(r, 1)
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, keypair.MustRandom(), acc.Keys[0])
	id := planWantPublished(t, r.publish(t, planTest, x), hash)
	_, stored := planWantPlan(t, r.get(t, id))
	sigs := planSigs(t, stored)
	if len(sigs) != 1 {
		t.Fatalf("stored signatures = %d, want 1 (the non-signer's dropped)", len(sigs))
	}
	if _, n := planSigBy(t, sigs, hash, acc.Keys[0]); n != 1 {
		t.Fatalf("the signer's signature is not stored")
	}
}

func TestPlanPublishGuardOrder(t *testing.T) {
	r := planStart(t, 1)
	pass := planPass(planTest)
	acc := planAccount(r, 1)
	unknown := keypair.MustRandom()
	now := time.Now().Unix()

	notClose, _ := ledgertest.BuildPayment(unknown, planDest, 1, pass, unknown)
	notCloseExpiring, _ := ledgertest.BuildTx(acc.Address, 2, now+10, pass, []txnbuild.Operation{
		&txnbuild.Payment{Destination: planDest, Amount: "1", Asset: txnbuild.NativeAsset{}},
	}, acc.Keys[0])
	expiringUnknown, _ := ledgertest.BuildClose(unknown, planDest, 3, now+10, pass)

	steps := []struct {
		name string
		body string
		code string
	}{
		{"bad xdr + bad network", jsonBody(t, map[string]string{"network": "bogus", "xdr": ""}), "BAD_XDR"},
		{"bad xdr + missing network", `{"xdr":5}`, "BAD_XDR"},
		{"oversized xdr + bad network", jsonBody(t, map[string]string{"network": "x", "xdr": strings.Repeat("A", 12001)}), "BAD_XDR"},
		{"bad network + undecodable", jsonBody(t, map[string]string{"network": "public", "xdr": "garbage"}), "BAD_NETWORK"},
		{"bad network + payment", jsonBody(t, map[string]string{"network": "TESTNET", "xdr": notClose}), "BAD_NETWORK"},
		{"not a close + unknown account", jsonBody(t, map[string]string{"network": planTest, "xdr": notClose}), "NOT_A_CLOSE"},
		{"not a close + expiring", jsonBody(t, map[string]string{"network": planTest, "xdr": notCloseExpiring}), "NOT_A_CLOSE"},
		{"expiring + unknown + unsigned", jsonBody(t, map[string]string{"network": planTest, "xdr": expiringUnknown}), "EXPIRED"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			planWantErr(t, planPostRaw(t, r.url+"/api/plan", s.body), http.StatusBadRequest, s.code)
		})
	}

	// Fill the relay (capacity 1).
	held, heldHash := ledgertest.BuildClose(acc.Master, planDest, 10, 0, pass, acc.Keys[0])
	planWantPublished(t, r.publish(t, planTest, held), heldHash)

	unsigned, _ := ledgertest.BuildClose(acc.Master, planDest, 11, 0, pass)
	unknownClose, _ := ledgertest.BuildClose(unknown, planDest, 12, 0, pass, unknown)
	full := []struct {
		name string
		x    string
		code string
	}{
		{"unsigned + capacity full", unsigned, "CAPACITY"},
		{"unknown account + capacity full", unknownClose, "CAPACITY"},
		// Guard 4 comes before guard 5: a re-publish of the held plan is a merge.
		{"rejected re-publish + capacity full", ledgertest.SignXDR(held, pass, keypair.MustRandom()), "REJECTED"},
	}
	for _, s := range full {
		t.Run(s.name, func(t *testing.T) {
			planWantErr(t, r.publish(t, planTest, s.x), http.StatusBadRequest, s.code)
		})
	}
	t.Run("valid re-publish + capacity full", func(t *testing.T) {
		planWantPublished(t, r.publish(t, planTest, ledgertest.SignXDR(held, pass, acc.Master)), heldHash)
	})
	// The account double was not asked for refused creations at capacity.
	r.horizon.SetFailing(true)
	planWantErr(t, r.publish(t, planTest, unsigned), http.StatusBadRequest, "CAPACITY")
}

func TestPlanPublishCapacity500(t *testing.T) {
	r := planStart(t, 0) // the production 500
	pass := planPass(planTest)
	const n = 500
	accs := make([]ledgertest.Account, n+1)
	xs := make([]string, n+1)
	hashes := make([][32]byte, n+1)
	for i := range accs {
		accs[i] = planAccount(r, 0)
		xs[i], hashes[i] = ledgertest.BuildClose(accs[i].Master, planDest, 1, 0, pass, accs[i].Master)
	}
	// 499 publishes in parallel (4 workers), then the 500th and 501st in turn.
	var wg sync.WaitGroup
	errs := make(chan string, n)
	next := make(chan int)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				body := jsonBody(t, map[string]string{"network": planTest, "xdr": xs[i]})
				res, err := http.Post(r.url+"/api/plan", "application/json", strings.NewReader(body))
				if err != nil {
					errs <- err.Error()
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					errs <- res.Status
				}
			}
		}()
	}
	for i := range n - 1 {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatalf("publish before capacity: %s", e)
	}
	if open, err := r.plans.Open(context.Background()); err != nil || open != n-1 {
		t.Fatalf("open = %d, %v; want %d", open, err, n-1)
	}
	planWantPublished(t, r.publish(t, planTest, xs[n-1]), hashes[n-1])
	planWantErr(t, r.publish(t, planTest, xs[n]), http.StatusBadRequest, "CAPACITY")
	if open, _ := r.plans.Open(context.Background()); open != n {
		t.Fatalf("open = %d, want %d", open, n)
	}
	// A plan already held still merges at capacity.
	planWantPublished(t, r.publish(t, planTest, xs[0]), hashes[0])
}

func TestPlanPayloadTooLarge(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	acc := planAccount(r, 1)
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, acc.Keys[0])
	id := planWantPublished(t, r.publish(t, planTest, x), hash)

	big := `{"network":"testnet","xdr":"` + strings.Repeat("A", httpapi.MaxBodyBytes) + `"}`
	for _, path := range []string{"/api/plan", "/api/plan/" + id + "/sign"} {
		t.Run(path+" Content-Length", func(t *testing.T) {
			planWantErr(t, send(t, http.DefaultClient, http.MethodPost, r.url+path, strings.NewReader(big), nil),
				http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
		})
		t.Run(path+" chunked", func(t *testing.T) {
			// A reader of unknown length goes chunked.
			body := io.MultiReader(strings.NewReader(big))
			planWantErr(t, send(t, http.DefaultClient, http.MethodPost, r.url+path, body, nil),
				http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
		})
		t.Run(path+" exactly 16384 bytes", func(t *testing.T) {
			body := `{"network":"testnet","xdr":""}`
			body += strings.Repeat(" ", httpapi.MaxBodyBytes-len(body))
			planWantErr(t, send(t, http.DefaultClient, http.MethodPost, r.url+path, strings.NewReader(body), nil),
				http.StatusBadRequest, "BAD_XDR")
			planWantErr(t, send(t, http.DefaultClient, http.MethodPost, r.url+path, io.MultiReader(strings.NewReader(body)), nil),
				http.StatusBadRequest, "BAD_XDR")
		})
	}
}

func TestPlanGet(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planMain)
	acc := planAccount(r, 1)
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, acc.Keys[0])
	id := planWantPublished(t, r.publish(t, planMain, x), hash)

	network, stored := planWantPlan(t, r.get(t, id))
	if network != planMain {
		t.Fatalf("network = %q, want mainnet", network)
	}
	if stored != x {
		t.Fatalf("stored xdr differs from the published canonical envelope")
	}
	t.Run("uppercase id", func(t *testing.T) {
		n, up := planWantPlan(t, r.get(t, strings.ToUpper(id)))
		if n != planMain || up != stored {
			t.Fatalf("uppercase lookup answered another plan")
		}
	})
	t.Run("mixed-case id", func(t *testing.T) {
		planWantPlan(t, r.get(t, strings.ToUpper(id[:32])+id[32:]))
	})
	for name, bad := range map[string]string{
		"unknown id": strings.Repeat("ab", 32),
		"short id":   id[:63],
		"long id":    id + "0",
		"non-hex id": strings.Repeat("z", 64),
		"g in id":    id[:63] + "g",
	} {
		t.Run(name, func(t *testing.T) {
			planWantErr(t, r.get(t, bad), http.StatusNotFound, "NOT_FOUND")
		})
	}
}

func TestPlanSign(t *testing.T) { eachLedgerAPI(t, testPlanSign) }

func testPlanSign(t *testing.T, api string) {
	r := planStartAPI(t, 0, api)
	pass := planPass(planTest)
	acc := planAccount(r, 2)
	base, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass)
	id := planWantPublished(t, r.publish(t, planTest, ledgertest.SignXDR(base, pass, acc.Keys[0])), hash)

	s := planWantSigned(t, r.sign(t, id, ledgertest.SignXDR(base, pass, acc.Keys[1])))
	if s.network != planTest {
		t.Fatalf("network = %q", s.network)
	}
	want := []string{acc.Keys[0].Address(), acc.Keys[1].Address()}
	if strings.Join(s.signers, ",") != strings.Join(want, ",") {
		t.Fatalf("signers = %v, want %v (envelope order)", s.signers, want)
	}
	if len(planSigs(t, s.xdr)) != 2 {
		t.Fatalf("merged envelope does not carry 2 signatures")
	}
	if _, got := planWantPlan(t, r.get(t, id)); got != s.xdr {
		t.Fatalf("GET does not answer the merged envelope")
	}
	// Uppercase id in the sign path; a signer already present changes nothing.
	again := planWantSigned(t, r.sign(t, strings.ToUpper(id), ledgertest.SignXDR(base, pass, acc.Keys[1])))
	if again.xdr != s.xdr {
		t.Fatalf("a repeated signature changed the envelope")
	}
	// A partial with no signature at all merges nothing and succeeds.
	if none := planWantSigned(t, r.sign(t, id, base)); none.xdr != s.xdr {
		t.Fatalf("an unsigned partial changed the envelope")
	}

	other, _ := ledgertest.BuildClose(acc.Master, planDest, 2, 0, pass, acc.Keys[1])
	unknownID := strings.Repeat("cd", 32)
	t.Run("unknown id", func(t *testing.T) {
		for _, body := range []string{``, `nope`, `{}`, `{"xdr":""}`, jsonBody(t, map[string]string{"xdr": ledgertest.SignXDR(base, pass, acc.Master)})} {
			planWantErr(t, planPostRaw(t, r.url+"/api/plan/"+unknownID+"/sign", body), http.StatusNotFound, "NOT_FOUND")
			planWantErr(t, planPostRaw(t, r.url+"/api/plan/"+id[:10]+"/sign", body), http.StatusNotFound, "NOT_FOUND")
		}
	})

	cases := []struct {
		name string
		body string
		code string
	}{
		{"not JSON", `{"xdr":`, "BAD_XDR"},
		{"empty body", ``, "BAD_XDR"},
		{"array", `["` + base + `"]`, "BAD_XDR"},
		{"string", `"` + base + `"`, "BAD_XDR"},
		{"null", `null`, "BAD_XDR"},
		{"missing xdr", `{}`, "BAD_XDR"},
		{"xdr number", `{"xdr":1}`, "BAD_XDR"},
		{"xdr object", `{"xdr":{}}`, "BAD_XDR"},
		{"xdr empty", `{"xdr":""}`, "BAD_XDR"},
		{"xdr 12001 chars", jsonBody(t, map[string]string{"xdr": strings.Repeat("A", 12001)}), "BAD_XDR"},
		{"undecodable", `{"xdr":"not an envelope"}`, "BAD_XDR"},
		{"truncated", jsonBody(t, map[string]string{"xdr": base[:len(base)/2]}), "BAD_XDR"},
		{"12000 chars undecodable", jsonBody(t, map[string]string{"xdr": strings.Repeat("A", 12000)}), "BAD_XDR"},
		{"partial of another tx", jsonBody(t, map[string]string{"xdr": other}), "REJECTED"},
		{"fee-bump partial", jsonBody(t, map[string]string{"xdr": ledgertest.FeeBump(ledgertest.SignXDR(base, pass, acc.Master), acc.Master, pass)}), "REJECTED"},
		{"non-signer signature", jsonBody(t, map[string]string{"xdr": ledgertest.SignXDR(base, pass, keypair.MustRandom())}), "REJECTED"},
		{"signer plus non-signer", jsonBody(t, map[string]string{"xdr": ledgertest.SignXDR(base, pass, acc.Master, keypair.MustRandom())}), "REJECTED"},
		{"signature under another network", jsonBody(t, map[string]string{"xdr": ledgertest.SignXDR(base, planPass(planMain), acc.Master)}), "REJECTED"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			planWantErr(t, planPostRaw(t, r.url+"/api/plan/"+id+"/sign", tc.body), http.StatusBadRequest, tc.code)
		})
	}
	if _, got := planWantPlan(t, r.get(t, id)); got != s.xdr {
		t.Fatalf("a refused sign changed the plan")
	}
	// Guard 6's read went through the API under test.
	if n := r.horizon.Handler().RPCCalls("getLedgerEntries"); (api == "rpc") != (n > 0) {
		t.Errorf("under %s, %d getLedgerEntries calls", api, n)
	}
}

func TestPlanSignNetworkFromStoredPlan(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planMain)
	acc := planAccount(r, 1)
	base, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass)
	id := planWantPublished(t, r.publish(t, planMain, ledgertest.SignXDR(base, pass, acc.Keys[0])), hash)
	// The body's network is ignored: only xdr is read.
	body := jsonBody(t, map[string]string{"xdr": ledgertest.SignXDR(base, pass, acc.Master), "network": planTest})
	s := planWantSigned(t, planPostRaw(t, r.url+"/api/plan/"+id+"/sign", body))
	if s.network != planMain {
		t.Fatalf("network = %q, want mainnet", s.network)
	}
	if len(s.signers) != 2 || s.signers[1] != acc.Master.Address() {
		t.Fatalf("signers = %v", s.signers)
	}
	// A testnet signature of the same transaction does not verify.
	planWantErr(t, r.sign(t, id, ledgertest.SignXDR(base, planPass(planTest), acc.Keys[0])), http.StatusBadRequest, "REJECTED")
}

func TestPlanAdmissionForgedHint(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	acc := planAccount(r, 2)
	base, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass)
	forged := [4]byte{0xde, 0xad, 0xbe, 0xef}

	// At publish: stored under the real hint.
	id := planWantPublished(t, r.publish(t, planTest, ledgertest.SignXDRWithHint(base, pass, acc.Keys[0], forged)), hash)
	_, stored := planWantPlan(t, r.get(t, id))
	sig, n := planSigBy(t, planSigs(t, stored), hash, acc.Keys[0])
	if n != 1 || sig.Hint != xdr.SignatureHint(acc.Keys[0].Hint()) {
		t.Fatalf("publish: %d signatures by the signer, hint %x; want 1 with hint %x", n, sig.Hint, acc.Keys[0].Hint())
	}

	// At sign: under another signer's hint.
	s := planWantSigned(t, r.sign(t, id, ledgertest.SignXDRWithHint(base, pass, acc.Keys[1], acc.Keys[0].Hint())))
	sig, n = planSigBy(t, planSigs(t, s.xdr), hash, acc.Keys[1])
	if n != 1 || sig.Hint != xdr.SignatureHint(acc.Keys[1].Hint()) {
		t.Fatalf("sign: %d signatures by the signer, hint %x; want 1 with hint %x", n, sig.Hint, acc.Keys[1].Hint())
	}
	if s.signers[1] != acc.Keys[1].Address() {
		t.Fatalf("signers = %v", s.signers)
	}
	for _, ds := range planSigs(t, s.xdr) {
		if ds.Hint == xdr.SignatureHint(forged) {
			t.Fatalf("a forged hint was stored")
		}
	}
}

func TestPlanAdmissionOneSignatureFiveHints(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	acc := planAccount(r, 2)
	base, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass)
	hints := [][4]byte{{1, 1, 1, 1}, {2, 2, 2, 2}, acc.Keys[0].Hint(), acc.Master.Hint(), {5, 5, 5, 5}}
	replay := func(kp *keypair.Full) string {
		sigs := make([]xdr.DecoratedSignature, len(hints))
		for i, h := range hints {
			sigs[i] = ledgertest.ForgedSignature(hash, kp, h)
		}
		return ledgertest.AppendSignatures(base, sigs...)
	}
	// Publish: five copies of one signature become one.
	id := planWantPublished(t, r.publish(t, planTest, replay(acc.Keys[0])), hash)
	_, stored := planWantPlan(t, r.get(t, id))
	if got := len(planSigs(t, stored)); got != 1 {
		t.Fatalf("publish stored %d signatures, want 1", got)
	}
	// Sign: the same.
	s := planWantSigned(t, r.sign(t, id, replay(acc.Keys[1])))
	if got := len(planSigs(t, s.xdr)); got != 2 || len(s.signers) != 2 {
		t.Fatalf("sign stored %d signatures (signers %v), want 2", got, s.signers)
	}
	if _, n := planSigBy(t, planSigs(t, s.xdr), hash, acc.Keys[1]); n != 1 {
		t.Fatalf("signature by the signer stored %d times, want 1", n)
	}
	// Replaying it again changes nothing.
	if again := planWantSigned(t, r.sign(t, id, replay(acc.Keys[1]))); again.xdr != s.xdr {
		t.Fatalf("a replayed signature changed the envelope")
	}
}

func TestPlanAdmissionSignatureCap(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	acc := planAccount(r, 20) // 21 signers: 20 extra and the master
	base, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass)
	id := planWantPublished(t, r.publish(t, planTest, ledgertest.SignXDR(base, pass, acc.Keys[:5]...)), hash)
	// Up to 20 signatures: one partial of 10, then single ones.
	s := planWantSigned(t, r.sign(t, id, ledgertest.SignXDR(base, pass, acc.Keys[5:15]...)))
	if len(s.signers) != 15 {
		t.Fatalf("signers = %d, want 15", len(s.signers))
	}
	for i := 15; i < 20; i++ {
		s = planWantSigned(t, r.sign(t, id, ledgertest.SignXDR(base, pass, acc.Keys[i])))
	}
	if len(s.signers) != 20 || len(planSigs(t, s.xdr)) != 20 {
		t.Fatalf("signers = %d, want 20", len(s.signers))
	}
	// The 21st is REJECTED, alone or with signers already present.
	planWantErr(t, r.sign(t, id, ledgertest.SignXDR(base, pass, acc.Keys[20])), http.StatusBadRequest, "REJECTED")
	planWantErr(t, r.sign(t, id, ledgertest.SignXDR(base, pass, acc.Keys[0], acc.Keys[20])), http.StatusBadRequest, "REJECTED")
	planWantErr(t, r.publish(t, planTest, ledgertest.SignXDR(base, pass, acc.Keys[20])), http.StatusBadRequest, "REJECTED")
	// A signer already present still succeeds at the cap.
	planWantSigned(t, r.sign(t, id, ledgertest.SignXDR(base, pass, acc.Keys[3])))
	_, stored := planWantPlan(t, r.get(t, id))
	if stored != s.xdr {
		t.Fatalf("the plan changed at the cap")
	}
}

func TestPlanSignerSetReadAtPublish(t *testing.T) { eachLedgerAPI(t, testPlanSignerSetReadAtPublish) }

func testPlanSignerSetReadAtPublish(t *testing.T, api string) {
	r := planStartAPI(t, 0, api)
	pass := planPass(planTest)
	acc := planAccount(r, 2)
	base, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass)
	id := planWantPublished(t, r.publish(t, planTest, ledgertest.SignXDR(base, pass, acc.Keys[0])), hash)

	// The account now has a different signer set: Keys[1] removed, a newcomer added.
	newcomer := keypair.MustRandom()
	altered := ledgertest.NewAccount(0, 1)
	altered.Signers[0].Key = newcomer.Address()
	r.horizon.SetAccount(acc.Address, altered.Signers, altered.Thresholds)

	planWantErr(t, r.sign(t, id, ledgertest.SignXDR(base, pass, newcomer)), http.StatusBadRequest, "REJECTED")
	s := planWantSigned(t, r.sign(t, id, ledgertest.SignXDR(base, pass, acc.Keys[1])))
	if len(s.signers) != 2 {
		t.Fatalf("signers = %v", s.signers)
	}
	// Gone from the account API altogether: signing still works.
	r.horizon.Remove(acc.Address)
	r.horizon.SetFailing(true)
	s = planWantSigned(t, r.sign(t, id, ledgertest.SignXDR(base, pass, acc.Master)))
	if len(s.signers) != 3 {
		t.Fatalf("signers = %v", s.signers)
	}
	planWantErr(t, r.publish(t, planTest, ledgertest.SignXDR(base, pass, newcomer)), http.StatusBadRequest, "REJECTED")
}

func TestPlanConcurrentPublishSameID(t *testing.T) {
	r := planStart(t, 0)
	pass := planPass(planTest)
	for round := range 10 {
		acc := planAccount(r, 2)
		base, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass)
		bodies := []string{ledgertest.SignXDR(base, pass, acc.Keys[0]), ledgertest.SignXDR(base, pass, acc.Keys[1])}
		results := make([]response, len(bodies))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i, x := range bodies {
			body := jsonBody(t, map[string]string{"network": planTest, "xdr": x})
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				res, err := http.Post(r.url+"/api/plan", "application/json", bytes.NewReader([]byte(body)))
				if err != nil {
					results[i] = response{status: -1, body: []byte(err.Error())}
					return
				}
				defer res.Body.Close()
				raw, _ := io.ReadAll(res.Body)
				results[i] = response{status: res.StatusCode, header: res.Header, body: raw}
			}()
		}
		close(start)
		wg.Wait()
		var id string
		for _, res := range results {
			id = planWantPublished(t, res, hash)
		}
		if open, err := r.plans.Open(context.Background()); err != nil || open != round+1 {
			t.Fatalf("round %d: open plans = %d, %v; want %d", round, open, err, round+1)
		}
		_, stored := planWantPlan(t, r.get(t, id))
		sigs := planSigs(t, stored)
		if len(sigs) != 2 {
			t.Fatalf("round %d: stored signatures = %d, want both publishes merged (2)", round, len(sigs))
		}
	}
}

// TestPlanPublishRPCFaults: under Stellar RPC, a getLedgerEntries that
// hangs past HORIZON_TIMEOUT or answers 500 is ACCOUNT_UNREACHABLE at guard
// 6, as Horizon's are (CONTRACT section 15).
func TestPlanPublishRPCFaults(t *testing.T) {
	r := planStartAPI(t, 0, "rpc")
	pass := planPass(planTest)
	acc := planAccount(r, 0)
	x, hash := ledgertest.BuildClose(acc.Master, planDest, 1, 0, pass, acc.Master)
	for _, status := range []int{http.StatusInternalServerError, 0} {
		r.horizon.Handler().FailRPC("getLedgerEntries", 1, status)
		planWantErr(t, r.publish(t, planTest, x), http.StatusBadRequest, "ACCOUNT_UNREACHABLE")
	}
	planWantPublished(t, r.publish(t, planTest, x), hash)
}
