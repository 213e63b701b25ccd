package storage

import (
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// wallClockTick is how often FollowWallClock moves an embedded server's clock.
const wallClockTick = 20 * time.Millisecond

// FollowWallClock makes the embedded server m expire keys as a real Redis does, as time
// passes: miniredis moves its clock only when told (FastForward), so without this a TTL would
// never run out (a flood-limit hold would last forever, finished games would never go). The
// clock moves in steps of about 20 ms. stop ends it and waits until it has; call it before
// closing m. A test that moves m's clock itself must not use this.
func FollowWallClock(m *miniredis.Miniredis) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(wallClockTick)
		defer t.Stop()
		last := time.Now()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				m.FastForward(now.Sub(last))
				last = now
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		wg.Wait()
	}
}
