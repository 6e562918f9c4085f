package commands

// What the kernel's external tests (package commands_test, which may use the capabilities) read
// of its insides.

// OpenSessions is how many sessions the member aggregate holds.
func OpenSessions(m *Member) int { return len(m.sessions) }

// CachedStreams is how many aggregates the service keeps in memory.
func CachedStreams(s *Service) int { return s.cache.len() }

// CachedEvents is how many events the cache counts its aggregates as holding, and how many they
// hold by their versions.
func CachedEvents(s *Service) (counted, held int64) {
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	for _, e := range s.cache.m.Values() {
		held += e.weight
	}
	return s.cache.events, held
}
