package proto

import (
	"errors"
	"strings"
	"testing"
)

// What the binary schema cannot carry faithfully: each an *EncodeError
// naming the member's JSON Pointer and why.
func TestEncodeRefusesWhatItCannotCarry(t *testing.T) {
	tests := []struct {
		name, event, pointer, reason string
	}{
		{"not JSON", `{"type":`, "", "not one JSON value"},
		{"a name given twice", `{"type":"RUN_ERROR","message":"a","message":"b"}`, "", "not one JSON value"},
		{"not an object", `[1]`, "", "not an object"},
		{"no type", `{"message":"a"}`, "/type", "absent"},
		{"a type no arm carries", `{"type":"THINKING_START"}`, "/type", "no arm"},
		{"a member the schema lacks", `{"type":"RUN_STARTED","threadId":"t","runId":"r","extra":1}`, "/extra", "no field"},
		{"a member named \"\"", `{"type":"RUN_STARTED","threadId":"t","runId":"r","":"lost"}`, "/", "no field"},
		{"a required string absent", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}`, "/delta", `read back as ""`},
		{"a string that is not one", `{"type":"TEXT_MESSAGE_END","messageId":5}`, "/messageId", "a number"},
		{"a number past a double", `{"type":"STATE_SNAPSHOT","snapshot":{"n":12345678901234567890}}`, "/snapshot/n", "12345678901234567000"},
		{"more digits than a double", `{"type":"STATE_SNAPSHOT","snapshot":[0.1000000000000000055511151231257827]}`, "/snapshot/0", "read back as 0.1"},
		{"an escaped name in a pointer", `{"type":"STATE_SNAPSHOT","snapshot":{"a/b":1e400}}`, "/snapshot/a~1b", "survive"},
		{"a timestamp that is no integer", `{"type":"STEP_STARTED","stepName":"s","timestamp":1.5}`, "/timestamp", "integer"},
		{"a timestamp past 2^53", `{"type":"STEP_STARTED","stepName":"s","timestamp":9007199254740992}`, "/timestamp", "beyond"},
		{"metadata that is no object", `{"type":"STEP_STARTED","stepName":"s","metadata":null}`, "/metadata", "object"},
		{"an empty usage", `{"type":"RUN_ERROR","message":"m","usage":[]}`, "/usage", "cannot tell from absent"},
		{"a delta absent", `{"type":"STATE_DELTA"}`, "/delta", "read back as []"},
		{"an op no number names", `{"type":"STATE_DELTA","delta":[{"op":"frob","path":""}]}`, "/delta/0/op", "no number"},
		{"an op a name already has", `{"type":"STATE_DELTA","delta":[{"op":"2","path":""}]}`, "/delta/0/op", "no number"},
		{"a member of an op", `{"type":"STATE_DELTA","delta":[{"op":"add","path":"","value":1,"why":"x"}]}`, "/delta/0/why", "no field"},
		{"an interrupt outcome without its list", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt"}}`, "/outcome/interrupts", "read back as []"},
		{"an empty outcome type", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":""}}`, "/outcome/type", "no outcome"},
		{"a member of an outcome", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success","why":1}}`, "/outcome/why", "no field"},
		{"interrupts beside an outcome", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"cancelled"},"interrupts":[]}`, "/interrupts", "beside an outcome"},
		{"an empty pending list", `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success","pendingToolCallIds":[]}}`, "/outcome/pendingToolCallIds", "cannot tell from absent"},
		{"a content part no arm carries", `{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":[{"type":"binary","data":"AA"}]}`, "/content/0/type", "no arm"},
		{"tool result content absent", `{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c"}`, "/content", "read back as []"},
		{"a user message without content", `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"1","role":"user"}]}`, "/messages/0/content", "read back as []"},
		{"an assistant message with parts", `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"1","role":"assistant","content":[]}]}`, "/messages/0/content", `"assistant" message cannot carry`},
		{"an activity message with a string", `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"1","role":"activity","activityType":"a","content":"x"}]}`, "/messages/0/content", `"activity" message cannot carry`},
		{"no tool calls, as a list", `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"1","role":"assistant","toolCalls":[]}]}`, "/messages/0/toolCalls", "cannot tell from absent"},
		{"a run input without its lists", `{"type":"RUN_STARTED","threadId":"t","runId":"r","input":{"threadId":"t","runId":"r","messages":[]}}`, "/input/tools", "read back as []"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := Encode([]byte(tt.event))
			var ee *EncodeError
			if !errors.As(err, &ee) || !errors.Is(err, ErrCannotCarry) {
				t.Fatalf("got %x, %v", msg, err)
			}
			if ee.Pointer != tt.pointer || !strings.Contains(ee.Reason, tt.reason) {
				t.Errorf("got %q: %s; want %q, with %q", ee.Pointer, ee.Reason, tt.pointer, tt.reason)
			}
		})
	}
}

// A frame holds the message's length, then the message.
func TestAppendFrame(t *testing.T) {
	out, err := AppendFrame([]byte("x"), []byte(started))
	msg := encoded(t, started)
	if err != nil || string(out) != "x"+string(frame(msg)) {
		t.Errorf("%x, %v", out, err)
	}
	if out, err := AppendFrame([]byte("x"), []byte(`{}`)); err == nil || string(out) != "x" {
		t.Errorf("a refused event leaves dst as it was: %q, %v", out, err)
	}
}
