// Package coretest plays scripts through the demo's client without I/O,
// exactly as the runtime does: each event judged by a fresh AG-UI engine,
// each judgement through core.Update, the reading stopped at the first
// event the engine rejects or when Update closes the connection.
package coretest

import (
	"fmt"
	"testing"

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/effects"
	"github.com/agent-analysis/agent-analysis/app/protocol"
	"github.com/agent-analysis/agent-analysis/fixtures"
)

// Play clicks Run for a script on m and feeds it the script's events.
// It returns the model after Run and after each event delivered, in
// order, ending with the stream's close when it ran to its end.
func Play(m core.Model, name string) ([]core.Model, error) {
	s, ok := fixtures.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no script %q", name)
	}
	m, _ = core.Update(m, core.ChoseScenario{Name: name})
	m, _ = core.Update(m, core.ClickedRun{})
	run := m.Run
	events := [][]byte{}
	for _, st := range s.ForRequest(run.ThreadID, run.RunID) {
		if st.Event != nil {
			events = append(events, st.Event)
		}
	}
	return Feed(m, run, events...)
}

// MustPlay is Play on a new model of thread-1, and fails t on an error.
func MustPlay(t testing.TB, name string) []core.Model {
	t.Helper()
	models, err := Play(core.NewModel("thread-1"), name)
	if err != nil {
		t.Fatal(err)
	}
	return models
}

// Feed delivers events on run's connection, as the runtime would.
func Feed(m core.Model, run core.Run, events ...[]byte) ([]core.Model, error) {
	in, err := effects.Input(run)
	if err != nil {
		return nil, err
	}
	c, err := protocol.NewConsumer(in, protocol.Options{State: core.NewServices(), Refusals: protocol.Fail})
	if err != nil {
		return nil, err
	}
	out := []core.Model{m}
	for _, data := range events {
		if m.Connection != run.Generation {
			return out, nil // Update closed the connection: the runtime reads no more
		}
		step := c.Feed(data)
		m, _ = core.Update(m, core.Received{Generation: run.Generation, JSON: data, Step: step})
		out = append(out, m)
		if step.Violation != nil {
			return out, nil
		}
	}
	if m.Connection == run.Generation {
		m, _ = core.Update(m, core.StreamClosed{Generation: run.Generation, Truncated: c.End()})
		out = append(out, m)
	}
	return out, nil
}
