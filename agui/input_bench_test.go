package agui_test

import (
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
)

// clientInput is the RunAgentInput @ag-ui/client 1.0 sends.
var clientInput = []byte(`{"threadId":"t","runId":"r","protocolVersion":"1.0","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`)

// BenchmarkReadInput reads clientInput: what a server reads before every
// stream.
func BenchmarkReadInput(b *testing.B) {
	body := clientInput
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := agui.ReadInput(body); err != nil {
			b.Fatal(err)
		}
	}
}
