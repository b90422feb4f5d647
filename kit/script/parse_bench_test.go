package script

import (
	"fmt"
	"strings"
	"testing"
)

// Parsing costs the same per event however many the file holds, written
// on one line or one a line (ns/event at 5,000 and at 20,000 events), and
// the same per continuation however many follow (ns/continuation).
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		for _, sep := range []string{",", ",\n"} {
			events := make([]string, n)
			for i := range events {
				events[i] = fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"%d"}`, i)
			}
			doc := []byte("[" + strings.Join(events, sep) + "]")
			name := fmt.Sprintf("events=%d/lines=%d", n, strings.Count(string(doc), "\n")+1)
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					if _, err := Parse(doc, "x"); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
			})
		}
	}
	for _, n := range []int{5000, 20000} {
		conts := make([]string, n)
		for i := range conts {
			conts[i] = fmt.Sprintf(`{"name":"c%d","when":[{"interruptId":"i"}],"stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r%d"}]}`, i, i)
		}
		doc := []byte(`{"stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r"},` +
			`{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i","reason":"r"}]}}],` +
			"\n\"continuations\":[\n" + strings.Join(conts, ",\n") + "]}")
		b.Run(fmt.Sprintf("continuations=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Parse(doc, "x"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/continuation")
		})
	}
}
