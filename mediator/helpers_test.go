package mediator

import (
	"bytes"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Fixed keys (seeds are sha256 of a label, so they are reproducible). Only
// addresses of the destinations are needed.
const (
	testSecret = "SCQ4TCDKE62QWMZFW7PTKBHDTKNUIQE65R3U2DXAP2NZIB634R2KZWPP"
	testDest   = "GATKWYOWMTFO75T6BXHL6I5BYIOXID5J6ZCPSGD635SXCUZD6XH7EO7E"
	otherDest  = "GBUCMI3UOURNDZO6AM52AIYQB6FIVHPAWBNSAXS44N3GV4XVFJ55YP25"
	// testMediator stands in for a derived mediator where only its address
	// matters (ValidateForward is given the address).
	testMediator = "GATNJZHBWAG5GMFVAGDWXMH2OO4UE7XBIOXGRN57WEXV5IKMLV44ROO3"
	// issuer of the non-native asset in the tests.
	testIssuer = "GA36ZD7G7AUM4J7KROYTHHRBSNA4ARLTJKTTZLEXQJB2JPW3YY4GS2O5"
)

// t0 is the fixed "now" of tests that do not run in a synctest bubble.
var t0 = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func testMaster(t testing.TB) Master {
	t.Helper()
	m, err := ParseMaster(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func acct(addr string) xdr.MuxedAccount { return xdr.MustMuxedAddress(addr) }

func acctPtr(addr string) *xdr.MuxedAccount { a := acct(addr); return &a }

// muxed returns the M… form of a G… address with the given id.
func muxed(g string, id uint64) string {
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

func payOp(src *xdr.MuxedAccount, dest string, asset xdr.Asset) xdr.Operation {
	return xdr.Operation{SourceAccount: src, Body: xdr.OperationBody{
		Type:      xdr.OperationTypePayment,
		PaymentOp: &xdr.PaymentOp{Destination: acct(dest), Asset: asset, Amount: 10_000_000},
	}}
}

func mergeOp(src *xdr.MuxedAccount, dest string) xdr.Operation {
	return xdr.Operation{SourceAccount: src, Body: xdr.OperationBody{
		Type:        xdr.OperationTypeAccountMerge,
		Destination: acctPtr(dest),
	}}
}

func bumpOp(src *xdr.MuxedAccount) xdr.Operation {
	return xdr.Operation{SourceAccount: src, Body: xdr.OperationBody{
		Type:           xdr.OperationTypeBumpSequence,
		BumpSequenceOp: &xdr.BumpSequenceOp{BumpTo: 1},
	}}
}

func native() xdr.Asset { return xdr.MustNewNativeAsset() }

func credit() xdr.Asset { return xdr.MustNewCreditAsset("USD", testIssuer) }

func timeCond(minTime, maxTime uint64) xdr.Preconditions {
	return xdr.Preconditions{Type: xdr.PreconditionTypePrecondTime,
		TimeBounds: &xdr.TimeBounds{MinTime: xdr.TimePoint(minTime), MaxTime: xdr.TimePoint(maxTime)}}
}

// forward describes an envelope to build. newForward gives the accepted shape;
// test cases break one thing at a time.
type forward struct {
	v0       bool // legacy envelope: source taken from txSource's ed25519 key
	feeBump  bool // wrap the V1 transaction in a fee-bump
	txSource xdr.MuxedAccount
	ops      []xdr.Operation
	cond     xdr.Preconditions // V0 keeps only its time bounds
	sigs     []xdr.DecoratedSignature
}

func newForward(mediator, dest string, maxTime uint64) *forward {
	return &forward{
		txSource: acct(mediator),
		ops:      []xdr.Operation{payOp(nil, dest, native()), mergeOp(nil, dest)},
		cond:     timeCond(0, maxTime),
	}
}

func (f *forward) envelope() xdr.TransactionEnvelope {
	memo := xdr.MemoID(4242)
	if f.v0 {
		var tb *xdr.TimeBounds
		switch f.cond.Type {
		case xdr.PreconditionTypePrecondTime:
			tb = f.cond.TimeBounds
		case xdr.PreconditionTypePrecondV2:
			tb = f.cond.V2.TimeBounds
		}
		return xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTxV0, V0: &xdr.TransactionV0Envelope{
			Tx: xdr.TransactionV0{
				SourceAccountEd25519: f.txSource.ToAccountId().MustEd25519(),
				Fee:                  200, SeqNum: 7, TimeBounds: tb, Memo: memo, Operations: f.ops,
			},
			Signatures: f.sigs,
		}}
	}
	v1 := xdr.TransactionV1Envelope{
		Tx: xdr.Transaction{
			SourceAccount: f.txSource, Fee: 200, SeqNum: 7, Cond: f.cond, Memo: memo, Operations: f.ops,
		},
		Signatures: f.sigs,
	}
	if !f.feeBump {
		return xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &v1}
	}
	return xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTxFeeBump, FeeBump: &xdr.FeeBumpTransactionEnvelope{
		Tx: xdr.FeeBumpTransaction{
			FeeSource: acct(otherDest), Fee: 400,
			InnerTx: xdr.FeeBumpTransactionInnerTx{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &v1},
		},
	}}
}

func (f *forward) b64() string {
	s, err := xdr.MarshalBase64(f.envelope())
	if err != nil {
		panic(err)
	}
	return s
}

// dummySigs returns n decorated signatures from unrelated keys, so tests can
// check that co-signing keeps what was there.
func dummySigs(n int) []xdr.DecoratedSignature {
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
