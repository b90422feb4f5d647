//go:build !wasm

package ui

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/fixtures/fixturetest"
)

// crowdModels is a run over n services after its snapshot, then after each
// of deltas single-service deltas, each of which changes a latency.
func crowdModels(tb testing.TB, n, deltas int) []core.Model {
	services := make([]map[string]any, n)
	latency := make([]int, n)
	for i := range services {
		series := "Core"
		if i%2 == 1 {
			series = "Platform"
		}
		latency[i] = 10 + (i*104729)%170
		services[i] = map[string]any{"id": fmt.Sprintf("s%d", i), "name": fmt.Sprintf("Service %d", i), "series": series,
			"volume": 100 + (i*7919)%1900, "latency": latency[i]}
	}
	services[0]["volume"], services[0]["latency"] = 2000, 190
	snapshot, _ := json.Marshal(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"services": services}})
	events := [][]byte{[]byte(`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`), snapshot}
	for i := 1; i <= deltas; i++ {
		k := 1 + (i*7919)%max(1, n-1)
		v := 10 + (i*37)%170
		if v == latency[k] {
			v++ // the same value again would change nothing
		}
		latency[k] = v
		events = append(events, fmt.Appendf(nil, `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/%d/latency","value":%d}]}`, k, v))
	}
	m, _ := core.Update(core.NewModel("thread-1"), core.ClickedRun{})
	models, err := fixturetest.Feed(m, m.Run, events...)
	if err != nil {
		tb.Fatal(err)
	}
	models = models[2 : 3+deltas] // after the snapshot and each delta, not the stream's close
	for i, m := range models {
		if m.Accepted != i+1 {
			tb.Fatalf("update %d not accepted: %s", i+1, m.Lifecycle)
		}
	}
	return models
}

// benchRoot mounts the demo's tree in go-app's test engine: each Load with
// a new Gen renders it again for the model current points to.
type benchRoot struct {
	app.Compo
	Gen     int
	current *core.Model
}

func (r *benchRoot) Render() app.UI {
	d := demo{model: *r.current, scenarios: fixtures.Catalogue(), path: livePath}
	return d.Render()
}

// BenchmarkRenderDelta is what go-app does, natively, to draw one
// single-service delta: render the tree and diff it against the mounted one.
// It walks the run's models forwards and back, so that every iteration
// draws exactly one delta, applied or undone, and never the same model
// twice.
func BenchmarkRenderDelta(b *testing.B) {
	for _, n := range []int{4, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			models := crowdModels(b, n, 20)
			e := app.NewTestEngine()
			current := models[0]
			if err := e.Load(&benchRoot{current: &current}); err != nil {
				b.Fatal(err)
			}
			i, dir, gen := 0, 1, 0
			for b.Loop() {
				if i+dir < 0 || i+dir >= len(models) {
					dir = -dir
				}
				i += dir
				gen++
				current = models[i]
				if err := e.Load(&benchRoot{Gen: gen, current: &current}); err != nil {
					b.Fatal(err)
				}
				e.ConsumeAll()
			}
		})
	}
}
