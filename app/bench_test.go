package app

import (
	"fmt"
	"testing"
)

// wireOf makes a valid Wire of n services.
func wireOf(n int) Wire {
	w := Wire{Services: make([]Service, n)}
	for i := range w.Services {
		series := Core
		if i%2 == 1 {
			series = Platform
		}
		w.Services[i] = Service{ID: fmt.Sprintf("svc-%d", i), Name: fmt.Sprintf("Service %d", i), Series: series, Volume: float64(100 + i), Latency: float64(20 + i%200)}
	}
	return w
}

var spike = []op{{Op: "replace", Path: "/services/0/latency", Value: 145.0}}

// BenchmarkApplyPatch is one delta applied and the whole result validated.
func BenchmarkApplyPatch(b *testing.B) {
	for _, n := range []int{4, 100, 1000} {
		w := wireOf(n)
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, r := ApplyPatch(w, spike, "run-1"); r != nil {
					b.Fatal(r)
				}
			}
		})
	}
}

// BenchmarkUpdateDelta is one delta through Update: apply, validate, reduce.
func BenchmarkUpdateDelta(b *testing.B) {
	for _, n := range []int{4, 100, 1000} {
		w := wireOf(n)
		m := NewModel(thread)
		m.Generation = 1
		m.Lifecycle = Streaming{Run{Conn: 1, ThreadID: thread, RunID: "run-1"}}
		m.Wire, m.Baseline, m.Selected = &w, byID(w), "svc-0"
		msg := ReceivedEvent{Conn: 1, Event: deltaOf(spike...)}
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if next, _ := Update(m, msg); next.Accepted != 1 {
					b.Fatalf("not applied: %#v", next.Lifecycle)
				}
			}
		})
	}
}
