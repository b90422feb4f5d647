package core

// "Rule N" is rule N of the run lifecycle in docs/agent-analysis.md.

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

func run1(scenario string) Run {
	return Run{Generation: 1, ThreadID: thread, RunID: "run-1", Scenario: scenario}
}

// Rule 1: Run creates a fresh descriptor and enters Connecting.
func TestRunStartsAFreshRun(t *testing.T) {
	p := start(t).send(ClickedRun{Scenario: "slow"})
	if want := (Connecting{run1("slow")}); p.m.Lifecycle != want {
		t.Fatalf("lifecycle %#v, want %#v", p.m.Lifecycle, want)
	}
	if !reflect.DeepEqual(p.lastCmd(), Sequence{StartStream{run1("slow")}}) {
		t.Errorf("cmd %#v", p.lastCmd())
	}
}

// Rule 1: a running stream is disposed first; data, filter and selection
// stay; per-run counters reset.
func TestRunReplacesTheOpenRunAndKeepsLocalInspection(t *testing.T) {
	evs := fixtureEvents(t, "normal", "run-1")
	p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, evs[:3]...)
	p.send(ClickedFilter{Filter: OnlyCore}, ClickedService{ID: "api"})
	wire := p.m.Wire

	p.send(ClickedRun{Scenario: "slow"})
	run2 := Run{Generation: 2, ThreadID: thread, RunID: "run-2", Scenario: "slow"}
	if !reflect.DeepEqual(p.lastCmd(), Sequence{AbortStream{Generation: 1}, StartStream{run2}}) {
		t.Errorf("cmd %#v, want abort 1 then start 2", p.lastCmd())
	}
	if p.m.Lifecycle != (Connecting{run2}) || p.m.Generation != 2 {
		t.Errorf("lifecycle %#v generation %d", p.m.Lifecycle, p.m.Generation)
	}
	if p.m.Wire != wire || p.m.Filter != OnlyCore || p.m.Selected != "api" {
		t.Errorf("lost local inspection: wire %v filter %s selected %q", p.m.Wire, p.m.Filter, p.m.Selected)
	}
	if p.m.Accepted != 0 || p.m.Baseline != nil {
		t.Errorf("per-run state kept: accepted %d baseline %v", p.m.Accepted, p.m.Baseline)
	}
}

// Rules 2, 3 and 6 over the whole normal fixture.
func TestNormalRun(t *testing.T) {
	evs := fixtureEvents(t, "normal", "run-1")
	p := start(t).send(ClickedRun{Scenario: "normal"})

	p.events(1, evs[0])
	if p.m.Lifecycle != (AwaitingSnapshot{run1("normal")}) {
		t.Fatalf("after RUN_STARTED: %#v", p.m.Lifecycle)
	}
	p.events(1, evs[1])
	if p.m.Lifecycle != (Streaming{run1("normal")}) || p.m.Accepted != 1 || len(p.m.Baseline) != 3 {
		t.Fatalf("after snapshot: %#v accepted %d baseline %v", p.m.Lifecycle, p.m.Accepted, p.m.Baseline)
	}
	p.events(1, evs[2])
	if p.latency("api") != 145 || p.m.Baseline["api"].Latency != 60 || p.m.Accepted != 2 {
		t.Fatalf("spike: api %v baseline %v accepted %d", p.latency("api"), p.m.Baseline["api"].Latency, p.m.Accepted)
	}
	p.events(1, evs[3])
	if got := p.ids(); !slices.Equal(got, []string{"auth", "api", "checkout"}) || p.m.Baseline["api"].Latency != 60 {
		t.Fatalf("reordered snapshot: %v, baseline api %v", got, p.m.Baseline["api"].Latency)
	}
	p.events(1, evs[4])
	if _, has := p.m.BaselineOf("search"); has || p.latency("search") != 71 {
		t.Fatal("search must be added with no baseline")
	}
	p.events(1, evs[5])
	if p.m.Lifecycle != (Completed{RunID: "run-1"}) || p.m.Accepted != 4 {
		t.Fatalf("finished: %#v accepted %d", p.m.Lifecycle, p.m.Accepted)
	}
	if p.lastCmd() != (AbortStream{Generation: 1}) {
		t.Errorf("completion must release the connection: %#v", p.lastCmd())
	}
}

// Rules 3 and 4: the invalid fixture's two-operation patch is rejected
// whole; the late valid delta and RUN_FINISHED are ignored.
func TestInvalidRunRollsBackAtomically(t *testing.T) {
	evs := fixtureEvents(t, "invalid", "run-1")
	p := start(t).send(ClickedRun{Scenario: "invalid"}).events(1, evs[:3]...)
	p.send(ClickedFilter{Filter: OnlyCore}, ClickedService{ID: "checkout"})
	p.events(1, evs[3])

	f, failed := p.m.Lifecycle.(Failed)
	if !failed || f.Kind != Protocol || f.RunID != "run-1" {
		t.Fatalf("lifecycle %#v", p.m.Lifecycle)
	}
	if p.latency("checkout") != 92 || p.latency("api") != 145 || p.m.Accepted != 2 {
		t.Errorf("partial patch visible: checkout %v api %v accepted %d", p.latency("checkout"), p.latency("api"), p.m.Accepted)
	}
	if p.m.Filter != OnlyCore || p.m.Selected != "checkout" {
		t.Errorf("filter %s selection %q", p.m.Filter, p.m.Selected)
	}
	r, ok := p.m.LastRejection()
	if !ok || r.Index != 1 || r.Op != "replace" || r.Path != "/services/7/latency" || r.RunID != "run-1" {
		t.Errorf("rejection %+v", r)
	}
	if !strings.Contains(f.Reason, "operation 2 of 2") {
		t.Errorf("reason %q", f.Reason)
	}
	if p.lastCmd() != (AbortStream{Generation: 1}) {
		t.Errorf("cmd %#v", p.lastCmd())
	}

	frozen := p.m
	p.events(1, evs[4], evs[5]).send(StreamClosed{Generation: 1})
	if !sameButFrames(p.m, frozen) || slices.ContainsFunc(p.cmds[len(p.cmds)-3:], func(c Cmd) bool { return c != nil }) {
		t.Errorf("late events changed the model or asked for effects")
	}
	checkLateFrames(t, p.m, len(frozen.Frames), 2)
}

// sameButFrames: nothing but the Wire disclosure differs.
func sameButFrames(a, b Model) bool {
	a.Frames, b.Frames = nil, nil
	return reflect.DeepEqual(a, b)
}

// checkLateFrames: the last n frames, after the first kept, were shown as
// after the end.
func checkLateFrames(t *testing.T, m Model, kept, n int) {
	t.Helper()
	if len(m.Frames) != kept+n {
		t.Fatalf("%d frames, want %d", len(m.Frames), kept+n)
	}
	for _, f := range m.Frames[kept:] {
		if f.Verdict != AfterTheEnd {
			t.Errorf("frame %d (%s): %s", f.Seq, f.Type, f.Verdict)
		}
	}
}

// The Wire disclosure lists a run's frames in order with their verdicts,
// and starts afresh with each run.
func TestFramesRecordVerdicts(t *testing.T) {
	p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, fixtureEvents(t, "normal", "run-1")...)
	if len(p.m.Frames) != 6 {
		t.Fatalf("%d frames", len(p.m.Frames))
	}
	for i, f := range p.m.Frames {
		if f.Seq != i+1 || f.Verdict != Applied || f.Size == 0 || f.JSON == "" {
			t.Errorf("frame %+v", f)
		}
	}
	p.send(ClickedRun{Scenario: "invalid"}).events(2, fixtureEvents(t, "invalid", "run-2")...)
	var verdicts []Verdict
	for _, f := range p.m.Frames {
		verdicts = append(verdicts, f.Verdict)
	}
	if want := []Verdict{Applied, Applied, Applied, Rejected, AfterTheEnd, AfterTheEnd}; !slices.Equal(verdicts, want) {
		t.Errorf("invalid run: %v, want %v", verdicts, want)
	}
	p.send(ClickedRun{Scenario: "normal"}).events(3, sdk(events.NewStepStartedEvent("x")), sdk(events.NewRunErrorEvent("boom")))
	if got := []Verdict{p.m.Frames[0].Verdict, p.m.Frames[1].Verdict}; !slices.Equal(got, []Verdict{Ignored, RunFailed}) {
		t.Errorf("a step is ignored, RUN_ERROR fails the run: %v", got)
	}
	for range MaxFrames + 5 {
		p.events(3, sdk(events.NewStepStartedEvent("x")))
	}
	if len(p.m.Frames) != MaxFrames || p.m.Frames[MaxFrames-1].Seq != MaxFrames+7 {
		t.Errorf("frames are not bounded: %d, last %d", len(p.m.Frames), p.m.Frames[len(p.m.Frames)-1].Seq)
	}
}

// Rule 4: every kind of bad update fails the run and keeps the last valid
// data.
func TestBadUpdatesFailTheRun(t *testing.T) {
	dupServices, badServices := initialWire().Services(), initialWire().Services()
	dupServices[2].ID = "api"
	badServices[0].Volume = -1
	dup, bad := NewWire(dupServices), NewWire(badServices)
	streaming := func(t *testing.T) *program {
		return start(t).send(ClickedRun{Scenario: "normal"}).events(1, fixtureEvents(t, "normal", "run-1")[:2]...)
	}
	tests := []struct {
		name   string
		ev     string
		reason string
	}{
		{"forbidden path", deltaOf(`[{"op":"add","path":"/services/0/__proto__","value":{"polluted":true}}]`), "forbidden path segment __proto__"},
		{"duplicate ids", snapshotOf(dup), `"api" duplicates`},
		{"negative value", snapshotOf(bad), "services[0].volume: must be at least 0"},
		{"null in a delta", deltaOf(`[{"op":"replace","path":"/services/0/latency","value":null}]`), "services[0].latency: must be a number, not null"},
		{"case variant in a snapshot", `{"type":"STATE_SNAPSHOT","snapshot":{"services":[{"id":"x","name":"X","series":"Core","volume":1,"latency":1,"Latency":2}]}}`, `unknown key "Latency"`},
		{"not a Wire", sdk(events.NewStateSnapshotEvent("services")), "the state: must be an object, not a string"},
		{"RUN_STARTED again", sdk(events.NewRunStartedEvent(thread, "run-1")), "RUN_STARTED arrived twice"},
		{"RUN_FINISHED of another run", sdk(events.NewRunFinishedEvent(thread, "run-9")), `run "run-9"`},
		{"RUN_ERROR", sdk(events.NewRunErrorEvent("model overloaded")), "RUN_ERROR: model overloaded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := streaming(t)
			before := p.m.Wire
			p.events(1, tt.ev)
			f, ok := p.m.Lifecycle.(Failed)
			if !ok || f.Kind != Protocol || !strings.Contains(f.Reason, tt.reason) {
				t.Fatalf("lifecycle %#v, want Failed(protocol) with %q", p.m.Lifecycle, tt.reason)
			}
			if p.m.Wire != before || !slices.Equal(p.m.Wire.Services(), initialWire().Services()) {
				t.Errorf("data changed: %+v", p.m.Wire)
			}
			if p.lastCmd() != (AbortStream{Generation: 1}) {
				t.Errorf("cmd %#v", p.lastCmd())
			}
		})
	}
}

// Rules 2 and 4: lifecycle order is enforced.
func TestOutOfOrderEventsFailTheRun(t *testing.T) {
	evs := fixtureEvents(t, "normal", "run-1")
	tests := []struct {
		name   string
		before []string
		ev     string
		reason string
	}{
		{"snapshot before RUN_STARTED", nil, evs[1], "STATE_SNAPSHOT before RUN_STARTED"},
		{"delta before RUN_STARTED", nil, evs[2], "no baseline"},
		{"delta before the first snapshot", evs[:1], evs[2], "no baseline"},
		{"RUN_FINISHED before RUN_STARTED", nil, evs[5], "RUN_FINISHED before RUN_STARTED"},
		{"RUN_STARTED of another run", nil, sdk(events.NewRunStartedEvent(thread, "run-7")), `run "run-7"`},
		{"RUN_STARTED of another thread", nil, sdk(events.NewRunStartedEvent("thread-9", "run-1")), `thread "thread-9"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, tt.before...).events(1, tt.ev)
			f, ok := p.m.Lifecycle.(Failed)
			if !ok || !strings.Contains(f.Reason, tt.reason) {
				t.Fatalf("lifecycle %#v, want Failed with %q", p.m.Lifecycle, tt.reason)
			}
			if p.m.Wire != nil {
				t.Errorf("data appeared: %+v", p.m.Wire)
			}
		})
	}
}

// Rule 2: a new run never patches the previous run's Wire.
func TestNewRunNeverPatchesThePreviousWire(t *testing.T) {
	p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, fixtureEvents(t, "normal", "run-1")...)
	previous := p.m.Wire

	p.send(ClickedRun{Scenario: "normal"})
	run2 := fixtureEvents(t, "normal", "run-2")
	p.events(2, run2[0])
	if p.m.Lifecycle != (AwaitingSnapshot{Run{Generation: 2, ThreadID: thread, RunID: "run-2", Scenario: "normal"}}) {
		t.Fatalf("lifecycle %#v", p.m.Lifecycle)
	}
	p.events(2, run2[2]) // the spike, before run 2's snapshot
	if _, failed := p.m.Lifecycle.(Failed); !failed || p.m.Wire != previous {
		t.Errorf("a delta of run 2 touched run 1's data: %#v", p.m.Lifecycle)
	}
	if p.m.Accepted != 0 {
		t.Errorf("accepted %d", p.m.Accepted)
	}
}

// The baseline is the run's first snapshot, matched by id; a second run
// gets its own.
func TestBaselineBelongsToTheRun(t *testing.T) {
	p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, fixtureEvents(t, "normal", "run-1")...)
	p.send(ClickedRun{Scenario: "normal"})
	run2 := fixtureEvents(t, "normal", "run-2")
	p.events(2, run2[0])
	if p.m.Baseline != nil {
		t.Fatal("run 2 kept run 1's baseline")
	}
	p.events(2, run2[1], run2[2], run2[3])
	if b, _ := p.m.BaselineOf("api"); b.Latency != 60 {
		t.Errorf("baseline api %v, want 60 from run 2's first snapshot", b.Latency)
	}
}

// Selection is by id: kept across the reordered snapshot, dropped when
// filtered out or gone.
func TestSelectionIsKeptByID(t *testing.T) {
	evs := fixtureEvents(t, "normal", "run-1")
	p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, evs[:3]...)
	p.send(ClickedService{ID: "api"})
	p.events(1, evs[3]) // reordered: api moves from index 0 to 1
	if p.m.Selected != "api" {
		t.Fatalf("selection after reorder: %q", p.m.Selected)
	}
	p.send(ClickedFilter{Filter: OnlyPlatform})
	if p.m.Selected != "" || !slices.Equal(p.ids(), []string{"auth"}) {
		t.Errorf("filtered out: selected %q visible %v", p.m.Selected, p.ids())
	}
	p.send(ClickedFilter{Filter: All}, ClickedService{ID: "checkout"})
	p.events(1, deltaOf(`[{"op":"remove","path":"/services/2"}]`))
	if p.m.Selected != "" {
		t.Errorf("removed service still selected: %q", p.m.Selected)
	}
	p.send(ClickedService{ID: "nope"})
	if p.m.Selected != "" {
		t.Errorf("selected an unknown id")
	}
	if _, streaming := p.m.Lifecycle.(Streaming); !streaming || slices.ContainsFunc(p.cmds[3:], func(c Cmd) bool { return c != nil }) {
		t.Errorf("local inspection touched the stream: %#v", p.cmds)
	}
}

// noOpIn checks msg changes nothing and asks for nothing in each state.
func noOpIn(t *testing.T, msg Msg, states ...Lifecycle) {
	t.Helper()
	for _, lifecycle := range states {
		m := NewModel(thread)
		m.Lifecycle = lifecycle
		if next, cmd := Update(m, msg); !reflect.DeepEqual(next, m) || cmd != nil {
			t.Errorf("%T in %T: %#v %#v", msg, lifecycle, next.Lifecycle, cmd)
		}
	}
}

// Rule 7: Cancel.
func TestCancel(t *testing.T) {
	noOpIn(t, ClickedCancel{}, Idle{}, Completed{"run-1"}, Cancelled{"run-1", ByUser}, Failed{RunID: "run-1", Kind: Transport, Rule: 6, Reason: "x"})
	p := start(t).send(ClickedRun{Scenario: "slow"}).events(1, fixtureEvents(t, "slow", "run-1")[:2]...)
	p.send(ClickedCancel{})
	if p.m.Lifecycle != (Cancelled{RunID: "run-1", Cause: ByUser}) || p.lastCmd() != (AbortStream{Generation: 1}) {
		t.Fatalf("%#v %#v", p.m.Lifecycle, p.lastCmd())
	}
	if p.latency("api") != 60 {
		t.Error("cancel lost the data")
	}
	frozen := p.m
	p.events(1, fixtureEvents(t, "slow", "run-1")[2:]...)
	if !sameButFrames(p.m, frozen) {
		t.Error("an update after cancel applied")
	}
	checkLateFrames(t, p.m, len(frozen.Frames), 3)
}

// Rule 5: Recover only from Failed, one new normal run.
func TestRecover(t *testing.T) {
	noOpIn(t, ClickedRecover{}, Idle{}, Completed{"run-1"}, Cancelled{"run-1", ByUser}, Streaming{run1("normal")})
	p := start(t).send(ClickedRun{Scenario: "invalid"}).events(1, fixtureEvents(t, "invalid", "run-1")[:4]...)
	p.send(ClickedRecover{})
	run2 := Run{Generation: 2, ThreadID: thread, RunID: "run-2", Scenario: "normal"}
	if !reflect.DeepEqual(p.lastCmd(), Sequence{StartStream{run2}}) || p.m.Lifecycle != (Connecting{run2}) {
		t.Fatalf("recover: %#v %#v", p.lastCmd(), p.m.Lifecycle)
	}
	if p.latency("checkout") != 92 {
		t.Error("recover dropped the last valid data")
	}
	if _, shown := p.m.LastRejection(); shown {
		t.Error("the old rejection still shows for the new run")
	}
	p.events(2, fixtureEvents(t, "normal", "run-2")...)
	if p.m.Lifecycle != (Completed{RunID: "run-2"}) || p.m.Accepted != 4 {
		t.Errorf("the recovery run: %#v accepted %d", p.m.Lifecycle, p.m.Accepted)
	}
}

// Rule 6 and transport failures.
func TestTransportEndings(t *testing.T) {
	evs := fixtureEvents(t, "normal", "run-1")
	tests := []struct {
		name string
		msg  Msg
		kind FailureKind
		text string
	}{
		{"closed early", StreamClosed{Generation: 1}, Transport, "ended before RUN_FINISHED"},
		{"refused", StreamFailed{Generation: 1, Kind: Transport, Reason: "HTTP 500 Internal Server Error"}, Transport, "HTTP 500"},
		{"malformed frame", StreamFailed{Generation: 1, Kind: Protocol, Reason: "malformed event: x"}, Protocol, "malformed event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, evs[:2]...).send(tt.msg)
			f, ok := p.m.Lifecycle.(Failed)
			if !ok || f.Kind != tt.kind || !strings.Contains(f.Reason, tt.text) {
				t.Fatalf("%#v", p.m.Lifecycle)
			}
			if p.lastCmd() != (AbortStream{Generation: 1}) || p.latency("api") != 60 {
				t.Errorf("cmd %#v", p.lastCmd())
			}
		})
	}

	p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, evs...)
	frozen := p.m
	p.send(StreamClosed{Generation: 1}, StreamFailed{Generation: 1, Kind: Transport, Reason: "reset"})
	if !reflect.DeepEqual(p.m, frozen) {
		t.Error("a close after completion changed the model")
	}
}

// Messages of a replaced connection are complete no-ops.
func TestStaleConnectionsAreNoOps(t *testing.T) {
	evs := fixtureEvents(t, "normal", "run-1")
	p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, evs[:2]...)
	p.send(ClickedRun{Scenario: "normal"})
	frozen := p.m
	n := len(p.cmds)
	p.events(1, evs[2:]...).send(StreamClosed{Generation: 1}, StreamFailed{Generation: 1, Kind: Protocol, Reason: "x"})
	p.events(7, evs...) // a connection that never was
	if !reflect.DeepEqual(p.m, frozen) || slices.ContainsFunc(p.cmds[n:], func(c Cmd) bool { return c != nil }) {
		t.Error("a stale connection changed something")
	}
}

// Leaving cancels an open run; moving within the demo changes nothing.
func TestNavigation(t *testing.T) {
	p := start(t).send(ClickedRun{Scenario: "slow"}).events(1, fixtureEvents(t, "slow", "run-1")[:2]...)
	frozen := p.m
	p.send(Navigated{To: Stayed})
	if !reflect.DeepEqual(p.m, frozen) || p.lastCmd() != nil {
		t.Error("staying changed the run")
	}
	p.send(Navigated{To: Exited})
	if p.m.Lifecycle != (Cancelled{RunID: "run-1", Cause: RouteExit}) || p.lastCmd() != (AbortStream{Generation: 1}) {
		t.Errorf("%#v %#v", p.m.Lifecycle, p.lastCmd())
	}
	if next, cmd := Update(NewModel(thread), Navigated{To: Exited}); next.Lifecycle != (Idle{}) || cmd != nil {
		t.Error("leaving with no run did something")
	}
}

// Rule 8: valid events outside the subset are logged and ignored.
func TestUnsupportedEventsAreIgnored(t *testing.T) {
	p := start(t).send(ClickedRun{Scenario: "normal"}).events(1, fixtureEvents(t, "normal", "run-1")[:2]...)
	before := p.m
	p.events(1, sdk(events.NewTextMessageStartEvent("m1")), sdk(events.NewStepStartedEvent("plan")))
	if p.m.Lifecycle != before.Lifecycle || p.m.Wire != before.Wire || p.m.Accepted != before.Accepted {
		t.Error("an unsupported event changed the run")
	}
	last := p.m.Activity[len(p.m.Activity)-1]
	if !strings.Contains(last.Text, "ignored STEP_STARTED") {
		t.Errorf("activity %q", last.Text)
	}
}

// Update never writes into a Model it was given: histories are copied.
func TestUpdateDoesNotAliasHistories(t *testing.T) {
	p := start(t)
	for range MaxActivity + 3 {
		p.send(ClickedRun{Scenario: "normal"}, ClickedCancel{})
	}
	if len(p.m.Activity) != MaxActivity {
		t.Fatalf("activity holds %d", len(p.m.Activity))
	}
	base := p.m
	snapshot := slices.Clone(base.Activity)
	a, _ := Update(base, ClickedRun{Scenario: "slow"})
	b, _ := Update(base, ClickedRun{Scenario: "invalid"})
	if !slices.Equal(base.Activity, snapshot) {
		t.Error("Update wrote into the given Model's activity")
	}
	if a.Activity[len(a.Activity)-1].Text == b.Activity[len(b.Activity)-1].Text {
		t.Error("two successors share their history")
	}
}

func TestRejectionsAreBounded(t *testing.T) {
	p := start(t)
	for i := range MaxRejections + 2 {
		p.send(ClickedRun{Scenario: "invalid"})
		p.events(p.m.Generation, fixtureEvents(t, "invalid", "run-"+string(rune('1'+i)))[:4]...)
	}
	if len(p.m.Rejections) != MaxRejections || p.m.Rejections[MaxRejections-1].RunID != "run-5" {
		t.Errorf("rejections %+v", p.m.Rejections)
	}
}

// Every scenario and fault, played through Update as a stream delivers
// it, ends as its fixture's outcome says.
func TestEveryScriptEndsAsItsOutcomeSays(t *testing.T) {
	for _, script := range fixtures.Catalogue() {
		t.Run(script.Scenario, func(t *testing.T) {
			p := start(t).send(ClickedRun{Scenario: script.Scenario})
			p.events(1, fixtureEvents(t, script.Scenario, "run-1")...)
			p.send(StreamClosed{Generation: 1}) // the server's end of the stream
			checkOutcome(t, p.m, script.Outcome)
		})
	}
}

func checkOutcome(t *testing.T, m Model, want fixtures.Outcome) {
	t.Helper()
	reason := ""
	if f, failed := m.Lifecycle.(Failed); failed {
		reason = f.Reason
	}
	if m.Lifecycle.Word() != want.Status || m.Accepted != want.Accepted || !strings.Contains(reason, want.Reason) {
		t.Errorf("%s with %d accepted (%q), want %s with %d accepted (%q)",
			m.Lifecycle.Word(), m.Accepted, reason, want.Status, want.Accepted, want.Reason)
	}
}

// Recover works after every script that fails: one fresh normal run, with
// its own snapshot, that completes.
func TestRecoverAfterEveryFailingScript(t *testing.T) {
	for _, script := range fixtures.Catalogue() {
		if script.Outcome.Status != "Failed" {
			continue
		}
		t.Run(script.Scenario, func(t *testing.T) {
			p := start(t).send(ClickedRun{Scenario: script.Scenario})
			p.events(1, fixtureEvents(t, script.Scenario, "run-1")...).send(StreamClosed{Generation: 1})
			p.send(ClickedRecover{})
			run2 := Run{Generation: 2, ThreadID: thread, RunID: "run-2", Scenario: "normal"}
			if !reflect.DeepEqual(p.lastCmd(), Sequence{StartStream{run2}}) {
				t.Fatalf("Recover asked for %#v", p.lastCmd())
			}
			p.events(2, fixtureEvents(t, "normal", "run-2")...)
			if p.m.Lifecycle != (Completed{RunID: "run-2"}) || p.m.Accepted != 4 || p.latency("search") != 71 {
				t.Errorf("after recovering: %#v with %d accepted", p.m.Lifecycle, p.m.Accepted)
			}
		})
	}
}
