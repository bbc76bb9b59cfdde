package ledgertest

import (
	"crypto/sha256"
	"fmt"
	"strconv"

	"github.com/closerelay/closerelay/ledger"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/protocols/horizon"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Every builder here panics on failure: its inputs come from the test, so a
// failure is a bug in the test, and a panic names it without threading a
// testing.TB through code the demo also runs.

// Account is a test account: its keys and the signer list the account API
// double serves for it.
type Account struct {
	Address    string                    // the account's G… address (its master key)
	Master     *keypair.Full             // the master key
	Keys       []*keypair.Full           // Keys[i] is the key of Signers[i]
	Signers    []horizon.Signer          // as the account API lists them: extra signers, then the master
	Thresholds horizon.AccountThresholds // high threshold: every signer's weight together
}

// NewAccount makes an account with a random master key and nSigners extra
// random signers, every one of weight weight. The signer list puts the extra
// signers first and the master last, as Horizon does, so Keys[i] is signer i
// of the candidate set the relay reads (ledger.CandidateSet: when weight > 0).
func NewAccount(nSigners int, weight int32) Account {
	return newAccount(keypair.MustRandom(), nSigners, weight, func(int) *keypair.Full { return keypair.MustRandom() })
}

// DeterministicAccount is NewAccount with keys from Keypair: account seed
// gives the master Keypair(seed*100), signer i Keypair(seed*100+1+i), so
// reproducible material (golden files, fuzz seeds) can be rebuilt.
func DeterministicAccount(seed, nSigners int, weight int32) Account {
	return newAccount(Keypair(seed*100), nSigners, weight, func(i int) *keypair.Full { return Keypair(seed*100 + 1 + i) })
}

func newAccount(master *keypair.Full, nSigners int, weight int32, key func(int) *keypair.Full) Account {
	a := Account{Address: master.Address(), Master: master}
	for i := range nSigners {
		a.Keys = append(a.Keys, key(i))
	}
	a.Keys = append(a.Keys, master)
	total := int32(0)
	for _, k := range a.Keys {
		a.Signers = append(a.Signers, horizon.Signer{Weight: weight, Key: k.Address(), Type: "ed25519_public_key"})
		total += weight
	}
	a.Thresholds = horizon.AccountThresholds{LowThreshold: clampByte(weight), MedThreshold: clampByte(weight), HighThreshold: clampByte(total)}
	return a
}

func clampByte(v int32) byte { return byte(min(max(v, 0), 255)) }

// Keypair is a deterministic key: the same i always gives the same key.
func Keypair(i int) *keypair.Full {
	seed := sha256.Sum256([]byte("closerelay ledgertest key " + strconv.Itoa(i)))
	kp, err := keypair.FromRawSeed(seed)
	if err != nil {
		panic(fmt.Sprintf("ledgertest: key %d: %v", i, err))
	}
	return kp
}

// BuildClose builds a close of src's account into dest: one ACCOUNT_MERGE,
// sequence number seq, time bounds [0, maxTime] (maxTime 0: no upper bound),
// signed by signers under passphrase. It returns the envelope's base64 XDR
// and the transaction hash (the plan id's bytes).
func BuildClose(src *keypair.Full, dest string, seq int64, maxTime int64, passphrase string, signers ...*keypair.Full) (xdrB64 string, hash [32]byte) {
	return build(src.Address(), seq, maxTime, passphrase, signers,
		&txnbuild.AccountMerge{Destination: dest})
}

// BuildTx builds a transaction with source account source, sequence number
// seq, time bounds [0, maxTime] and the given operations, signed by signers
// under passphrase: the way to make closes of other shapes (a separate fee
// payer, operations before the merge) and non-closes.
func BuildTx(source string, seq int64, maxTime int64, passphrase string, ops []txnbuild.Operation, signers ...*keypair.Full) (xdrB64 string, hash [32]byte) {
	return build(source, seq, maxTime, passphrase, signers, ops...)
}

// BuildPayment builds a transaction that is not a close: one payment of 1
// native unit from src to dest, signed by signers under passphrase.
func BuildPayment(src *keypair.Full, dest string, seq int64, passphrase string, signers ...*keypair.Full) (xdrB64 string, hash [32]byte) {
	return build(src.Address(), seq, 0, passphrase, signers,
		&txnbuild.Payment{Destination: dest, Amount: "1", Asset: txnbuild.NativeAsset{}})
}

func build(source string, seq int64, maxTime int64, passphrase string, signers []*keypair.Full, ops ...txnbuild.Operation) (string, [32]byte) {
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount: &txnbuild.SimpleAccount{AccountID: source, Sequence: seq},
		Operations:    ops,
		BaseFee:       txnbuild.MinBaseFee,
		Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewTimebounds(0, maxTime)},
	})
	if err != nil {
		panic("ledgertest: build transaction: " + err.Error())
	}
	if len(signers) > 0 {
		if tx, err = tx.Sign(passphrase, signers...); err != nil {
			panic("ledgertest: sign: " + err.Error())
		}
	}
	b64, err := tx.Base64()
	if err != nil {
		panic("ledgertest: encode: " + err.Error())
	}
	hash, err := tx.Hash(passphrase)
	if err != nil {
		panic("ledgertest: hash: " + err.Error())
	}
	return b64, hash
}

// Hash is the transaction hash of an envelope under passphrase.
func Hash(xdrB64, passphrase string) [32]byte {
	env := decode(xdrB64)
	h, err := ledger.HashEnvelope(env, passphrase)
	if err != nil {
		panic("ledgertest: hash: " + err.Error())
	}
	return h
}

// Signature is kp's decorated signature of hash, under kp's own hint.
func Signature(hash [32]byte, kp *keypair.Full) xdr.DecoratedSignature {
	sig, err := kp.SignDecorated(hash[:])
	if err != nil {
		panic("ledgertest: sign: " + err.Error())
	}
	return sig
}

// ForgedSignature is kp's valid signature of hash presented under hint
// instead of kp's own: what an attacker replaying a captured signature sends.
func ForgedSignature(hash [32]byte, kp *keypair.Full, hint [4]byte) xdr.DecoratedSignature {
	sig := Signature(hash, kp)
	sig.Hint = hint
	return sig
}

// SignXDR adds a signature by each of kps to the envelope (classic or
// fee-bump), under passphrase, and returns the new envelope.
func SignXDR(xdrB64, passphrase string, kps ...*keypair.Full) string {
	hash := Hash(xdrB64, passphrase)
	sigs := make([]xdr.DecoratedSignature, len(kps))
	for i, kp := range kps {
		sigs[i] = Signature(hash, kp)
	}
	return AppendSignatures(xdrB64, sigs...)
}

// SignXDRWithHint adds kp's valid signature under a forged hint.
func SignXDRWithHint(xdrB64, passphrase string, kp *keypair.Full, hint [4]byte) string {
	return AppendSignatures(xdrB64, ForgedSignature(Hash(xdrB64, passphrase), kp, hint))
}

// AppendSignatures adds sigs, as given, to the envelope's signature list:
// garbage, duplicates and forged hints included. It does not enforce the
// ledger's cap of 20 (the encoder does: more is a panic).
func AppendSignatures(xdrB64 string, sigs ...xdr.DecoratedSignature) string {
	env := decode(xdrB64)
	switch env.Type {
	case xdr.EnvelopeTypeEnvelopeTypeTxFeeBump:
		fb := *env.FeeBump
		fb.Signatures = append(append([]xdr.DecoratedSignature(nil), fb.Signatures...), sigs...)
		env.FeeBump = &fb
	default:
		env = ledger.WithSignatures(env, append(append([]xdr.DecoratedSignature(nil), env.Signatures()...), sigs...))
	}
	return encode(env)
}

// StripSignatures is the envelope with no signature at all.
func StripSignatures(xdrB64 string) string {
	env := decode(xdrB64)
	if env.Type == xdr.EnvelopeTypeEnvelopeTypeTxFeeBump {
		fb := *env.FeeBump
		fb.Signatures = nil
		env.FeeBump = &fb
		return encode(env)
	}
	return encode(ledger.WithSignatures(env, nil))
}

// FeeBump wraps a classic V1 envelope in a fee-bump paid by feeSource and
// signed by it under passphrase.
func FeeBump(innerB64 string, feeSource *keypair.Full, passphrase string) string {
	gtx, err := txnbuild.TransactionFromXDR(innerB64)
	if err != nil {
		panic("ledgertest: fee-bump inner: " + err.Error())
	}
	inner, ok := gtx.Transaction()
	if !ok {
		panic("ledgertest: fee-bump inner is not a classic transaction")
	}
	fb, err := txnbuild.NewFeeBumpTransaction(txnbuild.FeeBumpTransactionParams{
		Inner: inner, FeeAccount: feeSource.Address(), BaseFee: txnbuild.MinBaseFee * 2,
	})
	if err != nil {
		panic("ledgertest: fee-bump: " + err.Error())
	}
	if fb, err = fb.Sign(passphrase, feeSource); err != nil {
		panic("ledgertest: fee-bump sign: " + err.Error())
	}
	b64, err := fb.Base64()
	if err != nil {
		panic("ledgertest: fee-bump encode: " + err.Error())
	}
	return b64
}

// ToV0 re-encodes a classic V1 envelope whose source is a G… account as the
// legacy V0 envelope of the same transaction (same hash, same signatures).
// Its time bounds become the V0 time bounds; other preconditions are lost.
func ToV0(xdrB64 string) string {
	env := decode(xdrB64)
	if env.Type != xdr.EnvelopeTypeEnvelopeTypeTx || env.V1.Tx.SourceAccount.Type != xdr.CryptoKeyTypeKeyTypeEd25519 {
		panic("ledgertest: ToV0 needs a V1 envelope with a G… source")
	}
	tx := env.V1.Tx
	v0 := xdr.TransactionV0Envelope{
		Tx: xdr.TransactionV0{
			SourceAccountEd25519: *tx.SourceAccount.Ed25519,
			Fee:                  tx.Fee,
			SeqNum:               tx.SeqNum,
			TimeBounds:           tx.TimeBounds(),
			Memo:                 tx.Memo,
			Operations:           tx.Operations,
		},
		Signatures: env.V1.Signatures,
	}
	return encode(xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTxV0, V0: &v0})
}

func decode(xdrB64 string) xdr.TransactionEnvelope {
	env, err := ledger.DecodeEnvelope(xdrB64)
	if err != nil {
		panic("ledgertest: decode: " + err.Error())
	}
	return env
}

func encode(env xdr.TransactionEnvelope) string {
	b64, err := ledger.EncodeEnvelope(env)
	if err != nil {
		panic("ledgertest: encode: " + err.Error())
	}
	return b64
}
