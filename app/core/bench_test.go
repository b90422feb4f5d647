package core

import (
	"fmt"
	"runtime"
	"testing"
)

// WarmUp runs f runs times before a benchmark's timing when it runs as
// wasm: V8 compiles hot code again, optimised, only after many runs, and
// a timing is of the code as a page that has streamed for a while runs it,
// not of its first, slower passes. Natively it does nothing. Exported for
// the benchmarks of package core_test.
func WarmUp(runs int, f func()) {
	if runtime.GOOS != "js" {
		return
	}
	for range runs {
		f()
	}
}

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

// BenchmarkApplyPatch is one delta applied and its result checked. w is
// never changed, so every run changes a latency, 20 to 145.
func BenchmarkApplyPatch(b *testing.B) {
	for _, n := range []int{4, 100, 1000, 10000} {
		w := wireOf(n)
		ops := opsOf(b, `[{"op":"replace","path":"/services/0/latency","value":145}]`)
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			WarmUp(8000, func() { ApplyPatch(w, ops) })
			for b.Loop() {
				if _, err := ApplyPatch(w, ops); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
