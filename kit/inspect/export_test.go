package inspect

// SetMostBytes lowers the bytes the store keeps in all, so that a test
// reaches the bound without building MaxBytes of runs.
func (s *Store) SetMostBytes(n int) { s.most = n }

// EventPlace is what an event costs the store besides its bytes.
const EventPlace = eventPlace
