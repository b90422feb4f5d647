// Package coretest plays scripts through the demo's client without I/O,
// exactly as the runtime does: each event judged by a fresh AG-UI engine,
// each judgement through core.Update, the reading stopped at the first
// event the engine rejects or when Update closes the connection.
package coretest

import (
	"fmt"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/effects"
	"github.com/agent-analysis/agent-analysis/fixtures"
)

// Clock is the wall clock every event is judged at: a fixed day, so that
// an interrupt's expiry is judged the same on every run of the tests.
var Clock = time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)

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
	_, c, err := effects.Engine(run)
	if err != nil {
		return nil, err
	}
	out := []core.Model{m}
	for _, data := range events {
		if m.Connection != run.Generation {
			return out, nil // Update closed the connection: the runtime reads no more
		}
		msg := effects.Judge(run, c, data, 0, Clock)
		m, _ = core.Update(m, msg)
		out = append(out, m)
		if msg.Step.Violation != nil {
			return out, nil
		}
	}
	if m.Connection == run.Generation {
		m, _ = core.Update(m, core.StreamClosed{Generation: run.Generation, Truncated: c.End()})
		out = append(out, m)
	}
	return out, nil
}

// Continuation is a script's continuation (what the server plays for a
// resume with these answers: "approved", "rejected", "cancelled"), its
// events as the run threadID, runID receives them.
func Continuation(name, continuation, threadID, runID string) ([][]byte, error) {
	s, ok := fixtures.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no script %q", name)
	}
	for _, c := range s.Continuations {
		if c.Name != continuation {
			continue
		}
		var out [][]byte
		for _, st := range s.Continue(c, threadID, runID) {
			if st.Event != nil {
				out = append(out, st.Event)
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s has no continuation %q", name, continuation)
}

// Answer answers the open question of m, an interrupted model, at Clock,
// and plays the script's continuation for that answer on the resumed run.
// It returns the model after the answer and after each event delivered,
// ending with the stream's close.
func Answer(m core.Model, choice core.Choice, continuation string) ([]core.Model, error) {
	l, ok := m.Lifecycle.(core.Interrupted)
	if !ok {
		return nil, fmt.Errorf("%s, not Interrupted", m.Lifecycle)
	}
	_, q := l.Question()
	m, _ = core.Update(m, core.ClickedAnswer{Interrupt: q.ID, Choice: choice, At: Clock})
	if m.Run.Resume == nil {
		return nil, fmt.Errorf("the answer started no resumed run: %s", m.Lifecycle)
	}
	events, err := Continuation(m.Run.Scenario, continuation, m.Run.ThreadID, m.Run.RunID)
	if err != nil {
		return nil, err
	}
	return Feed(m, m.Run, events...)
}

// MustAnswer is Answer, failing t on an error.
func MustAnswer(t testing.TB, m core.Model, choice core.Choice, continuation string) []core.Model {
	t.Helper()
	models, err := Answer(m, choice, continuation)
	if err != nil {
		t.Fatal(err)
	}
	return models
}
