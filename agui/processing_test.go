package agui

import (
	"strings"
	"testing"
)

// The processing model: docs.ag-ui.com/spec/1.0/basic/processing.
// "Unrecognised material is not an error. A malformed known value is."

// basic/transports/http-sse: "Each SSE event's data payload is exactly one
// protocol event as a JSON object".
func TestNotAnEvent(t *testing.T) {
	for data, says := range map[string]string{
		`not json`:                 "not valid JSON",
		`[{"type":"RUN_STARTED"}]`: "not a JSON object but an array",
		`"RUN_STARTED"`:            "not a JSON object but a string",
		`{"type":"RUN_STARTED","type":"RUN_FINISHED"}`:        "duplicate",
		`{"type":"RUN_STARTED"} {}`:                           "data follows the object",
		"{\"type\":\"CUSTOM\",\"name\":\"\xff\",\"value\":1}": "UTF-8",
		`{"type":"CUSTOM","name":"x","value":{"a":1,"a":2}}`:  "duplicate",
		`{"type":"RUN_STAR`:                                   "not valid JSON",
		``:                                                    "not valid JSON",
	} {
		_, steps := replay(t, started, data)
		rejected(t, steps, NotAnEvent, 1, says)
	}
}

// basic/processing: "A field the protocol DOES describe, carrying a value
// the schema rejects, MUST be fatal".
func TestMalformedKnownValueIsFatal(t *testing.T) {
	for data, says := range map[string]string{
		`{"messageId":"m"}`: "/type: is required",
		`{"type":7}`:        "/type: must be a string",
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":42}`:                               "/delta: must be a string, not a number",
		`{"type":"TEXT_MESSAGE_START","messageId":null}`:                                           "/messageId: must be a string, not null",
		`{"type":"TEXT_MESSAGE_START"}`:                                                            "/messageId: is required",
		`{"type":"TEXT_MESSAGE_START","messageId":"m","name":null}`:                                "/name: must be a string, not null",
		`{"type":"STEP_STARTED","stepName":"s","timestamp":1.5}`:                                   "/timestamp: must be an integer, not 1.5",
		`{"type":"STEP_STARTED","stepName":"s","timestamp":"now"}`:                                 "/timestamp: must be an integer, not a string",
		`{"type":"STEP_STARTED","stepName":"s","timestamp":9007199254740992}`:                      "/timestamp: must be an integer of at most",
		`{"type":"STEP_STARTED","stepName":"s","rawEvent":null}`:                                   "/rawEvent: must not be null",
		`{"type":"STEP_STARTED","stepName":"s","metadata":null}`:                                   "/metadata: must be an object, not null",
		`{"type":"STEP_STARTED","stepName":"s","metadata":[1]}`:                                    "/metadata: must be an object",
		`{"type":"STEP_STARTED","stepName":"s","subagentRunId":null}`:                              "/subagentRunId: must be a string",
		`{"type":"REASONING_MESSAGE_START","messageId":"m","role":"assistant"}`:                    `/role: must be "reasoning", not "assistant"`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":"x","role":"user"}`: `/role: must be "tool"`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":7}`:                 "/content: must be a string or an array",
		`{"type":"STATE_DELTA","delta":{"op":"remove","path":"/a"}}`:                               "/delta: must be an array, not an object",
		`{"type":"STATE_DELTA","delta":[{"path":"/a"}]}`:                                           "/delta/0/op: is required",
		`{"type":"STATE_DELTA","delta":[{"op":1,"path":"/a"}]}`:                                    "/delta/0/op: must be a string",
		`{"type":"STATE_DELTA","delta":[{"op":"add","value":1}]}`:                                  "/delta/0/path: is required",
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a"}]}`:                                "/delta/0/value: is required",
		`{"type":"STATE_DELTA","delta":[{"op":"move","path":"/a"}]}`:                               "/delta/0/from: is required",
		`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/a~2b"}]}`:                          "is not a JSON Pointer",
		`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"items/0"}]}`:                        "is not a JSON Pointer",
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1},7]}`:                    "/delta/1: must be an object, not a number",
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"x","content":[1]}`:            "/content: must be an object",
		`{"type":"REASONING_ENCRYPTED_VALUE","subtype":7,"entityId":"m","encryptedValue":"x"}`:     "/subtype: must be a string",
		`{"type":"SUBAGENT_STARTED","subagentRunId":"s1"}`:                                         "/name: is required",
		`{"type":"CUSTOM","name":"x"}`:                                                             "/value: is required",
	} {
		_, steps := replay(t, started, data)
		rejected(t, steps, Malformed, 1, says)
	}
	// RUN_FINISHED's outcome: a malformed value in its slot is fatal, never
	// stripped (an interrupt would be lost with it).
	for outcome, says := range map[string]string{
		`[{"type":"interrupt","interrupts":[{"id":"i","reason":"r"}]}]`: "/outcome: must be an object, not an array",
		`null`:                                         "/outcome: must be an object, not null",
		`{"interrupts":[]}`:                            "/outcome/type: is required",
		`{"type":"interrupt","interrupts":[]}`:         "/outcome/interrupts: must hold at least 1 item",
		`{"type":"interrupt","interrupts":[42]}`:       "/outcome/interrupts/0: must be an object",
		`{"type":"success","pendingToolCallIds":[42]}`: "/outcome/pendingToolCallIds/0: must be a string",
	} {
		_, steps := replay(t, started, `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":`+outcome+`}`)
		rejected(t, steps, Malformed, 1, says)
	}
	_, steps := replay(t, started, `{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"inputTokens":-1}]}`)
	rejected(t, steps, Malformed, 1, "/usage/0/inputTokens: must not be negative")
	// An integer may be written 1.0; the type must be one the schema names.
	c, steps := replay(t, started, `{"type":"STEP_STARTED","stepName":"s","timestamp":1.0e3}`, `{"type":"STEP_FINISHED","stepName":"s","timestamp":-5}`, finished)
	accepted(t, c, steps)
}

// basic/processing: "An event of a type this implementation does not
// recognise MUST NOT abort the run ... Drop it ... SHOULD emit a warning
// naming the type."
func TestUnknownEventIsDropped(t *testing.T) {
	c, steps := replay(t, started, `{"type":"FUTURE_EVENT","somethingNew":true}`, finished)
	accepted(t, c, steps)
	if got := delivered(steps); got != "RUN_STARTED RUN_FINISHED" {
		t.Errorf("delivered %s", got)
	}
	if ws := warned(steps); len(ws) != 1 || ws[0].Rule != UnknownEvent || !strings.Contains(ws[0].Text, "FUTURE_EVENT") {
		t.Errorf("warnings %v", ws)
	}
	// Every 1.0 family is well-formed traffic, not unrecognised material.
	c, steps = replay(t, run(
		`{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}`, `{"type":"SUBAGENT_ERROR","subagentRunId":"s","message":"m"}`,
		`{"type":"RAW","event":null}`, `{"type":"CUSTOM","name":"com.example.x","value":null}`,
		`{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"search","content":{}}`,
	)...)
	accepted(t, c, steps)
	if ws := warned(steps); len(ws) != 0 {
		t.Errorf("warnings %v", ws)
	}
}

// basic/processing: "A property that is not described on an event MUST
// NOT abort the run ... Strip it ... warning naming the path"; "MUST NOT
// let a stripped property survive into the value application code
// receives". Where the schema leaves an object open, nothing is stripped.
func TestUnknownPropertyIsStripped(t *testing.T) {
	c, steps := replay(t, run(cat(
		[]string{`{"type":"TEXT_MESSAGE_START","messageId":"m","futureProp":{"x":1},"role":"assistant"}`},
		[]string{`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi","Delta":"case variant"}`},
		[]string{`{"type":"TEXT_MESSAGE_END","messageId":"m"}`},
	)...)...)
	accepted(t, c, steps)
	if got := string(steps[1].Events[0].JSON); got != `{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}` {
		t.Errorf("delivered %s", got)
	}
	if got := string(steps[2].Events[0].JSON); got != `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}` {
		t.Errorf("delivered %s", got)
	}
	ws := warned(steps)
	if len(ws) != 2 || !strings.Contains(ws[0].Text, "/futureProp") || !strings.Contains(ws[1].Text, "/Delta") {
		t.Errorf("warnings %v", ws)
	}
	// Run events carry no attribution: a tag there is unrecognised.
	c, steps = replay(t, `{"type":"RUN_STARTED","threadId":"t","runId":"r","subagentRunId":"s"}`, finished)
	accepted(t, c, steps)
	if ws := warned(steps); len(ws) != 1 || !strings.Contains(ws[0].Text, "/subagentRunId") {
		t.Errorf("warnings %v", ws)
	}
	// Open objects: metadata keys, patch operations' extra members.
	c, steps = replay(t, run(
		`{"type":"STATE_SNAPSHOT","snapshot":{"items":["a","b"]},"metadata":{"acme/x":null}}`,
		`{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/items/1","value":"b","why":"done"}]}`,
	)...)
	accepted(t, c, steps)
	if ws := warned(steps); len(ws) != 0 || state(c) != `{"items":["a"]}` {
		t.Errorf("warnings %v, state %s", ws, state(c))
	}
	if got := string(steps[2].Events[0].JSON); !strings.Contains(got, `"why":"done"`) {
		t.Errorf("an operation's extra member was stripped: %s", got)
	}
}

// basic/processing: "A union member the implementation does not recognise
// ... MUST NOT abort the run"; in an optional position the field goes, in
// a required one the value holding it, in a list the item.
func TestUnknownUnionMemberIsStripped(t *testing.T) {
	tests := []struct {
		name, event, path, delivered string
	}{
		{"an outcome, optional", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"paused"}}`,
			"/outcome", `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`},
		{"a member of an outcome", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"cancelled","interrupts":[]}}`,
			"/outcome/interrupts", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"cancelled"}}`},
		{"a role, optional", `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"narrator","delta":"x"}`,
			"/role", ``},
		{"a subtype, required: the event goes", `{"type":"REASONING_ENCRYPTED_VALUE","subtype":"thought","entityId":"m","encryptedValue":"x"}`,
			"subtype", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := []string{started, tt.event}
			if !strings.Contains(tt.event, "RUN_FINISHED") {
				events = append(events, finished)
			}
			c, steps := replay(t, events...)
			accepted(t, c, steps)
			ws := warned(steps)
			if len(ws) != 1 || !strings.Contains(ws[0].Text, tt.path) {
				t.Errorf("warnings %v", ws)
			}
			if tt.delivered != "" && string(steps[1].Events[0].JSON) != tt.delivered {
				t.Errorf("delivered %s", steps[1].Events[0].JSON)
			}
		})
	}
	// In a list: the item goes, the list stays.
	c, steps := replay(t, run(`{"type":"MESSAGES_SNAPSHOT","messages":[`+
		`{"id":"u","role":"user","content":[{"type":"text","text":"before"},{"type":"hologram","x":1},`+
		`{"type":"image","source":{"type":"carrier-pigeon","value":"x"}},{"type":"text","text":"after"}]},`+
		`{"id":"n","role":"narrator","content":"?"}]}`)...)
	accepted(t, c, steps)
	if got := messages(c); got != `[{"id":"u","role":"user","content":[{"type":"text","text":"before"},{"type":"text","text":"after"}]}]` {
		t.Errorf("messages %s", got)
	}
	var paths []string
	for _, w := range warned(steps) {
		paths = append(paths, strings.Fields(w.Text)[1])
	}
	if strings.Join(paths, " ") != "/messages/0/content/1 /messages/0/content/2 /messages/1" {
		t.Errorf("removed %v", paths)
	}
}

// basic/transports/http-sse: an event is a JSON object, and JSON may
// escape any character: an escaped name or value is the same name or
// value (the engine shares the schema's strings only for exact text).
func TestEscapesReadAsWhatTheyStandFor(t *testing.T) {
	c, steps := replay(t, run(
		`{"typ\u0065":"TEXT_MESSAGE_\u0053TART","messageId":"\u0061","r\u006fle":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","message\u0049d":"a","delta":"caf\u00e9"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"a"}`,
		`{"type":"STATE_DELTA","delta":[{"\u006fp":"\u0061dd","p\u0061th":"/k~1\u0030","value":1}]}`,
	)...)
	accepted(t, c, steps)
	if len(warned(steps)) != 0 {
		t.Errorf("warnings %v", warned(steps))
	}
	if got, want := messages(c), `[{"id":"a","role":"assistant","content":"café"}]`; got != want {
		t.Errorf("messages %s, want %s", got, want)
	}
	if got, want := state(c), `{"k/0":1}`; got != want {
		t.Errorf("state %s, want %s", got, want)
	}
}
