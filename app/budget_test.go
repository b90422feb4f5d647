//go:build !js

package app

import (
	"encoding/json"
	"testing"
)

// deltaBudget bounds one delta at 1,000 services against a baseline taken
// in the same run: one strict decode and validation of that state, the
// least any full revalidation costs. Measured at 2.1x (6.8 ms against
// 3.2 ms on a 2-core VM); decoding the state a few times more, or
// quadratic work, lands beyond 6.
const deltaBudget = 6.0

func TestDeltaCostBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks for a few seconds")
	}
	w := wireOf(1000)
	data, _ := json.Marshal(w)
	m := NewModel(thread)
	m.Generation = 1
	m.Lifecycle = Streaming{Run{Conn: 1, ThreadID: thread, RunID: "run-1"}}
	m.Wire, m.Baseline = &w, byID(w)
	msg := ReceivedEvent{Conn: 1, Event: deltaOf(spike...)}

	baseline := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeWire(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	delta := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if next, _ := Update(m, msg); next.Accepted != 1 {
				b.Fatal("not applied")
			}
		}
	})
	ratio := float64(delta.NsPerOp()) / float64(baseline.NsPerOp())
	t.Logf("delta at 1,000 services: %v, decode+validate: %v, ratio %.2f (budget %.1f)",
		delta.NsPerOp(), baseline.NsPerOp(), ratio, deltaBudget)
	if ratio > deltaBudget {
		t.Errorf("one delta costs %.1fx a full decode and validation, over the budget of %.1fx", ratio, deltaBudget)
	}
}
