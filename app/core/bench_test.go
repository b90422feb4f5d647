package core

import (
	"fmt"
	"testing"
)

// wireOf makes a valid Wire of n services.
func wireOf(n int) Wire {
	services := make([]Service, n)
	for i := range services {
		series := CoreSeries
		if i%2 == 1 {
			series = PlatformSeries
		}
		services[i] = Service{ID: fmt.Sprintf("svc-%d", i), Name: fmt.Sprintf("Service %d", i), Series: series, Volume: float64(100 + i), Latency: float64(20 + i%200)}
	}
	return NewWire(services)
}

// BenchmarkApplyPatch is one delta applied and its result checked.
func BenchmarkApplyPatch(b *testing.B) {
	for _, n := range []int{4, 100, 1000, 10000} {
		w := wireOf(n)
		ops := opsOf(b, `[{"op":"replace","path":"/services/0/latency","value":145}]`)
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ApplyPatch(w, ops); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
