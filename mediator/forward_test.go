package mediator

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/errcode"
	"github.com/closerelay/closerelay/ledger"
	mt "github.com/closerelay/closerelay/mediator/mediatortest"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// runForwardCases checks each case against ValidateForward for testMediator
// and testDest at t0.
func runForwardCases(t *testing.T, cases []mt.Case) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			err := ValidateForward(tc.B64, testMediator, testDest, t0)
			if tc.Want == "" {
				if err != nil {
					t.Fatalf("refused an accepted forward: %v", err)
				}
				return
			}
			var e *errcode.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *errcode.Error %s", err, err, tc.Want)
			}
			if string(e.Code) != tc.Want {
				t.Fatalf("code = %s (%s), want %s", e.Code, e.Reason, tc.Want)
			}
			if e.Status() != http.StatusBadRequest {
				t.Errorf("status = %d, want 400", e.Status())
			}
			if !strings.Contains(e.Reason, tc.ReasonHas) {
				t.Errorf("reason %q does not contain %q", e.Reason, tc.ReasonHas)
			}
		})
	}
}

func TestValidateForwardCodes(t *testing.T) {
	cases := mt.Cases(testMediator, testDest, t0)
	runForwardCases(t, cases)

	// The table itself must reach every code, so a new code cannot go untested.
	seen := map[string]bool{}
	for _, tc := range cases {
		seen[tc.Want] = true
	}
	for _, c := range ForwardCodes() {
		if !seen[string(c)] {
			t.Errorf("no case answers %s", c)
		}
	}
}

// TestValidateForwardDecodesAsTheLedger: the forward is decoded by the
// relay's one decoder, ledger.DecodeEnvelope, so a spelling that Go's lenient
// base64 reader would take (line breaks, non-zero padding bits) but the plan
// routes refuse is MALFORMED_XDR here too, on Cosign as on ValidateForward.
func TestValidateForwardDecodesAsTheLedger(t *testing.T) {
	valid := validForward()
	if !strings.HasSuffix(valid, "AA==") {
		t.Fatalf("the fixture's padding changed: %q", valid[len(valid)-4:])
	}
	for name, b64 := range map[string]string{
		"line break":             valid[:20] + "\n" + valid[20:],
		"CRLF":                   valid[:20] + "\r\n" + valid[20:],
		"trailing line break":    valid + "\n",
		"non-zero padding bits":  valid[:len(valid)-3] + "B==",
		"missing padding":        strings.TrimRight(valid, "="),
		"line break, 76 columns": valid[:76] + "\n" + valid[76:152] + "\n" + valid[152:],
	} {
		t.Run(name, func(t *testing.T) {
			var lenient xdr.TransactionEnvelope
			lenientOK := xdr.SafeUnmarshalBase64(b64, &lenient) == nil
			if _, err := ledger.DecodeEnvelope(b64); err == nil {
				t.Fatal("ledger.DecodeEnvelope accepts it")
			}
			err := ValidateForward(b64, testMediator, testDest, t0)
			if errcode.CodeOf(err) != errcode.MalformedXDR || errcode.StatusOf(err) != http.StatusBadRequest {
				t.Fatalf("ValidateForward = %v (Go's lenient decoder accepts it: %v), want MALFORMED_XDR", err, lenientOK)
			}
		})
	}
	if err := ValidateForward(valid, testMediator, testDest, t0); err != nil {
		t.Fatalf("the canonical spelling: %v", err)
	}

	svc := newTestService(testSecret)
	token, mediator, f := minted(t, svc, testDest)
	b64 := f.B64()
	if _, _, err := svc.Cosign(b64[:20]+"\n"+b64[20:], token, "testnet"); errcode.CodeOf(err) != errcode.MalformedXDR {
		t.Fatalf("Cosign of a line-broken forward: %v, want MALFORMED_XDR", err)
	}
	signed, _, err := svc.Cosign(b64, token, "testnet")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.DecodeEnvelope(signed); err != nil {
		t.Fatalf("the co-signed envelope of %s does not decode under the relay's decoder: %v", mediator, err)
	}
}

// TestValidateForwardTieBreaks: each envelope fails two checks and must
// answer the earlier one; every adjacent pair of codes has a case.
func TestValidateForwardTieBreaks(t *testing.T) {
	cases := mt.TieBreaks(testMediator, testDest, t0)
	runForwardCases(t, cases)

	codes := ForwardCodes()
	for n := 1; n < len(codes); n++ {
		prefix := strconv.Itoa(n) + " over " + strconv.Itoa(n+1) + ":"
		if !slices.ContainsFunc(cases, func(c mt.Case) bool {
			return strings.HasPrefix(c.Name, prefix) && c.Want == string(codes[n-1])
		}) {
			t.Errorf("no tie-break case %q answering %s", prefix, codes[n-1])
		}
	}
}

// TestMissingTimeBoundsReasons: the words mediatortest uses to tell the two
// MISSING_TIME_BOUNDS sites apart each pick out one reason only.
func TestMissingTimeBoundsReasons(t *testing.T) {
	if !strings.Contains(reasonNoTimeBounds, mt.ReasonNoTimeBounds) || strings.Contains(reasonNoTimeBounds, mt.ReasonNoMaxTime) {
		t.Errorf("reason %q", reasonNoTimeBounds)
	}
	if !strings.Contains(reasonNoMaxTime, mt.ReasonNoMaxTime) || strings.Contains(reasonNoMaxTime, mt.ReasonNoTimeBounds) {
		t.Errorf("reason %q", reasonNoMaxTime)
	}
}

// TestValidateForwardHorizon walks the 3,600-second edge, including a clock
// with a fractional second, where the comparison must still be exact.
func TestValidateForwardHorizon(t *testing.T) {
	for _, frac := range []int{0, 1, 999_999_999} {
		now := t0.Add(time.Duration(frac))
		for _, tc := range []struct {
			ahead int64
			want  errcode.Code
		}{
			{3599, ""}, {3600, ""}, {3601, errcode.TimeBoundsExcessive}, {7200, errcode.TimeBoundsExcessive},
		} {
			b64 := mt.NewForward(testMediator, testDest, uint64(t0.Unix()+tc.ahead)).B64()
			err := ValidateForward(b64, testMediator, testDest, now)
			if got := errcode.CodeOf(err); got != tc.want {
				t.Errorf("now+%dns, maxTime now+%ds: code %q, want %q", frac, tc.ahead, got, tc.want)
			}
		}
	}
}

// TestValidateForwardWrongBindings: the checks use the mediator and
// destination they are given, not anything in the envelope.
func TestValidateForwardWrongBindings(t *testing.T) {
	b64 := validForward()
	if got := errcode.CodeOf(ValidateForward(b64, otherDest, testDest, t0)); got != errcode.TxSourceNotMediator {
		t.Errorf("other mediator: %s", got)
	}
	if got := errcode.CodeOf(ValidateForward(b64, testMediator, otherDest, t0)); got != errcode.DestinationNotCommitted {
		t.Errorf("other committed destination: %s", got)
	}
	if got := errcode.CodeOf(ValidateForward(b64, mt.Muxed(testMediator, 0), testDest, t0)); got != errcode.TxSourceNotMediator {
		t.Errorf("muxed mediator address: %s", got)
	}
}
