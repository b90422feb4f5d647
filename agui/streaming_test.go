package agui

import (
	"strings"
	"testing"
)

// The streaming pattern and the families that follow it:
// docs.ag-ui.com/spec/1.0/basic/patterns/streaming, events/text-messages,
// events/tool-calls, events/reasoning, events/subagents, and steps in
// events/lifecycle.

// basic/patterns/streaming: "A producer MUST NOT open an item whose
// identifier is already open ... MUST NOT send a content or end event for
// an identifier that is not open."
func TestStreamingDiscipline(t *testing.T) {
	tests := []struct {
		events []string
		says   string
	}{
		{[]string{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}`}, `TEXT_MESSAGE_CONTENT names text message "m", which is not open`},
		{[]string{`{"type":"TEXT_MESSAGE_END","messageId":"m"}`}, `text message "m", which is not open`},
		{[]string{`{"type":"TEXT_MESSAGE_START","messageId":"m"}`, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`}, `opens text message "m", which is already open`},
		{[]string{`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{}"}`}, `tool call "c", which is not open`},
		{[]string{`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}`, `{"type":"TOOL_CALL_END","toolCallId":"c"}`, `{"type":"TOOL_CALL_END","toolCallId":"c"}`}, `tool call "c", which is not open`},
	}
	for _, tt := range tests {
		_, steps := replay(t, append([]string{started}, tt.events...)...)
		rejected(t, steps, Streaming, len(tt.events), tt.says)
	}
	// events/text-messages: "A closed message is closed, not sealed": a
	// new start continues it, and further content appends.
	c, steps := replay(t, run(cat(text("m", "First."), text("m", " Second."))...)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"m","role":"assistant","content":"First. Second."}]` {
		t.Errorf("messages %s", got)
	}
}

// events/reasoning: "A consumer MUST detect a violation of that discipline
// and fail the run, on spans and on reasoning messages alike"; spans and
// messages are separate namespaces.
func TestReasoningDiscipline(t *testing.T) {
	for events, says := range map[string]string{
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"orphan"}`:                                       `reasoning message "m", which is not open`,
		`{"type":"REASONING_END","messageId":"s"}`:                                                                    `reasoning span "s", which is not open`,
		`{"type":"REASONING_START","messageId":"s"}|{"type":"REASONING_START","messageId":"s"}`:                       `reasoning span "s", which is already open`,
		`{"type":"REASONING_START","messageId":"s"}|{"type":"REASONING_MESSAGE_CONTENT","messageId":"s","delta":"x"}`: `reasoning message "s", which is not open`,
	} {
		list := strings.Split(events, "|")
		_, steps := replay(t, append([]string{started}, list...)...)
		rejected(t, steps, Reasoning, len(list), says)
	}
	c, steps := replay(t, run(
		`{"type":"REASONING_START","messageId":"s"}`,
		`{"type":"REASONING_MESSAGE_START","messageId":"s","role":"reasoning"}`, // may share the span's id
		`{"type":"REASONING_MESSAGE_CONTENT","messageId":"s","delta":"weighing"}`,
		`{"type":"REASONING_MESSAGE_END","messageId":"s"}`,
		`{"type":"REASONING_END","messageId":"s"}`,
	)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"s","role":"reasoning","content":"weighing"}]` {
		t.Errorf("messages %s", got)
	}
}

// events/lifecycle, Steps: "MUST NOT open a step whose name is already
// open, and MUST NOT finish a step that was never opened"; "Steps are
// per-owner" (events/subagents).
func TestStepDiscipline(t *testing.T) {
	_, steps := replay(t, started, `{"type":"STEP_FINISHED","stepName":"never"}`)
	rejected(t, steps, Steps, 1, `step "never" that was not started`)
	_, steps = replay(t, started, `{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"STEP_STARTED","stepName":"s"}`)
	rejected(t, steps, Steps, 2, `already open`)
	_, steps = replay(t, started, `{"type":"STEP_STARTED","stepName":"s","subagentRunId":"a"}`, `{"type":"STEP_FINISHED","stepName":"s"}`)
	rejected(t, steps, Steps, 2, `that was not started`)
	c, steps := replay(t, run(
		`{"type":"STEP_STARTED","stepName":"s"}`, `{"type":"STEP_STARTED","stepName":"s","subagentRunId":"a"}`,
		`{"type":"STEP_FINISHED","stepName":"s","subagentRunId":"a"}`, `{"type":"STEP_FINISHED","stepName":"s"}`,
	)...)
	accepted(t, c, steps)
}

// events/subagents: "A consumer MUST reject a continuation whose tag
// disagrees with its opener ... A continuation carrying no tag is not a
// disagreement and MUST be accepted."
func TestAttribution(t *testing.T) {
	_, steps := replay(t, started,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","subagentRunId":"s1"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c","subagentRunId":"s2"}`)
	rejected(t, steps, Attribution, 3, `attributed to subagent "s2", which does not match its opener's subagent "s1"`)
	_, steps = replay(t, started,
		`{"type":"TEXT_MESSAGE_START","messageId":"m"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","subagentRunId":"s1"}`)
	rejected(t, steps, Attribution, 2, `which does not match its opener's parent agent`)
	// A tool call belongs to the message that carries it.
	_, steps = replay(t, started,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m","subagentRunId":"s2"}`)
	rejected(t, steps, Attribution, 3, `its message "m"`)
	// "The same holds ... for activity messages against the snapshot that
	// opened them"; events/activity lets a replace:false snapshot that
	// disagrees stand aside, the established owner standing.
	snapshot := `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"k","content":{"n":0},"subagentRunId":"s1"}`
	delta := func(tag string) string {
		return `{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"k","patch":[{"op":"replace","path":"/n","value":1}]` + tag + `}`
	}
	_, steps = replay(t, started, snapshot, delta(`,"subagentRunId":"s2"`))
	rejected(t, steps, Attribution, 2, `ACTIVITY_DELTA of activity message "a" is attributed to subagent "s2", which does not match its opener's subagent "s1"`)
	_, steps = replay(t, started, `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"k","content":{}}`, delta(`,"subagentRunId":"s2"`))
	rejected(t, steps, Attribution, 2, `which does not match its opener's parent agent`)
	c, steps := replay(t, run(snapshot, delta(""), delta(`,"subagentRunId":"s1"`),
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"k","content":{},"replace":false,"subagentRunId":"s2"}`)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"a","role":"activity","activityType":"k","content":{"n":1},"subagentRunId":"s1"}]` {
		t.Errorf("messages %s", got)
	}

	c, steps = replay(t, run(
		`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"delegated ","subagentRunId":"s1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"answer"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
	)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"m","role":"assistant","content":"delegated answer","subagentRunId":"s1"}]` {
		t.Errorf("messages %s", got)
	}
}

// events/text-messages: "Within a run, a reopening under a different
// owner is the attribution mismatch the subagent rules already reject";
// the same holds for reasoning messages and tool calls (events/subagents).
// An untagged reopening continues the message as its owner's.
func TestAReopeningKeepsItsOwner(t *testing.T) {
	for _, kind := range []struct{ start, content, end, says string }{
		{`{"type":"TEXT_MESSAGE_START","messageId":"m"`, `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"`, `{"type":"TEXT_MESSAGE_END","messageId":"m"`, `text message "m"`},
		{`{"type":"REASONING_MESSAGE_START","messageId":"m","role":"reasoning"`, `{"type":"REASONING_MESSAGE_CONTENT","messageId":"m","delta":"x"`, `{"type":"REASONING_MESSAGE_END","messageId":"m"`, `reasoning message "m"`},
		{`{"type":"TOOL_CALL_START","toolCallId":"m","toolCallName":"f"`, `{"type":"TOOL_CALL_ARGS","toolCallId":"m","delta":"x"`, `{"type":"TOOL_CALL_END","toolCallId":"m"`, `tool call "m"`},
	} {
		tag := func(owner string) string { return `,"subagentRunId":"` + owner + `"}` }
		_, steps := replay(t, started, kind.start+tag("s1"), kind.end+"}", kind.start+tag("s2"))
		rejected(t, steps, Attribution, 3, kind.says+` is attributed to subagent "s2", which does not match its opener's subagent "s1"`)
		_, steps = replay(t, started, kind.start+"}", kind.end+"}", kind.start+tag("s2"))
		rejected(t, steps, Attribution, 3, `which does not match its opener's parent agent`)
		c, steps := replay(t, run(kind.start+tag("s1"), kind.end+"}", kind.start+"}", kind.content+tag("s1"), kind.end+tag("s1"),
			kind.start+tag("s1"), kind.end+"}")...)
		accepted(t, c, steps)
		// Across runs the tracking resets: detection is not required.
		c, steps = replay(t, cat(run(kind.start+tag("s1"), kind.end+"}"),
			[]string{`{"type":"RUN_STARTED","threadId":"t","runId":"r2"}`, kind.start + tag("s2"), kind.end + "}", `{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}`})...)
		accepted(t, c, steps)
	}
	// A MESSAGES_SNAPSHOT establishes each message's owner afresh (events/state).
	c, steps := replay(t, run(`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m","role":"assistant","content":"x","subagentRunId":"s2"}]}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s2"}`, `{"type":"TEXT_MESSAGE_END","messageId":"m"}`)...)
	accepted(t, c, steps)
}

// events/subagents, Lifecycle: announced invocations are unique, closed
// once, and closed before the run finishes; parents are announced first.
func TestSubagentLifecycle(t *testing.T) {
	start := func(id, extra string) string {
		return `{"type":"SUBAGENT_STARTED","subagentRunId":"` + id + `","name":"n"` + extra + `}`
	}
	finish := func(id string) string { return `{"type":"SUBAGENT_FINISHED","subagentRunId":"` + id + `"}` }
	tests := []struct {
		events []string
		says   string
	}{
		{[]string{finish("s1")}, `invocation "s1", which is not active`},
		{[]string{`{"type":"SUBAGENT_ERROR","subagentRunId":"s1","message":"m"}`}, `invocation "s1", which is not active`},
		{[]string{start("s1", ""), start("s1", "")}, `opens subagent invocation "s1", which is already open`},
		{[]string{start("s1", ""), finish("s1"), start("s1", "")}, `reuses invocation "s1"`},
		{[]string{start("s2", `,"parentSubagentRunId":"s1"`)}, `parent invocation "s1", which was not announced`},
	}
	for _, tt := range tests {
		_, steps := replay(t, append([]string{started}, tt.events...)...)
		rejected(t, steps, SubagentLifecycle, len(tt.events), tt.says)
	}
	c, steps := replay(t, run(start("s1", ""), start("s2", `,"parentSubagentRunId":"s1"`), finish("s2"),
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"s1","outcome":{"type":"suspended","interruptIds":[]}}`)...)
	accepted(t, c, steps)
}

// basic/patterns/streaming, "The chunked form": chunks expand into the
// triad, and every rule of the triad applies to the expansion.
func TestChunks(t *testing.T) {
	chunk := func(fields string) string { return `{"type":"TEXT_MESSAGE_CHUNK"` + fields + `}` }
	c, steps := replay(t, run(chunk(`,"messageId":"m","delta":"Chunks "`), chunk(`,"delta":"expand."`))...)
	accepted(t, c, steps)
	if got := delivered(steps); got != "RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END RUN_FINISHED" {
		t.Errorf("delivered %s", got)
	}
	if got := messages(c); got != `[{"id":"m","role":"assistant","content":"Chunks expand."}]` {
		t.Errorf("messages %s", got)
	}

	// "The first chunk of an item carries what opening it requires."
	_, steps = replay(t, started, chunk(`,"delta":"x"`))
	rejected(t, steps, FirstChunk, 1, "First TEXT_MESSAGE_CHUNK must have a messageId")
	_, steps = replay(t, started, `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","delta":"{}"}`)
	rejected(t, steps, FirstChunk, 1, "First TOOL_CALL_CHUNK must have a toolCallName")
	_, steps = replay(t, started, `{"type":"REASONING_MESSAGE_CHUNK","delta":"x"}`)
	rejected(t, steps, FirstChunk, 1, "First REASONING_MESSAGE_CHUNK must have a messageId")

	// "A consumer MUST treat a conflicting repeat as a protocol violation",
	// including against what the opener established by omission.
	_, steps = replay(t, started, chunk(`,"messageId":"m","delta":"x"`), chunk(`,"messageId":"m","role":"user"`))
	rejected(t, steps, ChunkConflict, 2, `role "user" does not match the open stream's role "assistant"`)
	_, steps = replay(t, started, `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"search"}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"delete"}`)
	rejected(t, steps, ChunkConflict, 2, `toolCallName "delete" does not match the open stream's toolCallName "search"`)
	c, steps = replay(t, run(`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"search","parentMessageId":"p","delta":"{\"q\":"}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"search","parentMessageId":"p","delta":"1}"}`)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"p","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"search","arguments":"{\"q\":1}"}}]}]` {
		t.Errorf("messages %s", got)
	}

	// Closing a chunk stream: CUSTOM closes it, RAW stands aside.
	_, steps = replay(t, started, chunk(`,"messageId":"m","delta":"Half "`), `{"type":"CUSTOM","name":"n","value":1}`, chunk(`,"delta":"half"`))
	rejected(t, steps, FirstChunk, 3, "First TEXT_MESSAGE_CHUNK must have a messageId")
	c, steps = replay(t, run(chunk(`,"messageId":"m","delta":"Half "`), `{"type":"RAW","event":{}}`, chunk(`,"delta":"and half."`))...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"m","role":"assistant","content":"Half and half."}]` {
		t.Errorf("messages %s", got)
	}
	// A chunk naming another id closes the first item and opens another.
	c, steps = replay(t, run(chunk(`,"messageId":"a","delta":"1"`), chunk(`,"messageId":"b","delta":"2"`))...)
	accepted(t, c, steps)
	if got := delivered(steps[2:3]); got != "TEXT_MESSAGE_END TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT" {
		t.Errorf("the second chunk delivered %s", got)
	}
	// Explicit events do not continue a chunk stream: mixing forms fails.
	_, steps = replay(t, started, chunk(`,"messageId":"m","delta":"x"`), `{"type":"TEXT_MESSAGE_END","messageId":"m"}`)
	rejected(t, steps, Streaming, 2, `text message "m", which is not open`)
	// Metadata alone still reaches the item; a chunk's rawEvent rides along.
	c, steps = replay(t, run(chunk(`,"messageId":"m","delta":"x","metadata":{"a":1}`), chunk(`,"metadata":{"finish":"stop"},"rawEvent":{"id":7}`))...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"m","role":"assistant","content":"x","metadata":{"a":1,"finish":"stop"}}]` {
		t.Errorf("messages %s", got)
	}
	if got := string(steps[2].Events[0].JSON); !strings.Contains(got, `"rawEvent":{"id":7}`) {
		t.Errorf("delivered %s", got)
	}
}

// Chunk lanes: "a continuation carrying neither an identifier nor a tag
// ... continues the parent agent's open stream of its kind when one
// exists, and otherwise the sole open stream of its kind", else it is
// ambiguous; "A chunk stream MUST NOT outlive its owner".
func TestChunkLanes(t *testing.T) {
	sub := func(id, fields string) string {
		return `{"type":"TEXT_MESSAGE_CHUNK","subagentRunId":"` + id + `"` + fields + `}`
	}
	announce := func(id string) string { return `{"type":"SUBAGENT_STARTED","subagentRunId":"` + id + `","name":"n"}` }
	c, steps := replay(t, run(announce("s1"), sub("s1", `,"messageId":"m","delta":"half "`),
		`{"type":"TEXT_MESSAGE_CHUNK","delta":"assembled"}`, `{"type":"SUBAGENT_FINISHED","subagentRunId":"s1"}`)...)
	accepted(t, c, steps)
	if got := delivered(steps[4:5]); got != "TEXT_MESSAGE_END SUBAGENT_FINISHED" {
		t.Errorf("the subagent's end delivered %s", got)
	}
	if got := messages(c); got != `[{"id":"m","role":"assistant","content":"half assembled","subagentRunId":"s1"}]` {
		t.Errorf("messages %s", got)
	}
	_, steps = replay(t, started, announce("s1"), announce("s2"), sub("s1", `,"messageId":"a"`), sub("s2", `,"messageId":"b"`),
		`{"type":"TEXT_MESSAGE_CHUNK","delta":"whose?"}`)
	rejected(t, steps, ChunkAmbiguous, 5, "ambiguous")
	_, steps = replay(t, started, sub("s1", `,"messageId":"m"`), sub("s2", `,"messageId":"m"`))
	rejected(t, steps, Streaming, 2, `opens text message "m", which is already open`)
}

// An untagged continuation is in its opener's lane (events/subagents:
// "an untagged continuation continues whatever the opener owns"), so it
// ends no chunk stream of the parent agent's.
func TestAnUntaggedContinuationStaysInItsOpenersLane(t *testing.T) {
	c, steps := replay(t, run(
		`{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"n"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"p","delta":"Working"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"found it"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","delta":" on it"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"s1"}`,
	)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"p","role":"assistant","content":"Working on it"},{"id":"m","role":"assistant","content":"found it","subagentRunId":"s1"}]` {
		t.Errorf("messages %s", got)
	}
	// An id-less chunk that resolves to a subagent's stream is in that
	// subagent's lane: the parent's call stream goes on.
	c, steps = replay(t, run(
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a","subagentRunId":"s1"}`,
		`{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"search","delta":"{\"q\":"}`,
		`{"type":"TEXT_MESSAGE_CHUNK","delta":"b"}`,
		`{"type":"TOOL_CALL_CHUNK","delta":"1}"}`,
	)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"m","role":"assistant","content":"ab","subagentRunId":"s1"},{"id":"c","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"search","arguments":"{\"q\":1}"}}]}]` {
		t.Errorf("messages %s", got)
	}
	// An untagged explicit event naming a subagent's chunk stream ends
	// that stream, not the parent's: mixing the forms still fails.
	_, steps = replay(t, started,
		`{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"a","subagentRunId":"s1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"b"}`)
	rejected(t, steps, Streaming, 2, `text message "m", which is not open`)
}
