package ledger_test

import (
	"crypto/ed25519"
	"errors"
	"math/rand"
	"slices"
	"testing"

	"github.com/closerelay/closerelay/ledger"
	"github.com/closerelay/closerelay/ledger/ledgertest"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The helpers of this file are prefixed sc (signature checks) so that they
// stay clear of the package's other test helpers.

const scPass = network.TestNetworkPassphrase

// scPool is a pool of deterministic keys for these tests.
var scPool = func() []*keypair.Full {
	out := make([]*keypair.Full, 48)
	for i := range out {
		out[i] = ledgertest.Keypair(7000 + i)
	}
	return out
}()

func scKey(kp *keypair.Full) ed25519.PublicKey {
	return ed25519.PublicKey(strkey.MustDecode(strkey.VersionByteAccountID, kp.Address()))
}

// scAuth is an account whose signers are kps with weights, at thresholds.
func scAuth(kps []*keypair.Full, weights []int32, th ledger.Thresholds) ledger.AccountAuth {
	a := ledger.AccountAuth{Thresholds: th}
	for i, kp := range kps {
		a.Signers = append(a.Signers, ledger.Signer{Key: scKey(kp), Weight: weights[i]})
	}
	return a
}

// scTx builds an unsigned transaction of source with ops and returns its
// envelope and hash.
func scTx(t testing.TB, source string, ops ...txnbuild.Operation) (xdr.TransactionEnvelope, [32]byte) {
	t.Helper()
	b64, hash := ledgertest.BuildTx(source, 100, 0, scPass, ops)
	env, err := ledger.DecodeEnvelope(b64)
	if err != nil {
		t.Fatal(err)
	}
	return env, hash
}

// scMerge is an ACCOUNT_MERGE of source (the transaction's when "").
func scMerge(source string) txnbuild.Operation {
	return &txnbuild.AccountMerge{Destination: scPool[47].Address(), SourceAccount: source}
}

func scPayment(source string) txnbuild.Operation {
	return &txnbuild.Payment{Destination: scPool[47].Address(), Amount: "1", Asset: txnbuild.NativeAsset{}, SourceAccount: source}
}

// scSigned is env carrying signatures of hash by kps, in that order.
func scSigned(env xdr.TransactionEnvelope, hash [32]byte, kps ...*keypair.Full) xdr.TransactionEnvelope {
	sigs := make([]xdr.DecoratedSignature, len(kps))
	for i, kp := range kps {
		sigs[i] = ledgertest.Signature(hash, kp)
	}
	return ledger.WithSignatures(env, sigs)
}

func scCheck(t testing.TB, env xdr.TransactionEnvelope, hash [32]byte, accounts map[string]ledger.AccountAuth) ledger.SignatureCheck {
	t.Helper()
	res, err := ledger.CheckSignatures(env, hash, accounts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestLevelOf(t *testing.T) {
	one := xdr.Uint32(1)
	home := xdr.String32("example.com")
	op := func(typ xdr.OperationType) xdr.Operation {
		return xdr.Operation{Body: xdr.OperationBody{Type: typ}}
	}
	setOptions := func(so xdr.SetOptionsOp) xdr.Operation {
		return xdr.Operation{Body: xdr.OperationBody{Type: xdr.OperationTypeSetOptions, SetOptionsOp: &so}}
	}
	cases := []struct {
		name string
		op   xdr.Operation
		want ledger.ThresholdLevel
	}{
		{"account merge", op(xdr.OperationTypeAccountMerge), ledger.LevelHigh},
		{"set options: master weight", setOptions(xdr.SetOptionsOp{MasterWeight: &one}), ledger.LevelHigh},
		{"set options: low threshold", setOptions(xdr.SetOptionsOp{LowThreshold: &one}), ledger.LevelHigh},
		{"set options: medium threshold", setOptions(xdr.SetOptionsOp{MedThreshold: &one}), ledger.LevelHigh},
		{"set options: high threshold", setOptions(xdr.SetOptionsOp{HighThreshold: &one}), ledger.LevelHigh},
		{"set options: signer", setOptions(xdr.SetOptionsOp{Signer: &xdr.Signer{Weight: 0}}), ledger.LevelHigh},
		{"set options: home domain", setOptions(xdr.SetOptionsOp{HomeDomain: &home}), ledger.LevelMedium},
		{"set options: flags", setOptions(xdr.SetOptionsOp{SetFlags: &one, ClearFlags: &one}), ledger.LevelMedium},
		{"allow trust", op(xdr.OperationTypeAllowTrust), ledger.LevelLow},
		{"set trust line flags", op(xdr.OperationTypeSetTrustLineFlags), ledger.LevelLow},
		{"bump sequence", op(xdr.OperationTypeBumpSequence), ledger.LevelLow},
		{"claim claimable balance", op(xdr.OperationTypeClaimClaimableBalance), ledger.LevelLow},
		{"inflation", op(xdr.OperationTypeInflation), ledger.LevelLow},
		{"extend footprint ttl", op(xdr.OperationTypeExtendFootprintTtl), ledger.LevelLow},
		{"restore footprint", op(xdr.OperationTypeRestoreFootprint), ledger.LevelLow},
		{"payment", op(xdr.OperationTypePayment), ledger.LevelMedium},
		{"create account", op(xdr.OperationTypeCreateAccount), ledger.LevelMedium},
		{"manage data", op(xdr.OperationTypeManageData), ledger.LevelMedium},
		{"change trust", op(xdr.OperationTypeChangeTrust), ledger.LevelMedium},
		{"create claimable balance", op(xdr.OperationTypeCreateClaimableBalance), ledger.LevelMedium},
		{"clawback", op(xdr.OperationTypeClawback), ledger.LevelMedium},
		{"revoke sponsorship", op(xdr.OperationTypeRevokeSponsorship), ledger.LevelMedium},
		{"invoke host function", op(xdr.OperationTypeInvokeHostFunction), ledger.LevelMedium},
	}
	for _, c := range cases {
		if got := ledger.LevelOf(c.op); got != c.want {
			t.Errorf("%s: level %s, want %s", c.name, got, c.want)
		}
	}
}

func TestCloseThreshold(t *testing.T) {
	acct, payer := scPool[0], scPool[1]
	a := acct.Address()
	muxed := func(env xdr.TransactionEnvelope) xdr.TransactionEnvelope {
		v1 := *env.V1
		v1.Tx.SourceAccount = xdr.MuxedAccount{Type: xdr.CryptoKeyTypeKeyTypeMuxedEd25519,
			Med25519: &xdr.MuxedAccountMed25519{Id: 7, Ed25519: *env.V1.Tx.SourceAccount.Ed25519}}
		env.V1 = &v1
		return env
	}
	envOf := func(source string, ops ...txnbuild.Operation) xdr.TransactionEnvelope {
		env, _ := scTx(t, source, ops...)
		return env
	}
	cases := []struct {
		name string
		env  xdr.TransactionEnvelope
		th   ledger.Thresholds
		want int
	}{
		{"merge: high", envOf(a, scMerge("")), ledger.Thresholds{Low: 1, Medium: 2, High: 3}, 3},
		{"source's low above high", envOf(a, scMerge("")), ledger.Thresholds{Low: 9, Medium: 2, High: 3}, 9},
		{"payment's medium above high", envOf(a, scPayment(""), scMerge("")), ledger.Thresholds{Low: 1, Medium: 10, High: 5}, 10},
		{"fee payer: low not the account's", envOf(payer.Address(), scMerge(a)), ledger.Thresholds{Low: 9, Medium: 2, High: 3}, 3},
		{"fee payer: medium op", envOf(payer.Address(), scPayment(a), scMerge(a)), ledger.Thresholds{Low: 9, Medium: 4, High: 3}, 4},
		{"all zero: at least 1", envOf(a, scMerge("")), ledger.Thresholds{}, 1},
		{"muxed source is the account", muxed(envOf(a, scMerge(""))), ledger.Thresholds{Low: 9, Medium: 2, High: 3}, 9},
		{"bump sequence: low", envOf(payer.Address(), &txnbuild.BumpSequence{SourceAccount: a}), ledger.Thresholds{Low: 6, Medium: 7, High: 8}, 6},
		{"account not named", envOf(payer.Address(), scMerge("")), ledger.Thresholds{Low: 9, Medium: 9, High: 9}, 1},
	}
	for _, c := range cases {
		if got := ledger.CloseThreshold(c.env, a, c.th); got != c.want {
			t.Errorf("%s: threshold %d, want %d", c.name, got, c.want)
		}
	}
}

// TestContractExamples are the examples of CONTRACT section 10.
func TestContractExamples(t *testing.T) {
	t.Run("2-of-3", func(t *testing.T) {
		kps := scPool[0:3] // kps[0] is the master key
		a := kps[0].Address()
		auth := scAuth(kps, []int32{1, 1, 1}, ledger.Thresholds{Low: 1, Medium: 2, High: 2})
		accounts := map[string]ledger.AccountAuth{a: auth}
		env, hash := scTx(t, a, scMerge(""))
		threshold := ledger.CloseThreshold(env, a, auth.Thresholds)
		if threshold != 2 {
			t.Fatalf("threshold %d, want 2", threshold)
		}

		// Signed by all three: the source's check (low, 1) stops after the
		// first signature, the merge's (high, 2) after the second; nothing
		// uses the third.
		all := scCheck(t, scSigned(env, hash, kps...), hash, accounts)
		if all.Code != ledger.TxBadAuthExtra || !slices.Equal(all.Unused(), []int{2}) {
			t.Fatalf("all three: code %q, unused %v; want tx_bad_auth_extra, [2]", all.Code, all.Unused())
		}
		if !all.Source.Passed || all.Source.Weight != 1 || !all.Ops[0].Passed || all.Ops[0].Weight != 2 || all.Ops[0].Needed != 2 {
			t.Fatalf("all three: checks %+v %+v", all.Source, all.Ops[0])
		}

		sel, ok := ledger.SelectReady([]int32{1, 1, 1}, threshold)
		if !ok || !slices.Equal(sel, []int{0, 1}) {
			t.Fatalf("SelectReady = %v, %v; want [0 1]", sel, ok)
		}
		ready := scCheck(t, scSigned(env, hash, kps[sel[0]], kps[sel[1]]), hash, accounts)
		if ready.Code != "" || len(ready.Unused()) != 0 {
			t.Fatalf("ready: code %q, unused %v", ready.Code, ready.Unused())
		}
		one := scCheck(t, scSigned(env, hash, kps[1]), hash, accounts)
		if one.Code != ledger.TxFailed || !slices.Equal(one.OpCodes, []string{ledger.OpBadAuth}) {
			t.Fatalf("one signature: code %q %v, want tx_failed [op_bad_auth]", one.Code, one.OpCodes)
		}
	})

	// Weights [2,1,1] against 3 in that order fail, and the same three
	// signatures in the order [1,1,2] pass, because each check stops as
	// soon as its total reaches the needed weight: in [2,1,1] the merge's
	// check reaches 3 at the second signature and never looks at the third,
	// which nothing else uses (tx_bad_auth_extra); in [1,1,2] it reaches 3
	// only at the last, so it uses all three. (The submit-ready envelope is
	// [2,1]: two signatures suffice.)
	t.Run("order", func(t *testing.T) {
		kps := scPool[3:6]
		a := kps[0].Address()
		auth := scAuth(kps, []int32{2, 1, 1}, ledger.Thresholds{High: 3})
		accounts := map[string]ledger.AccountAuth{a: auth}
		env, hash := scTx(t, a, scMerge(""))

		bad := scCheck(t, scSigned(env, hash, kps[0], kps[1], kps[2]), hash, accounts)
		if bad.Code != ledger.TxBadAuthExtra || !slices.Equal(bad.Unused(), []int{2}) {
			t.Fatalf("[2,1,1]: code %q, unused %v", bad.Code, bad.Unused())
		}
		good := scCheck(t, scSigned(env, hash, kps[1], kps[2], kps[0]), hash, accounts)
		if good.Code != "" {
			t.Fatalf("[1,1,2]: code %q, unused %v", good.Code, good.Unused())
		}
		sel, ok := ledger.SelectReady([]int32{1, 2, 1}, 3) // admitted: kps[1], kps[0], kps[2]
		if !ok || !slices.Equal(sel, []int{1, 0}) {
			t.Fatalf("SelectReady = %v, %v; want [1 0]", sel, ok)
		}
	})
}

func TestCheckSignaturesRules(t *testing.T) {
	kps := scPool[8:12] // kps[0] is the master key
	a := kps[0].Address()
	env, hash := scTx(t, a, scMerge(""))

	t.Run("needed 0 still takes a signature", func(t *testing.T) {
		accounts := map[string]ledger.AccountAuth{a: scAuth(kps[:2], []int32{1, 1}, ledger.Thresholds{})}
		if r := scCheck(t, env, hash, accounts); r.Code != ledger.TxBadAuth {
			t.Errorf("no signature: code %q, want tx_bad_auth", r.Code)
		}
		if r := scCheck(t, scSigned(env, hash, kps[1]), hash, accounts); r.Code != "" {
			t.Errorf("one signature: code %q", r.Code)
		}
		if r := scCheck(t, scSigned(env, hash, kps[1], kps[0]), hash, accounts); r.Code != ledger.TxBadAuthExtra || !slices.Equal(r.Unused(), []int{1}) {
			t.Errorf("two signatures: code %q unused %v, want tx_bad_auth_extra [1]", r.Code, r.Unused())
		}
	})

	t.Run("master weight 0 is no signer", func(t *testing.T) {
		accounts := map[string]ledger.AccountAuth{a: scAuth(kps[:2], []int32{0, 1}, ledger.Thresholds{High: 1})}
		if r := scCheck(t, scSigned(env, hash, kps[0]), hash, accounts); r.Code != ledger.TxBadAuth {
			t.Errorf("master only: code %q, want tx_bad_auth", r.Code)
		}
		if r := scCheck(t, scSigned(env, hash, kps[0], kps[1]), hash, accounts); r.Code != ledger.TxBadAuthExtra || !slices.Equal(r.Unused(), []int{0}) {
			t.Errorf("master and signer: code %q unused %v", r.Code, r.Unused())
		}
		if r := scCheck(t, scSigned(env, hash, kps[1]), hash, accounts); r.Code != "" {
			t.Errorf("signer only: code %q", r.Code)
		}
	})

	t.Run("a signer counts once per check", func(t *testing.T) {
		accounts := map[string]ledger.AccountAuth{a: scAuth(kps[:3], []int32{1, 1, 1}, ledger.Thresholds{High: 2})}
		r := scCheck(t, scSigned(env, hash, kps[1], kps[1]), hash, accounts)
		if r.Code != ledger.TxFailed || r.Ops[0].Weight != 1 {
			t.Errorf("duplicate: code %q, merge weight %d; want tx_failed, 1", r.Code, r.Ops[0].Weight)
		}
		r = scCheck(t, scSigned(env, hash, kps[1], kps[2], kps[2]), hash, accounts)
		if r.Code != ledger.TxBadAuthExtra || !slices.Equal(r.Unused(), []int{2}) {
			t.Errorf("duplicate after enough: code %q unused %v", r.Code, r.Unused())
		}
	})

	t.Run("the hint must be the key's", func(t *testing.T) {
		accounts := map[string]ledger.AccountAuth{a: scAuth(kps[:3], []int32{1, 1, 1}, ledger.Thresholds{High: 1})}
		forged := ledger.WithSignatures(env, []xdr.DecoratedSignature{ledgertest.ForgedSignature(hash, kps[1], kps[2].Hint())})
		if r := scCheck(t, forged, hash, accounts); r.Code != ledger.TxBadAuth {
			t.Errorf("valid signature under another signer's hint: code %q, want tx_bad_auth", r.Code)
		}
	})

	t.Run("a stranger's signature is unused", func(t *testing.T) {
		accounts := map[string]ledger.AccountAuth{a: scAuth(kps[:2], []int32{1, 1}, ledger.Thresholds{High: 1})}
		r := scCheck(t, scSigned(env, hash, kps[3], kps[1]), hash, accounts)
		if r.Code != ledger.TxBadAuthExtra || !slices.Equal(r.Unused(), []int{0}) {
			t.Errorf("code %q unused %v", r.Code, r.Unused())
		}
	})

	t.Run("wrong network", func(t *testing.T) {
		accounts := map[string]ledger.AccountAuth{a: scAuth(kps[:2], []int32{1, 1}, ledger.Thresholds{High: 1})}
		other, err := ledger.HashEnvelope(env, network.PublicNetworkPassphrase)
		if err != nil {
			t.Fatal(err)
		}
		if r := scCheck(t, scSigned(env, other, kps[1]), hash, accounts); r.Code != ledger.TxBadAuth {
			t.Errorf("signed under mainnet, checked under testnet: code %q", r.Code)
		}
	})

	t.Run("operation failures", func(t *testing.T) {
		accounts := map[string]ledger.AccountAuth{a: scAuth(kps[:3], []int32{1, 1, 1}, ledger.Thresholds{Low: 1, Medium: 1, High: 2})}
		env2, hash2 := scTx(t, a, scPayment(""), scMerge(""), scPayment(""))
		r := scCheck(t, scSigned(env2, hash2, kps[1]), hash2, accounts)
		if r.Code != ledger.TxFailed || !slices.Equal(r.OpCodes, []string{ledger.OpSuccess, ledger.OpBadAuth, ledger.OpSuccess}) {
			t.Errorf("code %q ops %v", r.Code, r.OpCodes)
		}
		if r := scCheck(t, scSigned(env2, hash2, kps[1], kps[2]), hash2, accounts); r.Code != "" {
			t.Errorf("enough: code %q", r.Code)
		}
	})

	t.Run("no source account", func(t *testing.T) {
		r := scCheck(t, scSigned(env, hash, kps[0]), hash, map[string]ledger.AccountAuth{})
		if r.Code != ledger.TxNoSourceAccount || !r.Source.Missing {
			t.Errorf("code %q", r.Code)
		}
	})

	t.Run("fee payer", func(t *testing.T) {
		payer := scPool[20]
		accounts := map[string]ledger.AccountAuth{
			a:               scAuth(kps[:3], []int32{1, 1, 1}, ledger.Thresholds{Low: 1, Medium: 2, High: 2}),
			payer.Address(): scAuth([]*keypair.Full{payer}, []int32{1}, ledger.Thresholds{}),
		}
		envF, hashF := scTx(t, payer.Address(), scMerge(a))
		if r := scCheck(t, scSigned(envF, hashF, payer, kps[1], kps[2]), hashF, accounts); r.Code != "" {
			t.Errorf("payer and 2 of 3: code %q", r.Code)
		}
		if r := scCheck(t, scSigned(envF, hashF, kps[1], kps[2]), hashF, accounts); r.Code != ledger.TxBadAuth {
			t.Errorf("no payer: code %q, want tx_bad_auth", r.Code)
		}
		if r := scCheck(t, scSigned(envF, hashF, kps[1], kps[2], payer, kps[0]), hashF, accounts); r.Code != ledger.TxBadAuthExtra || !slices.Equal(r.Unused(), []int{3}) {
			t.Errorf("payer and 3 of 3: code %q unused %v", r.Code, r.Unused())
		}
	})

	t.Run("explicit source that does not exist", func(t *testing.T) {
		payer, ghost := scPool[20], scPool[21]
		accounts := map[string]ledger.AccountAuth{payer.Address(): scAuth([]*keypair.Full{payer}, []int32{1}, ledger.Thresholds{})}
		envG, hashG := scTx(t, payer.Address(), scPayment(ghost.Address()))
		r := scCheck(t, scSigned(envG, hashG, payer, ghost), hashG, accounts)
		if r.Code != "" || !r.Ops[0].Missing || !r.Ops[0].Passed {
			t.Errorf("signed by the missing account's key: code %q, op %+v", r.Code, r.Ops[0])
		}
		r = scCheck(t, scSigned(envG, hashG, payer), hashG, accounts)
		if r.Code != ledger.TxFailed || !slices.Equal(r.OpCodes, []string{ledger.OpBadAuth}) {
			t.Errorf("not signed by it: code %q ops %v, want tx_failed [op_bad_auth]", r.Code, r.OpCodes)
		}
	})

	t.Run("extra signers", func(t *testing.T) {
		accounts := map[string]ledger.AccountAuth{a: scAuth(kps[:2], []int32{1, 1}, ledger.Thresholds{High: 1})}
		extra := scPool[22]
		envX := env
		v1 := *env.V1
		key := xdr.Uint256(scKey(extra))
		v1.Tx.Cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{
			ExtraSigners: []xdr.SignerKey{{Type: xdr.SignerKeyTypeSignerKeyTypeEd25519, Ed25519: &key}},
		}}
		envX.V1 = &v1
		hashX, err := ledger.HashEnvelope(envX, scPass)
		if err != nil {
			t.Fatal(err)
		}
		if r := scCheck(t, scSigned(envX, hashX, kps[1], extra), hashX, accounts); r.Code != "" || r.Extra == nil || !r.Extra.Passed {
			t.Errorf("with the extra signer: code %q extra %+v", r.Code, r.Extra)
		}
		if r := scCheck(t, scSigned(envX, hashX, kps[1]), hashX, accounts); r.Code != ledger.TxBadAuth {
			t.Errorf("without: code %q, want tx_bad_auth", r.Code)
		}
	})

	t.Run("verify is the one given", func(t *testing.T) {
		accounts := map[string]ledger.AccountAuth{a: scAuth(kps[:2], []int32{1, 1}, ledger.Thresholds{High: 1})}
		calls := 0
		rules := ledger.SigRules{Verify: func(ed25519.PublicKey, []byte, []byte) bool { calls++; return false }}
		r, err := rules.Check(scSigned(env, hash, kps[1]), hash, accounts)
		if err != nil || r.Code != ledger.TxBadAuth || calls == 0 {
			t.Errorf("code %q, err %v, %d calls", r.Code, err, calls)
		}
	})

	t.Run("fee-bump", func(t *testing.T) {
		b64, _ := ledgertest.BuildClose(kps[0], scPool[47].Address(), 100, 0, scPass, kps[0])
		fb, err := ledger.DecodeEnvelope(ledgertest.FeeBump(b64, scPool[20], scPass))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ledger.CheckSignatures(fb, hash, nil); !errors.Is(err, ledger.ErrNotClassic) {
			t.Errorf("err %v, want ErrNotClassic", err)
		}
	})
}

// TestVerifyBudget: from protocol 28 core verifies at most 1000 signatures
// per transaction. 100 merges, each needing 11 signatures, and the source's
// check make 1111.
func TestVerifyBudget(t *testing.T) {
	kps := scPool[24:35]
	a := kps[0].Address()
	weights := make([]int32, len(kps))
	for i := range weights {
		weights[i] = 1
	}
	accounts := map[string]ledger.AccountAuth{a: scAuth(kps, weights, ledger.Thresholds{Low: 11, Medium: 11, High: 11})}
	ops := make([]txnbuild.Operation, 100)
	for i := range ops {
		ops[i] = scMerge("")
	}
	env, hash := scTx(t, a, ops...)
	env = scSigned(env, hash, kps...)

	r := scCheck(t, env, hash, accounts)
	// The source's check and 89 merges spend 990, the 90th merge's runs out.
	if r.Code != ledger.TxFailed || r.OpCodes[89] != ledger.OpBadAuth || r.Ops[88].Passed != true {
		t.Errorf("budget 1000: code %q, op 89 %v", r.Code, r.Ops[89])
	}
	r, err := ledger.SigRules{VerifyBudget: -1}.Check(env, hash, accounts)
	if err != nil || r.Code != "" {
		t.Errorf("no budget: code %q err %v", r.Code, err)
	}
}

func TestWeightAndReadySignatures(t *testing.T) {
	set := ledger.NewSignerSet([]ledger.Signer{
		{Address: scPool[0].Address(), Weight: 300}, // counts 255
		{Address: scPool[1].Address(), Weight: 1},
		{Address: scPool[2].Address(), Weight: 5},
	})
	admitted := []ledger.Admitted{{Signer: 1}, {Signer: 2}, {Signer: 1}, {Signer: 0}, {Signer: 9}}
	if w := ledger.Weight(set, admitted); w != 261 {
		t.Errorf("Weight = %d, want 261 (255+1+5; a repeated signer and an unknown index count nothing)", w)
	}
	got, ok := ledger.ReadySignatures(set, admitted, 6)
	if !ok || !slices.Equal(signerIndexes(got), []int{0}) {
		t.Errorf("ReadySignatures(6) = %v, %v; want [0]", signerIndexes(got), ok)
	}
	got, ok = ledger.ReadySignatures(set, admitted[:3], 6)
	if !ok || !slices.Equal(signerIndexes(got), []int{2, 1}) {
		t.Errorf("ReadySignatures(6) without 0 = %v, %v; want [2 1]", signerIndexes(got), ok)
	}
	if got, ok = ledger.ReadySignatures(set, admitted[:3], 7); ok || got != nil {
		t.Errorf("ReadySignatures(7) without 0 = %v, %v; want none", got, ok)
	}
}

func signerIndexes(as []ledger.Admitted) []int {
	out := make([]int, len(as))
	for i, a := range as {
		out[i] = a.Signer
	}
	return out
}

func TestSelectReadyOrder(t *testing.T) {
	cases := []struct {
		weights   []int32
		threshold int
		want      []int
		ok        bool
	}{
		{[]int32{1, 1, 1}, 2, []int{0, 1}, true},
		{[]int32{1, 3, 2, 3}, 5, []int{1, 3}, true},    // equal weights: earliest first
		{[]int32{1, 3, 2, 3}, 7, []int{1, 3, 2}, true}, // fewest: never the 1
		{[]int32{1, 3, 2, 3}, 10, nil, false},          // 9 in all
		{[]int32{0, 2}, 0, []int{1}, true},             // threshold 0 is 1; weight 0 never selected
		{[]int32{0, 0}, 1, nil, false},                 // weight 0 is no weight
		{[]int32{400, 1}, 255, []int{0}, true},         // 400 counts 255
		{[]int32{-5, 4}, 4, []int{1}, true},            // negative is nothing
		{nil, 1, nil, false},
	}
	for _, c := range cases {
		got, ok := ledger.SelectReady(c.weights, c.threshold)
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("SelectReady(%v, %d) = %v, %v; want %v, %v", c.weights, c.threshold, got, ok, c.want, c.ok)
		}
	}
}

// TestReadyProperties checks the submit-ready selection against the
// ledger's checks on random accounts, thresholds, close shapes and admission
// orders (a seeded loop, so a failure names its case and reproduces).
func TestReadyProperties(t *testing.T) {
	cases := 3000
	if testing.Short() {
		cases = 500
	}
	r := rand.New(rand.NewSource(13))
	var (
		readyCases, allOver, allExtra int
	)
	for n := range cases {
		pc := newPropCase(t, r)
		threshold := ledger.CloseThreshold(pc.env, pc.account, pc.auth.Thresholds)
		total := 0
		for _, w := range pc.weights {
			total += min(int(w), 255)
		}
		sel, ok := ledger.SelectReady(pc.weights, threshold)
		if ok != (total >= threshold) {
			t.Fatalf("case %d: SelectReady ok=%v with total %d, threshold %d", n, ok, total, threshold)
		}
		if fewest := fewestReaching(pc.weights, threshold); ok && len(sel) != fewest {
			t.Fatalf("case %d: selected %d signatures %v of %v, fewest reaching %d is %d", n, len(sel), sel, pc.weights, threshold, fewest)
		}
		for i := 1; i < len(sel); i++ {
			prev, cur := pc.weights[sel[i-1]], pc.weights[sel[i]]
			if prev < cur || (prev == cur && sel[i-1] > sel[i]) {
				t.Fatalf("case %d: selection %v of %v is not largest first, earliest first among equals", n, sel, pc.weights)
			}
		}

		if ok {
			readyCases++
			// The submit-ready envelope passes and uses every signature.
			res := pc.check(t, sel)
			if res.Code != "" || len(res.Unused()) != 0 {
				t.Fatalf("case %d (%s): ready envelope %v of %v (threshold %d, %+v): code %q, unused %v",
					n, pc.shape, sel, pc.weights, threshold, pc.auth.Thresholds, res.Code, res.Unused())
			}
			// In any order: no signature of a minimal set can be left over.
			perm := slices.Clone(sel)
			r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			if res := pc.check(t, perm); res.Code != "" {
				t.Fatalf("case %d: ready signatures in order %v: code %q", n, perm, res.Code)
			}
			// Removing any signature fails the transaction.
			for k := range sel {
				less := slices.Delete(slices.Clone(sel), k, k+1)
				if res := pc.check(t, less); res.Code != ledger.TxBadAuth && res.Code != ledger.TxFailed {
					t.Fatalf("case %d: ready envelope %v without %d: code %q, want a failure", n, sel, sel[k], res.Code)
				}
			}
		}

		// Every admitted signature, in admission order: each check walks
		// them in order and stops on reaching its need, and the closing
		// account's largest need is threshold. So the envelope passes
		// exactly when all but the last fall short of threshold; when they
		// already reach it, the last is unused.
		all := make([]int, len(pc.weights))
		for i := range all {
			all[i] = i
		}
		res := pc.check(t, all)
		butLast := total - min(int(pc.weights[len(pc.weights)-1]), 255)
		var want string
		switch {
		case total < threshold:
			want = "failure"
		case butLast >= threshold:
			want = ledger.TxBadAuthExtra
		}
		got := res.Code
		if got == ledger.TxBadAuth || got == ledger.TxFailed {
			got = "failure"
		}
		if got != want {
			t.Fatalf("case %d (%s): all of %v, threshold %d: code %q, want %q", n, pc.shape, pc.weights, threshold, res.Code, want)
		}
		if total > threshold {
			allOver++
			if res.Code == ledger.TxBadAuthExtra {
				allExtra++
			}
		}
	}
	t.Logf("%d cases, %d ready; every signature with weight above threshold: %d, of which tx_bad_auth_extra %d", cases, readyCases, allOver, allExtra)
	if readyCases < cases/2 || allExtra < allOver/2 {
		t.Errorf("the generator is too weak: %d ready of %d, %d extra of %d over", readyCases, cases, allExtra, allOver)
	}
}

// propCase is one random close: an account, its admitted signatures and a
// close of one of several shapes.
type propCase struct {
	shape    string
	account  string
	auth     ledger.AccountAuth
	accounts map[string]ledger.AccountAuth
	env      xdr.TransactionEnvelope
	hash     [32]byte
	payer    *keypair.Full   // the fee payer, nil when the account is the source
	admitted []*keypair.Full // admission order
	weights  []int32         // weights[i] is admitted[i]'s
	rules    ledger.SigRules
}

func newPropCase(t testing.TB, r *rand.Rand) *propCase {
	t.Helper()
	perm := r.Perm(len(scPool) - 1) // scPool[47] is the merge destination
	n := 1 + r.Intn(8)
	kps := make([]*keypair.Full, n)
	weights := make([]int32, n)
	for i := range kps {
		kps[i] = scPool[perm[i]]
		if r.Intn(2) == 0 {
			weights[i] = int32(1 + r.Intn(3)) // small weights: ties and sums
		} else {
			weights[i] = int32(1 + r.Intn(255))
		}
	}
	if r.Intn(4) == 0 {
		weights[0] = 0 // kps[0] is the master key; weight 0 is no signer
	}
	th := func() uint8 {
		if r.Intn(2) == 0 {
			return uint8(r.Intn(8))
		}
		return uint8(r.Intn(256))
	}
	pc := &propCase{account: kps[0].Address()}
	pc.auth = scAuth(kps, weights, ledger.Thresholds{Low: th(), Medium: th(), High: th()})
	pc.accounts = map[string]ledger.AccountAuth{pc.account: pc.auth}

	a := pc.account
	home := "example.com"
	switch s := r.Intn(5); s {
	case 0:
		pc.shape = "merge"
		pc.env, pc.hash = scTx(t, a, scMerge(""))
	case 1:
		pc.shape = "payment, merge"
		pc.env, pc.hash = scTx(t, a, scPayment(""), scMerge(""))
	case 2:
		pc.shape = "set options (medium), bump sequence, merge"
		pc.env, pc.hash = scTx(t, a, &txnbuild.SetOptions{HomeDomain: &home}, &txnbuild.BumpSequence{}, scMerge(""))
	default:
		pc.payer = scPool[perm[len(perm)-1]]
		pc.accounts[pc.payer.Address()] = scAuth([]*keypair.Full{pc.payer}, []int32{1}, ledger.Thresholds{})
		if s == 3 {
			pc.shape = "fee payer, merge"
			pc.env, pc.hash = scTx(t, pc.payer.Address(), scMerge(a))
		} else {
			pc.shape = "fee payer, set options (high), payment, merge"
			pc.env, pc.hash = scTx(t, pc.payer.Address(),
				&txnbuild.SetOptions{Signer: &txnbuild.Signer{Address: scPool[46].Address(), Weight: 1}, SourceAccount: a},
				scPayment(a), scMerge(a))
		}
	}

	// Admission: the signers of weight above 0 (the relay's candidates),
	// some left out, in a random order.
	for _, i := range r.Perm(n) {
		if weights[i] > 0 && (r.Intn(4) > 0 || len(pc.admitted) == 0) {
			pc.admitted = append(pc.admitted, kps[i])
			pc.weights = append(pc.weights, weights[i])
		}
	}
	if len(pc.admitted) == 0 { // only a master of weight 0: make it count
		pc.auth.Signers[0].Weight, weights[0] = 1, 1
		pc.accounts[a] = pc.auth
		pc.admitted, pc.weights = []*keypair.Full{kps[0]}, []int32{1}
	}
	pc.rules = ledger.SigRules{Verify: memoVerify()}
	return pc
}

// check runs the signature checks on the envelope carrying the admitted
// signatures idx, in that order, after the fee payer's when there is one.
func (pc *propCase) check(t testing.TB, idx []int) ledger.SignatureCheck {
	t.Helper()
	var kps []*keypair.Full
	if pc.payer != nil {
		kps = append(kps, pc.payer)
	}
	for _, i := range idx {
		kps = append(kps, pc.admitted[i])
	}
	res, err := pc.rules.Check(scSigned(pc.env, pc.hash, kps...), pc.hash, pc.accounts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// fewestReaching is the size of the smallest subset of weights whose sum
// reaches max(threshold, 1), by brute force; -1 when none does.
func fewestReaching(weights []int32, threshold int) int {
	threshold = max(threshold, 1)
	best := -1
	for mask := 0; mask < 1<<len(weights); mask++ {
		sum, count := 0, 0
		for i, w := range weights {
			if mask&(1<<i) != 0 {
				sum += min(int(w), 255)
				count++
			}
		}
		if sum >= threshold && (best < 0 || count < best) {
			best = count
		}
	}
	return best
}

// memoVerify is real ed25519 verification that remembers its answers, so
// that a property case re-checking the same signatures in many envelopes
// verifies each once.
func memoVerify() ledger.VerifyFunc {
	type key struct{ pub, msg, sig string }
	seen := map[key]bool{}
	return func(pub ed25519.PublicKey, msg, sig []byte) bool {
		k := key{string(pub), string(msg), string(sig)}
		ok, found := seen[k]
		if !found {
			ok = ledger.VerifyCore(pub, msg, sig)
			seen[k] = ok
		}
		return ok
	}
}
