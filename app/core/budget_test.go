//go:build !js

package core

import (
	"testing"
)

// The cost of a delta, measured against itself in one run so that the
// machine's speed cancels out (ns/op of testing.Benchmark).
const (
	// growthBudget: one delta at 10,000 services against one at 4.
	growthBudget = 10.0
	// rejectBudget: a 64-operation delta rejected at its last operation
	// against the same delta accepted, at 1,000 services.
	rejectBudget = 4.0
)

func TestDeltaCostBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks for a few seconds")
	}
	cost := func(w Wire, ops string) float64 {
		m := streamingModel(t, w)
		msg := received(t, 1, deltaOf(ops))
		return float64(testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				Update(m, msg)
			}
		}).NsPerOp())
	}
	small, large := cost(wireOf(4), spike), cost(wireOf(10000), spike)
	t.Logf("one delta: %.0f ns at 4 services, %.0f ns at 10,000: %.2fx (budget %.0fx)", small, large, large/small, growthBudget)
	if large/small > growthBudget {
		t.Errorf("one delta at 10,000 services costs %.1fx one at 4, over %.0fx", large/small, growthBudget)
	}
	accepted, rejected := cost(wireOf(1000), sixtyFour(false)), cost(wireOf(1000), sixtyFour(true))
	t.Logf("64 operations at 1,000 services: accepted %.0f ns, rejected %.0f ns: %.2fx (budget %.0fx)", accepted, rejected, rejected/accepted, rejectBudget)
	if rejected/accepted > rejectBudget {
		t.Errorf("a rejected 64-operation delta costs %.1fx an accepted one, over %.0fx", rejected/accepted, rejectBudget)
	}
}
