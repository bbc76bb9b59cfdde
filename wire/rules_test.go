package wire_test

import (
	"strings"
	"testing"
	"time"

	"github.com/closerelay/closerelay/wire"
)

func TestParsePlanID(t *testing.T) {
	lower := strings.Repeat("0123456789abcdef", 4)
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{lower, lower, true},
		{strings.ToUpper(lower), lower, true},
		{"ABCDEF" + lower[6:], "abcdef" + lower[6:], true},
		{lower[:63], "", false},
		{lower + "0", "", false},
		{lower[:63] + "g", "", false},
		{lower[:63] + "G", "", false},
		{"", "", false},
	} {
		got, ok := wire.ParsePlanID(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParsePlanID(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if wire.ValidPlanID(tc.in) != tc.ok {
			t.Errorf("ValidPlanID(%q) != %v", tc.in, tc.ok)
		}
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	for d, want := range map[time.Duration]int{
		-time.Second:           1,
		0:                      1,
		time.Nanosecond:        1,
		time.Second:            1,
		time.Second + 1:        2,
		59*time.Second + 999e6: 60,
		60 * time.Second:       60,
	} {
		if got := wire.RetryAfterSeconds(d); got != want {
			t.Errorf("RetryAfterSeconds(%v) = %d, want %d", d, got, want)
		}
	}
}
