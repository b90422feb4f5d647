package check

import (
	"os"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/script"
)

// BenchmarkCorpusReplay replays every script of a directory through the
// engine, as `agent-analysis check` does: $AGUI_CORPUS (the AG-UI
// conformance corpus, say), else this repository's own fixtures. It
// reports microseconds per event.
func BenchmarkCorpusReplay(b *testing.B) {
	dir := os.Getenv("AGUI_CORPUS")
	if dir == "" {
		dir = "../../fixtures"
	}
	paths, err := script.Paths(dir)
	if err != nil {
		b.Fatal(err)
	}
	var scripts []script.Script
	events := 0
	for _, path := range paths {
		s, err := script.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		scripts = append(scripts, s)
		for _, st := range s.Frames {
			if st.Event != nil {
				events++
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range scripts {
			Run(s)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(b.N*events), "µs/event")
	b.ReportMetric(float64(len(scripts)), "files")
	b.ReportMetric(float64(events), "events")
}
