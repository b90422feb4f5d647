package core

import (
	"fmt"
	"strings"
	"testing"
)

// wireOf makes a valid Wire of n services.
func wireOf(n int) Wire {
	services := make([]Service, n)
	for i := range services {
		series := Core
		if i%2 == 1 {
			series = Platform
		}
		services[i] = Service{ID: fmt.Sprintf("svc-%d", i), Name: fmt.Sprintf("Service %d", i), Series: series, Volume: float64(100 + i), Latency: float64(20 + i%200)}
	}
	return NewWire(services)
}

var sizes = []int{4, 100, 1000, 10000}

const spike = `[{"op":"replace","path":"/services/0/latency","value":145}]`

// sixtyFour is 64 operations over 64 services; with fail set, the last
// one replaces a key no service has.
func sixtyFour(fail bool) string {
	ops := make([]string, 64)
	for i := range ops {
		ops[i] = fmt.Sprintf(`{"op":"replace","path":"/services/%d/latency","value":%d}`, i*13%1000, 100+i)
	}
	if fail {
		ops[63] = `{"op":"replace","path":"/services/999/owner","value":1}`
	}
	return "[" + strings.Join(ops, ",") + "]"
}

// BenchmarkApplyPatch is one delta applied and its result checked.
func BenchmarkApplyPatch(b *testing.B) {
	for _, n := range sizes {
		w := wireOf(n)
		ops := operations(b, spike)
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, r := ApplyPatch(w, ops, "run-1"); r != nil {
					b.Fatal(r)
				}
			}
		})
	}
}

// BenchmarkUpdateDelta is one delta through Update: read from the event's
// JSON, apply, check, reduce.
func BenchmarkUpdateDelta(b *testing.B) {
	for _, n := range sizes {
		m := streamingModel(b, wireOf(n))
		msg := received(b, 1, deltaOf(spike))
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

// BenchmarkPatch64 is a 64-operation delta at 1,000 services, accepted,
// and rejected at its last operation.
func BenchmarkPatch64(b *testing.B) {
	m := streamingModel(b, wireOf(1000))
	for _, fail := range []bool{false, true} {
		msg := received(b, 1, deltaOf(sixtyFour(fail)))
		b.Run(map[bool]string{false: "accepted", true: "rejected"}[fail], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				next, _ := Update(m, msg)
				if _, failed := next.Lifecycle.(Failed); failed != fail {
					b.Fatalf("lifecycle %#v", next.Lifecycle)
				}
			}
		})
	}
}

// streamingModel is a run streaming over w, with a selection.
func streamingModel(tb testing.TB, w Wire) Model {
	m := NewModel(thread)
	m.Generation = 1
	m.Lifecycle = Streaming{Run{Generation: 1, ThreadID: thread, RunID: "run-1"}}
	m.Wire, m.Baseline, m.Selected = &w, byID(w), w.At(0).ID
	return m
}
