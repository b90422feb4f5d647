package agui

import (
	"errors"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// State: docs.ag-ui.com/spec/1.0/events/state and basic/patterns/snapshots.

// events/state: "A consumer MUST replace its state with snapshot — no
// merging"; state is "any JSON value, not only an object".
func TestSnapshotsReplace(t *testing.T) {
	for _, snapshot := range []string{`{"b":2}`, `["only-this"]`, `0`, `null`, `"text"`, `false`} {
		c, steps := replay(t, run(`{"type":"STATE_SNAPSHOT","snapshot":{"a":1}}`, `{"type":"STATE_SNAPSHOT","snapshot":`+snapshot+`}`)...)
		accepted(t, c, steps)
		if state(c) != snapshot {
			t.Errorf("state %s, want %s", state(c), snapshot)
		}
		if steps[2].Change.Kind != Applied || len(warned(steps)) != 0 {
			t.Errorf("update %+v, warnings %v", steps[2].Change, warned(steps))
		}
	}
}

// events/state: "The baseline is the consumer's current state: at the
// start of a run, the input's state"; run-input: "An absent state means
// the empty object". State persists across runs on a stream.
func TestDeltaBaselineIsTheInputState(t *testing.T) {
	in := input(t, `{"threadId":"t","runId":"r","messages":[],"state":{"count":1}}`)
	c, steps := replayWith(t, in, Options{}, run(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/count","value":2}]}`)...)
	accepted(t, c, steps)
	if state(c) != `{"count":2}` {
		t.Errorf("state %s", state(c))
	}
	c, steps = replay(t, run(`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}`)...)
	accepted(t, c, steps)
	if state(c) != `{"a":1}` {
		t.Errorf("from no input state: %s", state(c))
	}
	second := []string{`{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/b","value":2}]}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`}
	c, steps = replay(t, cat(run(`{"type":"STATE_SNAPSHOT","snapshot":{"a":1}}`), second)...)
	accepted(t, c, steps)
	if state(c) != `{"a":1,"b":2}` {
		t.Errorf("across runs: %s", state(c))
	}
}

// basic/patterns/snapshots, "When a patch does not apply": the consumer
// "MUST NOT keep a partially applied result", "MUST surface the failure —
// a warning", and "MAY continue with its prior value rather than failing
// the run". Options.Refusals chooses; an unrecognised op is dropped first.
func TestAPatchThatCannotApply(t *testing.T) {
	events := run(`{"type":"STATE_SNAPSHOT","snapshot":{"plan":{"status":"open"}}}`,
		`{"type":"STATE_DELTA","delta":[{"op":"increment","path":"/n"},{"op":"replace","path":"/plan/status","value":"closed"},{"op":"replace","path":"/absent/deeper","value":1}]}`)
	c, steps := replay(t, events...)
	accepted(t, c, steps)
	if state(c) != `{"plan":{"status":"open"}}` {
		t.Errorf("partially applied: %s", state(c))
	}
	u := steps[2].Change
	var pe *jsonpatch.Error
	if u.Kind != Refused || !errors.As(u.Refusal, &pe) || pe.Index != 2 || pe.Path != "/absent/deeper" {
		t.Errorf("update %+v", u)
	}
	ws := warned(steps)
	if len(ws) != 2 || ws[0].Rule != UnknownOp || !strings.Contains(ws[0].Text, "/delta/0") ||
		ws[1].Rule != PatchFailed || !strings.Contains(ws[1].Text, "Failed to apply state patch: operation 3 (replace /absent/deeper): the path does not exist") {
		t.Errorf("warnings %v", ws)
	}
	// A consumer that fails the run instead: the state stays as it was too.
	c, steps = replayWith(t, Input{}, Options{Refusals: Fail}, events...)
	rejected(t, steps, StateRefused, 2, "operation 3 (replace /absent/deeper)")
	if state(c) != `{"plan":{"status":"open"}}` {
		t.Errorf("state %s", state(c))
	}
	// "A consumer MUST adopt the next snapshot regardless of what it
	// skipped before it."
	c, steps = replay(t, append(events[:3], `{"type":"STATE_SNAPSHOT","snapshot":{"plan":{"status":"closed"}}}`, finished)...)
	accepted(t, c, steps)
	if state(c) != `{"plan":{"status":"closed"}}` {
		t.Errorf("state %s", state(c))
	}
}

// A typed state: the engine takes the application's State and reports its
// refusals as it reports a patch's.
type onlyObjects struct{ JSONState }

func (s onlyObjects) Replace(value []byte) (State, error) {
	if value[0] != '{' {
		return s, errors.New("this application holds objects only")
	}
	next, err := s.JSONState.Replace(value)
	return onlyObjects{next.(JSONState)}, err
}

func TestATypedStateRefuses(t *testing.T) {
	c, steps := replayWith(t, Input{}, Options{State: onlyObjects{NewJSONState()}}, run(`{"type":"STATE_SNAPSHOT","snapshot":[1]}`)...)
	accepted(t, c, steps)
	if ws := warned(steps); len(ws) != 1 || !strings.Contains(ws[0].Text, "Failed to apply state snapshot: this application holds objects only") {
		t.Errorf("warnings %v", ws)
	}
	if _, err := NewConsumer(input(t, `{"threadId":"t","runId":"r","messages":[],"state":[1]}`), Options{State: onlyObjects{NewJSONState()}}); err == nil {
		t.Error("an input state the State refuses was taken")
	}
}
