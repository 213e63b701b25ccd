package botapi

// SystemClock returns the real time as a Clock, for the parts outside this package that take
// one (a nil Clock means the same to a Pacer and LocalBudgets).
func SystemClock() Clock { return systemClock{} }
