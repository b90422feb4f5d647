package app

import (
	"fmt"
	"testing"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
)

// FuzzUpdate runs random programs of clicks, fixture events, stale and
// transport messages, and one fuzzed frame decoded as the client would.
// Update must never panic, and the Model's invariants must always hold.
func FuzzUpdate(f *testing.F) {
	f.Add([]byte{0, 5, 6, 7, 8, 9}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/latency","value":1}]}`))
	f.Add([]byte{0, 5, 6, 4, 8, 3, 8, 6}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/services/0"}]}`))
	f.Add([]byte{12, 5, 6, 7, 19, 8, 2, 5, 6}, []byte(`{"type":"STATE_SNAPSHOT","snapshot":{"services":[{"id":"a","name":"A","series":"Core","volume":1,"latency":1}]}}`))
	f.Add([]byte{0, 5, 8}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"copy","from":"/services","path":"/services/-"}]}`))
	f.Add([]byte{0, 5, 6, 8}, []byte(`{"type":"STATE_DELTA","delta":[{"op":"test","path":"/services","value":[null]}]}`))
	f.Add([]byte{0, 8, 5, 6, 10, 11, 1}, []byte(`{"type":"RUN_ERROR","message":"x"}`))

	var scripts [][]events.Event
	for _, s := range Scenarios {
		scripts = append(scripts, fixtureEvents(f, s, "run-0"))
	}
	ids := []string{"api", "checkout", "auth", "search", "zzz"}

	f.Fuzz(func(t *testing.T, program []byte, frame []byte) {
		m := NewModel(thread)
		current := func() Conn { return Conn(m.Generation) }
		runID := func() string { return fmt.Sprintf("run-%d", m.Generation) }
		for step, b := range program {
			arg := int(b) / 13
			var msg Msg
			switch b % 13 {
			case 0:
				msg = ClickedRun{Scenario: Scenarios[arg%len(Scenarios)]}
			case 1:
				msg = ClickedCancel{}
			case 2:
				msg = ClickedRecover{}
			case 3:
				msg = ClickedFilter{Filter: Filters[arg%len(Filters)]}
			case 4:
				msg = ClickedService{ID: ids[arg%len(ids)]}
			case 5:
				msg = ReceivedEvent{Conn: current(), Event: events.NewRunStartedEvent(thread, runID())}
			case 6, 7:
				script := scripts[arg%len(scripts)]
				ev := script[1+arg%(len(script)-2)] // a state event
				msg = ReceivedEvent{Conn: current(), Event: ev}
			case 8:
				if ev, err := DecodeEvent(frame); err == nil {
					msg = ReceivedEvent{Conn: current(), Event: ev}
				} else {
					msg = StreamFailed{Conn: current(), Err: err}
				}
			case 9:
				msg = ReceivedEvent{Conn: current(), Event: events.NewRunFinishedEvent(thread, runID())}
			case 10:
				msg = StreamClosed{Conn: current()}
			case 11:
				msg = ReceivedEvent{Conn: current() - 1, Event: scripts[0][2]}
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
		case Batch:
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
