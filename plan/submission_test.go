package plan

import (
	"encoding/binary"
	"testing"
	"time"
)

// FuzzSubmissionTransitions drives one submission through a sequence of
// transitions chosen by the input, by two instances with their clocks, and
// checks what every instance relies on after each step: a transition that
// applies raises seq (the newest wins everywhere) and never unsets Submit;
// a claim holds for its lease against the other instance; a success is
// never replaced; an envelope that failed is not claimed again; and a
// transition that does not apply changes nothing.
func FuzzSubmissionTransitions(f *testing.F) {
	f.Add([]byte{0, 1, 10, 3, 5, 1, 2})
	f.Add([]byte{1, 0, 1, 4, 1, 2, 0, 9, 1, 5})
	f.Add([]byte{0, 1, 0, 1, 100, 3, 1, 6, 1, 1})
	f.Fuzz(func(t *testing.T, ops []byte) {
		const lease = 15 * time.Second
		instances := [2]string{"a", "b"}
		envelopes := [3]string{"env0", "env1", "env2"}
		t0 := time.Unix(1_800_000_000, 0)
		now := t0
		cur := &Submission{}
		failed := map[string]bool{} // envelopes whose last try failed
		for len(ops) >= 2 {
			op, arg := ops[0]%7, ops[1]
			ops = ops[2:]
			before := *cur
			var next *Submission
			var ok bool
			who := instances[arg%2]
			switch op {
			case 0:
				next, ok = MarkSubmit(cur)
			case 1:
				env := envelopes[int(arg/2)%len(envelopes)]
				next, ok = ClaimSubmission(cur, env, who, now, lease)
				held := cur.State == SubmissionPending && cur.Lease.Owner != who && now.Before(cur.Lease.Until)
				switch {
				case ok && held:
					t.Fatalf("%s claimed over %s's claim leased until %v at %v", who, cur.Lease.Owner, cur.Lease.Until, now)
				case ok && cur.State != SubmissionPending && cur.Tried == env && failed[env]:
					t.Fatalf("%s claimed %s, which failed", who, env)
				case ok && (next.State != SubmissionPending || next.Lease.Owner != who || !next.Lease.Until.After(now) || next.Tried != env):
					t.Fatalf("claim %+v, want %s pending on %s leased past %v", next, who, env, now)
				case !ok && cur.Submit && cur.State != SubmissionSubmitted && !held && !(cur.State != SubmissionPending && cur.Tried == env):
					t.Fatalf("%s could not claim %s from %+v", who, env, cur)
				}
			case 2:
				next, ok = Renew(cur, who, now, lease)
				if ok && (next.Lease.Owner != who || !next.Lease.Until.After(now)) {
					t.Fatalf("renew %+v by %s at %v", next, who, now)
				}
			case 3:
				if cur.State == SubmissionPending && cur.Lease.Owner == who {
					next, ok = Release(cur, who)
					if ok && !next.Lease.Until.IsZero() {
						t.Fatalf("released claim leased until %v", next.Lease.Until)
					}
				}
			case 4, 5:
				out := Submission{State: SubmissionSubmitted, Hash: testHash, Ledger: int64(arg)}
				if op == 5 {
					out = Submission{State: SubmissionFailed, Code: "tx_bad_seq"}
				}
				if cur.State != SubmissionPending {
					break // an outcome comes only of a claim
				}
				next, ok = SettleSubmission(cur, out, nil)
				if before.State == SubmissionSubmitted && ok && next.State != SubmissionSubmitted {
					t.Fatalf("a failure replaced a success: %+v", next)
				}
				if ok && next.Tried != cur.Tried {
					t.Fatalf("settled %+v lost the envelope tried %q", next, cur.Tried)
				}
			case 6:
				now = now.Add(time.Duration(binary.BigEndian.Uint16([]byte{arg, arg})) * time.Millisecond)
				continue
			}
			if *cur != before {
				t.Fatalf("a transition modified the submission it was given: %+v, was %+v", *cur, before)
			}
			if !ok {
				if next != nil {
					t.Fatalf("a transition that does not apply returned %+v", next)
				}
				continue
			}
			if next.Seq <= cur.Seq {
				t.Fatalf("seq %d after %d", next.Seq, cur.Seq)
			}
			if cur.Submit && !next.Submit {
				t.Fatal("Submit was unset")
			}
			if cur.State == SubmissionSubmitted && next.State != SubmissionSubmitted {
				t.Fatalf("a success was replaced by %+v", next)
			}
			if next.State == SubmissionFailed {
				failed[next.Tried] = true
			}
			if next.State == SubmissionPending {
				delete(failed, next.Tried)
			}
			cur = next
		}
	})
}
