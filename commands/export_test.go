package commands

// What the kernel's external tests (package commands_test, which may use the capabilities) read
// of its insides.

// OpenSessions is how many sessions the member aggregate holds.
func OpenSessions(m *Member) int { return len(m.sessions) }

// CachedStreams is how many aggregates the service keeps in memory.
func CachedStreams(s *Service) int { return s.cache.len() }
