package storage_test

import "sync"

// atOnce runs op(0) … op(n-1) in n goroutines held at one gate, opens the gate once all of them
// are started, and returns when every op has returned: the races of the store's tests, with
// the ops as close together as the scheduler lets them be.
func atOnce(n int, op func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			op(i)
		})
	}
	close(start)
	wg.Wait()
}
