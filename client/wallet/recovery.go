package wallet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/closerelay/closerelay/client"
)

// RecordVersion is the version of the recovery record's JSON shape.
const RecordVersion = 1

// ErrFlowExpired is returned by Resume when the record's flow token has
// expired: the mediator will not co-sign for it any more, so the forward
// cannot be completed through the relay.
var ErrFlowExpired = errors.New("wallet: the flow token has expired")

// resumeMargin is how much validity a stored forward must have left to be
// sent again as it is; with less, it would expire on its way to the ledger.
const resumeMargin = 30 * time.Second

// Record is the recovery record of a forward that did not complete (SPEC item
// 3). The relay stores nothing for it, so the client keeps everything needed
// to ask for the co-signature again. The flow token is a bearer credential
// for this one forward: the file is written readable by its owner only.
type Record struct {
	Version           int       `json:"version"`
	FlowToken         string    `json:"flowToken"`
	MediatorPublicKey string    `json:"mediatorPublicKey"`
	Destination       string    `json:"destination"`
	Memo              Memo      `json:"memo"`
	Network           string    `json:"network"`
	Envelope          string    `json:"envelope"` // the unsigned forward
	Time              time.Time `json:"time"`     // when the record was written
	LastError         string    `json:"lastError,omitempty"`
}

// NewRecord builds the record of a forward about to be (or that failed to
// be) co-signed. Everything but the token and the network is read from the
// forward itself, so the record cannot disagree with what was sent.
func NewRecord(networkID string, flow MediatorFlow, forwardXDR string, now time.Time) (Record, error) {
	if _, err := Passphrase(networkID); err != nil {
		return Record{}, err
	}
	fwd, _, err := ForwardOf(forwardXDR)
	if err != nil {
		return Record{}, err
	}
	if fwd.Mediator != flow.MediatorPublicKey || fwd.Destination != flow.Destination {
		return Record{}, errors.New("wallet: the forward does not belong to the flow (mediator or destination differ)")
	}
	memo, err := MemoOf(fwd.Memo)
	if err != nil {
		return Record{}, err
	}
	return Record{
		Version:           RecordVersion,
		FlowToken:         flow.Token,
		MediatorPublicKey: flow.MediatorPublicKey,
		Destination:       flow.Destination,
		Memo:              memo,
		Network:           networkID,
		Envelope:          forwardXDR,
		Time:              now.UTC(),
	}, nil
}

// Flow is the record's mediator flow, checked as NewMediatorFlow checks a
// fresh one.
func (r Record) Flow() (MediatorFlow, error) {
	return NewMediatorFlow(client.Flow{FlowToken: r.FlowToken, MediatorPublicKey: r.MediatorPublicKey}, r.Destination)
}

// Validate checks that the record is complete and self-consistent.
func (r Record) Validate() error {
	if r.Version != RecordVersion {
		return fmt.Errorf("wallet: recovery record version %d is not %d", r.Version, RecordVersion)
	}
	if _, err := Passphrase(r.Network); err != nil {
		return err
	}
	flow, err := r.Flow()
	if err != nil {
		return err
	}
	if _, err := r.Memo.Txn(); err != nil {
		return err
	}
	fwd, _, err := ForwardOf(r.Envelope)
	if err != nil {
		return err
	}
	if fwd.Mediator != flow.MediatorPublicKey || fwd.Destination != flow.Destination {
		return errors.New("wallet: the record's envelope does not match its mediator and destination")
	}
	if m, err := MemoOf(fwd.Memo); err != nil || m != r.Memo {
		return errors.New("wallet: the record's envelope does not carry the record's memo")
	}
	if !flow.Memo.IsZero() && flow.Memo != r.Memo {
		return fmt.Errorf("wallet: the record's forward carries memo %s, but its flow token commits to %s", r.Memo, flow.Memo)
	}
	return nil
}

// Save writes the record to path atomically (a crash leaves the old file or
// the new one, never half of one), readable by its owner only.
func (r Record) Save(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("wallet: save recovery record: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("wallet: save recovery record: %w", err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("wallet: save recovery record: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("wallet: save recovery record: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("wallet: save recovery record: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("wallet: save recovery record: %w", err)
	}
	return nil
}

// LoadRecord reads and validates a record written by Save.
func LoadRecord(path string) (Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Record{}, fmt.Errorf("wallet: load recovery record: %w", err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return Record{}, fmt.Errorf("wallet: load recovery record %s: %w", path, err)
	}
	if err := r.Validate(); err != nil {
		return Record{}, err
	}
	return r, nil
}

// ResumeOptions tune Resume.
type ResumeOptions struct {
	Now     func() time.Time // time.Now when nil
	Timeout time.Duration    // a rebuilt forward's time bound; DefaultForwardTimeout when zero
}

// Resumed is what Resume did.
type Resumed struct {
	client.Cosigned
	// Envelope is the forward that was sent: the record's, or a rebuilt one.
	Envelope string
	// Rebuilt is true when the stored forward's time bound had (nearly)
	// passed and a fresh one was built: same sequence, amount, memo and fee.
	Rebuilt bool
}

// Resume completes a recorded forward: it checks the flow is still live,
// rebuilds the forward with fresh time bounds when the stored one has (or
// nearly has) expired, sends it for co-signing and verifies the answer.
// The caller submits Resumed.SignedXDR to the ledger and then deletes the
// record; on failure it may update the record's LastError and keep it.
func Resume(ctx context.Context, c *client.Client, r Record, opts ResumeOptions) (Resumed, error) {
	if err := r.Validate(); err != nil {
		return Resumed{}, err
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	flow, err := r.Flow()
	if err != nil {
		return Resumed{}, err
	}
	if !now().Before(flow.Expiry) {
		return Resumed{}, fmt.Errorf("%w (at %s)", ErrFlowExpired, flow.Expiry.UTC().Format(time.RFC3339))
	}
	envelope := r.Envelope
	fwd, maxTime, err := ForwardOf(envelope)
	if err != nil {
		return Resumed{}, err
	}
	out := Resumed{}
	if maxTime.Sub(now()) < resumeMargin {
		fwd.Timeout, fwd.Now = opts.Timeout, now
		tx, err := BuildForward(fwd)
		if err != nil {
			return Resumed{}, err
		}
		if envelope, err = tx.Base64(); err != nil {
			return Resumed{}, err
		}
		out.Rebuilt = true
	}
	out.Envelope = envelope
	cosigned, err := CosignForward(ctx, c, r.Network, flow, envelope)
	if err != nil {
		return out, err
	}
	out.Cosigned = cosigned
	return out, nil
}
