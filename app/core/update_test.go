package core_test

// The run lifecycle rules of lifecycle.go (docs/agent-analysis.md), one
// test or more each; every failure test asserts the rule that decided it.

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/fixtures"
)

func run(g core.Generation, scenario string) core.Run {
	return core.Run{Generation: g, ThreadID: thread, RunID: runID(g), Scenario: scenario}
}

// Rule 1: Run creates a fresh descriptor and enters Connecting; the
// scenario is the Model's choice.
func TestRunStartsAFreshRun(t *testing.T) {
	p := start(t)
	if p.m.Scenario != "normal" {
		t.Fatalf("chosen at load: %q", p.m.Scenario)
	}
	p.run("slow")
	if want := (core.Connecting{Run: run(1, "slow")}); p.m.Lifecycle != want || p.m.Connection != 1 {
		t.Fatalf("lifecycle %#v connection %d", p.m.Lifecycle, p.m.Connection)
	}
	if !reflect.DeepEqual(p.lastCmd(), core.Sequence{core.StartStream{Run: run(1, "slow")}}) {
		t.Errorf("cmd %#v", p.lastCmd())
	}
}

// Rule 1: a running stream is disposed first; data, filter and selection
// stay; per-run counters reset.
func TestRunReplacesTheOpenConnection(t *testing.T) {
	p := start(t).run("normal").events(1, script(t, "normal", 1)[:3]...)
	p.send(core.ClickedFilter{Filter: core.OnlyCore}, core.ClickedService{ID: "api"})
	wire := p.m.Wire
	p.run("slow")
	if !reflect.DeepEqual(p.lastCmd(), core.Sequence{core.AbortStream{Generation: 1}, core.StartStream{Run: run(2, "slow")}}) {
		t.Errorf("cmd %#v, want abort 1 then start 2", p.lastCmd())
	}
	if p.m.Lifecycle != (core.Connecting{Run: run(2, "slow")}) || p.m.Connection != 2 {
		t.Errorf("lifecycle %#v connection %d", p.m.Lifecycle, p.m.Connection)
	}
	if p.m.Wire != wire || p.m.Filter != core.OnlyCore || p.m.Selected != "api" {
		t.Errorf("lost local inspection")
	}
	if p.m.Accepted != 0 || p.m.Baseline != nil || len(p.m.Arrivals) != 0 {
		t.Errorf("per-run state kept")
	}
	// A connection still open after its run completed is closed too.
	p = start(t).run("normal").events(1, script(t, "normal", 1)...)
	p.run("normal")
	if !reflect.DeepEqual(p.lastCmd(), core.Sequence{core.AbortStream{Generation: 1}, core.StartStream{Run: run(2, "normal")}}) {
		t.Errorf("cmd %#v", p.lastCmd())
	}
}

// Rules 2, 3 and 6 over the whole normal scenario.
func TestNormalRun(t *testing.T) {
	evs := script(t, "normal", 1)
	p := start(t).run("normal")
	p.events(1, evs[0])
	if p.m.Lifecycle != (core.AwaitingSnapshot{Run: run(1, "normal")}) {
		t.Fatalf("after RUN_STARTED: %#v", p.m.Lifecycle)
	}
	p.events(1, evs[1])
	if p.m.Lifecycle != (core.Streaming{Run: run(1, "normal")}) || p.m.Accepted != 1 || len(p.m.Baseline) != 3 {
		t.Fatalf("after snapshot: %#v accepted %d", p.m.Lifecycle, p.m.Accepted)
	}
	p.events(1, evs[2])
	if p.latency("api") != 145 || p.m.Baseline["api"].Latency != 60 || p.m.Accepted != 2 {
		t.Fatalf("spike: api %v", p.latency("api"))
	}
	p.events(1, evs[3])
	if got := p.ids(); !slices.Equal(got, []string{"auth", "api", "checkout"}) || p.m.Baseline["api"].Latency != 60 {
		t.Fatalf("reordered snapshot: %v", got)
	}
	p.events(1, evs[4])
	if _, has := p.m.BaselineOf("search"); has || p.latency("search") != 71 {
		t.Fatal("search must be added with no baseline")
	}
	p.events(1, evs[5])
	if p.m.Lifecycle != (core.Completed{RunID: "run-1"}) || p.m.Accepted != 4 {
		t.Fatalf("finished: %#v accepted %d", p.m.Lifecycle, p.m.Accepted)
	}
	// The stream is read to its end: a late RUN_ERROR could still come.
	if p.lastCmd() != nil || p.m.Connection != 1 {
		t.Errorf("the connection closed at RUN_FINISHED: %#v", p.lastCmd())
	}
	p.closed(1)
	if p.m.Lifecycle != (core.Completed{RunID: "run-1"}) || p.m.Connection != 0 || p.lastCmd() != nil {
		t.Errorf("after the stream's end: %#v connection %d", p.m.Lifecycle, p.m.Connection)
	}
}

// Rules 3 and 4: the invalid scenario's two-operation patch is refused
// whole, and the run fails: this demo's choice where 1.x says MAY, never
// shown as a broken protocol.
func TestInvalidRunRefusesAtomically(t *testing.T) {
	evs := script(t, "invalid", 1)
	p := start(t).run("invalid").events(1, evs[:3]...)
	p.send(core.ClickedFilter{Filter: core.OnlyCore}, core.ClickedService{ID: "checkout"})
	p.events(1, evs[3])
	p.failed(core.Refusal, core.RuleBrokenStream, agui.StateRefused, "operation 2 of 2 (replace /services/7/latency)")
	if p.latency("checkout") != 92 || p.latency("api") != 145 || p.m.Accepted != 2 {
		t.Errorf("partial patch visible: checkout %v", p.latency("checkout"))
	}
	if p.m.Filter != core.OnlyCore || p.m.Selected != "checkout" {
		t.Errorf("filter %s selection %q", p.m.Filter, p.m.Selected)
	}
	if r, ok := p.m.LastRejection(); !ok || r.Index != 1 || r.Ops != 2 || r.Op != "replace" || r.Path != "/services/7/latency" || r.RunID != "run-1" {
		t.Errorf("rejection %+v", r)
	}
	if p.lastCmd() != (core.AbortStream{Generation: 1}) || p.m.Connection != 0 {
		t.Errorf("cmd %#v", p.lastCmd())
	}
	// What was queued behind it is shown as after the end, never applied.
	frozen := p.m
	for _, f := range evs[4:] {
		p.send(core.Received{Generation: 1, JSON: []byte(f), Judgement: agui.Judgement{Type: "STATE_DELTA"}})
	}
	p.send(core.StreamClosed{Generation: 1})
	if p.m.Wire != frozen.Wire || p.m.Lifecycle != frozen.Lifecycle || len(p.m.Arrivals) != len(frozen.Arrivals)+2 {
		t.Errorf("late events changed the run")
	}
	for _, a := range p.m.Arrivals[len(frozen.Arrivals):] {
		if a.Verdict != core.AfterTheEnd {
			t.Errorf("late event %d: %s", a.Seq, a.Verdict)
		}
	}
}

// The arrival log lists a run's events in order with verdicts and
// warnings, bounded, and starts afresh with each run.
func TestArrivalsRecordVerdicts(t *testing.T) {
	p := start(t).run("normal").events(1, script(t, "normal", 1)...)
	if len(p.m.Arrivals) != 6 {
		t.Fatalf("%d arrivals", len(p.m.Arrivals))
	}
	for i, a := range p.m.Arrivals {
		if a.Seq != i+1 || a.Verdict != core.Applied || a.Size == 0 || a.JSON == "" || len(a.Warnings) > 0 {
			t.Errorf("arrival %+v", a)
		}
	}
	p.run("unknown-event").events(2, script(t, "unknown-event", 2)...)
	if a := p.m.Arrivals[2]; a.Verdict != core.Dropped || len(a.Warnings) != 1 || !strings.Contains(a.Warnings[0], "FUTURE_EVENT") {
		t.Errorf("the unknown event: %+v", a)
	}
	p.run("non-state-events").events(3, script(t, "non-state-events", 3)...)
	if p.m.Arrivals[1].Verdict != core.Checked || p.m.Arrivals[5].Verdict != core.Applied {
		t.Errorf("a step is checked, a snapshot applied: %+v", p.m.Arrivals[:6])
	}
	p.run("normal").events(4, script(t, "normal", 4)[:2]...)
	for range core.MaxArrivals + 5 {
		p.events(4, `{"type":"CUSTOM","name":"n","value":1}`)
	}
	if len(p.m.Arrivals) != core.MaxArrivals || p.m.Arrivals[core.MaxArrivals-1].Seq != core.MaxArrivals+7 {
		t.Errorf("arrivals not bounded: %d", len(p.m.Arrivals))
	}
}

// The Wire view keeps an event's first 4 KiB, cut between characters:
// a character across the bound goes whole.
func TestArrivalCutKeepsCharactersWhole(t *testing.T) {
	prefix := `{"type":"CUSTOM","name":"n","value":"`
	kept := prefix + strings.Repeat("a", 4<<10-1-len(prefix))
	event := kept + "é" + strings.Repeat("b", 100) + `"}` // é is bytes 4095 and 4096
	p := start(t).run("normal").events(1, script(t, "normal", 1)[:2]...)
	p.events(1, event)
	a := p.m.Arrivals[len(p.m.Arrivals)-1]
	if a.JSON != kept || a.Size != len(event) || !utf8.ValidString(a.JSON) {
		t.Errorf("kept %d of %d bytes, valid UTF-8 %v", len(a.JSON), a.Size, utf8.ValidString(a.JSON))
	}
}

// Rule 4: a state update this demo refuses fails the run and keeps the
// last valid data; whose rule it was is said: a patch that cannot apply or
// goes past the demo's bounds is its refusal (1.x lets a client go on), a
// state that is not {services: [...]} one it cannot draw.
func TestRefusedStatesFailTheRun(t *testing.T) {
	snapshot := func(services string) string {
		return `{"type":"STATE_SNAPSHOT","snapshot":{"services":` + services + `}}`
	}
	delta := func(ops string) string { return `{"type":"STATE_DELTA","delta":` + ops + `}` }
	svc := `{"id":"x","name":"X","series":"Core","volume":1,"latency":1}`
	tests := []struct {
		name, event string
		kind        core.FailureKind
		reason      string
	}{
		{"forbidden path", delta(`[{"op":"add","path":"/services/0/__proto__","value":{"polluted":true}}]`), core.Refusal, "forbidden path segment __proto__"},
		{"duplicate ids", snapshot(`[` + svc + `,` + svc + `]`), core.Undrawable, `"x" duplicates services[0]`},
		{"negative value", snapshot(`[{"id":"x","name":"X","series":"Core","volume":-1,"latency":1}]`), core.Undrawable, "services[0].volume: must be at least 0"},
		{"null in a delta", delta(`[{"op":"replace","path":"/services/0/latency","value":null}]`), core.Undrawable, "services[0].latency: must be a number, not null"},
		{"a case variant", snapshot(`[{"id":"x","name":"X","series":"Core","volume":1,"latency":1,"Latency":2}]`), core.Undrawable, `unknown key "Latency"`},
		{"not a Wire", `{"type":"STATE_SNAPSHOT","snapshot":"services"}`, core.Undrawable, "the state: must be an object, not a string"},
		{"another state", `{"type":"STATE_SNAPSHOT","snapshot":{"count":1}}`, core.Undrawable, `the state: unknown key "count"`},
		{"too many services", snapshot("[" + strings.Repeat(svc+",", core.MaxServices) + svc + "]"), core.Undrawable, "more than 10000 services"},
		{"a missing key", delta(`[{"op":"replace","path":"/services/0/owner","value":"me"}]`), core.Refusal, "the path does not exist"},
		{"an oversized patch", delta(`[` + strings.Repeat(`{"op":"test","path":"/services/0/id","value":"api"},`, core.MaxPatchOps) + `{"op":"test","path":"/services/0/id","value":"api"}]`), core.Refusal, "oversized patch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t).run("normal").events(1, script(t, "normal", 1)[:2]...)
			before := p.m.Wire
			p.events(1, tt.event)
			p.failed(tt.kind, core.RuleBrokenStream, agui.StateRefused, tt.reason)
			if who := p.m.Lifecycle.(core.Failed).Kind.Who(); who != "this demo" {
				t.Errorf("ended by %q", who)
			}
			if p.m.Wire != before || p.m.Accepted != 1 {
				t.Errorf("data changed")
			}
			if p.lastCmd() != (core.AbortStream{Generation: 1}) {
				t.Errorf("cmd %#v", p.lastCmd())
			}
		})
	}
}

// Rule 4: a stream that breaks an AG-UI 1.0 rule fails the run, naming
// the rule; the data stays as it was.
func TestBrokenStreamsFailTheRun(t *testing.T) {
	started := `{"type":"RUN_STARTED","threadId":"thread-1","runId":"run-1"}`
	tests := []struct {
		name   string
		events []string
		broke  agui.Rule
		says   string
	}{
		{"a snapshot first", []string{`{"type":"STATE_SNAPSHOT","snapshot":{"services":[]}}`}, agui.FirstEvent, "must begin with RUN_STARTED"},
		{"another thread", []string{`{"type":"RUN_STARTED","threadId":"thread-9","runId":"run-1"}`}, agui.ThreadOfRun, `thread "thread-9"`},
		{"RUN_STARTED twice", []string{started, started}, agui.NestedRun, "still active"},
		{"RUN_FINISHED of another run", []string{started, `{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-9"}`}, agui.RunIDsAgree, `run "run-9"`},
		{"an event after the end", []string{started, `{"type":"RUN_FINISHED","threadId":"thread-1","runId":"run-1"}`, `{"type":"STATE_DELTA","delta":[]}`}, agui.AfterFinish, "may follow RUN_FINISHED"},
		{"a malformed field", []string{started, `{"type":"STATE_DELTA","delta":{}}`}, agui.Malformed, "/delta: must be an array"},
		{"not JSON", []string{started, `{"type":`}, agui.NotAnEvent, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t).run("normal").events(1, tt.events...)
			p.failed(core.Protocol, core.RuleBrokenStream, tt.broke, tt.says)
			if p.m.Wire != nil || p.lastCmd() != (core.AbortStream{Generation: 1}) {
				t.Errorf("wire %v, cmd %#v", p.m.Wire, p.lastCmd())
			}
			if a := p.m.Arrivals[len(p.m.Arrivals)-1]; a.Verdict != core.RunFailed {
				t.Errorf("the breaking event: %+v", a)
			}
		})
	}
}

// Rule 2: a delta at the start of a run applies to the input's state,
// {"services": []}: never to the previous run's data.
func TestADeltaAtRunStartAppliesToTheInputState(t *testing.T) {
	p := start(t).run("normal").events(1, script(t, "normal", 1)...)
	previous := p.m.Wire
	p.run("delta-before-snapshot").events(2, script(t, "delta-before-snapshot", 2)...)
	p.failed(core.Refusal, core.RuleBrokenStream, agui.StateRefused, "the path does not exist")
	if p.m.Wire != previous || p.m.Accepted != 0 {
		t.Errorf("a delta of run 2 touched run 1's data")
	}
	p.run("delta-on-input-state").events(3, script(t, "delta-on-input-state", 3)...).closed(3)
	if p.m.Lifecycle != (core.Completed{RunID: "run-3"}) || p.m.Accepted != 2 || p.latency("api") != 145 {
		t.Fatalf("%#v accepted %d", p.m.Lifecycle, p.m.Accepted)
	}
	if b, _ := p.m.BaselineOf("api"); b.Latency != 60 || len(p.m.Baseline) != 3 {
		t.Errorf("the baseline is the first delta's state: %+v", p.m.Baseline)
	}
}

// Rule 2: the baseline is the run's own first state, matched by id.
func TestBaselineBelongsToTheRun(t *testing.T) {
	p := start(t).run("normal").events(1, script(t, "normal", 1)...)
	p.run("normal")
	run2 := script(t, "normal", 2)
	p.events(2, run2[0])
	if p.m.Baseline != nil {
		t.Fatal("run 2 kept run 1's baseline")
	}
	p.events(2, run2[1:4]...)
	if b, _ := p.m.BaselineOf("api"); b.Latency != 60 {
		t.Errorf("baseline api %v, want 60 from run 2's first snapshot", b.Latency)
	}
}

// Rule 2: replayed runs before the requested one carry their own run ids;
// their state carries over, and only the requested run's is shown.
func TestReplayedRunsCarryTheirState(t *testing.T) {
	evs := script(t, "replayed-history", 1)
	p := start(t).run("replayed-history").events(1, evs[:3]...)
	if _, connecting := p.m.Lifecycle.(core.Connecting); !connecting || p.m.Wire != nil {
		t.Fatalf("a replayed run changed the screen: %#v", p.m.Lifecycle)
	}
	p.events(1, evs[3:5]...)
	if p.m.Lifecycle != (core.Streaming{Run: run(1, "replayed-history")}) || p.latency("api") != 145 || p.m.Accepted != 1 {
		t.Fatalf("%#v accepted %d", p.m.Lifecycle, p.m.Accepted)
	}
	p.events(1, evs[5:]...).closed(1)
	if p.m.Lifecycle != (core.Completed{RunID: "run-1"}) || p.m.Accepted != 2 {
		t.Errorf("%#v", p.m.Lifecycle)
	}
	// A replayed run that failed is history, not this run's failure.
	p.run("error-then-new-run").events(2, script(t, "error-then-new-run", 2)...).closed(2)
	if p.m.Lifecycle != (core.Completed{RunID: "run-2"}) {
		t.Errorf("%#v", p.m.Lifecycle)
	}
}

// Selection is by id: kept across the reordered snapshot, dropped when
// filtered out or gone; local inspection never touches the stream.
func TestSelectionIsKeptByID(t *testing.T) {
	evs := script(t, "normal", 1)
	p := start(t).run("normal").events(1, evs[:3]...)
	n := len(p.cmds)
	p.send(core.ClickedService{ID: "api"})
	p.events(1, evs[3]) // reordered: api moves from index 0 to 1
	if p.m.Selected != "api" {
		t.Fatalf("selection after reorder: %q", p.m.Selected)
	}
	p.send(core.ClickedFilter{Filter: core.OnlyPlatform})
	if p.m.Selected != "" || !slices.Equal(p.ids(), []string{"auth"}) {
		t.Errorf("filtered out: selected %q visible %v", p.m.Selected, p.ids())
	}
	p.send(core.ClickedFilter{Filter: core.All}, core.ClickedService{ID: "checkout"})
	p.events(1, `{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/services/2"}]}`)
	if p.m.Selected != "" {
		t.Errorf("removed service still selected: %q", p.m.Selected)
	}
	p.send(core.ClickedService{ID: "nope"})
	if p.m.Selected != "" {
		t.Errorf("selected an unknown id")
	}
	if _, streaming := p.m.Lifecycle.(core.Streaming); !streaming || slices.ContainsFunc(p.cmds[n:], func(c core.Cmd) bool { return c != nil }) {
		t.Errorf("local inspection touched the stream: %#v", p.cmds[n:])
	}
}

// noOpIn checks msg changes nothing and asks for nothing in each state.
func noOpIn(t *testing.T, msg core.Msg, states ...core.Lifecycle) {
	t.Helper()
	for _, lifecycle := range states {
		m := core.NewModel(thread)
		m.Lifecycle = lifecycle
		if next, cmd := core.Update(m, msg); !reflect.DeepEqual(next, m) || cmd != nil {
			t.Errorf("%T in %T: %#v %#v", msg, lifecycle, next.Lifecycle, cmd)
		}
	}
}

var closed = []core.Lifecycle{core.Idle{}, core.Completed{RunID: "run-1"}, core.Cancelled{RunID: "run-1"},
	core.Interrupted{RunID: "run-1"}, core.Failed{RunID: "run-1", Kind: core.Transport, DecidedBy: core.RuleRunEnding, Reason: "x"}}

// Rule 7: Cancel stops an active run and starts nothing.
func TestCancel(t *testing.T) {
	noOpIn(t, core.ClickedCancel{}, closed...)
	evs := script(t, "slow", 1)
	p := start(t).run("slow").events(1, evs[:2]...)
	p.send(core.ClickedCancel{})
	if p.m.Lifecycle != (core.Cancelled{RunID: "run-1", Cause: core.ByUser}) || p.lastCmd() != (core.AbortStream{Generation: 1}) {
		t.Fatalf("%#v %#v", p.m.Lifecycle, p.lastCmd())
	}
	if p.latency("api") != 60 || p.m.Connection != 0 {
		t.Error("cancel lost the data, or kept the connection")
	}
	frozen := p.m
	p.events(1, evs[2:]...)
	if p.m.Wire != frozen.Wire || p.m.Lifecycle != frozen.Lifecycle {
		t.Error("an update after cancel applied")
	}
}

// Rule 5: Recover only from Failed: one new normal run, and the scenario
// chosen for the next is normal again.
func TestRecover(t *testing.T) {
	noOpIn(t, core.ClickedRecover{}, append(closed[:4], core.Streaming{Run: run(1, "normal")})...)
	p := start(t).run("invalid").events(1, script(t, "invalid", 1)[:4]...)
	p.send(core.ClickedRecover{})
	if !reflect.DeepEqual(p.lastCmd(), core.Sequence{core.StartStream{Run: run(2, "normal")}}) || p.m.Lifecycle != (core.Connecting{Run: run(2, "normal")}) {
		t.Fatalf("recover: %#v %#v", p.lastCmd(), p.m.Lifecycle)
	}
	if p.m.Scenario != "normal" || p.latency("checkout") != 92 {
		t.Errorf("scenario %q, checkout %v", p.m.Scenario, p.latency("checkout"))
	}
	if _, shown := p.m.LastRejection(); shown {
		t.Error("the old rejection still shows for the new run")
	}
	p.events(2, script(t, "normal", 2)...).closed(2)
	if p.m.Lifecycle != (core.Completed{RunID: "run-2"}) || p.m.Accepted != 4 {
		t.Errorf("the recovery run: %#v accepted %d", p.m.Lifecycle, p.m.Accepted)
	}
}

// Rule 6: RUN_FINISHED ends the run by its outcome; a late RUN_ERROR
// fails it; a stream that just ends, or a connection that breaks, fails
// it (transport), never a success.
func TestRunEndings(t *testing.T) {
	for name, want := range map[string]core.Lifecycle{
		"outcome-cancelled": core.Cancelled{RunID: "run-1", Cause: core.ByAgent},
		"unknown-outcome":   core.Completed{RunID: "run-1"},
	} {
		p := start(t).run(name).events(1, script(t, name, 1)...).closed(1)
		if p.m.Lifecycle != want {
			t.Errorf("%s: %#v", name, p.m.Lifecycle)
		}
	}
	p := start(t).run("outcome-interrupt").events(1, script(t, "outcome-interrupt", 1)...).closed(1)
	if l, ok := p.m.Lifecycle.(core.Interrupted); !ok || len(l.Pending.Interrupts) != 1 || l.Pending.Interrupts[0].Message != "Raise API's p95 budget to 150 ms?" {
		t.Errorf("%#v", p.m.Lifecycle)
	}

	p = start(t).run("late-error").events(1, script(t, "late-error", 1)[:4]...)
	if p.m.Lifecycle != (core.Completed{RunID: "run-1"}) {
		t.Fatalf("before the late error: %#v", p.m.Lifecycle)
	}
	p.events(1, script(t, "late-error", 1)[4])
	p.failed(core.AgentReported, core.RuleRunEnding, "", "RUN_ERROR after the run finished: Flushing the results failed")
	if p.m.Accepted != 2 || p.lastCmd() != (core.AbortStream{Generation: 1}) {
		t.Errorf("accepted %d cmd %#v", p.m.Accepted, p.lastCmd())
	}

	evs := script(t, "normal", 1)
	for name, msg := range map[string]core.Msg{
		"closed early": nil,
		"refused":      core.StreamFailed{Generation: 1, Kind: core.Transport, Reason: "HTTP 500 Internal Server Error"},
		"broken":       core.StreamFailed{Generation: 1, Kind: core.Transport, Reason: "the stream broke: reset"},
	} {
		p := start(t).run("normal").events(1, evs[:2]...)
		if msg == nil {
			p.closed(1)
			p.failed(core.Transport, core.RuleRunEnding, "", `while run "run-1" was active`)
		} else {
			p.send(msg)
			p.failed(core.Transport, core.RuleRunEnding, "", msg.(core.StreamFailed).Reason)
			if p.lastCmd() != (core.AbortStream{Generation: 1}) {
				t.Errorf("%s: cmd %#v", name, p.lastCmd())
			}
		}
		if p.latency("api") != 60 {
			t.Errorf("%s lost the data", name)
		}
	}
	// A frame past the reader's bound fails the run, naming the bound: this
	// demo's own, not a rule of 1.x.
	p = start(t).run("normal").events(1, evs[0]).send(core.StreamFailed{Generation: 1, Kind: core.Protocol, Broke: agui.Limit, Reason: "an event is larger than 1 MiB"})
	p.failed(core.Refusal, core.RuleBrokenStream, agui.Limit, "larger than 1 MiB")

	// After a proper ending, the connection's own end changes nothing.
	p = start(t).run("normal").events(1, evs...)
	frozen := p.m
	p.send(core.StreamFailed{Generation: 1, Kind: core.Transport, Reason: "reset"})
	if p.m.Lifecycle != frozen.Lifecycle || p.m.Connection != 0 || p.lastCmd() != (core.AbortStream{Generation: 1}) {
		t.Errorf("a broken connection after completion: %#v", p.m.Lifecycle)
	}
}

// Rule 8: RUN_ERROR is the agent's own report, never a broken rule; other
// families are checked by the engine and not shown.
func TestAgentReportedFailures(t *testing.T) {
	p := start(t).run("run-error").events(1, script(t, "run-error", 1)...)
	p.failed(core.AgentReported, core.RuleOtherFamilies, "", "RUN_ERROR: The model provider is overloaded (provider_overloaded)")
	if p.m.Accepted != 2 || p.latency("api") != 145 {
		t.Errorf("the data applied before it is lost")
	}
	p = start(t).run("error-first").events(1, script(t, "error-first", 1)...)
	p.failed(core.AgentReported, core.RuleOtherFamilies, "", "could not be reached")

	p = start(t).run("non-state-events").events(1, script(t, "non-state-events", 1)...).closed(1)
	if p.m.Lifecycle != (core.Completed{RunID: "run-1"}) || p.m.Accepted != 2 {
		t.Errorf("%#v accepted %d", p.m.Lifecycle, p.m.Accepted)
	}
}

// Msgs of a connection no longer open are no-ops.
func TestStaleConnectionsAreNoOps(t *testing.T) {
	evs := script(t, "normal", 1)
	p := start(t).run("normal").events(1, evs[:2]...)
	p.run("normal")
	frozen := p.m
	n := len(p.cmds)
	p.events(1, evs[2:]...).send(core.StreamClosed{Generation: 1}, core.StreamFailed{Generation: 1, Kind: core.Protocol, Reason: "x"})
	p.send(core.Received{Generation: 7, JSON: []byte(evs[0])}) // a connection that never was
	if !reflect.DeepEqual(p.m, frozen) || slices.ContainsFunc(p.cmds[n:], func(c core.Cmd) bool { return c != nil }) {
		t.Error("a stale connection changed something")
	}
}

// Leaving cancels an active run and closes any connection; moving within
// the demo changes nothing.
func TestNavigation(t *testing.T) {
	p := start(t).run("slow").events(1, script(t, "slow", 1)[:2]...)
	frozen := p.m
	p.send(core.Navigated{To: core.Stayed})
	if !reflect.DeepEqual(p.m, frozen) || p.lastCmd() != nil {
		t.Error("staying changed the run")
	}
	p.send(core.Navigated{To: core.Exited})
	if p.m.Lifecycle != (core.Cancelled{RunID: "run-1", Cause: core.RouteExit}) || p.lastCmd() != (core.AbortStream{Generation: 1}) {
		t.Errorf("%#v %#v", p.m.Lifecycle, p.lastCmd())
	}
	if next, cmd := core.Update(core.NewModel(thread), core.Navigated{To: core.Exited}); next.Lifecycle != (core.Idle{}) || cmd != nil {
		t.Error("leaving with no run did something")
	}
	p = start(t).run("normal").events(1, script(t, "normal", 1)...).send(core.Navigated{To: core.Exited})
	if p.m.Lifecycle != (core.Completed{RunID: "run-1"}) || p.lastCmd() != (core.AbortStream{Generation: 1}) {
		t.Errorf("leaving after completion: %#v %#v", p.m.Lifecycle, p.lastCmd())
	}
}

// Update never writes into a Model it was given: histories are copied.
func TestUpdateDoesNotAliasHistories(t *testing.T) {
	p := start(t)
	for range core.MaxActivity + 3 {
		p.run("normal").send(core.ClickedCancel{})
	}
	base := p.m
	snapshot := slices.Clone(base.Activity)
	a, _ := core.Update(base, core.ClickedRun{})
	b, _ := core.Update(base, core.ClickedRecover{})
	c, _ := core.Update(core.Model(base), core.ChoseScenario{Name: "slow"})
	c, _ = core.Update(c, core.ClickedRun{})
	if !slices.Equal(base.Activity, snapshot) || len(base.Activity) != core.MaxActivity {
		t.Error("Update wrote into the given Model's activity")
	}
	if a.Activity[len(a.Activity)-1].Text == c.Activity[len(c.Activity)-1].Text || b.Generation != base.Generation {
		t.Error("two successors share their history")
	}
}

func TestRejectionsAreBounded(t *testing.T) {
	p := start(t)
	for g := core.Generation(1); g <= core.MaxRejections+2; g++ {
		p.run("invalid").events(g, script(t, "invalid", g)[:4]...)
	}
	if len(p.m.Rejections) != core.MaxRejections || p.m.Rejections[core.MaxRejections-1].RunID != "run-5" {
		t.Errorf("rejections %+v", p.m.Rejections)
	}
}

// Every scenario and fault, played as the runtime plays it, ends as its
// fixture's outcome says, with who ended it.
func TestEveryScriptEndsAsItsFixtureSays(t *testing.T) {
	for _, s := range fixtures.All() {
		t.Run(s.Name, func(t *testing.T) {
			checkEnding(t, play(t, core.NewModel(thread), s.Name), s.Ending)
		})
	}
}

func checkEnding(t *testing.T, m core.Model, want fixtures.Ending) {
	t.Helper()
	reason, by := "", ""
	switch l := m.Lifecycle.(type) {
	case core.Failed:
		reason, by = l.Reason, l.Kind.Who()
	case core.Cancelled:
		by = map[core.CancelCause]string{core.ByAgent: "the agent", core.ByUser: "you"}[l.Cause]
	}
	if m.Lifecycle.String() != want.Status || by != want.Who || m.Accepted != want.Accepted || !strings.Contains(reason, want.Reason) {
		t.Errorf("%s by %q with %d accepted (%q), want %s by %q with %d accepted (%q)",
			m.Lifecycle, by, m.Accepted, reason, want.Status, want.Who, want.Accepted, want.Reason)
	}
}

// Recover works after every script that fails: one fresh normal run, with
// its own snapshot, that completes.
func TestRecoverAfterEveryFailingScript(t *testing.T) {
	for _, s := range fixtures.All() {
		if s.Ending.Status != "Failed" {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			m := play(t, core.NewModel(thread), s.Name)
			m, cmd := core.Update(m, core.ClickedRecover{})
			if !reflect.DeepEqual(cmd, core.Sequence{core.StartStream{Run: run(2, "normal")}}) {
				t.Fatalf("Recover asked for %#v", cmd)
			}
			m = play(t, m, "normal")
			if m.Lifecycle != (core.Completed{RunID: "run-3"}) || m.Accepted != 4 {
				t.Errorf("after recovering: %#v with %d accepted", m.Lifecycle, m.Accepted)
			}
		})
	}
}

// After the requested run's end the connection stays open (rule 6): an
// event the engine cannot read, one over its size bound, fails the run
// as any other later event that breaks a rule does; the connection
// breaking keeps the run's ending.
func TestALateEventOverTheBoundFailsTheRun(t *testing.T) {
	for _, c := range []struct {
		name   string
		failed core.StreamFailed
		fails  bool
	}{
		{"over the bound", core.StreamFailed{Generation: 1, Kind: core.Protocol, Broke: agui.Limit, Reason: "an event is larger than 1 MiB"}, true},
		{"the connection broke", core.StreamFailed{Generation: 1, Kind: core.Transport, Reason: "the stream broke"}, false},
	} {
		for _, scenario := range []string{"normal", "approval"} {
			p := start(t).run(scenario).events(1, script(t, scenario, 1)...)
			ended := p.m.Lifecycle
			p.send(c.failed)
			if _, failed := p.m.Lifecycle.(core.Failed); failed != c.fails {
				t.Errorf("%s after %s ended %v: %v", c.name, scenario, ended, p.m.Lifecycle)
			}
		}
	}
}
