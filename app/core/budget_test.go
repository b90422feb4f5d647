//go:build !js

package core_test

import (
	"testing"
)

// The cost of a delta, measured against itself in one run so that the
// machine's speed cancels out (ns/op of testing.Benchmark).
const (
	// growthBudget: one delta at 10,000 services against one at 4.
	growthBudget = 10.0
	// rejectBudget: a 64-operation delta refused at its last operation
	// against the same delta accepted, at 1,000 services.
	rejectBudget = 4.0
)

func TestDeltaCostBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks for a few seconds")
	}
	one := func(n int) float64 {
		m, c := streaming(t, n)
		i := 0
		return float64(testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				i++
				delta(b, m, c, spikes[i%2]) // a change every time
			}
		}).NsPerOp())
	}
	small, large := one(4), one(10000)
	t.Logf("one delta: %.0f ns at 4 services, %.0f ns at 10,000: %.2fx (budget %.0fx)", small, large, large/small, growthBudget)
	if large/small > growthBudget {
		t.Errorf("one delta at 10,000 services costs %.1fx one at 4, over %.0fx", large/small, growthBudget)
	}
	m, _ := streaming(t, 1000)
	sixty := func(fail bool) float64 {
		event := []byte(sixtyFour(fail))
		return float64(testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				c := fresh(b, 1000)
				b.StartTimer()
				delta(b, m, c, event)
			}
		}).NsPerOp())
	}
	accepted, rejected := sixty(false), sixty(true)
	t.Logf("64 operations at 1,000 services: accepted %.0f ns, refused %.0f ns: %.2fx (budget %.0fx)", accepted, rejected, rejected/accepted, rejectBudget)
	if rejected/accepted > rejectBudget {
		t.Errorf("a refused 64-operation delta costs %.1fx an accepted one, over %.0fx", rejected/accepted, rejectBudget)
	}
}
