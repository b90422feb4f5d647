package proto

import (
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

// The three events the guide measures (docs/agent-analysis.md, "Binary beside JSON"), as JSON.
var typical = []struct{ name, event string }{
	{"StateDelta", `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/latency","value":145},{"op":"add","path":"/services/-","value":{"id":"search","name":"Search","series":"Platform","volume":410,"latency":71}}]}`},
	{"TextMessageContent", `{"type":"TEXT_MESSAGE_CONTENT","messageId":"msg-1","delta":"API p95 rose from 60 to 145 ms."}`},
	{"RunFinishedInterrupt", `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"int-1","reason":"confirmation","message":"Roll back API's deploy?","toolCallId":"call-1","responseSchema":{"type":"object","properties":{"approved":{"type":"boolean"}},"required":["approved"]}}]}}`},
}

// BenchmarkDecode turns one binary event into its JSON, into a buffer
// reused as a Reader reuses it.
func BenchmarkDecode(b *testing.B) {
	for _, tt := range typical {
		msg := encoded(b, tt.event)
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(msg)))
			var out []byte
			for b.Loop() {
				var err error
				if out, err = AppendDecode(out[:0], msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadJSON reads the same event's JSON as the engine reads any
// value (jsonpatch.Reader: valid UTF-8, no name twice): what SSE costs
// before judging, against which Decode's cost is an addition.
func BenchmarkReadJSON(b *testing.B) {
	for _, tt := range typical {
		data := []byte(tt.event)
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				r := jsonpatch.NewReader(data)
				if err := r.SkipValue(); err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
		})
	}
}

// BenchmarkFeedJSON is the engine judging the event's JSON
// (agui.Consumer.Feed), as it does after either transport; the consumer
// is made ready for it, untimed, before each event.
func BenchmarkFeedJSON(b *testing.B) {
	for _, tt := range typical {
		data := []byte(tt.event)
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				c := ready(b, tt.name == "TextMessageContent")
				b.StartTimer()
				if j := c.Feed(data); j.Violation != nil {
					b.Fatal(j.Violation)
				}
			}
		})
	}
}

// ready is a consumer inside a run, with a message open when asked.
func ready(b *testing.B, message bool) *agui.Consumer {
	in, _, err := agui.ReadInput([]byte(`{"threadId":"t1","runId":"r1","messages":[],"state":{"services":[{"id":"api","latency":60}]}}`))
	if err != nil {
		b.Fatal(err)
	}
	c, err := agui.NewConsumer(in, agui.Options{})
	if err != nil {
		b.Fatal(err)
	}
	c.Feed([]byte(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`))
	if message {
		c.Feed([]byte(`{"type":"TEXT_MESSAGE_START","messageId":"msg-1","role":"assistant"}`))
	}
	return c
}
