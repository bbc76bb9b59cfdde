package mediator

import (
	"encoding/base64"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/xdr"
)

type forwardCase struct {
	name string
	b64  string
	want Code   // "" for accepted
	why  string // substring of the reason, where it matters
}

// fwd builds the accepted forward for testMediator and testDest, maxTime five
// minutes after t0, and lets the case break it.
func fwd(edit func(f *forward)) string {
	f := newForward(testMediator, testDest, uint64(t0.Unix())+300)
	if edit != nil {
		edit(f)
	}
	return f.b64()
}

func runForwardCases(t *testing.T, cases []forwardCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateForward(tc.b64, testMediator, testDest, t0)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused an accepted forward: %v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *Error %s", err, err, tc.want)
			}
			if e.Code != tc.want {
				t.Fatalf("code = %s (%s), want %s", e.Code, e.Reason, tc.want)
			}
			if e.Status != http.StatusBadRequest {
				t.Errorf("status = %d, want 400", e.Status)
			}
			if !strings.Contains(e.Reason, tc.why) {
				t.Errorf("reason %q does not contain %q", e.Reason, tc.why)
			}
		})
	}
}

var (
	medPtr      = acctPtr(testMediator)
	otherPtr    = acctPtr(otherDest)
	muxedMedPtr = acctPtr(muxed(testMediator, 1))
	maxOK       = uint64(t0.Unix()) + 3600
)

func forwardCodeCases() []forwardCase {
	valid := fwd(nil)
	raw, _ := base64.StdEncoding.DecodeString(valid)
	return []forwardCase{
		// Accepted shapes.
		{name: "accepted/v1 omitted op sources", b64: valid},
		{name: "accepted/v1 explicit op sources", b64: fwd(func(f *forward) {
			f.ops[0].SourceAccount, f.ops[1].SourceAccount = medPtr, medPtr
		})},
		{name: "accepted/one explicit one omitted", b64: fwd(func(f *forward) { f.ops[1].SourceAccount = medPtr })},
		{name: "accepted/v0", b64: fwd(func(f *forward) { f.v0 = true })},
		{name: "accepted/v0 explicit op sources", b64: fwd(func(f *forward) {
			f.v0 = true
			f.ops[0].SourceAccount, f.ops[1].SourceAccount = medPtr, medPtr
		})},
		{name: "accepted/preconditions v2", b64: fwd(func(f *forward) {
			f.cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{
				TimeBounds: &xdr.TimeBounds{MaxTime: xdr.TimePoint(maxOK)}}}
		})},
		{name: "accepted/maxTime exactly 3600s ahead", b64: fwd(func(f *forward) { f.cond = timeCond(0, maxOK) })},
		{name: "accepted/maxTime equal to now", b64: fwd(func(f *forward) { f.cond = timeCond(0, uint64(t0.Unix())) })},
		{name: "accepted/maxTime already past", b64: fwd(func(f *forward) { f.cond = timeCond(0, uint64(t0.Unix())-100) })},
		{name: "accepted/maxTime 1", b64: fwd(func(f *forward) { f.cond = timeCond(0, 1) })},
		{name: "accepted/with signatures", b64: fwd(func(f *forward) { f.sigs = dummySigs(3) })},

		// 1
		{name: "MALFORMED_XDR/empty", b64: "", want: CodeMalformedXDR},
		{name: "MALFORMED_XDR/not base64", b64: "!!not base64!!", want: CodeMalformedXDR},
		{name: "MALFORMED_XDR/short", b64: "AAAA", want: CodeMalformedXDR},
		{name: "MALFORMED_XDR/truncated", b64: base64.StdEncoding.EncodeToString(raw[:len(raw)-4]), want: CodeMalformedXDR},
		{name: "MALFORMED_XDR/trailing bytes", b64: base64.StdEncoding.EncodeToString(append(raw[:len(raw):len(raw)], 0, 0, 0, 0)), want: CodeMalformedXDR},
		{name: "MALFORMED_XDR/unknown envelope type", b64: base64.StdEncoding.EncodeToString(append([]byte{0, 0, 0, 9}, raw[4:]...)), want: CodeMalformedXDR},
		{name: "MALFORMED_XDR/url alphabet", b64: strings.NewReplacer("+", "-", "/", "_").Replace(valid) + "-_", want: CodeMalformedXDR},
		// 2
		{name: "FEE_BUMP_NOT_ALLOWED", b64: fwd(func(f *forward) { f.feeBump = true }), want: CodeFeeBumpNotAllowed},
		// 3
		{name: "FORWARD_TX_SOURCE_NOT_MEDIATOR/other account", b64: fwd(func(f *forward) { f.txSource = acct(otherDest) }), want: CodeTxSourceNotMediator},
		{name: "FORWARD_TX_SOURCE_NOT_MEDIATOR/muxed mediator", b64: fwd(func(f *forward) { f.txSource = acct(muxed(testMediator, 0)) }), want: CodeTxSourceNotMediator},
		{name: "FORWARD_TX_SOURCE_NOT_MEDIATOR/v0 other key", b64: fwd(func(f *forward) { f.v0 = true; f.txSource = acct(otherDest) }), want: CodeTxSourceNotMediator},
		// 4
		{name: "WRONG_OPERATION_COUNT/none", b64: fwd(func(f *forward) { f.ops = nil }), want: CodeWrongOperationCount},
		{name: "WRONG_OPERATION_COUNT/one", b64: fwd(func(f *forward) { f.ops = f.ops[:1] }), want: CodeWrongOperationCount},
		{name: "WRONG_OPERATION_COUNT/three", b64: fwd(func(f *forward) { f.ops = append(f.ops, bumpOp(nil)) }), want: CodeWrongOperationCount},
		// 5
		{name: "FORWARD_OP0_NOT_PAYMENT/bump", b64: fwd(func(f *forward) { f.ops[0] = bumpOp(nil) }), want: CodeOp0NotPayment},
		{name: "FORWARD_OP0_NOT_PAYMENT/swapped", b64: fwd(func(f *forward) { f.ops[0], f.ops[1] = f.ops[1], f.ops[0] }), want: CodeOp0NotPayment},
		// 6
		{name: "FORWARD_OP0_ASSET_NOT_NATIVE", b64: fwd(func(f *forward) { f.ops[0] = payOp(nil, testDest, credit()) }), want: CodeOp0AssetNotNative},
		// 7
		{name: "FORWARD_OP0_SOURCE_NOT_MEDIATOR/other", b64: fwd(func(f *forward) { f.ops[0].SourceAccount = otherPtr }), want: CodeOp0SourceNotMediator},
		{name: "FORWARD_OP0_SOURCE_NOT_MEDIATOR/muxed mediator", b64: fwd(func(f *forward) { f.ops[0].SourceAccount = muxedMedPtr }), want: CodeOp0SourceNotMediator},
		{name: "FORWARD_OP0_SOURCE_NOT_MEDIATOR/v0", b64: fwd(func(f *forward) { f.v0 = true; f.ops[0].SourceAccount = otherPtr }), want: CodeOp0SourceNotMediator},
		// 8
		{name: "FORWARD_OP1_NOT_ACCOUNT_MERGE/payment", b64: fwd(func(f *forward) { f.ops[1] = payOp(nil, testDest, native()) }), want: CodeOp1NotAccountMerge},
		{name: "FORWARD_OP1_NOT_ACCOUNT_MERGE/bump", b64: fwd(func(f *forward) { f.ops[1] = bumpOp(nil) }), want: CodeOp1NotAccountMerge},
		// 9
		{name: "FORWARD_OP1_SOURCE_NOT_MEDIATOR/other", b64: fwd(func(f *forward) { f.ops[1].SourceAccount = otherPtr }), want: CodeOp1SourceNotMediator},
		{name: "FORWARD_OP1_SOURCE_NOT_MEDIATOR/muxed mediator", b64: fwd(func(f *forward) { f.ops[1].SourceAccount = muxedMedPtr }), want: CodeOp1SourceNotMediator},
		// 10
		{name: "FORWARD_DESTINATION_MISMATCH/merge elsewhere", b64: fwd(func(f *forward) { f.ops[1] = mergeOp(nil, otherDest) }), want: CodeDestinationMismatch},
		{name: "FORWARD_DESTINATION_MISMATCH/pay elsewhere", b64: fwd(func(f *forward) { f.ops[0] = payOp(nil, otherDest, native()) }), want: CodeDestinationMismatch},
		{name: "FORWARD_DESTINATION_MISMATCH/pay M merge G same key", b64: fwd(func(f *forward) {
			f.ops[0] = payOp(nil, muxed(testDest, 5), native())
		}), want: CodeDestinationMismatch},
		{name: "FORWARD_DESTINATION_MISMATCH/different mux ids", b64: fwd(func(f *forward) {
			f.ops[0] = payOp(nil, muxed(testDest, 5), native())
			f.ops[1] = mergeOp(nil, muxed(testDest, 6))
		}), want: CodeDestinationMismatch},
		// 11
		{name: "FORWARD_DESTINATION_NOT_COMMITTED/other account", b64: fwd(func(f *forward) {
			f.ops[0] = payOp(nil, otherDest, native())
			f.ops[1] = mergeOp(nil, otherDest)
		}), want: CodeDestinationNotCommitted},
		{name: "FORWARD_DESTINATION_NOT_COMMITTED/muxed destination", b64: fwd(func(f *forward) {
			f.ops[0] = payOp(nil, muxed(testDest, 5), native())
			f.ops[1] = mergeOp(nil, muxed(testDest, 5))
		}), want: CodeDestinationNotCommitted},
		{name: "FORWARD_DESTINATION_NOT_COMMITTED/to the mediator", b64: fwd(func(f *forward) {
			f.ops[0] = payOp(nil, testMediator, native())
			f.ops[1] = mergeOp(nil, testMediator)
		}), want: CodeDestinationNotCommitted},
		// 12, site 1: no time bounds at all
		{name: "MISSING_TIME_BOUNDS/none", b64: fwd(func(f *forward) { f.cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondNone} }),
			want: CodeMissingTimeBounds, why: reasonNoTimeBounds},
		{name: "MISSING_TIME_BOUNDS/v2 without time bounds", b64: fwd(func(f *forward) {
			f.cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{MinSeqAge: 1}}
		}), want: CodeMissingTimeBounds, why: reasonNoTimeBounds},
		{name: "MISSING_TIME_BOUNDS/v0 none", b64: fwd(func(f *forward) {
			f.v0 = true
			f.cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondNone}
		}), want: CodeMissingTimeBounds, why: reasonNoTimeBounds},
		// 12, site 2: time bounds present, maxTime zero (unbounded)
		{name: "MISSING_TIME_BOUNDS/maxTime zero", b64: fwd(func(f *forward) { f.cond = timeCond(0, 0) }),
			want: CodeMissingTimeBounds, why: reasonNoMaxTime},
		{name: "MISSING_TIME_BOUNDS/maxTime zero with minTime", b64: fwd(func(f *forward) { f.cond = timeCond(uint64(t0.Unix()), 0) }),
			want: CodeMissingTimeBounds, why: reasonNoMaxTime},
		{name: "MISSING_TIME_BOUNDS/v2 maxTime zero", b64: fwd(func(f *forward) {
			f.cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{TimeBounds: &xdr.TimeBounds{}}}
		}), want: CodeMissingTimeBounds, why: reasonNoMaxTime},
		{name: "MISSING_TIME_BOUNDS/v0 maxTime zero", b64: fwd(func(f *forward) { f.v0 = true; f.cond = timeCond(0, 0) }),
			want: CodeMissingTimeBounds, why: reasonNoMaxTime},
		// 13
		{name: "TIME_BOUNDS_EXCESSIVE/3601s", b64: fwd(func(f *forward) { f.cond = timeCond(0, maxOK+1) }), want: CodeTimeBoundsExcessive},
		{name: "TIME_BOUNDS_EXCESSIVE/max uint64", b64: fwd(func(f *forward) { f.cond = timeCond(0, math.MaxUint64) }), want: CodeTimeBoundsExcessive},
		{name: "TIME_BOUNDS_EXCESSIVE/v0", b64: fwd(func(f *forward) { f.v0 = true; f.cond = timeCond(0, maxOK+1) }), want: CodeTimeBoundsExcessive},
	}
}

func TestValidateForwardCodes(t *testing.T) {
	cases := forwardCodeCases()
	runForwardCases(t, cases)

	// The table itself must reach every code, so a new code cannot go untested.
	seen := map[Code]bool{}
	for _, tc := range cases {
		seen[tc.want] = true
	}
	for _, c := range ForwardCodes() {
		if !seen[c] {
			t.Errorf("no case answers %s", c)
		}
	}
}

// TestValidateForwardTieBreaks: each envelope fails two checks and must
// answer the earlier one.
func TestValidateForwardTieBreaks(t *testing.T) {
	runForwardCases(t, []forwardCase{
		{name: "fee-bump over wrong source", b64: fwd(func(f *forward) { f.feeBump = true; f.txSource = acct(otherDest) }), want: CodeFeeBumpNotAllowed},
		{name: "fee-bump over wrong op count", b64: fwd(func(f *forward) { f.feeBump = true; f.ops = f.ops[:1] }), want: CodeFeeBumpNotAllowed},
		{name: "tx source over op count", b64: fwd(func(f *forward) { f.txSource = acct(otherDest); f.ops = nil }), want: CodeTxSourceNotMediator},
		{name: "op count over op0 type", b64: fwd(func(f *forward) { f.ops = []xdr.Operation{bumpOp(nil), mergeOp(nil, testDest), bumpOp(nil)} }), want: CodeWrongOperationCount},
		{name: "op0 type over op1 type", b64: fwd(func(f *forward) { f.ops = []xdr.Operation{bumpOp(nil), bumpOp(nil)} }), want: CodeOp0NotPayment},
		{name: "op0 asset over op0 source", b64: fwd(func(f *forward) { f.ops[0] = payOp(otherPtr, testDest, credit()) }), want: CodeOp0AssetNotNative},
		{name: "op0 source over op1 type", b64: fwd(func(f *forward) { f.ops[0].SourceAccount = otherPtr; f.ops[1] = bumpOp(nil) }), want: CodeOp0SourceNotMediator},
		{name: "op1 type over op1 source", b64: fwd(func(f *forward) { f.ops[1] = bumpOp(otherPtr) }), want: CodeOp1NotAccountMerge},
		{name: "op1 source over mismatch", b64: fwd(func(f *forward) { f.ops[1] = mergeOp(otherPtr, otherDest) }), want: CodeOp1SourceNotMediator},
		{name: "mismatch over not committed", b64: fwd(func(f *forward) {
			f.ops[0] = payOp(nil, otherDest, native())
			f.ops[1] = mergeOp(nil, testMediator)
		}), want: CodeDestinationMismatch},
		{name: "mismatch over missing time bounds", b64: fwd(func(f *forward) {
			f.ops[1] = mergeOp(nil, otherDest)
			f.cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondNone}
		}), want: CodeDestinationMismatch},
		{name: "not committed over missing time bounds", b64: fwd(func(f *forward) {
			f.ops[0] = payOp(nil, otherDest, native())
			f.ops[1] = mergeOp(nil, otherDest)
			f.cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondNone}
		}), want: CodeDestinationNotCommitted},
		{name: "not committed over excessive", b64: fwd(func(f *forward) {
			f.ops[0] = payOp(nil, otherDest, native())
			f.ops[1] = mergeOp(nil, otherDest)
			f.cond = timeCond(0, maxOK+1)
		}), want: CodeDestinationNotCommitted},
		{name: "missing time bounds over everything after it", b64: fwd(func(f *forward) {
			f.cond = timeCond(math.MaxUint64, 0)
		}), want: CodeMissingTimeBounds, why: reasonNoMaxTime},
	})
}

// TestValidateForwardHorizon walks the 3,600-second edge, including a clock
// with a fractional second, where the comparison must still be exact.
func TestValidateForwardHorizon(t *testing.T) {
	for _, frac := range []int{0, 1, 999_999_999} {
		now := t0.Add(time.Duration(frac))
		for _, tc := range []struct {
			ahead int64
			want  Code
		}{
			{3599, ""}, {3600, ""}, {3601, CodeTimeBoundsExcessive}, {7200, CodeTimeBoundsExcessive},
		} {
			b64 := newForwardAt(uint64(t0.Unix() + tc.ahead))
			err := ValidateForward(b64, testMediator, testDest, now)
			if got := CodeOf(err); got != tc.want {
				t.Errorf("now+%dns, maxTime now+%ds: code %q, want %q", frac, tc.ahead, got, tc.want)
			}
		}
	}
}

// TestValidateForwardWrongBindings: the checks use the mediator and
// destination they are given, not anything in the envelope.
func TestValidateForwardWrongBindings(t *testing.T) {
	b64 := fwd(nil)
	if got := CodeOf(ValidateForward(b64, otherDest, testDest, t0)); got != CodeTxSourceNotMediator {
		t.Errorf("other mediator: %s", got)
	}
	if got := CodeOf(ValidateForward(b64, testMediator, otherDest, t0)); got != CodeDestinationNotCommitted {
		t.Errorf("other committed destination: %s", got)
	}
	if got := CodeOf(ValidateForward(b64, muxed(testMediator, 0), testDest, t0)); got != CodeTxSourceNotMediator {
		t.Errorf("muxed mediator address: %s", got)
	}
}

func newForwardAt(maxTime uint64) string {
	return newForward(testMediator, testDest, maxTime).b64()
}
