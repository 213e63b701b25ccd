package game

// FlightWaiters returns how many calls wait for a search another call of this Service runs.
func (s *Service) FlightWaiters() int {
	s.flights.mu.Lock()
	defer s.flights.mu.Unlock()
	return s.flights.waiters
}
