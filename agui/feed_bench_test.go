package agui_test

import (
	"testing"

	"github.com/agent-analysis/agent-analysis/agui"
)

// BenchmarkFeedStream judges a whole run as the proxy does for each stream
// it passes: the demo's normal scenario, six events.
func BenchmarkFeedStream(b *testing.B) {
	events := [][]byte{
		[]byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.0"}`),
		[]byte(`{"type":"STATE_SNAPSHOT","snapshot":{"services":[{"id":"api","name":"API","series":"Core","volume":1200,"latency":60},{"id":"checkout","name":"Checkout","series":"Core","volume":640,"latency":92},{"id":"auth","name":"Auth","series":"Platform","volume":900,"latency":35}]}}`),
		[]byte(`{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/services/0/latency","value":145}]}`),
		[]byte(`{"type":"STATE_SNAPSHOT","snapshot":{"services":[{"id":"auth","name":"Auth","series":"Platform","volume":900,"latency":35},{"id":"api","name":"API","series":"Core","volume":1200,"latency":145},{"id":"checkout","name":"Checkout","series":"Core","volume":640,"latency":92}]}}`),
		[]byte(`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/services/-","value":{"id":"search","name":"Search","series":"Platform","volume":410,"latency":71}}]}`),
		[]byte(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`),
	}
	in, _, err := agui.ReadInput(clientInput)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := agui.NewConsumer(in, agui.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range events {
			if j := c.Feed(e); j.Violation != nil {
				b.Fatal(j.Violation)
			}
		}
	}
}
