// Package gcpace sets the garbage collector's pace of agent-analysis, and
// of the floors bench/ measures it against, so that both run alike.
package gcpace

import "runtime/debug"

// Percent is the collector's pace (GOGC) unless the environment sets one.
// A stream leaves some kilobytes of garbage against a live heap of a few
// megabytes, and at Go's default of 100 the collector took about a fifth
// of the server's CPU per stream with 128 streams at once, and a sixth of
// the proxy's (docs/performance.md). At 400 the heap may grow to five
// times what is live before the next collection.
const Percent = 400

// Set sets the collector's pace, unless GOGC (read with getenv) does.
func Set(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
}
