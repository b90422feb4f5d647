package core_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/effects"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/fixtures/fixturetest"
)

const thread = "thread-1"

// program is a Model under test, the Cmds it asked for, and an AG-UI
// engine per started run, judging that run's events as the runtime does.
type program struct {
	t         testing.TB
	m         core.Model
	cmds      []core.Cmd
	consumers map[core.Generation]*agui.Consumer
	runs      map[core.Generation]core.Run
	now       time.Time // the wall clock events are judged at
}

func start(t testing.TB) *program {
	return &program{t: t, m: core.NewModel(thread), now: fixturetest.Clock,
		consumers: map[core.Generation]*agui.Consumer{}, runs: map[core.Generation]core.Run{}}
}

// runOf is the run generation g's stream was started for.
func (p *program) runOf(g core.Generation) core.Run { return p.runs[g] }

// send runs Msgs through Update; a StartStream gets its run an engine.
func (p *program) send(msgs ...core.Msg) *program {
	p.t.Helper()
	for _, msg := range msgs {
		var cmd core.Cmd
		p.m, cmd = core.Update(p.m, msg)
		p.cmds = append(p.cmds, cmd)
		p.started(cmd)
	}
	return p
}

func (p *program) started(cmd core.Cmd) {
	switch cmd := cmd.(type) {
	case core.Sequence:
		for _, c := range cmd {
			p.started(c)
		}
	case core.StartStream:
		_, c, err := effects.Engine(cmd.Run)
		if err != nil {
			p.t.Fatal(err)
		}
		p.consumers[cmd.Run.Generation] = c
		p.runs[cmd.Run.Generation] = cmd.Run
	}
}

// run chooses a scenario and presses Run.
func (p *program) run(scenario string) *program {
	return p.send(core.ChoseScenario{Name: scenario}, core.ClickedRun{})
}

// events delivers frames on generation g's connection, judged by its
// engine, whatever Update made of the connection.
func (p *program) events(g core.Generation, frames ...string) *program {
	p.t.Helper()
	for _, f := range frames {
		p.send(effects.Judge(p.runOf(g), p.consumers[g], []byte(f), 0, p.now))
	}
	return p
}

// closed is the end of generation g's stream.
func (p *program) closed(g core.Generation) *program {
	return p.send(core.StreamClosed{Generation: g, Truncated: p.consumers[g].End()})
}

// script is a fixture's events as run g of the program receives them.
func script(t testing.TB, name string, g core.Generation) []string {
	t.Helper()
	s, ok := fixtures.Lookup(name)
	if !ok {
		t.Fatalf("no script %q", name)
	}
	var out []string
	for _, st := range s.ForRequest(thread, runID(g)) {
		if st.Event != nil {
			out = append(out, string(st.Event))
		}
	}
	return out
}

func runID(g core.Generation) string { return "run-" + strconv.Itoa(int(g)) }

func (p *program) lastCmd() core.Cmd { return p.cmds[len(p.cmds)-1] }

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

// failed checks the run failed of this kind, decided by this rule,
// breaking this 1.0 rule (for a broken stream), for a reason saying this.
func (p *program) failed(kind core.FailureKind, rule core.LifecycleRule, broke agui.Rule, says string) core.Failed {
	p.t.Helper()
	f, ok := p.m.Lifecycle.(core.Failed)
	switch {
	case !ok:
		p.t.Fatalf("lifecycle %#v, want Failed", p.m.Lifecycle)
	case f.Kind != kind || f.DecidedBy != rule || f.Broke != broke || !strings.Contains(f.Reason, says):
		p.t.Fatalf("failed %s by rule %d breaking %q: %q; want %s by rule %d breaking %q, saying %q",
			f.Kind, f.DecidedBy, f.Broke, f.Reason, kind, rule, broke, says)
	}
	return f
}

// play plays a whole script through the runtime's glue.
func play(t testing.TB, m core.Model, name string) core.Model {
	t.Helper()
	models, err := fixturetest.Play(m, name)
	if err != nil {
		t.Fatal(err)
	}
	return models[len(models)-1]
}
