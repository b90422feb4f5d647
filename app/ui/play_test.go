package ui

import (
	"testing"

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/effects"
	"github.com/agent-analysis/agent-analysis/fixtures"
)

// play runs a scenario through Update and returns the model after Run and
// after each of its events, in order, up to an event that does not decode
// (the client reads no further).
func play(t *testing.T, scenario string) []core.Model {
	t.Helper()
	script, ok := fixtures.Lookup(scenario)
	if !ok {
		t.Fatalf("no scenario %q", scenario)
	}
	m, _ := core.Update(core.NewModel("thread-1"), core.ClickedRun{Scenario: scenario})
	out := []core.Model{m}
	for _, step := range script.ForRun("thread-1", "run-1") {
		ev, err := effects.DecodeEvent(step.Event)
		if err != nil {
			break
		}
		m, _ = core.Update(m, core.ReceivedEvent{Generation: 1, Event: ev, JSON: step.Event})
		out = append(out, m)
	}
	return out
}
