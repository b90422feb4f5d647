package agui

import (
	"strings"
	"testing"
)

// The run lifecycle: docs.ag-ui.com/spec/1.0/events/lifecycle and
// basic/run-input ("Identity"), basic/transports ("Truncation").

// events/lifecycle: "A stream MUST begin with RUN_STARTED or RUN_ERROR".
func TestFirstEvent(t *testing.T) {
	_, steps := replay(t, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`)
	rejected(t, steps, FirstEvent, 0, "must begin with RUN_STARTED or RUN_ERROR")

	_, steps = replay(t, `{"type":"STATE_SNAPSHOT","snapshot":{}}`, started)
	rejected(t, steps, FirstEvent, 0, "STATE_SNAPSHOT")
	// Outside a run, a chunk that could open nothing breaks the run's rule.
	_, steps = replay(t, `{"type":"TEXT_MESSAGE_CHUNK","delta":"early"}`)
	rejected(t, steps, FirstEvent, 0, "TEXT_MESSAGE_CHUNK")

	// "RUN_ERROR is admitted first because a run can fail before it begins".
	c, steps := replay(t, `{"type":"RUN_ERROR","message":"unreachable","code":"UNAVAILABLE"}`)
	accepted(t, c, steps)
	if runs := c.Runs(); len(runs) != 1 || runs[0].Phase != Errored || runs[0].Error.Code != "UNAVAILABLE" {
		t.Errorf("runs %+v", runs)
	}
}

// events/lifecycle: "a RUN_STARTED while a run is still active is a violation".
func TestNestedRun(t *testing.T) {
	_, steps := replay(t, started, `{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`)
	rejected(t, steps, NestedRun, 1, `run "r2" while run "r" is still active`)
}

// events/lifecycle: "A consumer MUST reject any other event that arrives
// after a run has closed"; RUN_STARTED and a late RUN_ERROR may follow.
func TestAfterFinish(t *testing.T) {
	for _, late := range []string{
		`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
		`{"type":"STATE_DELTA","delta":[]}`,
		finished,
		`{"type":"CUSTOM","name":"x","value":1}`,
		`{"type":"TEXT_MESSAGE_CHUNK","delta":"late"}`, // no stream to continue, and no run
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","delta":"{}"}`,
	} {
		_, steps := replay(t, started, finished, late)
		rejected(t, steps, AfterFinish, 2, "only RUN_STARTED or RUN_ERROR may follow RUN_FINISHED")
	}
	// "A consumer MUST treat the run as failed in that case."
	c, steps := replay(t, started, finished, `{"type":"RUN_ERROR","message":"flush failed"}`)
	accepted(t, c, steps)
	if r := c.Runs()[0]; r.Phase != Errored || !r.Error.Late || r.Error.Message != "flush failed" {
		t.Errorf("a late RUN_ERROR left the run %+v", r)
	}
	c, steps = replay(t, started, finished, `{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`)
	accepted(t, c, steps)
	if len(c.Runs()) != 2 {
		t.Errorf("runs %+v", c.Runs())
	}
}

// events/lifecycle: "A producer MUST NOT emit anything after RUN_ERROR
// except RUN_STARTED".
func TestAfterError(t *testing.T) {
	for _, late := range []string{finished, `{"type":"RUN_ERROR","message":"again"}`, `{"type":"STEP_STARTED","stepName":"s"}`,
		`{"type":"REASONING_MESSAGE_CHUNK","delta":"late"}`} {
		_, steps := replay(t, started, `{"type":"RUN_ERROR","message":"boom"}`, late)
		rejected(t, steps, AfterError, 2, `run "r" failed`)
	}
	c, steps := replay(t, started, `{"type":"RUN_ERROR","message":"boom"}`, `{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r2","outcome":{"type":"success"}}`)
	accepted(t, c, steps)
}

// events/lifecycle: "RUN_FINISHED requires everything the run opened to
// be closed already".
func TestOpenAtFinish(t *testing.T) {
	for what, open := range map[string]string{
		`text message "m"`:         `{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
		`tool call "c"`:            `{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`,
		`reasoning message "m"`:    `{"type":"REASONING_MESSAGE_START","messageId":"m","role":"reasoning"}`,
		`reasoning span "s"`:       `{"type":"REASONING_START","messageId":"s"}`,
		`step "plan"`:              `{"type":"STEP_STARTED","stepName":"plan"}`,
		`subagent invocation "s1"`: `{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"n"}`,
	} {
		_, steps := replay(t, started, open, finished)
		rejected(t, steps, OpenAtFinish, 2, what)
	}
	// RUN_ERROR ends whatever was still open, and the next run starts with
	// nothing open.
	c, steps := replay(t, started, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"RUN_ERROR","message":"x"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`)
	accepted(t, c, steps)
}

// basic/run-input: "Every run on the stream carries the input's threadId".
func TestThreadOfRun(t *testing.T) {
	in := input(t, `{"threadId":"t","runId":"r","messages":[]}`)
	_, steps := replayWith(t, in, Options{}, `{"type":"RUN_STARTED","threadId":"other","runId":"r"}`)
	rejected(t, steps, ThreadOfRun, 0, `names thread "other"; this stream is thread "t"`)

	// Without an input, the first run's thread is the stream's.
	_, steps = replay(t, started, finished, `{"type":"RUN_STARTED","threadId":"u","runId":"r2"}`)
	rejected(t, steps, ThreadOfRun, 2, `thread "u"`)
	_, steps = replay(t, started, `{"type":"RUN_FINISHED","threadId":"u","runId":"r"}`)
	rejected(t, steps, ThreadOfRun, 1, `RUN_FINISHED names thread "u"`)
}

// basic/run-input: "each run's two boundary events MUST agree on their
// runId".
func TestRunIDsAgree(t *testing.T) {
	_, steps := replay(t, started, `{"type":"RUN_FINISHED","threadId":"t","runId":"internal-7"}`)
	rejected(t, steps, RunIDsAgree, 1, `names run "internal-7"; the active run is "r"`)
}

// basic: "runId ... MUST NOT be reused for another run on the same thread".
func TestRunIDReused(t *testing.T) {
	_, steps := replay(t, started, finished, started)
	rejected(t, steps, RunIDReused, 2, `run "r", a run id this stream already used`)
}

// basic/run-input: "The requested run echoes this input's runId; a
// replayed run carries its own", and "The run it requests is the
// exchange's last".
func TestRequestedRun(t *testing.T) {
	in := input(t, `{"threadId":"t","runId":"r","messages":[]}`)
	replayed := []string{`{"type":"RUN_STARTED","threadId":"t","runId":"old"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"old"}`}
	c, steps := replayWith(t, in, Options{}, cat(replayed, run())...)
	accepted(t, c, steps)
	if runs := c.Runs(); runs[0].Requested || !runs[1].Requested {
		t.Errorf("runs %+v", runs)
	}
	_, steps = replayWith(t, in, Options{}, cat(run(), replayed)...)
	rejected(t, steps, RequestedLast, 2, `after the requested run "r"`)

	// A stream that ends before the requested run is truncated.
	c, steps = replayWith(t, in, Options{}, replayed...)
	for _, s := range steps {
		if s.Violation != nil {
			t.Fatal(s.Violation)
		}
	}
	if why := c.End(); !strings.Contains(why, `without the requested run "r"`) {
		t.Errorf("End() = %q", why)
	}
}

// basic/transports: a truncated run "MUST NOT [be reported] as having
// succeeded".
func TestTruncatedRunIsNeverSuccess(t *testing.T) {
	c, _ := replay(t, started, `{"type":"STATE_SNAPSHOT","snapshot":{}}`)
	if why := c.End(); !strings.Contains(why, `while run "r" was active`) {
		t.Errorf("End() = %q", why)
	}
	c, _ = replay(t)
	if why := c.End(); why == "" {
		t.Error("an empty stream ended well")
	}
}

// events/lifecycle: RUN_FINISHED "reports how it ended": an absent outcome
// means success; interrupt and cancelled are read, an unrecognised one is
// stripped (and is success).
func TestOutcome(t *testing.T) {
	tests := []struct {
		outcome string
		want    OutcomeKind
	}{
		{``, OutcomeSuccess},
		{`,"outcome":{"type":"success","pendingToolCallIds":["c1"]}`, OutcomeSuccess},
		{`,"outcome":{"type":"cancelled"}`, OutcomeCancelled},
		{`,"outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"approval","message":"Approve?"}]}`, OutcomeInterrupt},
		{`,"outcome":{"type":"paused"}`, OutcomeSuccess},
	}
	for _, tt := range tests {
		c, steps := replay(t, started, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"`+tt.outcome+`}`)
		accepted(t, c, steps)
		r := c.Runs()[0]
		if r.Phase != Finished || r.Outcome.Kind != tt.want {
			t.Errorf("%s: %+v", tt.outcome, r)
		}
		if tt.want == OutcomeInterrupt && (len(r.Outcome.Interrupts) != 1 || r.Outcome.Interrupts[0].Message != "Approve?") {
			t.Errorf("interrupts %+v", r.Outcome.Interrupts)
		}
		if strings.Contains(tt.outcome, "pending") && (len(r.Outcome.PendingToolCallIDs) != 1 || r.Outcome.PendingToolCallIDs[0] != "c1") {
			t.Errorf("pending %+v", r.Outcome.PendingToolCallIDs)
		}
	}
}

// basic/versioning: "A consumer meeting a newer producer declaration
// proceeds ... and SHOULD warn"; "A declaration a party cannot interpret
// is handled like a newer one".
func TestProducerVersion(t *testing.T) {
	for version, warning := range map[string]string{
		"1.0": "", "1.1": "", "1.2": "newer than this consumer's 1.1", "2.0": "newer", "1.10": "newer",
		"draft": "cannot interpret", "1": "cannot interpret", "01.0": "cannot interpret",
	} {
		c, steps := replay(t, `{"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"`+version+`"}`, finished)
		accepted(t, c, steps)
		ws := warned(steps)
		switch {
		case warning == "" && len(ws) > 0:
			t.Errorf("%s: warned %v", version, ws)
		case warning != "" && (len(ws) != 1 || !strings.Contains(ws[0].Text, warning)):
			t.Errorf("%s: warned %v, want %q", version, ws, warning)
		}
		if c.Runs()[0].ProtocolVersion != version {
			t.Errorf("%s: run declares %q", version, c.Runs()[0].ProtocolVersion)
		}
	}
}

// Once a stream broke a rule, nothing more of it is accepted.
func TestARejectedStreamStaysRejected(t *testing.T) {
	c, steps := replay(t, started, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`, `{"type":"STATE_SNAPSHOT","snapshot":1}`, finished)
	for _, s := range steps[1:] {
		if s.Violation == nil || s.Violation.Index != 1 || len(s.Events) > 0 {
			t.Errorf("step %d: %+v", s.Index, s)
		}
	}
	if state(c) != "{}" || c.End() != "" || c.Rejected() == nil {
		t.Errorf("state %s, rejected %v", state(c), c.Rejected())
	}
}

// A truncation names the event of an unknown type that may be the
// terminal event it lacks, misspelt; the warning says what it may be.
func TestATruncationNamesAMisspeltTerminalEvent(t *testing.T) {
	for _, tt := range []struct {
		finish, says string
	}{
		{`{"type":"RUN_FINSHED","threadId":"t","runId":"r"}`, `; event 2 was RUN_FINSHED: AG-UI does not describe it (a misspelt RUN_FINISHED?)`},
		{`{"type":"run_finished","threadId":"t","runId":"r"}`, `; event 2 was run_finished: AG-UI does not describe it (a misspelt RUN_FINISHED?)`},
		{`{"type":"RUN_DONE","threadId":"t","runId":"r"}`, `; event 2 was RUN_DONE: AG-UI does not describe it`},
		{`{"type":"X","threadId":"t","runId":"r"}`, `; event 2 was X: AG-UI does not describe it`},
	} {
		c, _ := replay(t, `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, tt.finish)
		if why := c.End(); !strings.HasSuffix(why, tt.says) || !strings.HasPrefix(why, `the stream ended while run "r" was active`) {
			t.Errorf("%s: %q", tt.finish, why)
		}
	}
	c, _ := replay(t, `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`, `{"type":"X"}`)
	if why := c.End(); why != "" {
		t.Errorf("an ended stream: %q", why)
	}
}

// A judgement's run is the run as it stood after that event: a later event
// that changes the run does not change what an earlier judgement showed.
// Judgements of events that leave the run as it is share one copy.
func TestJudgementShowsTheRunAsItStood(t *testing.T) {
	_, steps := replay(t, run(`{"type":"CUSTOM","name":"x","value":1}`, `{"type":"CUSTOM","name":"y","value":2}`)...)
	_, steps2 := replay(t, started, `{"type":"RUN_ERROR","message":"boom"}`, `{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`)
	for i, want := range []Phase{Active, Active, Active, Finished} {
		if steps[i].Run == nil || steps[i].Run.Phase != want {
			t.Errorf("event %d: run %+v, want phase %d", i, steps[i].Run, want)
		}
	}
	if steps[1].Run != steps[2].Run || steps[0].Run == steps[3].Run {
		t.Errorf("the run's copies: %p %p %p %p; want events 1 and 2 to share one, and RUN_FINISHED a new one", steps[0].Run, steps[1].Run, steps[2].Run, steps[3].Run)
	}
	if steps2[0].Run.Phase != Active || steps2[1].Run.Phase != Errored || steps2[1].Run.RunID != "r" || steps2[2].Run.RunID != "r2" {
		t.Errorf("a failed run, then another: %+v %+v %+v", steps2[0].Run, steps2[1].Run, steps2[2].Run)
	}
}
