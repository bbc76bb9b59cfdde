package ledger_test

import (
	"math"
	"testing"
	"time"

	"github.com/closerelay/closerelay/ledger"
)

func TestPlanExpiry(t *testing.T) {
	publish := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	p := uint64(publish.Unix())
	window := publish.Add(72 * time.Hour)
	tests := []struct {
		name    string
		publish time.Time
		maxTime uint64
		want    time.Time
	}{
		{"no maxTime: the window", publish, 0, window},
		{"maxTime after the window", publish, p + 100*3600, window},
		{"maxTime before the window", publish, p + 3600, publish.Add(time.Hour - time.Minute)},
		{"maxTime a second past window plus grace", publish, p + 72*3600 + 61, window},
		{"maxTime exactly window plus grace", publish, p + 72*3600 + 60, window},
		{"maxTime inside the grace: already past", publish, p + 30, publish.Add(-30 * time.Second)},
		{"tiny maxTime", publish, 1, time.Unix(-59, 0)},
		{"maxTime at MaxInt64", publish, math.MaxInt64, window},
		{"maxTime above int64", publish, math.MaxInt64 + 1, window},
		{"maxTime at MaxUint64", publish, math.MaxUint64, window},
		{
			// The window ends half a second into a second that the deadline
			// starts: the deadline is earlier.
			"sub-second publish, deadline in the window's last second",
			publish.Add(500 * time.Millisecond), p + 72*3600 + 60, window,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ledger.PlanExpiry(tt.publish, tt.maxTime)
			if !got.Equal(tt.want) {
				t.Errorf("PlanExpiry(%v, %d) = %v, want %v", tt.publish, tt.maxTime, got, tt.want)
			}
			if limit := tt.publish.Add(ledger.SigningWindow); got.After(limit) {
				t.Errorf("expiry %v after the signing window %v", got, limit)
			}
		})
	}
}
