package mediator

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/closerelay/closerelay/errcode"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// FuzzForwardOrder fuzzes the shape of a forward rather than its bytes.
// FuzzValidateForward's raw input is almost always refused as MALFORMED_XDR,
// so its progress mostly measures the XDR decoder; here every input is a
// well-formed envelope built from choices (envelope kind, each source, each
// operation, each destination, time bounds, maxTime), and the answer must be
// exactly the first failing check of SPEC's order, computed independently
// below. That makes every combination of failures a tie-break test. Two more
// choices add CONTRACT section 13: the memo the token commits (none, or one
// of each type) and the memo the forward carries, so FORWARD_MEMO_NOT_COMMITTED
// takes its place between FORWARD_DESTINATION_NOT_COMMITTED and the time
// bounds.
func FuzzForwardOrder(f *testing.F) {
	// Seeds live in testdata/fuzz/FuzzForwardOrder (see TestFuzzSeedCorpus).
	f.Fuzz(func(t *testing.T, choice []byte, delta int64) {
		env, fwd, committed, want, why := buildChoice(choice, delta)
		b64 := fwd.B64()
		if env == envMalformed {
			b64 = truncated(b64)
		}
		err := ValidateForwardMemo(b64, testMediator, testDest, committed, t0)
		if committed.IsZero() {
			if plain := ValidateForward(b64, testMediator, testDest, t0); errcode.CodeOf(plain) != errcode.CodeOf(err) {
				t.Fatalf("choices %v: ValidateForward %v, ValidateForwardMemo without a memo %v", choice, plain, err)
			}
		}
		if got := string(errcode.CodeOf(err)); got != want {
			t.Fatalf("choices %v, maxTime t0%+d: code %q, want %q (%v)", choice, delta, got, want, err)
		}
		if e := (*errcode.Error)(nil); errors.As(err, &e) && !strings.Contains(e.Reason, why) {
			t.Fatalf("choices %v: reason %q, want one containing %q", choice, e.Reason, why)
		}
	})
}

const (
	envV1 = iota
	envV0
	envFeeBump
	envMalformed
)

// buildChoice builds the forward that choice describes, with the memo the
// flow commits, and returns the code (and, for MISSING_TIME_BOUNDS, the
// reason word) SPEC's order, with CONTRACT section 13's memo check, gives it.
// A zero byte, or a missing one, is the accepted choice for its field.
func buildChoice(choice []byte, delta int64) (env int, fwd *mt.Forward, committed Memo, want, why string) {
	pick := func(i, n int) int {
		if i < len(choice) {
			return int(choice[i]) % n
		}
		return 0
	}
	env = pick(0, 4)
	txSrc := pick(1, 3) // mediator, another account, the mediator muxed
	nOps := (2 + pick(2, 4)) % 4
	op0Kind, op0Credit, op0Src, op0Dest := pick(3, 4), pick(4, 2) == 1, pick(5, 4), pick(6, 4)
	op1Kind, op1Src, op1Dest := pick(7, 3), pick(8, 4), pick(9, 4)
	tb := pick(10, 4) // PRECOND_TIME, PRECOND_V2 with bounds, none, PRECOND_V2 without bounds
	// The committed memo: none (a four-part token), or one of
	// memoChoices; the forward's memo: the committed one (the default
	// MEMO_ID 4242 when none is), or one of memoChoices.
	commit, carry := pick(11, 1+len(memoChoices)), pick(12, 1+len(memoChoices))

	now := t0.Unix()
	var maxTime uint64
	switch {
	case delta < -now:
		maxTime = 0
	case delta < 0:
		maxTime = uint64(now + delta)
	default:
		maxTime = uint64(now) + uint64(delta)
	}

	sources := []*xdr.MuxedAccount{nil, mt.AcctPtr(testMediator), mt.AcctPtr(otherDest), mt.AcctPtr(mt.Muxed(testMediator, 3))}
	dests := []string{testDest, otherDest, mt.Muxed(testDest, 1), mt.Muxed(testDest, 2)}
	asset := mt.Native()
	if op0Credit {
		asset = mt.Credit()
	}
	var op0 xdr.Operation
	switch op0Kind {
	case 0:
		op0 = mt.Pay(sources[op0Src], dests[op0Dest], asset)
	case 1:
		op0 = mt.Merge(sources[op0Src], dests[op0Dest])
	case 2:
		op0 = mt.Bump(sources[op0Src])
	case 3:
		op0 = xdr.Operation{SourceAccount: sources[op0Src], Body: xdr.OperationBody{
			Type: xdr.OperationTypePathPaymentStrictReceive,
			PathPaymentStrictReceiveOp: &xdr.PathPaymentStrictReceiveOp{
				SendAsset: asset, SendMax: 1, Destination: mt.Acct(dests[op0Dest]), DestAsset: asset, DestAmount: 1,
			},
		}}
	}
	var op1 xdr.Operation
	switch op1Kind {
	case 0:
		op1 = mt.Merge(sources[op1Src], dests[op1Dest])
	case 1:
		op1 = mt.Pay(sources[op1Src], dests[op1Dest], mt.Native())
	case 2:
		op1 = mt.Bump(sources[op1Src])
	}
	ops := []xdr.Operation{op0, op1, mt.Bump(nil)}[:min(nOps, 3)]

	fwd = mt.NewForward(testMediator, testDest, maxTime)
	fwd.Ops = ops
	carried := mt.DefaultMemo()
	if commit != 0 {
		committed = mustMemo(memoChoices[commit-1].query)
		carried = memoChoices[commit-1].memo
	}
	if carry != 0 {
		carried = memoChoices[carry-1].memo
	}
	fwd.Memo = &carried
	// Choices are distinct memos, so the forward carries the committed one
	// exactly when it carries the committed choice.
	memoOK := commit == 0 || carry == 0 || carry == commit
	fwd.V0, fwd.FeeBump = env == envV0, env == envFeeBump
	fwd.TxSource = mt.Acct([]string{testMediator, otherDest, mt.Muxed(testMediator, 7)}[txSrc])
	bounds := &xdr.TimeBounds{MaxTime: xdr.TimePoint(maxTime)}
	switch tb {
	case 1:
		fwd.Cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{TimeBounds: bounds}}
	case 2:
		fwd.Cond = mt.NoTimeBounds()
	case 3:
		fwd.Cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{MinSeqNum: new(xdr.SequenceNumber)}}
	}

	// SPEC "Forward validation codes", in order. A V0 envelope's source is a
	// bare ed25519 key, so the muxed mediator collapses to the mediator there.
	txSrcOK := txSrc == 0 || (env == envV0 && txSrc == 2)
	foreign := func(src int) bool { return src >= 2 }
	switch {
	case env == envMalformed:
		return env, fwd, committed, "MALFORMED_XDR", ""
	case env == envFeeBump:
		return env, fwd, committed, "FEE_BUMP_NOT_ALLOWED", ""
	case !txSrcOK:
		return env, fwd, committed, "FORWARD_TX_SOURCE_NOT_MEDIATOR", ""
	case nOps != 2:
		return env, fwd, committed, "WRONG_OPERATION_COUNT", ""
	case op0Kind != 0:
		return env, fwd, committed, "FORWARD_OP0_NOT_PAYMENT", ""
	case op0Credit:
		return env, fwd, committed, "FORWARD_OP0_ASSET_NOT_NATIVE", ""
	case foreign(op0Src):
		return env, fwd, committed, "FORWARD_OP0_SOURCE_NOT_MEDIATOR", ""
	case op1Kind != 0:
		return env, fwd, committed, "FORWARD_OP1_NOT_ACCOUNT_MERGE", ""
	case foreign(op1Src):
		return env, fwd, committed, "FORWARD_OP1_SOURCE_NOT_MEDIATOR", ""
	case op0Dest != op1Dest:
		return env, fwd, committed, "FORWARD_DESTINATION_MISMATCH", ""
	case op0Dest != 0:
		return env, fwd, committed, "FORWARD_DESTINATION_NOT_COMMITTED", ""
	case !memoOK:
		return env, fwd, committed, "FORWARD_MEMO_NOT_COMMITTED", ""
	case tb >= 2:
		return env, fwd, committed, "MISSING_TIME_BOUNDS", mt.ReasonNoTimeBounds
	case maxTime == 0:
		return env, fwd, committed, "MISSING_TIME_BOUNDS", mt.ReasonNoMaxTime
	case maxTime > uint64(now)+3600:
		return env, fwd, committed, "TIME_BOUNDS_EXCESSIVE", ""
	}
	return env, fwd, committed, "", ""
}

// memoChoices are the memos FuzzForwardOrder commits and carries: one of
// each type, the MEMO_ID 4242 of mt.DefaultMemo among them, and pairs that
// differ only in type (hash and return of the same bytes; an id and its
// digits as text) or by one byte.
var memoChoices = []struct {
	query string
	memo  xdr.Memo
}{
	{"id:4242", xdr.MemoID(4242)},
	{"text:4242", xdr.MemoText("4242")},
	{"id:4243", xdr.MemoID(4243)},
	{"hash:" + strings.Repeat("ab", 32), xdr.MemoHash(xdr.Hash(bytes.Repeat([]byte{0xab}, 32)))},
	{"return:" + strings.Repeat("ab", 32), xdr.MemoRetHash(xdr.Hash(bytes.Repeat([]byte{0xab}, 32)))},
	{"text:4242 ", xdr.MemoText("4242 ")},
}

func mustMemo(s string) Memo {
	m, err := ParseMemo(s)
	if err != nil {
		panic(err)
	}
	return m
}

// truncated drops the envelope's last byte, so it no longer decodes whatever
// else it holds.
func truncated(b64 string) string {
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(b[:len(b)-1])
}

type orderSeed struct {
	name   string
	choice []byte
	delta  int64
}

// orderSeeds start FuzzForwardOrder at the accepted shape, at each field's
// failing choices one at a time, at the horizon's edge and at everything
// wrong at once.
func orderSeeds() []orderSeed {
	return []orderSeed{
		{"accepted", nil, 300},
		{"accepted v0", []byte{1}, 300},
		{"accepted v0 muxed source collapses", []byte{1, 2}, 300},
		{"accepted explicit op sources v2", []byte{0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1}, 300},
		{"accepted maxTime 3600s ahead", nil, 3600},
		{"accepted maxTime past", nil, -100},
		{"malformed", []byte{3}, 300},
		{"fee-bump", []byte{2}, 300},
		{"tx source other", []byte{0, 1}, 300},
		{"tx source muxed", []byte{0, 2}, 300},
		{"three ops", []byte{0, 0, 1}, 300},
		{"no ops", []byte{0, 0, 2}, 300},
		{"one op", []byte{0, 0, 3}, 300},
		{"op0 merge", []byte{0, 0, 0, 1}, 300},
		{"op0 path payment credit", []byte{0, 0, 0, 3, 1}, 300},
		{"op0 credit", []byte{0, 0, 0, 0, 1}, 300},
		{"op0 source other", []byte{0, 0, 0, 0, 0, 2}, 300},
		{"op0 source muxed", []byte{0, 0, 0, 0, 0, 3}, 300},
		{"op1 payment", []byte{0, 0, 0, 0, 0, 0, 0, 1}, 300},
		{"op1 source muxed", []byte{0, 0, 0, 0, 0, 0, 0, 0, 3}, 300},
		{"mismatch G and M", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, 300},
		{"not committed muxed", []byte{0, 0, 0, 0, 0, 0, 2, 0, 0, 2}, 300},
		{"no time bounds", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, 300},
		{"v2 without time bounds", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3}, 300},
		{"maxTime zero", nil, -t0.Unix()},
		{"maxTime 3601s ahead", nil, 3601},
		{"maxTime far", nil, 1<<63 - 1},
		{"everything wrong", []byte{2, 1, 1, 2, 1, 2, 1, 2, 2, 1, 2}, 3601},
		{"memo committed text carried", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, 300},
		{"memo committed id carried by default", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 300},
		{"memo committed hash carried v0", []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4}, 300},
		{"memo none committed any carried", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5}, 300},
		{"memo id committed text carried", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2}, 300},
		{"memo hash committed return carried", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5}, 300},
		{"memo text committed with trailing space carried", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 6}, 300},
		{"memo wrong and destination not committed", []byte{0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 3, 1}, 300},
		{"memo wrong and no time bounds", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 1}, 300},
		{"memo wrong and maxTime 3601s ahead", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 4}, 3601},
		{"memo right and maxTime zero", []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5}, -t0.Unix()},
	}
}
