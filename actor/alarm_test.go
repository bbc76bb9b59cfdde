package actor

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestAlarmOfAReplacedArmingIsIgnored: a timer that fired while the loop
// was in a turn has its alarm on the way; a re-arm in that turn replaces
// it, and the loop must then serve only the new arming's alarm, once.
// Without the arming's count an alarm of the old arming would be served
// as the new one's, early, and the new one's again later.
func TestAlarmOfAReplacedArmingIsIgnored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := &Plan{alarms: make(chan alarm), done: make(chan struct{})}
		defer close(p.done)
		var lt loopTimer
		p.arm(&lt, alarm{what: alarmLife}, 0)
		synctest.Wait() // fired: its alarm waits to be taken
		p.arm(&lt, alarm{what: alarmLife}, time.Minute)
		if old := <-p.alarms; lt.takes(old) {
			t.Fatal("the alarm of a replaced arming was taken")
		}
		start := time.Now()
		a := <-p.alarms
		if !lt.takes(a) {
			t.Fatal("the alarm of the timer as armed was not taken")
		}
		if d := time.Since(start); d != time.Minute {
			t.Errorf("the new arming fired after %v, want 1m", d)
		}
		if lt.takes(a) {
			t.Error("one alarm was taken twice")
		}
		lt.stop()
		p.arm(&lt, alarm{what: alarmLife}, 0)
		lt.stop()
		synctest.Wait()
		select {
		case a := <-p.alarms:
			if lt.takes(a) {
				t.Error("an alarm of a stopped timer was taken")
			}
		default:
		}
	})
}
