package app

import (
	"encoding/json"
	"testing"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

const thread = "thread-1"

// fixtureEvents decodes a scenario's events as the client receives them,
// run events carrying the given run's ids.
func fixtureEvents(t testing.TB, scenario, runID string) []events.Event {
	t.Helper()
	script, ok := fixtures.Lookup(scenario)
	if !ok {
		t.Fatalf("no scenario %q", scenario)
	}
	out := make([]events.Event, len(script.Steps))
	for i, step := range script.Steps {
		data := []byte(step.Event)
		if step.IsRunEvent() {
			data, _ = json.Marshal(map[string]string{"type": string(step.Type), "threadId": thread, "runId": runID})
		}
		ev, err := DecodeEvent(data)
		if err != nil {
			t.Fatalf("%s step %d: %v", scenario, i, err)
		}
		out[i] = ev
	}
	return out
}

func snapshotOf(t testing.TB, w Wire) events.Event {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": w})
	ev, err := DecodeEvent(data)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func deltaOf(ops ...op) events.Event { return events.NewStateDeltaEvent(ops) }

// program is a Model under test and the Cmds it asked for.
type program struct {
	t    testing.TB
	m    Model
	cmds []Cmd
}

func start(t testing.TB) *program { return &program{t: t, m: NewModel(thread)} }

func (p *program) send(msgs ...Msg) *program {
	for _, msg := range msgs {
		var cmd Cmd
		p.m, cmd = Update(p.m, msg)
		p.cmds = append(p.cmds, cmd)
	}
	return p
}

// events delivers events on a connection.
func (p *program) events(conn Conn, evs ...events.Event) *program {
	for _, ev := range evs {
		p.send(ReceivedEvent{Conn: conn, Event: ev})
	}
	return p
}

// lastCmd is the Cmd of the most recent Msg.
func (p *program) lastCmd() Cmd { return p.cmds[len(p.cmds)-1] }

func (p *program) latency(id string) float64 {
	p.t.Helper()
	if p.m.Wire == nil {
		p.t.Fatalf("no data; want %s", id)
	}
	s, ok := p.m.Wire.Find(id)
	if !ok {
		p.t.Fatalf("no service %s in %+v", id, p.m.Wire.Services)
	}
	return s.Latency
}

func (p *program) ids() []string {
	var out []string
	for _, s := range p.m.Visible() {
		out = append(out, s.ID)
	}
	return out
}
