package main

import (
	"context"
	"sync"
	"time"
)

// rampTick is how often ramp releases a batch of new connections: small
// enough that the rate is smooth, large enough not to wake up for each one.
const rampTick = 10 * time.Millisecond

// ramp calls open(i) for every i in [0, n), in order, at no more than rate a
// second and with no more than workers calls in flight at once, so that
// neither the relay's accept queue nor the generator's dialing bursts. It
// returns once every call it started has returned; if ctx ends first, the
// remaining indices are not opened.
func ramp(ctx context.Context, n, rate, workers int, open func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := range jobs {
				open(i)
			}
		})
	}
	defer wg.Wait()
	defer close(jobs)

	tick := time.NewTicker(rampTick)
	defer tick.Stop()
	for i, k := 0, int64(1); i < n; k++ {
		// After k ticks' worth of time, rate×k×rampTick may have been released.
		allowed := min(n, int(int64(rate)*k*int64(rampTick)/int64(time.Second)))
		for ; i < allowed; i++ {
			if ctx.Err() != nil {
				return // select alone could still pick an idle worker
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
		if i == n {
			return
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

// signAll sends each plan's partials in order, one per plan per interval,
// until duration has passed since it started or the plan has none left. Plan
// i starts i/len(plans) of an interval after plan 0, so the relay sees an
// even flow rather than one burst of requests each interval. A plan's
// requests are sequential: when one takes longer than the interval the next
// goes out as soon as it returns. It returns each plan's records once every
// plan is done or ctx has ended.
func signAll(ctx context.Context, partials [][]string, interval, duration time.Duration, post func(ctx context.Context, plan int, partial string) postRecord) [][]postRecord {
	out := make([][]postRecord, len(partials))
	start := time.Now()
	var wg sync.WaitGroup
	for i, valid := range partials {
		offset := time.Duration(int64(interval) * int64(i) / int64(len(partials)))
		wg.Go(func() {
			t := time.NewTimer(offset)
			defer t.Stop()
			for k, partial := range valid {
				due := offset + time.Duration(k)*interval
				if due >= duration || ctx.Err() != nil {
					return // (a late plan's timer is ready at once: select alone could pick it)
				}
				if k > 0 {
					t.Reset(due - time.Since(start))
				}
				select {
				case <-t.C:
				case <-ctx.Done():
					return
				}
				out[i] = append(out[i], post(ctx, i, partial))
			}
		})
	}
	wg.Wait()
	return out
}
