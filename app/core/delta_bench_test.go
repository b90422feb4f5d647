package core_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/app/core"
)

var sizes = []int{4, 100, 1000, 10000}

const spike = `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/latency","value":145}]}`

// servicesOf is a valid list of n services.
func servicesOf(n int) []core.Service {
	services := make([]core.Service, n)
	for i := range services {
		series := core.CoreSeries
		if i%2 == 1 {
			series = core.PlatformSeries
		}
		services[i] = core.Service{ID: fmt.Sprintf("svc-%d", i), Name: fmt.Sprintf("Service %d", i), Series: series, Volume: float64(100 + i), Latency: float64(20 + i%200)}
	}
	return services
}

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
	return `{"type":"STATE_DELTA","delta":[` + strings.Join(ops, ",") + `]}`
}

// streaming is a run streaming over n services, with a selection, and the
// engine that judged its events so far.
func streaming(tb testing.TB, n int) (core.Model, *agui.Consumer) {
	tb.Helper()
	p := start(tb).run("normal")
	snapshot, _ := json.Marshal(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"services": servicesOf(n)}})
	p.events(1, `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`, string(snapshot))
	p.send(core.ClickedService{ID: "svc-0"})
	if _, ok := p.m.Lifecycle.(core.Streaming); !ok {
		tb.Fatalf("not streaming: %#v", p.m.Lifecycle)
	}
	return p.m, p.consumers[1]
}

// delta is what one delta costs the client: judged by the engine (read,
// checked, applied to the services and checked again) and reduced by
// Update. Each run has an engine whose state is the same every time.
func delta(tb testing.TB, m core.Model, c *agui.Consumer, event []byte) core.Model {
	j := c.Feed(event)
	next, _ := core.Update(m, core.Received{Generation: 1, JSON: event, Judgement: j})
	return next
}

// fresh makes a new engine over the same services for each measurement,
// so that a failed delta (which ends an engine's stream) does not leak
// into the next.
func fresh(tb testing.TB, n int) *agui.Consumer {
	in, _ := core.Run{Generation: 1, ThreadID: thread, RunID: "run-1", Scenario: "normal"}.Input()
	c, _ := agui.NewConsumer(in, agui.Options{State: core.NewServices(), Refusals: agui.Fail})
	snapshot, _ := json.Marshal(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"services": servicesOf(n)}})
	c.Feed([]byte(`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`))
	c.Feed(snapshot)
	return c
}

// spikes are two deltas to take in turn, so that every one changes the
// state: the same value again would cost less than a change.
var spikes = [2][]byte{[]byte(spike), []byte(strings.Replace(spike, "145", "146", 1))}

// BenchmarkUpdateDelta is one delta as the client takes it: the engine's
// judgement and Update.
func BenchmarkUpdateDelta(b *testing.B) {
	for _, n := range sizes {
		m, c := streaming(b, n)
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			core.WarmUp(8000, func() {
				i++
				delta(b, m, c, spikes[i%2])
			})
			for b.Loop() {
				i++
				next := delta(b, m, c, spikes[i%2])
				if s, _ := next.Wire.Find("svc-0"); next.Accepted != 2 || s.Latency != [2]float64{145, 146}[i%2] {
					b.Fatalf("not applied: %#v", next.Lifecycle)
				}
			}
		})
	}
}

// BenchmarkPatch64 is a 64-operation delta at 1,000 services, accepted,
// and refused at its last operation.
func BenchmarkPatch64(b *testing.B) {
	m, _ := streaming(b, 1000)
	for _, fail := range []bool{false, true} {
		event := []byte(sixtyFour(fail))
		b.Run(map[bool]string{false: "accepted", true: "rejected"}[fail], func(b *testing.B) {
			b.ReportAllocs()
			core.WarmUp(125, func() { delta(b, m, fresh(b, 1000), event) }) // 8,000 operations
			for b.Loop() {
				b.StopTimer()
				c := fresh(b, 1000)
				b.StartTimer()
				next := delta(b, m, c, event)
				if _, failed := next.Lifecycle.(core.Failed); failed != fail {
					b.Fatalf("lifecycle %#v", next.Lifecycle)
				}
			}
		})
	}
}

// BenchmarkUpdateSnapshot is a run's first snapshot of n services as the
// client takes it: read, checked, held as the services, and reduced.
func BenchmarkUpdateSnapshot(b *testing.B) {
	for _, n := range sizes {
		m, _ := core.Update(core.NewModel(thread), core.ClickedRun{})
		event, _ := json.Marshal(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"services": servicesOf(n)}})
		runStarted := []byte(`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`)
		// A run that has started, with an engine of its own: each takes
		// the snapshot once.
		startedRun := func() (core.Model, *agui.Consumer) {
			in, _ := m.Run.Input()
			c, _ := agui.NewConsumer(in, agui.Options{State: core.NewServices(), Refusals: agui.Fail})
			m1, _ := core.Update(m, core.Received{Generation: 1, JSON: runStarted, Judgement: c.Feed(runStarted)})
			return m1, c
		}
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(event)))
			core.WarmUp(max(1, 8000/n), func() {
				m1, c := startedRun()
				core.Update(m1, core.Received{Generation: 1, JSON: event, Judgement: c.Feed(event)})
			})
			for b.Loop() {
				b.StopTimer()
				m1, c := startedRun()
				b.StartTimer()
				if next, _ := core.Update(m1, core.Received{Generation: 1, JSON: event, Judgement: c.Feed(event)}); next.Wire.Len() != n {
					b.Fatalf("not applied: %#v", next.Lifecycle)
				}
			}
		})
	}
}
