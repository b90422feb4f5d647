package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

// FuzzUpdate runs random programs of clicks, fixture events, stale and
// transport messages, and one fuzzed frame. Update must never panic, and
// the Model's invariants must always hold.
func FuzzUpdate(f *testing.F) {
	f.Add([]byte{0, 5, 6, 7, 8, 9}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/latency","value":1}]}`))
	f.Add([]byte{0, 5, 6, 4, 8, 3, 8, 6}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/services/0"}]}`))
	f.Add([]byte{12, 5, 6, 7, 19, 8, 2, 5, 6}, []byte(`{"type":"STATE_SNAPSHOT","snapshot":{"services":[{"id":"a","name":"A","series":"Core","volume":1,"latency":1}]}}`))
	f.Add([]byte{0, 5, 8}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"copy","from":"/services","path":"/services/-"}]}`))
	f.Add([]byte{0, 5, 6, 8}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"test","path":"/services","value":[null]}]}`))
	f.Add([]byte{0, 5, 6, 8}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/SERVICES","value":[]}]}`))
	f.Add([]byte{0, 8, 5, 6, 10, 11, 1}, []byte(`{"type":"RUN_ERROR","message":"x"}`))

	scenarios := fixtures.Scenarios()
	var scripts [][]string
	for _, s := range []string{"normal", "invalid", "slow"} {
		scripts = append(scripts, fixtureEvents(f, s, "run-0"))
	}
	ids := []string{"api", "checkout", "auth", "search", "zzz"}

	f.Fuzz(func(t *testing.T, program []byte, frame []byte) {
		m := NewModel(thread)
		runID := func() string { return fmt.Sprintf("run-%d", m.Generation) }
		deliver := func(g Generation, data string) Msg {
			ev, err := events.EventFromJSON([]byte(data))
			if err != nil {
				return StreamFailed{Generation: g, Kind: Protocol, Reason: err.Error()}
			}
			return ReceivedEvent{Generation: g, Event: ev, JSON: []byte(data)}
		}
		for step, b := range program {
			arg := int(b) / 13
			var msg Msg
			switch b % 13 {
			case 0:
				msg = ClickedRun{Scenario: scenarios[arg%len(scenarios)]}
			case 1:
				msg = ClickedCancel{}
			case 2:
				msg = ClickedRecover{}
			case 3:
				msg = ClickedFilter{Filter: Filters[arg%len(Filters)]}
			case 4:
				msg = ClickedService{ID: ids[arg%len(ids)]}
			case 5:
				msg = deliver(m.Generation, sdk(events.NewRunStartedEvent(thread, runID())))
			case 6, 7:
				script := scripts[arg%len(scripts)]
				msg = deliver(m.Generation, script[1+arg%(len(script)-2)]) // a state event
			case 8:
				msg = deliver(m.Generation, string(frame))
			case 9:
				msg = deliver(m.Generation, sdk(events.NewRunFinishedEvent(thread, runID())))
			case 10:
				msg = StreamClosed{Generation: m.Generation}
			case 11:
				msg = deliver(m.Generation-1, scripts[0][2])
			case 12:
				msg = Navigated{To: Destination(arg % 2)}
			}
			before := m
			var cmd Cmd
			m, cmd = Update(m, msg)
			if err := invariants(before, m, msg, cmd); err != nil {
				t.Fatalf("step %d (%T): %v", step, msg, err)
			}
		}
	})
}

func invariants(before, m Model, msg Msg, cmd Cmd) error {
	if m.Wire != nil {
		if err := m.Wire.Validate(); err != nil {
			return fmt.Errorf("invalid Wire held: %v", err)
		}
		for i, s := range m.Wire.All() {
			if j, ok := m.Wire.index()[s.ID]; !ok || j != i {
				return fmt.Errorf("the index puts %s at %d, not %d", s.ID, j, i)
			}
		}
	}
	if len(m.Activity) > MaxActivity || len(m.Rejections) > MaxRejections {
		return fmt.Errorf("unbounded history: %d, %d", len(m.Activity), len(m.Rejections))
	}
	if _, streaming := m.Lifecycle.(Streaming); streaming && (m.Baseline == nil || m.Wire == nil) {
		return fmt.Errorf("streaming without a baseline")
	}
	if m.Selected != "" && !m.Shows(m.Selected) {
		return fmt.Errorf("selected %q is not visible", m.Selected)
	}
	if _, failed := m.Lifecycle.(Failed); failed && m.Wire != before.Wire && m.Wire != nil {
		if _, wasActive := ActiveRun(before.Lifecycle); wasActive && m.Generation == before.Generation {
			return fmt.Errorf("a failing update changed the data")
		}
	}
	starts := 0
	var walk func(Cmd)
	walk = func(c Cmd) {
		switch c := c.(type) {
		case Sequence:
			for _, c := range c {
				walk(c)
			}
		case StartStream:
			starts++
		}
	}
	walk(cmd)
	switch msg.(type) {
	case ClickedRun, ClickedRecover:
		if starts > 1 {
			return fmt.Errorf("%d streams started", starts)
		}
	default:
		if starts != 0 {
			return fmt.Errorf("%T started a stream", msg)
		}
	}
	return nil
}

// Patches whose operations each stay inside one service can be applied
// per service or to the whole state: both must give the same Wire or the
// same rejection. generatedPatch writes such patches from a byte program.
func generatedPatch(w Wire, program []byte) string {
	// Weighted towards operations that apply, so that results are compared
	// as often as rejections.
	members := []string{"latency", "volume", "latency", "volume", "id", "name", "series", "volume", "latency",
		"owner", "ID", "Latency", "", "x~1y", "a~2", "tags/0", "__proto__", "latency/0"}
	values := []string{"145", "0", "-0", "1.0", "60", "92", "35", "1200", "640", "900", "2e2",
		"-1", "1e400", "null", `"x"`, `"api"`, `"checkout"`, `"Core"`, `"Platform"`, `" "`,
		`{"a":1}`, `[1,null]`, "true", `"` + strings.Repeat("n", 70) + `"`, `{"id":"api","name":"A","series":"Core","volume":1,"latency":1}`}
	kinds := []string{"replace", "replace", "replace", "test", "test", "add", "remove", "move", "copy"}
	next := func() int {
		if len(program) == 0 {
			return 0
		}
		b := program[0]
		program = program[1:]
		return int(b)
	}
	var ops []string
	for len(program) > 0 && len(ops) < 8 {
		kind := kinds[next()%len(kinds)]
		n := next() % w.Len()
		path := fmt.Sprintf("/services/%d/%s", n, members[next()%len(members)])
		op := fmt.Sprintf(`{"op":%q,"path":%q`, kind, path)
		switch kind {
		case "move", "copy":
			op += fmt.Sprintf(`,"from":"/services/%d/%s"`, n, members[next()%len(members)])
		case "add", "replace", "test":
			op += `,"value":` + values[next()%len(values)]
		}
		ops = append(ops, op+"}")
	}
	return "[" + strings.Join(ops, ",") + "]"
}

func checkPathsAgree(t *testing.T, w Wire, patch string) {
	t.Helper()
	ops, err := DecodeDelta([]byte(deltaOf(patch)))
	if err != nil {
		return // not a patch anyone could apply
	}
	if !perService(w, ops) {
		t.Fatalf("generated a patch outside the services: %s", patch)
	}
	fast, fastR := applyTo(newServiceStates(w), w, ops, "r")
	whole, wholeR := applyTo(newWholeState(w), w, ops, "r")
	switch {
	case (fastR == nil) != (wholeR == nil):
		t.Fatalf("%s\nper service: %v\nwhole state: %v", patch, fastR, wholeR)
	case fastR != nil && *fastR != *wholeR:
		t.Fatalf("%s\nper service: %+v\nwhole state: %+v", patch, *fastR, *wholeR)
	case fastR == nil && !slices.Equal(fast.Services(), whole.Services()):
		t.Fatalf("%s\nper service: %+v\nwhole state: %+v", patch, fast.Services(), whole.Services())
	case fastR == nil:
		for i, s := range fast.All() {
			if j := fast.index()[s.ID]; j != i {
				t.Fatalf("%s: the index puts %s at %d, not %d", patch, s.ID, j, i)
			}
		}
	}
}

func FuzzPatchPaths(f *testing.F) {
	f.Add([]byte{2, 0, 4, 0})
	f.Add([]byte{5, 1, 4, 1, 2, 1, 4, 7})
	f.Add([]byte{2, 2, 0, 8, 2, 0, 0, 9})
	f.Fuzz(func(t *testing.T, program []byte) {
		checkPathsAgree(t, initialWire(), generatedPatch(initialWire(), program))
	})
}

// TestPatchPathsAgree runs thousands of generated patches through both
// documents in every test run; FuzzPatchPaths searches further.
func TestPatchPathsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	for range 5000 {
		program := make([]byte, 1+r.IntN(24))
		for i := range program {
			program[i] = byte(r.IntN(256))
		}
		patch := generatedPatch(initialWire(), program)
		checkPathsAgree(t, initialWire(), patch)
		if ops, err := DecodeDelta([]byte(deltaOf(patch))); err == nil {
			if _, r := ApplyPatch(initialWire(), ops, "r"); r == nil {
				accepted++
			}
		}
	}
	if accepted < 100 {
		t.Errorf("only %d of 5,000 generated patches applied: the comparison is mostly of rejections", accepted)
	}
	t.Logf("%d of 5,000 generated patches applied", accepted)
}
