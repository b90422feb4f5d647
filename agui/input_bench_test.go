package agui_test

import (
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
)

// BenchmarkReadInput reads the RunAgentInput @ag-ui/client 1.0 sends:
// what a server reads before every stream.
func BenchmarkReadInput(b *testing.B) {
	body := []byte(`{"threadId":"t","runId":"r","protocolVersion":"1.0","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := agui.ReadInput(body); err != nil {
			b.Fatal(err)
		}
	}
}
