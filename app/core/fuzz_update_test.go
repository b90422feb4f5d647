package core_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/fixtures/fixturetest"
)

// FuzzUpdate runs random programs of clicks, script events, one fuzzed
// frame, stale and transport Msgs, each event judged by the run's engine
// as the runtime does. Update must never panic, and the Model's
// invariants must always hold.
func FuzzUpdate(f *testing.F) {
	f.Add([]byte{1, 5, 6, 7, 8, 9}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/latency","value":1}]}`))
	f.Add([]byte{1, 5, 6, 4, 8, 3, 8, 6}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/services/0"}]}`))
	f.Add([]byte{13, 5, 6, 7, 20, 8, 2, 5, 6}, []byte(`{"type":"STATE_SNAPSHOT","snapshot":{"services":[{"id":"a","name":"A","series":"Core","volume":1,"latency":1}]}}`))
	f.Add([]byte{1, 5, 8}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"copy","from":"/services","path":"/services/-"}]}`))
	f.Add([]byte{1, 8, 5, 6, 10, 11, 2}, []byte(`{"type":"RUN_ERROR","message":"x"}`))
	f.Add([]byte{1, 5, 6, 9, 8}, []byte(`{"type":"RUN_ERROR","message":"late"}`))
	// approval: Run, its events to the interrupt, an answer, the resumed run's events.
	f.Add([]byte{16, 1, 15, 31, 47, 63, 79, 95, 111, 127, 30, 15, 63, 10}, []byte(`{"type":"CUSTOM","name":"n","value":1}`))
	f.Add([]byte{16, 1, 15, 31, 47, 63, 79, 95, 111, 127, 1, 30, 3}, []byte(`{"type":"RUN_ERROR","message":"late"}`))

	names := fixtures.Names()
	ids := []string{"api", "checkout", "auth", "search", "zzz"}
	f.Fuzz(func(t *testing.T, program []byte, frame []byte) {
		p := start(t)
		started := `{"type":"RUN_STARTED","threadId":"thread-1","runId":"%s"}`
		finished := `{"type":"RUN_FINISHED","threadId":"thread-1","runId":"%s"}`
		for i, b := range program {
			arg := int(b) / kinds
			before, n := p.m, len(p.cmds)
			g := p.m.Generation
			open := g > 0 && p.consumers[g] != nil
			switch b % kinds {
			case 0:
				name := names[arg%len(names)]
				if arg == 1 {
					name = "approval"
				}
				p.send(core.ChoseScenario{Name: name})
			case 1:
				p.send(core.ClickedRun{})
			case 2:
				p.send(core.ClickedCancel{})
			case 3:
				p.send(core.ClickedRecover{})
			case 4:
				p.send(core.ClickedFilter{Filter: core.Filters[arg%len(core.Filters)]})
			case 5:
				if open {
					p.events(g, fmt.Sprintf(started, p.m.Run.RunID))
				}
			case 6, 7:
				if open {
					evs := script(t, []string{"normal", "invalid", "slow"}[arg%3], g)
					p.events(g, evs[1+arg%(len(evs)-2)]) // a state event
				}
			case 8:
				if open {
					p.events(g, string(frame))
				}
			case 9:
				if open {
					p.events(g, fmt.Sprintf(finished, p.m.Run.RunID))
				}
			case 10:
				if open {
					p.closed(g)
				}
			case 11:
				if g > 1 && p.consumers[g-1] != nil {
					p.events(g-1, script(t, "normal", g-1)[2])
				}
			case 12:
				p.send(core.Navigated{To: core.Destination(arg % 2)})
			case 13:
				p.send(core.ClickedService{ID: ids[arg%len(ids)]})
			case 14:
				id := ids[arg%len(ids)]
				if l, asked := p.m.Lifecycle.(core.Interrupted); asked && arg%4 != 3 {
					_, q := l.Question()
					id = q.ID
				}
				p.now = fixturetest.Clock.Add(time.Duration(arg) * time.Hour)
				p.send(core.ClickedAnswer{Interrupt: id, Choice: core.Choice(arg % 4), At: p.now})
			case 15:
				if !open {
					break
				}
				run := p.runOf(g)
				var evs [][]byte
				if run.Resume != nil {
					evs, _ = fixturetest.Continuation("approval", []string{"approved", "rejected", "cancelled"}[arg%3], run.ThreadID, run.RunID)
				} else {
					for _, e := range script(t, "approval", g) {
						evs = append(evs, []byte(e))
					}
				}
				p.events(g, string(evs[arg%len(evs)]))
			}
			var cmd core.Cmd
			if len(p.cmds) > n {
				cmd = p.cmds[len(p.cmds)-1] // with events, the last of the instruction's
			}
			if err := invariants(before, p.m, cmd, b%kinds); err != nil {
				t.Fatalf("instruction %d (%d): %v", i, b%kinds, err)
			}
		}
	})
}

// kinds is how many kinds of instruction a program has.
const kinds = 16

func invariants(before, m core.Model, cmd core.Cmd, kind byte) error {
	if m.Wire != nil {
		if err := m.Wire.Validate(); err != nil {
			return fmt.Errorf("invalid Wire held: %v", err)
		}
		for i, s := range m.Wire.All() {
			if found, ok := m.Wire.Find(s.ID); !ok || found != m.Wire.At(i) {
				return fmt.Errorf("the index loses %s", s.ID)
			}
		}
	}
	if len(m.Activity) > core.MaxActivity || len(m.Rejections) > core.MaxRejections || len(m.Arrivals) > core.MaxArrivals {
		return fmt.Errorf("unbounded history")
	}
	if _, streaming := m.Lifecycle.(core.Streaming); streaming && (m.Baseline == nil || m.Wire == nil) {
		return fmt.Errorf("streaming without a baseline")
	}
	if m.Selected != "" && !m.Shows(m.Selected) {
		return fmt.Errorf("selected %q is not visible", m.Selected)
	}
	if _, active := core.ActiveRun(m.Lifecycle); active && m.Connection != m.Generation {
		return fmt.Errorf("an active run without its connection")
	}
	if f, failed := m.Lifecycle.(core.Failed); failed && m.Wire != before.Wire && m.Generation == before.Generation {
		if _, was := before.Lifecycle.(core.Failed); !was {
			return fmt.Errorf("a failing event changed the data: %s", f.Reason)
		}
	}
	if _, asked := m.Lifecycle.(core.Interrupted); asked && !m.Asking {
		return fmt.Errorf("interrupted, and not asking")
	}
	if _, was := before.Lifecycle.(core.Interrupted); kind == 14 && !was && (!reflect.DeepEqual(before, m) || cmd != nil) {
		return fmt.Errorf("an answer in %s did something", before.Lifecycle)
	}
	starts := 0
	var walk func(core.Cmd) error
	walk = func(c core.Cmd) error {
		switch c := c.(type) {
		case core.Sequence:
			for _, c := range c {
				if err := walk(c); err != nil {
					return err
				}
			}
		case core.StartStream:
			starts++
			return started(before, m, c.Run)
		}
		return nil
	}
	if err := walk(cmd); err != nil {
		return err
	}
	if starts > 1 || (starts == 1 && kind != 1 && kind != 3 && kind != 14) {
		return fmt.Errorf("%d streams started", starts)
	}
	return nil
}

// started checks a run Update started: a resumed one continues the
// interrupted run's thread with its baseline, and its input answers every
// interrupt; a fresh one goes on the page's thread, never one with a
// question open.
func started(before, m core.Model, run core.Run) error {
	if run.Resume == nil {
		if run.ThreadID != m.ThreadID() || m.Asking || (before.Asking && run.ThreadID == before.ThreadID()) {
			return fmt.Errorf("a fresh run on %s (asking %v before, %v now)", run.ThreadID, before.Asking, m.Asking)
		}
		return nil
	}
	l, asked := before.Lifecycle.(core.Interrupted)
	if !asked || run.ThreadID != l.Pending.ThreadID || run.ThreadID != before.Run.ThreadID {
		return fmt.Errorf("a resumed run on %s from %s", run.ThreadID, before.Lifecycle)
	}
	if reflect.ValueOf(m.Baseline).UnsafePointer() != reflect.ValueOf(before.Baseline).UnsafePointer() {
		return fmt.Errorf("a resumed run lost the baseline")
	}
	if _, err := run.Input(); err != nil {
		return fmt.Errorf("the resumed run's input: %v", err)
	}
	return nil
}
