package agui_test

import (
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
)

// clientInput is the RunAgentInput @ag-ui/client 1.0 sends.
var clientInput = []byte(`{"threadId":"t","runId":"r","protocolVersion":"1.0","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`)

// conversationInput is a chat client's input some turns in: messages
// of each role, a tool call and its result, two tools offered.
var conversationInput = []byte(`{"threadId":"t","runId":"r4","protocolVersion":"1.0","state":{"city":"Oslo"},` +
	`"messages":[{"id":"m1","role":"system","content":"You plan trips."},` +
	`{"id":"m2","role":"user","content":"Weather in Oslo tomorrow?"},` +
	`{"id":"m3","role":"assistant","content":"Let me look.","toolCalls":[{"id":"c1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Oslo\"}"}}]},` +
	`{"id":"m4","role":"tool","content":"{\"high\":3,\"low\":-2}","toolCallId":"c1"},` +
	`{"id":"m5","role":"assistant","content":"3 degrees at most, -2 at night."},` +
	`{"id":"m6","role":"user","content":"And the day after?"}],` +
	`"tools":[{"name":"weather","description":"A city's forecast","parameters":{"type":"object","properties":{"city":{"type":"string"}}}},` +
	`{"name":"book","description":"Books a trip","parameters":{"type":"object"}}],` +
	`"context":[{"description":"locale","value":"en-GB"}],"forwardedProps":{}}`)

// BenchmarkReadInput reads what a server reads before every stream: the
// input a stock client sends first, and one some turns into a chat.
func BenchmarkReadInput(b *testing.B) {
	for _, c := range []struct {
		name string
		body []byte
	}{{"first", clientInput}, {"conversation", conversationInput}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, warnings, err := agui.ReadInput(c.body); err != nil || len(warnings) > 0 {
					b.Fatal(err, warnings)
				}
			}
		})
	}
}
