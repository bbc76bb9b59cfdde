package actor

import (
	"testing"

	"github.com/closerelay/closerelay/plan"
)

// TestSettledEffects: what follows a submission's outcome. Subscribers are
// told every outcome; a success looks for the forward to start, never for
// another submission; a failure (or a blocked close) looks for a new
// envelope to submit, never for the forward.
func TestSettledEffects(t *testing.T) {
	for _, c := range []struct {
		state string
		want  effects
	}{
		{plan.SubmissionSubmitted, fxTellSubmission | fxForward},
		{plan.SubmissionFailed, fxTellSubmission | fxSubmit},
		{plan.SubmissionBlocked, fxTellSubmission | fxSubmit},
	} {
		if got := settled(&plan.Submission{State: c.state}); got != c.want {
			t.Errorf("settled %s: effects %b, want %b", c.state, got, c.want)
		}
	}
}
