package agui

import (
	"bytes"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// FuzzConsumer feeds a stream of fuzzed events (one a line) to the engine
// of a run with a fuzzed input. It must never panic, and what it holds
// must stay within its bounds and be JSON: once a stream is rejected it
// stays rejected, and the events it delivers are JSON objects whose type
// 1.0 describes.
func FuzzConsumer(f *testing.F) {
	seeds := [][2]string{
		{`{"threadId":"t","runId":"r","messages":[]}`, started + "\n" + finished},
		{`{"threadId":"t","runId":"r","messages":[],"state":{"a":[1]}}`, started + "\n" + `{"type":"STATE_DELTA","delta":[{"op":"copy","from":"/a","path":"/a/-"}]}` + "\n" + finished},
		{``, `{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"x"}` + "\n" + started + "\n" + `{"type":"TEXT_MESSAGE_CHUNK","delta":"y","subagentRunId":"s"}`},
		{``, started + "\n" + `{"type":"THINKING_START"}` + "\n" + `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"user","content":[{"type":"text","text":"x"}]}]}`},
		{``, started + "\n" + `{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"x","content":{}}` + "\n" + `{"type":"ACTIVITY_DELTA","messageId":"a","activityType":"x","patch":[{"op":"add","path":"/k","value":1}]}`},
		{``, `{"type":"RUN_ERROR","message":"m"}` + "\n" + started + "\n" + `{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"f"}` + "\n" + `{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"x"}]}}`},
	}
	for _, s := range seeds {
		f.Add([]byte(s[0]), []byte(s[1]), false)
	}
	f.Fuzz(func(t *testing.T, input, stream []byte, peer bool) {
		in := Input{}
		if len(input) > 0 {
			var err error
			if in, _, err = ReadInput(input); err != nil {
				return
			}
			if _, _, err := in.Request(""); err != nil {
				t.Fatalf("a read input cannot be sent: %v", err)
			}
		}
		opts := Options{}
		if peer {
			opts.Peer = "0.0.39"
		}
		c, err := NewConsumer(in, opts)
		if err != nil {
			return // an input state nothing can hold
		}
		var rejected *Violation
		for line := range bytes.SplitSeq(stream, []byte("\n")) {
			s := c.Feed(line)
			if rejected != nil && s.Violation != rejected {
				t.Fatalf("a rejected stream went on: %+v", s)
			}
			rejected = s.Violation
			for _, e := range s.Events {
				v, err := jsonpatch.Decode(e.JSON)
				if err != nil {
					t.Fatalf("delivered %q: %v", e.JSON, err)
				}
				typ, _ := v.(*jsonpatch.Object).Get("type")
				if Type(typ.(string)) != e.Type || !e.Type.Known() {
					t.Fatalf("delivered a %v as %s", typ, e.Type)
				}
			}
			if len(s.Warnings) > 0 && s.Violation != nil && s.Violation.Index != s.Index {
				t.Fatalf("warned after rejecting")
			}
		}
		c.End()
		if ws, _ := c.Warnings(); len(ws) > MaxWarnings {
			t.Fatalf("%d warnings kept", len(ws))
		}
		if len(c.Messages()) > MaxMessages || len(c.Runs()) > MaxRuns {
			t.Fatalf("unbounded: %d messages, %d runs", len(c.Messages()), len(c.Runs()))
		}
		if _, err := jsonpatch.Decode(c.State().AppendJSON(nil)); err != nil {
			t.Fatalf("the state is not JSON: %v", err)
		}
		for _, m := range c.Messages() {
			if _, err := jsonpatch.Decode(jsonpatch.Encode(m)); err != nil {
				t.Fatalf("a message is not JSON: %v", err)
			}
		}
	})
}
