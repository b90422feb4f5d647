package core

import (
	"encoding/json"
	"testing"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

const thread = "thread-1"

// Events travel as the JSON frames the client receives.

// fixtureEvents is a scenario's events as run runID of thread receives them.
func fixtureEvents(t testing.TB, scenario, runID string) []string {
	t.Helper()
	script, ok := fixtures.Lookup(scenario)
	if !ok {
		t.Fatalf("no scenario %q", scenario)
	}
	var out []string
	for _, step := range script.ForRun(thread, runID) {
		if step.Type != "" { // comments never reach Update
			out = append(out, string(step.Event))
		}
	}
	return out
}

// sdk is an event built with the AG-UI SDK's constructors, as JSON.
func sdk(ev events.Event) string {
	data, err := json.Marshal(ev)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// deltaOf is a STATE_DELTA event of these operations (a JSON array).
func deltaOf(ops string) string { return `{"type":"STATE_DELTA","delta":` + ops + `}` }

func snapshotOf(w Wire) string {
	data, _ := json.Marshal(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": w})
	return string(data)
}

// operations reads a JSON array of operations as Update would.
func operations(t testing.TB, ops string) []Operation {
	t.Helper()
	out, err := DecodeDelta([]byte(deltaOf(ops)))
	if err != nil {
		t.Fatalf("%s: %v", ops, err)
	}
	return out
}

// received is the Msg a connection delivers for a frame.
func received(t testing.TB, g Generation, frame string) ReceivedEvent {
	t.Helper()
	ev, err := events.EventFromJSON([]byte(frame))
	if err != nil {
		t.Fatalf("%s: %v", frame, err)
	}
	return ReceivedEvent{Generation: g, Event: ev, JSON: []byte(frame)}
}

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

// events delivers frames on a run's connection.
func (p *program) events(g Generation, frames ...string) *program {
	for _, f := range frames {
		p.send(received(p.t, g, f))
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
		p.t.Fatalf("no service %s in %+v", id, p.m.Wire.Services())
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

func initialWire() Wire {
	return NewWire([]Service{
		{ID: "api", Name: "API", Series: Core, Volume: 1200, Latency: 60},
		{ID: "checkout", Name: "Checkout", Series: Core, Volume: 640, Latency: 92},
		{ID: "auth", Name: "Auth", Series: Platform, Volume: 900, Latency: 35},
	})
}
