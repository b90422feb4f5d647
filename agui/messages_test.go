package agui

import (
	"strings"
	"testing"
)

// The conversation: events/text-messages, events/tool-calls,
// events/reasoning, events/activity, events/state (MESSAGES_SNAPSHOT) and
// basic/metadata.

func TestMessagesAssemble(t *testing.T) {
	c, steps := replay(t, run(
		`{"type":"TEXT_MESSAGE_START","messageId":"a","name":"planner"}`, // an absent role means assistant
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"Looking it up."}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"a"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"search","parentMessageId":"a"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"q\":"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"\"agui\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c","content":[{"type":"text","text":"3 found"},{"type":"document","source":{"type":"file","value":"file-1","provider":"openai"}}]}`,
		`{"type":"TOOL_CALL_START","toolCallId":"d","toolCallName":"chart"}`, // no parent: an assistant message of its own
		`{"type":"TOOL_CALL_END","toolCallId":"d"}`,
	)...)
	accepted(t, c, steps)
	want := `[{"id":"a","role":"assistant","name":"planner","content":"Looking it up.","toolCalls":[{"id":"c","type":"function","function":{"name":"search","arguments":"{\"q\":\"agui\"}"}}]},` +
		`{"id":"r1","role":"tool","content":[{"type":"text","text":"3 found"},{"type":"document","source":{"type":"file","value":"file-1","provider":"openai"}}],"toolCallId":"c"},` +
		`{"id":"d","role":"assistant","toolCalls":[{"id":"d","type":"function","function":{"name":"chart","arguments":""}}]}]`
	if got := messages(c); got != want {
		t.Errorf("messages\n%s\nwant\n%s", got, want)
	}
}

// events/tool-calls: parentMessageId "attaches the call to the assistant
// message that carries it"; a call naming another kind of message is held
// in an assistant message of its own, with a warning.
func TestACallsParentIsAnAssistantMessage(t *testing.T) {
	c, steps := replay(t, run(
		`{"type":"TEXT_MESSAGE_START","messageId":"u","role":"user"}`, `{"type":"TEXT_MESSAGE_END","messageId":"u"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"u"}`, `{"type":"TOOL_CALL_END","toolCallId":"c"}`,
	)...)
	accepted(t, c, steps)
	if ws := warned(steps); len(ws) != 1 || ws[0].Rule != CallParent || !strings.Contains(ws[0].Text, `names message "u" as the parent of call "c", but it is a user message`) {
		t.Errorf("warnings %v", ws)
	}
	if got := messages(c); got != `[{"id":"u","role":"user","content":""},{"id":"c","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":""}}]}]` {
		t.Errorf("messages %s", got)
	}
}

// basic/metadata: "merge the metadata of every event making up an item,
// key by key, with the last write winning"; "The merge MUST NOT recurse";
// tool-call metadata lands "on the tool call itself".
func TestMetadataMerges(t *testing.T) {
	c, steps := replay(t, run(
		`{"type":"TEXT_MESSAGE_START","messageId":"m","metadata":{"a":1,"trace":["one","two"],"n":{"x":1}}}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"done","metadata":{"trace":["three"],"n":{"y":2},"z":null}}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m","metadata":{"attempt":1}}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c","metadata":{"attempt":2}}`,
	)...)
	accepted(t, c, steps)
	want := `[{"id":"m","role":"assistant","content":"done","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":""},"metadata":{"attempt":2}}],` +
		`"metadata":{"a":1,"trace":["three"],"n":{"y":2},"z":null}}]`
	if got := messages(c); got != want {
		t.Errorf("messages\n%s\nwant\n%s", got, want)
	}
}

// events/state, MESSAGES_SNAPSHOT: replaced in place, new ones appended,
// absent ones dropped — but for activity and reasoning messages, unless
// the snapshot carries some of that role.
func TestMessagesSnapshotReconciles(t *testing.T) {
	in := input(t, `{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":"hi"}]}`)
	events := cat([]string{started}, text("a", "first draft"), text("b", "retracted"), []string{
		`{"type":"REASONING_MESSAGE_START","messageId":"th","role":"reasoning"}`, `{"type":"REASONING_MESSAGE_END","messageId":"th"}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"search","content":{"found":1}}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"new","role":"assistant","content":"appended"},{"id":"a","role":"assistant","content":"corrected"},{"id":"u","role":"user","content":"hi"}]}`,
		finished,
	})
	c, steps := replayWith(t, in, Options{}, events...)
	accepted(t, c, steps)
	want := `[{"id":"u","role":"user","content":"hi"},{"id":"a","role":"assistant","content":"corrected"},` +
		`{"id":"th","role":"reasoning","content":""},{"id":"act","role":"activity","activityType":"search","content":{"found":1}},` +
		`{"id":"new","role":"assistant","content":"appended"}]`
	if got := messages(c); got != want {
		t.Errorf("messages\n%s\nwant\n%s", got, want)
	}
	// A snapshot carrying a reasoning message declares the whole set.
	c, steps = replay(t, run(`{"type":"REASONING_MESSAGE_START","messageId":"th","role":"reasoning"}`, `{"type":"REASONING_MESSAGE_END","messageId":"th"}`,
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"other","role":"reasoning","content":"x"}]}`)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"other","role":"reasoning","content":"x"}]` {
		t.Errorf("messages %s", got)
	}
}

// events/activity: a snapshot creates or replaces; "replace: false" leaves
// the message as it stands; a delta patches the content; a delta naming
// no activity "is skipped; the consumer SHOULD surface a warning, and MUST
// NOT fail the run".
func TestActivity(t *testing.T) {
	c, steps := replay(t, run(
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"web_search","content":{"query":"ag-ui","found":0},"metadata":{"k":1}}`,
		`{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"web_search","patch":[{"op":"replace","path":"/found","value":3}]}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"file_search","content":{},"replace":false}`,
		`{"type":"ACTIVITY_DELTA","messageId":"missing","activityType":"x","patch":[]}`,
		`{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"web_search","patch":[{"op":"remove","path":"/nothing"}]}`,
	)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"a","role":"activity","activityType":"web_search","content":{"query":"ag-ui","found":3},"metadata":{"k":1}}]` {
		t.Errorf("messages %s", got)
	}
	ws := warned(steps)
	if len(ws) != 2 || ws[0].Rule != ActivityTarget || ws[1].Rule != PatchFailed {
		t.Errorf("warnings %v", ws)
	}
	c, steps = replay(t, run(`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"x","content":{"v":1}}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"y","content":{"v":2},"subagentRunId":"s"}`)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"a","role":"activity","activityType":"y","content":{"v":2},"subagentRunId":"s"}]` {
		t.Errorf("a replacing snapshot re-mints the activity: %s", got)
	}
}

// events/reasoning: "A consumer MUST store the value with the message or
// tool call it names"; one naming nothing known: "SHOULD warn and MAY drop
// it, and MUST NOT fail the run".
func TestEncryptedValues(t *testing.T) {
	c, steps := replay(t, run(cat(text("m", "answer"), []string{
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"m"}`, `{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"m","encryptedValue":"b3BhcXVl"}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"c","encryptedValue":"Y2FsbA=="}`,
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":"message","entityId":"absent","encryptedValue":"eA=="}`,
	})...)...)
	accepted(t, c, steps)
	if got := messages(c); !strings.Contains(got, `"function":{"name":"f","arguments":""},"encryptedValue":"Y2FsbA=="`) || !strings.Contains(got, `"encryptedValue":"b3BhcXVl"`) {
		t.Errorf("messages %s", got)
	}
	if ws := warned(steps); len(ws) != 1 || ws[0].Rule != UnknownEntity || !strings.Contains(ws[0].Text, `"absent"`) {
		t.Errorf("warnings %v", ws)
	}
}

// basic/versioning, "Retired shapes": "A consumer SHOULD translate a
// retired shape into its replacement rather than drop it", and warn when
// that loses content.
func TestRetiredThinkingIsTranslated(t *testing.T) {
	c, steps := replay(t, run(
		`{"type":"THINKING_START","title":"Working"}`,
		`{"type":"THINKING_TEXT_MESSAGE_START"}`,
		`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"Let me check."}`,
		`{"type":"THINKING_TEXT_MESSAGE_END"}`,
		`{"type":"THINKING_END"}`,
	)...)
	accepted(t, c, steps)
	if got := delivered(steps); got != "RUN_STARTED REASONING_START REASONING_MESSAGE_START REASONING_MESSAGE_CONTENT REASONING_MESSAGE_END REASONING_END RUN_FINISHED" {
		t.Errorf("delivered %s", got)
	}
	if got := messages(c); got != `[{"id":"thinking-message-1","role":"reasoning","content":"Let me check."}]` {
		t.Errorf("messages %s", got)
	}
	ws := warned(steps)
	if len(ws) != 5 || !strings.Contains(ws[0].Text, "THINKING_START into REASONING_START, losing title") {
		t.Errorf("warnings %v", ws)
	}
}
