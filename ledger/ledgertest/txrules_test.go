package ledgertest_test

// The transaction-level rules of stellar-core's TransactionFrame.cpp that
// the double once let through: ledger bounds, min_seq_age and
// min_seq_ledger_gap, txMALFORMED's shapes, and the one-time (pre-auth)
// signer's removal. Every case goes through a real loopback listener
// (ledgertest.New) and the SDK's Horizon client.

import (
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/clients/horizonclient"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// txRig is a double on loopback with one funded sender (master weight 1,
// every threshold 1) and a funded receiver.
type txRig struct {
	srv  *ledgertest.Server
	hc   *horizonclient.Client
	from ledgertest.Account
	to   string
}

func newTxRig(t *testing.T, seed int) *txRig {
	t.Helper()
	srv := ledgertest.New()
	t.Cleanup(srv.Close)
	r := &txRig{srv: srv, hc: &horizonclient.Client{HorizonURL: srv.URL},
		from: ledgertest.DeterministicAccount(seed, 0, 1), to: ledgertest.Keypair(seed*100 + 50).Address()}
	srv.AddAccount(r.from)
	srv.Fund(r.to, 100*xlm)
	return r
}

// tx is an unsigned payment of 1 XLM from the sender at its next sequence
// number plus skip, edited by edit.
func (r *txRig) tx(t *testing.T, skip int64, edit func(*xdr.TransactionEnvelope)) string {
	t.Helper()
	seq, _ := r.srv.Handler().Sequence(r.from.Address)
	b64, _ := ledgertest.BuildTx(r.from.Address, seq+1+skip, 0, pass,
		[]txnbuild.Operation{&txnbuild.Payment{Destination: r.to, Amount: "1", Asset: txnbuild.NativeAsset{}}})
	if edit != nil {
		b64 = mutate(t, b64, edit)
	}
	return b64
}

// v2 makes env's preconditions V2, keeping its time bounds, edited by f.
func v2(f func(*xdr.PreconditionsV2)) func(*xdr.TransactionEnvelope) {
	return func(env *xdr.TransactionEnvelope) {
		p := &xdr.PreconditionsV2{TimeBounds: env.V1.Tx.Cond.TimeBounds}
		f(p)
		env.V1.Tx.Cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: p}
	}
}

// refused submits b64, wants Horizon's 400 transaction_failed with code, and
// wants the sender's sequence number and balance untouched.
func (r *txRig) refused(t *testing.T, b64, code string, ops ...string) {
	t.Helper()
	seq, _ := r.srv.Handler().Sequence(r.from.Address)
	bal, _ := r.srv.Balance(r.from.Address)
	_, err := r.hc.SubmitTransactionXDR(b64)
	wantRefusal(t, err, b64, code, ops...)
	seq2, _ := r.srv.Handler().Sequence(r.from.Address)
	bal2, _ := r.srv.Balance(r.from.Address)
	if seq2 != seq || bal2 != bal {
		t.Errorf("%s changed the sender: sequence %d -> %d, balance %d -> %d", code, seq, seq2, bal, bal2)
	}
}

func (r *txRig) applied(t *testing.T, b64 string) {
	t.Helper()
	if _, err := r.hc.SubmitTransactionXDR(b64); err != nil {
		t.Fatalf("submit: %v", err)
	}
}

// TestTxLedgerBounds: a V2 precondition's ledger bounds are checked against
// the ledger the transaction would close in (TransactionFrame.cpp isTooEarly,
// isTooLate): min_ledger after it is tx_too_early, max_ledger at or before
// it tx_too_late, max_ledger 0 no bound.
func TestTxLedgerBounds(t *testing.T) {
	r := newTxRig(t, 310)
	sign := func(b64 string) string { return ledgertest.SignXDR(b64, pass, r.from.Master) }
	bounds := func(lo, hi uint32) func(*xdr.TransactionEnvelope) {
		return v2(func(p *xdr.PreconditionsV2) {
			p.LedgerBounds = &xdr.LedgerBounds{MinLedger: xdr.Uint32(lo), MaxLedger: xdr.Uint32(hi)}
		})
	}
	// The double's next ledger is 2.
	r.refused(t, sign(r.tx(t, 0, bounds(3, 0))), "tx_too_early")
	r.refused(t, sign(r.tx(t, 0, bounds(0, 2))), "tx_too_late")
	r.refused(t, sign(r.tx(t, 0, bounds(1, 1))), "tx_too_late")
	// isTooEarly is checked first: both bounds out, too early.
	r.refused(t, sign(r.tx(t, 0, bounds(5, 2))), "tx_too_early")
	r.applied(t, sign(r.tx(t, 0, bounds(2, 3)))) // closes ledger 2
	r.refused(t, sign(r.tx(t, 0, bounds(0, 3))), "tx_too_late")
	r.applied(t, sign(r.tx(t, 0, bounds(3, 0))))
}

// TestTxMinSeqAgeAndGap: min_seq_age and min_seq_ledger_gap are measured
// from the ledger and close time at which the source's sequence number last
// changed (TransactionFrame.cpp isTooEarlyForAccount; TransactionUtils.cpp
// maybeUpdateAccountOnLedgerSeqUpdate), tx_bad_minseq_age_or_gap; the
// account API shows them as sequence_ledger and sequence_time.
func TestTxMinSeqAgeAndGap(t *testing.T) {
	r := newTxRig(t, 311)
	t0 := time.Unix(1_900_000_000, 0)
	now := t0
	r.srv.Handler().SetClock(func() time.Time { return now })
	sign := func(b64 string) string { return ledgertest.SignXDR(b64, pass, r.from.Master) }
	age := func(s uint64) func(*xdr.TransactionEnvelope) {
		return v2(func(p *xdr.PreconditionsV2) { p.MinSeqAge = xdr.Duration(s) })
	}
	gap := func(n uint32) func(*xdr.TransactionEnvelope) {
		return v2(func(p *xdr.PreconditionsV2) { p.MinSeqLedgerGap = xdr.Uint32(n) })
	}

	// An account whose number never changed: measured from 0.
	r.refused(t, sign(r.tx(t, 0, age(uint64(t0.Unix())+1))), "tx_bad_minseq_age_or_gap")
	r.refused(t, sign(r.tx(t, 0, gap(3))), "tx_bad_minseq_age_or_gap") // ledger 2 - 3 < 0
	r.applied(t, sign(r.tx(t, 0, age(60))))                            // ledger 2, at t0
	acc, err := r.hc.AccountDetail(horizonclient.AccountRequest{AccountID: r.from.Address})
	if err != nil || acc.SequenceLedger != 2 || acc.SequenceTime != "1900000000" {
		t.Fatalf("sequence_ledger %d, sequence_time %q (%v); want 2 and 1900000000", acc.SequenceLedger, acc.SequenceTime, err)
	}

	now = t0.Add(59 * time.Second)
	r.refused(t, sign(r.tx(t, 0, age(60))), "tx_bad_minseq_age_or_gap")
	now = t0.Add(60 * time.Second)
	r.applied(t, sign(r.tx(t, 0, age(60)))) // ledger 3

	// Ledger 4 is next: a gap of 2 needs the number unchanged since ledger 2.
	r.refused(t, sign(r.tx(t, 0, gap(2))), "tx_bad_minseq_age_or_gap")
	other := ledgertest.DeterministicAccount(312, 0, 1)
	r.srv.AddAccount(other)
	b64, _ := ledgertest.BuildPayment(other.Master, r.to, 1<<32+1, pass, other.Master)
	r.applied(t, b64) // ledger 4, another account's
	r.applied(t, sign(r.tx(t, 0, gap(2))))
}

// TestTxMalformed: commonValidPreSeqNum's txMALFORMED (TransactionFrame.cpp):
// two equal extra signers, a signed-payload extra signer with no payload,
// Soroban operations mixed with classic ones, a classic transaction with
// Soroban data; the extra signers' check comes before tx_missing_operation.
func TestTxMalformed(t *testing.T) {
	r := newTxRig(t, 313)
	kp := r.from.Master
	self := xdr.MustSigner(kp.Address())
	sigOf := func(msg []byte) xdr.DecoratedSignature {
		s, err := kp.Sign(msg)
		if err != nil {
			t.Fatal(err)
		}
		return xdr.DecoratedSignature{Hint: xdr.SignatureHint(kp.Hint()), Signature: s}
	}

	// The same key twice, signed twice: each extra signer would find its
	// signature.
	dup := ledgertest.SignXDR(r.tx(t, 0, v2(func(p *xdr.PreconditionsV2) { p.ExtraSigners = []xdr.SignerKey{self, self} })), pass, kp, kp)
	r.refused(t, dup, "tx_malformed")

	empty := xdr.SignerKey{Type: xdr.SignerKeyTypeSignerKeyTypeEd25519SignedPayload,
		Ed25519SignedPayload: &xdr.SignerKeyEd25519SignedPayload{Ed25519: *self.Ed25519}}
	b64 := r.tx(t, 0, v2(func(p *xdr.PreconditionsV2) { p.ExtraSigners = []xdr.SignerKey{empty} }))
	b64 = ledgertest.SignXDR(b64, pass, kp)
	b64 = mutate(t, b64, func(env *xdr.TransactionEnvelope) { env.V1.Signatures = append(env.V1.Signatures, sigOf(nil)) })
	r.refused(t, b64, "tx_malformed")

	noOps := ledgertest.SignXDR(r.tx(t, 0, func(env *xdr.TransactionEnvelope) {
		v2(func(p *xdr.PreconditionsV2) { p.ExtraSigners = []xdr.SignerKey{self, self} })(env)
		env.V1.Tx.Operations = nil
	}), pass, kp, kp)
	r.refused(t, noOps, "tx_malformed")

	mixed := ledgertest.SignXDR(r.tx(t, 0, func(env *xdr.TransactionEnvelope) {
		env.V1.Tx.Operations = append(env.V1.Tx.Operations, xdr.Operation{Body: xdr.OperationBody{
			Type: xdr.OperationTypeRestoreFootprint, RestoreFootprintOp: &xdr.RestoreFootprintOp{}}})
		env.V1.Tx.Fee = 200
	}), pass, kp)
	r.refused(t, mixed, "tx_malformed")

	sorobanData := ledgertest.SignXDR(r.tx(t, 0, func(env *xdr.TransactionEnvelope) {
		env.V1.Tx.Ext = xdr.TransactionExt{V: 1, SorobanData: &xdr.SorobanTransactionData{}}
	}), pass, kp)
	r.refused(t, sorobanData, "tx_malformed")

	r.applied(t, ledgertest.SignXDR(r.tx(t, 0, nil), pass, kp))
}

// TestTxOneTimeSignerRemoved: applying a transaction removes the pre-auth-tx
// signer of its hash from its source account (TransactionFrame.cpp
// removeOneTimeSignerFromAllSourceAccounts), before the operations run:
// the removal stays when they fail (tx_failed), and the reserve it held is
// released.
func TestTxOneTimeSignerRemoved(t *testing.T) {
	for _, fail := range []bool{false, true} {
		r := newTxRig(t, 314)
		kp := r.from.Master
		dest := r.to
		if fail {
			dest = keypair.MustRandom().Address() // op_no_destination
		}
		seq, _ := r.srv.Handler().Sequence(r.from.Address)
		later, _ := ledgertest.BuildTx(r.from.Address, seq+2, 0, pass,
			[]txnbuild.Operation{&txnbuild.Payment{Destination: dest, Amount: "1", Asset: txnbuild.NativeAsset{}}})
		env, err := ledger.DecodeEnvelope(later)
		if err != nil {
			t.Fatal(err)
		}
		hash, err := ledger.HashEnvelope(env, pass)
		if err != nil {
			t.Fatal(err)
		}
		preAuth, err := strkey.Encode(strkey.VersionByteHashTx, hash[:])
		if err != nil {
			t.Fatal(err)
		}
		add, _ := ledgertest.BuildTx(r.from.Address, seq+1, 0, pass,
			[]txnbuild.Operation{&txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: preAuth, Weight: 1}}}, kp)
		r.applied(t, add)
		if acc, _ := r.srv.AccountState(r.from.Address); acc.SubentryCount != 1 {
			t.Fatalf("after set_options: %d sub-entries, want the pre-auth signer", acc.SubentryCount)
		}

		_, err = r.hc.SubmitTransactionXDR(ledgertest.SignXDR(later, pass, kp))
		if fail {
			wantRefusal(t, err, ledgertest.SignXDR(later, pass, kp), "tx_failed", "op_no_destination")
		} else if err != nil {
			t.Fatalf("submit: %v", err)
		}
		acc, _ := r.srv.AccountState(r.from.Address)
		for _, s := range acc.Signers {
			if s.Key == preAuth {
				t.Errorf("fail=%v: the pre-auth signer of the applied transaction is still there", fail)
			}
		}
		if acc.SubentryCount != 0 {
			t.Errorf("fail=%v: %d sub-entries after the one-time signer was used, want 0", fail, acc.SubentryCount)
		}
	}
}

// TestTxUnmodelledSignersRefuse: the double matches no signature to an
// account's hash-x, pre-auth-tx or signed-payload signer (ledger.AccountAuth
// carries ed25519 signers only). Where core would let such a signer
// authorize, the double refuses (tx_bad_auth, or tx_bad_auth_extra for a
// signature only such a signer would use); it never accepts what core
// refuses.
func TestTxUnmodelledSignersRefuse(t *testing.T) {
	r := newTxRig(t, 315)
	kp := r.from.Master
	preimage := []byte("closerelay audit preimage")
	digest := sha256.Sum256(preimage)
	hashX, err := strkey.Encode(strkey.VersionByteHashX, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	seq, _ := r.srv.Handler().Sequence(r.from.Address)
	preAuthed, _ := ledgertest.BuildTx(r.from.Address, seq+2, 0, pass,
		[]txnbuild.Operation{&txnbuild.Payment{Destination: r.to, Amount: "1", Asset: txnbuild.NativeAsset{}}})
	env, err := ledger.DecodeEnvelope(preAuthed)
	if err != nil {
		t.Fatal(err)
	}
	hash, err := ledger.HashEnvelope(env, pass)
	if err != nil {
		t.Fatal(err)
	}
	preAuth, err := strkey.Encode(strkey.VersionByteHashTx, hash[:])
	if err != nil {
		t.Fatal(err)
	}
	add, _ := ledgertest.BuildTx(r.from.Address, seq+1, 0, pass, []txnbuild.Operation{
		&txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: hashX, Weight: 1}},
		&txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: preAuth, Weight: 1}},
	}, kp)
	r.applied(t, add)

	// Core: the pre-auth signer authorizes this transaction unsigned.
	r.refused(t, preAuthed, "tx_bad_auth")
	// Core: the preimage authorizes it (hash-x signer, weight 1).
	withPreimage := mutate(t, r.tx(t, 0, nil), func(env *xdr.TransactionEnvelope) {
		env.V1.Signatures = append(env.V1.Signatures, xdr.DecoratedSignature{Hint: xdr.SignatureHint(digest[28:]), Signature: preimage})
	})
	r.refused(t, withPreimage, "tx_bad_auth")
	// Core: both signatures used; the double leaves the preimage unused.
	r.refused(t, ledgertest.SignXDR(withPreimage, pass, kp), "tx_bad_auth_extra")
}

// TestTxSignatureRules: the signature checks as core makes them
// (SignatureChecker.cpp; TransactionFrame.cpp checkAllTransactionSignatures,
// checkSignature; OperationFrame.cpp checkSignature and each frame's
// getThresholdLevel): the source at its low threshold (else tx_bad_auth),
// each operation's source at its level (else tx_failed with op_bad_auth,
// nothing charged), a master key of weight 0 counting for nothing, an
// unused signature tx_bad_auth_extra, an explicit operation source that does
// not exist checked against its own key and then op_no_source_account when
// applied (the fee charged, the sequence number consumed).
func TestTxSignatureRules(t *testing.T) {
	r := newTxRig(t, 316)
	// acct: signer weight 2, master 1; thresholds low 1, medium 2, high 3.
	acct := ledgertest.DeterministicAccount(317, 1, 1)
	acct.Signers[0].Weight = 2
	acct.Thresholds = horizon.AccountThresholds{LowThreshold: 1, MedThreshold: 2, HighThreshold: 3}
	signer, master := acct.Keys[0], acct.Keys[1]
	r.srv.AddAccount(acct)
	// zero: master weight 0, one signer of weight 1, thresholds 0.
	zero := ledgertest.DeterministicAccount(318, 1, 1)
	zero.Signers[1].Weight = 0
	zero.Thresholds = horizon.AccountThresholds{}
	r.srv.AddAccount(zero)
	ghost := ledgertest.Keypair(31999)

	pay := func(src string) txnbuild.Operation {
		return &txnbuild.Payment{Destination: r.to, Amount: "1", Asset: txnbuild.NativeAsset{}, SourceAccount: src}
	}
	stranger := ledgertest.Keypair(31998).Address()
	cases := []struct {
		name    string
		from    ledgertest.Account
		ops     []txnbuild.Operation
		keys    []*keypair.Full
		code    string
		opc     []string
		charged bool
	}{
		{"no signature: tx_bad_auth", acct, []txnbuild.Operation{&txnbuild.BumpSequence{}}, nil, "tx_bad_auth", nil, false},
		{"bump_sequence is low", acct, []txnbuild.Operation{&txnbuild.BumpSequence{}}, []*keypair.Full{master}, "", nil, true},
		{"payment is medium", acct, []txnbuild.Operation{pay("")}, []*keypair.Full{master}, "tx_failed", []string{"op_bad_auth"}, false},
		{"payment at medium", acct, []txnbuild.Operation{pay("")}, []*keypair.Full{signer}, "", nil, true},
		{"set_options without thresholds or signers is medium", acct,
			[]txnbuild.Operation{&txnbuild.SetOptions{HomeDomain: ptr("example.org")}}, []*keypair.Full{signer}, "", nil, true},
		{"set_options adding a signer is high", acct,
			[]txnbuild.Operation{&txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: stranger, Weight: 1}}}, []*keypair.Full{signer},
			"tx_failed", []string{"op_bad_auth"}, false},
		{"set_options at high", acct,
			[]txnbuild.Operation{&txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: stranger, Weight: 1}}}, []*keypair.Full{signer, master},
			"", nil, true},
		{"account_merge is high", acct, []txnbuild.Operation{&txnbuild.AccountMerge{Destination: r.to}}, []*keypair.Full{signer},
			"tx_failed", []string{"op_bad_auth"}, false},
		{"the second operation's level fails", acct, []txnbuild.Operation{&txnbuild.BumpSequence{}, pay("")}, []*keypair.Full{master},
			"tx_failed", []string{"op_success", "op_bad_auth"}, false},
		{"a stranger's signature: tx_bad_auth_extra", acct, []txnbuild.Operation{pay("")}, []*keypair.Full{signer, ledgertest.Keypair(31998)},
			"tx_bad_auth_extra", nil, false},
		{"a master key of weight 0 signs for nothing", zero, []txnbuild.Operation{pay("")}, []*keypair.Full{zero.Keys[1]}, "tx_bad_auth", nil, false},
		{"nor is its signature used", zero, []txnbuild.Operation{pay("")}, []*keypair.Full{zero.Keys[0], zero.Keys[1]},
			"tx_bad_auth_extra", nil, false},
		{"thresholds 0 still take one signature", zero, []txnbuild.Operation{pay("")}, []*keypair.Full{zero.Keys[0]}, "", nil, true},
		{"an absent explicit source unsigned: op_bad_auth", zero, []txnbuild.Operation{pay(ghost.Address())}, []*keypair.Full{zero.Keys[0]},
			"tx_failed", []string{"op_bad_auth"}, false},
		{"an absent explicit source signed: op_no_source_account when applied", zero, []txnbuild.Operation{pay(ghost.Address())},
			[]*keypair.Full{zero.Keys[0], ghost}, "tx_failed", []string{"op_no_source_account"}, true},
	}
	for _, c := range cases {
		seq, _ := r.srv.Handler().Sequence(c.from.Address)
		bal, _ := r.srv.Balance(c.from.Address)
		b64, _ := ledgertest.BuildTx(c.from.Address, seq+1, 0, pass, c.ops, c.keys...)
		_, err := r.hc.SubmitTransactionXDR(b64)
		if c.code == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
		} else {
			t.Run(c.name, func(t *testing.T) { wantRefusal(t, err, b64, c.code, c.opc...) })
		}
		seq2, _ := r.srv.Handler().Sequence(c.from.Address)
		bal2, _ := r.srv.Balance(c.from.Address)
		fee := int64(100 * len(c.ops))
		switch {
		case c.code == "": // applied: the payments move more than the fee
			if seq2 != seq+1 || bal2 > bal-fee {
				t.Errorf("%s: sequence %d -> %d, balance %d -> %d; want the number consumed and the fee paid", c.name, seq, seq2, bal, bal2)
			}
		case c.charged: // tx_failed when applied: the fee and the number only
			if seq2 != seq+1 || bal2 != bal-fee {
				t.Errorf("%s: sequence %d -> %d, balance %d -> %d; want the number consumed and exactly the fee paid", c.name, seq, seq2, bal, bal2)
			}
			// processFeeSeqNum changed the entry in the ledger that failed.
			if acc, _ := r.srv.AccountState(c.from.Address); acc.LastModifiedLedger == 0 || acc.LastModifiedLedger != acc.SequenceLedger {
				t.Errorf("%s: last_modified_ledger %d, sequence_ledger %d; want the ledger of the failed transaction",
					c.name, acc.LastModifiedLedger, acc.SequenceLedger)
			}
		default: // refused in validation
			if seq2 != seq || bal2 != bal {
				t.Errorf("%s: sequence %d -> %d, balance %d -> %d; want nothing charged", c.name, seq, seq2, bal, bal2)
			}
		}
	}
}

// rpcSend posts a sendTransaction of b64 to the double's Stellar RPC face on
// its listener and returns the result object.
func rpcSend(t *testing.T, url, b64 string) map[string]any {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"sendTransaction","params":{"transaction":"` + b64 + `"}}`
	resp, err := http.Post(url+"/rpc", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result map[string]any `json:"result"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&out) != nil || out.Result == nil {
		t.Fatalf("sendTransaction: status %d, %+v", resp.StatusCode, out)
	}
	return out.Result
}

// TestTxRulesOverRPC: the Stellar RPC face refuses what the Horizon face
// refuses, with an errorResultXdr whose code is the one Horizon spells
// (ledger.TxResultCode), and shows the sequence number's ledger and close
// time in the account entry's extension v3 (getLedgerEntries).
func TestTxRulesOverRPC(t *testing.T) {
	r := newTxRig(t, 319)
	r.srv.Handler().SetClock(func() time.Time { return time.Unix(1_900_000_000, 0) })
	sign := func(b64 string) string { return ledgertest.SignXDR(b64, pass, r.from.Master) }
	for code, edit := range map[string]func(*xdr.TransactionEnvelope){
		"tx_too_late": v2(func(p *xdr.PreconditionsV2) { p.LedgerBounds = &xdr.LedgerBounds{MaxLedger: 2} }),
		"tx_malformed": func(env *xdr.TransactionEnvelope) {
			env.V1.Tx.Ext = xdr.TransactionExt{V: 1, SorobanData: &xdr.SorobanTransactionData{}}
		},
		"tx_bad_minseq_age_or_gap": v2(func(p *xdr.PreconditionsV2) { p.MinSeqLedgerGap = 5 }),
	} {
		res := rpcSend(t, r.srv.URL, sign(r.tx(t, 0, edit)))
		var tr xdr.TransactionResult
		s, _ := res["errorResultXdr"].(string)
		if res["status"] != "ERROR" || xdr.SafeUnmarshalBase64(s, &tr) != nil || ledger.TxResultCode(tr.Result.Code) != code {
			t.Errorf("%s: %v (%s)", code, res, tr.Result.Code)
		}
	}
	if res := rpcSend(t, r.srv.URL, sign(r.tx(t, 0, nil))); res["status"] != "PENDING" {
		t.Fatalf("a valid transaction: %v", res)
	}
	key, err := xdr.LedgerKey{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.LedgerKeyAccount{AccountId: xdr.MustAddress(r.from.Address)}}.MarshalBinaryBase64()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(r.srv.URL+"/rpc", "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"getLedgerEntries","params":{"keys":["`+key+`"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result struct {
			Entries []struct {
				XDR string `json:"xdr"`
			} `json:"entries"`
		} `json:"result"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Result.Entries) != 1 {
		t.Fatalf("getLedgerEntries: %v %+v", err, out)
	}
	var data xdr.LedgerEntryData
	if err := xdr.SafeUnmarshalBase64(out.Result.Entries[0].XDR, &data); err != nil {
		t.Fatal(err)
	}
	ext := data.MustAccount().Ext
	if ext.V1 == nil || ext.V1.Ext.V2 == nil || ext.V1.Ext.V2.Ext.V3 == nil ||
		ext.V1.Ext.V2.Ext.V3.SeqLedger != 2 || ext.V1.Ext.V2.Ext.V3.SeqTime != 1_900_000_000 {
		t.Errorf("account entry extension: %+v", ext)
	}
}
