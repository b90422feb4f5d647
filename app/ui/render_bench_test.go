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
// of deltas single-service deltas.
func crowdModels(tb testing.TB, n, deltas int) []core.Model {
	services := make([]map[string]any, n)
	for i := range services {
		series := "Core"
		if i%2 == 1 {
			series = "Platform"
		}
		services[i] = map[string]any{"id": fmt.Sprintf("s%d", i), "name": fmt.Sprintf("Service %d", i), "series": series,
			"volume": 100 + (i*7919)%1900, "latency": 10 + (i*104729)%170}
	}
	services[0]["volume"], services[0]["latency"] = 2000, 190
	snapshot, _ := json.Marshal(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{"services": services}})
	events := [][]byte{[]byte(`{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`), snapshot}
	for i := 1; i <= deltas; i++ {
		k := 1 + (i*7919)%max(1, n-1)
		events = append(events, fmt.Appendf(nil, `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/%d/latency","value":%d}]}`, k, 10+(i*37)%170))
	}
	m, _ := core.Update(core.NewModel("thread-1"), core.ClickedRun{})
	models, err := fixturetest.Feed(m, m.Run, events...)
	if err != nil {
		tb.Fatal(err)
	}
	return models[2:]
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
func BenchmarkRenderDelta(b *testing.B) {
	for _, n := range []int{4, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			models := crowdModels(b, n, 20)
			e := app.NewTestEngine()
			current := models[0]
			if err := e.Load(&benchRoot{current: &current}); err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				i = i%20 + 1
				current = models[i]
				if err := e.Load(&benchRoot{Gen: i, current: &current}); err != nil {
					b.Fatal(err)
				}
				e.ConsumeAll()
			}
		})
	}
}
