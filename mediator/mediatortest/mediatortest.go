// Package mediatortest builds forward envelopes for tests of mediator
// co-signing: the accepted shape, and tables of that shape broken one check at
// a time (Cases) or two checks at a time (TieBreaks). The mediator package's
// own tests and the HTTP layer's black-box tests both run these tables, so the
// unit and the wire answers are checked against the same envelopes.
//
// It does not import mediator, so that mediator's in-package tests can import
// it; codes are therefore plain strings. Test use only: the keys below are
// fixed and public.
package mediatortest

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Fixed keys. Secret and OtherSecret are valid master seeds; the others are
// unrelated accounts of which only the address is needed.
const (
	Secret      = "SCQ4TCDKE62QWMZFW7PTKBHDTKNUIQE65R3U2DXAP2NZIB634R2KZWPP"
	OtherSecret = "SAIWUO6NVSCD7AXFIVZMO5EV24EFE6BNTG7IM2FFTUVT42R647FNGKQY"
	Dest        = "GATKWYOWMTFO75T6BXHL6I5BYIOXID5J6ZCPSGD635SXCUZD6XH7EO7E"
	OtherDest   = "GBUCMI3UOURNDZO6AM52AIYQB6FIVHPAWBNSAXS44N3GV4XVFJ55YP25"
	Issuer      = "GA36ZD7G7AUM4J7KROYTHHRBSNA4ARLTJKTTZLEXQJB2JPW3YY4GS2O5"
)

// Words that tell MISSING_TIME_BOUNDS's two sites apart: each appears in the
// reason of its own site only (mediator's tests hold the reasons to that).
const (
	ReasonNoTimeBounds = "no time bounds"
	ReasonNoMaxTime    = "maxTime"
)

// Acct is addr (G… or M…) as an XDR account; it panics on a bad address.
func Acct(addr string) xdr.MuxedAccount { return xdr.MustMuxedAddress(addr) }

// AcctPtr is Acct for an operation's optional source.
func AcctPtr(addr string) *xdr.MuxedAccount { a := Acct(addr); return &a }

// Muxed returns the M… form of the G… address g with the given id.
func Muxed(g string, id uint64) string {
	m, err := xdr.MuxedAccountFromAccountId(g, id)
	if err != nil {
		panic(err)
	}
	s, err := m.GetAddress()
	if err != nil {
		panic(err)
	}
	return s
}

// Pay is a PAYMENT of 1 unit of asset to dest; src nil leaves the source out.
func Pay(src *xdr.MuxedAccount, dest string, asset xdr.Asset) xdr.Operation {
	return xdr.Operation{SourceAccount: src, Body: xdr.OperationBody{
		Type:      xdr.OperationTypePayment,
		PaymentOp: &xdr.PaymentOp{Destination: Acct(dest), Asset: asset, Amount: 10_000_000},
	}}
}

// Merge is an ACCOUNT_MERGE into dest; src nil leaves the source out.
func Merge(src *xdr.MuxedAccount, dest string) xdr.Operation {
	return xdr.Operation{SourceAccount: src, Body: xdr.OperationBody{
		Type:        xdr.OperationTypeAccountMerge,
		Destination: AcctPtr(dest),
	}}
}

// Bump is a BUMP_SEQUENCE: an operation that is neither of the forward's two.
func Bump(src *xdr.MuxedAccount) xdr.Operation {
	return xdr.Operation{SourceAccount: src, Body: xdr.OperationBody{
		Type:           xdr.OperationTypeBumpSequence,
		BumpSequenceOp: &xdr.BumpSequenceOp{BumpTo: 1},
	}}
}

// Native is the native asset.
func Native() xdr.Asset { return xdr.MustNewNativeAsset() }

// Credit is USD issued by Issuer.
func Credit() xdr.Asset { return xdr.MustNewCreditAsset("USD", Issuer) }

// TimeCond is PRECOND_TIME with the given bounds (0 is "unbounded" on the ledger).
func TimeCond(minTime, maxTime uint64) xdr.Preconditions {
	return xdr.Preconditions{Type: xdr.PreconditionTypePrecondTime,
		TimeBounds: &xdr.TimeBounds{MinTime: xdr.TimePoint(minTime), MaxTime: xdr.TimePoint(maxTime)}}
}

// NoTimeBounds is PRECOND_NONE.
func NoTimeBounds() xdr.Preconditions {
	return xdr.Preconditions{Type: xdr.PreconditionTypePrecondNone}
}

// Forward describes an envelope to build. NewForward gives the accepted
// shape; a test breaks one field at a time.
type Forward struct {
	V0       bool // legacy envelope: source is TxSource's ed25519 key, Cond keeps only its time bounds
	FeeBump  bool // wrap the V1 transaction in a fee-bump paid by OtherDest
	TxSource xdr.MuxedAccount
	Ops      []xdr.Operation
	Cond     xdr.Preconditions
	Sigs     []xdr.DecoratedSignature
	Memo     *xdr.Memo // nil: DefaultMemo
}

// DefaultMemo is the memo of a Forward whose Memo is nil: MEMO_ID 4242.
func DefaultMemo() xdr.Memo { return xdr.MemoID(4242) }

// NewForward is the accepted forward of mediator to dest: a native payment
// and a merge, both with the source omitted, and time bounds [0, maxTime].
func NewForward(mediator, dest string, maxTime uint64) *Forward {
	return &Forward{
		TxSource: Acct(mediator),
		Ops:      []xdr.Operation{Pay(nil, dest, Native()), Merge(nil, dest)},
		Cond:     TimeCond(0, maxTime),
	}
}

// Envelope renders f. The fee and sequence are fixed, and so is the memo
// unless f.Memo sets it: the mediator leaves them to the wallet, apart from a
// memo that the flow token commits (CONTRACT section 13).
func (f *Forward) Envelope() xdr.TransactionEnvelope {
	memo := DefaultMemo()
	if f.Memo != nil {
		memo = *f.Memo
	}
	if f.V0 {
		var tb *xdr.TimeBounds
		switch f.Cond.Type {
		case xdr.PreconditionTypePrecondTime:
			tb = f.Cond.TimeBounds
		case xdr.PreconditionTypePrecondV2:
			tb = f.Cond.V2.TimeBounds
		}
		return xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTxV0, V0: &xdr.TransactionV0Envelope{
			Tx: xdr.TransactionV0{
				SourceAccountEd25519: f.TxSource.ToAccountId().MustEd25519(),
				Fee:                  200, SeqNum: 7, TimeBounds: tb, Memo: memo, Operations: f.Ops,
			},
			Signatures: f.Sigs,
		}}
	}
	v1 := xdr.TransactionV1Envelope{
		Tx: xdr.Transaction{
			SourceAccount: f.TxSource, Fee: 200, SeqNum: 7, Cond: f.Cond, Memo: memo, Operations: f.Ops,
		},
		Signatures: f.Sigs,
	}
	if !f.FeeBump {
		return xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &v1}
	}
	return xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTxFeeBump, FeeBump: &xdr.FeeBumpTransactionEnvelope{
		Tx: xdr.FeeBumpTransaction{
			FeeSource: Acct(OtherDest), Fee: 400,
			InnerTx: xdr.FeeBumpTransactionInnerTx{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &v1},
		},
	}}
}

// B64 is the envelope as base64 XDR, the form the route takes.
func (f *Forward) B64() string {
	s, err := xdr.MarshalBase64(f.Envelope())
	if err != nil {
		panic(err)
	}
	return s
}

// DummySigs returns n decorated signatures from unrelated keys, so tests can
// check that co-signing keeps what was there.
func DummySigs(n int) []xdr.DecoratedSignature {
	out := make([]xdr.DecoratedSignature, n)
	for i := range out {
		var seed [32]byte
		seed[0] = byte(i + 1)
		kp, err := keypair.FromRawSeed(seed)
		if err != nil {
			panic(err)
		}
		sig, err := kp.SignDecorated(bytes.Repeat([]byte{byte(i)}, 32))
		if err != nil {
			panic(err)
		}
		out[i] = sig
	}
	return out
}

// Case is one envelope and the answer it must get.
type Case struct {
	Name      string
	B64       string // "" is the empty envelope (MALFORMED_XDR to the package, BAD_REQUEST on the route)
	Want      string // the forward code; "" for an accepted forward
	ReasonHas string // for MISSING_TIME_BOUNDS, ReasonNoTimeBounds or ReasonNoMaxTime
}

// Cases returns every accepted shape and every forward code (all 14 sites of
// the 13 codes) for a flow of mediator to dest, judged at now. The broken
// envelopes start from NewForward with maxTime five minutes after now.
func Cases(mediator, dest string, now time.Time) []Case {
	fwd := builder(mediator, dest, now)
	valid := fwd(nil)
	raw, _ := base64.StdEncoding.DecodeString(valid)
	medPtr, otherPtr, muxedMedPtr := AcctPtr(mediator), AcctPtr(OtherDest), AcctPtr(Muxed(mediator, 1))
	maxOK := uint64(now.Unix()) + 3600
	return []Case{
		// Accepted shapes.
		{Name: "accepted/v1 omitted op sources", B64: valid},
		{Name: "accepted/v1 explicit op sources", B64: fwd(func(f *Forward) {
			f.Ops[0].SourceAccount, f.Ops[1].SourceAccount = medPtr, medPtr
		})},
		{Name: "accepted/one explicit one omitted", B64: fwd(func(f *Forward) { f.Ops[1].SourceAccount = medPtr })},
		{Name: "accepted/v0", B64: fwd(func(f *Forward) { f.V0 = true })},
		{Name: "accepted/v0 explicit op sources", B64: fwd(func(f *Forward) {
			f.V0 = true
			f.Ops[0].SourceAccount, f.Ops[1].SourceAccount = medPtr, medPtr
		})},
		{Name: "accepted/preconditions v2", B64: fwd(func(f *Forward) {
			f.Cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{
				TimeBounds: &xdr.TimeBounds{MaxTime: xdr.TimePoint(maxOK)}}}
		})},
		{Name: "accepted/maxTime exactly 3600s ahead", B64: fwd(func(f *Forward) { f.Cond = TimeCond(0, maxOK) })},
		{Name: "accepted/maxTime equal to now", B64: fwd(func(f *Forward) { f.Cond = TimeCond(0, uint64(now.Unix())) })},
		{Name: "accepted/maxTime already past", B64: fwd(func(f *Forward) { f.Cond = TimeCond(0, uint64(now.Unix())-100) })},
		{Name: "accepted/maxTime 1", B64: fwd(func(f *Forward) { f.Cond = TimeCond(0, 1) })},
		{Name: "accepted/with signatures", B64: fwd(func(f *Forward) { f.Sigs = DummySigs(3) })},

		// 1
		{Name: "MALFORMED_XDR/empty", B64: "", Want: "MALFORMED_XDR"},
		{Name: "MALFORMED_XDR/not base64", B64: "!!not base64!!", Want: "MALFORMED_XDR"},
		{Name: "MALFORMED_XDR/short", B64: "AAAA", Want: "MALFORMED_XDR"},
		{Name: "MALFORMED_XDR/truncated", B64: base64.StdEncoding.EncodeToString(raw[:len(raw)-4]), Want: "MALFORMED_XDR"},
		{Name: "MALFORMED_XDR/trailing bytes", B64: base64.StdEncoding.EncodeToString(append(raw[:len(raw):len(raw)], 0, 0, 0, 0)), Want: "MALFORMED_XDR"},
		{Name: "MALFORMED_XDR/unknown envelope type", B64: base64.StdEncoding.EncodeToString(append([]byte{0, 0, 0, 9}, raw[4:]...)), Want: "MALFORMED_XDR"},
		{Name: "MALFORMED_XDR/url alphabet", B64: strings.NewReplacer("+", "-", "/", "_").Replace(valid) + "-_", Want: "MALFORMED_XDR"},
		// 2
		{Name: "FEE_BUMP_NOT_ALLOWED", B64: fwd(func(f *Forward) { f.FeeBump = true }), Want: "FEE_BUMP_NOT_ALLOWED"},
		// 3
		{Name: "FORWARD_TX_SOURCE_NOT_MEDIATOR/other account", B64: fwd(func(f *Forward) { f.TxSource = Acct(OtherDest) }), Want: "FORWARD_TX_SOURCE_NOT_MEDIATOR"},
		{Name: "FORWARD_TX_SOURCE_NOT_MEDIATOR/muxed mediator", B64: fwd(func(f *Forward) { f.TxSource = Acct(Muxed(mediator, 0)) }), Want: "FORWARD_TX_SOURCE_NOT_MEDIATOR"},
		{Name: "FORWARD_TX_SOURCE_NOT_MEDIATOR/v0 other key", B64: fwd(func(f *Forward) { f.V0 = true; f.TxSource = Acct(OtherDest) }), Want: "FORWARD_TX_SOURCE_NOT_MEDIATOR"},
		// 4
		{Name: "WRONG_OPERATION_COUNT/none", B64: fwd(func(f *Forward) { f.Ops = nil }), Want: "WRONG_OPERATION_COUNT"},
		{Name: "WRONG_OPERATION_COUNT/one", B64: fwd(func(f *Forward) { f.Ops = f.Ops[:1] }), Want: "WRONG_OPERATION_COUNT"},
		{Name: "WRONG_OPERATION_COUNT/three", B64: fwd(func(f *Forward) { f.Ops = append(f.Ops, Bump(nil)) }), Want: "WRONG_OPERATION_COUNT"},
		// 5
		{Name: "FORWARD_OP0_NOT_PAYMENT/bump", B64: fwd(func(f *Forward) { f.Ops[0] = Bump(nil) }), Want: "FORWARD_OP0_NOT_PAYMENT"},
		{Name: "FORWARD_OP0_NOT_PAYMENT/swapped", B64: fwd(func(f *Forward) { f.Ops[0], f.Ops[1] = f.Ops[1], f.Ops[0] }), Want: "FORWARD_OP0_NOT_PAYMENT"},
		// 6
		{Name: "FORWARD_OP0_ASSET_NOT_NATIVE", B64: fwd(func(f *Forward) { f.Ops[0] = Pay(nil, dest, Credit()) }), Want: "FORWARD_OP0_ASSET_NOT_NATIVE"},
		// 7
		{Name: "FORWARD_OP0_SOURCE_NOT_MEDIATOR/other", B64: fwd(func(f *Forward) { f.Ops[0].SourceAccount = otherPtr }), Want: "FORWARD_OP0_SOURCE_NOT_MEDIATOR"},
		{Name: "FORWARD_OP0_SOURCE_NOT_MEDIATOR/muxed mediator", B64: fwd(func(f *Forward) { f.Ops[0].SourceAccount = muxedMedPtr }), Want: "FORWARD_OP0_SOURCE_NOT_MEDIATOR"},
		{Name: "FORWARD_OP0_SOURCE_NOT_MEDIATOR/v0", B64: fwd(func(f *Forward) { f.V0 = true; f.Ops[0].SourceAccount = otherPtr }), Want: "FORWARD_OP0_SOURCE_NOT_MEDIATOR"},
		// 8
		{Name: "FORWARD_OP1_NOT_ACCOUNT_MERGE/payment", B64: fwd(func(f *Forward) { f.Ops[1] = Pay(nil, dest, Native()) }), Want: "FORWARD_OP1_NOT_ACCOUNT_MERGE"},
		{Name: "FORWARD_OP1_NOT_ACCOUNT_MERGE/bump", B64: fwd(func(f *Forward) { f.Ops[1] = Bump(nil) }), Want: "FORWARD_OP1_NOT_ACCOUNT_MERGE"},
		// 9
		{Name: "FORWARD_OP1_SOURCE_NOT_MEDIATOR/other", B64: fwd(func(f *Forward) { f.Ops[1].SourceAccount = otherPtr }), Want: "FORWARD_OP1_SOURCE_NOT_MEDIATOR"},
		{Name: "FORWARD_OP1_SOURCE_NOT_MEDIATOR/muxed mediator", B64: fwd(func(f *Forward) { f.Ops[1].SourceAccount = muxedMedPtr }), Want: "FORWARD_OP1_SOURCE_NOT_MEDIATOR"},
		// 10
		{Name: "FORWARD_DESTINATION_MISMATCH/merge elsewhere", B64: fwd(func(f *Forward) { f.Ops[1] = Merge(nil, OtherDest) }), Want: "FORWARD_DESTINATION_MISMATCH"},
		{Name: "FORWARD_DESTINATION_MISMATCH/pay elsewhere", B64: fwd(func(f *Forward) { f.Ops[0] = Pay(nil, OtherDest, Native()) }), Want: "FORWARD_DESTINATION_MISMATCH"},
		{Name: "FORWARD_DESTINATION_MISMATCH/pay M merge G same key", B64: fwd(func(f *Forward) {
			f.Ops[0] = Pay(nil, Muxed(dest, 5), Native())
		}), Want: "FORWARD_DESTINATION_MISMATCH"},
		{Name: "FORWARD_DESTINATION_MISMATCH/different mux ids", B64: fwd(func(f *Forward) {
			f.Ops[0] = Pay(nil, Muxed(dest, 5), Native())
			f.Ops[1] = Merge(nil, Muxed(dest, 6))
		}), Want: "FORWARD_DESTINATION_MISMATCH"},
		// 11
		{Name: "FORWARD_DESTINATION_NOT_COMMITTED/other account", B64: fwd(func(f *Forward) {
			f.Ops[0] = Pay(nil, OtherDest, Native())
			f.Ops[1] = Merge(nil, OtherDest)
		}), Want: "FORWARD_DESTINATION_NOT_COMMITTED"},
		{Name: "FORWARD_DESTINATION_NOT_COMMITTED/muxed destination", B64: fwd(func(f *Forward) {
			f.Ops[0] = Pay(nil, Muxed(dest, 5), Native())
			f.Ops[1] = Merge(nil, Muxed(dest, 5))
		}), Want: "FORWARD_DESTINATION_NOT_COMMITTED"},
		{Name: "FORWARD_DESTINATION_NOT_COMMITTED/to the mediator", B64: fwd(func(f *Forward) {
			f.Ops[0] = Pay(nil, mediator, Native())
			f.Ops[1] = Merge(nil, mediator)
		}), Want: "FORWARD_DESTINATION_NOT_COMMITTED"},
		// 12, site 1: no time bounds at all
		{Name: "MISSING_TIME_BOUNDS/none", B64: fwd(func(f *Forward) { f.Cond = NoTimeBounds() }),
			Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoTimeBounds},
		{Name: "MISSING_TIME_BOUNDS/v2 without time bounds", B64: fwd(func(f *Forward) {
			f.Cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{MinSeqAge: 1}}
		}), Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoTimeBounds},
		{Name: "MISSING_TIME_BOUNDS/v0 none", B64: fwd(func(f *Forward) {
			f.V0 = true
			f.Cond = NoTimeBounds()
		}), Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoTimeBounds},
		// 12, site 2: time bounds present, maxTime zero (unbounded)
		{Name: "MISSING_TIME_BOUNDS/maxTime zero", B64: fwd(func(f *Forward) { f.Cond = TimeCond(0, 0) }),
			Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoMaxTime},
		{Name: "MISSING_TIME_BOUNDS/maxTime zero with minTime", B64: fwd(func(f *Forward) { f.Cond = TimeCond(uint64(now.Unix()), 0) }),
			Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoMaxTime},
		{Name: "MISSING_TIME_BOUNDS/v2 maxTime zero", B64: fwd(func(f *Forward) {
			f.Cond = xdr.Preconditions{Type: xdr.PreconditionTypePrecondV2, V2: &xdr.PreconditionsV2{TimeBounds: &xdr.TimeBounds{}}}
		}), Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoMaxTime},
		{Name: "MISSING_TIME_BOUNDS/v0 maxTime zero", B64: fwd(func(f *Forward) { f.V0 = true; f.Cond = TimeCond(0, 0) }),
			Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoMaxTime},
		// 13
		{Name: "TIME_BOUNDS_EXCESSIVE/3601s", B64: fwd(func(f *Forward) { f.Cond = TimeCond(0, maxOK+1) }), Want: "TIME_BOUNDS_EXCESSIVE"},
		{Name: "TIME_BOUNDS_EXCESSIVE/max uint64", B64: fwd(func(f *Forward) { f.Cond = TimeCond(0, math.MaxUint64) }), Want: "TIME_BOUNDS_EXCESSIVE"},
		{Name: "TIME_BOUNDS_EXCESSIVE/v0", B64: fwd(func(f *Forward) { f.V0 = true; f.Cond = TimeCond(0, maxOK+1) }), Want: "TIME_BOUNDS_EXCESSIVE"},
	}
}

// TieBreaks returns envelopes that each fail two checks and must answer the
// earlier one: one for every adjacent pair of the 13 codes, named "n over
// n+1", and a few wider pairs. Two pairs cannot be built exactly and are
// approached as closely as the checks allow: 5/6 (only a payment has the
// asset that check 6 reads, so op0 is a path payment of a credit asset) and
// 12/13 (a maxTime of 0 is never beyond the horizon, so minTime lies beyond
// it instead).
func TieBreaks(mediator, dest string, now time.Time) []Case {
	fwd := builder(mediator, dest, now)
	otherPtr := AcctPtr(OtherDest)
	beyond := uint64(now.Unix()) + 3601
	feeBump, _ := base64.StdEncoding.DecodeString(fwd(func(f *Forward) { f.FeeBump = true }))
	return []Case{
		{Name: "1 over 2: truncated fee-bump", B64: base64.StdEncoding.EncodeToString(feeBump[:len(feeBump)-4]), Want: "MALFORMED_XDR"},
		{Name: "2 over 3: fee-bump of another source", B64: fwd(func(f *Forward) { f.FeeBump = true; f.TxSource = Acct(OtherDest) }), Want: "FEE_BUMP_NOT_ALLOWED"},
		{Name: "2 over 4: fee-bump with one operation", B64: fwd(func(f *Forward) { f.FeeBump = true; f.Ops = f.Ops[:1] }), Want: "FEE_BUMP_NOT_ALLOWED"},
		{Name: "3 over 4: other source, no operations", B64: fwd(func(f *Forward) { f.TxSource = Acct(OtherDest); f.Ops = nil }), Want: "FORWARD_TX_SOURCE_NOT_MEDIATOR"},
		{Name: "3 over 4: muxed mediator source, one operation", B64: fwd(func(f *Forward) { f.TxSource = Acct(Muxed(mediator, 9)); f.Ops = f.Ops[:1] }), Want: "FORWARD_TX_SOURCE_NOT_MEDIATOR"},
		{Name: "4 over 5: three operations, op0 not a payment", B64: fwd(func(f *Forward) { f.Ops = []xdr.Operation{Bump(nil), Merge(nil, dest), Bump(nil)} }), Want: "WRONG_OPERATION_COUNT"},
		{Name: "5 over 6: op0 a path payment of a credit asset", B64: fwd(func(f *Forward) {
			f.Ops[0] = xdr.Operation{Body: xdr.OperationBody{
				Type: xdr.OperationTypePathPaymentStrictReceive,
				PathPaymentStrictReceiveOp: &xdr.PathPaymentStrictReceiveOp{
					SendAsset: Credit(), SendMax: 10_000_000, Destination: Acct(dest), DestAsset: Credit(), DestAmount: 10_000_000,
				},
			}}
		}), Want: "FORWARD_OP0_NOT_PAYMENT"},
		{Name: "5 over 8: neither operation right", B64: fwd(func(f *Forward) { f.Ops = []xdr.Operation{Bump(nil), Bump(nil)} }), Want: "FORWARD_OP0_NOT_PAYMENT"},
		{Name: "6 over 7: credit paid from another source", B64: fwd(func(f *Forward) { f.Ops[0] = Pay(otherPtr, dest, Credit()) }), Want: "FORWARD_OP0_ASSET_NOT_NATIVE"},
		{Name: "7 over 8: op0 from another source, op1 not a merge", B64: fwd(func(f *Forward) { f.Ops[0].SourceAccount = otherPtr; f.Ops[1] = Bump(nil) }), Want: "FORWARD_OP0_SOURCE_NOT_MEDIATOR"},
		{Name: "7 over 9: both operations from a muxed mediator", B64: fwd(func(f *Forward) {
			f.Ops[0].SourceAccount, f.Ops[1].SourceAccount = AcctPtr(Muxed(mediator, 1)), AcctPtr(Muxed(mediator, 1))
		}), Want: "FORWARD_OP0_SOURCE_NOT_MEDIATOR"},
		{Name: "8 over 9: op1 not a merge, from another source", B64: fwd(func(f *Forward) { f.Ops[1] = Bump(otherPtr) }), Want: "FORWARD_OP1_NOT_ACCOUNT_MERGE"},
		{Name: "9 over 10: op1 from another source, merging elsewhere", B64: fwd(func(f *Forward) { f.Ops[1] = Merge(otherPtr, OtherDest) }), Want: "FORWARD_OP1_SOURCE_NOT_MEDIATOR"},
		{Name: "10 over 11: two destinations, neither committed", B64: fwd(func(f *Forward) {
			f.Ops[0] = Pay(nil, OtherDest, Native())
			f.Ops[1] = Merge(nil, mediator)
		}), Want: "FORWARD_DESTINATION_MISMATCH"},
		{Name: "10 over 12: merge elsewhere, no time bounds", B64: fwd(func(f *Forward) {
			f.Ops[1] = Merge(nil, OtherDest)
			f.Cond = NoTimeBounds()
		}), Want: "FORWARD_DESTINATION_MISMATCH"},
		{Name: "11 over 12: both elsewhere, no time bounds", B64: fwd(func(f *Forward) {
			f.Ops[0] = Pay(nil, OtherDest, Native())
			f.Ops[1] = Merge(nil, OtherDest)
			f.Cond = NoTimeBounds()
		}), Want: "FORWARD_DESTINATION_NOT_COMMITTED"},
		{Name: "11 over 12: muxed destination, maxTime zero", B64: fwd(func(f *Forward) {
			f.Ops[0] = Pay(nil, Muxed(dest, 2), Native())
			f.Ops[1] = Merge(nil, Muxed(dest, 2))
			f.Cond = TimeCond(0, 0)
		}), Want: "FORWARD_DESTINATION_NOT_COMMITTED"},
		{Name: "11 over 13: both elsewhere, maxTime beyond the horizon", B64: fwd(func(f *Forward) {
			f.Ops[0] = Pay(nil, OtherDest, Native())
			f.Ops[1] = Merge(nil, OtherDest)
			f.Cond = TimeCond(0, beyond)
		}), Want: "FORWARD_DESTINATION_NOT_COMMITTED"},
		{Name: "12 over 13: maxTime zero, minTime beyond the horizon", B64: fwd(func(f *Forward) {
			f.Cond = TimeCond(math.MaxUint64, 0)
		}), Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoMaxTime},
	}
}

// builder returns a function that renders NewForward(mediator, dest,
// now+300 s) after edit (nil for the accepted shape).
func builder(mediator, dest string, now time.Time) func(edit func(*Forward)) string {
	return func(edit func(*Forward)) string {
		f := NewForward(mediator, dest, uint64(now.Unix())+300)
		if edit != nil {
			edit(f)
		}
		return f.B64()
	}
}

// MemoNotCommitted is CONTRACT section 13's forward code for a forward that
// does not carry the memo its flow token commits.
const MemoNotCommitted = "FORWARD_MEMO_NOT_COMMITTED"

// Commitment is a memo query value of CONTRACT section 13 and the memo it
// commits a forward to.
type Commitment struct {
	Query string   // the `memo` query value, as a wallet sends it
	Token string   // its canonical spelling, the text the token's fifth part encodes
	Memo  xdr.Memo // what the forward must carry
}

// Commitments returns one commitment of each memo type, with values that
// show the canonical spelling: a text with a dot, a colon and a non-ASCII
// character, an id at the uint64 limit, and hash and return values given in
// uppercase (rendered lowercase).
func Commitments() []Commitment {
	var h, r xdr.Hash
	for i := range h {
		h[i], r[i] = byte(0xa0+i), byte(0xa0+i)
	}
	r[31] ^= 0xff
	hexOf := func(x xdr.Hash) string { return hex.EncodeToString(x[:]) }
	return []Commitment{
		{Query: "text:Deposit 1.5: Zoë", Token: "text:Deposit 1.5: Zoë", Memo: xdr.MemoText("Deposit 1.5: Zoë")},
		{Query: "id:18446744073709551615", Token: "id:18446744073709551615", Memo: xdr.MemoID(math.MaxUint64)},
		{Query: "hash:" + strings.ToUpper(hexOf(h)), Token: "hash:" + hexOf(h), Memo: xdr.MemoHash(h)},
		{Query: "return:" + hexOf(r), Token: "return:" + hexOf(r), Memo: xdr.MemoRetHash(r)},
	}
}

// OtherMemos returns memos that are not committed: MEMO_NONE, the same type
// with another value, and every other type, among them the same 32 bytes
// under the other of hash and return, and an id's digits as text.
func OtherMemos(committed xdr.Memo) []xdr.Memo {
	var h xdr.Hash
	copy(h[:], bytes.Repeat([]byte{0x5a}, 32))
	text, id := "memo", uint64(1)
	out := []xdr.Memo{{Type: xdr.MemoTypeMemoNone}}
	switch committed.Type {
	case xdr.MemoTypeMemoText:
		t := *committed.Text
		out = append(out, xdr.MemoText(t+"x"), xdr.MemoText(strings.ToUpper(t)), xdr.MemoText(t[:len(t)-1]), xdr.MemoText(" "+t))
	case xdr.MemoTypeMemoId:
		n := uint64(*committed.Id)
		out = append(out, xdr.MemoID(n-1), xdr.MemoID(n^1<<32))
		text = strconv.FormatUint(n, 10)
		id = n
	case xdr.MemoTypeMemoHash:
		h = *committed.Hash
		other := h
		other[0] ^= 1
		out = append(out, xdr.MemoHash(other))
	case xdr.MemoTypeMemoReturn:
		h = *committed.RetHash
		other := h
		other[31] ^= 0x80
		out = append(out, xdr.MemoRetHash(other))
	}
	for _, m := range []xdr.Memo{xdr.MemoText(text), xdr.MemoID(id), xdr.MemoHash(h), xdr.MemoRetHash(h)} {
		if m.Type != committed.Type {
			out = append(out, m)
		}
	}
	return out
}

// MemoCases returns, for a flow of mediator to dest that commits memo, the
// forwards that carry it (accepted), the forwards that carry another memo
// (MemoNotCommitted), and the tie-breaks around that check: a wrong
// destination wins over a wrong memo, and a wrong memo wins over missing or
// excessive time bounds, while a right memo lets those answer.
func MemoCases(mediator, dest string, now time.Time, memo xdr.Memo) []Case {
	fwd := builder(mediator, dest, now)
	with := func(m xdr.Memo, edit func(*Forward)) string {
		return fwd(func(f *Forward) {
			f.Memo = &m
			if edit != nil {
				edit(f)
			}
		})
	}
	wrong := OtherMemos(memo)[0]
	cases := []Case{
		{Name: "accepted/committed memo", B64: with(memo, nil)},
		{Name: "accepted/committed memo v0", B64: with(memo, func(f *Forward) { f.V0 = true })},
		{Name: "accepted/committed memo, signatures kept", B64: with(memo, func(f *Forward) { f.Sigs = DummySigs(2) })},
	}
	for i, m := range OtherMemos(memo) {
		cases = append(cases, Case{Name: MemoNotCommitted + "/" + memoName(m) + "/" + strconv.Itoa(i), B64: with(m, nil), Want: MemoNotCommitted})
	}
	cases = append(cases,
		Case{Name: MemoNotCommitted + "/v0 without the memo", B64: with(wrong, func(f *Forward) { f.V0 = true }), Want: MemoNotCommitted},
		Case{Name: "11 over memo: destination elsewhere, memo wrong", B64: with(wrong, func(f *Forward) {
			f.Ops[0] = Pay(nil, OtherDest, Native())
			f.Ops[1] = Merge(nil, OtherDest)
		}), Want: "FORWARD_DESTINATION_NOT_COMMITTED"},
		Case{Name: "11 with memo right: destination elsewhere", B64: with(memo, func(f *Forward) {
			f.Ops[0] = Pay(nil, OtherDest, Native())
			f.Ops[1] = Merge(nil, OtherDest)
		}), Want: "FORWARD_DESTINATION_NOT_COMMITTED"},
		Case{Name: "10 over memo: two destinations, memo wrong", B64: with(wrong, func(f *Forward) {
			f.Ops[1] = Merge(nil, OtherDest)
		}), Want: "FORWARD_DESTINATION_MISMATCH"},
		Case{Name: "memo over 12: memo wrong, no time bounds", B64: with(wrong, func(f *Forward) { f.Cond = NoTimeBounds() }), Want: MemoNotCommitted},
		Case{Name: "memo over 12: memo wrong, maxTime zero", B64: with(wrong, func(f *Forward) { f.Cond = TimeCond(0, 0) }), Want: MemoNotCommitted},
		Case{Name: "memo over 13: memo wrong, maxTime beyond the horizon", B64: with(wrong, func(f *Forward) {
			f.Cond = TimeCond(0, uint64(now.Unix())+3601)
		}), Want: MemoNotCommitted},
		Case{Name: "12 after memo: memo right, no time bounds", B64: with(memo, func(f *Forward) { f.Cond = NoTimeBounds() }),
			Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoTimeBounds},
		Case{Name: "12 after memo: memo right, maxTime zero", B64: with(memo, func(f *Forward) { f.Cond = TimeCond(0, 0) }),
			Want: "MISSING_TIME_BOUNDS", ReasonHas: ReasonNoMaxTime},
		Case{Name: "13 after memo: memo right, maxTime beyond the horizon", B64: with(memo, func(f *Forward) {
			f.Cond = TimeCond(0, uint64(now.Unix())+3601)
		}), Want: "TIME_BOUNDS_EXCESSIVE"},
	)
	return cases
}

func memoName(m xdr.Memo) string {
	switch m.Type {
	case xdr.MemoTypeMemoText:
		return "text"
	case xdr.MemoTypeMemoId:
		return "id"
	case xdr.MemoTypeMemoHash:
		return "hash"
	case xdr.MemoTypeMemoReturn:
		return "return"
	}
	return "none"
}
