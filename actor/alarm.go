package actor

import "time"

// A plan's timers (its life, and each claimed effect's renewal and
// takeover) only post an alarm to the run loop, which serves it in its
// one arm for every timer, in the manner of net/http2's afterFunc and
// sendServeMsg: no timer's channel is selected on, so a timer armed or
// stopped in a turn needs no care of what the loop waits on.

// alarmWhat names what an alarm is for.
type alarmWhat int

const (
	alarmLife     alarmWhat = iota // the plan's next instant (Plan.nextWake)
	alarmRenew                     // renew the claim of claim, in flight
	alarmTakeover                  // another instance's claim of claim lapsed
)

// alarm is one timer's fire: what for, and the arming it is of.
type alarm struct {
	what  alarmWhat
	claim claimKind
	gen   uint64
}

// loopTimer is one of a plan's timers. gen counts its armings and stops,
// so that the loop tells a fire of the timer as armed now from one of an
// arming since replaced, whose alarm may already be on its way. Run loop
// only.
type loopTimer struct {
	t   *time.Timer
	gen uint64
}

// arm (re)arms lt to post a in d: an alarm of its earlier arming, not
// served yet, is ignored (takes). Run loop only.
func (p *Plan) arm(lt *loopTimer, a alarm, d time.Duration) {
	lt.stop()
	a.gen = lt.gen
	lt.t = time.AfterFunc(d, func() {
		select {
		case p.alarms <- a:
		case <-p.done: // the plan has ended: nobody to tell
		}
	})
}

// stop disarms lt: an alarm it posted, not served yet, is ignored.
func (lt *loopTimer) stop() {
	if lt.t != nil {
		lt.t.Stop()
		lt.t = nil
	}
	lt.gen++
}

// takes reports whether a is lt's alarm as armed now, and disarms lt if
// so: a timer fires once per arming.
func (lt *loopTimer) takes(a alarm) bool {
	if lt.t == nil || a.gen != lt.gen {
		return false
	}
	lt.t = nil
	lt.gen++
	return true
}

// serveAlarm serves a timer's alarm; an error ends the plan. Run loop
// only.
func (p *Plan) serveAlarm(a alarm) error {
	p.owner.check()
	switch a.what {
	case alarmLife:
		if !p.life.takes(a) {
			return nil
		}
		p.armed = time.Time{}
		if p.wake() {
			return ErrNotFound
		}
	case alarmRenew:
		if p.claims[a.claim].renew.takes(a) {
			p.renewClaim(a.claim)
		}
	case alarmTakeover:
		if p.claims[a.claim].takeover.takes(a) {
			p.takeOver(a.claim)
		}
	}
	return nil
}
